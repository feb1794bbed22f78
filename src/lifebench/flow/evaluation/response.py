"""The response score (paper Listing 2): a judge grades a predicted reply 1–10 against the
gold reply, given the text-format workflow.

Only gold *reply* turns are scored. A prediction that gives no reply there (it calls a tool or
says nothing) scores 1 without asking the judge — the user needed an answer and got none — and
is counted as ``missing``. Tool turns are not scored (``info.score`` is None).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from lifebench.evaluation import BasisResult, ShapeError, ask_json
from lifebench.flow.evaluation.prediction import prediction_of
from lifebench.flow.evaluation.prompts import RESPONSE_SYSTEM, response_prompt
from lifebench.flow.evaluation.turn import sample_meta, the_prediction
from lifebench.flow.tasks.models import FlowMessage, TurnSample
from lifebench.models import ChatModel, GenerateConfig
from lifebench.simulation import Simulation

GRADER_VERSION = 2
"""Version of this module's grading rules: bump it with any change to them (CONTRIBUTING.md)."""

BASIS = "response"
MISSING_SCORE = 1


def check_score(parsed: Any) -> int:
    """Shape check: ``{"score": n}`` with an integer 1..10."""
    if isinstance(parsed, list) and parsed:
        parsed = parsed[0]
    value = parsed.get("score") if isinstance(parsed, dict) else parsed
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ShapeError('expected {"score": <integer 1-10>}')
    if not 1 <= value <= 10:
        raise ShapeError("score must be between 1 and 10")
    return value


def history_text(history: Sequence[FlowMessage], last: int = 8) -> str:
    """The last ``last`` messages of a gold history as plain lines."""
    lines = []
    for m in history[-last:]:
        who = f"API {m.name} returned" if m.role == "function" else m.role
        lines.append(f"{who}: {m.content.strip()}")
    return "\n".join(lines)


class ResponseJudge:
    """The ``response`` basis: reward = score / 10 on reply turns."""

    def __init__(
        self,
        model: ChatModel,
        workflow_of: Callable[[Any], str],
        *,
        knowledge_format: str = "",
    ) -> None:
        self._model = model
        self._workflow_of = workflow_of
        self._format = knowledge_format

    @property
    def basis(self) -> str:
        """``response``."""
        return BASIS

    def _result(self, task: TurnSample, score: int | None, **info: Any) -> BasisResult:
        value = 1.0 if score is None else score / 10
        return BasisResult(
            basis=BASIS,
            reward=value,
            score=value,
            info={**sample_meta(task), "format": self._format, "score": score, **info},
        )

    async def evaluate(self, task: Any, simulation: Simulation) -> BasisResult:
        """Score the predicted reply of a reply turn."""
        if not isinstance(task, TurnSample):
            raise TypeError(f"the response judge grades turn samples, not {type(task).__name__}")
        if task.gold.thought.action:
            return self._result(task, None, note="tool turn; not scored")
        pred = prediction_of(the_prediction(simulation))
        if not pred.response or pred.action is not None:
            return self._result(task, MISSING_SCORE, missing=True)
        answer = await ask_json(
            self._model,
            RESPONSE_SYSTEM,
            response_prompt(
                task.gold.response.strip(),
                pred.response,
                self._workflow_of(task),
                history_text(task.history),
            ),
            check_score,
            config=GenerateConfig(temperature=0.0, seed=simulation.seed),
        )
        result = self._result(task, answer.value, missing=False)
        return result.model_copy(update={"usage": answer.usage})

"""Turn-level scoring: one predicted agent turn against the gold turn.

Per turn (spec §2.3, weak points of §5.4 fixed):

* gold calls: 1 when the gold turn calls a tool (also a tool without arguments);
* predicted calls: 1 when the prediction calls a tool, on any turn (calls on reply turns count
  against precision);
* correct calls: the predicted name equals the gold name and every non-empty gold argument
  matches (:mod:`lifebench.flow.evaluation.matching`);
* parameters, on gold tool turns only: gold = non-empty gold arguments, predicted = non-empty
  predicted arguments, correct = gold arguments passed with a matching value — whatever the
  predicted tool name (official), or only under the right name (``strict_params``);
* node: the Thought's ``current_node`` against the gold one (as sets of ids), when the gold
  turn has a node;
* format: 1 when the final prediction is unusable ReAct text, and the number of unusable
  replies on the way (re-asked ones included).

The counters are summed over turns by the report (micro averages).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from lifebench.evaluation import BasisResult, CriterionVerdict
from lifebench.flow.agents.convert import react_text
from lifebench.flow.evaluation.arguments import ArgumentMatcher, FuzzyJudge, ToolDocs
from lifebench.flow.evaluation.matching import gold_keys
from lifebench.flow.evaluation.official import official_prediction, official_turn
from lifebench.flow.evaluation.prediction import Prediction, normalize_node, prediction_of
from lifebench.flow.tasks.models import TurnSample
from lifebench.messages import AssistantMessage
from lifebench.simulation import Simulation, TerminationReason

GRADER_VERSION = 2
"""Version of this module's grading rules: bump it with any change to them (CONTRIBUTING.md)."""

BASIS = "turn"


@dataclass(frozen=True)
class TurnScore:
    """The counters of one turn (all 0/1 except the parameter counts)."""

    gold_call: int
    pred_call: int
    pred_reply: int
    correct_call: int
    gold_params: int
    pred_params: int
    correct_params: int
    node_gold: int
    node_correct: int
    format_error: int
    unusable_replies: int = 0

    @property
    def correct(self) -> bool:
        """A tool turn with the right call, or a reply turn answered with a reply."""
        if self.gold_call:
            return bool(self.correct_call)
        return bool(self.pred_reply) and not self.pred_call and not self.format_error


async def score_turn(
    gold_action: str | None,
    gold_arguments: dict[str, Any] | None,
    gold_node: str | None,
    pred: Prediction,
    matcher: ArgumentMatcher,
    *,
    strict_params: bool = False,
) -> TurnScore:
    """Score one prediction against the gold turn (``gold_action`` None = a reply turn)."""
    gold_call = gold_action is not None
    pred_call = pred.action is not None
    correct_call = False
    gold_params = pred_params = correct_params = 0
    if gold_action is not None:
        correct_call = await matcher.call(gold_action, gold_arguments, pred.action, pred.arguments)
        gold_params = len(gold_keys(gold_arguments))
        if pred_call:
            pred_params = pred.n_arguments
            if not strict_params or pred.action == gold_action:
                correct_params = await matcher.param_hits(
                    gold_action, gold_arguments, pred.arguments
                )
    node = normalize_node(gold_node)
    return TurnScore(
        gold_call=int(gold_call),
        pred_call=int(pred_call),
        pred_reply=int(bool(pred.response)),
        correct_call=int(correct_call),
        gold_params=gold_params,
        pred_params=pred_params,
        correct_params=correct_params,
        node_gold=int(bool(node)),
        node_correct=int(bool(node) and normalize_node(pred.current_node) == node),
        format_error=int(pred.format_error),
        unusable_replies=max(pred.unusable_replies, int(pred.format_error)),
    )


def tool_docs(tools: Any, now: str) -> ToolDocs:
    """Matcher documentation from a task's :class:`~lifebench.flow.kb.ToolDef` list."""
    return ToolDocs(
        blocks={t.name: t.api_block() for t in tools},
        params={t.name: {k: p.description for k, p in t.inputs.items()} for t in tools},
        now=now,
    )


def the_prediction(simulation: Simulation) -> AssistantMessage | None:
    """The one prediction of a static episode (None when there is none)."""
    for m in simulation.messages:
        if isinstance(m, AssistantMessage):
            return m
    return None


def sample_meta(task: TurnSample) -> dict[str, Any]:
    """What the report groups turns by."""
    return {
        "domain": task.domain or "(unknown)",
        "role": task.role or "(unknown)",
        "setting": task.setting,
        "session": task.session_id,
    }


class TurnEvaluator:
    """The ``turn`` basis: tool-call, parameter and node counters of one predicted turn.

    Reward 1 when the turn is right (the right call on a tool turn; a reply and no call on a
    reply turn). With a judge, argument values the rules cannot settle are asked.
    """

    def __init__(
        self,
        judge: FuzzyJudge | None = None,
        *,
        strict_params: bool = False,
        knowledge_format: str = "",
    ) -> None:
        self._judge = judge
        self._strict = strict_params
        self._format = knowledge_format

    @property
    def basis(self) -> str:
        """``turn``."""
        return BASIS

    async def evaluate(self, task: Any, simulation: Simulation) -> BasisResult:
        """Score the static episode's prediction of ``task`` (a :class:`TurnSample`)."""
        if not isinstance(task, TurnSample):
            raise TypeError(f"the turn evaluator grades turn samples, not {type(task).__name__}")
        if simulation.termination is not TerminationReason.STATIC:
            return BasisResult(
                basis=BASIS,
                reward=0.0,
                score=0.0,
                note=f"not a turn-level prediction (episode ended with "
                f"{simulation.termination.value}); ungradable",
                info={**sample_meta(task), "ungradable": True},
                gradable=False,
            )
        message = the_prediction(simulation)
        pred = prediction_of(message)
        thought = task.gold.thought
        matcher = ArgumentMatcher(tool_docs(task.tools, task.datetime), self._judge)
        gold_action = thought.action or None
        score = await score_turn(
            gold_action,
            thought.arguments(),
            thought.current_node,
            pred,
            matcher,
            strict_params=self._strict,
        )
        expected = f"call {gold_action}" if gold_action else "reply to the user"
        got = f"call {pred.action}" if pred.action else ("reply" if pred.response else "nothing")
        verdicts = [
            CriterionVerdict(
                id="action",
                description=f"The agent should {expected}.",
                met=score.correct,
                evidence=f"predicted: {got}",
            )
        ]
        raw = (message.raw or {}) if message else {}
        official = official_turn(
            official_prediction(react_text(message)) if message else "",
            thought.action,
            thought.action_input,
            lambda key, g, p: matcher.verdict(gold_action or pred.action or "", key, g, p),
        )
        return BasisResult(
            basis=BASIS,
            reward=1.0 if score.correct else 0.0,
            score=1.0 if score.correct else 0.0,
            criteria=verdicts,
            usage=matcher.usage,
            info={
                **sample_meta(task),
                "format": self._format,
                "counts": asdict(score),
                "gold_action": gold_action,
                "pred_action": pred.action,
                "pred_node": pred.current_node,
                "gold_node": thought.current_node or "",
                "judge_asked": matcher.asked,
                "unsure_values": matcher.unsure,
                "extra_calls": pred.extra_calls,
                "notes": list(raw.get("notes", [])),
                "official": official.as_info(),
            },
        )

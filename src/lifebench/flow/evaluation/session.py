"""Session-level scoring: tool P/R/F1 with one-to-one matching, and task completion.

Tool calls (spec §3.6 with its bugs fixed): every call the agent made is a predicted call (also
one that failed); the gold calls are the task's. A gold call and a predicted call *can* match when
:meth:`ArgumentMatcher.call` accepts the pair; the correct calls are a maximum one-to-one
matching of these pairs (a predicted call satisfies at most one gold call). The official count —
a gold call is right when *any* predicted call matches it, so one call can satisfy several
identical gold calls — is kept beside it for comparison (``official_right``). A session with no
calls counts 0 (not 1).

Task completion (paper Listing 3): the LLM judge (:class:`CompletionJudge`) or, offline, the
rule judge (:class:`RuleCompletion`: each gold call is a goal, achieved when matched). Success
needs every goal achieved; progress is achieved / total. A session that did not end normally
(the turn cap, too many tool errors, an unusable agent) is a failure whatever the judge says; its
progress is still judged.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lifebench.evaluation import BasisResult, CriterionVerdict, JudgeError, ShapeError, ask_json
from lifebench.flow.agents.convert import react_text
from lifebench.flow.evaluation.arguments import ArgumentMatcher, FuzzyJudge
from lifebench.flow.evaluation.counts import PRF
from lifebench.flow.evaluation.official import (
    dialog_actions,
    dialog_text,
    official_session_calls,
    official_session_content,
)
from lifebench.flow.evaluation.prompts import (
    COMPLETION_SYSTEM,
    FAILURE_CATEGORIES,
    FAILURE_SYSTEM,
    completion_prompt,
    failure_prompt,
)
from lifebench.flow.evaluation.turn import tool_docs
from lifebench.flow.tasks.models import SessionTask
from lifebench.messages import AssistantMessage, Message, ToolResultMessage, Usage, UserMessage
from lifebench.models import ChatModel, GenerateConfig
from lifebench.simulation import Simulation

GRADER_VERSION = 2
"""Version of this module's grading rules: bump it with any change to them (CONTRIBUTING.md)."""

TOOLS_BASIS = "session_tools"
COMPLETION_BASIS = "completion"


@dataclass(frozen=True)
class Call:
    """A tool call: name and arguments (None when they are not a JSON object)."""

    name: str
    arguments: dict[str, Any] | None


def predicted_calls(messages: Sequence[Message]) -> list[Call]:
    """Every tool call the agent made, in order."""
    calls = []
    for m in messages:
        if isinstance(m, AssistantMessage):
            for c in m.tool_calls:
                try:
                    value = json.loads(c.arguments or "{}")
                except json.JSONDecodeError:
                    value = None
                calls.append(Call(c.name, value if isinstance(value, dict) else None))
    return calls


def max_matching(edges: Sequence[Sequence[bool]], n_pred: int) -> list[int | None]:
    """A maximum one-to-one matching of a bipartite graph (Kuhn's augmenting paths).

    ``edges[g][p]`` says whether gold ``g`` may pair with prediction ``p`` (``n_pred``
    predictions). Returns, for each gold, the matched prediction or None. Deterministic: golds
    and predictions in order.
    """
    owner: list[int | None] = [None] * n_pred

    def augment(g: int, seen: list[bool]) -> bool:
        for p in range(n_pred):
            if edges[g][p] and not seen[p]:
                seen[p] = True
                current = owner[p]
                if current is None or augment(current, seen):
                    owner[p] = g
                    return True
        return False

    for g in range(len(edges)):
        augment(g, [False] * n_pred)
    matched: list[int | None] = [None] * len(edges)
    for p, owned_by in enumerate(owner):
        if owned_by is not None:
            matched[owned_by] = p
    return matched


@dataclass(frozen=True)
class SessionCalls:
    """Matched tool calls of one session."""

    counts: PRF
    pairs: list[int | None]
    official_right: int

    def as_info(self) -> dict[str, Any]:
        """JSON-ready counters."""
        return {
            "tp": self.counts.tp,
            "n_pred": self.counts.n_pred,
            "n_gold": self.counts.n_gold,
            "official_right": self.official_right,
            "pairs": self.pairs,
        }


async def match_calls(
    gold: Sequence[Call], predicted: Sequence[Call], matcher: ArgumentMatcher
) -> SessionCalls:
    """One-to-one matching of ``predicted`` onto ``gold`` (plus the official count)."""
    edges = [
        [await matcher.call(g.name, g.arguments, p.name, p.arguments) for p in predicted]
        for g in gold
    ]
    pairs = max_matching(edges, len(predicted))
    tp = sum(1 for p in pairs if p is not None)
    official = sum(1 for row in edges if any(row))
    return SessionCalls(PRF(tp, len(predicted), len(gold)), pairs, official)


def session_meta(task: SessionTask, simulation: Simulation) -> dict[str, Any]:
    """What the report groups sessions by, and how the session ended."""
    return {
        "domain": task.domain or "(unknown)",
        "role": task.role or "(unknown)",
        "setting": task.setting,
        "termination": simulation.termination.value,
        "capped": simulation.info.get("limit") == "max_agent_messages",
        "agent_turns": sum(1 for m in simulation.messages if isinstance(m, AssistantMessage)),
    }


def format_errors(messages: Sequence[Message]) -> int:
    """Unusable ReAct replies the agent produced in a session (re-asked ones included)."""
    return sum(
        int((m.raw or {}).get("format_errors", 0))
        for m in messages
        if isinstance(m, AssistantMessage)
    )


def _gold(task: SessionTask) -> list[Call]:
    return [Call(c.name, dict(c.arguments)) for c in task.gold_calls]


def _check_task(task: Any) -> SessionTask:
    if not isinstance(task, SessionTask):
        raise TypeError(f"session evaluators grade session tasks, not {type(task).__name__}")
    return task


class SessionToolsEvaluator:
    """The ``session_tools`` basis: tool P/R/F1 of one simulated session (reward 1 when every
    gold call was made)."""

    def __init__(self, judge: FuzzyJudge | None = None, *, knowledge_format: str = "") -> None:
        self._judge = judge
        self._format = knowledge_format

    @property
    def basis(self) -> str:
        """``session_tools``."""
        return TOOLS_BASIS

    async def evaluate(self, task: Any, simulation: Simulation) -> BasisResult:
        """Match the session's calls against the gold calls."""
        task = _check_task(task)
        official = official_session_calls(  # no judge involved: known whatever happens next
            "\n\n".join(c.action_text() for c in task.gold_calls),
            dialog_actions(dialog_text(official_turns(simulation.messages))),
        )
        matcher = ArgumentMatcher(tool_docs(task.tools, task.datetime), self._judge)
        try:
            result = await match_calls(_gold(task), predicted_calls(simulation.messages), matcher)
        except JudgeError as exc:
            raise exc.with_info(
                **session_meta(task, simulation), official=official.as_info()
            ) from None
        counts = result.counts
        complete = counts.tp == counts.n_gold
        return BasisResult(
            basis=TOOLS_BASIS,
            reward=1.0 if complete else 0.0,
            score=1.0 if counts.f1 is None else counts.f1,  # None: nothing expected, nothing made
            usage=matcher.usage,
            info={
                **session_meta(task, simulation),
                "format": self._format,
                "calls": result.as_info(),
                "judge_asked": matcher.asked,
                "format_errors": format_errors(simulation.messages),
                "official": official.as_info(),
            },
        )


def official_turns(messages: Sequence[Message]) -> list[tuple[str, str]]:
    """(role, content) of a session as the official loop records it: user lines, the agent's
    ReAct text, API results as ``function`` messages."""
    turns: list[tuple[str, str]] = []
    for m in messages:
        if isinstance(m, UserMessage):
            turns.append(("user", m.content))
        elif isinstance(m, AssistantMessage):
            turns.append(("assistant", official_session_content(react_text(m))))
        elif isinstance(m, ToolResultMessage):
            turns.append(("function", m.content))
    return turns


def render_dialogue(messages: Sequence[Message]) -> str:
    """The session as the completion judge reads it: what the user and the assistant said,
    the assistant's calls and what the APIs returned (no Thoughts)."""
    lines = []
    for m in messages:
        if isinstance(m, UserMessage):
            lines.append(f"user: {m.content.strip()}")
        elif isinstance(m, AssistantMessage):
            for c in m.tool_calls:
                lines.append(f"assistant called {c.name} with {c.arguments}")
            if m.content.strip():
                lines.append(f"assistant: {m.content.strip()}")
        elif isinstance(m, ToolResultMessage):
            tag = " (error)" if m.error else ""
            lines.append(f"API {m.name} returned{tag}: {m.content.strip()}")
    return "\n".join(lines) or "(no messages)"


@dataclass(frozen=True)
class Completion:
    """A completion verdict: success, goals and achieved goals, and why."""

    success: bool
    total: int
    achieved: int
    reason: str


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool):
        raise ShapeError(f"{name} must be an integer")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    raise ShapeError(f"{name} must be an integer, got {value!r}")


def check_completion(parsed: Any) -> Completion:
    """Shape check of the completion judge's JSON (goals ≥ 1, 0 ≤ achieved ≤ goals, success
    exactly when every goal is achieved)."""
    if isinstance(parsed, list) and parsed:
        parsed = parsed[0]
    if not isinstance(parsed, dict):
        raise ShapeError("expected a JSON object")
    for key in ("success", "total_goals", "achieved_goals"):
        if key not in parsed:
            raise ShapeError(f"missing {key}")
    success = parsed["success"]
    if isinstance(success, str) and success.strip().lower() in ("true", "false", "yes", "no"):
        success = success.strip().lower() in ("true", "yes")
    if not isinstance(success, bool):
        raise ShapeError("success must be true or false")
    total = _int(parsed["total_goals"], "total_goals")
    achieved = _int(parsed["achieved_goals"], "achieved_goals")
    if total < 1:
        raise ShapeError("total_goals must be at least 1")
    if not 0 <= achieved <= total:
        raise ShapeError("achieved_goals must be between 0 and total_goals")
    if success != (achieved == total):
        raise ShapeError("success must be true exactly when every goal is achieved")
    return Completion(success, total, achieved, str(parsed.get("reason", "")))


def _check_failure(parsed: Any) -> tuple[int, str]:
    if isinstance(parsed, list) and parsed:
        parsed = parsed[0]
    if not isinstance(parsed, dict) or "category" not in parsed:
        raise ShapeError('expected {"category": <1-5>, "explanation": "..."}')
    category = _int(parsed["category"], "category")
    if category not in FAILURE_CATEGORIES:
        raise ShapeError("category must be 1, 2, 3, 4 or 5")
    return category, str(parsed.get("explanation", ""))


def completion_result(
    verdict: Completion, simulation: Simulation, info: dict[str, Any], usage: Usage
) -> BasisResult:
    """The ``completion`` basis from a verdict: an abnormal ending fails the session."""
    ended_normally = simulation.termination.is_normal
    success = verdict.success and ended_normally
    note = "" if ended_normally else f"session ended with {simulation.termination.value}"
    progress = verdict.achieved / verdict.total
    return BasisResult(
        basis=COMPLETION_BASIS,
        reward=1.0 if success else 0.0,
        score=progress,
        criteria=[
            CriterionVerdict(
                id="goals",
                description="Every user goal is achieved",
                met=success,
                evidence=verdict.reason or note,
            )
        ],
        usage=usage,
        note=note,
        info={
            **info,
            "goals": verdict.total,
            "achieved": verdict.achieved,
            "judge_success": verdict.success,
            "success": success,
            "progress": progress,
            "reason": verdict.reason,
        },
    )


class FailureClassifier:
    """Classifies a failed session's main cause (paper Table 7) with a judge model."""

    def __init__(self, model: ChatModel, workflow_of: Any) -> None:
        self._model = model
        self._workflow_of = workflow_of

    async def classify(
        self, task: SessionTask, simulation: Simulation, result: BasisResult
    ) -> BasisResult:
        """``result`` with the failure category added (unchanged when the session succeeded)."""
        if result.reward >= 1.0:
            return result
        answer = await ask_json(
            self._model,
            FAILURE_SYSTEM,
            failure_prompt(
                task.user_target or task.user_summary,
                str(self._workflow_of(task)),
                render_dialogue(simulation.messages),
                str(result.info.get("reason") or result.note),
            ),
            _check_failure,
            config=GenerateConfig(temperature=0.0, seed=simulation.seed),
        )
        category, explanation = answer.value
        return result.model_copy(
            update={
                "usage": result.usage + answer.usage,
                "info": {
                    **result.info,
                    "failure_category": category,
                    "failure_reason": FAILURE_CATEGORIES[category],
                    "failure_explanation": explanation,
                },
            }
        )


class RuleCompletion:
    """Offline completion: each gold call is a goal, achieved when the session made a matching
    call (one-to-one). A task without gold calls cannot be checked offline: ungradable."""

    def __init__(
        self, *, knowledge_format: str = "", classifier: FailureClassifier | None = None
    ) -> None:
        self._format = knowledge_format
        self._classifier = classifier

    @property
    def basis(self) -> str:
        """``completion``."""
        return COMPLETION_BASIS

    async def evaluate(self, task: Any, simulation: Simulation) -> BasisResult:
        """Goals from the gold calls, achieved by matched calls."""
        task = _check_task(task)
        info = {**session_meta(task, simulation), "format": self._format, "judge": "rules"}
        if not task.gold_calls:
            return BasisResult(
                basis=COMPLETION_BASIS,
                reward=0.0,
                score=0.0,
                note="no gold calls: the rule judge cannot check this task (ungradable)",
                info={**info, "ungradable": True},
                gradable=False,
            )
        matcher = ArgumentMatcher(tool_docs(task.tools, ""))  # rules only: no time needed
        calls = await match_calls(_gold(task), predicted_calls(simulation.messages), matcher)
        missing = [task.gold_calls[i].name for i, p in enumerate(calls.pairs) if p is None]
        total, achieved = calls.counts.n_gold, calls.counts.tp
        verdict = Completion(
            achieved == total,
            total,
            achieved,
            f"not made: {', '.join(missing)}" if missing else "",
        )
        result = completion_result(verdict, simulation, info, Usage.zero())
        if self._classifier is not None:
            result = await self._classifier.classify(task, simulation, result)
        return result


class CompletionJudge:
    """The task-completion judge (paper Listing 3), optionally followed by the failure-reason
    classifier (paper Table 7) on failed sessions."""

    def __init__(
        self,
        model: ChatModel,
        workflow_of: Any,
        *,
        knowledge_format: str = "",
        classifier: FailureClassifier | None = None,
    ) -> None:
        self._model = model
        self._workflow_of = workflow_of
        self._format = knowledge_format
        self._classifier = classifier

    @property
    def basis(self) -> str:
        """``completion``."""
        return COMPLETION_BASIS

    async def evaluate(self, task: Any, simulation: Simulation) -> BasisResult:
        """Judge the session; raises JudgeError when the judge gives no usable answer."""
        task = _check_task(task)
        answer = await ask_json(
            self._model,
            COMPLETION_SYSTEM,
            completion_prompt(
                task.user_target or task.user_summary,
                str(self._workflow_of(task)),
                render_dialogue(simulation.messages),
            ),
            check_completion,
            config=GenerateConfig(temperature=0.0, seed=simulation.seed),
        )
        info: dict[str, Any] = {
            **session_meta(task, simulation),
            "format": self._format,
            "judge": "llm",
            "attempts": answer.attempts,
        }
        result = completion_result(answer.value, simulation, info, answer.usage)
        if self._classifier is not None:
            result = await self._classifier.classify(task, simulation, result)
        return result

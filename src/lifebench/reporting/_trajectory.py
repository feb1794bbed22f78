"""One unit made ready to look at: its trajectory, its evaluation and its state differences.

Used by ``lifebench show`` (terminal) and ``lifebench view`` (web). Nothing here renders: the
views hold plain, untrusted text that each renderer escapes for its medium.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from lifebench.evaluation._types import BasisResult, CriterionVerdict, Evaluation
from lifebench.messages import AssistantMessage, ToolResultMessage, Usage
from lifebench.reporting._outcomes import UnitSummary, unit_summary
from lifebench.reporting._transcript import TranscriptView, transcript_view
from lifebench.runner import UnitRecord
from lifebench.runner._transcript import Transcript

MAX_STATE_CHANGES = 500


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


def pretty_json(text: str) -> tuple[str, bool]:
    """(``text`` pretty-printed, True) when it is a JSON object or array, else (``text``,
    False)."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "[{":
        return text, False
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        return text, False
    return json.dumps(value, indent=2, ensure_ascii=False), True


class ToolCallView(_Frozen):
    """A tool call as the agent made it."""

    id: str
    name: str
    arguments: str = Field(description="Arguments, pretty-printed when they are valid JSON.")
    valid_json: bool = Field(description="False when the model produced malformed arguments.")


class MessageView(_Frozen):
    """One message of the trajectory."""

    index: int = Field(description="0-based position in the stored trajectory.")
    role: str
    content: str = Field(description="Text (tool results pretty-printed when JSON).")
    reasoning: str | None = None
    tool_calls: list[ToolCallView] = Field(default_factory=list)
    tool_call_id: str | None = None
    name: str | None = Field(None, description="Tool name of a tool result.")
    error: bool = Field(False, description="A tool result that is an error.")
    error_kind: str | None = None
    usage: Usage | None = None
    windows: list[int] = Field(
        default_factory=list, description="Judge windows (1-based) that contain this message."
    )


class BasisView(_Frozen):
    """One evaluation basis, with its criteria and the judge's windows if any."""

    name: str
    counts: bool = Field(description="True when this basis is part of the reward.")
    reward: float
    score: float
    note: str
    criteria: list[CriterionVerdict]
    usage: Usage
    windows: list[dict[str, Any]] = Field(
        default_factory=list, description="Sliding-window log of a judge (info['windows'])."
    )
    info: dict[str, Any] = Field(default_factory=dict, description="Other diagnostics.")


class StateChange(_Frozen):
    """A difference between the initial and the final environment state."""

    path: str = Field(description="Dotted path of the value (keys as stored).")
    kind: str = Field(description="added, removed or changed.")
    before: str | None = Field(None, description="Compact JSON before (None when added).")
    after: str | None = Field(None, description="Compact JSON after (None when removed).")


class TrajectoryView(_Frozen):
    """Everything ``show`` and the viewer display about one unit."""

    task_id: str
    trial: int
    seed: int
    attempts: int
    outcome: UnitSummary
    termination: str | None
    duration_s: float | None
    error: str | None = Field(None, description="Full error text of the unit, if any.")
    messages: list[MessageView]
    usage: dict[str, Usage] = Field(description="agent, user, tool and judge usage.")
    reward: float | None
    reward_basis: str | None
    evaluation_error: str | None
    bases: list[BasisView]
    state_changes: list[StateChange] | None = Field(
        None, description="None when the initial state could not be found in the task."
    )
    state_note: str = ""
    transcript: TranscriptView | None = Field(
        None,
        description="What the models saw and said: briefing (prompts, tools) and every model "
        "call with its exact request and response (None: not read).",
    )


def _windows(result: BasisResult) -> list[dict[str, Any]]:
    raw = result.info.get("windows")
    if isinstance(raw, list) and all(isinstance(w, Mapping) for w in raw):
        return [dict(w) for w in raw]
    return []


def _window_of_messages(bases: Sequence[BasisView]) -> dict[int, list[int]]:
    """Message index → windows (of the first basis that has a window log) containing it."""
    for basis in bases:
        out: dict[int, list[int]] = {}
        for pos, window in enumerate(basis.windows, 1):
            span = window.get("messages")
            number = window.get("window", pos)
            if isinstance(span, list) and len(span) == 2 and all(isinstance(x, int) for x in span):
                for i in range(span[0], span[1] + 1):
                    out.setdefault(i, []).append(int(number))
        if out:
            return out
    return {}


def _basis_views(evaluation: Evaluation) -> list[BasisView]:
    counting = set(evaluation.basis.split("+"))
    views = []
    for name in sorted(evaluation.by_basis):
        result = evaluation.by_basis[name]
        info = {k: v for k, v in result.info.items() if k != "windows" or not _windows(result)}
        views.append(
            BasisView(
                name=name,
                counts=name in counting,
                reward=result.reward,
                score=result.score,
                note=result.note,
                criteria=list(result.criteria),
                usage=result.usage,
                windows=_windows(result),
                info=info,
            )
        )
    return views


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _diff(path: str, before: Any, after: Any, out: list[StateChange]) -> None:
    if before == after:
        return
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        for key in sorted(set(before) | set(after), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in before:
                out.append(StateChange(path=sub, kind="added", after=_compact(after[key])))
            elif key not in after:
                out.append(StateChange(path=sub, kind="removed", before=_compact(before[key])))
            else:
                _diff(sub, before[key], after[key], out)
        return
    out.append(
        StateChange(path=path, kind="changed", before=_compact(before), after=_compact(after))
    )


def initial_state(task_json: str | None, final_state: Mapping[str, Any]) -> dict[str, Any] | None:
    """The object of the stored task that holds the snapshot's keys: the task itself or one of
    its top-level members, whichever shares most keys with ``final_state`` (None if none)."""
    if not task_json or not final_state:
        return None
    try:
        task = json.loads(task_json)
    except (ValueError, RecursionError):
        return None
    if not isinstance(task, dict):
        return None
    candidates = [task] + [task[k] for k in sorted(task) if isinstance(task[k], dict)]
    best, overlap = None, 0
    for candidate in candidates:
        shared = len(set(candidate) & set(final_state))
        if shared > overlap:
            best, overlap = candidate, shared
    return best


def state_changes(
    initial: Mapping[str, Any], final: Mapping[str, Any]
) -> tuple[list[StateChange], str]:
    """Differences for the keys of the final snapshot (a snapshot may hold only part of the
    state, so keys it lacks are not reported as removed). Returns (changes, note)."""
    out: list[StateChange] = []
    for key in sorted(final, key=str):
        if key in initial:
            _diff(str(key), initial[key], final[key], out)
        else:
            out.append(StateChange(path=str(key), kind="added", after=_compact(final[key])))
    note = ""
    if len(out) > MAX_STATE_CHANGES:
        note = f"{len(out) - MAX_STATE_CHANGES} more changes not shown"
        out = out[:MAX_STATE_CHANGES]
    return out, note


def trajectory_view(
    record: UnitRecord, task_json: str | None = None, transcript: Transcript | None = None
) -> TrajectoryView:
    """Build the view of ``record``; ``task_json`` (the stored task) enables state differences;
    ``transcript`` (:meth:`RunStore.transcript`) adds the briefing and the model calls."""
    sim, ev = record.simulation, record.evaluation
    bases = _basis_views(ev) if ev is not None else []
    in_window = _window_of_messages(bases)
    messages: list[MessageView] = []
    for index, message in enumerate(sim.messages if sim is not None else []):
        if isinstance(message, AssistantMessage):
            calls = [
                ToolCallView(id=c.id, name=c.name, arguments=a, valid_json=ok)
                for c in message.tool_calls
                for a, ok in [pretty_json(c.arguments)]
            ]
            view = MessageView(
                index=index,
                role="assistant",
                content=message.content,
                reasoning=message.reasoning,
                tool_calls=calls,
                usage=message.usage,
                windows=in_window.get(index, []),
            )
        elif isinstance(message, ToolResultMessage):
            view = MessageView(
                index=index,
                role="tool",
                content=pretty_json(message.content)[0],
                tool_call_id=message.tool_call_id,
                name=message.name,
                error=message.error,
                error_kind=message.error_kind,
                usage=message.usage,
                windows=in_window.get(index, []),
            )
        else:
            view = MessageView(
                index=index,
                role=message.role,
                content=message.content,
                usage=getattr(message, "usage", None),
                windows=in_window.get(index, []),
            )
        messages.append(view)
    changes: list[StateChange] | None = None
    note = ""
    if sim is not None and sim.final_state:
        initial = initial_state(task_json, sim.final_state)
        if initial is not None:
            changes, note = state_changes(initial, sim.final_state)
        else:
            note = "the initial state is not in the stored task; final state keys: " + ", ".join(
                sorted(map(str, sim.final_state))
            )
    judge = Usage.zero()
    for basis in bases:
        judge = judge + basis.usage
    usage = {
        "agent": sim.agent_usage if sim else Usage.zero(),
        "user": sim.user_usage if sim else Usage.zero(),
        "tool": sim.tool_usage if sim else Usage.zero(),
        "judge": judge,
    }
    return TrajectoryView(
        task_id=record.task_id,
        trial=record.trial,
        seed=record.seed,
        attempts=record.attempts,
        outcome=unit_summary(record),
        termination=sim.termination.value if sim else None,
        duration_s=sim.duration_s if sim else None,
        error=record.error or (sim.error if sim else None) or (ev.error if ev else None),
        messages=messages,
        usage=usage,
        reward=ev.reward if ev is not None and ev.error is None else None,
        reward_basis=ev.basis if ev else None,
        evaluation_error=ev.error if ev else None,
        bases=bases,
        state_changes=changes,
        state_note=note,
        transcript=None if transcript is None else transcript_view(transcript),
    )

"""Importing the official TravelBench harness's output files into a run directory.

Inputs (spec §4.3, §6.3, §6.5):

* an **inference** file ``{"summary": {..., "config": {agent_llm, user_llm, tool_llm, num_trials,
  mode}}, "results": [...]}`` (``single_turn.json`` / ``multi_turn.json`` / ``unsolve.json``);
  each result has ``trace_id``, ``trial_id``, ``query``, ``context``, ``user_profile`` (multi),
  ``conversation_id``, ``completion_reason``, ``tool_calls_count``, ``tool_errors``,
  ``cache_hits``, ``cache_misses``, ``duration`` and ``messages`` (system / user / assistant
  with ``tool_calls [{id, name, arguments}]`` and ``usage`` / tool with ``error``); a failed run
  is ``{trace_id, trial_id, success: false, error}``;
* a judge **evaluation** file (``single-turn_eval.json`` / ``multi-turn_eval.json``: a list of
  ``{conversation_id, original_trajectory, evaluation: {scores, parsed_result, tool_calls_count,
  tool_errors, meta_judge_result, final_scores}}``) — on its own (it holds the trajectories) or
  beside an inference file;
* an unsolved **evaluation** file (``unsolved_eval.json``: ``{conversation_id, has_unsolved}``),
  beside its inference file.

Every trajectory becomes a unit (task = ``trace_id``, trial = ``trial_id``) with the official
tool counts (n, e) and cache counters; the official verdict, when given, is stored as the basis
``official`` in the travel result format, so ``lifebench report`` recomputes the official subset
score from it and ``lifebench eval RUN --judge-model M`` adds our own ``travel`` basis. Failed runs
are imported as infrastructure errors (excluded from the metrics; the official harness scored
them as judged empty trajectories / 0). The inference files carry neither ``time`` nor
``intent``: pass the official rows with ``--tasks`` to restore them (``--judge-context`` and the
tools' date checks need the time).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from lifebench._util.hashing import stable_hash
from lifebench._util.inputs import MAX_TASK_FILE_BYTES, load_json, parse_json_records, read_text
from lifebench.errors import InputError
from lifebench.evaluation import BasisResult, CriterionVerdict, Evaluation
from lifebench.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from lifebench.simulation import Simulation, TerminationReason
from lifebench.travel.grading.scoring import dimensions_of, score_instance
from lifebench.travel.grading.unsolved import UNSOLVED_TAG, unsolved_verdicts

_MODES = {"multi_turn": "multi", "single_turn": "single", "unsolved": "unsolvable"}
_EVAL_MODES = {"multi-turn": "multi", "single-turn": "single"}
_TERMINATIONS = {
    "user_ended": TerminationReason.USER_STOP,
    "max_turns_reached": TerminationReason.MAX_TURNS,
    "completed": TerminationReason.MAX_TURNS,
}
_HAN = re.compile(r"[\u4e00-\u9fff]")
OFFICIAL_BASIS = "official"


def _read(path: Path) -> Any:
    return load_json(path, what="results file", max_bytes=MAX_TASK_FILE_BYTES)


def _usage(raw: Any, cost: Any) -> Usage | None:
    if not isinstance(raw, Mapping) and not cost:
        return None
    raw = raw if isinstance(raw, Mapping) else {}
    return Usage(
        prompt_tokens=int(raw.get("prompt_tokens") or 0),
        completion_tokens=int(raw.get("completion_tokens") or 0),
        cost=float(cost or 0.0),
    )


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _message(raw: Mapping[str, Any]) -> Message | None:
    role = raw.get("role")
    content = _text(raw.get("content"))
    if role == "system":
        return SystemMessage(content=content)
    if role == "user":
        return UserMessage(content=content)
    if role == "assistant":
        calls = []
        for i, call in enumerate(raw.get("tool_calls") or []):
            if not isinstance(call, Mapping):
                continue
            args = call.get("arguments", {})
            calls.append(
                ToolCall(
                    id=str(call.get("id") or f"call-{i}"),
                    name=str(call.get("name") or ""),
                    arguments=args
                    if isinstance(args, str)
                    else json.dumps(args, ensure_ascii=False),
                )
            )
        return AssistantMessage(
            content=content, tool_calls=calls, usage=_usage(raw.get("usage"), raw.get("cost"))
        )
    if role == "tool":
        error = bool(raw.get("error", False))
        return ToolResultMessage(
            tool_call_id=str(raw.get("tool_call_id") or ""),
            name=str(raw.get("name") or ""),
            content=content,
            error=error,
            error_kind="bad_arguments" if error else None,
        )
    return None


def _messages(raw: Any) -> list[Message]:
    out: list[Message] = []
    for item in raw if isinstance(raw, list) else []:
        msg = _message(item) if isinstance(item, Mapping) else None
        if msg is not None:
            out.append(msg.model_copy(update={"turn": len(out)}))
    return out


def _int(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def _simulation(raw: Mapping[str, Any]) -> Simulation:
    trace, trial = str(raw.get("trace_id", "")), _int(raw.get("trial_id"))
    if raw.get("success") is False or "messages" not in raw:
        return Simulation(
            task_id=trace,
            trial=trial,
            seed=0,
            termination=TerminationReason.INFRASTRUCTURE_ERROR,
            error=f"official run failed: {raw.get('error', 'no messages')}",
            info={"imported_id": raw.get("conversation_id")},
        )
    messages = _messages(raw.get("messages"))
    tools = [m for m in messages if m.role == "tool"]
    reason = str(raw.get("completion_reason") or "")
    agent = [m.usage for m in messages if m.role == "assistant" and m.usage is not None]
    return Simulation(
        task_id=trace,
        trial=trial,
        seed=0,
        messages=messages,
        termination=_TERMINATIONS.get(reason, TerminationReason.MAX_TURNS),
        tool_calls=_int(
            raw.get(
                "tool_calls_count",
                len([c for m in messages if m.role == "assistant" for c in m.tool_calls]),
            )
        ),
        tool_errors=_int(raw.get("tool_errors", sum(m.error for m in tools))),
        agent_usage=sum(agent, Usage.zero()),
        duration_s=float(raw.get("duration") or 0.0),
        final_state={
            "sandbox": {
                "backend": "official",
                "calls": _int(raw.get("tool_calls_count")),
                "cache_hits": _int(raw.get("cache_hits")),
                "cache_misses": _int(raw.get("cache_misses")),
            }
        },
        info={
            "imported_id": raw.get("conversation_id"),
            "official_completion_reason": reason,
            "official_mode": raw.get("mode"),
        },
    )


def _judge_verdict(entry: Mapping[str, Any], subset: str, sim: Simulation) -> Evaluation | None:
    """The official judge's verdict, in the travel result format (basis ``official``)."""
    evaluation = entry.get("evaluation")
    if not isinstance(evaluation, Mapping):
        return None
    scores = evaluation.get("scores") or {}
    parsed = evaluation.get("parsed_result") or {}
    dims = dimensions_of(subset)
    ratings: dict[str, int | None] = {}
    for d in dims:
        value = scores.get(f"{d}_score") if isinstance(scores, Mapping) else None
        ratings[d] = value if isinstance(value, int) and 1 <= value <= 5 else None
    meta_raw = evaluation.get("meta_judge_result")
    meta = meta_raw.get("meta_score") if isinstance(meta_raw, Mapping) else None
    meta = meta if isinstance(meta, int) and 1 <= meta <= 5 else None
    calls = _int(evaluation.get("tool_calls_count", sim.tool_calls))
    errors = _int(evaluation.get("tool_errors", sim.tool_errors))
    try:
        score = score_instance(ratings, calls, errors, meta)
    except ValueError:
        return None
    criteria = [
        CriterionVerdict(
            id=d,
            description=f"{d} rated 4 (较好 / good) or better",
            met=ratings[d] is not None and (ratings[d] or 0) >= 4,
            evidence=str((parsed.get(d) or {}).get("reasoning", ""))
            if isinstance(parsed, Mapping)
            else "",
        )
        for d in dims
    ]
    result = BasisResult(
        basis=OFFICIAL_BASIS,
        reward=score.final / 100.0,
        score=score.final / 100.0,
        criteria=criteria,
        info={
            "method": "judge",
            "subset": subset,
            "judge_kind": "official",
            "ratings": ratings,
            "tool_calls": calls,
            "tool_errors": errors,
            "meta_score": meta,
            "meta_judge": meta_raw is not None,
            "meta_failed": False,
            "final": score.final,
            "official_final_scores": evaluation.get("final_scores"),
        },
    )
    return Evaluation(reward=result.reward, basis=OFFICIAL_BASIS, by_basis={OFFICIAL_BASIS: result})


def _unsolved_verdict(entry: Mapping[str, Any], sim: Simulation) -> Evaluation:
    has = bool(entry.get("has_unsolved"))
    by_rule = {**unsolved_verdicts(sim.messages), "first": has}
    result = BasisResult(
        basis=OFFICIAL_BASIS,
        reward=1.0 if has else 0.0,
        score=1.0 if has else 0.0,
        criteria=[
            CriterionVerdict(
                id="unsolved",
                description=f"The first reply contains {UNSOLVED_TAG} (official rule)",
                met=has,
                evidence=_text(entry.get("first_assistant_reply")),
            )
        ],
        info={"method": "unsolved", "subset": "unsolvable", "rule": "first", "by_rule": by_rule},
    )
    return Evaluation(reward=result.reward, basis=OFFICIAL_BASIS, by_basis={OFFICIAL_BASIS: result})


def _subset(data: Any, path: Path, given: str | None) -> str:
    if given:
        return given
    summary = data.get("summary") if isinstance(data, Mapping) else None
    config = summary.get("config") if isinstance(summary, Mapping) else None
    mode = config.get("mode") if isinstance(config, Mapping) else None
    if mode in _MODES:
        return _MODES[str(mode)]
    name = path.name.lower()
    for key, subset in (("unsolve", "unsolvable"), ("multi", "multi"), ("single", "single")):
        if key in name:
            return subset
    if isinstance(data, list) and data and isinstance(data[0], Mapping):
        mode = data[0].get("mode")
        if mode in _EVAL_MODES:
            return _EVAL_MODES[str(mode)]
    raise InputError(
        "cannot tell the subset (no summary.config.mode, no single/multi/unsolve in the file "
        "name): pass --subset",
        file=str(path),
    )


def _rows(path: Path | None) -> dict[str, dict[str, Any]]:
    if path is None:
        return {}
    rows: dict[str, dict[str, Any]] = {}
    text = read_text(path, what="task file")
    for record in parse_json_records(text, str(path), what="row"):
        row = record.value
        if isinstance(row, Mapping) and "trace_id" in row:
            rows[str(row["trace_id"])] = dict(row)
    return rows


def _task_row(raw: Mapping[str, Any], rows: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    trace = str(raw.get("trace_id", ""))
    if trace in rows:
        return dict(rows[trace])
    return {
        "trace_id": trace,
        "time": "",
        "query": _text(raw.get("query")),
        "context": _text(raw.get("context")),
        "user_profile": _text(raw.get("user_profile")),
    }


def _trajectories(data: Any, path: Path) -> tuple[list[Mapping[str, Any]], dict[str, Any]]:
    """(results, evaluation entries by conversation id) of an inference or judge-eval file."""
    if isinstance(data, Mapping) and isinstance(data.get("results"), list):
        return [r for r in data["results"] if isinstance(r, Mapping)], {}
    if isinstance(data, list) and all(
        isinstance(e, Mapping) and isinstance(e.get("original_trajectory"), Mapping) for e in data
    ):
        results = [e["original_trajectory"] for e in data]
        return results, {str(e.get("conversation_id")): e for e in data}
    raise InputError(
        "not an official TravelBench inference file ({summary, results}) or judge evaluation "
        "file (a list with original_trajectory)",
        file=str(path),
    )


def _evaluations(path: Path | None) -> dict[str, Mapping[str, Any]]:
    if path is None:
        return {}
    data = _read(path)
    if not isinstance(data, list):
        raise InputError("an evaluation file must be a JSON list", file=str(path))
    return {str(e.get("conversation_id")): e for e in data if isinstance(e, Mapping)}


def _language(rows: Iterable[Mapping[str, Any]]) -> str:
    return "zh" if any(_HAN.search(_text(r.get("query"))) for r in rows) else "en"


def import_official_travel(
    path: Path,
    run_dir: Path,
    *,
    evaluation: Path | None = None,
    tasks: Path | None = None,
    subset: str | None = None,
) -> int:
    """Write the official output ``path`` (and its ``evaluation``) into the run store of
    ``run_dir``; returns the number of units imported (re-importing is a no-op)."""
    from lifebench.runner import RunStore, WorkUnit
    from lifebench.travel.task import TravelTask

    data = _read(path)
    chosen = _subset(data, Path(path), subset)
    results, embedded = _trajectories(data, Path(path))
    if not results:
        raise InputError("the file holds no trajectories", file=str(path))
    verdicts = {**embedded, **_evaluations(evaluation)}
    rows = _rows(tasks)
    language = _language(results)
    task_objs: dict[str, TravelTask] = {}
    for raw in results:
        row = _task_row(raw, rows)
        try:
            task = TravelTask.model_validate({**row, "subset": chosen, "language": language})
        except ValueError as exc:
            raise InputError(
                f"trace {row.get('trace_id')}: not a usable task row: {exc}", file=str(path)
            ) from None
        task_objs.setdefault(task.id, task)
    summary = data.get("summary") if isinstance(data, Mapping) else None
    config_info = (summary or {}).get("config") if isinstance(summary, Mapping) else None
    info: Mapping[str, Any] = config_info if isinstance(config_info, Mapping) else {}
    trials = max((_int(r.get("trial_id")) for r in results), default=0) + 1
    config = {
        "suite": "travel",
        "trials": _int(info.get("num_trials")) or trials,
        "agent_model": info.get("agent_llm"),
        "user_model": info.get("user_llm"),
        "tool_model": info.get("tool_llm"),
        "language": language,
        "suite_options": {"subset": chosen},
        "imported_from": Path(path).name,
        "imported_evaluation": Path(evaluation).name if evaluation else None,
    }
    store = RunStore.open(
        run_dir,
        config,
        stable_hash(config),
        {t.id: t.content_hash() for t in task_objs.values()},
        {t.id: t.model_dump_json() for t in task_objs.values()},
    )
    try:
        sims = [_simulation(r) for r in results]
        units = [WorkUnit(task_id=s.task_id, trial=s.trial, seed=s.seed) for s in sims]
        pending = set(store.pending_units(units))
        recorded = {(r.task_id, r.trial) for r in store.results() if r.status != "pending"}
        count = 0
        for raw, sim, unit in zip(results, sims, units, strict=True):
            if unit not in pending or (unit.task_id, unit.trial) in recorded:
                continue
            infra = sim.termination is TerminationReason.INFRASTRUCTURE_ERROR
            verdict = None
            entry = verdicts.get(str(raw.get("conversation_id")))
            if entry is not None and not infra:
                verdict = (
                    _unsolved_verdict(entry, sim)
                    if chosen == "unsolvable"
                    else _judge_verdict(entry, chosen, sim)
                )
            store.record(unit, sim, verdict, sim.error if infra else None, infra=infra)
            count += 1
        return count
    finally:
        store.close()

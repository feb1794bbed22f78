"""Whether two runs may be compared, decided from what their run stores hold today.

``lifebench compare`` asks :func:`run_differences` only. It is
:func:`stored_config_differences` for now: it reads the stored configuration (suite, domain,
language, limits, user simulator, judge, tool simulator, suite options), the grading log (the
grading behind the stored evaluations), the lifebench version that created each run (the
grader's version) and the content hashes of the tasks. When the run store records provenance
(package versions and grader versions of every grading, the models of every role), a
provenance-aware function replaces it here — one assignment.

The check is closed-world: every configuration key that differs is a mismatch unless it is
known to describe what is being compared (the agent, its seed, the task selection, the
number of trials) or how fast the run went.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lifebench._util.hashing import canonical_json
from lifebench.errors import LifebenchError
from lifebench.reporting._load import RunData
from lifebench.suites._options import model_identity

COMPARED_FREELY = frozenset(
    {"agent", "agent_model", "seed", "trials", "user_seeds", "tasks_file", "task_set"}
    | {"task_ids", "num_tasks", "concurrency", "workers", "out", "models_file", "cache"}
    | {"quiet"}
)
"""Configuration keys that may differ: the agent under test, its seed, which tasks and how
many trials ran (tasks are matched by id and their contents checked), operational options."""
_ASPECT = {
    "user": "user simulator",
    "user_model": "user simulator",
    "evaluator": "judge",
    "judge_model": "judge",
    "bases": "judge",
    "tool_model": "tool simulator",
    "suite": "environment",
    "domain": "environment",
    "language": "environment",
    "max_steps": "environment",
    "max_errors": "environment",
}
_MODELS = frozenset({"user_model", "judge_model", "tool_model"})
_GRADING_KEYS = ("evaluator", "judge_model", "bases", "suite_options")
_MAX_IDS = 8


@dataclass(frozen=True)
class Mismatch:
    """One reason two runs are not comparable."""

    aspect: str
    """What differs: tasks, grader version, judge, user simulator, tool simulator,
    environment, suite option, grading or configuration."""
    detail: str
    """What exactly, with both values."""

    def line(self) -> str:
        """``aspect: detail``."""
        return f"{self.aspect}: {self.detail}"


def _show(value: Any) -> str:
    return "(not set)" if value is None else canonical_json(value).strip('"')


def _ids(ids: Sequence[str]) -> str:
    more = len(ids) - _MAX_IDS
    return ", ".join(ids[:_MAX_IDS]) + (f" … and {more} more" if more > 0 else "")


def _same(key: str, x: Any, y: Any) -> bool:
    if key in _MODELS:
        x = model_identity(x) if isinstance(x, str) else x
        y = model_identity(y) if isinstance(y, str) else y
    return canonical_json(x) == canonical_json(y)


def _user_uses_model(config: Mapping[str, Any]) -> bool:
    from lifebench.suites._registry import options_model

    try:
        roles = options_model(str(config.get("suite") or "vita")).roles
    except LifebenchError:  # a suite not installed here: assume the user uses a model
        return True
    return bool(roles.users.get(str(config.get("user") or ""), True))


def _grading(run: RunData) -> tuple[dict[str, Any], bool]:
    """The grading behind the stored evaluations (from the grading log, else the
    configuration) and whether it is mixed."""
    stored = run.grading or {}
    parts = list(stored.get("parts") or [])
    if parts and parts[0].get("source") != "unknown":
        head = parts[0]
        return {k: head.get(k) for k in _GRADING_KEYS}, bool(stored.get("mixed"))
    config = run.config
    return {k: config.get(k) for k in _GRADING_KEYS}, False


def stored_config_differences(a: RunData, b: RunData) -> list[Mismatch]:
    """Why ``a`` and ``b`` cannot be compared, from their stored configuration, grading log,
    creating version and task hashes (empty: comparable). See the module docstring."""
    out: list[Mismatch] = []
    shared = sorted(a.task_hashes.keys() & b.task_hashes.keys())
    changed = [t for t in shared if a.task_hashes[t] != b.task_hashes[t]]
    if changed:
        out.append(
            Mismatch("tasks", f"content of {len(changed)} shared task(s) differs: {_ids(changed)}")
        )
    va, vb = a.meta.lifebench_version, b.meta.lifebench_version
    if va != vb:
        out.append(Mismatch("grader version", f"created by lifebench {va} vs {vb}"))
    ga, mixed_a = _grading(a)
    gb, mixed_b = _grading(b)
    for run, mixed in ((a, mixed_a), (b, mixed_b)):
        if mixed:
            out.append(
                Mismatch(
                    "grading",
                    f"{run.run_dir} holds evaluations of different gradings (re-grade it with "
                    "lifebench eval)",
                )
            )
    for key in ("evaluator", "judge_model", "bases"):
        if not _same(key, ga.get(key), gb.get(key)):
            out.append(Mismatch("judge", f"{key}: {_show(ga.get(key))} vs {_show(gb.get(key))}"))
    ca, cb = a.config, b.config
    graded_a = dict(ga.get("suite_options") or {})
    graded_b = dict(gb.get("suite_options") or {})
    sa = {**dict(ca.get("suite_options") or {}), **graded_a}
    sb = {**dict(cb.get("suite_options") or {}), **graded_b}
    for key in sorted(sa.keys() | sb.keys()):
        if not _same(key, sa.get(key), sb.get(key)):
            out.append(
                Mismatch("suite option", f"{key}: {_show(sa.get(key))} vs {_show(sb.get(key))}")
            )
    skip = COMPARED_FREELY | {"suite_options", "evaluator", "judge_model", "bases", "temperature"}
    for key in sorted((ca.keys() | cb.keys()) - skip):
        if not _same(key, ca.get(key), cb.get(key)):
            aspect = _ASPECT.get(key, "configuration")
            out.append(Mismatch(aspect, f"{key}: {_show(ca.get(key))} vs {_show(cb.get(key))}"))
    ta, tb = ca.get("temperature"), cb.get("temperature")
    if not _same("temperature", ta, tb) and (_user_uses_model(ca) or _user_uses_model(cb)):
        out.append(
            Mismatch(
                "user simulator",
                f"temperature (the user simulator's too): {_show(ta)} vs {_show(tb)}",
            )
        )
    return out


run_differences: Callable[[RunData, RunData], list[Mismatch]] = stored_config_differences
"""The one comparability check ``lifebench compare`` uses (see the module docstring)."""

"""Provenance of a run, and whether two runs can be put side by side.

Every session of a run (``lifebench run``, and each resume) stores a :class:`Provenance`: the
lifebench version and git commit, the versions of the key packages, the task file's sha256
and a hash of the tasks' contents, the grader version of every evaluator, and the model of
every role (the provider's model id, not only the name a models file gave it). Every grading
(the run's, each ``lifebench eval``) stores one too, so the grader behind the stored
evaluations is known even after a re-grade.

:func:`comparability` is the one place that decides whether two runs' numbers may be
compared, naming each difference: different task contents, grader version, judge, user
simulator, tool simulator, evaluator, suite or core options, a mixed grading (not comparable);
lifebench version, packages, seed, trials, user-simulator seeds (noted). ``lifebench report``,
``view`` and ``export`` ask it about whole runs; ``lifebench compare``, which pairs runs on the
tasks they share, asks it with ``shared_tasks=True`` (different task sets are then noted).

Grader versions: every module that defines an evaluator (or a grader an evaluator delegates
to) declares ``GRADER_VERSION``, an integer bumped whenever its grading rules change (see
CONTRIBUTING.md). The version of a basis is read from the modules of its evaluator's class and
base classes and of the graders it holds (:func:`grader_version`).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

PROVENANCE_FORMAT = 1
UNVERSIONED = "unversioned"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class ModelInfo(_Frozen):
    """The model of one role."""

    spec: str = Field(description="As configured (a models-file name or MODEL@URL, scrubbed).")
    model: str | None = Field(None, description="The provider's model id.")
    endpoint: str | None = Field(None, description="The endpoint, without credentials.")

    @property
    def identity(self) -> str:
        """What makes two roles' models the same: the provider's model id (the spec's
        model part when unknown)."""
        return self.model or self.spec.split("@", 1)[0].strip()


class TaskFile(_Frozen):
    """The task file a session read."""

    name: str = Field(description="File name (no directory).")
    sha256: str
    size: int


class Provenance(_Frozen):
    """Where a session's (or a grading's) results come from."""

    format: int = PROVENANCE_FORMAT
    lifebench_version: str
    git_commit: str | None = None
    git_dirty: bool | None = None
    packages: dict[str, str] = Field(default_factory=dict, description="Key packages, Python.")
    task_file: TaskFile | None = None
    tasks: int = Field(0, description="Tasks of the run.")
    tasks_hash: str | None = Field(None, description="sha256 over (task id, content hash).")
    graders: dict[str, str] = Field(
        default_factory=dict, description="Grader version of each basis's evaluator."
    )
    models: dict[str, ModelInfo] = Field(
        default_factory=dict, description="The model of every role that has one."
    )
    kinds: dict[str, str] = Field(
        default_factory=dict, description="agent, user and evaluator kinds."
    )


def tasks_hash(tasks: Mapping[str, str]) -> str:
    """sha256 of the sorted (task id, content hash) pairs: equal iff the task sets are."""
    h = hashlib.sha256()
    for task_id in sorted(tasks):
        h.update(f"{task_id}\0{tasks[task_id]}\n".encode())
    return h.hexdigest()


def file_info(path: str | None) -> TaskFile | None:
    """Name, sha256 and size of a task file (None: no file, or a directory)."""
    if not path:
        return None
    file = Path(path)
    if not file.is_file():
        return None
    h = hashlib.sha256()
    with file.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            h.update(block)
    return TaskFile(name=file.name, sha256=h.hexdigest(), size=file.stat().st_size)


def _versions_of(obj: object, out: dict[str, str]) -> None:
    for cls in type(obj).__mro__:
        module = sys.modules.get(cls.__module__)
        version = getattr(module, "GRADER_VERSION", None)
        if version is not None:
            out[cls.__module__.removeprefix("lifebench.")] = str(version)


def grader_version(evaluator: object) -> str:
    """The grader version of an evaluator: ``module:N`` for each grading module behind it (its
    class and base classes, and the graders it holds), joined with ``+``; an evaluator may
    also state its own (``grader_version`` attribute). ``unversioned`` when no module
    declares one."""
    explicit = getattr(evaluator, "grader_version", None)
    if isinstance(explicit, str | int) and not isinstance(explicit, bool):
        return str(explicit)
    found: dict[str, str] = {}
    _versions_of(evaluator, found)
    for value in getattr(evaluator, "__dict__", {}).values():
        module = sys.modules.get(type(value).__module__)
        if getattr(module, "GRADER_VERSION", None) is not None:
            _versions_of(value, found)
    return "+".join(f"{m}:{v}" for m, v in sorted(found.items())) or UNVERSIONED


def _model_info(spec: str, model: object) -> ModelInfo:
    from lifebench.models._record import RoleModel
    from lifebench.models._secrets import redact_url
    from lifebench.suites._options import scrub_model_spec

    while isinstance(model, RoleModel):
        model = model.wrapped
    model_id = getattr(model, "model", None)
    base_url = getattr(model, "base_url", None)
    return ModelInfo(
        spec=scrub_model_spec(spec) or spec,
        model=model_id if isinstance(model_id, str) else getattr(model, "name", None),
        endpoint=redact_url(base_url) if isinstance(base_url, str) else None,
    )


def collect(
    options: Any,
    tasks: Mapping[str, str],
    evaluators: Mapping[str, object],
    resolve: Any = None,
) -> Provenance:
    """The provenance of a session or grading.

    Args:
        options: The run's :class:`~lifebench.suites.RunOptions`.
        tasks: Task id → content hash of the run's tasks.
        evaluators: The evaluators by basis.
        resolve: ``spec → model`` (the run's model factory's ``resolve``), to read each
            role's provider model id and endpoint.
    """
    from lifebench import __version__
    from lifebench._about import package_versions, revision

    commit = revision()
    models: dict[str, ModelInfo] = {}
    for role in ("agent", "user", "judge", "tool"):
        spec = options.model_for(role)
        if not spec:
            continue
        model = None
        if resolve is not None:
            try:
                model = resolve(spec)
            except Exception:
                model = None
        models[role] = _model_info(spec, model)
    return Provenance(
        lifebench_version=__version__,
        git_commit=commit.commit,
        git_dirty=commit.dirty,
        packages=package_versions(),
        task_file=file_info(options.tasks_file),
        tasks=len(tasks),
        tasks_hash=tasks_hash(tasks),
        graders={basis: grader_version(ev) for basis, ev in sorted(evaluators.items())},
        models=models,
        kinds={"agent": options.agent, "user": options.user, "evaluator": options.evaluator},
    )


# ---------------------------------------------------------------------------- comparability


class Difference(_Frozen):
    """One way two runs differ, and whether their numbers may still be compared."""

    aspect: str = Field(
        description="suite, domain, tasks, evaluator, grader, judge, user simulator, tool "
        "simulator, option, grading, lifebench, packages, seed, trials."
    )
    detail: str = Field(description="What differs, in words.")
    a: Any = Field(None, description="The first run's value.")
    b: Any = Field(None, description="The second run's value.")
    comparable: bool = Field(
        description="False when the difference makes the runs' numbers incomparable."
    )


class RunFacts(_Frozen):
    """What :func:`comparability` reads of a run (see :func:`run_facts`)."""

    config: dict[str, Any] = Field(description="The stored run configuration.")
    tasks: dict[str, str] = Field(description="Task id → content hash.")
    session: Provenance | None = Field(None, description="The latest session's provenance.")
    versions: list[str] = Field(
        default_factory=list, description="lifebench versions of all sessions, oldest first."
    )
    graders: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Grader versions behind the stored evaluations, by basis (several when "
        "the evaluations mix gradings; empty list: not recorded).",
    )
    judges: list[str] = Field(
        default_factory=list, description="Judge model identities behind the evaluations."
    )
    mixed: bool = Field(False, description="The stored evaluations mix gradings.")
    grading: dict[str, Any] = Field(
        default_factory=dict,
        description="The description of the grading behind the stored evaluations (evaluator, "
        "judge, bases, suite options: a `lifebench eval` may have changed them; empty: the "
        "run's configuration).",
    )


def _judge_identity(part: Mapping[str, Any], provenance: Provenance | None) -> str | None:
    if provenance is not None and "judge" in provenance.models:
        return provenance.models["judge"].identity
    spec = part.get("judge_model")
    return str(spec).split("@", 1)[0].strip() if spec else None


def facts_from(
    config: Mapping[str, Any],
    tasks: Mapping[str, str],
    sessions: Sequence[Provenance | None],
    gradings: Sequence[tuple[Mapping[str, Any], Provenance | None]],
    mixed: bool,
) -> RunFacts:
    """:class:`RunFacts` from a store's parts: configuration, tasks, each session's
    provenance (oldest first), the gradings behind the stored evaluations (description,
    provenance) and whether they are mixed."""
    graders: dict[str, set[str]] = {}
    judges: set[str] = set()
    for part, provenance in gradings:
        for basis in part.get("bases") or config.get("bases") or []:
            versions = graders.setdefault(str(basis), set())
            if provenance is not None and basis in provenance.graders:
                versions.add(provenance.graders[basis])
        judge = _judge_identity(part, provenance)
        if judge:
            judges.add(judge)
    known = [s for s in sessions if s is not None]
    described = next((dict(part) for part, _ in gradings if part.get("evaluator")), {})
    return RunFacts(
        config=dict(config),
        tasks=dict(tasks),
        session=known[-1] if known else None,
        versions=[s.lifebench_version for s in known],
        graders={k: sorted(v) for k, v in sorted(graders.items())},
        judges=sorted(judges),
        mixed=mixed,
        grading={k: described[k] for k in _GRADING_KEYS if k in described},
    )


_GRADING_KEYS = ("evaluator", "judge_model", "bases", "suite_options")
"""What a grading description holds that decides a reward (as in the configuration)."""
_DEFAULTS = {"user_seeds": 1}
"""Values a stored configuration leaves out when they have their default."""


def compared_config(facts: RunFacts) -> dict[str, Any]:
    """The configuration compared: the run's (left-out defaults filled in), with the
    evaluator, judge, bases and suite options of the grading behind the stored evaluations
    (a ``lifebench eval`` may have changed them; its suite options extend the run's)."""
    config = {**_DEFAULTS, **facts.config}
    graded = facts.grading
    for key in ("evaluator", "judge_model", "bases"):
        if key in graded:
            config[key] = graded[key]
    if "suite_options" in graded:
        config["suite_options"] = {
            **dict(config.get("suite_options") or {}),
            **dict(graded["suite_options"] or {}),
        }
    return config


def _ids(ids: Sequence[str], limit: int = 5) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f" … and {len(ids) - limit} more" if len(ids) > limit else "")


_SELF = frozenset(
    {
        "suite",
        "domain",
        "agent",
        "agent_model",
        "user",
        "user_model",
        "judge_model",
        "tool_model",
        "evaluator",
        "bases",
        "suite_options",
        "tasks_file",
        "task_ids",
        "num_tasks",
        "task_set",
        "trials",
        "user_seeds",
        "seed",
        "temperature",
    }
)
"""Configuration keys compared by their own rules (or not at all: the agent is what a
comparison compares; the task selection is compared through the tasks themselves)."""


def _role_model(facts: RunFacts, role: str) -> str | None:
    session = facts.session
    if session is not None and role in session.models:
        return session.models[role].identity
    spec = facts.config.get(f"{role}_model")
    return str(spec).split("@", 1)[0].strip() if spec else None


def _tasks_differences(a: RunFacts, b: RunFacts, shared_tasks: bool) -> list[Difference]:
    changed = sorted(t for t in a.tasks.keys() & b.tasks.keys() if a.tasks[t] != b.tasks[t])
    only_a = sorted(a.tasks.keys() - b.tasks.keys())
    only_b = sorted(b.tasks.keys() - a.tasks.keys())
    out = []
    if changed:
        out.append(
            Difference(
                aspect="tasks",
                detail=f"different task contents: {len(changed)} task(s) with the same id "
                f"differ ({_ids(changed)})",
                a=len(changed),
                b=len(changed),
                comparable=False,
            )
        )
    if only_a or only_b:
        parts = []
        if only_a:
            parts.append(f"{len(only_a)} only in the first ({_ids(only_a)})")
        if only_b:
            parts.append(f"{len(only_b)} only in the second ({_ids(only_b)})")
        shared = len(a.tasks.keys() & b.tasks.keys())
        out.append(
            Difference(
                aspect="tasks",
                detail="different task sets: "
                + "; ".join(parts)
                + (f" (compared on the {shared} shared task(s))" if shared_tasks else ""),
                a=len(a.tasks),
                b=len(b.tasks),
                comparable=shared_tasks,
            )
        )
    return out


def _plain(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _grader_differences(a: RunFacts, b: RunFacts) -> list[Difference]:
    out = []
    bases = sorted(set(a.config.get("bases") or []) & set(b.config.get("bases") or []))
    for basis in bases:
        va, vb = a.graders.get(basis, []), b.graders.get(basis, [])
        for name, versions in (("first", va), ("second", vb)):
            if len(versions) > 1:
                out.append(
                    Difference(
                        aspect="grader",
                        detail=f"the {name} run's '{basis}' evaluations come from several "
                        f"grader versions ({', '.join(versions)})",
                        a=va,
                        b=vb,
                        comparable=False,
                    )
                )
        if not va or not vb:
            missing = " and ".join(n for n, v in (("first", va), ("second", vb)) if not v)
            out.append(
                Difference(
                    aspect="grader",
                    detail=f"the grader version of '{basis}' is not recorded for the {missing} "
                    "run (made by a lifebench that did not record it)",
                    a=va or None,
                    b=vb or None,
                    comparable=True,
                )
            )
        elif len(va) == 1 and len(vb) == 1 and va != vb:
            out.append(
                Difference(
                    aspect="grader",
                    detail=f"grader version of '{basis}': {va[0]} vs {vb[0]}",
                    a=va[0],
                    b=vb[0],
                    comparable=False,
                )
            )
    return out


def _option_differences(
    a: Mapping[str, Any], b: Mapping[str, Any], skip: frozenset[str] = frozenset()
) -> list[Difference]:
    """One difference per option (a ``--flag``) whose value differs."""
    return [
        Difference(
            aspect="option",
            detail=f"--{key.replace('_', '-')}: {_plain(a.get(key))} vs {_plain(b.get(key))}",
            a=a.get(key),
            b=b.get(key),
            comparable=False,
        )
        for key in sorted((set(a) | set(b)) - skip)
        if a.get(key) != b.get(key)
    ]


def _value_differences(
    ca: Mapping[str, Any], cb: Mapping[str, Any], keys: Sequence[str], *, comparable: bool
) -> list[Difference]:
    """One difference per key of ``keys`` whose value differs (the key names the aspect)."""
    return [
        Difference(
            aspect=key,
            detail=f"{key}: {ca.get(key)} vs {cb.get(key)}",
            a=ca.get(key),
            b=cb.get(key),
            comparable=comparable,
        )
        for key in keys
        if ca.get(key) != cb.get(key)
    ]


def _config_differences(a: RunFacts, b: RunFacts) -> list[Difference]:
    ca, cb = a.config, b.config
    out = _value_differences(ca, cb, ("suite", "domain"), comparable=False)
    if ca.get("evaluator") != cb.get("evaluator") or sorted(ca.get("bases") or []) != sorted(
        cb.get("bases") or []
    ):
        out.append(
            Difference(
                aspect="evaluator",
                detail=f"evaluator {ca.get('evaluator')} ({'+'.join(ca.get('bases') or [])}) vs "
                f"{cb.get('evaluator')} ({'+'.join(cb.get('bases') or [])})",
                a=ca.get("evaluator"),
                b=cb.get("evaluator"),
                comparable=False,
            )
        )
    for role, aspect in (("user", "user simulator"), ("tool", "tool simulator")):
        kind_a, kind_b = ca.get(role), cb.get(role)
        model_a, model_b = _role_model(a, role), _role_model(b, role)
        if role == "user" and kind_a != kind_b:
            out.append(
                Difference(
                    aspect=aspect,
                    detail=f"{aspect}: {kind_a} vs {kind_b}",
                    a=kind_a,
                    b=kind_b,
                    comparable=False,
                )
            )
        elif model_a != model_b:
            out.append(
                Difference(
                    aspect=aspect,
                    detail=f"{aspect} model: {model_a or 'none'} vs {model_b or 'none'}",
                    a=model_a,
                    b=model_b,
                    comparable=False,
                )
            )
    judge_a = a.judges or ([j] if (j := _role_model(a, "judge")) else [])
    judge_b = b.judges or ([j] if (j := _role_model(b, "judge")) else [])
    if sorted(judge_a) != sorted(judge_b):
        out.append(
            Difference(
                aspect="judge",
                detail=f"judge: {', '.join(judge_a) or 'none'} vs {', '.join(judge_b) or 'none'}",
                a=judge_a,
                b=judge_b,
                comparable=False,
            )
        )
    out += _option_differences(ca.get("suite_options") or {}, cb.get("suite_options") or {})
    out += _option_differences(ca, cb, _SELF)
    out += _temperature_difference(a, b)
    out += _value_differences(ca, cb, ("seed", "trials", "user_seeds"), comparable=True)
    return out


def _temperature_difference(a: RunFacts, b: RunFacts) -> list[Difference]:
    """The sampling temperature is every role's: a difference changes what the agent is
    measured against when a role other than the agent is a model (user or tool simulator,
    judge); else it changes only the agent, which is what a comparison compares (noted)."""
    ta, tb = a.config.get("temperature"), b.config.get("temperature")
    if ta == tb:
        return []
    others = sorted(
        {
            role
            for facts in (a, b)
            for role in ("user", "judge", "tool")
            if _role_model(facts, role) or (role == "judge" and facts.judges)
        }
    )
    also = (
        f" (also the {', '.join(others)} model's)"
        if others
        else " (only the agent's: no other role is a model)"
    )
    return [
        Difference(
            aspect="option",
            detail=f"--temperature: {_plain(ta)} vs {_plain(tb)}{also}",
            a=ta,
            b=tb,
            comparable=not others,
        )
    ]


def _commit(commit: str | None) -> str:
    return commit[:12] if commit else "unknown"


def _software_differences(a: RunFacts, b: RunFacts) -> list[Difference]:
    out = []
    for name, facts in (("first", a), ("second", b)):
        if len(set(facts.versions)) > 1:
            out.append(
                Difference(
                    aspect="lifebench",
                    detail=f"the {name} run was resumed with other lifebench versions "
                    f"({', '.join(dict.fromkeys(facts.versions))})",
                    a=a.versions,
                    b=b.versions,
                    comparable=True,
                )
            )
    pa, pb = a.session, b.session
    if pa is None or pb is None:
        return out
    if (pa.lifebench_version, pa.git_commit) != (pb.lifebench_version, pb.git_commit):
        detail = f"lifebench {pa.lifebench_version} vs {pb.lifebench_version}"
        if pa.lifebench_version == pb.lifebench_version:  # the same version, other commits
            detail += f" (commit {_commit(pa.git_commit)} vs {_commit(pb.git_commit)})"
        out.append(
            Difference(
                aspect="lifebench",
                detail=detail,
                a=pa.lifebench_version,
                b=pb.lifebench_version,
                comparable=True,
            )
        )
    changed = sorted(
        k for k in set(pa.packages) | set(pb.packages) if pa.packages.get(k) != pb.packages.get(k)
    )
    if changed:
        out.append(
            Difference(
                aspect="packages",
                detail="package versions: "
                + ", ".join(
                    f"{k} {pa.packages.get(k, 'none')} vs {pb.packages.get(k, 'none')}"
                    for k in changed
                ),
                a={k: pa.packages.get(k) for k in changed},
                b={k: pb.packages.get(k) for k in changed},
                comparable=True,
            )
        )
    return out


def compare_facts(a: RunFacts, b: RunFacts, *, shared_tasks: bool = False) -> list[Difference]:
    """Every difference between two runs (see :func:`comparability`)."""
    a = a.model_copy(update={"config": compared_config(a)})
    b = b.model_copy(update={"config": compared_config(b)})
    out = _config_differences(a, b)
    out += _tasks_differences(a, b, shared_tasks)
    out += _grader_differences(a, b)
    for name, facts in (("first", a), ("second", b)):
        if facts.mixed:
            out.append(
                Difference(
                    aspect="grading",
                    detail=f"the {name} run's evaluations come from different gradings "
                    "(run `lifebench eval` to grade every simulation alike)",
                    a=a.mixed,
                    b=b.mixed,
                    comparable=False,
                )
            )
    out += _software_differences(a, b)
    return out


def comparability(a: Any, b: Any, *, shared_tasks: bool = False) -> list[Difference]:
    """Whether two runs' numbers can be put side by side, as the list of their differences
    (empty: nothing differs but the agent). Each :class:`Difference` names its aspect, the
    two values and whether it breaks comparability (``comparable`` False: different task
    contents or task sets, grader versions, judge, user or tool simulator, evaluator, suite
    or core options, a mixed grading) or is only noted (lifebench or package versions, seed,
    trials, a grader version that was not recorded).

    ``a`` and ``b`` are :class:`~lifebench.runner.RunStore` instances (or :class:`RunFacts`).
    With ``shared_tasks`` the numbers are compared on the tasks both runs have (as ``lifebench
    compare`` does): different task sets are then only noted (tasks with the same id must
    still have the same contents).
    """
    fa = a if isinstance(a, RunFacts) else a.facts()
    fb = b if isinstance(b, RunFacts) else b.facts()
    return compare_facts(fa, fb, shared_tasks=shared_tasks)


def incomparable(differences: Sequence[Difference]) -> list[Difference]:
    """The differences that make two runs incomparable."""
    return [d for d in differences if not d.comparable]

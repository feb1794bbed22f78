"""Synthetic unit records and runs for the comparison and noise-floor tests (no store)."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "metrics"))

from metrics_fakes import Rec

from lifebench.evaluation._rejudge import with_replicates
from lifebench.evaluation._types import BasisResult, Evaluation
from lifebench.reporting._load import RunData
from lifebench.runner._provenance import Provenance, facts_from
from lifebench.runner._records import RunMeta
from lifebench.simulation._replay import replay_info
from lifebench.simulation._types import Simulation, TerminationReason


def evaluation(
    reward: float, extra: Sequence[float | None] = (), *, basis: str = "state"
) -> Evaluation:
    """An evaluation of ``reward`` on one basis, with extra gradings ``extra`` (None: an
    extra grading that failed)."""
    result = BasisResult(basis=basis, reward=reward, score=reward)
    ev = Evaluation(reward=reward, basis=basis, by_basis={basis: result})
    if not extra:
        return ev
    replicates = []
    for i, x in enumerate(extra, start=1):
        r = BasisResult(basis=basis, reward=0.0 if x is None else x, score=0.0)
        error = "evaluation failed: judge broke" if x is None else None
        replicates.append(
            (100 + i, Evaluation(reward=r.reward, basis=basis, by_basis={basis: r}, error=error))
        )
    return with_replicates(ev, replicates)


def rec(
    task_id: str,
    trial: int,
    reward: float,
    *,
    replay: tuple[int, int] | None = None,
    extra: Sequence[float | None] = (),
    status: str = "done",
) -> Rec:
    """A done, graded unit (``replay``: its (agent trial, user seed))."""
    info: dict[str, Any] = replay_info(*replay) if replay is not None else {}
    sim = Simulation(
        task_id=task_id,
        trial=trial,
        seed=1000 + trial,
        termination=TerminationReason.AGENT_STOP,
        info=info,
    )
    return Rec(task_id, trial, status, 1, sim, evaluation(reward, extra))


def records(rewards: Mapping[str, Sequence[float]]) -> list[Rec]:
    """One done unit per reward, trials in order."""
    return [rec(task, i, r) for task, rs in rewards.items() for i, r in enumerate(rs)]


def bernoulli_run(
    probabilities: Mapping[str, float], trials: int, rng: random.Random
) -> dict[str, list[float]]:
    """Rewards 0/1 per task: ``trials`` draws with the task's success probability."""
    return {
        t: [1.0 if rng.random() < p else 0.0 for _ in range(trials)]
        for t, p in probabilities.items()
    }


def config(**changes: Any) -> dict[str, Any]:
    """A VitaBench run configuration as the runner stores it."""
    base: dict[str, Any] = {
        "suite": "vita",
        "domain": "delivery",
        "language": "en",
        "agent": "llm",
        "agent_model": "model-a@http://127.0.0.1:9/v1",
        "user": "llm",
        "user_model": "user-m@http://127.0.0.1:9/v1",
        "evaluator": "state",
        "judge_model": None,
        "tool_model": None,
        "bases": ["state"],
        "trials": 3,
        "seed": 300,
        "temperature": 0.0,
        "max_steps": 300,
        "max_errors": 10,
        "task_set": "auto",
        "task_ids": [],
        "num_tasks": None,
        "tasks_file": "tasks.json",
        "suite_options": {"judge_variant": "sliding", "window": 10},
    }
    base.update(changes)
    return base


def run_data(
    recs: Iterable[Any],
    *,
    name: str = "run",
    cfg: Mapping[str, Any] | None = None,
    hashes: Mapping[str, str] | None = None,
    version: str = "0.1.0",
    grading: Mapping[str, Any] | None = None,
) -> RunData:
    """An in-memory run (what ``load_run`` returns): ``grading`` as ``RunStore.grading``
    (its parts are the gradings behind the evaluations), one session of lifebench
    ``version``."""
    recs = list(recs)
    tasks = sorted({r.task_id for r in recs})
    cfg = dict(cfg or config())
    task_hashes = dict(hashes) if hashes is not None else {t: f"h-{t}" for t in tasks}
    parts = list((grading or {}).get("parts") or [{"bases": list(cfg.get("bases") or [])}])
    bases = {str(b) for p in parts for b in p.get("bases") or []} | set(cfg.get("bases") or [])
    session = Provenance(
        lifebench_version=version,
        tasks=len(task_hashes),
        graders={b: f"grader-of-{b}:1" for b in sorted(bases)},
    )
    gradings = [({k: v for k, v in p.items() if k != "source"}, session) for p in parts]
    return RunData(
        run_dir=Path("/runs") / name,
        meta=RunMeta(
            config=cfg,
            config_hash="h",
            lifebench_version=version,
            created_at="2026-01-01T00:00:00+00:00",
            schema_version=2,
        ),
        records=recs,
        task_data={},
        task_hashes=task_hashes,
        attempts=[],
        grading=dict(grading) if grading is not None else None,
        facts=facts_from(cfg, task_hashes, [session], gradings, bool((grading or {}).get("mixed"))),
    )

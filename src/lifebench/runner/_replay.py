"""Units of a run with several user-simulator seeds (``lifebench run --user-seeds S``).

The layout is :mod:`lifebench.simulation._replay`'s: with ``K`` trials and ``S`` user seeds a
task has ``K * S`` units; unit ``t`` replays the agent of trial ``a = t mod K`` against user
seed ``s = t div K``. The unit's seed (stored, checked on resume) is the ordinary trial seed
for ``s = 0`` and a seed derived from ``(run seed, task, a, "user", s)`` otherwise, so every
unit keeps its own seed and a changed layout is refused on resume. The episode of a replay is
the suite's episode for the agent seed, with the user simulator of the suite's episode for
the replay's seed — the suite is asked twice, nothing else changes. The simulation carries the
unit's own seed (so the judges of two replays of one agent trial draw independently) and
records the agent's seed beside its position.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from lifebench._util.hashing import derive_seed
from lifebench.models import ModelFactory
from lifebench.runner._units import WorkUnit
from lifebench.simulation import Episode, Simulation
from lifebench.simulation._replay import replay_info, split_trial
from lifebench.suites import RunOptions, Suite


def agent_seed(options: RunOptions, task_id: str, agent_trial: int) -> int:
    """The seed of trial ``agent_trial`` of ``task_id`` (what every role gets without
    replays)."""
    return derive_seed(options.seed, task_id, agent_trial)


def unit_seed(options: RunOptions, task_id: str, trial: int) -> int:
    """The stored seed of unit ``trial`` (see the module docstring)."""
    agent, user = split_trial(trial, options.trials)
    if user == 0:
        return agent_seed(options, task_id, agent)
    return derive_seed(options.seed, task_id, agent, "user", user)


def plan(tasks: Sequence[Any], options: RunOptions) -> list[WorkUnit]:
    """Every unit of the run: ``trials * user_seeds`` per task, trials first."""
    count = options.trials * options.user_seeds
    return [
        WorkUnit(task_id=t.id, trial=trial, seed=unit_seed(options, t.id, trial))
        for t in tasks
        for trial in range(count)
    ]


def replay_episode(
    suite: Suite, task: Any, unit: WorkUnit, options: RunOptions, models: ModelFactory
) -> Episode:
    """The episode of ``unit`` in a run with user seeds: the agent (and everything else) of
    its agent trial, the user simulator built for the unit's own seed."""
    agent, user = split_trial(unit.trial, options.trials)
    base = suite.build_episode(
        task, unit.trial, agent_seed(options, unit.task_id, agent), options, models
    )
    if user == 0:
        return base
    other = suite.build_episode(task, unit.trial, unit.seed, options, models)
    return dataclasses.replace(base, user=other.user)


def mark(simulation: Simulation, unit: WorkUnit, options: RunOptions) -> Simulation:
    """``simulation`` with the unit's seed and its replay position recorded (runs with user
    seeds only)."""
    agent, user = split_trial(unit.trial, options.trials)
    seed = agent_seed(options, unit.task_id, agent)
    info = {**simulation.info, **replay_info(agent, user, seed)}
    return simulation.model_copy(update={"seed": unit.seed, "info": info})

"""``--user-seeds``: the unit layout, its seeds, and the episode of a replay."""

from __future__ import annotations

from typing import Any

import pytest
from runner_fakes import NamedTask, RecordingSuite

from lifebench._util.hashing import derive_seed
from lifebench.runner import _replay
from lifebench.runner._experiment import plan_units
from lifebench.runner._units import WorkUnit
from lifebench.simulation._replay import replay_info, replay_position, split_trial
from lifebench.simulation._types import Simulation, TerminationReason
from lifebench.suites import make_run_options


def _options(trials: int, seeds: int) -> Any:
    return make_run_options({"trials": trials, "user_seeds": seeds, "seed": 9})


def test_split_trial() -> None:
    assert [split_trial(t, 3) for t in range(7)] == [
        (0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2),
    ]  # fmt: skip
    for trial, trials in ((0, 0), (-1, 2)):
        with pytest.raises(ValueError):
            split_trial(trial, trials)


def test_replay_position() -> None:
    sim = Simulation(task_id="t", trial=4, seed=1, termination=TerminationReason.AGENT_STOP)
    assert replay_position(sim) == (4, 0)
    marked = sim.model_copy(update={"info": replay_info(1, 2)})
    assert replay_position(marked) == (1, 2)
    odd = sim.model_copy(update={"info": {"replay": {"agent_trial": "1", "user_seed": 2}}})
    assert replay_position(odd) == (4, 0)
    assert replay_position(sim.model_copy(update={"info": {"replay": [1, 2]}})) == (4, 0)


def test_one_user_seed_keeps_the_ordinary_units() -> None:
    units = plan_units([NamedTask("a")], _options(3, 1))
    assert units == [WorkUnit("a", t, derive_seed(9, "a", t)) for t in range(3)]


def test_user_seeds_add_replays_after_the_ordinary_trials() -> None:
    options = _options(2, 3)
    units = plan_units([NamedTask("a"), NamedTask("b")], options)
    assert [(u.task_id, u.trial) for u in units][:6] == [("a", t) for t in range(6)]
    assert len(units) == 12
    a = units[:6]
    assert a[0].seed == derive_seed(9, "a", 0) and a[1].seed == derive_seed(9, "a", 1)
    assert a[2].seed == derive_seed(9, "a", 0, "user", 1)
    assert a[5].seed == derive_seed(9, "a", 1, "user", 2)
    assert len({u.seed for u in units}) == 12  # every unit has its own seed
    assert _replay.agent_seed(options, "a", 1) == derive_seed(9, "a", 1)


def test_a_replay_has_the_agent_of_its_trial_and_the_user_of_its_seed() -> None:
    options = _options(2, 2)
    suite = RecordingSuite()
    unit = WorkUnit("a", 3, _replay.unit_seed(options, "a", 3))  # agent trial 1, user seed 1
    episode = _replay.replay_episode(suite, NamedTask("a"), unit, options, None)  # type: ignore[arg-type]
    agent = derive_seed(9, "a", 1)
    assert suite.calls == [(3, agent), (3, unit.seed)]
    assert episode.seed == agent and episode.trial == 3
    assert episode.user._lines == [f"user for seed {unit.seed}"]  # type: ignore[attr-defined]
    # an ordinary trial is built once
    suite.built.clear()
    plain = WorkUnit("a", 1, _replay.unit_seed(options, "a", 1))
    episode = _replay.replay_episode(suite, NamedTask("a"), plain, options, None)  # type: ignore[arg-type]
    assert suite.calls == [(1, agent)] and episode.seed == plain.seed == agent


def test_mark_records_the_position() -> None:
    options = _options(2, 2)
    sim = Simulation(task_id="a", trial=3, seed=1, termination=TerminationReason.AGENT_STOP,
                     info={"kept": 1})  # fmt: skip
    marked = _replay.mark(sim, WorkUnit("a", 3, 5), options)
    agent = derive_seed(9, "a", 1)
    assert marked.info == {
        "kept": 1,
        "replay": {"agent_trial": 1, "user_seed": 1, "agent_seed": agent},
    }
    assert marked.seed == 5  # the unit's own seed: the judges draw independently
    assert replay_position(marked) == (1, 1)
    assert replay_info(1, 2) == {"replay": {"agent_trial": 1, "user_seed": 2}}


def test_the_default_is_not_stored() -> None:
    assert "user_seeds" not in _options(2, 1).semantic_dict()
    assert _options(2, 3).semantic_dict()["user_seeds"] == 3
    assert _options(2, 1).config_hash() == _options(2, 3).config_hash()

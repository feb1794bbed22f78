"""Guards for ``--user-seeds`` (runner/_replay, simulation/_replay): a replay's episode is built
with the run's own options and models, and one trial per seed is a valid layout."""

from __future__ import annotations

import pytest
from runner_fakes import NamedTask, RecordingSuite

from lifebench.runner import _replay
from lifebench.runner._units import WorkUnit
from lifebench.simulation._replay import split_trial
from lifebench.suites import make_run_options


def test_both_episodes_of_a_replay_get_the_runs_options_and_models() -> None:
    options = make_run_options({"trials": 2, "user_seeds": 2, "seed": 3})
    models = object()
    suite = RecordingSuite()
    unit = WorkUnit("a", 3, _replay.unit_seed(options, "a", 3))  # agent trial 1, user seed 1
    _replay.replay_episode(suite, NamedTask("a"), unit, options, models)  # type: ignore[arg-type]
    assert len(suite.built) == 2
    for _trial, _seed, got_options, got_models in suite.built:
        assert got_options is options and got_models is models


def test_one_trial_per_seed_is_a_valid_layout() -> None:
    # trials = 1: every unit t is the replay of trial 0 against user seed t
    assert [split_trial(t, 1) for t in range(4)] == [(0, 0), (0, 1), (0, 2), (0, 3)]
    options = make_run_options({"trials": 1, "user_seeds": 3, "seed": 5})
    seeds = [_replay.unit_seed(options, "a", t) for t in range(3)]
    assert seeds[0] == _replay.agent_seed(options, "a", 0)  # unit 0 is the ordinary trial
    assert len(set(seeds)) == 3  # every replay has its own seed


@pytest.mark.parametrize(("trial", "trials"), [(0, 0), (-1, 2)])
def test_a_bad_layout_says_what_it_needs(trial: int, trials: int) -> None:
    with pytest.raises(ValueError) as caught:
        split_trial(trial, trials)
    assert str(caught.value) == f"need trials >= 1 and trial >= 0, got {trials} and {trial}"

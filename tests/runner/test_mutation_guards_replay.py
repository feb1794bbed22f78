"""Guards for ``--user-seeds`` (runner/_replay, simulation/_replay): a replay's episode is built
with the run's own options and models, and one trial per seed is a valid layout."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from lifebench.runner import _replay
from lifebench.runner._units import WorkUnit
from lifebench.simulation import Episode, ScriptedUser
from lifebench.simulation._replay import split_trial
from lifebench.suites import make_run_options


@dataclass
class _Task:
    id: str


@dataclass
class _Suite:
    """Records the options and models each episode is built with."""

    seen: list[tuple[int, Any, Any]] = field(default_factory=list)

    def build_episode(self, task: Any, trial: int, seed: int, options: Any, models: Any) -> Episode:
        self.seen.append((seed, options, models))
        return Episode(
            task_id=task.id,
            trial=trial,
            seed=seed,
            environment=None,  # type: ignore[arg-type]
            agent=None,  # type: ignore[arg-type]
            user=ScriptedUser([f"user {seed}"]),
        )


def test_both_episodes_of_a_replay_get_the_runs_options_and_models() -> None:
    options = make_run_options({"trials": 2, "user_seeds": 2, "seed": 3})
    models = object()
    suite = _Suite()
    unit = WorkUnit("a", 3, _replay.unit_seed(options, "a", 3))  # agent trial 1, user seed 1
    _replay.replay_episode(suite, _Task("a"), unit, options, models)  # type: ignore[arg-type]
    assert len(suite.seen) == 2
    for _seed, got_options, got_models in suite.seen:
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

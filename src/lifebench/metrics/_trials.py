"""The scored trials of a run, task by task, with where each sits in the run's design (agent
trial, user-simulator seed) and every grading of it (the primary one and any extra ones)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from lifebench.evaluation._rejudge import replicate_rewards
from lifebench.metrics._passk import is_success
from lifebench.metrics._records import STATUS_DONE, ResultRecord
from lifebench.simulation._replay import replay_position


@dataclass(frozen=True)
class ScoredTrial:
    """One scored (task, trial): done, graded without error, gradable — the simulations that
    enter Avg@k and Pass^k."""

    task_id: str
    trial: int
    reward: float
    agent_trial: int
    user_seed: int
    extra_rewards: tuple[float, ...] = ()
    """Rewards of the extra gradings (``eval --rejudge``) that succeeded, in order."""

    @property
    def success(self) -> bool:
        """The trial's verdict (reward within 1e-6 of 1)."""
        return is_success(self.reward)

    @property
    def gradings(self) -> tuple[float, ...]:
        """Every reward this trajectory received: the primary grading first."""
        return (self.reward, *self.extra_rewards)


def scored_trials(records: Iterable[ResultRecord]) -> dict[str, list[ScoredTrial]]:
    """Scored trials by task id (tasks sorted, trials in order). The same simulations as
    :func:`~lifebench.metrics.compute_metrics` scores."""
    out: dict[str, list[ScoredTrial]] = defaultdict(list)
    for r in sorted(records, key=lambda r: (r.task_id, r.trial)):
        sim, ev = r.simulation, r.evaluation
        if r.status != STATUS_DONE or sim is None or ev is None:
            continue
        if ev.error is not None or not ev.gradable:
            continue
        agent_trial, user_seed = replay_position(sim)
        extra = tuple(x for x in replicate_rewards(ev) if x is not None)
        out[r.task_id].append(
            ScoredTrial(r.task_id, r.trial, ev.reward, agent_trial, user_seed, extra)
        )
    return {task: out[task] for task in sorted(out)}

"""Where a run's variance comes from: task, agent, user simulator and judge.

The model (nested random effects, one reward per grading)::

    y[i, a, s, j] = mu + T[i] + A[i, a] + U[i, a, s] + J[i, a, s, j]

for task ``i``, agent trial ``a`` (the agent's own seed), user-simulator seed ``s``
(``run --user-seeds``) and grading ``j`` of one trajectory (``eval --rejudge``), each term
independent with mean 0 and variance ``task``, ``agent``, ``user``, ``judge``. The components
are estimated bottom-up by the method of moments (the ANOVA estimators of a nested design),
from pooled within-group sample variances:

* ``judge``: the pooled variance of the gradings of each trajectory graded more than once;
* ``user``: the pooled variance, over the user seeds of one (task, agent trial), of the
  trajectories' mean rewards, less what judge noise adds to such means;
* ``agent``: the pooled variance, over the agent trials of one task, of their mean rewards,
  less what user and judge noise add;
* ``task``: the variance of the task means, less what the three add (the signal: tasks differ
  in difficulty; it cancels in a paired comparison).

Unequal group sizes are handled exactly in the expectations (each level's coefficients are
the pooled means of ``1/size`` terms). An estimate below 0 is reported as 0, with a note. A
level the run did not vary (one user seed per agent trial, one grading per trajectory) is not
measured: its variance stays inside the level above, which says so in ``includes``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from lifebench.metrics._trials import ScoredTrial

ComponentName = Literal["task", "agent", "user", "judge"]
NOISE: tuple[ComponentName, ...] = ("agent", "user", "judge")


class VarianceComponent(BaseModel):
    """One source of variance of the reward."""

    model_config = ConfigDict(frozen=True)

    name: ComponentName
    variance: float | None = Field(
        None,
        description="Estimated variance of the reward due to this source (None: the run "
        "did not vary it).",
    )
    share: float | None = Field(
        None,
        description="Share of the within-task variance (agent + user + judge); None for the "
        "task component and for sources not measured.",
    )
    groups: int = Field(0, description="Groups whose spread measured it.")
    includes: list[ComponentName] = Field(
        default_factory=list,
        description="Sources the run did not vary separately, whose variance is inside this "
        "estimate.",
    )


class VarianceSplit(BaseModel):
    """The variance components of a run's reward (see the module docstring)."""

    model_config = ConfigDict(frozen=True)

    model: str = Field(
        "nested random effects y = mu + task + agent + user + judge; method-of-moments "
        "(ANOVA) estimates, negative estimates reported as 0",
        description="The variance-components model.",
    )
    tasks: int = Field(description="Tasks with a scored trial.")
    agent_trials: float | None = Field(None, description="Mean agent trials per task.")
    user_seeds: float | None = Field(
        None, description="Mean user-simulator seeds per (task, agent trial)."
    )
    gradings: float | None = Field(None, description="Mean gradings per trajectory.")
    components: list[VarianceComponent] = Field(default_factory=list)
    within_task: float | None = Field(
        None, description="Estimated within-task variance: agent + user + judge."
    )
    notes: list[str] = Field(default_factory=list)

    def component(self, name: ComponentName) -> VarianceComponent:
        """The component called ``name``."""
        return next(c for c in self.components if c.name == name)


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def _pooled(groups: Sequence[Sequence[float]]) -> tuple[float | None, int]:
    """Pooled within-group sample variance of the groups of two or more values (weights:
    degrees of freedom), and the number of such groups."""
    ss = 0.0
    df = 0
    used = 0
    for g in groups:
        if len(g) < 2:
            continue
        m = _mean(g)
        ss += math.fsum((x - m) ** 2 for x in g)
        df += len(g) - 1
        used += 1
    return (ss / df if df else None), used


def _weighted(pairs: Sequence[tuple[int, float]]) -> float:
    """Mean of the values weighted by degrees of freedom (``size - 1``) of groups of 2+."""
    weights = [(n - 1, v) for n, v in pairs if n >= 2]
    total = sum(w for w, _ in weights)
    return math.fsum(w * v for w, v in weights) / total if total else 0.0


def variance_split(
    trials: Mapping[str, Sequence[ScoredTrial]], *, judged: bool = True
) -> VarianceSplit:
    """The variance components of the scored trials of a run, task by task. ``judged=False``:
    no grader of the run asks a judge, so the judge's variance is 0 by construction (reported
    as 0, measured by no group) unless the trials hold extra gradings that say otherwise."""
    tasks = {t: list(v) for t, v in trials.items() if v}
    if not tasks:
        return VarianceSplit(tasks=0, notes=["no scored trial: nothing to split"])
    notes: list[str] = []
    # cells: task -> agent trial -> user seed -> gradings
    cells: dict[str, dict[int, dict[int, tuple[float, ...]]]] = {}
    for task, rows in tasks.items():
        by_agent: dict[int, dict[int, tuple[float, ...]]] = defaultdict(dict)
        for r in rows:
            by_agent[r.agent_trial][r.user_seed] = r.gradings
        cells[task] = dict(by_agent)

    trajectories = [
        g for by_agent in cells.values() for seeds in by_agent.values() for g in seeds.values()
    ]
    judge_v, judge_groups = _pooled(trajectories)

    # user level: per (task, agent trial), the trajectory means over its user seeds
    user_groups: list[list[float]] = []
    user_judge_coef: list[tuple[int, float]] = []
    for by_agent in cells.values():
        for seeds in by_agent.values():
            user_groups.append([_mean(g) for g in seeds.values()])
            user_judge_coef.append((len(seeds), _mean([1 / len(g) for g in seeds.values()])))
    user_v, user_groups_used = _pooled(user_groups)

    # agent level: per task, the agent trials' means (over their user seeds' means)
    agent_groups: list[list[float]] = []
    agent_user_coef: list[tuple[int, float]] = []
    agent_judge_coef: list[tuple[int, float]] = []
    for by_agent in cells.values():
        means = []
        inv_m = []
        inv_j = []
        for seeds in by_agent.values():
            m = len(seeds)
            means.append(_mean([_mean(g) for g in seeds.values()]))
            inv_m.append(1 / m)
            inv_j.append(math.fsum(1 / len(g) for g in seeds.values()) / m**2)
        agent_groups.append(means)
        agent_user_coef.append((len(by_agent), _mean(inv_m)))
        agent_judge_coef.append((len(by_agent), _mean(inv_j)))
    agent_v, agent_groups_used = _pooled(agent_groups)

    def clamp(name: str, value: float | None) -> float | None:
        if value is not None and value < 0:
            notes.append(f"the {name} estimate was negative ({value:.3g}) and is reported as 0")
            return 0.0
        return value

    judge = clamp("judge", judge_v)
    if judge is None and not judged:
        judge = 0.0
        notes.append(
            "no grader of this run asks a judge (deterministic grading): judge variance is 0 "
            "by construction"
        )
    user = user_v
    if user is not None and judge is not None:
        user = user - _weighted(user_judge_coef) * judge
    user = clamp("user-simulator", user)
    agent = agent_v
    if agent is not None:
        if user is not None:
            agent -= _weighted(agent_user_coef) * user
        if judge is not None:
            agent -= _weighted(agent_judge_coef) * judge
    agent = clamp("agent", agent)

    # task level: the spread of task means, less the within-task noise they carry
    task_means = [_mean(agent_groups[i]) for i in range(len(agent_groups))]
    task_v: float | None = None
    if len(task_means) >= 2:
        spread = _pooled([task_means])[0] or 0.0
        carried = []
        for by_agent in cells.values():
            n_a = len(by_agent)
            per_agent = []
            for seeds in by_agent.values():
                m = len(seeds)
                v = (agent or 0.0) + (user or 0.0) / m
                v += (judge or 0.0) * math.fsum(1 / len(g) for g in seeds.values()) / m**2
                per_agent.append(v)
            carried.append(math.fsum(per_agent) / n_a**2)
        task_v = clamp("task", spread - _mean(carried))

    includes_agent: list[ComponentName] = []
    includes_user: list[ComponentName] = []
    if user is None:
        includes_agent.append("user")
        notes.append(
            "one user-simulator seed per agent trial: user-simulator variance is inside the "
            "agent estimate (run with --user-seeds S to separate it)"
        )
    if judge is None:
        (includes_user if user is not None else includes_agent).append("judge")
        notes.append(
            "one grading per trajectory: judge variance is inside the "
            + ("user-simulator" if user is not None else "agent")
            + " estimate (lifebench eval --rejudge K to separate it)"
        )
    if agent is None:
        notes.append("one agent trial per task: agent variance is not measured (use --trials)")
    measured = {"agent": agent, "user": user, "judge": judge}
    present = [v for v in measured.values() if v is not None]
    within = math.fsum(present) if present else None

    def share(value: float | None) -> float | None:
        if value is None or within is None or within <= 0:
            return None
        return value / within

    if within is not None and within <= 0:
        notes.append("no within-task variance: every trial and grading of a task agrees")
    components = [
        VarianceComponent(name="task", variance=task_v, groups=len(task_means)),
        VarianceComponent(
            name="agent",
            variance=agent,
            share=share(agent),
            groups=agent_groups_used,
            includes=includes_agent,
        ),
        VarianceComponent(
            name="user",
            variance=user,
            share=share(user),
            groups=user_groups_used,
            includes=includes_user,
        ),
        VarianceComponent(name="judge", variance=judge, share=share(judge), groups=judge_groups),
    ]
    n_cells = [len(seeds) for by_agent in cells.values() for seeds in by_agent.values()]
    return VarianceSplit(
        tasks=len(cells),
        agent_trials=_mean([len(by_agent) for by_agent in cells.values()]),
        user_seeds=_mean(n_cells),
        gradings=_mean([len(g) for g in trajectories]),
        components=components,
        within_task=within,
        notes=notes,
    )

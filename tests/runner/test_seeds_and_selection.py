"""Units, seeds and task selection, as properties.

* every (task, trial) is one unit with its own seed, derived from the run seed, the task id and
  the trial — and nothing else: the same inputs give the same seeds, in task-then-trial order;
* the seed reaches the models of the unit's episode, and the same seed reproduces the unit;
* ``--task-ids`` selects exactly the named tasks (file order) and refuses unknown ids by name;
  ``--num-tasks`` then keeps the first N;
* an outcome's status (done / infra_error / rejected), error text and counters are decided
  once, where the unit ran (:meth:`PackedOutcome.of`).
"""

from __future__ import annotations

import asyncio
import types
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from runner_fakes import evaluation, simulation

from lifebench._util.hashing import derive_seed, stable_hash
from lifebench._util.text import escape_invisible
from lifebench.errors import InputError
from lifebench.evaluation._types import BasisResult, Evaluation
from lifebench.messages import AssistantMessage, Message, Usage
from lifebench.models import GenerateConfig, ModelFactory
from lifebench.runner import UnitOutcome, UnitStatus, WorkUnit
from lifebench.runner._experiment import build_experiment, plan_units, select_tasks
from lifebench.runner._units import PackedOutcome
from lifebench.simulation._types import TerminationReason
from lifebench.suites import RunOptions

_IDS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=8)


def _tasks(ids: Sequence[str]) -> list[Any]:
    return [types.SimpleNamespace(id=i) for i in ids]


def _options(**values: Any) -> RunOptions:
    return RunOptions(**values)


# ------------------------------------------------------------------------------------ seeds


def test_derive_seed_is_pinned() -> None:
    """The recipe (sha256 of the canonical JSON, 16 hex digits, modulo 2**31 - 1) is part of
    every stored run: a resumed run must derive the same seeds."""
    assert derive_seed(300, "t1", 0) == int(stable_hash([300, "t1", 0], 16), 16) % (2**31 - 1)
    assert derive_seed(300, "t1", 0) == 434169765
    assert derive_seed(300, "t1", 1) == 292608548
    assert derive_seed(301, "t1", 0) == 1424641703
    assert derive_seed() == 718488912


@settings(max_examples=80)
@given(
    ids=st.lists(_IDS, min_size=1, max_size=6, unique=True),
    trials=st.integers(1, 4),
    seed=st.integers(-(2**40), 2**40),
)
def test_every_task_and_trial_has_its_own_reproducible_seed(
    ids: list[str], trials: int, seed: int
) -> None:
    options = _options(trials=trials, seed=seed)
    units = plan_units(_tasks(ids), options)
    assert [(u.task_id, u.trial) for u in units] == [(i, t) for i in ids for t in range(trials)]
    assert len({u.seed for u in units}) == len(units), "two units share a seed"
    assert all(0 <= u.seed < 2**31 - 1 for u in units)
    assert units == plan_units(_tasks(ids), _options(trials=trials, seed=seed))
    # a unit's seed depends on its own task and trial only, not on the other tasks
    alone = plan_units(_tasks(ids[-1:]), options)
    assert alone == [u for u in units if u.task_id == ids[-1]]
    # another run seed gives other seeds
    other = plan_units(_tasks(ids), _options(trials=trials, seed=seed + 1))
    assert {u.seed for u in other}.isdisjoint({u.seed for u in units})


class SeedEcho:
    """A chat model whose answer is a function of the request's seed and the conversation's
    length only (no state): what a seeded provider does."""

    def __init__(self, role: str) -> None:
        self.role = role
        self.seeds: list[int | None] = []

    @property
    def name(self) -> str:
        return self.role

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        config: GenerateConfig | None = None,
    ) -> AssistantMessage:
        seed = None if config is None else config.seed
        self.seeds.append(seed)
        if self.role == "user" and len(messages) >= 4:
            return AssistantMessage(content="###STOP###", usage=Usage.zero())
        return AssistantMessage(content=f"{self.role} says {seed}", usage=Usage.zero())


def test_the_seed_reaches_the_models_and_reproduces_the_unit() -> None:
    agent, user = SeedEcho("agent"), SeedEcho("user")
    factory = ModelFactory()
    factory.register("agent", agent)
    factory.register("user", user)
    options = _options(
        agent="llm", user="llm", agent_model="agent", user_model="user",
        task_set="demo", num_tasks=2, trials=2, seed=7, quiet=True,
    )  # fmt: skip
    exp = build_experiment(options, models=factory)
    assert len(exp.units) == 4

    async def run_all() -> list[Any]:
        return [await exp.execute_unit(u) for u in [*exp.units, *exp.units]]

    outcomes = asyncio.run(run_all())
    first, again = outcomes[:4], outcomes[4:]
    for unit, out in zip(exp.units, first, strict=True):
        sim = out.simulation
        assert (sim.task_id, sim.trial, sim.seed) == (unit.task_id, unit.trial, unit.seed)
        said = [m.content for m in sim.messages if m.role in ("assistant", "user")]
        assert f"agent says {unit.seed}" in said and f"user says {unit.seed}" in said
    for a, b in zip(first, again, strict=True):
        assert a.simulation.model_dump(exclude={"duration_s"}) == b.simulation.model_dump(
            exclude={"duration_s"}
        )
    assert set(agent.seeds) == {u.seed for u in exp.units} == set(user.seeds)


# ------------------------------------------------------------------------- task selection


@settings(max_examples=80)
@given(
    ids=st.lists(_IDS, min_size=1, max_size=8, unique=True),
    data=st.data(),
)
def test_task_ids_select_exactly_the_named_tasks_in_file_order(
    ids: list[str], data: st.DataObject
) -> None:
    wanted = data.draw(st.lists(st.sampled_from(ids), min_size=1, unique=True))
    num = data.draw(st.none() | st.integers(1, 10))
    chosen = select_tasks(_tasks(ids), _options(task_ids=tuple(wanted), num_tasks=num))
    expected = [i for i in ids if i in wanted][:num]
    assert [t.id for t in chosen] == expected


@settings(max_examples=80)
@given(
    ids=st.lists(_IDS, min_size=1, max_size=6, unique=True),
    unknown=st.lists(_IDS, min_size=1, max_size=3, unique=True),
    data=st.data(),
)
def test_unknown_task_ids_are_refused_by_name(
    ids: list[str], unknown: list[str], data: st.DataObject
) -> None:
    unknown = [u for u in unknown if u not in ids]
    if not unknown:
        return
    known = data.draw(st.lists(st.sampled_from(ids), max_size=2, unique=True))
    asked = data.draw(st.permutations([*known, *unknown]))
    options = _options(task_ids=tuple(asked), tasks_file="tasks.json")
    with pytest.raises(InputError) as caught:
        select_tasks(_tasks(ids), options)
    error = caught.value
    missing = [a for a in asked if a not in ids]
    assert str(error) == escape_invisible(
        f"file tasks.json, field --task-ids: unknown task id(s): {', '.join(missing)}"
    )
    assert error.field == "--task-ids" and error.file == "tasks.json"


def test_unknown_task_ids_of_bundled_tasks_name_the_bundle() -> None:
    with pytest.raises(InputError) as caught:
        select_tasks(_tasks(["a"]), _options(task_ids=("b",)))
    assert caught.value.file == "(bundled tasks)"


def test_no_task_selected_is_refused() -> None:
    with pytest.raises(InputError, match="no tasks selected") as caught:
        select_tasks([], _options(tasks_file="t.json"))
    assert caught.value.file == "t.json"
    with pytest.raises(InputError, match="no tasks selected") as caught:
        select_tasks([], _options())
    assert caught.value.file == "(bundled tasks)"


def test_num_tasks_alone_keeps_the_first_n() -> None:
    tasks = _tasks(["c", "a", "b"])
    assert [t.id for t in select_tasks(tasks, _options(num_tasks=2))] == ["c", "a"]
    assert [t.id for t in select_tasks(tasks, _options())] == ["c", "a", "b"]


# ------------------------------------------------------------------------ packed outcomes


def _unit() -> WorkUnit:
    return WorkUnit("t1", 1, 42)


def test_packed_done_outcome_carries_reward_retries_and_json() -> None:
    unit = _unit()
    sim = simulation(unit).model_copy(
        update={
            "agent_usage": Usage(retries=1),
            "user_usage": Usage(retries=2),
            "tool_usage": Usage(retries=4),
            "duration_s": 1.5,
        }
    )
    judged = BasisResult(basis="judge", reward=0.5, score=0.5, usage=Usage(retries=8))
    state = BasisResult(basis="state", reward=1.0, score=1.0, usage=Usage(retries=16))
    ev = Evaluation(reward=0.5, basis="judge", by_basis={"judge": judged, "state": state})
    packed = PackedOutcome.of(unit, UnitOutcome(simulation=sim, evaluation=ev))
    assert packed.status is UnitStatus.DONE and packed.error is None
    assert packed.model_retries == 31
    assert packed.reward == 0.5 and packed.duration_s == 1.5
    assert packed.simulation_json == sim.model_dump_json()
    assert packed.evaluation_json == ev.model_dump_json()
    ungraded = PackedOutcome.of(unit, UnitOutcome(simulation=sim, error="note"))
    assert (ungraded.reward, ungraded.evaluation_json, ungraded.model_retries) == (None, None, 7)
    assert ungraded.status is UnitStatus.DONE and ungraded.error == "note"


@pytest.mark.parametrize(
    ("outcome_kwargs", "sim_error", "termination", "status", "error"),
    [
        ({"rejected": True}, None, TerminationReason.AGENT_STOP, "rejected", "rejected by the provider"),
        ({"rejected": True}, "413 too large", TerminationReason.INFRASTRUCTURE_ERROR, "rejected", "413 too large"),
        ({"rejected": True, "infra": True, "error": "filtered"}, "x", TerminationReason.AGENT_STOP, "rejected", "filtered"),
        ({"infra": True}, None, TerminationReason.AGENT_STOP, "infra_error", "infrastructure error"),
        ({"infra": True}, "judge down", TerminationReason.AGENT_STOP, "infra_error", "judge down"),
        ({"infra": True, "error": "own words"}, "judge down", TerminationReason.AGENT_STOP, "infra_error", "own words"),
        ({}, None, TerminationReason.INFRASTRUCTURE_ERROR, "infra_error", "infrastructure error"),
        ({}, "timeout", TerminationReason.INFRASTRUCTURE_ERROR, "infra_error", "timeout"),
        ({}, "kept", TerminationReason.MAX_STEPS, "done", None),
    ],
    ids=["rejected", "rejected-sim-error", "rejected-wins", "infra", "infra-sim-error",
         "infra-own-error", "infra-termination", "infra-termination-error", "done"],
)  # fmt: skip
def test_packed_status_and_error(
    outcome_kwargs: dict[str, Any],
    sim_error: str | None,
    termination: TerminationReason,
    status: str,
    error: str | None,
) -> None:
    unit = _unit()
    sim = simulation(unit).model_copy(update={"error": sim_error, "termination": termination})
    packed = PackedOutcome.of(unit, UnitOutcome(simulation=sim, **outcome_kwargs))
    assert packed.status is UnitStatus(status)
    assert packed.error == error


@pytest.mark.parametrize(
    ("task_id", "trial"), [("t2", 1), ("t1", 0)], ids=["other-task", "other-trial"]
)
def test_a_simulation_of_another_unit_is_refused(task_id: str, trial: int) -> None:
    unit = _unit()
    sim = simulation(WorkUnit(task_id, trial, 42))
    with pytest.raises(ValueError) as caught:
        PackedOutcome.of(unit, UnitOutcome(simulation=sim, evaluation=evaluation(1.0)))
    assert str(caught.value) == f"simulation of {task_id}#{trial} recorded for unit t1#1"


def test_work_units_order_by_task_then_trial_then_seed() -> None:
    units = [WorkUnit("b", 0, 1), WorkUnit("a", 1, 0), WorkUnit("a", 0, 9), WorkUnit("a", 0, 2)]
    assert sorted(units) == [
        WorkUnit("a", 0, 2),
        WorkUnit("a", 0, 9),
        WorkUnit("a", 1, 0),
        WorkUnit("b", 0, 1),
    ]

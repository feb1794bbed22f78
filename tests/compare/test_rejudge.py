"""Extra gradings (``eval --rejudge``): how they are stored, read back, kept and made."""

from __future__ import annotations

from typing import Any

import pytest

from lifebench.evaluation._rejudge import (
    REJUDGE_KEY,
    replicate_count,
    replicate_rewards,
    replicate_seed,
    replicate_usage,
    strip_replicates,
    with_replicates,
)
from lifebench.evaluation._types import BasisResult, Evaluation, combine
from lifebench.messages import Usage
from lifebench.runner._rejudge import Rejudge
from lifebench.simulation._types import Simulation, TerminationReason


def _ev(rewards: dict[str, float], bases: list[str], error: str | None = None) -> Evaluation:
    by_basis = {
        n: BasisResult(basis=n, reward=r, score=r / 2, usage=Usage(prompt_tokens=10, cost=0.5))
        for n, r in rewards.items()
    }
    ev = combine(by_basis, bases)
    return ev.model_copy(update={"error": error}) if error else ev


def test_replicate_seeds() -> None:
    assert replicate_seed(42, 0) == 42
    assert replicate_seed(42, 1) != replicate_seed(42, 2) != 42
    assert replicate_seed(42, 1) == replicate_seed(42, 1)
    with pytest.raises(ValueError, match=r"^replicate must be >= 0, got -1$"):
        replicate_seed(42, -1)


def test_extra_gradings_are_stored_per_basis_and_read_back() -> None:
    primary = _ev({"state": 1.0, "rubric": 1.0}, ["state", "rubric"])
    extra = [
        (11, _ev({"state": 1.0, "rubric": 0.0}, ["state", "rubric"])),
        (12, _ev({"state": 1.0, "rubric": 1.0}, ["state", "rubric"])),
        (13, _ev({"state": 1.0, "rubric": 0.0}, ["state", "rubric"], error="evaluation failed: x")),
    ]
    stored = with_replicates(primary, extra)
    assert stored.reward == 1.0 and stored.basis == "state+rubric"
    entries = stored.by_basis["rubric"].info[REJUDGE_KEY]
    assert [e["replicate"] for e in entries] == [1, 2, 3]
    assert [e["seed"] for e in entries] == [11, 12, 13]
    assert entries[0]["reward"] == 0.0 and entries[0]["score"] == 0.0
    assert entries[2]["error"] == "evaluation failed: x"
    assert entries[0]["usage"]["cost"] == 0.5
    assert replicate_count(stored) == 3
    assert replicate_rewards(stored) == [0.0, 1.0, None]
    assert replicate_usage(stored).cost == pytest.approx(3 * 2 * 0.5)
    # the stored JSON round-trips
    again = Evaluation.model_validate_json(stored.model_dump_json())
    assert replicate_rewards(again) == [0.0, 1.0, None]
    # stripping gives back the primary grading
    assert strip_replicates(stored.by_basis["rubric"]) == primary.by_basis["rubric"]
    assert strip_replicates(primary.by_basis["rubric"]) is primary.by_basis["rubric"]
    # replacing them
    once = with_replicates(stored, extra[:1])
    assert replicate_count(once) == 1


def test_an_evaluation_without_extra_gradings_is_unchanged() -> None:
    primary = _ev({"state": 1.0}, ["state"])
    assert with_replicates(primary, []) == primary
    assert replicate_count(primary) == 0 and replicate_rewards(primary) == []
    assert replicate_usage(primary) == Usage.zero()


def test_ungradable_or_unusable_extra_gradings_have_no_reward() -> None:
    primary = _ev({"state": 1.0}, ["state"])
    bad = BasisResult(basis="state", reward=1.0, score=1.0, gradable=False)
    stored = with_replicates(
        primary, [(5, Evaluation(reward=0.0, basis="state", by_basis={"state": bad}))]
    )
    assert replicate_rewards(stored) == [None]
    broken = primary.model_copy(
        update={
            "by_basis": {
                "state": primary.by_basis["state"].model_copy(
                    update={
                        "info": {REJUDGE_KEY: [{"reward": "x"}, "junk", {"reward": float("nan")}]}
                    }
                )
            }
        }
    )
    assert replicate_rewards(broken) == [None, None]
    wrong = primary.model_copy(
        update={
            "by_basis": {
                "state": primary.by_basis["state"].model_copy(update={"info": {REJUDGE_KEY: "no"}})
            }
        }
    )
    assert replicate_count(wrong) == 0


def test_the_reward_of_an_extra_grading_is_the_product_of_its_bases() -> None:
    primary = _ev({"state": 1.0, "rubric": 1.0}, ["state", "rubric"])
    rep = _ev({"state": 0.5, "rubric": 0.5}, ["state", "rubric"])
    assert replicate_rewards(with_replicates(primary, [(1, rep)])) == [0.25]
    # a basis outside the reward does not count; a missing reward basis means no replicate
    shown = _ev({"state": 1.0, "rubric": 0.0}, ["state"])
    rep = _ev({"state": 1.0, "rubric": 0.0}, ["state"])
    assert replicate_rewards(with_replicates(shown, [(1, rep)])) == [1.0]
    only_state = with_replicates(primary, [(1, _ev({"state": 1.0}, ["state"]))])
    assert replicate_count(only_state) == 0


class _Counting:
    """An evaluator whose verdict is the parity of the seed it is given."""

    basis = "judge"

    def __init__(self) -> None:
        self.seeds: list[int] = []

    async def evaluate(self, task: Any, simulation: Simulation) -> BasisResult:
        self.seeds.append(simulation.seed)
        reward = float(simulation.seed % 2)
        return BasisResult(basis="judge", reward=reward, score=reward)


def _sim(seed: int = 100) -> Simulation:
    return Simulation(task_id="t", trial=0, seed=seed, termination=TerminationReason.AGENT_STOP)


async def test_rejudge_makes_the_missing_extra_gradings_with_their_own_seeds() -> None:
    judge = _Counting()
    rejudge = Rejudge(4, {"judge": judge}, ["judge"])
    primary = _ev({"judge": 1.0}, ["judge"])
    out = await rejudge.extend(None, _sim(), primary, None)
    assert judge.seeds == [replicate_seed(100, r) for r in (1, 2, 3)]
    assert replicate_rewards(out) == [float(replicate_seed(100, r) % 2) for r in (1, 2, 3)]
    assert out.reward == primary.reward
    # run again over what is stored: nothing is graded again
    judge.seeds.clear()
    again = await rejudge.extend(None, _sim(), primary, out)
    assert judge.seeds == [] and again == out
    # asking for more grades only the new ones
    more = await Rejudge(6, {"judge": judge}, ["judge"]).extend(None, _sim(), primary, out)
    assert judge.seeds == [replicate_seed(100, r) for r in (4, 5)]
    assert replicate_rewards(more)[:3] == replicate_rewards(out)
    # fewer keeps the first ones
    fewer = await Rejudge(2, {"judge": judge}, ["judge"]).extend(None, _sim(), primary, more)
    assert replicate_rewards(fewer) == replicate_rewards(out)[:1]


async def test_a_changed_ordinary_grading_drops_the_old_extra_gradings() -> None:
    judge = _Counting()
    rejudge = Rejudge(2, {"judge": judge}, ["judge"])
    stored = await rejudge.extend(None, _sim(), _ev({"judge": 1.0}, ["judge"]), None)
    judge.seeds.clear()
    changed = _ev({"judge": 0.0}, ["judge"])
    out = await rejudge.extend(None, _sim(), changed, stored)
    assert judge.seeds == [replicate_seed(100, 1)]
    assert out.by_basis["judge"].reward == 0.0
    other_basis = _ev({"judge": 1.0, "state": 1.0}, ["judge"])
    judge.seeds.clear()
    await rejudge.extend(None, _sim(), other_basis, stored)
    assert len(judge.seeds) == 1
    reward_def = _ev({"judge": 1.0}, ["judge"]).model_copy(update={"basis": "judge+x"})
    judge.seeds.clear()
    await rejudge.extend(None, _sim(), _ev({"judge": 1.0}, ["judge"]), reward_def)
    assert len(judge.seeds) == 1


async def test_one_grading_is_no_extra_grading() -> None:
    judge = _Counting()
    primary = _ev({"judge": 1.0}, ["judge"])
    assert (
        await Rejudge(1, {"judge": judge}, ["judge"]).extend(None, _sim(), primary, None) is primary
    )
    assert judge.seeds == []
    with pytest.raises(ValueError, match="at least 1"):
        Rejudge(0, {"judge": judge}, ["judge"])

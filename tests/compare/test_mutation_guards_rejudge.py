"""Rules of the extra gradings (``eval --rejudge``) and of the scored trials that the other
tests leave unpinned: each test fails when one rule is deleted (scripts/mutation.sh)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from compare_fakes import rec

from lifebench.evaluation._rejudge import (
    REJUDGE_KEY,
    replicate_count,
    replicate_rewards,
    replicate_seed,
    with_replicates,
)
from lifebench.evaluation._types import BasisResult, Evaluation
from lifebench.messages import Usage
from lifebench.metrics._trials import scored_trials


def test_replicate_seeds_are_fixed_numbers() -> None:
    # the seeds stored with the extra gradings: a re-run must give the judge the same ones
    assert [replicate_seed(42, r) for r in (0, 1, 2)] == [42, 1629000002, 932661448]
    assert replicate_seed(7, 1) == 1032978630  # they depend on the trajectory's seed


def _basis(name: str, entries: list[dict[str, object]] | None = None) -> BasisResult:
    info = {} if entries is None else {REJUDGE_KEY: entries}
    return BasisResult(basis=name, reward=1.0, score=1.0, info=info)


def test_a_basis_without_extra_gradings_leaves_the_reward_without_any() -> None:
    entry = {"replicate": 1, "seed": 1, "reward": 1.0, "score": 1.0, "error": None}
    two = {"state": _basis("state", [entry, entry]), "rubric": _basis("rubric", [entry])}
    ev = Evaluation(reward=1.0, basis="state+rubric", by_basis=two)
    assert replicate_count(ev) == 1  # the fewest of the reward's bases
    # a basis of the reward the evaluation does not hold: no extra grading of the reward
    partial = Evaluation(reward=1.0, basis="state+rubric", by_basis={"state": two["state"]})
    assert replicate_count(partial) == 0 and replicate_rewards(partial) == []
    # none of the reward's bases held at all
    none = Evaluation(reward=1.0, basis="rubric", by_basis={"state": two["state"]})
    assert replicate_count(none) == 0 and replicate_rewards(none) == []
    # held, but without extra gradings
    plain = Evaluation(reward=1.0, basis="state", by_basis={"state": _basis("state")})
    assert replicate_count(plain) == 0


def test_an_entry_without_a_gradable_flag_is_gradable() -> None:
    # entries written by hand or by an older lifebench may lack the flag: gradable by default
    entry = {"replicate": 1, "seed": 1, "reward": 0.5, "error": None}
    ev = Evaluation(reward=1.0, basis="rubric", by_basis={"rubric": _basis("rubric", [entry])})
    assert replicate_rewards(ev) == [0.5]
    flagged = {**entry, "gradable": False}
    ev = Evaluation(reward=1.0, basis="rubric", by_basis={"rubric": _basis("rubric", [flagged])})
    assert replicate_rewards(ev) == [None]


def test_stored_extra_gradings_round_trip_through_json_unchanged() -> None:
    # the run store keeps evaluations as JSON: what it gives back equals what was stored
    usage = Usage(prompt_tokens=3, cost=0.25, priced_by=("models file",))
    primary = Evaluation(
        reward=1.0,
        basis="rubric",
        by_basis={"rubric": BasisResult(basis="rubric", reward=1.0, score=1.0, usage=usage)},
    )
    stored = with_replicates(primary, [(9, primary)])
    entry = stored.by_basis["rubric"].info[REJUDGE_KEY][0]
    assert entry["usage"]["priced_by"] == ["models file"]  # JSON types, not Python ones
    assert Evaluation.model_validate_json(stored.model_dump_json()) == stored


def test_only_done_graded_gradable_units_are_scored() -> None:
    good = [rec("a", 0, 1.0), rec("a", 1, 0.0), rec("b", 0, 1.0)]
    base = rec("a", 9, 1.0)
    assert base.evaluation is not None
    failed_ev = base.evaluation.model_copy(update={"error": "evaluation failed: x"})
    bad = [
        replace(rec("a", 2, 1.0), evaluation=None),
        replace(rec("a", 3, 1.0), simulation=None),
        replace(rec("a", 4, 1.0), evaluation=failed_ev),  # failed but gradable
        replace(
            rec("a", 5, 1.0), evaluation=base.evaluation.model_copy(update={"gradable": False})
        ),
        rec("a", 6, 1.0, status="pending"),
        # sorted first: a unit left out does not stop the ones after it
        replace(rec("0", 0, 1.0), evaluation=failed_ev),
        replace(rec("0", 1, 1.0), evaluation=None),
    ]
    scored = scored_trials([*bad, *good])
    assert list(scored) == ["a", "b"]
    assert [(t.task_id, t.trial, t.reward) for t in scored["a"]] == [("a", 0, 1.0), ("a", 1, 0.0)]
    assert [(t.task_id, t.trial) for t in scored["b"]] == [("b", 0)]


def test_a_scored_trial_carries_its_extra_gradings() -> None:
    (trial,) = scored_trials([rec("a", 0, 1.0, extra=[0.0, None, 1.0])])["a"]
    assert trial.extra_rewards == (0.0, 1.0) and trial.gradings == (1.0, 0.0, 1.0)

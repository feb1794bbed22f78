"""Guards for reading back the extra judge gradings a stored evaluation holds
(runner/_rejudge._stored): each replicate's seed, reward, score, gradability, usage and error
come back as they were stored, per basis, so a resumed ``eval --rejudge K`` keeps them."""

from __future__ import annotations

from lifebench.evaluation._rejudge import REJUDGE_KEY, with_replicates
from lifebench.evaluation._types import BasisResult, CriterionVerdict, Evaluation
from lifebench.messages import Usage
from lifebench.runner._rejudge import _same_grading, _stored


def _basis(
    name: str, reward: float, score: float, *, gradable: bool = True, tokens: int = 0
) -> BasisResult:
    return BasisResult(
        basis=name,
        reward=reward,
        score=score,
        gradable=gradable,
        usage=Usage(prompt_tokens=tokens),
        note="kept",
        criteria=[CriterionVerdict(id="c1", description="the order", met=reward == 1.0)],
    )


def _evaluation(state: BasisResult, rubric: BasisResult, error: str | None = None) -> Evaluation:
    return Evaluation(
        reward=state.reward * rubric.reward,
        basis="state+rubric",
        by_basis={"state": state, "rubric": rubric},
        error=error,
    )


def test_every_stored_extra_grading_comes_back_as_it_was_stored() -> None:
    primary = _evaluation(_basis("state", 1.0, 1.0), _basis("rubric", 1.0, 1.0, tokens=5))
    first = _evaluation(_basis("state", 1.0, 1.0), _basis("rubric", 0.0, 0.5, tokens=7))
    second = _evaluation(
        _basis("state", 1.0, 0.75, gradable=False),
        _basis("rubric", 1.0, 0.25, tokens=11),
        error="JudgeError: no verdict",
    )
    stored = with_replicates(primary, [(41, first), (42, second)])
    back = _stored(stored)
    assert [seed for seed, _ in back] == [41, 42]
    for (_, got), want in zip(back, (first, second), strict=True):
        assert got.basis == "state+rubric" and got.reward == 0.0
        assert got.error == want.error
        assert set(got.by_basis) == {"state", "rubric"}
        for name in ("state", "rubric"):
            g, w = got.by_basis[name], want.by_basis[name]
            assert (g.reward, g.score, g.gradable) == (w.reward, w.score, w.gradable)
            assert g.usage == w.usage and g.criteria == [] and g.note == "kept"
            assert REJUDGE_KEY not in g.info


def test_an_entry_missing_its_fields_reads_as_a_gradable_zero() -> None:
    primary = _evaluation(_basis("state", 1.0, 1.0), _basis("rubric", 1.0, 1.0))
    bare = {"replicate": 1}
    by_basis = {
        name: result.model_copy(update={"info": {REJUDGE_KEY: [bare]}})
        for name, result in primary.by_basis.items()
    }
    stored = primary.model_copy(update={"by_basis": by_basis})
    ((seed, got),) = _stored(stored)
    assert seed == 0 and got.error is None
    for result in got.by_basis.values():
        assert (result.reward, result.score, result.gradable) == (0.0, 0.0, True)
        assert result.usage == Usage.model_validate({})  # the defaults of a usage record


def test_the_first_basis_error_of_a_replicate_is_kept() -> None:
    primary = _evaluation(_basis("state", 1.0, 1.0), _basis("rubric", 1.0, 1.0))
    entries = {
        "state": [{"seed": 5, "reward": 1.0, "error": None}],
        "rubric": [{"seed": 5, "reward": 0.0, "error": "timeout"}],
    }
    by_basis = {
        name: result.model_copy(update={"info": {REJUDGE_KEY: entries[name]}})
        for name, result in primary.by_basis.items()
    }
    ((seed, got),) = _stored(primary.model_copy(update={"by_basis": by_basis}))
    assert seed == 5 and got.error == "timeout"
    assert got.by_basis["rubric"].reward == 0.0 and got.by_basis["state"].reward == 1.0


def test_no_earlier_grading_is_never_the_same_grading() -> None:
    ev = _evaluation(_basis("state", 1.0, 1.0), _basis("rubric", 1.0, 1.0))
    assert _same_grading(ev, None) is False
    assert _same_grading(ev, ev) is True

"""Certification verdicts (vita/certify/engine.py): a trial is accepted only when the grader
can check it and every criterion holds."""

from __future__ import annotations

from lifebench.evaluation import BasisResult
from lifebench.vita.certify.engine import _outcome


def test_only_a_full_reward_on_a_gradable_result_is_accepted() -> None:
    assert _outcome(BasisResult(basis="state", reward=1.0, score=1.0)) == "accepted"
    assert _outcome(BasisResult(basis="state", reward=0.0, score=0.5)) == "rejected"
    assert _outcome(BasisResult(basis="state", reward=1.0, score=1.0, gradable=False)) != "accepted"

"""Guards for the mutants of the VitaBench search ranking and the rubric judge's state block
(issue 19's CPU cuts): what a user sees when a rule of theirs changes."""

from __future__ import annotations

from lifebench.vita.domains import _match


def test_placeholder_rank_of_nothing() -> None:
    assert _match.rank("beef", [], 3) == []

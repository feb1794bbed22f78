"""Mutation guards for ``evaluation/_windows.py`` and ``evaluation/_types.py`` (issue 21)."""

from __future__ import annotations

import pytest

from lifebench.evaluation._windows import sliding_windows


@pytest.mark.parametrize("n_messages", [0, 1, 3])
def test_an_overlap_as_large_as_the_window_is_refused_even_for_short_trajectories(
    n_messages: int,
) -> None:
    """Windows that share all their messages would never advance: the bound is strict, and it
    is checked before any window is cut (the empty and the one-window trajectory included,
    where nothing would loop)."""
    with pytest.raises(ValueError, match=r"overlap must be in \[0, size\), got 3 with size 3"):
        sliding_windows(n_messages, size=3, overlap=3)
    expected = [range(0, n_messages)] if n_messages else []
    assert sliding_windows(n_messages, size=3, overlap=2) == expected

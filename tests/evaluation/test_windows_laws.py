"""Laws of the sliding-window partition (Hypothesis)."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lifebench.evaluation import sliding_windows


@st.composite
def geometry(draw: st.DrawFn) -> tuple[int, int, int]:
    size = draw(st.integers(1, 12))
    return draw(st.integers(0, 80)), size, draw(st.integers(0, size - 1))


@given(geometry())
def test_windows_cover_the_trajectory_in_order(case: tuple[int, int, int]) -> None:
    n, size, overlap = case
    wins = sliding_windows(n, size, overlap)
    if n == 0:
        assert wins == []
        return
    assert wins[0].start == 0 and wins[-1].stop == n
    assert set().union(*(set(w) for w in wins)) == set(range(n))
    assert all(w.step == 1 and 0 < len(w) <= size for w in wins)
    assert all(len(w) == size for w in wins[:-1])  # only the last may be shorter


@given(geometry())
def test_consecutive_windows_step_and_share_the_overlap(case: tuple[int, int, int]) -> None:
    n, size, overlap = case
    wins = sliding_windows(n, size, overlap)
    for a, b in itertools.pairwise(wins):
        assert b.start - a.start == size - overlap
        assert a.stop - b.start == overlap
        assert b.stop > a.stop  # every window brings new messages


@given(geometry())
def test_number_of_windows(case: tuple[int, int, int]) -> None:
    n, size, overlap = case
    expected = 0 if n == 0 else 1 if n <= size else 1 + math.ceil((n - size) / (size - overlap))
    assert len(sliding_windows(n, size, overlap)) == expected


@given(geometry())
def test_each_message_is_in_a_bounded_number_of_windows(case: tuple[int, int, int]) -> None:
    n, size, overlap = case
    wins = sliding_windows(n, size, overlap)
    step = size - overlap
    for i in range(n):
        assert 1 <= sum(i in w for w in wins) <= math.ceil(size / step)


@given(st.integers(0, 50), st.integers(1, 12))
def test_without_overlap_the_windows_partition_the_trajectory(n: int, size: int) -> None:
    wins = sliding_windows(n, size, 0)
    assert [i for w in wins for i in w] == list(range(n))


def test_defaults_are_ten_and_two() -> None:
    assert sliding_windows(27) == sliding_windows(27, 10, 2)
    assert [(w.start, w.stop) for w in sliding_windows(27)] == [
        (0, 10),
        (8, 18),
        (16, 26),
        (24, 27),
    ]


@pytest.mark.parametrize(
    ("size", "overlap", "message"),
    [
        (0, 0, "window size must be at least 1, got 0"),
        (-1, 0, "window size must be at least 1, got -1"),
        (3, 3, "overlap must be in [0, size), got 3 with size 3"),
        (3, -1, "overlap must be in [0, size), got -1 with size 3"),
    ],
)
def test_bad_geometry_is_refused(size: int, overlap: int, message: str) -> None:
    with pytest.raises(ValueError) as info:
        sliding_windows(5, size, overlap)
    assert str(info.value) == message


def test_size_one_and_largest_overlap_are_accepted() -> None:
    assert sliding_windows(3, 1, 0) == [range(0, 1), range(1, 2), range(2, 3)]
    assert sliding_windows(4, 3, 2) == [range(0, 3), range(1, 4)]

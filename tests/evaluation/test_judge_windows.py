"""Window arithmetic, tolerant JSON parsing and bounded re-asks of the LLM judge."""

from __future__ import annotations

import itertools

import pytest

from lifebench.evaluation import JudgeError, ShapeError, ask_json, parse_json, sliding_windows
from lifebench.models import ScriptedModel


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, []),
        (1, [(0, 0)]),
        (10, [(0, 9)]),
        (11, [(0, 9), (8, 10)]),
        (18, [(0, 9), (8, 17)]),
        (19, [(0, 9), (8, 17), (16, 18)]),
        (26, [(0, 9), (8, 17), (16, 25)]),
        (27, [(0, 9), (8, 17), (16, 25), (24, 26)]),
    ],
)
def test_sliding_windows_match_the_official_arithmetic(
    n: int, expected: list[tuple[int, int]]
) -> None:
    assert [(w.start, w.stop - 1) for w in sliding_windows(n)] == expected


def test_windows_cover_everything_with_the_overlap() -> None:
    for n in range(1, 60):
        for size, overlap in ((10, 2), (5, 1), (4, 0), (3, 2)):
            wins = sliding_windows(n, size, overlap)
            assert wins[0].start == 0 and wins[-1].stop == n
            assert all(len(w) <= size for w in wins)
            for a, b in itertools.pairwise(wins):
                assert a.stop - b.start == overlap


def test_bad_window_arguments() -> None:
    with pytest.raises(ValueError, match="overlap"):
        sliding_windows(5, 3, 3)
    with pytest.raises(ValueError, match="size"):
        sliding_windows(5, 0, 0)


def test_parse_json_is_tolerant() -> None:
    assert parse_json('[{"a": 1}]') == [{"a": 1}]
    assert parse_json('Sure:\n```json\n[{"a": 1}]\n```') == [{"a": 1}]
    assert parse_json('{"a": true,}') == {"a": True}
    assert parse_json("") is None
    assert parse_json("no json here at all") is None


def _must_be_list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise ShapeError("expected a list")
    return value


async def test_reask_after_malformed_then_success() -> None:
    judge = ScriptedModel(["I think it is fine.", '{"not": "a list"}', "[1, 2]"])
    answer = await ask_json(judge, "sys", "prompt", _must_be_list)
    assert answer.value == [1, 2] and answer.attempts == 3
    last_call = judge.calls[-1].messages
    assert (
        "could not be used" in last_call[-1].content and "expected a list" in last_call[-1].content
    )


async def test_judge_error_after_bounded_reasks() -> None:
    judge = ScriptedModel(["nope"], repeat_last=True)
    with pytest.raises(JudgeError, match="after 3 attempts"):
        await ask_json(judge, "sys", "prompt", _must_be_list, max_reasks=2)
    assert len(judge.calls) == 3

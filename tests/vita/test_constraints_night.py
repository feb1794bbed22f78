"""The part of the day next to a clock time decides its hour: "晚上12点" and "12:00 tonight" are
midnight (the end of that day, while "下午12点" stays noon), and an English part of the day
before the time with a link word ("tonight at 8:00") or after it ("8:00 tonight", "8:30 in the
evening") moves the hour into the afternoon or evening as "晚上8:00" always did."""

from __future__ import annotations

from datetime import datetime

import pytest

from lifebench.vita.grading import constraints as c

# A Wednesday, late morning (as in test_constraints.py).
CLOCK = datetime(2025, 6, 4, 11, 0, 0)  # noqa: DTZ001 - naive task clock


def _time_windows(text: str) -> list[tuple[str | None, str]]:
    return [(s.relation, str(s.window)) for s in c.parse_rubric(text, CLOCK) if s.field == "time"]


END_OF_DAY = [("before", "[…, 2025-06-04 23:59:59]")]


@pytest.mark.parametrize("period", ["晚上", "晚间", "夜里", "夜间", "今晚"])
def test_twelve_at_night_in_chinese_is_the_end_of_the_day(period: str) -> None:
    assert c._times(f"{period}12点") == [(0, len(period) + 3, c.time(23, 59, 59), True)]
    windows = _time_windows(f"送达时间应为{period}12点之前")
    assert windows and windows[0][1].endswith("2025-06-04 23:59:59]")


def test_twelve_in_the_afternoon_or_at_noon_stays_noon() -> None:
    assert _time_windows("送达时间应为下午12点之前") == [("before", "[…, 2025-06-04 12:00:00]")]
    assert _time_windows("送达时间应为中午12点之前") == [("before", "[…, 2025-06-04 12:00:00]")]
    assert _time_windows("The delivery should arrive at 12:00") == [
        ("around", "[2025-06-04 11:30:00, 2025-06-04 12:30:00]")
    ]


def test_twelve_tonight_in_english_is_the_end_of_the_day() -> None:
    assert _time_windows("The delivery should arrive before 12:00 tonight") == [
        ("before", "[2025-06-04 00:00:00, 2025-06-04 23:59:59]")
    ]
    assert c._times("12:00 at night")[0][2:] == (c.time(23, 59, 59), True)


def test_an_english_part_of_the_day_after_the_time_or_before_a_link_word_counts() -> None:
    evening = [("around", "[2025-06-04 19:30:00, 2025-06-04 20:30:00]")]
    assert _time_windows("The delivery should arrive tonight at 8:00") == evening
    assert _time_windows("The delivery should arrive this evening at 8:00") == evening
    assert _time_windows("The delivery should arrive at 8:30 in the evening") == [
        ("around", "[2025-06-04 20:00:00, 2025-06-04 21:00:00]")
    ]
    assert _time_windows("The delivery should arrive by 8:00 tonight") == [
        ("before", "[2025-06-04 00:00:00, 2025-06-04 20:00:00]")
    ]
    # the same in Chinese, as before
    assert _time_windows("送达时间应为晚上8:00") == evening


def test_an_explicit_am_or_a_morning_keeps_the_hour() -> None:
    assert c._times("8:00 am tonight")[0][2] == c.time(8, 0)
    assert c._times("8:00 in the morning")[0][2] == c.time(8, 0)
    assert c._times("8:00 this afternoon")[0][2] == c.time(20, 0)
    # a part of the day two words away from the time is not the time's
    assert c._times("tonight, and at 8:00")[0][2] == c.time(8, 0)


def test_a_part_of_the_day_after_the_time_is_read_in_any_letter_case() -> None:
    assert c._times("8:00 Tonight")[0][2] == c.time(20, 0)
    assert c._times("8:00 IN THE EVENING")[0][2] == c.time(20, 0)

"""The rubric constraint parser's rules (vita/grading/constraints.py) pinned one by one, in
English and Chinese: durations, hours with am/pm and parts of the day, Chinese numerals, the
move of a far delivery bound to the clock, and how a constraint is described."""

from __future__ import annotations

from datetime import datetime, time

from lifebench.vita.grading import constraints as c
from lifebench.vita.grading.constraints import Stated, Window

# A Wednesday, late morning (as in test_constraints.py).
CLOCK = datetime(2025, 6, 4, 11, 0, 0)  # noqa: DTZ001 - naive task clock


def _d(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _time_windows(text: str) -> list[tuple[str | None, str]]:
    return [(s.relation, str(s.window)) for s in c.parse_rubric(text, CLOCK) if s.field == "time"]


def _within(minutes_end: str) -> list[tuple[str | None, str]]:
    return [("before", f"[2025-06-04 11:00:00, {minutes_end}]")]


# ---- durations -----------------------------------------------------------------------------


def test_durations_in_english_are_read_in_their_unit() -> None:
    assert _time_windows("The order should be delivered within an hour") == _within(
        "2025-06-04 12:00:00"
    )
    assert _time_windows("The order should be delivered within 45 minutes") == _within(
        "2025-06-04 11:45:00"
    )
    assert _time_windows("The order should be delivered within 1 hour") == _within(
        "2025-06-04 12:00:00"
    )


def test_durations_in_chinese_are_read_in_their_unit() -> None:
    assert _time_windows("订单需要两个钟头内送达") == _within("2025-06-04 13:00:00")
    assert _time_windows("订单需要两小时内送达") == _within("2025-06-04 13:00:00")
    assert _time_windows("订单需要二十分钟内送达") == _within("2025-06-04 11:20:00")
    # a numeral that cannot be read states no duration (and no time)
    assert _time_windows("订单需要十十分钟内送达") == []


# ---- hours ---------------------------------------------------------------------------------


def test_twelve_am_is_midnight_and_twelve_pm_is_noon() -> None:
    assert _time_windows("The order should be delivered at 12 PM") == [
        ("around", "[2025-06-04 11:30:00, 2025-06-04 12:30:00]")
    ]
    assert _time_windows("The order should be delivered at 12 AM tomorrow") == [
        ("around", "[2025-06-04 23:30:00, 2025-06-05 00:30:00]")
    ]
    assert _time_windows("The order should be delivered at 1 PM") == [
        ("around", "[2025-06-04 12:30:00, 2025-06-04 13:30:00]")
    ]
    # an hour beyond 12 with am/pm is no time of day
    assert _time_windows("The order should be delivered at 13 PM") == []
    assert _time_windows("The order should be delivered at 0 AM") == []


def test_an_afternoon_twelve_is_noon_and_noon_hours_run_one_to_three() -> None:
    noon = [("around", "[2025-06-04 11:30:00, 2025-06-04 12:30:00]")]
    assert _time_windows("送达时间应为下午12点") == noon
    assert _time_windows("送达时间应为中午12点") == noon
    assert _time_windows("送达时间应为下午1点") == [
        ("around", "[2025-06-04 12:30:00, 2025-06-04 13:30:00]")
    ]
    assert _time_windows("送达时间应为中午1点") == [
        ("around", "[2025-06-04 12:30:00, 2025-06-04 13:30:00]")
    ]
    assert _time_windows("送达时间应为中午3点") == [
        ("around", "[2025-06-04 14:30:00, 2025-06-04 15:30:00]")
    ]
    # beyond three, a noon hour is read as written (not 16:00)
    assert _time_windows("送达时间应为中午4点") == [
        ("around", "[2025-06-05 03:30:00, 2025-06-05 04:30:00]")
    ]


def test_twenty_four_is_the_end_of_the_day_and_later_hours_are_none() -> None:
    assert _time_windows("The delivery should arrive before 24:00") == [
        ("before", "[…, 2025-06-04 23:59:59]")
    ]
    assert c._times("24:30") == [(0, 5, time(23, 59, 59), True)]
    # an impossible hour takes no span: the "00点" inside "25:00点" is still read
    assert c._times("25:00点") == [(3, 6, time(0, 0), False)]


# ---- Chinese numerals ----------------------------------------------------------------------


def test_chinese_numerals_that_are_no_number_read_as_none() -> None:
    assert c.zh_number("二二") is None
    assert c.zh_number("二三十") is None
    assert c.zh_number("十二三") is None
    assert (c.zh_number("十二"), c.zh_number("二十"), c.zh_number("二十三")) == (12, 20, 23)


# ---- a far bound moved to the clock --------------------------------------------------------


def test_a_far_bound_at_the_clocks_own_time_moves_to_today() -> None:
    moved = c.near_clock(Window(None, _d("2025-06-20 11:00")), CLOCK)
    assert moved == (Window(None, _d("2025-06-04 11:00")), -16)
    # one minute earlier is past on the clock's day: the next day
    moved = c.near_clock(Window(None, _d("2025-06-20 10:59")), CLOCK)
    assert moved == (Window(None, _d("2025-06-05 10:59")), -15)


def test_a_far_window_open_at_its_end_keeps_the_open_end() -> None:
    moved = c.near_clock(Window(_d("2025-06-20 12:00"), None), CLOCK)
    assert moved == (Window(_d("2025-06-04 12:00"), None), -16)


# ---- descriptions --------------------------------------------------------------------------


def test_each_field_class_is_described_in_its_own_words() -> None:
    day = Window(_d("2025-06-05 00:00"), _d("2025-06-05 23:59:59"))
    date = Stated("date", "booking", "R", "", relation="on", window=day)
    assert date.describe() == "booking date on [2025-06-05 00:00:00, 2025-06-05 23:59:59]"
    assert Stated("party_size", "appointment", "R", "", count=4).describe() == "party size 4"
    assert Stated("note", "delivery", "R", "", text="no ice").describe() == "note 'no ice'"
    assert Stated("note", "delivery", "R", "").describe() == "a note"


# ---- a time of day without a day -----------------------------------------------------------


def test_a_time_up_to_half_an_hour_before_the_clock_is_today() -> None:
    # the clock is 11:00: 10:30 is still today, 10:29 is tomorrow; 11:20 is today
    today = [("around", "[2025-06-04 10:00:00, 2025-06-04 11:00:00]")]
    assert _time_windows("The delivery should arrive around 10:30") == today
    assert _time_windows("送达时间应在10:30左右") == today
    assert _time_windows("送达时间应在10:29左右") == [
        ("around", "[2025-06-05 09:59:00, 2025-06-05 10:59:00]")
    ]
    assert _time_windows("The delivery should arrive before 11:20") == [
        ("before", "[…, 2025-06-04 11:20:00]")
    ]


# ---- note wordings -------------------------------------------------------------------------


def _note(text: str) -> str:
    (note,) = [s for s in c.parse_rubric(text, CLOCK) if s.field == "note"]
    return note.text


def test_a_note_wording_is_read_after_the_note_keyword() -> None:
    assert _note("Add a note: no ice.") == "no ice"
    assert _note("备注：XO酱。") == "XO酱"
    assert _note("Please note no disposable cutlery") == "no disposable cutlery"
    # a quoted name before the keyword is not the wording
    assert _note('The "Lunch Box" order should note no onions') == "no onions"
    assert _note("“午餐盒”订单应当备注不要洋葱") == "不要洋葱"


def test_a_note_wording_after_a_verb_drops_its_link_word_reason_and_punctuation() -> None:
    assert _note("订单应当备注为少辣") == "少辣"
    assert _note("请备注XO酱") == "XO酱"
    assert _note("The order should note no onions to ensure freshness") == "no onions"
    assert _note("应当备注不要香菜以免过敏") == "不要香菜"
    assert _note("Please note no onions.") == "no onions"
    # a preposition after the keyword is no wording
    assert _note("The agent should note on the order") == ""

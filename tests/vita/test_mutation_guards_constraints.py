"""The rubric constraint parser's rules (vita/grading/constraints.py) pinned one by one, in
English and Chinese: durations, hours with am/pm and parts of the day, Chinese numerals, the
move of a far delivery bound to the clock, and how a constraint is described."""

from __future__ import annotations

import re
from datetime import datetime, time

from lifebench.vita.grading import constraints as c
from lifebench.vita.grading.constraints import Stated, Target, Window

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
    # a preposition after the keyword (any case) is no wording
    assert _note("The agent should note on the order") == ""
    assert _note("The agent should note,With the order") == ""


# ---- times of day --------------------------------------------------------------------------


def test_times_of_day_in_words_clock_digits_and_chinese() -> None:
    assert c._times("at seven pm") == [(3, 11, time(19, 0), False)]
    assert c._times("midnight") == [(0, 8, time(23, 59, 59), True)]
    assert c._times("18:30:45") == [(0, 8, time(18, 30, 45), False)]
    assert c._times("18:60") == []
    # a part of the day just before a clock time (any case) moves it to the afternoon
    assert c._times("Evening 7:00") == [(8, 12, time(19, 0), False)]
    assert c._times("晚上7:30") == [(2, 6, time(19, 30), False)]
    # quarters, halves and minutes in Chinese
    assert c._times("八点一刻送达") == [(0, 4, time(8, 15), False)]
    assert c._times("八点三刻送达") == [(0, 4, time(8, 45), False)]
    assert c._times("八点半送达") == [(0, 3, time(8, 30), False)]
    assert c._times("八点二十分送达") == [(0, 5, time(8, 20), False)]
    assert c._times("八点零分送达") == [(0, 4, time(8, 0), False)]
    assert _time_windows("The order should be delivered at seven pm") == [
        ("around", "[2025-06-04 18:30:00, 2025-06-04 19:30:00]")
    ]
    assert _time_windows("The order should be delivered at eleven o'clock") == [
        ("around", "[2025-06-04 10:30:00, 2025-06-04 11:30:00]")
    ]


def test_overlapping_times_are_read_once_and_touching_ones_twice() -> None:
    assert c._times("零点前") == [(0, 2, time(0, 0), False)]
    assert c._times("午夜18:00") == [(0, 2, time(23, 59, 59), True), (2, 7, time(18, 0), False)]
    assert c._times("18:00午夜") == [(0, 5, time(18, 0), False), (5, 7, time(23, 59, 59), True)]


def test_a_chinese_hour_that_is_no_time_does_not_stop_the_reading() -> None:
    assert c._times("十十点或8点") == [(4, 6, time(8, 0), False)]
    assert c._times("快一点儿,八点半") == [(5, 8, time(8, 30), False)]


# ---- days ----------------------------------------------------------------------------------


def test_days_by_weekday_next_week_this_week_month_and_day() -> None:
    def day_of(text: str) -> str:
        (s,) = c.parse_rubric(text, CLOCK)
        return str(s.window)

    # the clock is Wednesday 2025-06-04
    assert day_of("下周五送达") == "[2025-06-13 00:00:00, 2025-06-13 23:59:59]"
    assert day_of("本周五送达") == "[2025-06-06 00:00:00, 2025-06-06 23:59:59]"
    assert day_of("The delivery time should be next Friday at 7 PM") == (
        "[2025-06-13 18:30:00, 2025-06-13 19:30:00]"
    )
    assert day_of("The delivery time should be this Friday at 7 PM") == (
        "[2025-06-06 18:30:00, 2025-06-06 19:30:00]"
    )
    assert day_of("The delivery time should be Tuesday at 7 PM") == (
        "[2025-06-10 18:30:00, 2025-06-10 19:30:00]"
    )
    # today at a time already past is today (a time alone would be tomorrow)
    assert day_of("The delivery should be today at 9:00") == (
        "[2025-06-04 08:30:00, 2025-06-04 09:30:00]"
    )
    june5 = "[2025-06-05 17:30:00, 2025-06-05 18:30:00]"
    assert day_of("送达时间应为6月5日18:00") == june5
    assert day_of("The delivery should be on Jun. 5 at 18:00") == june5
    assert day_of("The delivery should be on 5 June at 18:00") == june5


def test_spans_of_days_overlap_only_when_they_share_characters() -> None:
    friday = datetime(2025, 6, 6).date()  # noqa: DTZ001
    assert c._days("6月6日周五", CLOCK) == [(0, 4, friday), (4, 6, friday)]
    assert c._days("周五6月6日", CLOCK) == [(0, 2, friday), (2, 6, friday)]
    # a stamp and the month-day inside it are one day (the year the stamp gives)
    (booking,) = c.parse_rubric("入住日期应为2024年6月5日", CLOCK, frozenset({"booking"}))
    assert (booking.field, booking.relation, str(booking.window)) == (
        "date",
        "on",
        "[2024-06-05 00:00:00, 2024-06-05 23:59:59]",
    )


def test_a_part_of_the_day_already_over_is_tomorrows() -> None:
    def morning(clock: datetime) -> str:
        (s,) = c.parse_rubric("The order should be delivered in the morning", clock)
        return str(s.window)

    assert morning(datetime(2025, 6, 4, 11, 59)) == "[2025-06-04 06:00:00, 2025-06-04 12:00:00]"  # noqa: DTZ001
    assert morning(datetime(2025, 6, 4, 12, 0)) == "[2025-06-05 06:00:00, 2025-06-05 12:00:00]"  # noqa: DTZ001
    assert _time_windows("The order should be delivered in the evening") == [
        ("between", "[2025-06-04 18:00:00, 2025-06-04 23:59:59]")
    ]
    (day,) = c.parse_rubric("The order should be delivered tomorrow", CLOCK)
    assert (day.field, day.relation) == ("date", "on")


# ---- windows -------------------------------------------------------------------------------


def test_two_times_are_a_range_only_when_joined_as_one() -> None:
    between = [("between", "[2025-06-04 18:00:00, 2025-06-04 19:00:00]")]
    around = [("around", "[2025-06-04 17:30:00, 2025-06-04 18:30:00]")]
    assert _time_windows("送达时间应为18:00-19:00") == between
    assert _time_windows("配送时间应在18:00与19:00之间") == between
    assert _time_windows("The delivery should be at 18:00 or 19:00") == around
    # with "between", up to 12 characters may join the two times
    assert _time_windows("The delivery should be between 18:00 or perhaps 19:00") == between
    assert _time_windows("The delivery should be between 18:00 and perhaps 19:00") == around


def test_relation_words_are_read_24_characters_before_and_16_after_the_time() -> None:
    around = [("around", "[2025-06-04 17:30:00, 2025-06-04 18:30:00]")]
    before = [("before", "[…, 2025-06-04 18:00:00]")]
    assert _time_windows("送达时间应为18:00" + "x" * 16 + "前") == around
    assert _time_windows("送达时间应为18:00" + "x" * 15 + "前") == before
    assert _time_windows("送达时间应为前" + "x" * 24 + "18:00") == around
    assert _time_windows("送达时间应为前" + "x" * 23 + "18:00") == before
    # a relation word written against the time is still a word
    assert _time_windows("The delivery should be by18:00") == before
    assert _time_windows("The delivery should be 18:00or earlier") == before


def test_open_ends_and_the_day_of_a_relative_deadline() -> None:
    assert _time_windows("The delivery should arrive after 18:00") == [
        ("after", "[2025-06-04 18:00:00, …]")
    ]
    assert _time_windows("明天凌晨1点前送达") == [
        ("before", "[2025-06-05 00:00:00, 2025-06-05 01:00:00]")
    ]
    assert _time_windows("The delivery should be no later than 18:00 tomorrow") == [
        ("before", "[2025-06-05 00:00:00, 2025-06-05 18:00:00]")
    ]


# ---- the predicate -------------------------------------------------------------------------


def test_the_subject_ends_at_the_modal_after_the_field_keyword() -> None:
    (s,) = c.parse_rubric(
        "Orders that must be hot: the delivery time should be before 18:30", CLOCK
    )
    assert s.subject == "Orders that must be hot: the delivery time "
    (s,) = c.parse_rubric("明天18:30送达", CLOCK)
    assert s.subject == ""
    # a part of the day in the subject, or a time in a reason, states nothing
    (s,) = c.parse_rubric("The noon order must be delivered tomorrow", CLOCK)
    assert (s.field, s.relation, s.subject) == ("date", "on", "The noon order ")
    text = "The order should be delivered tomorrow so that she can eat before 18:30"
    (s,) = c.parse_rubric(text, CLOCK)
    assert (s.field, s.relation) == ("date", "on")


def test_address_and_condition_clauses_are_skipped_but_not_what_follows() -> None:
    assert c.parse_rubric("Deliver to the address of the office tomorrow", CLOCK) == []
    around = [("around", "[2025-06-04 17:30:00, 2025-06-04 18:30:00]")]
    assert _time_windows("The address should be Home; the delivery time should be 18:00") == around
    assert _time_windows("If the store is closed, deliver at 18:00") == around
    assert c._clauses("a；b") == [(0, "a"), (2, "b")]
    (note,) = c.parse_rubric("Add a note: no ice", CLOCK)
    assert (note.field, note.target, note.rubric) == ("note", "delivery", "Add a note: no ice")


# ---- party sizes ---------------------------------------------------------------------------


def test_party_sizes_from_one_to_99_and_from_the_clause_only_with_a_people_word() -> None:
    appt: frozenset[Target] = frozenset({"appointment"})

    def sizes(text: str) -> list[Stated]:
        return [s for s in c.parse_rubric(text, CLOCK, appt) if s.field == "party_size"]

    assert [s.count for s in sizes("The reservation should be for 99 people")] == [99]
    assert sizes("The reservation should be for 100 people") == []
    assert sizes("The reservation should be for 0 people") == []
    assert sizes("Table for two: the reservation should be at 18:00") == []
    text = "Number of diners 4: the reservation should be at 18:00"
    assert [s.count for s in sizes(text)] == [4]
    text = "Four People: the reservation should be at 18:00"
    assert sizes(text) == [
        Stated("party_size", "appointment", text, "Four People: the reservation ", count=4)
    ]


# ---- names, actions, windows ---------------------------------------------------------------


def _named(text: str) -> bool:
    m = re.search("Evening", text)
    assert m is not None
    return c._in_name(text, m)


def test_a_capitalised_period_word_after_a_capitalised_word_is_a_name() -> None:
    assert _named("from Blue Evening")
    assert _named("from Blue, Evening")
    assert _named("from Studio X Evening")
    assert not _named("Blue Evening")  # the first word of a sentence is capitalised anyway
    assert not _named("from blue Evening")
    assert not _named("Evening")
    assert _time_windows("The order should be delivered tomorrow Evening") == [
        ("between", "[2025-06-05 18:00:00, 2025-06-05 23:59:59]")
    ]


def test_a_note_action_drops_a_change_unless_the_order_is_cancelled() -> None:
    assert c.actions("Modify the note of O1 to: no onions") == ["note"]
    assert c.actions("Cancel O1 and modify its note") == [
        "cancel",
        "note",
        "change",
    ]


def test_a_window_contains_both_of_its_ends() -> None:
    w = Window(_d("2025-06-04 18:00"), _d("2025-06-04 19:00"))
    assert w.contains(_d("2025-06-04 18:00")) and w.contains(_d("2025-06-04 19:00"))
    assert not w.contains(_d("2025-06-04 17:59")) and not w.contains(_d("2025-06-04 19:01"))


# ---- days paired with times ----------------------------------------------------------------


def _pts(text: str) -> list[tuple[int, int, str, str, bool]]:
    return [(p.start, p.end, str(p.day), str(p.tod), p.end_of_day) for p in c._points(text, CLOCK)]


def test_a_day_pairs_with_the_nearest_time_within_eight_characters() -> None:
    assert _pts("2025-06-05 18:00") == [(0, 16, "2025-06-05", "18:00:00", False)]
    assert _pts("18:00 2025-06-05") == [(0, 16, "2025-06-05", "18:00:00", False)]
    assert _pts("2025-06-05 24:00") == [(0, 16, "2025-06-05", "23:59:59", True)]
    assert _pts("24:00 2025-06-05") == [(0, 16, "2025-06-05", "23:59:59", True)]
    # eight characters apart they pair (one span); nine apart the lone day still applies
    assert _pts("2025-06-05 xxxxxx 18:00") == [(0, 23, "2025-06-05", "18:00:00", False)]
    assert _pts("2025-06-05 xxxxxxx 18:00") == [(19, 24, "2025-06-05", "18:00:00", False)]
    # each time takes its own day
    assert _pts("18:00 on 2025-06-05 and 10:00 on 2025-06-06") == [
        (0, 19, "2025-06-05", "18:00:00", False),
        (24, 43, "2025-06-06", "10:00:00", False),
    ]
    # the nearer of two days, the first of two as near; a day is used once
    assert _pts("2025-06-05 18:00 2025-06-06") == [(0, 16, "2025-06-05", "18:00:00", False)]
    assert _pts("2025-06-05 x 18:00 2025-06-06") == [(13, 29, "2025-06-06", "18:00:00", False)]
    assert _pts("2025-06-05 and 2025-06-06 at 18:00") == [(15, 34, "2025-06-06", "18:00:00", False)]
    assert _pts("18:00 2025-06-05 19:00") == [
        (0, 16, "2025-06-05", "18:00:00", False),
        (17, 22, "None", "19:00:00", False),
    ]


def test_a_lone_day_applies_only_when_no_time_has_a_day() -> None:
    assert _pts("2025-06-05 18:00 and 19:00") == [
        (0, 16, "2025-06-05", "18:00:00", False),
        (21, 26, "None", "19:00:00", False),
    ]
    assert _pts("18:00 and 19:00 on 2025-06-05") == [
        (0, 5, "None", "18:00:00", False),
        (10, 29, "2025-06-05", "19:00:00", False),
    ]
    assert _pts("2025-06-05 and 2025-06-06") == [
        (0, 10, "2025-06-05", "None", False),
        (15, 25, "2025-06-06", "None", False),
    ]
    # an unpaired end of the day stays the end of the day
    assert _pts("midnight, xxxxxxxx 2025-06-05") == [(0, 8, "2025-06-05", "23:59:59", True)]
    assert _pts("24:00 xxxxxxxx 2025-06-05 or 2025-06-06") == [(0, 5, "None", "23:59:59", True)]

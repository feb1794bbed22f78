"""The rubric constraint parser: windows, days, party sizes and notes in English and Chinese,
full-width and half-width, with and without spaces (`vita/grading/constraints.py`)."""

from __future__ import annotations

from datetime import datetime

import pytest

from lifebench.vita.grading.constraints import (
    Stated,
    Window,
    actions,
    fold,
    parse_rubric,
    zh_number,
)

# A Wednesday, late morning.
CLOCK = datetime(2025, 6, 4, 11, 0, 0)  # noqa: DTZ001 - naive task clock
ALL = frozenset({"delivery", "appointment", "booking"})


def _one(text: str, field: str = "time", targets: frozenset[str] = ALL) -> Stated:
    found = [s for s in parse_rubric(text, CLOCK, targets) if s.field == field]  # type: ignore[arg-type]
    assert len(found) == 1, (text, found)
    return found[0]


def _w(start: str | None, end: str | None) -> Window:
    def t(x: str | None) -> datetime | None:
        return None if x is None else datetime.fromisoformat(x)

    return Window(t(start), t(end))


DELIVERY_WINDOWS = [
    # absolute days, both languages
    (
        "The delivery time should be before 18:00 on 2025-06-03",
        "before",
        None,
        "2025-06-03 18:00",
    ),
    (
        "订单配送时间应在2025-06-03 18:00之前，确保女儿六点半前能用餐完毕",
        "before",
        None,
        "2025-06-03 18:00",
    ),
    (
        "The delivery time should be around 2025-06-21 12:00:00 to ensure a nap",
        "around",
        "2025-06-21 11:30",
        "2025-06-21 12:30",
    ),
    (
        "米线订单的送达时间应在2025-06-21 12:00:00左右",
        "around",
        "2025-06-21 11:30",
        "2025-06-21 12:30",
    ),
    (
        "The delivery time should be between 18:15 and 18:30 on February 14, 2025",
        "between",
        "2025-02-14 18:15",
        "2025-02-14 18:30",
    ),
    (
        "甜品订单的预计送达时间应在2025年2月14日18:15至18:30之间",
        "between",
        "2025-02-14 18:15",
        "2025-02-14 18:30",
    ),
    (
        "配送时间应在2025年05月20日11:00:00-12:00:00时间段内",
        "between",
        "2025-05-20 11:00",
        "2025-05-20 12:00",
    ),
    (
        "The delivery time should be after 2025-09-18 20:00:00",
        "after",
        "2025-09-18 20:00",
        "2025-09-18 23:59:59",
    ),
    ("送达时间应在2025-09-18 20:00:00后", "after", "2025-09-18 20:00", "2025-09-18 23:59:59"),
    (
        "The delivery time should be on or before 2025-12-21 19:00",
        "before",
        None,
        "2025-12-21 19:00",
    ),
    ("送达时间应在2025-12-21 19:00或之前", "before", None, "2025-12-21 19:00"),
    (
        "The delivery time should be no later than 1 PM on March 25, 2026",
        "before",
        None,
        "2026-03-25 13:00",
    ),
    ("预计送达时间应在2026年3月25日13点前", "before", None, "2026-03-25 13:00"),
    ("预计送达时间不晚于2026年3月25日下午1点半", "before", None, "2026-03-25 13:30"),
    ("送达时间应早于2025-06-01 00:00:00", "before", None, "2025-06-01 00:00"),
    ("送达时间应晚于2025-06-05 19:00", "after", "2025-06-05 19:00", "2025-06-05 23:59:59"),
    ("送达时间不早于2025-06-05 19:00", "after", "2025-06-05 19:00", "2025-06-05 23:59:59"),
    ("送达时间在2025-06-05 19:00前后", "around", "2025-06-05 18:30", "2025-06-05 19:30"),
    # relative days and weekdays (the clock is Wednesday 2025-06-04 11:00)
    (
        "The order should be delivered at 18:30 tomorrow",
        "around",
        "2025-06-05 18:00",
        "2025-06-05 19:00",
    ),
    ("明天18:30送达", "around", "2025-06-05 18:00", "2025-06-05 19:00"),
    (
        "The order should be delivered before noon the day after tomorrow",
        "before",
        "2025-06-06 00:00",
        "2025-06-06 12:00",
    ),
    ("后天中午送达", "between", "2025-06-06 11:00", "2025-06-06 13:00"),
    (
        "The delivery should arrive tomorrow before noon",
        "before",
        "2025-06-05 00:00",
        "2025-06-05 12:00",
    ),
    ("明天中午12点前送到", "before", "2025-06-05 00:00", "2025-06-05 12:00"),
    (
        "The delivery time should be Friday at 7 PM",
        "around",
        "2025-06-06 18:30",
        "2025-06-06 19:30",
    ),
    ("送达时间应为周五晚上7点", "around", "2025-06-06 18:30", "2025-06-06 19:30"),
    ("送达时间应为下周一上午十点", "around", "2025-06-09 09:30", "2025-06-09 10:30"),
    (
        "The delivery time should be next Monday at 10 AM",
        "around",
        "2025-06-09 09:30",
        "2025-06-09 10:30",
    ),
    ("送达时间应为星期三晚上八点", "around", "2025-06-04 19:30", "2025-06-04 20:30"),
    ("今晚送达", "between", "2025-06-04 18:00", "2025-06-04 23:59:59"),
    ("The order should be delivered tonight", "between", "2025-06-04 18:00", "2025-06-04 23:59:59"),
    # a time of day without a day: today, or tomorrow when today's has passed
    ("The delivery should arrive before 12:30", "before", None, "2025-06-04 12:30"),
    ("The delivery should arrive around 9:00", "around", "2025-06-05 08:30", "2025-06-05 09:30"),
    # durations from the clock
    (
        "The order should be delivered within half an hour",
        "before",
        "2025-06-04 11:00",
        "2025-06-04 11:30",
    ),
    ("订单需要30分钟内送达", "before", "2025-06-04 11:00", "2025-06-04 11:30"),
    ("订单需要半小时内送达", "before", "2025-06-04 11:00", "2025-06-04 11:30"),
    (
        "The order should be delivered within 2 hours",
        "before",
        "2025-06-04 11:00",
        "2025-06-04 13:00",
    ),
]


@pytest.mark.parametrize(("text", "relation", "start", "end"), DELIVERY_WINDOWS)
def test_delivery_windows(text: str, relation: str, start: str | None, end: str | None) -> None:
    stated = _one(text, targets=frozenset({"delivery"}))
    assert stated.target == "delivery" and stated.relation == relation
    assert stated.window == _w(start, end), (text, stated.window)


WIDTH_AND_SPACES = [
    "订单送达时间应在２０２５－０６－０５　１８：３０左右",
    "订单送达时间应在 2025-06-05 18:30 左右",
    "订单送达时间应在2025-06-05 18:30左右",
    "订单送达时间应在2025年6月5日18:30左右",
    "订单送达时间应在2025 年 6 月 5 日 18 : 30 左右",
    "订单送达时间应在２０２５年６月５日１８点半左右",
    "订单送达时间应在2025年6月5日晚上6点半左右",
    "订单送达时间应在明天１８：３０左右",
    "The delivery time should be around 18:30 on June 5, 2025",
    "The delivery time should be around １８：３０ on June ５, ２０２５",
    "The delivery time should be around 6:30 pm on June 5th 2025",
    "The delivery time should be around 6:30PM tomorrow",
    "The delivery time should be around 6:30 p.m. tomorrow",
]


@pytest.mark.parametrize("text", WIDTH_AND_SPACES)
def test_full_width_half_width_and_spaces_read_alike(text: str) -> None:
    stated = _one(text, targets=frozenset({"delivery"}))
    assert stated.window == _w("2025-06-05 18:00", "2025-06-05 19:00"), text


def test_times_written_beside_chinese_characters_are_found() -> None:
    # the old detector used \\b, which never matches between a digit and a CJK character
    for text in (
        "送达时间应在18:30前",
        "送达时间应在18点前",
        "送达时间应在十八点前",
        "送达时间应在六点半后",
    ):
        stated = _one(text, targets=frozenset({"delivery"}))
        assert stated.window is not None and stated.relation in ("before", "after"), text


@pytest.mark.parametrize(
    "text",
    [
        # a part of the day in the subject, or in a reason, is not an ask
        "中午面条订单的配送地址应为福建省泉州市丰宁路10号",
        "The rice noodle product must not be gold soup flavor, as the user is tired of it",
        "The merchant selected for night snack orders should support late-night delivery service",
        "9C2251 arrives at 09:10, before the plans at 20:30",
        "Delivery address should be No. 10 Fengning Road, Kunming",
        "When checking if the spa is available at 11:00, it is closed",
        "The order should be delivered faster a bit (快一点)",
    ],
)
def test_no_constraint_where_none_is_stated(text: str) -> None:
    assert [s for s in parse_rubric(text, CLOCK, ALL) if s.field in ("time", "date")] == []


def test_the_subject_is_kept_for_attribution_and_reasons_are_cut() -> None:
    stated = _one(
        "The delivery time for the dessert order should be before 18:30, so that she eats before "
        "7 PM",
        targets=frozenset({"delivery"}),
    )
    assert "dessert order" in stated.subject and stated.window == _w(None, "2025-06-04 18:30")


@pytest.mark.parametrize(
    ("text", "relation", "start", "end"),
    [
        (
            "The gym reservation time should be 2025-11-07 17:30:00",
            "around",
            "2025-11-07 17:00",
            "2025-11-07 18:00",
        ),
        ("预约时间应为明天下午3点", "around", "2025-06-05 14:30", "2025-06-05 15:30"),
        (
            "The appointment date at the beauty salon is May 11, 2025",
            "on",
            "2025-05-11 00:00",
            "2025-05-11 23:59:59",
        ),
        (
            "Dance course reservation time must be Saturday at 4 PM",
            "around",
            "2025-06-07 15:30",
            "2025-06-07 16:30",
        ),
    ],
)
def test_appointment_windows(text: str, relation: str, start: str, end: str) -> None:
    stated = next(
        s for s in parse_rubric(text, CLOCK, frozenset({"appointment"})) if s.window is not None
    )
    assert stated.target == "appointment" and stated.relation == relation
    assert stated.window == _w(start, end)


def test_booking_dates_are_days_and_ignore_times_of_the_product() -> None:
    stated = _one(
        "The flight must be CA4101 (Beijing 08:00 → Chengdu 11:10) on 2025-11-06, economy",
        "date",
        frozenset({"booking"}),
    )
    assert stated.window == _w("2025-11-06 00:00", "2025-11-06 23:59:59")
    zh = _one("酒店的订单必须是后天当晚的一间大床房", "date", frozenset({"booking"}))
    assert zh.window == _w("2025-06-06 00:00", "2025-06-06 23:59:59")
    # two days (a stay): not read as one day
    assert not [
        s
        for s in parse_rubric(
            "The hotel stay is from June 5 to June 7", CLOCK, frozenset({"booking"})
        )
        if s.field == "date"
    ]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("The number of people for the gym reservation should be 1", 1),
        ("The KTV reservation should be for 2 people", 2),
        ("A table for four people must be booked", 4),
        ("预约人数应为3人", 3),
        ("预约应为两位", 2),
        ("预约应为１２人", 12),
        ("订座人数是十人", 10),
    ],
)
def test_party_sizes(text: str, count: int) -> None:
    assert _one(text, "party_size", frozenset({"appointment"})).count == count


@pytest.mark.parametrize(
    ("text", "wording"),
    [
        (
            "Need to modify the note for order with order_id X1 to: No disposable tableware",
            "No disposable tableware",
        ),
        ("需要将order_id为X1的订单备注修改为：不要一次性餐具", "不要一次性餐具"),
        ("The order should include a note requesting 'the ugliest duck'", "the ugliest duck"),
        (
            "The Sauce Bone Rice order should note no disposable tableware",
            "no disposable tableware",
        ),
        ("酱骨饭订单应当备注不要一次性餐具", "不要一次性餐具"),
        ("The order should include a note for the rider", ""),
        ("订单需要添加备注要求商家提供一次性手套", ""),
    ],
)
def test_notes_and_their_wording(text: str, wording: str) -> None:
    assert _one(text, "note").text == wording


def test_a_name_with_note_in_it_is_no_note() -> None:
    assert not [s for s in parse_rubric("The bar should be Blue Note Bar", CLOCK, ALL)]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Need to cancel the order with order_id X1", ["cancel"]),
        ("需要将order_id为X1的订单取消", ["cancel"]),
        ("Order the product from order X1 again", ["reorder"]),
        ("order_id为X1的订单中的豆花再下单一份", ["reorder"]),
        ("Add note to the order with order_id X1: Extra spicy, thanks", ["note"]),
        ("为order_id为X1的订单添加备注：多辣谢谢", ["note"]),
        ("Order X1 must remain unchanged and paid", ["keep", "pay"]),
        ("Order X1 must be changed to D250 on 2025-10-29", ["change"]),
    ],
)
def test_actions_on_named_records(text: str, found: list[str]) -> None:
    assert actions(text) == found


def test_numbers_and_folding() -> None:
    assert [zh_number(x) for x in ("十二", "两", "二十", "十", "九", "12", "三十五")] == [
        12,
        2,
        20,
        10,
        9,
        12,
        35,
    ]
    assert zh_number("百") is None and zh_number("") is None and zh_number("十十") is None
    assert fold("１８：３０　明天") == "18:30 明天"
    assert str(_w(None, "2025-06-04 12:30")) == "[…, 2025-06-04 12:30:00]"
    assert _w("2025-06-04 12:00", "2025-06-04 12:30").days() == {CLOCK.date()}
    assert _w(None, "2025-06-04 12:30").days() == set()
    assert _w("2025-06-04 12:00", None).contains(CLOCK.replace(year=2030))
    assert not _w("2025-06-04 12:00", None).contains(CLOCK.replace(minute=59))

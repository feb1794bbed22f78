"""More of the state grader's rules (vita/grading/state.py) pinned one by one: which expected
record already agrees with a stated constraint (it breaks a tie between records a rubric may be
about), in English and Chinese."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import replace
from datetime import datetime
from typing import Any

from _vita_builders import (
    HOME,
    WANT_LINES,
    delivery_task,
    final_state,
    order,
    right_order,
    simulation,
)

from lifebench.evaluation import CriterionVerdict
from lifebench.vita.grading import state as sg
from lifebench.vita.grading.constraints import Stated, Window
from lifebench.vita.grading.expected import required_orders
from lifebench.vita.grading.options import attribute_rule, chosen_key
from lifebench.vita.grading.stated import Candidate
from lifebench.vita.grading.text import normalise
from lifebench.vita.task import VitaTask


def _w(start: str, end: str) -> Window:
    return Window(datetime.fromisoformat(start), datetime.fromisoformat(end))


def _s(field: str, window: Window | None = None, count: int | None = None) -> Stated:
    return Stated(
        field=field,  # type: ignore[arg-type]
        target="delivery",
        rubric="R",
        subject="",
        window=window,
        count=count,
    )


def _c(record: dict[str, Any]) -> Candidate:
    return Candidate(key=0, target="delivery", ids=(), names="", record=record)


NOON = _w("2025-06-01 11:30", "2025-06-01 12:30")


def test_a_party_size_agrees_with_the_records_customer_count() -> None:
    four = _s("party_size", count=4)
    assert sg._agrees(four, _c({"customer_count": 4}))
    assert not sg._agrees(four, _c({"customer_count": 3}))
    assert not sg._agrees(four, _c({}))
    # a party size is never read from a time
    assert not sg._agrees(four, _c({"delivery_time": "2025-06-01 12:00:00"}))


def test_a_time_agrees_with_the_first_time_the_record_gives() -> None:
    noon = _s("time", NOON)
    for key in ("delivery_time", "dispatch_time", "reservation_time", "book_time"):
        assert sg._agrees(noon, _c({key: "2025-06-01 12:00:00"})), key
        assert not sg._agrees(noon, _c({key: "2025-06-01 13:00:00"})), key
    # the delivery time comes first: a dispatch time in the window does not make it agree
    both = {"delivery_time": "2025-06-01 13:00:00", "dispatch_time": "2025-06-01 12:00:00"}
    assert not sg._agrees(noon, _c(both))
    # an unreadable time is skipped for the next one
    assert sg._agrees(noon, _c({"delivery_time": "soon", "dispatch_time": "2025-06-01 12:00:00"}))
    # no time at all, or no window, agrees with nothing
    assert not sg._agrees(noon, _c({"products": []}))
    assert not sg._agrees(_s("time"), _c({"delivery_time": "2025-06-01 12:00:00"}))


def test_a_date_agrees_with_every_dated_line_of_the_record() -> None:
    day = _s("date", _w("2025-06-02 00:00", "2025-06-02 23:59:59"))
    lines = [{"product_id": "H1", "date": "2025-06-02"}, {"product_id": "H2", "date": "2025-06-02"}]
    assert sg._agrees(day, _c({"products": lines}))
    mixed = [*lines[:1], {"product_id": "H2", "date": "2025-06-03"}]
    assert not sg._agrees(day, _c({"products": mixed}))
    # an undated line among dated ones is not in the window
    assert not sg._agrees(day, _c({"products": [*lines[:1], {"product_id": "H3"}]}))
    # lines that are not records are skipped; a window of None agrees with nothing
    assert sg._agrees(day, _c({"products": ["x", *lines]}))
    assert not sg._agrees(_s("date"), _c({"products": lines}))
    # lines dated elsewhere outweigh the record's own time (a booking's days decide)
    timed = {"products": mixed, "book_time": "2025-06-02 10:00:00"}
    assert not sg._agrees(day, _c(timed))
    # without dated lines the record's time decides; a time stated is never read from lines
    assert sg._agrees(day, _c({"products": [{"product_id": "H3"}], "book_time": "2025-06-02"}))
    assert sg._agrees(day, _c({"products": "H1", "book_time": "2025-06-02 10:00:00"}))
    assert sg._agrees(
        _s("time", NOON), _c({"products": mixed, "delivery_time": "2025-06-01 12:00"})
    )


def test_known_places_skip_places_without_an_address_text() -> None:
    raw = delivery_task(rubrics=["r"]).model_dump(mode="json", by_alias=True)
    raw["environment"]["location"] = [
        "Room 5, 8 Elm Road",  # a bare text: no point to learn
        {"address": "", "longitude": 121.0, "latitude": 31.0},
        {"address": "Lakeside Park", "longitude": 121.0, "latitude": 31.0},
    ]
    places = sg.known_places(VitaTask.model_validate(raw))
    assert "" not in places
    assert places[normalise("Lakeside Park")] == [(121.0, 31.0)]


def test_addresses_without_text_agree_and_an_untexted_rival_of_the_same_text_is_none() -> None:
    assert sg.same_address({}, {}) == (True, "")
    want = {"longitude": 120.0, "latitude": 30.0}
    near = {"address": "8 Elm Rd", "longitude": 120.002, "latitude": 30.0}
    rival = {"longitude": 120.003, "latitude": 30.0}  # nearer, but as untexted as want
    assert sg.same_address(near, want, [rival]) == (True, " (193 m away)")


def test_a_drifted_point_exactly_300_m_from_a_known_one_is_kept(monkeypatch: Any) -> None:
    known = {normalise("Home"): [(120.0, 30.0)]}
    own = {"address": "Home", "longitude": 120.5, "latitude": 30.0}
    monkeypatch.setattr(sg, "haversine_m", lambda *_: 300.0)
    assert sg.reference_location(own, known) is own
    monkeypatch.setattr(sg, "haversine_m", lambda *_: 300.01)
    assert sg.reference_location(own, known)["longitude"] == 120.0


def test_a_final_orders_wording_is_read_against_its_own_stores_options() -> None:
    raw = delivery_task(rubrics=["r"]).model_dump(mode="json", by_alias=True)
    stores = raw["environment"]["stores"]
    (p1,) = [p for p in stores["S1"]["products"] if p["product_id"] == "P1"]
    p1["attributes"] = ["Normal Spicy", "Mild", "Mala Spicy"]
    # S2 sells a product with the same id that offers no "Mild"
    stores["S2"]["products"].append(
        {**p1, "store_id": "S2", "attributes": ["Normal Spicy", "Mala Spicy"]}
    )
    task = VitaTask.model_validate(raw)
    made = order("X", "S1", [("P1", 1, "Mild Spicy")])
    # "Mild Spicy" names S1's offered "Mild" (as the tool would store it); S2's options do not
    assert sg.order_units(made, task) == [("P1", 1, chosen_key("Mild"))]
    in_s2 = {**made, "store_id": "S2"}
    assert sg.order_units(in_s2, task) == [("P1", 1, chosen_key("Mild Spicy"))]
    assert sg.order_units(made) == [("P1", 1, chosen_key("Mild Spicy"))]


def test_a_line_without_attributes_chose_none() -> None:
    line = {"product_id": "P3", "quantity": 2}
    assert sg.order_units({"store_id": "S1", "products": [line]}) == [("P3", 2, ())]


def test_the_only_option_counts_as_none_in_the_orders_own_store() -> None:
    raw = delivery_task(rubrics=["r"]).model_dump(mode="json", by_alias=True)
    stores = raw["environment"]["stores"]
    (p1,) = [p for p in stores["S1"]["products"] if p["product_id"] == "P1"]
    # S2 sells a product with the same id offered only as "4-inch"; S1's offers two sizes
    p1["attributes"] = ["4-inch", "6-inch"]
    stores["S2"]["products"].append({**p1, "store_id": "S2", "attributes": ["4-inch"]})
    task = VitaTask.model_validate(raw)
    rules = [("P1", 1, attribute_rule("", ["4-inch"]))]
    in_s2 = order("X", "S2", [("P1", 1, "4-inch")])
    assert sg.only_option_as_none(task, in_s2, rules) == [("P1", 1, ())]
    in_s1 = order("X", "S1", [("P1", 1, "4-inch")])
    assert sg.only_option_as_none(task, in_s1, rules) == [("P1", 1, chosen_key("4-inch"))]


def _window_stated(start: str | None, end: str, text: str = "") -> Stated:
    return Stated(
        field="time",
        target="delivery",
        rubric="R",
        subject="",
        window=Window(
            datetime.fromisoformat(start) if start else None, datetime.fromisoformat(end)
        ),
        text=text,
    )


def test_without_a_shipping_time_the_earliest_arrival_is_the_clock() -> None:
    now = datetime(2025, 6, 1, 11, 50)  # noqa: DTZ001
    # the window ends 30 s after the clock: still reachable, so it is checked as stated
    by = _window_stated(None, "2025-06-01 11:50:30")
    for record in (
        {"delivery_time": "2025-06-01 11:55:00"},
        {"delivery_time": "2025-06-01 11:55:00", "shipping_time": "fast"},
    ):
        assert sg.stated_mismatch([by], record, now) is not None, record
        assert (
            sg.stated_mismatch([by], {**record, "delivery_time": "2025-06-01 11:50:00"}, now)
            is None
        )


def test_as_soon_as_possible_allows_thirty_minutes_not_thirty_and_a_half() -> None:
    now = datetime(2025, 6, 1, 11, 50)  # noqa: DTZ001
    asap = _window_stated(None, "2025-06-01 12:00")
    record = {"shipping_time": 30}  # earliest arrival 12:20
    assert (
        sg.stated_mismatch([asap], {**record, "delivery_time": "2025-06-01 12:50:00"}, now) is None
    )
    late = {**record, "delivery_time": "2025-06-01 12:50:30"}
    assert sg.stated_mismatch([asap], late, now) is not None


def test_a_stated_note_names_the_note_it_got_and_no_note_asks_nothing() -> None:
    note = Stated(field="note", target="delivery", rubric="R", subject="", text="xxxx")
    assert sg.stated_mismatch([note], {"note": "extra rice"}, None) == (
        "note 'extra rice' does not ask 'xxxx' ('R')"
    )
    assert sg.stated_mismatch([note], {}, None) == "note '' does not ask 'xxxx' ('R')"


# ---- the matcher -----------------------------------------------------------------------------


def _matcher(**task: Any) -> tuple[sg.OrderMatcher, Any]:
    t = delivery_task(**task)
    (new, *_) = required_orders(t, frozenset({"delivery"}))
    return sg.OrderMatcher(t), new


def test_no_expected_address_text_checks_no_address() -> None:
    m, _ = _matcher()
    assert m._where_and_when({"location": {"address": ""}}, {"location": HOME}) is None
    assert m._where_and_when({"location": None}, {"location": HOME}) is None


def test_as_soon_as_possible_runs_to_the_end_of_the_day_or_thirty_minutes_after_the_clock() -> None:
    m, _ = _matcher()
    m.now = datetime(2025, 6, 1, 23, 45)  # noqa: DTZ001
    # past 23:30 the window runs 30 minutes into the next day, ends included
    assert m._where_and_when({}, {"dispatch_time": "2025-06-02 00:15:00"}, asap=True) is None
    assert m._where_and_when({}, {"dispatch_time": "2025-06-02 00:16:00"}, asap=True) is not None
    assert m._where_and_when({}, {}, asap=True) == (
        "dispatch_time (none) not between the clock 2025-06-01 23:45:00 and the end of its day "
        "(no time is stated)"
    )


def test_a_note_where_the_record_expects_none_is_unrequested() -> None:
    want = order(
        "T1", "S1", WANT_LINES, note="", location=HOME, delivery_time="2025-06-01 12:00:00"
    )
    m, req = _matcher(expected=[want])
    assert m.mismatch(req, {**right_order(), "note": ""}) is None
    assert m.mismatch(req, right_order()) == (
        "note 'No green onions' asks what the task does not ask (no note expected)"
    )


def test_the_matcher_checks_stated_windows_against_the_task_clock() -> None:
    m, req = _matcher()
    # the clock is 11:00 and the order ships in 35 minutes: a window ending 11:10 cannot be
    # met, so as soon as possible (11:35) is due
    soon = replace(req, stated=(_window_stated(None, "2025-06-01 11:10"),))
    made = {**right_order(), "dispatch_time": "2025-06-01 11:00:00"}
    made["delivery_time"] = "2025-06-01 11:35:00"
    assert m.stated_mismatch(soon, made) is None


def test_a_blank_expected_time_checks_no_time_and_a_late_dispatch_is_named() -> None:
    m, _ = _matcher()
    assert m._where_and_when({"delivery_time": " ", "dispatch_time": None}, {}) is None
    assert m._where_and_when({}, {"dispatch_time": "2025-06-02 09:00:00"}, asap=True) == (
        "dispatch_time 2025-06-02 09:00:00 not between the clock 2025-06-01 11:00:00 and the "
        "end of its day (no time is stated)"
    )


# ---- preparing the requirements ----------------------------------------------------------------


def _untimed(rubrics: list[str], note: str = "", timed: bool = False) -> Any:
    want = order(
        "T1",
        "S1",
        WANT_LINES,
        note=note,
        location=HOME,
        delivery_time="2025-06-01 12:00:00" if timed else "",
        dispatch_time="2025-06-01 11:30:00" if timed else "",
    )
    return delivery_task(expected=[want], rubrics=rubrics)


def _stated_of(task: Any) -> list[tuple[bool, list[tuple[str, str, int]]]]:
    reqs, *_ = sg.delivery_state_evaluator().prepare(task)
    return [(r.asap, [(s.field, str(s.window), s.moved_days) for s in r.stated]) for r in reqs]


def test_a_stated_note_the_record_governs_is_skipped_but_what_follows_is_kept() -> None:
    task = _untimed(
        [
            'The noodle order should have the note "less ice"',
            "The noodle order should be delivered before 12:30",
        ],
        note="less ice",
    )
    assert _stated_of(task) == [(False, [("time", "[…, 2025-06-01 12:30:00]", 0)])]


def test_a_far_stated_delivery_moves_to_the_clock_only_on_a_record_without_a_time() -> None:
    rubric = ["The noodle order should be delivered before 12:30 on 2025-06-20"]
    assert _stated_of(_untimed(rubric)) == [(False, [("time", "[…, 2025-06-01 12:30:00]", -19)])]
    assert _stated_of(_untimed(rubric, timed=True)) == [
        (False, [("time", "[…, 2025-06-20 12:30:00]", 0)])
    ]


def test_only_a_stated_time_or_date_makes_a_new_order_timed() -> None:
    # a stated note leaves the order untimed: as soon as possible
    assert _stated_of(_untimed(['The noodle order should have the note "less ice"'])) == [
        (True, [("note", "None", 0)])
    ]
    _reqs, unchecked, coverage, _ = sg.delivery_state_evaluator().prepare(
        _untimed(["Add a note to the noodle order"])
    )
    assert unchecked == [
        "note: 'Add a note to the noodle order' asks a note on order T1 without its wording, "
        "and the expected record has none"
    ]
    assert coverage["note"] == Counter({"checked": 1, "unchecked": 1})


# ---- the basis result ------------------------------------------------------------------------


def test_evaluate_grades_the_episode_and_reports_coverage() -> None:
    task = delivery_task()
    ev = sg.delivery_state_evaluator()
    done = asyncio.run(ev.evaluate(task, simulation(final_state(task, right_order()))))
    assert (done.reward, done.gradable) == (1.0, True)
    assert done.info["coverage"]["time"] == {"checked": 1}
    assert done == ev.grade(task, simulation(final_state(task, right_order())))
    # a task without a delivery requirement is ungradable, with its coverage all the same
    none = delivery_task(expected=[order("T9", "S1", [("P3", 1, "")], order_type="instore")])
    result = ev.grade(none, simulation(final_state(none, cancel=())))
    assert (result.gradable, result.reward) == (False, 0.0)
    assert result.info["coverage"] == {"unrequested": {"checked": 2}}


def _two(rubrics: list[str], notes: tuple[str, str] = ("", ""), status: str = "paid") -> Any:
    """Two untimed new orders (noodles and teas at S1, noodles at S2)."""
    a = order(
        "T1", "S1", WANT_LINES, note=notes[0], location=HOME, delivery_time="", dispatch_time=""
    )
    b = order("T2", "S2", [("P4", 1, "Mild Spicy")], note=notes[1], location=HOME, delivery_time="")
    b.update(dispatch_time="", status=status)
    return delivery_task(expected=[a, b], rubrics=rubrics)


def _prepared(task: Any) -> tuple[list[tuple[str, bool, list[str]]], list[str], Any]:
    reqs, unchecked, coverage, _ = sg.delivery_state_evaluator().prepare(task)
    return [(r.order_id, r.asap, [s.field for s in r.stated]) for r in reqs], unchecked, coverage


def test_a_stated_day_or_a_time_no_record_owns_makes_orders_timed() -> None:
    reqs, _, _ = _prepared(_two(["The tea order should be delivered tomorrow"]))
    assert reqs == [("T1", False, ["date"]), ("T2", True, [])]
    reqs, _, _ = _prepared(_two(["The delivery should be tomorrow"]))
    assert reqs == [("T1", False, []), ("T2", False, [])]
    reqs, unchecked, _ = _prepared(_two(["The delivery should be at 12:30"]))
    assert reqs == [("T1", False, []), ("T2", False, [])]
    assert [line.split(":")[0] for line in unchecked] == ["time"]
    # a note no record owns leaves them as soon as possible
    reqs, _, _ = _prepared(_two(['The order should have the note "x"']))
    assert reqs == [("T1", True, []), ("T2", True, [])]


def test_a_cancelled_new_order_is_never_as_soon_as_possible() -> None:
    reqs, _, _ = _prepared(_two(["r"], status="cancelled"))
    assert reqs == [("T1", True, []), ("T2", False, [])]


def test_a_note_without_wording_no_record_owns_is_checked_when_every_live_order_has_one() -> None:
    _reqs, unchecked, coverage = _prepared(_two(["Add a note to the order"], ("n1", "n2")))
    assert unchecked == []
    assert coverage["note"] == Counter({"checked": 3})
    # one live order without a note: which one is meant cannot be told
    _, unchecked, _ = _prepared(_two(["Add a note to the order"], ("n1", "")))
    assert [line.split(":")[0] for line in unchecked] == ["note"]
    # a wording, or a time, no record owns stays unchecked
    for rubric in ['The order should have the note "x"', "The delivery should be at 12:30"]:
        _, unchecked, _ = _prepared(_two([rubric], ("n1", "n2")))
        assert len(unchecked) == 1, rubric


def test_a_cancelled_order_needs_no_note_for_a_note_no_record_owns() -> None:
    task = _two(["Add a note to the order"], ("n1", "n2"))
    raw = task.model_dump(mode="json", by_alias=True)
    o1 = {**raw["environment"]["orders"]["O1"], "status": "cancelled", "note": ""}
    raw["evaluation_criteria"]["expected_states"][0]["required_orders"].append(o1)
    reqs, unchecked, _ = _prepared(VitaTask.model_validate(raw))
    assert [r[0] for r in reqs] == ["T1", "T2", "O1"]
    assert unchecked == []


def test_a_stated_time_goes_to_the_record_whose_own_time_agrees() -> None:
    a = order("T1", "S1", WANT_LINES, location=HOME, delivery_time="2025-06-01 12:00:00")
    b = order("T2", "S2", [("P4", 1, "Mild Spicy")], location=HOME)
    b.update(delivery_time="2025-06-01 18:00:00", dispatch_time="2025-06-01 17:30:00")
    task = delivery_task(expected=[a, b], rubrics=["The delivery should be at 18:00"])
    reqs, unchecked, _ = _prepared(task)
    assert [(r[0], r[2]) for r in reqs] == [("T1", []), ("T2", ["time"])]
    assert unchecked == []


def test_no_live_order_means_no_note_is_attributed_and_the_note_is_unchecked() -> None:
    raw = delivery_task(rubrics=['The order should have the note "x"']).model_dump(
        mode="json", by_alias=True
    )
    state = raw["evaluation_criteria"]["expected_states"][0]
    state["required_orders"] = state["required_orders"][1:]  # only O1's cancellation
    reqs, unchecked, _ = _prepared(VitaTask.model_validate(raw))
    # no record takes the note: it is attributed to none and reported unchecked (unowned_notes)
    assert (reqs, unchecked) == (
        [("O1", False, [])],
        [
            "note: 'The order should have the note \"x\"' asks a note, but no record of the "
            "task takes one: the state basis cannot check it"
        ],
    )


def test_statements_after_a_checked_note_no_record_owns_are_still_read() -> None:
    task = _two(["Add a note to the order", "The delivery should be at 12:30"], ("n1", "n2"))
    _, unchecked, _ = _prepared(task)
    assert [line.split(":")[0] for line in unchecked] == ["time"]


def test_a_new_order_reusing_a_pre_existing_id_does_not_go_by_it() -> None:
    again = order("O2", "S1", [("P1", 1, "Mild Spicy")], location=HOME, dispatch_time="")
    other = order("T2", "S2", [("P4", 1, "Mild Spicy")], location=HOME, dispatch_time="")
    rubrics = ["Order the same as O2 again", "The order O2 should be delivered at 12:30"]
    reqs, unchecked, _ = _prepared(delivery_task(expected=[again, other], rubrics=rubrics))
    # the time is about the pre-existing O2, not about the new order that reuses its id
    assert reqs == [("O2", True, []), ("T2", True, [])]
    assert unchecked == []


def test_a_rubric_naming_an_order_by_id_is_about_that_requirement() -> None:
    a = order("T1", "S1", WANT_LINES, location=HOME, delivery_time="", dispatch_time="")
    b = order("T2", "S2", [("P4", 1, "Mild Spicy")], location=HOME, dispatch_time="")
    timed = "The order T1 should be delivered at 12:30"
    reqs, _, _ = _prepared(delivery_task(expected=[a, b], rubrics=[timed]))
    assert [(r[0], r[2]) for r in reqs] == [("T1", ["time"]), ("T2", [])]
    # a pre-existing order the task edits goes by its own id
    o1 = {**delivery_task().environment["orders"]["O1"], "note": "less ice"}
    rubrics = [
        'Modify the note of order O1 to: "less ice"',
        "The order O1 should be delivered at 12:30",
    ]
    reqs, _, _ = _prepared(delivery_task(expected=[a, b, o1], rubrics=rubrics))
    assert [(r[0], r[2]) for r in reqs] == [("T1", []), ("T2", []), ("O1", ["time"])]
    # a cancelled one is no candidate: nothing stated is checked on it
    reqs, _, _ = _prepared(
        delivery_task(rubrics=["Cancel O1", "The order O1 should be delivered at 12:30"])
    )
    assert [(r[0], r[2]) for r in reqs] == [("T1", []), ("O1", [])]


def test_coverage_counts_every_check_each_requirement_makes() -> None:
    ev = sg.delivery_state_evaluator()
    _, _, coverage, _ = ev.prepare(delivery_task())
    assert {k: dict(v) for k, v in coverage.items()} == {
        "status": {"checked": 2},
        "store": {"checked": 1},
        "products": {"checked": 3},
        "note": {"checked": 2},
        "attribute": {"checked": 3},
        "address": {"checked": 1},
        "time": {"checked": 1},
        "unrequested": {"checked": 2},
    }
    # a pre-existing order's note edit: its status and note only
    o1 = {**delivery_task().environment["orders"]["O1"], "note": "less ice"}
    task = delivery_task(expected=[o1], rubrics=['Modify the note of order O1 to: "less ice"'])
    _, _, coverage, _ = ev.prepare(task)
    assert {k: dict(v) for k, v in coverage.items()} == {
        "status": {"checked": 1},
        "note": {"checked": 1},
        "unrequested": {"checked": 2},
    }


def test_a_new_order_without_an_expected_address_checks_none_and_says_so() -> None:
    want = order("T1", "S1", WANT_LINES, location=None, delivery_time="2025-06-01 12:00:00")
    _, unchecked, coverage, _ = sg.delivery_state_evaluator().prepare(
        delivery_task(expected=[want])
    )
    assert "address" not in {k for k, v in coverage.items() if v["checked"]}
    assert unchecked == ["address: new order T1 has no expected delivery address"]
    assert coverage["address"] == Counter({"unchecked": 1})


def test_each_stated_time_or_worded_note_is_one_check_more() -> None:
    ev = sg.delivery_state_evaluator()
    _, _, coverage, _ = ev.prepare(_untimed(["The noodle order should be delivered before 12:30"]))
    assert coverage["time"] == Counter({"checked": 1})
    _, _, coverage, _ = ev.prepare(_untimed(['The noodle order should have the note "less ice"']))
    assert coverage["note"] == Counter({"checked": 2})
    assert coverage["time"] == Counter({"checked": 1})  # as soon as possible


def test_only_pre_existing_orders_of_the_evaluators_types_are_guarded() -> None:
    raw = delivery_task().model_dump(mode="json", by_alias=True)
    raw["environment"]["orders"]["O3"] = order("O3", "S2", [("P5", 1, "")], order_type="instore")
    _, _, coverage, _ = sg.delivery_state_evaluator().prepare(VitaTask.model_validate(raw))
    assert coverage["unrequested"] == Counter({"checked": 2})


def test_an_unchecked_line_counts_for_its_own_field_class() -> None:
    # the line "time: '... at 12:30' states ..." holds more colons than the one after its class
    _, _, coverage = _prepared(_two(["The delivery should be at 12:30"]))
    assert coverage["time"] == Counter({"unchecked": 1})
    assert "unchecked" not in coverage["products"]
    # a line of no field class counts as products
    own: sg.Coverage = {}
    sg.delivery_state_evaluator().count(delivery_task(), [], ["lines: 2 unreadable"], own)
    assert own["products"] == Counter({"unchecked": 1})


def test_records_after_a_pre_existing_one_are_still_read_for_unchecked_asks() -> None:
    cancel = {**delivery_task().environment["orders"]["O1"], "status": "cancelled"}
    want = order("T1", "S1", WANT_LINES, location=None, delivery_time="2025-06-01 12:00:00")
    _, unchecked, _, _ = sg.delivery_state_evaluator().prepare(
        delivery_task(expected=[cancel, want])
    )
    assert unchecked == ["address: new order T1 has no expected delivery address"]


def test_a_cancelled_new_record_asks_no_address() -> None:
    want = order("T1", "S1", WANT_LINES, location=HOME, delivery_time="2025-06-01 12:00:00")
    dropped = order("T2", "S2", [("P4", 1, "Mild Spicy")], location=None, status="cancelled")
    _, unchecked, _, _ = sg.delivery_state_evaluator().prepare(
        delivery_task(expected=[want, dropped])
    )
    assert unchecked == []


def test_a_replaced_order_may_change_its_status_but_not_its_note() -> None:
    replacing = order(
        "O1",
        "S1",
        WANT_LINES,
        note="No green onions",
        location=HOME,
        delivery_time="2025-06-01 12:00:00",
    )
    task = delivery_task(expected=[replacing])
    (req,) = required_orders(task, frozenset({"delivery"}))
    assert (req.kind, req.target) == ("replaced", "O1")
    final = final_state(task, right_order())
    assert sg.delivery_state_evaluator().grade(task, simulation(final)).reward == 1.0
    final["orders"]["O1"]["note"] = "changed"
    result = sg.delivery_state_evaluator().grade(task, simulation(final))
    assert [c.id for c in result.criteria if not c.met] == ["no_unrequested_changes"]


def test_a_stated_time_on_an_edited_pre_existing_order_decides_its_criterion() -> None:
    o1 = {**delivery_task().environment["orders"]["O1"], "note": "less ice"}
    rubrics = [
        'Modify the note of order O1 to: "less ice"',
        "The order O1 should be delivered at 12:30",
    ]
    task = delivery_task(expected=[o1], rubrics=rubrics)
    final = final_state(task, cancel=())
    final["orders"]["O1"].update(note="less ice", delivery_time="2025-06-01 12:30:00")

    def o1_verdict() -> CriterionVerdict:
        result = sg.delivery_state_evaluator().grade(task, simulation(final))
        (verdict,) = [c for c in result.criteria if c.id.endswith(":O1")]
        return verdict

    assert o1_verdict().met
    final["orders"]["O1"]["delivery_time"] = "2025-06-01 14:00:00"
    late = o1_verdict()
    assert (late.id, late.met) == ("order[0]:O1", False)
    assert late.evidence.startswith("delivery_time 2025-06-01 14:00:00 not in ")
    assert late.description.startswith("existing delivery order O1 at S1")

"""The state grader's rules (vita/grading/state.py) pinned one by one: times and their
tolerance, addresses by text and by point, the arrival the tools would store, the closed world
of fields a record does not ask, and the constraints the rubrics state."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from _vita_builders import HOME, OFFICE, delivery_task, right_order

from lifebench.evaluation import CriterionVerdict
from lifebench.vita.grading import state as sg
from lifebench.vita.grading.constraints import Stated, Window
from lifebench.vita.grading.expected import required_orders

T = datetime(2025, 6, 1, 12, 0)  # noqa: DTZ001


def test_minutes_to_the_target_or_to_the_earliest_feasible_time() -> None:
    assert sg._minutes_late_or_early("2025-06-01 12:20:00", "2025-06-01 12:00:00", None) == 20.0
    assert sg._minutes_late_or_early("2025-06-01 11:40:00", "2025-06-01 12:00:00", None) == 20.0
    # a target before the earliest feasible time means as soon as possible
    early = datetime(2025, 6, 1, 12, 10)  # noqa: DTZ001
    assert sg._minutes_late_or_early("2025-06-01 12:20:00", "2025-06-01 12:00:00", early) == 10.0
    # a target at the earliest time stays
    assert sg._minutes_late_or_early("2025-06-01 12:20:00", "2025-06-01 12:10:00", early) == 10.0
    assert sg._minutes_late_or_early("", "2025-06-01 12:00:00", None) is None
    assert sg._minutes_late_or_early("2025-06-01 12:00:00", "soon", None) is None


def test_points_and_distances_of_places() -> None:
    assert sg._point({"longitude": "120.5", "latitude": 30}) == (120.5, 30.0)
    assert sg._point({"longitude": 120}) is None
    assert sg._point({"longitude": "east", "latitude": 30}) is None
    assert sg._point({"longitude": None, "latitude": 30}) is None
    a = {"longitude": 120.0, "latitude": 30.0}
    b = {"longitude": 120.01, "latitude": 30.0}
    assert sg._metres(a, b) == 963
    assert sg._metres(a, {"longitude": 120.0}) is None
    assert sg._metres(a, {"longitude": "x", "latitude": 30}) is None
    assert sg._metres(a, {"longitude": None, "latitude": 30}) is None


def test_known_places_are_the_users_the_orders_and_the_stores() -> None:
    task = delivery_task(rubrics=["r"])
    places = sg.known_places(task)
    assert places[sg.normalise(HOME["address"])][0] == (120.0, 30.0)
    assert places[sg.normalise(OFFICE["address"])] == [(120.05, 30.0)]
    assert places[sg.normalise("S1 Market Street, Hangzhou")] == [(120.01, 30.0)]
    # HOME is the user's place and both pre-existing orders' target
    assert len(places[sg.normalise(HOME["address"])]) == 3


def test_the_text_of_a_known_place_outweighs_a_drifted_point() -> None:
    known = {sg.normalise("Home"): [(120.0, 30.0)]}
    drifted = {"address": "Home", "longitude": 120.02, "latitude": 30.0}
    assert sg.reference_location(drifted, known) == {
        "address": "Home",
        "longitude": 120.0,
        "latitude": 30.0,
    }
    near = {"address": "Home", "longitude": 120.003, "latitude": 30.0}  # 289 m
    assert sg.reference_location(near, known) is near
    unknown = {"address": "Elsewhere", "longitude": 121.0, "latitude": 30.0}
    assert sg.reference_location(unknown, known) is unknown
    pointless = {"address": "Home"}
    assert sg.reference_location(pointless, known)["longitude"] == 120.0


def test_same_address_by_text_by_point_never_nearer_another_order_and_by_score() -> None:
    want = {"address": "Room 5, 8 Elm Road", "longitude": 120.0, "latitude": 30.0}
    assert sg.same_address({"address": " room 5, 8 elm road "}, want) == (True, "")
    near = {"address": "8 Elm Rd", "longitude": 120.002, "latitude": 30.0}
    assert sg.same_address(near, want) == (True, " (193 m away)")
    far = {"address": "8 Elm Rd", "longitude": 120.004, "latitude": 30.0}
    assert sg.same_address(far, want) == (False, " (385 m away)")
    edge = {"address": "8 Elm Rd", "longitude": 120.0031102, "latitude": 30.0}
    assert sg.same_address(edge, want) == (True, " (300 m away)")
    beyond = {"address": "8 Elm Rd", "longitude": 120.00313, "latitude": 30.0}
    assert sg.same_address(beyond, want) == (False, " (301 m away)")
    other = {"address": "Tower B", "longitude": 120.003, "latitude": 30.0}
    assert sg.same_address(near, want, [other]) == (
        False,
        " (193 m away, 96 m from 'Tower B')",
    )
    # another record at the same address, or without a point, is no rival
    twin = {"address": "room 5, 8 elm road", "longitude": 120.002, "latitude": 30.0}
    assert sg.same_address(near, want, [twin, {"address": "Tower B"}]) == (True, " (193 m away)")
    # a rival exactly as near does not win
    tie = {"address": "Tower C", "longitude": 120.004, "latitude": 30.0}
    assert sg.same_address(near, want, [tie]) == (True, " (193 m away)")
    # without points the address score decides
    assert sg.same_address({"address": "Room 5, 8 Elm Road."}, {"address": "Room 5, 8 Elm Road"})[0]
    assert not sg.same_address({"address": "Tower B, 99 Harbour Avenue"}, {"address": "8 Elm"})[0]


def test_an_arrival_must_be_dispatch_plus_shipping_within_a_minute() -> None:
    order: dict[str, Any] = {
        "dispatch_time": "2025-06-01 11:30:00",
        "delivery_time": "2025-06-01 12:05:00",
        "shipping_time": 35.0,
    }
    assert sg.arrival_mismatch(order) is None
    assert sg.arrival_mismatch({**order, "shipping_time": 34.0}) is None  # one minute is fine
    assert sg.arrival_mismatch({**order, "shipping_time": 36.5}) == (
        "delivery_time 2025-06-01 12:05:00 is not dispatch_time 2025-06-01 11:30:00 "
        "plus 36.5 min of shipping"
    )
    assert sg.arrival_mismatch({**order, "shipping_time": 33.9}) is not None
    assert sg.arrival_mismatch({**order, "shipping_time": None}) is None
    assert sg.arrival_mismatch({**order, "shipping_time": "fast"}) is None
    assert sg.arrival_mismatch({k: v for k, v in order.items() if k != "shipping_time"}) is None
    assert sg.arrival_mismatch({**order, "dispatch_time": ""}) is None
    assert sg.arrival_mismatch({**order, "delivery_time": ""}) is None


def test_a_record_without_note_times_or_address_wants_none() -> None:
    bare: dict[str, Any] = {"note": "", "location": None}
    assert sg.unexpected_fields(bare, {"note": " "}) is None
    assert sg.unexpected_fields(bare, {"note": "window seat"}) == (
        "note 'window seat' asks what the task does not ask (no note expected)"
    )
    assert sg.unexpected_fields({"note": "x"}, {"note": "window seat"}) is None
    assert sg.unexpected_fields(bare, {"dispatch_time": "2025-06-01 12:00:00"}) == (
        "dispatch_time 2025-06-01 12:00:00 where the task expects none"
    )
    assert sg.unexpected_fields(bare, {"delivery_time": "2025-06-01 12:00:00"}) == (
        "delivery_time 2025-06-01 12:00:00 where the task expects none"
    )
    timed = {"dispatch_time": "2025-06-01 11:00:00", "delivery_time": "2025-06-01 11:30:00"}
    assert sg.unexpected_fields(timed, {"delivery_time": "2025-06-01 12:00:00"}) is None
    assert sg.unexpected_fields(bare, {"location": {"address": "Home"}}) == (
        "address 'Home' where the task expects none"
    )
    assert (
        sg.unexpected_fields({"location": {"address": "Home"}}, {"location": {"address": "X"}})
        is None
    )
    assert sg.unexpected_fields(bare, {"location": {"address": ""}}) is None
    assert sg.unexpected_fields(bare, {"location": "Home"}) is None


def _window(start: str | None, end: str | None) -> Window:
    def read(v: str | None) -> datetime | None:
        return datetime.fromisoformat(v) if v else None

    return Window(read(start), read(end))


def _stated(field: str, window: Window | None = None, text: str = "") -> Stated:
    return Stated(
        field=field,  # type: ignore[arg-type]
        target="delivery",
        rubric="R",
        subject="",
        window=window,
        text=text,
    )


def test_a_stated_delivery_window_is_checked_on_the_arrival() -> None:
    noon = _stated("time", _window("2025-06-01 11:30", "2025-06-01 12:30"))
    record = {"delivery_time": "2025-06-01 12:10:00", "shipping_time": 30}
    now = datetime(2025, 6, 1, 11, 0)  # noqa: DTZ001
    assert sg.stated_mismatch([noon], record, now) is None
    late = {**record, "delivery_time": "2025-06-01 12:40:00"}
    assert sg.stated_mismatch([noon], late, now) == (
        f"delivery_time 2025-06-01 12:40:00 not in {noon.window} ('R')"
    )
    assert sg.stated_mismatch([noon], {"shipping_time": 30}, now) == (
        f"no delivery_time, while the rubrics state {noon.describe()}"
    )
    # a date is checked the same way; an appointment's window is another grader's
    day = _stated("date", _window("2025-06-02 00:00", "2025-06-02 23:59"))
    assert sg.stated_mismatch([day], record, now) is not None
    appt = Stated(field="time", target="appointment", rubric="R", subject="", window=day.window)
    assert sg.stated_mismatch([appt], record, now) is None
    assert sg.stated_mismatch([_stated("time")], record, now) is None


def test_a_window_ending_before_the_earliest_arrival_means_as_soon_as_possible() -> None:
    now = datetime(2025, 6, 1, 11, 50)  # noqa: DTZ001
    asap = _stated("time", _window(None, "2025-06-01 12:00"))
    record = {"delivery_time": "2025-06-01 12:50:00", "shipping_time": 30}
    # earliest 12:20; 30 minutes after it is still in time
    assert sg.stated_mismatch([asap], record, now) is None
    late = {**record, "delivery_time": "2025-06-01 12:51:00"}
    assert sg.stated_mismatch([asap], late, now) == (
        "delivery_time 2025-06-01 12:51:00: 'R' cannot be met, so as soon as possible "
        "(2025-06-01 12:20:00) was due"
    )
    # a shipping time that cannot be read counts as none: the earliest is the clock itself,
    # and the window is then checked as stated
    unread = {"delivery_time": "2025-06-01 11:59:00", "shipping_time": "x"}
    assert sg.stated_mismatch([asap], unread, now) is None
    assert sg.stated_mismatch([asap], {**unread, "delivery_time": "2025-06-01 12:21:00"}, now)
    # a window that ends at the earliest arrival is a window
    at = _stated("time", _window(None, "2025-06-01 12:20"))
    assert sg.stated_mismatch([at], {**record, "delivery_time": "2025-06-01 12:25:00"}, now)
    # without a clock the window is checked as stated
    assert sg.stated_mismatch([asap], record, None) is not None


def test_a_stated_note_wording_must_be_asked() -> None:
    note = _stated("note", text="no chilli")
    assert sg.stated_mismatch([note], {"note": "No chilli please"}, T) is None
    assert sg.stated_mismatch([note], {"note": None}, T) == "note '' does not ask 'no chilli' ('R')"
    assert sg.stated_mismatch([_stated("note")], {"note": ""}, T) is None


def test_a_record_states_a_time_when_either_time_is_filled() -> None:
    assert sg._record_time({"dispatch_time": "x"})
    assert sg._record_time({"delivery_time": "x", "dispatch_time": ""})
    assert not sg._record_time({"delivery_time": " ", "dispatch_time": None})


def test_quotes_are_cut_at_90_characters() -> None:
    assert sg._quote("  a   b ") == "a b"
    assert sg._quote("x" * 90) == "x" * 90
    assert sg._quote("x" * 91) == "x" * 89 + "…"


# ---- one new order against one candidate ---------------------------------------------------------


def _matcher() -> tuple[sg.OrderMatcher, Any]:
    task = delivery_task()
    (new, _) = required_orders(task, frozenset({"delivery"}))
    return sg.OrderMatcher(task), new


def test_the_matcher_names_the_first_field_that_differs() -> None:
    m, req = _matcher()
    ok = right_order()
    assert m.mismatch(req, ok) is None
    for change, why in [
        ({"order_type": "instore"}, "type instore ≠ delivery"),
        ({"store_id": "S2"}, "store S2 ≠ S1"),
        ({"products": []}, "products {} ≠ {'P1': 1, 'P2': 2}"),
        ({"status": "cancelled"}, "status cancelled does not satisfy paid"),
        ({"note": "extra rice"}, "note 'extra rice' does not ask 'No green onions'"),
        ({"user_id": "U9"}, "user U9 ≠ U1"),
        (
            {"location": OFFICE},
            f"address '{OFFICE['address']}' ≠ '{HOME['address']}' (4815 m away)",
        ),
        (
            {"delivery_time": "2025-06-01 12:40:00", "dispatch_time": "2025-06-01 12:05:00"},
            "delivery_time 2025-06-01 12:40:00 not within 30 min of 2025-06-01 12:00:00",
        ),
        (
            {"delivery_time": "2025-06-01 12:05:00", "shipping_time": 20.0},
            "delivery_time 2025-06-01 12:05:00 is not dispatch_time 2025-06-01 11:30:00 "
            "plus 20 min of shipping",
        ),
    ]:
        assert m.mismatch(req, {**ok, **change}) == why, change
    # an order without a user, or the task's user, is the user's
    assert m.mismatch(req, {**ok, "user_id": ""}) is None
    assert m.mismatch(req, {**ok, "user_id": None}) is None


def test_a_time_within_thirty_minutes_either_way_matches() -> None:
    m, req = _matcher()
    for arrival, dispatch in [
        ("2025-06-01 12:30:00", "2025-06-01 11:55:00"),
        ("2025-06-01 11:30:00", "2025-06-01 10:55:00"),
    ]:
        got = {**right_order(), "delivery_time": arrival, "dispatch_time": dispatch}
        assert m.mismatch(req, got) is None, arrival
    late = {**right_order(), "delivery_time": "2025-06-01 12:31:00"}
    late["dispatch_time"] = "2025-06-01 11:56:00"
    assert m.mismatch(req, late) is not None
    missing = {**right_order(), "delivery_time": ""}
    assert m.mismatch(req, missing) == (
        "delivery_time (none) not within 30 min of 2025-06-01 12:00:00"
    )


def test_a_basis_result_decides_reward_score_and_undecided() -> None:
    yes = CriterionVerdict(id="a", description="a", met=True)
    no = CriterionVerdict(id="b", description="b", met=False)
    r = sg.result("state", [yes, no], gradable=True)
    assert (r.reward, r.score, r.gradable, r.undecided, r.note) == (0.0, 0.5, True, False, "")
    r = sg.result("state", [yes], gradable=True, coverage={"b": {"checked": 1}, "a": {}})
    assert (r.reward, r.score, r.info) == (1.0, 1.0, {"coverage": {"a": {}, "b": {"checked": 1}}})
    r = sg.result("state", [yes], gradable=True, unchecked=["time: x"])
    assert (r.reward, r.score, r.gradable, r.undecided) == (0.0, 0.0, False, True)
    assert r.note == (
        "cannot decide: every checked criterion holds, but 1 stated constraint(s) could not be "
        "checked"
    )
    assert sg.result("state", [yes], gradable=True, unchecked=["x"], note="n").note == "n"
    # a failed criterion decides whatever is unchecked
    r = sg.result("state", [yes, no], gradable=True, unchecked=["x"])
    assert (r.reward, r.gradable, r.undecided) == (0.0, True, False)
    r = sg.result("state", [], gradable=False)
    assert (r.reward, r.score, r.info) == (0.0, 0.0, {})
    assert r.note == "ungradable: no required record this grader can check"
    assert sg.result("state", [], gradable=True).score == 0.0


def test_tally_counts_n_checks_and_skips_zero() -> None:
    cov: dict[str, Counter[str]] = {}
    sg.tally(cov, "time", "checked")
    sg.tally(cov, "time", "checked", 2)
    sg.tally(cov, "note", "unchecked", 0)
    assert cov == {"time": Counter({"checked": 3})}

"""Attribution of stated constraints (vita/grading/stated.py), rule by rule, in English and
Chinese: which record a rubric's constraint is checked on decides the state reward (a
constraint left without a record makes the state basis undecided, never a pass)."""

from __future__ import annotations

from datetime import datetime

from _vita_builders import delivery_task, order

from lifebench.vita.grading import stated as st
from lifebench.vita.grading.constraints import Stated
from lifebench.vita.task import VitaTask


def _note(subject: str, rubric: str = "", text: str = "") -> Stated:
    return Stated(
        field="note", target="delivery", rubric=rubric or subject, subject=subject, text=text
    )


def _time(subject: str, rubric: str = "") -> Stated:
    return Stated(field="time", target="delivery", rubric=rubric or subject, subject=subject)


def _cand(key: int, names: str, ids: tuple[str, ...] = ()) -> st.Candidate:
    return st.Candidate(key=key, target="delivery", ids=ids, names=names)


# ---- words ---------------------------------------------------------------------------------


def test_words_drop_filler_fold_plurals_and_pair_chinese_characters() -> None:
    assert st.words("The Noodles order for the user") == {"noodle"}
    assert st.words("glass class bus cats") == {"glass", "class", "bus", "cat"}
    assert st.words("a b 7 x1") == {"x1"}
    assert st.words("牛肉面") == {"牛肉", "肉面"}
    assert st.words("米线订单") == {"米线", "线订"}  # 订单 is filler
    assert st.words("ＮＯＯＤＬＥＳ") == {"noodle"}  # full width folded
    assert st.words("") == set()


def test_ids_are_found_only_as_whole_tokens() -> None:
    known = ["O1", "O12", ""]
    assert st._ids_in("cancel O12 now", known) == ["O12"]
    assert st._ids_in("cancel (O1).", known) == ["O1"]
    assert st._ids_in("cancel XO1 and O1x", known) == []


# ---- ids the task knows, named actions and notes -------------------------------------------


def _task(rubrics: list[str], *, books: dict[str, object] | None = None) -> VitaTask:
    task = delivery_task(rubrics=rubrics)
    raw = task.model_dump(mode="json", by_alias=True)
    if books is not None:
        raw["environment"]["books"] = books
    return VitaTask.model_validate(raw)


def _instore_ids(rubrics: list[str]) -> VitaTask:
    raw = delivery_task(rubrics=rubrics).model_dump(mode="json", by_alias=True)
    raw["environment"]["books"] = {"B7": {"book_id": "B7"}}
    raw["environment"]["reservations"] = {"R7": {"reservation_id": "R7"}}
    state = raw["evaluation_criteria"]["expected_states"][0]
    state["required_orders"] += [{"book_id": "EB1"}, {"reservation_id": "ER1"}, {"order_id": ""}]
    return VitaTask.model_validate(raw)


def test_known_ids_are_pre_existing_and_expected_record_ids() -> None:
    task = _instore_ids(["r"])
    assert st.known_ids(task) == {"O1", "O2", "T1", "B7", "R7", "EB1", "ER1"}


def test_named_actions_read_bookings_and_reservations_too() -> None:
    # a rubric naming no pre-existing record (EB1 is expected, not pre-existing) is skipped
    task = _instore_ids(["Cancel EB1", "Cancel the booking B7", "取消预约R7"])
    assert st.named_actions(task) == {"B7": {"cancel"}, "R7": {"cancel"}}


def test_named_actions_read_per_named_pre_existing_order() -> None:
    task = _task(
        [
            "Cancel the order with order_id O1.",
            "取消订单O2，然后再下单",
            "Compare O1 with O2 and cancel",  # two ids: about neither
            "Order T1 paid",  # T1 is no pre-existing record
            "O2 looks good",  # no action
        ]
    )
    assert st.named_actions(task) == {"O1": {"cancel"}, "O2": {"reorder"}}


def test_named_notes_are_kept_only_when_every_rubric_gives_the_same_wording() -> None:
    same = _task(
        [
            "Nothing about a named order here",
            "Add a note to order O2",  # no wording: nothing to compare
            'Modify the note of order O1 to: "no onions"',
            "Change the remark of O1 to: no onions",
            'Modify the note of O2 to: "extra napkins"',
            'Modify the note of O2 to: "no cutlery"',
            'The note of T1 should be "x"',
        ]
    )
    assert st.named_notes(same) == {"O1": "no onions"}


def test_the_clock_is_the_task_time_or_year_2000() -> None:
    assert st.clock(_task(["r"])) == datetime(2025, 6, 1, 11, 0)  # noqa: DTZ001
    raw = _task(["r"]).model_dump(mode="json", by_alias=True)
    raw["environment"]["time"] = "soon"
    assert st.clock(VitaTask.model_validate(raw)) == datetime(2000, 1, 1)  # noqa: DTZ001


# ---- food kinds ----------------------------------------------------------------------------


def test_kinds_of_food_a_subject_names_and_a_name_carries() -> None:
    assert st._kind_words("the beverage order") == {"#kind0"}
    assert st._kind_words("甜品订单") == {"#kind1"}
    assert st._kind_words("饮品和蛋糕") == {"#kind0", "#kind1"}
    assert st._kind_words("the noodle order") == set()
    assert st._name_kinds("Lemon Tea Shop") == {"#kind0"}
    assert st._name_kinds("Mango Pudding") == {"#kind1"}
    assert st._name_kinds("Steamed teacake") == {"#kind0"}  # "tea" starts a word
    assert st._name_kinds("Steak house") == set()  # "tea" inside a word is no cue
    assert st._name_kinds("芒果西米露") == {"#kind1"}


# ---- choosing the record ------------------------------------------------------------------


def test_an_id_named_decides_and_two_records_named_decide_nothing() -> None:
    pool = [_cand(0, "Noodles", ("O1",)), _cand(1, "Tea", ("O2",))]
    assert st._choose(_time("x"), pool, ["O2"], None) == [pool[1]]
    both = [_cand(0, "a", ("O1",)), _cand(1, "b", ("O1",))]
    assert st._choose(_time("x"), both, ["O1"], None) == []


def test_a_single_candidate_takes_the_constraint() -> None:
    pool = [_cand(3, "Tea")]
    assert st._choose(_time("the noodle order"), pool, [], None) == pool


def test_the_subject_sharing_most_words_wins_en_zh() -> None:
    pool = [_cand(0, "Beef noodles Store S1"), _cand(1, "Lemon tea Store S2")]
    assert st._choose(_time("the noodle order"), pool, [], None) == [pool[0]]
    assert st._choose(_time("the beverage order"), pool, [], None) == [pool[1]]
    zh = [_cand(0, "牛肉面 面馆"), _cand(1, "柠檬茶 茶饮店")]
    assert st._choose(_time("牛肉面订单"), zh, [], None) == [zh[0]]
    assert st._choose(_time("饮品订单"), zh, [], None) == [zh[1]]


def test_the_whole_rubric_breaks_a_tie_of_the_subject() -> None:
    pool = [_cand(0, "Beef noodles spicy"), _cand(1, "Beef noodles mild")]
    stated = _time("the beef noodles", "the beef noodles (mild) should arrive at 12:00")
    assert st._choose(stated, pool, [], None) == [pool[1]]


def test_a_tie_is_broken_by_the_record_that_agrees_or_left_unattributed() -> None:
    pool = [_cand(0, "Beef noodles"), _cand(1, "Beef noodles")]
    stated = _time("the beef noodles")
    assert st._choose(stated, pool, [], None) == []
    assert st._choose(stated, pool, [], lambda s, c: c.key == 1) == [pool[1]]
    assert st._choose(stated, pool, [], lambda s, c: True) == pool
    assert st._choose(stated, pool, [], lambda s, c: False) == []
    # no word shared at all: every candidate ties
    none = [_cand(0, "Tea"), _cand(1, "Rice")]
    assert st._choose(_time("the dinner"), none, [], lambda s, c: c.key == 0) == [none[0]]


# ---- attribute_all ---------------------------------------------------------------------------


def _two_orders(rubrics: list[str]) -> VitaTask:
    expected = [
        order("T1", "S1", [("P1", 1, "Mild Spicy")], delivery_time="2025-06-01 12:00:00"),
        order("T2", "S2", [("P8", 1, "")], delivery_time="2025-06-01 12:00:00"),
    ]
    return delivery_task(expected=expected, orders={}, rubrics=rubrics)


def _cands() -> list[st.Candidate]:
    return [
        _cand(0, "Store S1 Beef noodles", ("T1",)),
        _cand(1, "Store S2 Lemon tea", ("T2",)),
    ]


def test_attribute_all_by_subject_and_by_id_and_identical_constraints_once() -> None:
    task = _two_orders(
        [
            "The noodle order should be delivered at 12:00",
            "The noodle order should be delivered at 12:00",
            "Order T2 should be delivered at 12:30",
        ]
    )
    got = st.attribute_all(task, _cands(), frozenset({"delivery"}), notes=False)
    assert [s.rubric for s in got.of(0)] == ["The noodle order should be delivered at 12:00"]
    assert [s.rubric for s in got.of(1)] == ["Order T2 should be delivered at 12:30"]
    assert got.unattributed == []
    assert got.of(5) == []


def test_notes_are_read_only_when_asked_and_may_concern_any_record() -> None:
    task = _two_orders(['The note of the tea order should be "less ice"'])
    off = st.attribute_all(task, _cands(), frozenset({"delivery"}), notes=False)
    assert off.by_key == {} and off.unattributed == []
    on = st.attribute_all(task, _cands(), frozenset({"delivery"}), notes=True)
    assert [s.field for s in on.of(1)] == ["note"]


def test_a_rubric_about_a_record_no_candidate_holds_is_skipped() -> None:
    task = _two_orders(["Order O1 should be delivered at 12:30"])
    raw = task.model_dump(mode="json", by_alias=True)
    raw["environment"]["orders"] = {"O1": order("O1", "S1", [("P3", 1, "")])}
    got = st.attribute_all(
        VitaTask.model_validate(raw), _cands(), frozenset({"delivery"}), notes=False
    )
    assert got.by_key == {} and got.unattributed == []


def test_an_unattributable_constraint_is_left_unattributed() -> None:
    task = _two_orders(
        ["The lunch should be delivered at 12:00", "The dinner should be delivered at 18:00"]
    )
    got = st.attribute_all(task, _cands(), frozenset({"delivery"}), notes=False)
    assert got.by_key == {}
    assert sorted(s.rubric for s in got.unattributed) == [
        "The dinner should be delivered at 18:00",
        "The lunch should be delivered at 12:00",
    ]


def test_elimination_gives_one_statement_to_every_free_record() -> None:
    task = _two_orders(
        ["The lunch should be delivered at 12:00", "The meal should be delivered at 12:00"]
    )
    got = st.attribute_all(task, _cands(), frozenset({"delivery"}), notes=False)
    assert got.unattributed == []
    # both say the same thing: each free record gets every statement of it
    assert len(got.of(0)) == 2 and len(got.of(1)) == 2


def test_elimination_needs_as_many_subjects_as_free_records() -> None:
    task = _two_orders(["The lunch should be delivered at 12:00"])
    got = st.attribute_all(task, _cands(), frozenset({"delivery"}), notes=False)
    assert got.by_key == {}
    assert [s.rubric for s in got.unattributed] == ["The lunch should be delivered at 12:00"]


def test_coreference_through_another_rubric_naming_the_store() -> None:
    task = _two_orders(
        [
            "The lunch order should be from Store S2",
            "The lunch should be delivered at 12:30",
            "The dinner should be delivered at 18:00",
        ]
    )
    got = st.attribute_all(task, _cands(), frozenset({"delivery"}), notes=False)
    assert [s.rubric for s in got.of(1)] == ["The lunch should be delivered at 12:30"]
    # then the one statement left goes to the one record left
    assert [s.rubric for s in got.of(0)] == ["The dinner should be delivered at 18:00"]
    assert got.unattributed == []


# ---- names of a record ------------------------------------------------------------------------


def test_record_names_are_the_provider_its_tags_and_the_products() -> None:
    task = delivery_task(rubrics=["r"])
    raw = task.model_dump(mode="json", by_alias=True)
    raw["environment"]["stores"]["S1"]["tags"] = ["Noodle bar"]
    task = VitaTask.model_validate(raw)
    record = {
        "order_type": "delivery",
        "products": [{"product_id": "P2", "name": "Cold tea", "tags": ["summer"]}, "junk"],
    }
    names = st.record_names(task, record, "S1")
    assert names == "Store S1 Noodle bar S1 Cold tea summer Tea Store S1 P2"
    assert st.record_names(task, {"order_type": "delivery", "products": "x"}, "S9") == ""
    # an unknown order type reads the shops table
    assert st.record_names(task, {"order_type": "?"}, "S1") == ""


def test_rubrics_of_every_state_then_overall_without_duplicates_or_blanks() -> None:
    raw = delivery_task(rubrics=["a"]).model_dump()
    raw["evaluation_criteria"]["expected_states"].append(
        {"required_orders": [], "state_rubrics": ["b", "a", " "]}
    )
    raw["evaluation_criteria"]["overall_rubrics"] = ["c", "b"]
    assert st.rubrics(VitaTask.model_validate(raw)) == ["a", "b", "c"]
    raw["evaluation_criteria"] = None
    assert st.rubrics(VitaTask.model_validate(raw)) == []
    assert st.known_ids(VitaTask.model_validate(raw)) == {"O1", "O2"}


# ---- co-reference, rule by rule ----------------------------------------------------------------


def _appt(key: int, names: str) -> st.Candidate:
    return st.Candidate(key=key, target="appointment", ids=(), names=names)


def test_coreference_votes_for_the_record_another_rubric_names_beside_the_subject() -> None:
    lunch = _time("the lunch", "The lunch should be delivered at 12:30")
    pool = [_cand(0, "Store S1 Beef noodles"), _cand(1, "Store S2 Lemon tea")]
    texts = [lunch.rubric, "The lunch is the beef noodles"]
    assert st._coreferent(lunch, [lunch], pool, texts) == pool[0]
    # the rubric itself is no vote, and one that does not hold the subject is skipped
    assert st._coreferent(lunch, [lunch], pool, [lunch.rubric]) is None
    texts = [lunch.rubric, "The dinner is the lemon tea", "The lunch is the beef noodles"]
    assert st._coreferent(lunch, [lunch], pool, texts) == pool[0]


def test_coreference_takes_a_rubric_whose_words_are_just_the_subject() -> None:
    lunch = _time("the lunch tea", "The lunch tea should be delivered at 12:30")
    pool = [_cand(0, "Store S1 Beef noodles"), _cand(1, "Store S2 Lemon soda")]
    # "lunch tea" holds no word beyond the subject: the kind of food it names still votes
    assert st._coreferent(lunch, [lunch], pool, [lunch.rubric, "lunch tea"]) == pool[1]


def test_coreference_needs_a_name_word_and_a_single_best() -> None:
    lunch = _time("the lunch", "The lunch should be delivered at 12:30")
    only = [_cand(0, "Store S1 Beef noodles")]
    assert st._coreferent(lunch, [lunch], only, [lunch.rubric, "The lunch is great"]) is None
    tie = [_cand(0, "Beef noodles"), _cand(1, "Beef noodles")]
    assert st._coreferent(lunch, [lunch], tie, [lunch.rubric, "the lunch: beef noodles"]) is None
    # two rubrics voting for different records decide nothing
    pool = [_cand(0, "Beef noodles"), _cand(1, "Lemon tea")]
    texts = [lunch.rubric, "the lunch: beef noodles", "the lunch: lemon tea"]
    assert st._coreferent(lunch, [lunch], pool, texts) is None


def test_coreference_uses_only_the_subjects_distinctive_words_within_its_class() -> None:
    lunch = _time("the office lunch", "The office lunch should arrive at 12:30")
    other = _time("the home lunch", "The home lunch should arrive at 13:00")
    pool = [_cand(0, "Beef noodles"), _cand(1, "Lemon tea")]
    texts = [lunch.rubric, other.rubric, "the lunch at home: lemon tea", "office: beef noodles"]
    # "lunch" is shared with another subject of the class: only "office" identifies it
    assert st._coreferent(lunch, [lunch, other], pool, texts) == pool[0]
    # a note about "the home lunch" or an appointment is of another class: "lunch" stays
    note = _note("the home lunch")
    appt = Stated(field="time", target="appointment", rubric="x", subject="the home lunch")
    assert st._coreferent(lunch, [lunch, note, appt], pool, texts) is None
    # a subject left with no distinctive word has no co-referent
    same = _time("the lunch", "The lunch should arrive at 12:30")
    assert st._coreferent(same, [same, _time("the lunch party")], pool, texts) is None


def test_coreference_of_a_time_looks_only_at_records_of_its_kind_a_note_at_every_record() -> None:
    lunch = _time("the lunch", "The lunch should be delivered at 12:30")
    pool = [_appt(0, "Beef noodles"), _cand(1, "Lemon tea")]
    texts = [lunch.rubric, "The lunch is the beef noodles"]
    assert st._coreferent(lunch, [lunch], pool, texts) is None
    note = _note("the lunch", "The lunch should have a note")
    assert (
        st._coreferent(note, [note], pool, [note.rubric, "The lunch is the beef noodles"])
        == (pool[0])
    )


def test_coreference_with_one_record_of_the_kind_votes_for_it_when_named() -> None:
    lunch = _time("the lunch", "The lunch should be delivered at 12:30")
    only = [_cand(4, "Store S1 Beef noodles")]
    texts = [lunch.rubric, "The lunch is the beef noodles"]
    assert st._coreferent(lunch, [lunch], only, texts) == only[0]


def test_elimination_needs_one_statement_and_never_takes_notes() -> None:
    task = _two_orders(
        ["The lunch should be delivered at 12:00", "The meal should be delivered at 12:30"]
    )
    got = st.attribute_all(task, _cands(), frozenset({"delivery"}), notes=False)
    assert got.by_key == {} and len(got.unattributed) == 2
    notes = _two_orders(
        ['The lunch should have the note "less ice"', 'The meal should have the note "less ice"']
    )
    got = st.attribute_all(notes, _cands(), frozenset({"delivery"}), notes=True)
    assert got.by_key == {} and len(got.unattributed) == 2


def test_elimination_counts_only_records_still_without_that_class() -> None:
    task = _two_orders(
        ["The noodle order should be delivered at 12:00", "The lunch should be delivered at 12:30"]
    )
    got = st.attribute_all(task, _cands(), frozenset({"delivery"}), notes=False)
    assert [s.rubric for s in got.of(0)] == ["The noodle order should be delivered at 12:00"]
    assert [s.rubric for s in got.of(1)] == ["The lunch should be delivered at 12:30"]
    assert got.unattributed == []


def test_a_rubric_naming_two_required_records_is_about_neither() -> None:
    task = _two_orders(["Order T1 and T2 should be delivered at 12:00"])
    got = st.attribute_all(task, _cands(), frozenset({"delivery"}), notes=False)
    assert got.by_key == {}
    assert [s.rubric for s in got.unattributed] == ["Order T1 and T2 should be delivered at 12:00"]


def test_filler_pairs_are_dropped_anywhere_in_a_chinese_run() -> None:
    assert st.words("订单米线") == {"单米", "米线"}
    assert st.words("米线订单送达") == {"米线", "线订", "单送"}


def test_the_kind_a_subject_names_outweighs_the_rest_of_the_rubric() -> None:
    pool = [_cand(0, "Beef noodles"), _cand(1, "Lemon tea")]
    stated = _time("the beverage", "the beverage should come with the beef noodles at 12:00")
    assert st._choose(stated, pool, [], None) == [pool[1]]
    zh = [_cand(0, "牛肉面"), _cand(1, "柠檬茶")]
    stated = _time("饮品", "饮品要和牛肉面一起在12:00送达")
    assert st._choose(stated, zh, [], None) == [zh[1]]


def test_agreement_breaks_a_tie_only_among_the_tied_and_only_when_unanimous_or_single() -> None:
    pool = [_cand(0, "Beef noodles"), _cand(1, "Beef noodles"), _cand(2, "Lemon tea")]
    stated = _time("the beef noodles")
    # the tea order agrees too, but it is not among the tied noodle orders
    assert st._choose(stated, pool, [], lambda s, c: c.key in {1, 2}) == [pool[1]]
    three = [_cand(0, "Beef noodles"), _cand(1, "Beef noodles"), _cand(2, "Beef noodles")]
    assert st._choose(stated, three, [], lambda s, c: c.key != 0) == []
    assert st._choose(stated, three, [], lambda s, c: True) == three


def test_a_subject_word_counts_only_when_the_rubric_shares_a_word_with_the_record() -> None:
    pool = [_cand(0, "Beef noodles"), _cand(1, "Lemon tea")]
    stated = Stated(field="time", target="delivery", rubric="at 12:00", subject="noodles")
    assert st._choose(stated, pool, [], None) == []


def test_a_record_of_no_known_order_type_is_named_from_the_shops() -> None:
    raw = delivery_task(rubrics=["r"]).model_dump(mode="json", by_alias=True)
    raw["environment"]["shops"] = {"H1": {"name": "Lotus Spa", "tags": ["massage"]}}
    task = VitaTask.model_validate(raw)
    assert st.record_names(task, {"products": []}, "H1") == "Lotus Spa massage H1"
    assert st.record_names(task, {"order_type": "", "products": []}, "H1") == (
        "Lotus Spa massage H1"
    )


def test_attribute_all_looks_for_a_time_among_records_of_its_kind_a_note_among_all() -> None:
    cands = [_appt(0, "Beef noodles"), _cand(1, "Lemon tea")]
    timed = _two_orders(["The noodle order should be delivered at 12:00"])
    got = st.attribute_all(timed, cands, frozenset({"delivery"}), notes=False)
    assert list(got.by_key) == [1]
    noted = _two_orders(['The note of the noodle order should be "less ice"'])
    got = st.attribute_all(noted, cands, frozenset({"delivery"}), notes=True)
    assert list(got.by_key) == [0]


def test_attribute_all_breaks_ties_with_the_record_that_agrees() -> None:
    task = _two_orders(["The noodle order should be delivered at 12:00"])
    tied = [_cand(0, "Beef noodles"), _cand(1, "Beef noodles")]
    got = st.attribute_all(
        task, tied, frozenset({"delivery"}), notes=False, agrees=lambda s, c: c.key == 1
    )
    assert list(got.by_key) == [1] and got.unattributed == []
    got = st.attribute_all(task, tied, frozenset({"delivery"}), notes=False)
    assert got.by_key == {} and len(got.unattributed) == 1


def test_a_constraint_stated_twice_about_one_record_counts_once_a_different_one_twice() -> None:
    same = _two_orders(
        [
            "The noodle order should be delivered at 12:00",
            "The beef noodles should be delivered at 12:00",
        ]
    )
    got = st.attribute_all(same, _cands(), frozenset({"delivery"}), notes=False)
    assert [s.rubric for s in got.of(0)] == ["The noodle order should be delivered at 12:00"]
    other = _two_orders(
        [
            "The noodle order should be delivered at 12:00",
            "The noodle order should be delivered at 12:40",
        ]
    )
    got = st.attribute_all(other, _cands(), frozenset({"delivery"}), notes=False)
    assert len(got.of(0)) == 2


def test_a_repeated_constraint_does_not_hide_the_rest_of_its_rubric() -> None:
    task = _two_orders(
        [
            "The noodle order should be delivered at 12:00",
            'The noodle order should be delivered at 12:00 with the note "less ice"',
        ]
    )
    got = st.attribute_all(task, _cands(), frozenset({"delivery"}), notes=True)
    assert [s.field for s in got.of(0)] == ["time", "note"]


def test_elimination_weighs_only_statements_of_the_same_class() -> None:
    task = _two_orders(
        [
            "The noodle order should be delivered at 12:00",
            "The lunch should be delivered at 12:30",
            'The meal should have the note "less ice"',
        ]
    )
    got = st.attribute_all(task, _cands(), frozenset({"delivery"}), notes=True)
    assert [s.rubric for s in got.of(1)] == ["The lunch should be delivered at 12:30"]
    assert [s.field for s in got.unattributed] == ["note"]


def test_a_named_note_is_read_beside_a_stated_delivery_time() -> None:
    task = _task(['Modify the note of order O1 to: "no onions", delivered at 12:00'])
    assert st.named_notes(task) == {"O1": "no onions"}


def test_a_named_note_needs_a_note_wording() -> None:
    assert st.named_notes(_task(["Add a note to order O1"])) == {}


def test_named_notes_read_no_ids_from_orders_that_are_not_a_table() -> None:
    # an orders value that is a list (not id → record) names no pre-existing order: a rubric
    # naming "O1" is then about no record, in English and in Chinese
    for rubric in ['Modify the note of order O1 to: "no onions"', "把订单O1的备注改为：不要洋葱"]:
        raw = _task([rubric]).model_dump(mode="json", by_alias=True)
        assert st.named_notes(VitaTask.model_validate(raw)) != {}
        raw["environment"]["orders"] = ["O1", "O2"]
        assert st.named_notes(VitaTask.model_validate(raw)) == {}

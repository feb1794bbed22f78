"""TravelBench rows (issue 21): every problem of a file is one line naming the line, the task
and the field, with the exact message; the subset each row gets; the folder of the three
official files; the bundled rows. Pinned by the message and the tasks a user gets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lifebench.errors import InputError
from lifebench.travel.loader import (
    OFFICIAL_TRACE_ID,
    infer_subset,
    keyed_by_subset,
    load_bundled,
    load_folder,
    load_tasks,
    parse_rows,
    subset_of_file,
)

ROW: dict[str, Any] = {
    "trace_id": "7",
    "time": "2025-10-24 10:00",
    "query": "附近的咖啡",
    "context": "latitude: 30.25\nlongitude: 120.16",
}


def _problems(*rows: Any) -> list[str]:
    with pytest.raises(InputError) as caught:
        parse_rows(list(enumerate(rows, start=1)), file="rows.jsonl")
    assert caught.value.file == "rows.jsonl"
    head, *lines = str(caught.value).split("\n")
    listed = [line for line in lines if not line.startswith("  ... and ")]
    more = sum(int(line.split()[2]) for line in lines if line.startswith("  ... and "))
    assert head == f"file rows.jsonl: {len(listed) + more} problem(s):"
    assert all(line.startswith("  ") for line in lines)
    return [line[2:] for line in lines]


def _one(row: Any) -> str:
    (line,) = _problems(row)
    return line


@pytest.mark.parametrize("field", ["trace_id", "time", "query"])
def test_a_required_field_that_is_missing(field: str) -> None:
    row = {k: v for k, v in ROW.items() if k != field}
    task = " (task 7)" if field != "trace_id" else ""
    assert _one(row) == f"line 1{task}: field {field}: missing"


@pytest.mark.parametrize(
    ("field", "value", "kind"),
    [
        ("time", 20251024, "int"),
        ("query", ["a"], "list"),
        ("context", 3.5, "float"),
        ("intent", True, "bool"),
        ("primary_intent", {"a": 1}, "dict"),
        ("user_profile", 1, "int"),
        ("trace_id", 1.0, "float"),
        ("trace_id", False, "bool"),
    ],
)
def test_a_text_field_that_is_no_string(field: str, value: Any, kind: str) -> None:
    lines = _problems({**ROW, field: value})
    where = f"line 1 (task {value})" if field == "trace_id" else "line 1 (task 7)"
    assert f"{where}: field {field}: must be a string, got {kind}" in lines


def test_a_null_text_field_is_no_string_but_absent_context_and_profile_are_empty() -> None:
    assert _one({**ROW, "intent": None}) == (
        "line 1 (task 7): field intent: must be a string, got NoneType"
    )
    assert _one({**ROW, "context": None}) == (
        "line 1 (task 7): field context: must be a string, got NoneType"
    )
    row = {k: v for k, v in ROW.items() if k != "context"}
    (task,) = parse_rows([(1, row)], file="f")
    assert (task.context, task.user_profile) == ("", "")


@pytest.mark.parametrize("flag", ["missing_tool", "missing_info", "no_actionable"])
def test_an_unsolvable_flag_must_be_true_or_false(flag: str) -> None:
    assert _one({**ROW, flag: 1}) == f"line 1 (task 7): field {flag}: must be true or false, got 1"
    assert _one({**ROW, flag: "yes"}) == (
        f"line 1 (task 7): field {flag}: must be true or false, got 'yes'"
    )
    (task,) = parse_rows([(1, {**ROW, flag: False})], file="f")
    assert getattr(task, flag) is False and task.subset == "single"


@pytest.mark.parametrize("value", [True, "3", [3]])
def test_the_reference_tool_calls_must_be_a_number(value: Any) -> None:
    assert _one({**ROW, "avg_tool_calls": value}) == (
        f"line 1 (task 7): field avg_tool_calls: must be a number, got {value!r}"
    )


@pytest.mark.parametrize("value", [3, 2.5, None])
def test_a_number_or_null_is_a_reference_tool_call_count(value: Any) -> None:
    (task,) = parse_rows([(1, {**ROW, "avg_tool_calls": value})], file="f")
    assert task.avg_tool_calls == value


def test_a_number_the_row_model_refuses_is_reported_with_its_field() -> None:
    assert _one({**ROW, "avg_tool_calls": 10**400}) == (
        "line 1 (task 7): field avg_tool_calls: Input should be a valid number"
    )


def test_an_unknown_subset_or_language() -> None:
    assert _one({**ROW, "subset": "double"}) == (
        "line 1 (task 7): field subset: must be one of single, multi, unsolvable, got 'double'"
    )
    assert _one({**ROW, "language": "fr"}) == (
        "line 1 (task 7): field language: must be zh or en, got 'fr'"
    )


def test_a_time_in_another_format_and_an_empty_query() -> None:
    assert _one({**ROW, "time": "24/10/2025"}) == (
        "line 1 (task 7): field time: time must look like 'YYYY-MM-DD HH:MM', got '24/10/2025'"
    )
    assert _one({**ROW, "query": " \n"}) == "line 1 (task 7): field query: is empty"
    (task,) = parse_rows([(1, {**ROW, "time": "2025-10-24 10:00:30"})], file="f")
    assert task.time == "2025-10-24 10:00:30"


def test_every_problem_of_a_row_is_listed_in_field_order() -> None:
    row = {"trace_id": 5, "time": 1, "missing_tool": 0, "language": "de", "query": ""}
    assert _problems(row) == [
        "line 1 (task 5): field time: must be a string, got int",
        "line 1 (task 5): field missing_tool: must be true or false, got 0",
        "line 1 (task 5): field language: must be zh or en, got 'de'",
        "line 1 (task 5): field query: is empty",
    ]


def test_a_row_that_is_no_object() -> None:
    assert _one(["a"]) == "line 1: expected a JSON object, got list"


def test_a_multi_turn_row_needs_a_profile() -> None:
    expected = (
        "line 1 (task 7): field user_profile: a multi-turn row needs the user's profile (the "
        "simulated user plays it); without one the user would be made up"
    )
    assert _one({**ROW, "subset": "multi", "user_profile": "  "}) == expected
    assert _one({**ROW, "subset": "multi"}) == expected
    (task,) = parse_rows([(1, {**ROW, "user_profile": "一位旅客"})], file="f")
    assert task.subset == "multi"


def test_a_duplicate_id_names_the_first_line() -> None:
    lines = _problems(ROW, {**ROW, "trace_id": "8"}, {**ROW, "trace_id": 7})
    assert lines == ["line 3 (task 7): field trace_id: duplicate id '7' (first on line 1)"]


def test_a_row_with_problems_does_not_take_its_id() -> None:
    bad = {**ROW, "time": "later"}
    with pytest.raises(InputError) as caught:
        parse_rows([(1, bad), (2, ROW)], file="f")
    assert "duplicate" not in str(caught.value)
    assert "1 problem(s)" in str(caught.value)


def test_at_most_25_problems_are_listed_then_how_many_more() -> None:
    rows = [{**ROW, "trace_id": str(i), "time": "x"} for i in range(1, 28)]
    lines = _problems(*rows)
    assert len(lines) == 26
    assert lines[0].startswith("line 1 (task 1): field time:")
    assert lines[24].startswith("line 25 (task 25): field time:")
    assert lines[25] == "... and 2 more"
    with pytest.raises(InputError) as caught:
        parse_rows(list(enumerate(rows[:25], start=1)), file="f")
    text = str(caught.value)
    assert text.startswith("file f: 25 problem(s):") and "more" not in text


def test_a_file_without_rows() -> None:
    with pytest.raises(InputError) as caught:
        parse_rows([], file="empty.jsonl")
    assert str(caught.value) == "file empty.jsonl: no rows"


def test_the_language_comes_from_the_query_and_the_context() -> None:
    def language(**row: Any) -> str:
        (task,) = parse_rows([(1, {"trace_id": "1", "time": ROW["time"], **row})], file="f")
        return task.language

    assert language(query="coffee nearby", context="杭州") == "zh"
    assert language(query="附近", context="Hangzhou") == "zh"
    assert language(query="coffee nearby", context="Hangzhou") == "en"
    assert language(query="coffee nearby") == "en"
    assert language(query="附近的咖啡", language="en") == "en"


@pytest.mark.parametrize(
    ("name", "subset"),
    [
        ("MULTI_TURN.JSONL", "multi"),
        ("dir/Unsolve.json", "unsolvable"),
        ("single_turn.jsonl", "single"),
        ("multi_single.jsonl", "multi"),
        ("unsolve_single.jsonl", "unsolvable"),
        ("rows.jsonl", None),
    ],
)
def test_the_subset_a_file_name_declares(name: str, subset: str | None) -> None:
    assert subset_of_file(name) == subset
    assert subset_of_file(Path(name)) == subset


def test_no_file_declares_no_subset() -> None:
    assert subset_of_file(None) is None


def test_the_subset_of_a_row_in_order_of_precedence() -> None:
    assert infer_subset({"subset": "unsolvable", "user_profile": "p"}, "multi") == "unsolvable"
    assert infer_subset({"subset": "other"}, "multi") == "multi"
    assert infer_subset({"user_profile": "p", "missing_info": True}) == "multi"
    assert infer_subset({"user_profile": "", "no_actionable": True}) == "unsolvable"
    assert infer_subset({"missing_tool": 1}) == "single"
    assert infer_subset({"missing_tool": False, "missing_info": False}) == "single"
    for flag in ("missing_tool", "missing_info", "no_actionable"):
        assert infer_subset({flag: True}) == "unsolvable"


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def test_a_file_gives_its_subset_unless_the_caller_names_one(tmp_path: Path) -> None:
    path = _write(tmp_path / "multi_turn.jsonl", [{**ROW, "user_profile": "p"}])
    assert [t.subset for t in load_tasks(path)] == ["multi"]
    assert [t.subset for t in load_tasks(path, "single")] == ["single"]
    rows = _write(tmp_path / "rows.jsonl", [{**ROW, "missing_info": True}])
    assert [t.subset for t in load_tasks(rows)] == ["unsolvable"]


def test_a_task_file_that_is_missing_is_named(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        load_tasks(tmp_path / "nowhere.jsonl")
    assert str(caught.value) == f"file {tmp_path / 'nowhere.jsonl'}: no such task file"


def test_a_row_file_holding_a_json_array_is_read(tmp_path: Path) -> None:
    path = tmp_path / "rows.json"
    path.write_text(json.dumps([ROW, {**ROW, "trace_id": "8"}], ensure_ascii=False), "utf-8")
    assert [t.id for t in load_tasks(path)] == ["7", "8"]


def test_problems_of_a_file_name_its_lines(tmp_path: Path) -> None:
    path = _write(tmp_path / "rows.jsonl", [ROW, {**ROW, "trace_id": "8", "time": "x"}])
    with pytest.raises(InputError) as caught:
        load_tasks(path)
    assert caught.value.file == str(path)
    assert "\n  line 2 (task 8): field time: " in str(caught.value)


def test_keyed_by_subset_prefixes_the_id_once() -> None:
    (task,) = parse_rows([(1, ROW)], file="f", file_subset="unsolvable")
    keyed = keyed_by_subset(task)
    assert (keyed.id, getattr(keyed, OFFICIAL_TRACE_ID)) == ("unsolvable-7", "7")
    assert keyed_by_subset(keyed) is keyed
    assert keyed.query == task.query and keyed.subset == "unsolvable"


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "official"
    folder.mkdir()
    _write(folder / "single_turn.jsonl", [ROW])
    _write(folder / "multi_turn.jsonl", [{**ROW, "user_profile": "p"}])
    _write(folder / "unsolve.jsonl", [{**ROW, "missing_tool": True}])
    return folder


def test_a_folder_takes_only_json_files_and_no_subfolders(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (folder / "single_notes.txt").write_text("not rows", "utf-8")
    (folder / "single_old.jsonl.bak").write_text("not rows", "utf-8")
    (folder / "multi_archive").mkdir()
    (folder / "readme.jsonl").write_text("not rows", "utf-8")
    tasks = load_folder(folder)
    assert [t.id for t in tasks] == ["single-7", "multi-7", "unsolvable-7"]
    single_json = folder / "single_turn.jsonl"
    single_json.rename(folder / "single_turn.json")
    assert [t.id for t in load_tasks(folder)] == ["single-7", "multi-7", "unsolvable-7"]


def test_a_folder_missing_several_subsets_names_them_all(tmp_path: Path) -> None:
    folder = tmp_path / "partial"
    folder.mkdir()
    _write(folder / "multi_turn.jsonl", [{**ROW, "user_profile": "p"}])
    with pytest.raises(InputError) as caught:
        load_folder(folder)
    assert str(caught.value) == (
        f"file {folder}: no single / unsolvable file in the folder; it needs the three "
        "official files (single_turn.jsonl, multi_turn.jsonl, unsolve.jsonl: names holding "
        "single, multi and unsolv)"
    )


def test_a_folder_with_two_files_of_subsets_names_them(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    _write(folder / "single_turn_b.jsonl", [ROW])
    _write(folder / "unsolve_b.json", [{**ROW, "missing_tool": True}])
    with pytest.raises(InputError) as caught:
        load_folder(folder)
    assert str(caught.value) == (
        f"file {folder}: several files of one subset (single: single_turn.jsonl, "
        "single_turn_b.jsonl; unsolvable: unsolve.jsonl, unsolve_b.json); keep one each"
    )


def test_bundled_rows_of_an_unknown_language_are_refused_naming_the_option() -> None:
    with pytest.raises(InputError) as caught:
        load_bundled("fr")
    assert str(caught.value) == "field --language: no bundled travel rows in language 'fr'"


def test_bundled_rows_carry_their_subset_and_language() -> None:
    tasks = load_bundled("en")
    assert tasks and all(t.language == "en" for t in tasks)
    by_subset: dict[str, list[str]] = {}
    for t in tasks:
        by_subset.setdefault(t.subset, []).append(t.id)
    assert list(by_subset) == ["single", "multi", "unsolvable"]
    for subset, ids in by_subset.items():
        assert all(i.startswith(f"{subset}-") for i in ids)


def test_every_row_is_checked_after_a_row_that_fails() -> None:
    """A row that is no object, a multi-turn row without a profile, a row the model refuses
    and a duplicate id each leave the rows after them checked."""
    multi = {**ROW, "subset": "multi"}
    assert _problems(
        ["a"],
        {**ROW, "trace_id": "1", "subset": "multi"},
        {**multi, "trace_id": "2"},
        {**ROW, "trace_id": "3", "avg_tool_calls": 10**400},
        {**ROW, "trace_id": "4", "avg_tool_calls": 10**400},
        {**ROW, "trace_id": "5"},
        {**ROW, "trace_id": "5"},
        {**ROW, "trace_id": "5"},
        ["b"],
    ) == [
        "line 1: expected a JSON object, got list",
        "line 2 (task 1): field user_profile: a multi-turn row needs the user's profile (the "
        "simulated user plays it); without one the user would be made up",
        "line 3 (task 2): field user_profile: a multi-turn row needs the user's profile (the "
        "simulated user plays it); without one the user would be made up",
        "line 4 (task 3): field avg_tool_calls: Input should be a valid number",
        "line 5 (task 4): field avg_tool_calls: Input should be a valid number",
        "line 7 (task 5): field trace_id: duplicate id '5' (first on line 6)",
        "line 8 (task 5): field trace_id: duplicate id '5' (first on line 6)",
        "line 9: expected a JSON object, got list",
    ]


def test_a_row_without_context_or_profile_is_the_row_with_empty_ones() -> None:
    row = {k: v for k, v in ROW.items() if k != "context"}
    (bare,) = parse_rows([(1, row)], file="f")
    (full,) = parse_rows([(1, {**row, "context": "", "user_profile": ""})], file="f")
    assert bare == full
    assert bare.model_dump() == full.model_dump()
    assert bare.content_hash() == full.content_hash()
    assert not bare.model_extra


def test_a_file_name_declares_the_subset_of_rows_without_one(tmp_path: Path) -> None:
    path = _write(tmp_path / "unsolve.jsonl", [ROW])
    assert [t.subset for t in load_tasks(path)] == ["unsolvable"]


def test_one_pretty_printed_row_is_refused_as_a_row_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "rows.json"
    path.write_text(json.dumps(ROW, ensure_ascii=False, indent=2), "utf-8")
    with pytest.raises(InputError) as caught:
        load_tasks(path)
    assert str(caught.value) == (
        f"file {path}: expected a JSON array of rows or JSON Lines (one row per line), got a "
        "single JSON object written over several lines"
    )


def _bundled(monkeypatch: pytest.MonkeyPatch, rows: dict[str, list[dict[str, Any]]]) -> None:
    from lifebench.travel import data

    monkeypatch.setattr(data, "available", lambda: [(s, "en") for s in rows])
    monkeypatch.setattr(data, "load_bundled_rows", lambda subset, language: rows[subset])


def test_bundled_rows_get_their_subset_position_and_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bare = {k: v for k, v in ROW.items() if k != "trace_id"}
    _bundled(
        monkeypatch,
        {
            "single": [{**bare, "query": "coffee", "context": ""}, {**ROW, "trace_id": "x9"}],
            "unsolvable": [{**ROW, "trace_id": "3", "subset": "single", "language": "zh"}],
        },
    )
    tasks = load_bundled("en")
    assert [(t.id, t.subset, t.language) for t in tasks] == [
        ("single-1", "single", "en"),
        ("single-x9", "single", "en"),
        ("unsolvable-3", "single", "zh"),  # a row's own subset and language are kept
    ]
    assert all(not t.model_extra for t in tasks)


def test_a_bundled_row_with_a_problem_names_the_set_and_its_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _bundled(monkeypatch, {"multi": [{**ROW, "user_profile": "p"}, {**ROW, "time": "soon"}]})
    with pytest.raises(InputError) as caught:
        load_bundled("en")
    assert caught.value.file == "(bundled multi.en)"
    assert "\n  line 2 (task multi-7): field time: " in str(caught.value)

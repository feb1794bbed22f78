"""TravelBench rows: an integer trace id is an id (a boolean is not), and JSON Lines text (the
bundled data files) is read with the file name and subset it is given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lifebench.errors import InputError
from lifebench.travel.loader import load_tasks, parse_row_texts

ROW = {
    "trace_id": "7",
    "time": "2025-10-24 10:00",
    "query": "Where can I charge my car nearby?",
    "context": "latitude: 33.21864\nlongitude: 116.60744",
}


def _write(tmp_path: Path, rows: list[dict[str, object]]) -> Path:
    path = tmp_path / "rows.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", "utf-8")
    return path


def test_an_integer_trace_id_is_read_as_its_text(tmp_path: Path) -> None:
    (task,) = load_tasks(_write(tmp_path, [{**ROW, "trace_id": 12}]))
    assert task.id == "12"


@pytest.mark.parametrize("value", [True, 1.5, None], ids=["bool", "float", "null"])
def test_a_trace_id_that_is_no_string_or_integer_is_refused(tmp_path: Path, value: object) -> None:
    with pytest.raises(InputError) as caught:
        load_tasks(_write(tmp_path, [{**ROW, "trace_id": value}]))
    assert f"field trace_id: must be a string, got {type(value).__name__}" in str(caught.value)


def test_row_texts_are_read_with_the_given_file_and_subset() -> None:
    lines = [
        json.dumps({**ROW, "trace_id": "a"}),
        "",
        json.dumps({**ROW, "trace_id": "b", "query": "附近哪里能充电"}, ensure_ascii=False),
    ]
    tasks = parse_row_texts(lines, file="bundled.jsonl", subset="unsolvable")
    assert [(t.id, t.subset, t.language) for t in tasks] == [
        ("a", "unsolvable", "en"),
        ("b", "unsolvable", "zh"),
    ]
    with pytest.raises(InputError) as caught:
        parse_row_texts([lines[0], json.dumps({**ROW, "trace_id": "c", "query": " "})],
                        file="bundled.jsonl", subset="single")  # fmt: skip
    assert caught.value.file == "bundled.jsonl"
    assert "line 2 (task c): field query: is empty" in str(caught.value)


def test_a_row_text_that_is_no_json_names_the_given_file() -> None:
    with pytest.raises(InputError) as caught:
        parse_row_texts([json.dumps(ROW), "{not json"], file="bundled.jsonl", subset="single")
    assert caught.value.file == "bundled.jsonl"

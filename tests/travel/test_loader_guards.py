"""TravelBench rows: a query of only blanks is empty (named by line and field), whatever the
blanks; without a language, the query's script decides it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lifebench.errors import InputError
from lifebench.travel.loader import load_tasks

ROW = {
    "trace_id": "7",
    "time": "2025-10-24 10:00",
    "query": "Where can I charge my car nearby?",
    "primary_intent": "discovery.poi_search",
    "context": "latitude: 33.21864\nlongitude: 116.60744",
    "intent": "find a charging station",
    "missing_tool": False,
    "missing_info": False,
    "no_actionable": False,
    "avg_tool_calls": 1.5,
}


def _write(tmp_path: Path, rows: list[dict[str, object]]) -> Path:
    path = tmp_path / "rows.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", "utf-8")
    return path


@pytest.mark.parametrize(
    "query",
    ["", "   ", "\t\n", "\u3000\u3000"],
    ids=["empty", "spaces", "tab-newline", "ideographic"],
)
def test_a_blank_query_is_empty(tmp_path: Path, query: str) -> None:
    with pytest.raises(InputError) as caught:
        load_tasks(_write(tmp_path, [ROW, {**ROW, "trace_id": "8", "query": query}]))
    assert "line 2 (task 8): field query: is empty" in str(caught.value)


@pytest.mark.parametrize(
    ("query", "language"),
    [("Where can I charge?", "en"), ("附近哪里能充电", "zh"), ("去 Apple Store 怎么走", "zh")],
    ids=["english", "chinese", "mixed"],
)
def test_the_language_of_a_row_without_one(tmp_path: Path, query: str, language: str) -> None:
    (task,) = load_tasks(_write(tmp_path, [{**ROW, "query": query}]))
    assert task.language == language

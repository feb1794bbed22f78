"""Loading travel rows: official files unchanged, subset inference, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.conftest import shared_file

from lifebench.errors import InputError
from lifebench.travel.loader import infer_subset, load_bundled, load_tasks, subset_of_file
from lifebench.travel.options import TravelOptions
from lifebench.travel.task import effective_subset

ROW = {
    "trace_id": "7",
    "time": "2025-10-24 10:00",
    "query": "附近哪里能充电",
    "primary_intent": "discovery.poi_search.constrained_poi_search",
    "context": "**用户当前位置坐标**\nlatitude: 33.21864\nlongitude: 116.60744\n\n"
    "**用户当前位置描述**\n安徽省亳州市\n\n**用户导航终点位置**\n蒙城县",
    "intent": "找充电站",
    "missing_tool": False,
    "missing_info": False,
    "no_actionable": False,
    "avg_tool_calls": 1.5,
}


def _write(tmp_path: Path, name: str, rows: list[dict]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", "utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "rows", "count", "subset"),
    [
        ("single_turn.jsonl", 300, 300, "single"),
        ("multi_turn.jsonl", 300, 300, "multi"),
        ("unsolve.jsonl", 60, 60, "unsolvable"),
    ],
)
def test_official_files_load_unchanged(name: str, rows: int, count: int, subset: str) -> None:
    path = shared_file("travelbench", name)
    tasks = load_tasks(path)
    assert len(tasks) == count and {t.subset for t in tasks} == {subset}
    raw = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    for row, task in zip(raw, tasks, strict=True):
        assert task.id == row["trace_id"] and task.query == row["query"]
        assert task.context == row.get("context", "") and task.language == "zh"
        if subset == "multi":
            assert task.user_profile == row["user_profile"]


def test_rows_missing_context_load_with_empty_context() -> None:
    tasks = load_tasks(shared_file("travelbench", "unsolve.jsonl"))
    assert any(t.context == "" and t.coordinates is None for t in tasks)


def test_context_blocks_are_parsed() -> None:
    from lifebench.travel.task import TravelTask

    t = TravelTask.model_validate(ROW)
    assert t.coordinates == (33.21864, 116.60744)
    assert t.location_text == "安徽省亳州市" and t.destination_name == "蒙城县"


def test_subset_inference_order(tmp_path: Path) -> None:
    assert subset_of_file("x/single_turn.jsonl") == "single"
    assert subset_of_file("multi_turn.jsonl") == "multi"
    assert subset_of_file("unsolve.jsonl") == "unsolvable"
    assert subset_of_file("rows.jsonl") is None
    assert infer_subset({"user_profile": "### 基本信息"}) == "multi"
    assert infer_subset({"missing_info": True}) == "unsolvable"
    assert infer_subset({}) == "single"
    assert infer_subset({"subset": "multi"}, "single") == "multi"  # the row's own field wins
    assert infer_subset({"user_profile": "p"}, "single") == "single"  # then the file name
    tasks = load_tasks(
        _write(tmp_path, "rows.jsonl", [ROW, {**ROW, "trace_id": "8", "missing_tool": True}])
    )
    assert [t.subset for t in tasks] == ["single", "unsolvable"]


def test_subset_option_overrides_at_run_time() -> None:
    from lifebench.travel.task import TravelTask

    task = TravelTask.model_validate({**ROW, "subset": "single"})
    assert effective_subset(task, TravelOptions()) == "single"
    assert effective_subset(task, TravelOptions(subset="unsolvable")) == "unsolvable"


def test_errors_name_file_line_task_and_field(tmp_path: Path) -> None:
    rows = [
        ROW,
        {**ROW, "trace_id": "8", "time": "tomorrow"},
        {**ROW, "trace_id": "9", "missing_tool": "no"},
        {k: v for k, v in ROW.items() if k != "query"} | {"trace_id": "10"},
        ROW,
    ]
    path = _write(tmp_path, "bad.jsonl", rows)
    with pytest.raises(InputError) as info:
        load_tasks(path)
    text = str(info.value)
    assert "bad.jsonl" in text
    assert "line 2 (task 8): field time" in text
    assert "line 3 (task 9): field missing_tool" in text
    assert "line 4 (task 10): field query: missing" in text
    assert "line 5 (task 7): field trace_id: duplicate" in text


def test_malformed_json_line(tmp_path: Path) -> None:
    path = tmp_path / "single_turn.jsonl"
    path.write_text(json.dumps(ROW, ensure_ascii=False) + "\n{oops\n", "utf-8")
    with pytest.raises(InputError, match=r"single_turn.jsonl.*invalid JSON at line 2"):
        load_tasks(path)


def test_bundled_rows_of_every_subset_share_one_run_with_unique_ids() -> None:
    for language in ("zh", "en"):
        tasks = load_bundled(language)
        assert {t.subset for t in tasks} == {"single", "multi", "unsolvable"}
        assert len({t.id for t in tasks}) == len(tasks)
        assert all(t.language == language for t in tasks)
        assert all(t.id.startswith(t.subset + "-") for t in tasks)

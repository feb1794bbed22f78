"""Loading task files: the official format unchanged, and actionable errors for bad input."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lifebench.errors import InputError
from lifebench.vita.loader import (
    available_bundled_tasks,
    format_path,
    load_bundled_tasks,
    load_tasks,
    parse_tasks,
)
from lifebench.vita.timefmt import normalise_time


def make_task(task_id: str = "T001") -> dict[str, Any]:
    """A small, valid delivery task in the official format (synthetic data)."""
    store_id, home = f"{task_id}_S1", "Flat 2, 10 Example Lane, Testville"
    location = {"address": home, "longitude": 120.1, "latitude": 30.2}
    product = {"product_id": f"{store_id}_P1", "price": 20, "quantity": 1, "attributes": ""}
    order = {
        "order_id": f"{task_id}T01",
        "order_type": "delivery",
        "user_id": "U1",
        "store_id": store_id,
        "note": "",
        "location": location,
        "dispatch_time": "",
        "shipping_time": None,
        "delivery_time": "",
        "total_price": 20,
        "create_time": "2025-01-02 12:00:00",
        "update_time": "2025-01-02 12:00:00",
        "status": "paid",
        "products": [product],
    }
    return {
        "id": task_id,
        "domain": "delivery",
        "message_history": [],
        "environment": {
            "time": "2025-01-02 12:00:00",
            "user_id": "U1",
            "orders": {},
            "weather": [
                {
                    "city": "Testville",
                    "category": "sunny",
                    "datetime": "2025-01-02",
                    "temperature": [5, 12],
                    "humidity": 40,
                }
            ],
            "location": [dict(location)],
            "user_historical_behaviors": {"user id": "U1"},
            "stores": {
                store_id: {
                    "store_id": store_id,
                    "name": "Test Noodles",
                    "score": 4.6,
                    "location": {"address": "1 Shop Street", "longitude": 120.11, "latitude": 30.2},
                    "tags": ["Noodles"],
                    "products": [
                        {
                            "product_id": f"{store_id}_P1",
                            "name": "Plain noodles",
                            "store_id": store_id,
                            "store_name": "Test Noodles",
                            "price": 20,
                            "tags": ["Mild"],
                            "attributes": ["Thin", "Thick"],
                        }
                    ],
                }
            },
        },
        "user_scenario": {"user_profile": {"user id": "U1", "occupation": "tester"}},
        "instructions": "Order plain noodles to your home and pay.",
        "evaluation_criteria": {
            "expected_states": [
                {
                    "required_orders": [order, copy.deepcopy(order), copy.deepcopy(order)],
                    "optional_orders": [],
                    "state_rubrics": ["Noodles are ordered", "The order is paid"],
                }
            ],
            "overall_rubrics": ["Noodles are ordered", "The order is paid"],
        },
    }


def write(tmp_path: Path, content: Any, name: str = "tasks.json") -> Path:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


def expect_error(path: Path) -> InputError:
    with pytest.raises(InputError) as info:
        load_tasks(path)
    assert path.name in str(info.value)
    return info.value


# ---- the official files --------------------------------------------------------------------


_PATH_PART = re.compile(r'\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')


def _at(data: Any, field: str) -> tuple[Any, str | int]:
    """The container holding ``field`` (a path such as ``a.b[0]["x y"].c``) and its last key."""
    keys: list[str | int] = []
    for name, index, quoted in _PATH_PART.findall(field):
        keys.append(name or (int(index) if index else json.loads(quoted)))
    for key in keys[:-1]:
        data = data[key]
    return data, keys[-1]


def test_official_delivery_file_loads_unchanged(delivery_tasks_en: Path) -> None:
    """Kept verbatim except the time fields the loader normalised, each with its note."""
    raw = json.loads(delivery_tasks_en.read_text(encoding="utf-8"))
    tasks = load_tasks(delivery_tasks_en)
    assert len(tasks) == 60
    assert len({t.id for t in tasks}) == 60
    noted = 0
    for task, original in zip(tasks, raw, strict=True):
        for note in task.load_notes:  # e.g. a dispatch_time with a trailing space
            container, key = _at(original, note.field)
            fixed = normalise_time(container[key])
            assert fixed is not None and fixed.text != container[key]
            assert note.message.endswith(fixed.describe(container[key]))
            container[key] = fixed.text
            noted += 1
        assert task.id == original["id"]
        assert task.environment == original["environment"]
        assert task.instructions == original["instructions"]
        assert task.user_scenario.user_profile == original["user_scenario"]["user_profile"]
        assert task.evaluation_criteria is not None
        dumped = task.evaluation_criteria.model_dump()
        assert dumped["overall_rubrics"] == original["evaluation_criteria"]["overall_rubrics"]
        assert dumped["expected_states"] == original["evaluation_criteria"]["expected_states"]
    assert noted == 11  # trailing spaces in 11 times of the shared sample


def test_official_instore_file_loads(instore_tasks_en: Path) -> None:
    tasks = load_tasks(instore_tasks_en)
    assert len(tasks) == 60
    assert len({t.id for t in tasks}) == 60


def test_official_file_as_json_lines(tmp_path: Path, delivery_tasks_en: Path) -> None:
    raw = json.loads(delivery_tasks_en.read_text(encoding="utf-8"))
    lines = "\n".join(json.dumps(task, ensure_ascii=False) for task in raw[:5]) + "\n"
    tasks = load_tasks(write(tmp_path, lines, "tasks.jsonl"))
    assert [t.id for t in tasks] == [t["id"] for t in raw[:5]]


# ---- accepted inputs ---------------------------------------------------------------------


def test_json_lines_without_jsonl_suffix(tmp_path: Path) -> None:
    text = json.dumps(make_task("A")) + "\n\n" + json.dumps(make_task("B")) + "\n"
    assert [t.id for t in load_tasks(write(tmp_path, text))] == ["A", "B"]


def test_single_task_on_one_line_is_json_lines(tmp_path: Path) -> None:
    assert [t.id for t in load_tasks(write(tmp_path, json.dumps(make_task("A"))))] == ["A"]


def test_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps([make_task()]).encode())
    assert len(load_tasks(path)) == 1


def test_hidden_annotation_fields_are_tolerated(tmp_path: Path) -> None:
    task = make_task()
    task["difficulty"] = "hard"  # unknown top-level key
    store = task["environment"]["stores"]["T001_S1"]
    store.update(shop_type="target", target_reason="the only mild option", category="Noodles")
    store["products"][0].update(product_type="target", field="x")
    task["environment"]["extra_table"] = {"k": 1}
    state = task["evaluation_criteria"]["expected_states"][0]
    state["judge_hint"] = "ignore"
    state["required_orders"][0]["order_time"] = "2025-01-02 12:00:00"
    task["user_scenario"]["hidden_goal"] = "none"

    (loaded,) = load_tasks(write(tmp_path, [task]))

    assert loaded.model_extra == {"difficulty": "hard"}
    assert loaded.environment == task["environment"]  # kept verbatim, annotations included
    assert loaded.environment["stores"]["T001_S1"]["shop_type"] == "target"


# ---- errors -----------------------------------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    error = expect_error(tmp_path / "nope.json")
    assert "no such task file" in str(error)


def test_empty_file(tmp_path: Path) -> None:
    assert "empty" in str(expect_error(write(tmp_path, "  \n")))


def test_broken_json_reports_line_and_column(tmp_path: Path) -> None:
    text = json.dumps([make_task()], indent=1)
    broken = text.replace('"domain": "delivery",', '"domain": "delivery"', 1)
    error = expect_error(write(tmp_path, broken))
    line = broken[: broken.index('"domain"')].count("\n") + 2
    assert f"line {line}, column" in str(error)
    assert error.file is not None and error.file.endswith("tasks.json")


def test_broken_json_line_in_json_lines(tmp_path: Path) -> None:
    text = json.dumps(make_task("A")) + "\n" + json.dumps(make_task("B"))[:-1] + "\n"
    error = expect_error(write(tmp_path, text, "tasks.jsonl"))
    assert "invalid JSON at line 2, column" in str(error)


def test_broken_pretty_printed_object(tmp_path: Path) -> None:
    text = json.dumps(make_task(), indent=1).replace('"domain":', '"domain"', 1)
    error = expect_error(write(tmp_path, text))
    line = text[: text.index('"domain"')].count("\n") + 1
    assert f"invalid JSON at line {line}, column" in str(error)
    assert error.task_id is None


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ({"tasks": []}, "got a single JSON object"),
        ("42", "got a single JSON number"),
        ('"x"', "got a single JSON string"),
    ],
)
def test_top_level_must_be_an_array(tmp_path: Path, content: Any, words: str) -> None:
    text = json.dumps(content, indent=1) if isinstance(content, dict) else content
    assert words in str(expect_error(write(tmp_path, text)))


def test_array_elements_must_be_objects(tmp_path: Path) -> None:
    error = expect_error(write(tmp_path, [make_task(), [1, 2]]))
    assert "task #1: expected a task object, got a JSON array" in str(error)


Mutation = Callable[[list[dict[str, Any]]], None]


def _del_id(tasks: list[dict[str, Any]]) -> None:
    del tasks[1]["id"]


def _del_time(tasks: list[dict[str, Any]]) -> None:
    del tasks[1]["environment"]["time"]


def _bad_time(tasks: list[dict[str, Any]]) -> None:
    tasks[1]["environment"]["time"] = "2025/01/02 12:00"


def _impossible_time(tasks: list[dict[str, Any]]) -> None:
    tasks[1]["environment"]["time"] = "2025-02-30 12:00:00"


def _del_user(tasks: list[dict[str, Any]]) -> None:
    del tasks[1]["environment"]["user_id"]


def _deep_type(tasks: list[dict[str, Any]]) -> None:
    tasks[1]["evaluation_criteria"]["expected_states"][0]["required_orders"][2]["store_id"] = 7


def _duplicate(tasks: list[dict[str, Any]]) -> None:
    tasks[1]["id"] = tasks[0]["id"]


def _product_id(tasks: list[dict[str, Any]]) -> None:
    del tasks[1]["environment"]["stores"]["B_S1"]["products"][0]["product_id"]


def _store_id(tasks: list[dict[str, Any]]) -> None:
    del tasks[1]["environment"]["stores"]["B_S1"]["store_id"]


def _bad_status(tasks: list[dict[str, Any]]) -> None:
    tasks[1]["evaluation_criteria"]["expected_states"][0]["required_orders"][0]["status"] = "done"


def _rubric_type(tasks: list[dict[str, Any]]) -> None:
    tasks[1]["evaluation_criteria"]["overall_rubrics"] = "a single string"


def _weather_type(tasks: list[dict[str, Any]]) -> None:
    tasks[1]["environment"]["weather"][0]["temperature"] = "mild"


def _env_type(tasks: list[dict[str, Any]]) -> None:
    tasks[1]["environment"] = []


@pytest.mark.parametrize(
    ("mutate", "task_label", "field", "words"),
    [
        (_del_id, "task #1", "id", "required field is missing"),
        (_del_time, "task B", "environment.time", "required field is missing"),
        (_bad_time, "task B", "environment.time", "expected 'YYYY-MM-DD HH:MM:SS'"),
        (_impossible_time, "task B", "environment.time", "not a valid calendar date"),
        (_del_user, "task B", "environment.user_id", "required field is missing"),
        (
            _deep_type,
            "task B",
            "evaluation_criteria.expected_states[0].required_orders[2].store_id",
            "valid string (got int 7)",
        ),
        (_duplicate, "task A (#1)", "id", 'duplicate task id "A" (first used by task #0)'),
        (
            _product_id,
            "task B",
            "environment.stores.B_S1.products[0].product_id",
            "required field is missing",
        ),
        (_store_id, "task B", "environment.stores.B_S1.store_id", "required field is missing"),
        (
            _bad_status,
            "task B",
            "evaluation_criteria.expected_states[0].required_orders[0].status",
            "'unpaid'",
        ),
        (_rubric_type, "task B", "evaluation_criteria.overall_rubrics", "valid list"),
        (_weather_type, "task B", "environment.weather[0].temperature", "valid list"),
        (_env_type, "task B", "environment", "valid dictionary"),
    ],
)
def test_malformed_task_names_file_task_and_field(
    tmp_path: Path, mutate: Mutation, task_label: str, field: str, words: str
) -> None:
    tasks = [make_task("A"), make_task("B"), make_task("C")]
    mutate(tasks)
    error = expect_error(write(tmp_path, tasks))
    message = str(error)
    assert f"{task_label}, field {field}: " in message
    assert words in message
    assert error.field == field
    assert error.task_id == task_label.removeprefix("task ")


def test_all_problems_are_reported_at_once(tmp_path: Path) -> None:
    tasks = [make_task("A"), make_task("B"), make_task("C")]
    _bad_time(tasks)
    del tasks[2]["environment"]["user_id"]
    tasks[0]["environment"]["location"][0]["latitude"] = "north"
    message = str(expect_error(write(tmp_path, tasks)))
    assert "2 more problem(s)" in message
    assert "task A, field environment.location[0].latitude" in message
    assert "task B, field environment.time" in message
    assert "task C, field environment.user_id" in message


def test_parse_tasks_names_the_source() -> None:
    with pytest.raises(InputError, match=r"file memory:tasks, task #0, field id"):
        parse_tasks(json.dumps([{"environment": {}}]), "memory:tasks")


def test_format_path_quotes_odd_keys() -> None:
    assert format_path(["environment", "orders", "A-1", "note"]) == 'environment.orders["A-1"].note'
    assert format_path(["a", 0, "b", 2]) == "a[0].b[2]"
    assert format_path(["用户"]) == '["用户"]'


# ---- bundled tasks ---------------------------------------------------------------------------


def test_bundled_tasks_are_listed_and_load() -> None:
    assert ("delivery", "en") in available_bundled_tasks()
    assert ("delivery", "zh") in available_bundled_tasks()
    assert len(load_bundled_tasks("delivery", "en")) == 6


def test_unknown_bundled_tasks() -> None:
    with pytest.raises(InputError, match=r"no bundled demo tasks .*'moon'.*available: delivery/en"):
        load_bundled_tasks("moon", "en")

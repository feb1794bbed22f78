"""The suite of a data file, told from its content: `tasks validate` / `tasks stats` without
--suite, and a hint when --suite names another suite."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.data import detect_suite, detect_suite_of, suites_of
from lifebench.errors import InputError

VITA = {
    "id": "T1",
    "domain": "delivery",
    "environment": {"time": "2025-10-24 10:00"},
    "user_scenario": {"user_profile": {}},
    "instructions": "Order lunch",
    "evaluation_criteria": {"expected_states": []},
}
TRAVEL = {"trace_id": "1", "time": "2025-10-24 10:00", "query": "去杭州玩两天", "context": ""}
FLOW_TURN = {"id": "s_agent_turn-1", "messages": [], "gt_thought": "t", "gt_response": "r"}
FLOWSWITCH = {"turn_id": "s_agent_turn-2", "messages": [], "ground_truth": {}, "answer": []}
FLOW_SESSION = {"user_agent": {}, "function_agent": {}, "gt_actions_string": ""}
FLOW_KB = {"uuid": "u-1", "domain": "D", "role": "R", "scenario": "S", "workflow": {}, "apis": []}
FLOW_POOL = {"u-1": {"domain": "D", "role": "R", "scenario_name": "S", "workflow": "1. …"}}


@pytest.mark.parametrize(
    ("record", "suite"),
    [
        (VITA, "vita"),
        ({**VITA, "instructions": "帮我点一份午餐"}, "vita"),
        ({"id": "T2", "environment": {}, "instructions": "x"}, "vita"),  # minimal vita
        (TRAVEL, "travel"),
        ({**TRAVEL, "user_profile": "喜欢安静", "subset": "multi"}, "travel"),
        (FLOW_TURN, "flow"),
        (FLOWSWITCH, "flow"),
        (FLOW_SESSION, "flow"),
        (FLOW_KB, "flow"),
        (FLOW_POOL, "flow"),
    ],
)
def test_each_format_fits_exactly_its_suite(record: dict, suite: str) -> None:
    assert suites_of(record) == [suite]


@pytest.mark.parametrize(
    "record",
    [
        {"id": "T1", "query": "no trace id"},  # near miss: travel without trace_id
        {"trace_id": "1", "time": "x"},  # near miss: travel without query
        {"messages": [], "id": "x"},  # near miss: a turn without its gold
        {"environment": {}},  # near miss: vita without instructions
        {"Customer Service": "a domain description"},
        {},
    ],
)
def test_near_misses_fit_nothing(record: dict) -> None:
    assert suites_of(record) == []


def _write(path: Path, records: list[dict], jsonl: bool) -> Path:
    if jsonl:
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    else:
        path.write_text(json.dumps(records, ensure_ascii=False, indent=2))
    return path


@pytest.mark.parametrize("jsonl", [True, False])
def test_files_in_either_layout(tmp_path: Path, jsonl: bool) -> None:
    for record, suite in ((VITA, "vita"), (TRAVEL, "travel"), (FLOWSWITCH, "flow")):
        path = _write(tmp_path / f"{suite}.data", [record, record], jsonl)
        assert detect_suite(path) == suite


def test_a_knowledge_directory_is_flow(tmp_path: Path) -> None:
    (tmp_path / "domain_desc.json").write_text(json.dumps({"D": "a domain"}))
    (tmp_path / "workflow_text.json").write_text(json.dumps(FLOW_POOL))
    assert detect_suite(tmp_path) == "flow"


def test_unrecognisable_data_names_its_fields_and_the_option(tmp_path: Path) -> None:
    path = _write(tmp_path / "odd.jsonl", [{"name": "x", "value": 1}], True)
    with pytest.raises(InputError, match=r"fields name, value.*--suite vita \| travel \| flow"):
        detect_suite(path)
    empty = tmp_path / "empty.json"
    empty.write_text("[]")
    with pytest.raises(InputError, match="no JSON object found"):
        detect_suite(empty)
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(InputError, match="no JSON object found"):
        detect_suite(broken)
    with pytest.raises(InputError, match="no such file"):
        detect_suite(tmp_path / "missing.json")


def test_files_of_different_suites_are_refused(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.json", [VITA], False)
    b = _write(tmp_path / "b.jsonl", [TRAVEL], True)
    assert detect_suite_of([a, a]) == "vita"
    with pytest.raises(InputError, match="different suites"):
        detect_suite_of([a, b])


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_validate_a_travel_file_without_suite(travel_file: Path) -> None:
    code, out, err = _invoke("tasks", "validate", str(travel_file))
    assert code == 0, err
    assert "tasks OK" in out and "suite: travel (from the file's content" in err
    assert "missing" not in err


def test_validate_with_the_wrong_suite_says_which_one_it_is(travel_file: Path) -> None:
    code, _, err = _invoke("tasks", "validate", "--suite", "vita", str(travel_file))
    assert code == 2
    assert "this looks like a travel file (--suite travel)" in err
    assert len(err.splitlines()) < 40  # a bounded list, not one line per row


def test_stats_detects_the_suite_of_its_files(travel_file: Path) -> None:
    code, out, err = _invoke("tasks", "stats", str(travel_file), "--json")
    assert code == 0, err
    assert "suite: travel" in err and json.loads(out)


@pytest.fixture
def travel_file(tmp_path: Path) -> Path:
    rows = [
        {**TRAVEL, "trace_id": str(i), "query": f"第{i}个问题: 杭州到上海的火车", "intent": "交通"}
        for i in range(30)
    ]
    return _write(tmp_path / "single_turn.jsonl", rows, True)


@pytest.mark.parametrize(
    ("parts", "suite"),
    [
        (("travelbench", "multi_turn.jsonl"), "travel"),
        (("travelbench", "unsolve.jsonl"), "travel"),
        (("vitabench", "delivery_tasks_en.json"), "vita"),
        (("flowbench", "sample_turns.jsonl"), "flow"),
        (("flowbench", "workflow_final.jsonl", ".."), "flow"),  # the knowledge directory
        (("flowbench", "workflow_final.jsonl"), "flow"),
    ],
)
def test_the_official_samples_are_recognised(parts: tuple[str, ...], suite: str) -> None:
    from shared_data import shared_file

    path = shared_file(*parts[:-1]).parent if parts[-1] == ".." else shared_file(*parts)
    assert detect_suite(path) == suite


def test_validate_the_official_travel_sample_without_suite() -> None:
    from shared_data import shared_file

    code, out, err = _invoke(
        "tasks", "validate", str(shared_file("travelbench", "multi_turn.jsonl"))
    )
    assert code == 0, err
    assert "tasks OK" in out and "field id: required field is missing" not in err

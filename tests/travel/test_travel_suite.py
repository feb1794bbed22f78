"""The travel suite on the core: options and roles, episodes per subset, offline runs of the
official files and of the bundled rows, and the tasks / tools commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.conftest import shared_file
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.errors import InputError
from lifebench.models import ModelFactory
from lifebench.suites import RunOptions, get_suite, make_run_options
from lifebench.travel.options import TravelOptions
from lifebench.travel.task import TravelTask

SUBSET_FILES = ("multi_turn.jsonl", "single_turn.jsonl", "unsolve.jsonl")
_WIDTH = {"COLUMNS": "80"}


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _options(**kw: object) -> RunOptions:
    return make_run_options({"suite": "travel", **kw})


def test_offline_defaults_and_model_defaults() -> None:
    offline = _options()
    assert (offline.agent, offline.user, offline.evaluator) == ("scripted", "scripted", "offline")
    assert offline.options_for(TravelOptions).backend(offline) == "offline"
    online = _options(agent_model="a", user_model="u", judge_model="j", tool_model="t")
    assert (online.agent, online.user, online.evaluator) == ("llm", "llm", "judge")
    assert online.options_for(TravelOptions).backend(online) == "simulate"


def test_simulate_needs_a_tool_model_and_cache_needs_a_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="--tool-model"):
        _options(suite_options={"sandbox": "simulate"})
    with pytest.raises(InputError, match="--sandbox-cache"):
        _options(suite_options={"sandbox": "cache"})
    with pytest.raises(InputError, match="no such folder"):
        _options(suite_options={"sandbox_cache": str(tmp_path / "missing")})
    assert _options(suite_options={"sandbox": "cache", "sandbox_cache": str(tmp_path)})


def test_caps_are_options_and_reach_the_episode() -> None:
    suite = get_suite("travel")
    task = TravelTask.model_validate(
        {
            "trace_id": "1",
            "time": "2025-10-24 10:00",
            "query": "q",
            "user_profile": "p",
            "subset": "multi",
            "language": "zh",
        }
    )
    options = _options(domain="travel", suite_options={"max_agent_calls": 7, "max_turns": 4})
    episode = suite.build_episode(task, 0, 1, options, ModelFactory())
    assert episode.limits.max_agent_calls_per_turn == 7
    assert episode.limits.max_turns == 4 and episode.limits.reply_after_last_turn
    assert episode.greeting is None and episode.user_stop_tokens == ("[Finish Conversation]",)
    single = suite.build_episode(
        task, 0, 1, _options(domain="travel", suite_options={"subset": "single"}), ModelFactory()
    )
    assert single.limits.max_turns == 1 and not single.limits.reply_after_last_turn


def test_one_domain_and_a_clear_error_for_others() -> None:
    suite = get_suite("travel")
    assert suite.domains() == ("travel",)
    with pytest.raises(InputError, match="--subset"):
        suite.resolve_domain(None, "single")


@pytest.mark.parametrize(
    ("name", "subset", "rows"),
    [
        ("single_turn.jsonl", "single", 300),
        ("multi_turn.jsonl", "multi", 300),
        ("unsolve.jsonl", "unsolvable", 60),
    ],
)
def test_official_files_run_offline_and_report(
    tmp_path: Path, name: str, subset: str, rows: int
) -> None:
    tasks = shared_file("travelbench", name)
    out = tmp_path / "run"
    code, _, err = _invoke(
        "run",
        "--suite",
        "travel",
        "--subset",
        subset,
        "--tasks",
        str(tasks),
        "--out",
        str(out),
        "--quiet",
    )
    assert code == 0, err
    code, text, err = _invoke("report", str(out), "--json")
    assert code == 0, err
    report = json.loads(text)
    assert report["n_simulations"] == rows and report["n_errors"] == 0
    assert "tool_error_rate" in report and "score" in report
    assert subset in report["travel"]["subsets"]
    if subset == "unsolvable":
        assert "unsolved_accuracy" in report


def test_no_flags_runs_every_bundled_subset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = _invoke("run", "--suite", "travel", "--quiet")
    assert code == 0, err
    runs = list((tmp_path / "runs").iterdir())
    code, text, err = _invoke("report", str(runs[0]), "--json")
    report = json.loads(text)
    assert set(report["travel"]["subsets"]) == {"single", "multi", "unsolvable"}
    assert report["n_simulations"] == report["n_tasks"] >= 150


def test_tasks_validate_and_stats(tmp_path: Path) -> None:
    code, out, err = _invoke(
        "tasks", "validate", "--suite", "travel", str(shared_file("travelbench", "unsolve.jsonl"))
    )
    assert code == 0 and "60 tasks OK" in out
    assert "no context" in err  # rows without context are linted
    bad = tmp_path / "multi_turn.jsonl"
    bad.write_text(json.dumps({"trace_id": "1", "time": "soon", "query": "x"}) + "\n", "utf-8")
    code, _, err = _invoke("tasks", "validate", "--suite", "travel", str(bad))
    assert code == 2 and "multi_turn.jsonl" in err and "task 1" in err and "field time" in err
    code, out, err = _invoke(
        "tasks",
        "stats",
        "--suite",
        "travel",
        "--json",
        str(shared_file("travelbench", "multi_turn.jsonl")),
    )
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["rows"] == row["multi"] == 300 and row["with_coordinates"] == 300


def test_tools_call_and_batch_for_travel(tmp_path: Path) -> None:
    code, out, _ = _invoke(
        "tools",
        "call",
        "--suite",
        "travel",
        "--time",
        "2025-10-24 10:00",
        "travel_search_trains",
        json.dumps({"origin": "上海", "destination": "杭州市", "date": "2025-10-25"}),
    )
    payload = json.loads(out)
    assert code == 1 and payload["result"] is None and "上海" in payload["error"]
    lines = [
        {
            "tool": "weather_forecast_days",
            "args": {"location": "北京市", "date": "2025-10-25"},
            "time": "2025-10-24 10:00",
        },
        {
            "tool": "weather_forecast_days",
            "args": {"location": "北京市", "date": "2025-10-25"},
            "time": "2025-10-01 10:00",
        },
        {"tool": "map_search_places", "args": "{broken", "time": "2025-10-24 10:00"},
        {"tool": "no_such_tool", "args": {}},
    ]
    batch = tmp_path / "calls.jsonl"
    batch.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines), "utf-8")
    code, out, err = _invoke("tools", "call", "--suite", "travel", "--batch", str(batch))
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [set(r) for r in rows] == [{"result", "error"}] * 4
    assert rows[0]["error"] is None and rows[0]["result"]["forecast"][0]["date"] == "2025-10-25"
    assert rows[1]["result"] is None and "2025-10-16" in rows[1]["error"]  # its own time
    assert rows[2]["error"] and rows[3]["error"]
    again = _invoke("tools", "call", "--suite", "travel", "--batch", str(batch))[1]
    assert again == out


def test_tools_batch_for_vita_runs_in_one_environment(tmp_path: Path) -> None:
    lines = [
        {"tool": "get_user_all_orders", "args": {}},
        {"tool": "pay_delivery_order", "args": {"order_id": 12}, "time": "ignored"},
    ]
    batch = tmp_path / "calls.jsonl"
    batch.write_text("\n".join(json.dumps(x) for x in lines), "utf-8")
    code, out, err = _invoke("tools", "call", "--suite", "vita", "--batch", str(batch))
    assert code == 0, err
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["error"] is None and second["result"] is None and second["error"]


def test_batch_input_errors_name_the_line(tmp_path: Path) -> None:
    batch = tmp_path / "calls.jsonl"
    batch.write_text('{"tool": "web_search", "args": {"query": "x"}}\n{"args": {}}\n', "utf-8")
    code, _, err = _invoke("tools", "call", "--suite", "travel", "--batch", str(batch))
    assert code == 2 and "calls.jsonl" in err and "line 2" in err


def test_tasks_stats_of_the_three_official_files_fits_80_columns() -> None:
    files = [str(shared_file("travelbench", n)) for n in SUBSET_FILES]
    result = CliRunner().invoke(app, ["tasks", "stats", "--suite", "travel", *files], env=_WIDTH)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in result.stdout  # nothing cut
    header = next(line for line in lines if "multi_turn" in line).split()
    assert header == ["multi_turn", "single_turn", "unsolve"]
    row = {" ".join(p[:-3]): p[-3:] for line in lines if len(p := line.split()) > 3}
    assert row["rows"] == ["300", "300", "60"] and row["unsolvable"] == ["0", "0", "60"]
    assert row["missing_tool"] == ["0", "0", "18"]  # unsolvable reasons, one row each
    assert "2025-10-21" in next(line for line in lines if "first day" in line)


def test_tasks_stats_names_columns_by_file_and_keeps_whole_sources_apart(
    tmp_path: Path,
) -> None:
    rows = [
        {"trace_id": f"{i}", "time": "2025-10-01 12:00", "query": "去杭州", "context": ""}
        for i in range(2)
    ]
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "single_turn.jsonl").write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8"
        )
    same = [str(tmp_path / f / "single_turn.jsonl") for f in ("a", "b")]
    table = get_suite("travel").stats([Path(s) for s in same], None, "zh")
    assert table.columns == ["", *same]  # two files of one name: their whole paths
    assert table.rows[0] == ["rows", "2", "2"]
    one = get_suite("travel").stats([Path(same[0])], None, "zh")
    assert one.columns == ["", "single_turn"] and one.notes == [f"single_turn: {same[0]}"]

"""``--subset all``: the three official files in one run (units keyed by subset + trace id, since
the files reuse trace ids) and the official overall with its interval."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.errors import InputError
from lifebench.travel.loader import OFFICIAL_TRACE_ID, load_folder, load_tasks
from shared_data import shared_file

ROW = {"time": "2025-10-24 10:00", "query": "明天成都到重庆的高铁", "context": ""}


def _write(folder: Path, name: str, ids: list[str], **extra: Any) -> None:
    rows = [{**ROW, "trace_id": i, **extra} for i in ids]
    (folder / name).write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows))


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir(parents=True)
    _write(folder, "single_turn.jsonl", ["1", "2"])
    _write(folder, "multi_turn.jsonl", ["1", "3"], user_profile="一位旅客")
    _write(folder, "unsolve.jsonl", ["2"], missing_tool=True)
    return folder


def test_a_folder_is_one_task_set_keyed_by_subset_and_trace_id(tmp_path: Path) -> None:
    tasks = load_folder(_folder(tmp_path))
    assert [t.id for t in tasks] == ["single-1", "single-2", "multi-1", "multi-3", "unsolvable-2"]
    assert [t.subset for t in tasks] == ["single", "single", "multi", "multi", "unsolvable"]
    assert [getattr(t, OFFICIAL_TRACE_ID) for t in tasks] == ["1", "2", "1", "3", "2"]
    assert load_tasks(_folder(tmp_path / "again")) == tasks  # load_tasks reads folders too


def test_a_folder_needs_one_file_of_each_subset(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (folder / "unsolve.jsonl").unlink()
    with pytest.raises(InputError, match=r"no unsolvable file in the folder") as info:
        load_folder(folder)
    assert info.value.file == str(folder)
    _write(folder, "unsolve.jsonl", ["2"])
    _write(folder, "single_turn_v2.jsonl", ["9"])
    with pytest.raises(InputError, match=r"several files of one subset \(single: "):
        load_folder(folder)


def _run(*args: str) -> Any:
    return CliRunner().invoke(app, ["run", "--suite", "travel", "--quiet", *args])


def test_a_folder_without_subset_all_is_refused(tmp_path: Path) -> None:
    result = _run("--tasks", str(_folder(tmp_path)), "--out", str(tmp_path / "r"))
    assert result.exit_code == 2
    assert "--tasks is a folder: run its three official files together with --subset all" in (
        " ".join(result.stderr.split())
    )


def test_one_command_runs_the_folder_and_reports_the_overall(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = _run("--subset", "all", "--tasks", str(_folder(tmp_path)), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    rep = json.loads((out / "report.json").read_text())
    assert rep["n_simulations"] == 5
    subsets = rep["travel"]["subsets"]
    overall = (
        subsets["multi"]["score"] + subsets["single"]["score"] + 100 * rep["unsolved_accuracy"]
    ) / 3
    assert rep["travel"]["overall"] == pytest.approx(overall)
    head = rep["comparison"]["pairs"][0]
    assert head["metric"] == "overall" and head["lifebench"] == pytest.approx(overall)
    assert head["official"] == float(f"{overall:.2f}")  # nothing differs offline
    low, high = head["lifebench_ci"]
    assert low <= head["lifebench"] <= high
    # the Markdown and HTML reports show both numbers too
    markdown = tmp_path / "r.md"
    assert CliRunner().invoke(app, ["report", str(out), "--markdown", str(markdown)]).exit_code == 0
    text = markdown.read_text()
    assert "## Official scoring vs lifebench: run" in text
    assert (
        f"| {overall:.2f} | {overall:.2f} |" in text and "Units where they differ: 0 of 5." in text
    )
    html = tmp_path / "r.html"
    assert CliRunner().invoke(app, ["report", str(out), "--html", str(html)]).exit_code == 0
    assert '<section id="official">' in html.read_text()


def test_the_official_files_run_as_one_command(tmp_path: Path) -> None:
    folder = shared_file("travelbench", "single_turn.jsonl").parent
    out = tmp_path / "official"
    result = _run("--subset", "all", "--tasks", str(folder), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    rep = json.loads((out / "report.json").read_text())
    tasks = load_folder(folder)
    assert rep["n_simulations"] == len(tasks) == len({t.id for t in tasks})
    # the files reuse trace ids: keyed by subset they are distinct
    assert len({getattr(t, OFFICIAL_TRACE_ID) for t in tasks}) < len(tasks)
    head = rep["comparison"]["pairs"][0]
    assert head["metric"] == "overall" and head["official"] is not None
    assert head["official_ci"][0] <= head["official"] <= head["official_ci"][1]


def test_a_report_combines_three_subset_runs_into_the_overall(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    runs = []
    for name in ("single_turn", "multi_turn", "unsolve"):
        out = tmp_path / name
        assert _run("--tasks", str(folder / f"{name}.jsonl"), "--out", str(out)).exit_code == 0
        runs.append(str(out))
    alone = json.loads(CliRunner().invoke(app, ["report", runs[0], "--json"]).stdout)
    assert alone["travel"]["overall"] is None  # one subset: no overall
    result = CliRunner().invoke(app, ["report", *runs, "--combine", "--json"])
    assert result.exit_code == 0, result.stderr
    rep = json.loads(result.stdout)
    head = rep["comparison"]["pairs"][0]
    assert head["metric"] == "overall" and head["lifebench"] == pytest.approx(
        rep["travel"]["overall"]
    )
    assert rep["n_simulations"] == 5 and rep["comparison"]["units"] == 5
    vita = tmp_path / "vita"
    assert (
        CliRunner()
        .invoke(app, ["run", "--num-tasks", "1", "--out", str(vita), "--quiet"])
        .exit_code
        == 0
    )
    mixed = CliRunner().invoke(app, ["report", runs[0], str(vita), "--combine"])
    assert mixed.exit_code == 2 and "pools runs of one suite" in mixed.stderr

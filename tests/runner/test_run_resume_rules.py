"""What a resume accepts: tasks by content (a moved file), more trials, another endpoint (with
a note); secrets in model URLs never reach the store or the report."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from lifebench.errors import ConfigChangedError
from lifebench.models import ModelFactory, ScriptedModel
from lifebench.runner import Progress, RunStore
from lifebench.runner._experiment import run_experiment
from lifebench.suites import make_run_options
from lifebench.suites._options import config_hash_of, scrub_model_spec

DEMO = Path(__file__).resolve().parents[2] / "src/lifebench/vita/data/delivery_en.json"

SECRET = "sk-TOPSECRET42"


def _run(values: dict[str, object]) -> tuple[list[str], int]:
    options = make_run_options({"quiet": True, "concurrency": 2, **values})
    exp, summary = asyncio.run(run_experiment(options, progress=Progress(quiet=True)))
    return exp.notes, summary.done


def test_moving_an_unchanged_task_file_resumes(tmp_path: Path) -> None:
    source = DEMO
    first, second = tmp_path / "a" / "tasks.json", tmp_path / "b" / "moved.json"
    first.parent.mkdir()
    second.parent.mkdir()
    shutil.copy(source, first)
    out = str(tmp_path / "run")
    _, done = _run({"tasks_file": str(first), "out": out})
    assert done == 6
    shutil.move(first, second)
    notes, done = _run({"tasks_file": str(second), "out": out})
    assert done == 0  # nothing re-run: same tasks by content
    assert any("tasks_file" in n and "moved.json" in n for n in notes)


def test_changed_task_content_is_still_refused(tmp_path: Path) -> None:
    source = DEMO
    path = tmp_path / "tasks.json"
    shutil.copy(source, path)
    out = str(tmp_path / "run")
    _run({"tasks_file": str(path), "out": out})
    data = json.loads(path.read_text(encoding="utf-8"))
    data[0]["instructions"] = str(data[0].get("instructions", "")) + " (edited)"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ConfigChangedError, match="content of 1 task"):
        _run({"tasks_file": str(path), "out": out})


def test_raising_trials_extends_the_run_and_lowering_keeps_it(tmp_path: Path) -> None:
    out = str(tmp_path / "run")
    assert _run({"task_set": "demo", "trials": 1, "out": out})[1] == 6
    notes, done = _run({"task_set": "demo", "trials": 3, "out": out})
    assert done == 12 and any("trials: 1 -> 3" in n for n in notes)
    notes, done = _run({"task_set": "demo", "trials": 2, "out": out})
    assert done == 0
    with RunStore.read(out) as store:
        assert len(store.results()) == 18  # lowering --trials removes nothing
        assert store.config()["trials"] == 2


def test_config_hash_ignores_endpoint_file_and_trials_but_not_the_model() -> None:
    base = {"task_set": "demo", "agent_model": "m1@http://a.example/v1"}
    reference = make_run_options(base).config_hash()
    for change in (
        {"agent_model": "m1@http://b.example:8000/v1?api-key=x"},
        {"tasks_file": None, "trials": 4},
    ):
        assert make_run_options({**base, **change}).config_hash() == reference
    assert make_run_options({**base, "agent_model": "m2@http://a.example/v1"}).config_hash() != (
        reference
    )
    assert make_run_options({**base, "seed": 1}).config_hash() != reference
    # a configuration stored under older rules (raw spec, trials, tasks_file) re-hashes alike
    stored = {**make_run_options(base).semantic_dict(), "trials": 9, "bases": ["state"]}
    assert config_hash_of(stored) == reference


@pytest.mark.parametrize(
    "spec",
    [
        f"gpt@http://user:{SECRET}@127.0.0.1:9/v1",
        f"gpt@https://api.example.com/v1?api-key={SECRET}",
        f"gpt@https://api.example.com/v1?key={SECRET}&x=1",
        f"gpt@https://api.example.com/v1?token={SECRET}#frag",
    ],
)
def test_model_url_secrets_never_reach_store_report_or_repr(tmp_path: Path, spec: str) -> None:
    assert SECRET not in (scrub_model_spec(spec) or "")
    factory = ModelFactory()
    factory.register(spec, ScriptedModel(["###STOP###"], repeat_last=True, name="scripted"))
    options = make_run_options(
        {
            "task_set": "demo",
            "num_tasks": 1,
            "agent_model": spec,
            "judge_model": spec,
            "out": str(tmp_path / "run"),
            "quiet": True,
        }
    )
    assert SECRET not in repr(options)
    asyncio.run(run_experiment(options, models=factory, progress=Progress(quiet=True)))
    from typer.testing import CliRunner

    from lifebench.cli import app

    result = CliRunner().invoke(app, ["report", str(tmp_path / "run"), "--json"])
    assert result.exit_code == 0, result.output
    assert SECRET not in result.stdout
    assert "gpt@" in result.stdout  # the model itself is named
    dump = "\n".join(sqlite3.connect(tmp_path / "run" / "run.sqlite").iterdump())
    assert SECRET not in dump


def test_changed_endpoint_for_the_same_model_resumes_with_a_note(tmp_path: Path) -> None:
    out = str(tmp_path / "run")

    def run_with(spec: str) -> list[str]:
        factory = ModelFactory()
        factory.register(spec, ScriptedModel(["###STOP###"], repeat_last=True))
        options = make_run_options(
            {"task_set": "demo", "num_tasks": 2, "agent_model": spec, "out": out, "quiet": True}
        )
        exp, _ = asyncio.run(run_experiment(options, models=factory, progress=Progress(quiet=True)))
        return exp.notes

    run_with("m@http://old.example/v1")
    notes = run_with("m@http://new.example/v1")
    assert any("old.example" in n and "new.example" in n for n in notes)
    with pytest.raises(ConfigChangedError, match="agent_model"):
        run_with("other@http://new.example/v1")

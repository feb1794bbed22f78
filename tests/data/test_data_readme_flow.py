"""The README's path for a new user, end to end and offline: `lifebench data get` lays the
official files out (served here by a loopback server, with fixture contents under the real
catalogue's paths), the sweep example's dry run finds every cell's tasks, and the README's
main job runs as written (its endpoint pointed at a loopback mock provider)."""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from loopback import Behaviour, serve
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.data import DATASETS, Dataset
from lifebench.testing.mock_openai import MockOpenAIServer, MockServerThread, completion_response

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
EXAMPLE = ROOT / "examples" / "vitabench-full.yaml"


def _repinned(data: Dataset, contents: dict[str, bytes]) -> tuple[Dataset, dict[str, bytes]]:
    """``data`` with every file's pins set to the fixture content served for it (same repo,
    commit, path and destination), and the URL path → bytes the server needs."""
    files, served = [], {}
    for item in data.files:
        body = contents[item.dest]
        blob = hashlib.sha1(b"blob %d\0" % len(body) + body, usedforsecurity=False).hexdigest()
        files.append(
            item.model_copy(
                update={
                    "git_blob": blob,
                    "sha256": hashlib.sha256(body).hexdigest(),
                    "size": len(body),
                }
            )
        )
        served[f"/{item.repo}/{item.commit}/{item.path}"] = body
    return data.model_copy(update={"files": tuple(files)}), served


def _vita_contents() -> dict[str, bytes]:
    """Fixture task files: the bundled demo tasks of each domain (cross: the delivery ones)."""
    bundled = resources.files("lifebench.vita").joinpath("data")
    out = {"LICENSE": b"MIT License (fixture)\n"}
    for split in ("cross", "delivery", "instore", "ota"):
        source = "delivery" if split == "cross" else split
        out[f"{split}/tasks_en.json"] = bundled.joinpath(f"{source}_en.json").read_bytes()
        out[f"{split}/tasks.json"] = bundled.joinpath(f"{source}_zh.json").read_bytes()
    return out


def _invoke(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def _readme_block(marker: str) -> str:
    """The README's bash command (continuation lines joined) that contains ``marker``."""
    text = README.read_text(encoding="utf-8")
    for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
        joined = block.replace("\\\n", " ")
        for line in joined.splitlines():
            if marker in line:
                return line.split("#")[0].strip()
    raise AssertionError(f"no README command with {marker!r}")


def _responder(body: dict[str, Any]) -> dict[str, Any]:
    """Agent: look up the orders once, then answer; user: ask, then stop."""
    from lifebench.testing.mock_openai import tool_call

    messages = body["messages"]
    if body.get("tools"):
        if messages[-1]["role"] == "tool":
            return completion_response("Here are your orders. Anything else?")
        return completion_response(None, tool_calls=[tool_call("get_user_all_orders", {})])
    said = sum(1 for m in messages if m["role"] == "assistant")
    return completion_response("###STOP###" if said else "Can you check my orders?")


def test_readme_data_get_sweep_dry_run_and_main_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, served = _repinned(DATASETS["vitabench"], _vita_contents())
    monkeypatch.setitem(DATASETS, "vitabench", data)
    monkeypatch.chdir(tmp_path)
    get = _readme_block("lifebench data get vitabench")
    assert get == "lifebench data get vitabench"
    with serve(Behaviour(files=served)) as base:
        code, out, err = _invoke(*shlex.split(get)[1:], "--base-url", base, "--quiet")
    assert code == 0, out + err
    assert "licence: MIT" in err and f"saved as {Path('data') / 'vitabench' / 'LICENSE'}" in err
    for split in ("cross", "delivery", "instore", "ota"):
        assert (tmp_path / "data" / "vitabench" / split / "tasks_en.json").is_file()

    # the sweep example, as written, finds every cell's tasks
    code, out, err = _invoke("sweep", str(EXAMPLE), "--dry-run")
    assert code == 0, out + err
    assert out.count("→") == 8 and "inputs checked:" in out and "in 8 cell(s)" in out

    # the main job, as written, against a loopback provider in place of api.openai.com
    main = _readme_block("--tasks data/vitabench/delivery/tasks_en.json")
    with MockServerThread(MockOpenAIServer(responder=_responder)) as server:
        command = main.replace("https://api.openai.com/v1", server.base_url)
        assert command != main
        code, out, err = _invoke(*shlex.split(command)[1:], env={"OPENAI_API_KEY": "sk-x"})
    assert code == 0, out + err
    report = json.loads((tmp_path / "runs" / "gpt41-delivery" / "report.json").read_text())
    assert report["n_simulations"] == 4 * report["n_tasks"] > 0 and report["n_errors"] == 0
    assert report["cost"]["sum"] is None and report["cost"]["unpriced"]["agent"] > 0


def test_flowbench_data_runs_the_documented_flow_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The knowledge files are the real ones (the shared samples hold them unchanged, so their
    real pins verify); the turn files are the shared sample turns."""
    from shared_data import shared_file

    contents = {
        f"knowledge/{name}": shared_file("flowbench", name).read_bytes()
        for name in (
            "workflow_final.jsonl",
            "workflow_text.json",
            "workflow_code.json",
            "workflow_flowchart.json",
            "workflow_summary.json",
            "domain_desc.json",
            "role_desc.json",
        )
    }
    turns = shared_file("flowbench", "sample_turns.jsonl").read_bytes()
    contents.update({"turns/sample_turns.jsonl": turns, "turns/turns.jsonl": turns})
    real = DATASETS["flowbench"]
    data, served = _repinned(real, contents)
    knowledge = [f for f in data.files if f.dest.startswith("knowledge/")]
    assert knowledge == [f for f in real.files if f.dest.startswith("knowledge/")]
    monkeypatch.setitem(DATASETS, "flowbench", data)
    monkeypatch.chdir(tmp_path)
    with serve(Behaviour(files=served)) as base:
        code, out, err = _invoke("data", "get", "flowbench", "--base-url", base, "--quiet")
    assert code == 0, out + err
    assert "Google Drive" in err and "no licence stated" in err
    code, out, err = _invoke(
        "run", "--suite", "flow", "--tasks", "data/flowbench/turns/sample_turns.jsonl",
        "--knowledge", "data/flowbench/knowledge", "--agent", "gold", "--out", "runs/flow",
        "--quiet",
    )  # fmt: skip
    assert code == 0, out + err
    assert "pass@1 100.0%" in out

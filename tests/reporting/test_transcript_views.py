"""What the models saw, in ``show``, ``export`` and the viewer; comparability in reports."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.messages import AssistantMessage, Message, ToolCall
from lifebench.models import ModelFactory, ScriptedModel
from lifebench.reporting._export import BriefingLine, CallLine, ExportLine, RunLine
from lifebench.reporting._safe import safe_text
from lifebench.runner import Progress, RunStore
from lifebench.runner._experiment import run_experiment
from lifebench.suites import make_run_options
from lifebench.vita.grading.state import GRADER_VERSION as STATE_VERSION

HOSTILE_REPLY = "[bold red]not markup[/bold red] \x1b[31mred\x1b[0m \u202eevil"


def _agent(messages: Sequence[Message], tools: Any) -> AssistantMessage:
    if not any(m.role == "tool" for m in messages):
        return AssistantMessage(
            content="", tool_calls=[ToolCall(id="c1", name="get_user_all_orders", arguments="{}")]
        )
    return AssistantMessage(content=f"{HOSTILE_REPLY} ###STOP###")


def _judge(messages: Sequence[Message], tools: Any) -> str:
    block = re.search(r"<current_rubrics>\n(.*)\n</current_rubrics>", messages[-1].content, re.S)
    keys = list(json.loads(block.group(1))) if block else []
    return json.dumps(
        [{"rubric_key": k, "meetExpectation": True, "justification": "j"} for k in keys]
    )


def _run(out: Path, judge: str = "judge", **extra: Any) -> Path:
    factory = ModelFactory()
    factory.register("agent", ScriptedModel([_agent], repeat_last=True, name="agent"))
    factory.register("user", ScriptedModel(["Show my orders."], repeat_last=True, name="user"))
    factory.register(judge, ScriptedModel([_judge], repeat_last=True, name=judge))
    options = make_run_options(
        {
            "task_set": "demo",
            "num_tasks": 1,
            "agent_model": "agent",
            "user_model": "user",
            "judge_model": judge,
            "evaluator": "both",
            "out": str(out),
            "quiet": True,
            **extra,
        }
    )
    asyncio.run(run_experiment(options, models=factory, progress=Progress(quiet=True)))
    return out


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), terminal_width=200)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp("views") / "run")


def _unit(run_dir: Path) -> tuple[str, Any]:
    with RunStore.read(run_dir) as store:
        (record,) = store.results()
        return record.task_id, store.transcript(record.task_id, record.trial)


def test_show_prints_the_briefing_and_every_call(run_dir: Path) -> None:
    task, transcript = _unit(run_dir)
    code, out, _ = _cli("show", str(run_dir), task)
    assert code == 0
    assert "briefing" in out and "model calls (4)" in out
    assert "agent (LLMAgent) — system prompt:" in out
    assert "tools offered to the agent: 20" in out
    assert "get_user_all_orders — " in out
    assert "user simulator (LLMUser) — system prompt (its instruction and persona):" in out
    assert "greeting: Hello, how can I help you?" in out
    assert "call 1 user · user" in out and "call 4 judge · rubric · window 1/1 · judge" in out
    assert "+ system: (the agent's system prompt, above)" in out
    assert "request: 5 messages (3 as in the previous agent call, 2 new)" in out
    assert "judge prompts and replies: model calls 4" in out
    assert "(--raw: every request and response body" in out
    # bodies only with --raw, cut texts only without --full
    assert transcript.calls[1].request not in out
    assert "more characters; --full" in out
    code, raw, _ = _cli("show", str(run_dir), task, "--raw")
    assert code == 0
    for call in transcript.calls:  # (control characters shown as escapes, as everywhere)
        assert safe_text(call.request) in raw and safe_text(call.response or "") in raw
    assert "request body (" in raw and "exactly as sent" in raw
    assert "response body (the scripted answer):" in raw


def test_show_prints_model_text_as_text(run_dir: Path) -> None:
    task, _ = _unit(run_dir)
    code, out, _ = _cli("show", str(run_dir), task, "--raw")
    assert code == 0
    assert "[bold red]not markup[/bold red]" in out
    assert "\x1b" not in out and "\u202e" not in out
    assert "\\x1b[31mred" in out and "\\u202eevil" in out


def test_show_call_n_prints_one_call_with_its_bodies(run_dir: Path) -> None:
    task, transcript = _unit(run_dir)
    code, out, _ = _cli("show", str(run_dir), task, "--call", "2")
    assert code == 0
    assert out.startswith("call 2 agent")
    assert transcript.calls[1].request in out
    assert transcript.calls[0].request not in out and "call 3" not in out
    # alone, a call shows its system prompt in full
    assert "(the agent's system prompt, above)" not in out
    code, out, _ = _cli("show", str(run_dir), task, "--call", "9")
    assert code == 0 and "no call 9: the unit has 4 recorded call(s)" in out


def test_show_json_carries_the_transcript(run_dir: Path) -> None:
    task, transcript = _unit(run_dir)
    code, out, _ = _cli("show", str(run_dir), task, "--json")
    assert code == 0
    view = json.loads(out)["transcript"]
    assert view["recorded"] is True
    assert [c["raw_request"] for c in view["calls"]] == [c.request for c in transcript.calls]
    assert view["briefing"]["agent_prompt"] == transcript.briefing.agent.system_prompt
    assert len(view["briefing"]["tools"]) == 20
    judge = view["calls"][-1]
    assert (judge["role"], judge["basis"], judge["label"]) == ("judge", "rubric", "window 1/1")
    assert judge["reply"]["content"].startswith("[")
    agent = view["calls"][2]
    assert agent["kept"] == 3 and [m["role"] for m in agent["new_messages"]] == [
        "assistant",
        "tool",
    ]
    assert agent["reply"]["content"].startswith(HOSTILE_REPLY)
    assert agent["options"]["temperature"] == 0.0 and "seed" in agent["options"]


def test_a_run_without_recording_says_so(tmp_path: Path) -> None:
    out = _run(tmp_path / "run", record_requests=False)
    task, transcript = _unit(out)
    assert not transcript.recorded
    code, shown, _ = _cli("show", str(out), task)
    assert code == 0
    assert shown.count("(not recorded: the run was made with --no-record-requests") == 2
    from starlette.testclient import TestClient

    from lifebench.viewer._app import create_app

    client = TestClient(create_app([out], min_interval=0), base_url="http://127.0.0.1")
    page = client.get(f"/sim?run=0&task={task}&trial=0")
    assert page.status_code == 200 and 'id="not-recorded"' in page.text
    assert 'class="model-call' not in page.text
    assert client.get(f"/api/raw?run=0&task={task}&trial=0&call=1").status_code == 404


def test_export_calls_writes_the_briefing_and_every_call(run_dir: Path) -> None:
    task, transcript = _unit(run_dir)
    code, plain, _ = _cli("export", str(run_dir))
    assert code == 0
    assert [json.loads(x)["record"] for x in plain.splitlines()] == ["run", "unit"]
    code, out, _ = _cli("export", str(run_dir), "--calls")
    assert code == 0
    lines = [TypeAdapter(ExportLine).validate_json(x) for x in out.splitlines()]
    assert [x.record for x in lines] == ["run", "unit", "briefing", "call", "call", "call", "call"]
    run = lines[0]
    assert isinstance(run, RunLine) and run.provenance is not None and run.format_version == 2
    assert run.provenance.graders["rubric"] == "vita.grading.rubric:2"
    briefing = lines[2]
    assert isinstance(briefing, BriefingLine) and briefing.task_id == task
    assert briefing.briefing.agent is not None and len(briefing.briefing.agent.tools or []) == 20
    calls = [x for x in lines if isinstance(x, CallLine)]
    assert [c.request for c in calls] == [c.request for c in transcript.calls]
    assert [(c.role, c.basis) for c in calls] == [
        ("user", None),
        ("agent", None),
        ("agent", None),
        ("judge", "rubric"),
    ]
    _, again, _ = _cli("export", str(run_dir), "--calls")
    assert again == out  # deterministic


def test_reports_mark_runs_that_are_not_comparable(tmp_path: Path) -> None:
    a = _run(tmp_path / "a")
    b = _run(tmp_path / "b", judge="judge-2")
    c = _run(tmp_path / "c", seed=7)
    code, out, _ = _cli("report", str(a), str(b), str(c))
    assert code == 0
    assert "NOT COMPARABLE (vita/delivery): b vs a: judge: judge vs judge-2" in out
    assert "note (vita/delivery): c vs a: seed: 300 vs 7" in out
    code, out, _ = _cli("report", str(a), str(b), str(c), "--json")
    docs = json.loads(out)
    assert docs[0]["comparability"] is None  # the reference
    assert docs[1]["comparability"]["comparable"] is False
    assert docs[1]["comparability"]["reference"] == "a"
    assert [d["aspect"] for d in docs[1]["comparability"]["differences"]] == ["judge"]
    assert docs[2]["comparability"]["comparable"] is True
    assert docs[0]["provenance"]["graders"]["state"] == f"vita.grading.state:{STATE_VERSION}"
    html_path, md_path = tmp_path / "r.html", tmp_path / "r.md"
    code, _, _ = _cli(
        "report", str(a), str(b), "--html", str(html_path), "--markdown", str(md_path)
    )
    assert code == 0
    page = html_path.read_text()
    assert "⚠ runs not comparable" in page and "b is not comparable with a" in page
    assert "judge: judge vs judge-2" in page
    assert "b is not comparable with a" in md_path.read_text()
    code, _, _ = _cli("report", str(a), str(c), "--html", str(html_path))
    assert code == 0 and "⚠ runs not comparable" not in html_path.read_text()
    assert "c vs a (comparable) — seed: 300 vs 7" in html_path.read_text()


def test_the_viewer_shows_calls_briefing_search_and_comparability(
    run_dir: Path, tmp_path: Path
) -> None:
    from starlette.testclient import TestClient

    from lifebench.viewer._app import create_app

    task, transcript = _unit(run_dir)
    other = _run(tmp_path / "other", judge="judge-2")
    client = TestClient(create_app([run_dir, other], min_interval=0), base_url="http://127.0.0.1")
    page = client.get(f"/sim?run=0&task={task}&trial=0").text
    assert 'id="search"' in page and 'id="briefing"' in page and 'id="tools"' in page
    assert page.count('class="model-call') == 4
    assert 'href="#call-4">call 4 (window 1/1)</a>' in page
    assert "&lt;current_rubrics&gt;" in page  # the judge's prompt, escaped
    assert "[bold red]not markup[/bold red]" in page
    raw = client.get(f"/api/raw?run=0&task={task}&trial=0&call=2&part=request")
    assert raw.status_code == 200 and raw.text == transcript.calls[1].request
    assert raw.headers["content-type"] == "text/plain; charset=utf-8"
    assert "content-security-policy" in raw.headers
    missing = client.get(f"/api/raw?run=0&task={task}&trial=0&call=2&part=original")
    assert missing.status_code == 404 and "no original body" in missing.text
    assert client.get(f"/api/raw?run=0&task={task}&trial=0&call=x").status_code == 404
    assert client.get(f"/api/raw?run=9&task={task}&trial=0&call=1").status_code == 404
    index = client.get("/").text
    assert "⚠ not comparable with run" in index
    assert "other is not comparable with run" in index and "judge: judge vs judge-2" in index
    compare = client.get(f"/compare?task={task}&a=0&b=1").text
    assert "these runs are not comparable" in compare

"""Everything the model saw, for one unit of each suite, against the loopback mock server.

For a VitaBench unit (LLM agent and user, ``--evaluator both`` with the rubric judge), a
TravelBench unit (multi-turn: agent, user, tool simulator, judge and meta-judge) and a FlowBench
session-level unit (ReAct agent, user and tool simulators, session judge), ``lifebench show``
and ``lifebench view`` display the exact system prompts, the user simulator's instruction, the
tools, the raw request and response of every call — each request byte for byte as the server
received it — and the judge's prompts and replies, every call attributed to its role.
"""

from __future__ import annotations

import html
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.runner import RunStore
from lifebench.testing import MockOpenAIServer
from lifebench.testing.mock_openai import MockServerThread, completion_response, tool_call

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "flow"))
from flow_synthetic import write_world

Responder = Callable[[dict[str, Any]], dict[str, Any]]
ROLE_OF_MODEL = {"agent-m": "agent", "user-m": "user", "judge-m": "judge", "tool-m": "tool"}


# ---------------------------------------------------------------------------- the three suites


def _vita(body: dict[str, Any]) -> dict[str, Any]:
    model, messages = body["model"], body["messages"]
    if model == "agent-m":
        if not any(m["role"] == "tool" for m in messages):
            return completion_response(
                None, tool_calls=[tool_call("get_user_all_orders", {}, "call_1")]
            )
        return completion_response("You have no orders yet. ###STOP###")
    if model == "user-m":
        return completion_response("Hi, please show my orders.")
    prompt = messages[-1]["content"]
    block = re.search(r"<current_rubrics>\n(.*)\n</current_rubrics>", prompt, re.S)
    keys = list(json.loads(block.group(1))) if block else []
    verdicts = [{"rubric_key": k, "meetExpectation": True, "justification": "[4]"} for k in keys]
    return completion_response(json.dumps(verdicts))


DIMS = ("reasoning_planning", "summarization_extraction", "presentation", "user_interaction")


def _travel(body: dict[str, Any]) -> dict[str, Any]:
    model, messages = body["model"], body["messages"]
    if model == "agent-m":
        if messages[-1].get("role") == "tool":
            return completion_response("成都市当前晴，22℃。")
        users = [m for m in messages if m.get("role") == "user"]
        if len(users) == 1:
            return completion_response("你想查哪个城市的天气？")
        return completion_response(
            None, tool_calls=[tool_call("weather_current_conditions", {"location": "成都市"})]
        )
    if model == "user-m":
        last = str(messages[-1].get("content") or "")
        return completion_response("成都的。" if last.endswith("？") else "[Finish Conversation]")
    if model == "judge-m":
        if "审核" in str(messages[0].get("content")):
            return completion_response(
                "<meta_evaluation><reasoning>可靠</reasoning><rating>较好</rating></meta_evaluation>"
            )
        blocks = "".join(
            f"<{d}><reasoning>有依据</reasoning><rating>较好</rating></{d}>" for d in DIMS
        )
        return completion_response(f"<response>{blocks}</response>")
    return completion_response("晴，22℃，东南风2级")


def _flow(body: dict[str, Any]) -> dict[str, Any]:
    model, messages = body["model"], body["messages"]
    if model == "agent-m":
        seen = [m for m in messages if m["role"] == "user" and m["content"].startswith("Observ")]
        last = messages[-1]["content"]
        if not seen and "B-77" in last:
            text = 'Thought: look it up\nAction: lookupBill\nAction Input: {"bill_id": "B-77"}'
        elif len(seen) == 1 and last.startswith("Observ"):
            text = "Thought: current_node=PB003.\nResponse: Bill B-77 costs 120. Goodbye!"
        else:
            text = "Thought: current_node=PB001.\nResponse: Which bill?"
        return completion_response(text)
    if model == "user-m":
        conversation = messages[-1]["content"]
        if "you speak first" in conversation:
            return completion_response("User: Hi, I'd like to pay a bill.")
        if "Goodbye" in conversation:
            return completion_response("###STOP###")
        return completion_response("It's B-77.")
    if model == "judge-m":
        return completion_response(
            '{"success": true, "total_goals": 1, "achieved_goals": 1, "reason": "done"}'
        )
    return completion_response('{"amount": 120}')


def _models(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "models.json"
    spec = {
        r: {"model": f"{r}-m", "base_url": url, "api_key_env": None} for r in ROLE_OF_MODEL.values()
    }
    path.write_text(json.dumps({"models": spec}))
    return path


def _invoke(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.stderr + result.stdout
    return result.stdout


@pytest.fixture
def served() -> Iterator[Callable[[Responder], MockOpenAIServer]]:
    threads: list[MockServerThread] = []

    def start(responder: Responder) -> MockOpenAIServer:
        thread = MockServerThread(MockOpenAIServer(responder=responder))
        threads.append(thread)
        return thread.__enter__()

    yield start
    for thread in threads:
        thread.__exit__(None, None, None)


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _page_text(page: str) -> str:
    return _squash(html.unescape(re.sub(r"<[^>]+>", " ", page)))


def _check(
    out: Path,
    server: MockOpenAIServer,
    responder: Responder,
    instruction: str,
    *,
    tools: bool,
    judge_labels: set[str | None],
) -> dict[str, Any]:
    """The acceptance checks, for the run's only unit."""
    with RunStore.read(out) as store:
        (record,) = store.results()
    unit = [str(out), record.task_id, "--trial", str(record.trial)]
    view = json.loads(_invoke("show", *unit, "--json"))
    text = _invoke("show", *unit, "--full", "--raw")
    transcript = view["transcript"]
    calls, briefing = transcript["calls"], transcript["briefing"]
    requests = [r for r in server.requests if r.fault is None]

    # every call: attributed to its role, its request byte for byte what the server got
    assert len(calls) == len(requests) > 0
    assert sorted(c["raw_request"] for c in calls) == sorted(r.raw.decode() for r in requests)
    for call in calls:
        body = json.loads(call["raw_request"])
        assert call["role"] == ROLE_OF_MODEL[body["model"]]
        assert json.loads(call["raw_response"]) == json.loads(json.dumps(responder(body)))
        assert call["raw_request"] in text and call["raw_response"] in text  # as sent / received
    assert {c["role"] for c in calls} == {ROLE_OF_MODEL[r.body["model"]] for r in requests}

    # the system prompts, exactly as the first request of each role carried them
    first = {c["role"]: json.loads(c["raw_request"]) for c in reversed(calls)}
    agent_prompt = first["agent"]["messages"][0]["content"]
    assert briefing["agent_prompt"] == agent_prompt
    assert _squash(agent_prompt) in _squash(text)
    user_prompt = briefing["user_prompt"]
    assert len(instruction) > 10 and _squash(instruction) in _squash(user_prompt)
    assert _squash(user_prompt) in _squash(text)
    assert any(m["content"] == user_prompt for m in first["user"]["messages"])

    # the tools offered, as sent
    if tools:
        assert briefing["tools"] and json.loads(briefing["tools_json"]) == first["agent"]["tools"]
        for tool in briefing["tools"]:
            assert tool["name"] in text
        assert _squash(briefing["tools_json"]) in _squash(text)

    # the judge's prompts and replies, per window / judgement
    judged = [c for c in calls if c["role"] == "judge"]
    assert judged and {c["label"] for c in judged} == judge_labels
    for call in judged:
        assert all(c["basis"] for c in judged)
        reply = json.loads(call["raw_response"])["choices"][0]["message"]["content"]
        assert _squash(reply) in _squash(text)
        for message in json.loads(call["raw_request"])["messages"]:
            assert _squash(message["content"]) in _squash(text)

    # the viewer: the same prompts and tools on the page, each body exactly through /api/raw
    from starlette.testclient import TestClient

    from lifebench.viewer._app import create_app

    client = TestClient(create_app([out], min_interval=0), base_url="http://127.0.0.1")
    query = f"run=0&task={record.task_id}&trial={record.trial}"
    page = client.get(f"/sim?{query}")
    assert page.status_code == 200
    shown = _page_text(page.text)
    assert _squash(agent_prompt) in shown and _squash(user_prompt) in shown
    if tools:
        assert all(_squash(t["name"]) in shown for t in briefing["tools"])
    assert page.text.count('class="model-call') == len(calls)
    for call in calls:
        assert f'id="call-{call["number"]}"' in page.text
        for part, key in (("request", "raw_request"), ("response", "raw_response")):
            got = client.get(f"/api/raw?{query}&call={call['number']}&part={part}")
            assert got.status_code == 200 and got.text == call[key]
    for call in judged:
        reply = json.loads(call["raw_response"])["choices"][0]["message"]["content"]
        assert _squash(reply) in shown
    return view


def test_vitabench_unit_with_the_rubric_judge(
    tmp_path: Path, served: Callable[[Responder], MockOpenAIServer]
) -> None:
    server = served(_vita)
    out = tmp_path / "vita"
    _invoke(
        "run", "--task-set", "demo", "--num-tasks", "1", "--agent", "llm", "--user", "llm",
        "--evaluator", "both", "--agent-model", "agent", "--user-model", "user",
        "--judge-model", "judge", "--models", str(_models(tmp_path, server.base_url)),
        "--out", str(out), "--quiet",
    )  # fmt: skip
    with RunStore.read(out) as store:
        (task_json,) = store.task_data().values()
    task = json.loads(task_json)
    view = _check(out, server, _vita, task["instructions"], tools=True, judge_labels={"window 1/1"})
    briefing = view["transcript"]["briefing"]
    assert briefing["user_kind"] == "LLMUser"
    profile = task["user_scenario"]["user_profile"]  # the persona, in the user's prompt
    values = [str(v) for v in (profile.values() if isinstance(profile, dict) else [profile])]
    assert values and all(_squash(v) in _squash(briefing["user_prompt"]) for v in values[:3])


def test_travelbench_unit_with_judge_meta_judge_and_tool_simulator(
    tmp_path: Path, served: Callable[[Responder], MockOpenAIServer]
) -> None:
    from lifebench.travel import data

    server = served(_travel)
    rows = tmp_path / "multi_turn.jsonl"
    (row,) = data.load_bundled_rows("multi", "zh")[:1]
    rows.write_text(json.dumps(row, ensure_ascii=False) + "\n", "utf-8")
    out = tmp_path / "travel"
    _invoke(
        "run", "--suite", "travel", "--tasks", str(rows), "--agent-model", "agent",
        "--user-model", "user", "--judge-model", "judge", "--tool-model", "tool",
        "--models", str(_models(tmp_path, server.base_url)), "--out", str(out), "--quiet",
    )  # fmt: skip
    view = _check(
        out, server, _travel, row["intent"], tools=True, judge_labels={"judge", "meta-judge"}
    )
    assert _squash(row["user_profile"][:40]) in _squash(
        view["transcript"]["briefing"]["user_prompt"]
    )
    roles = {c["role"] for c in view["transcript"]["calls"]}
    assert roles == {"agent", "user", "judge", "tool"}


def test_flowbench_session_unit_with_user_and_tool_simulators_and_judge(
    tmp_path: Path, served: Callable[[Responder], MockOpenAIServer]
) -> None:
    server = served(_flow)
    world = write_world(tmp_path / "world")
    out = tmp_path / "flow"
    _invoke(
        "run", "--suite", "flow", "--level", "session", "--setting", "cross",
        "--tasks", str(world["sessions"]), "--knowledge", str(world["kb"]),
        "--agent-model", "agent", "--user-model", "user", "--judge-model", "judge",
        "--tool-model", "tool", "--models", str(_models(tmp_path, server.base_url)),
        "--out", str(out), "--quiet",
    )  # fmt: skip
    task = json.loads(world["sessions"].read_text().splitlines()[0])
    goal = task["user_agent"]["first_turn_hint"]  # what the user simulator is told to do
    assert goal.startswith("You want to pay bill B-77")
    view = _check(out, server, _flow, goal, tools=False, judge_labels={None})
    roles = {c["role"] for c in view["transcript"]["calls"]}
    assert roles == {"agent", "user", "judge", "tool"}


def test_a_regrade_from_the_cache_shows_the_response_that_filled_it(
    tmp_path: Path, served: Callable[[Responder], MockOpenAIServer]
) -> None:
    server = served(_vita)
    models = str(_models(tmp_path, server.base_url))
    out = tmp_path / "vita"
    _invoke(
        "run", "--task-set", "demo", "--num-tasks", "1", "--agent", "llm", "--user", "llm",
        "--evaluator", "both", "--agent-model", "agent", "--user-model", "user",
        "--judge-model", "judge", "--models", models, "--out", str(out), "--quiet",
    )  # fmt: skip
    before = server.count
    _invoke("eval", str(out), "--judge-model", "judge", "--models", models, "--quiet")
    assert server.count == before  # every judge call answered from the model cache
    with RunStore.read(out) as store:
        (record,) = store.results()
        t = store.transcript(record.task_id, record.trial)
    judged = [c for c in t.calls if c.call.basis == "rubric"]
    assert len(judged) == 1 and judged[0].source == "regrade"
    hit = judged[0]
    assert hit.call.cached and hit.call.response_kind == "cache" and hit.call.cache_key
    first = next(r for r in server.requests if r.body["model"] == "judge-m")
    assert hit.request == first.raw.decode()  # what would have been sent, exactly
    original = json.loads(hit.original_response or "{}")
    assert original == json.loads(json.dumps(_vita(first.body)))
    text = _invoke("show", str(out), record.task_id, "--raw")
    assert "from the model cache" in text and "response that filled the cache" in text

"""Episodes played through the faces of the step protocol (rollout, OpenEnv, MCP) are stored
with what the models saw, as ``lifebench run`` stores a unit: the briefing (system prompts,
the user simulator's instruction, the tools offered) and every model call the environment
made — the user simulator's, the judge's, and for a rollout the policy's as the agent's — so
``show --json`` of a served unit shows them; ``--no-record-requests`` stores none."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from replay import mcp_stdio, run, server
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.runner import RunStore
from lifebench.testing.mock_openai import MockOpenAIServer, MockServerThread, completion_response

USER_SAYS = "I want to see my orders, please."
BYE = "Goodbye ###STOP###"


def _roles(body: dict[str, Any]) -> dict[str, Any]:
    """One endpoint for every role: the agent (offered tools) says goodbye, the judge (asked
    about rubrics) finds every rubric met, the user simulator asks for its orders."""
    last = str(body["messages"][-1].get("content") or "")
    rubrics = re.search(r"<current_rubrics>\n(.*)\n</current_rubrics>", last, re.S)
    if rubrics:
        keys = list(json.loads(rubrics.group(1)))
        verdicts = [
            {"rubric_key": k, "meetExpectation": True, "justification": "[1]"} for k in keys
        ]
        return completion_response(json.dumps(verdicts))
    if body.get("tools"):
        return completion_response(BYE)
    return completion_response(USER_SAYS)


def _shown(run_dir: Path) -> dict[str, Any]:
    """``lifebench show RUN_DIR --json`` of the run's only task, trial 0."""
    with RunStore.read(run_dir) as store:
        ((task_id, trial),) = [(r.task_id, r.trial) for r in store.results()]
    assert trial == 0
    shown = CliRunner().invoke(app, ["show", str(run_dir), task_id, "--json"])
    assert shown.exit_code == 0, shown.output
    return dict(json.loads(shown.stdout))


def _assert_recorded(view: dict[str, Any], *, roles: set[str], record: bool) -> None:
    transcript = view["transcript"]
    if not record:
        assert not transcript["recorded"] and transcript["calls"] == []
        assert transcript["briefing"] is None
        return
    assert transcript["recorded"]
    briefing = transcript["briefing"]
    assert briefing["agent_prompt"] and briefing["user_prompt"]
    assert briefing["tools"], briefing  # the tool schemas offered to the agent
    calls = transcript["calls"]
    assert {c["role"] for c in calls} == roles, [c["role"] for c in calls]
    user_calls = [c for c in calls if c["role"] == "user"]
    first = json.loads(user_calls[0]["raw_request"])
    assert first["messages"][0]["content"] == briefing["user_prompt"]  # as sent
    assert USER_SAYS in (user_calls[0]["raw_response"] or "")
    said = [m["content"] for m in view["messages"] if m["role"] == "user"]
    assert said[0] == USER_SAYS  # the call behind the user's first message
    judged = [c for c in calls if c["role"] == "judge"]
    if "judge" in roles:
        assert judged and all(c["basis"] == "rubric" for c in judged)


@pytest.mark.parametrize("record", [True, False], ids=["recorded", "no-record-requests"])
def test_a_rollout_stores_every_call_of_its_episodes_in_its_run_directory(
    tmp_path: Path, record: bool
) -> None:
    run_dir = tmp_path / "run"
    with MockServerThread(MockOpenAIServer(responder=_roles)) as mock:
        spec = f"m@{mock.base_url}"
        result = CliRunner().invoke(
            app,
            [
                "rollout",
                "--suite",
                "vita",
                "--num-tasks",
                "1",
                "--policy-model",
                spec,
                "--user-model",
                spec,
                "--evaluator",
                "both",
                "--judge-model",
                spec,
                "--out",
                str(tmp_path / "r.jsonl"),
                "--run-dir",
                str(run_dir),
                "--record-requests" if record else "--no-record-requests",
            ],
        )
    assert result.exit_code == 0, result.output
    view = _shown(run_dir)
    _assert_recorded(view, roles={"agent", "user", "judge"}, record=record)
    if record:  # the policy's call is the agent's, with the briefing's prompt and tools
        agent = next(c for c in view["transcript"]["calls"] if c["role"] == "agent")
        body = json.loads(agent["raw_request"])
        briefing = view["transcript"]["briefing"]
        assert body["messages"][0]["content"] == briefing["agent_prompt"]
        assert [t["function"]["name"] for t in body["tools"]] == [
            t["name"] for t in briefing["tools"]
        ]
    line = json.loads((tmp_path / "r.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert line["status"] == "graded"


@pytest.mark.parametrize("record", [True, False], ids=["recorded", "no-record-requests"])
def test_serve_openenv_stores_each_episode_with_the_calls_behind_it(
    tmp_path: Path, record: bool
) -> None:
    from openenv.core import GenericEnvClient

    run_dir = tmp_path / "run"

    async def play(address: str) -> None:
        async with GenericEnvClient(base_url=f"http://{address}") as client:
            first = await client.reset()
            assert first.observation["messages"][-1]["content"] == USER_SAYS
            result = await client.step({"type": "message", "content": BYE})
            assert result.done and result.observation["status"] == "graded"

    with MockServerThread(MockOpenAIServer(responder=_roles)) as mock:
        spec = f"m@{mock.base_url}"
        args = ["serve", "openenv", "--suite", "vita", "--domain", "delivery", "--num-tasks", "1"]
        flag = "--record-requests" if record else "--no-record-requests"
        options = ["--user-model", spec, "--evaluator", "both", "--judge-model", spec]
        with server([*args, *options, "--port", "0", "--out", str(run_dir), flag]) as address:
            run(play(address))
    _assert_recorded(_shown(run_dir), roles={"user", "judge"}, record=record)


@pytest.mark.parametrize("record", [True, False], ids=["recorded", "no-record-requests"])
def test_serve_mcp_stores_the_user_simulator_s_calls_and_the_briefing(
    tmp_path: Path, record: bool
) -> None:
    from mcp import Client

    run_dir = tmp_path / "run"
    with MockServerThread(MockOpenAIServer(responder=_roles)) as mock:
        spec = f"m@{mock.base_url}"
        flag = "--record-requests" if record else "--no-record-requests"
        task = ["--task", "GEN-delivery-0-0", "--user-model", spec, "--out", str(run_dir), flag]
        params = mcp_stdio(["serve", "mcp", "--suite", "vita", "--domain", "delivery", *task])

        async def session() -> dict[str, Any]:
            async with Client(params) as client:
                said = await client.call_tool("send_message_to_user", {"message": "Hello?"})
                assert USER_SAYS in str(said.content[0].text)
                done = await client.call_tool("finish", {})
                return dict(json.loads(done.content[0].text))

        outcome = run(session())
    assert outcome["status"] == "graded"
    view = _shown(run_dir)
    _assert_recorded(view, roles={"user"}, record=record)
    if record:  # the first message and the answer to "Hello?"
        assert [c["role"] for c in view["transcript"]["calls"]] == ["user", "user"]

"""The faces one by one: the rollout command, the OpenEnv and MCP servers as the CLI starts
them, the Gymnasium wrapper, and how an outcome says why it carries no reward."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from replay import mcp_replay, mcp_stdio, openai_message, reference, run, server
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.evaluation import BasisResult, Evaluation
from lifebench.rl import Outcome
from lifebench.simulation import Simulation, TerminationReason
from lifebench.testing.mock_openai import MockOpenAIServer, MockServerThread, completion_response


def _agent_or_garbage(body: dict[str, Any]) -> dict[str, Any]:
    """An agent that says goodbye at once; any other caller (the judge) gets no JSON."""
    if body.get("tools"):
        return completion_response("Goodbye ###STOP###")
    return completion_response("this is not the JSON a judge must give")


def test_rollout_writes_one_record_per_episode_and_a_failed_judge_is_no_reward(
    tmp_path: Path,
) -> None:
    out = tmp_path / "r.jsonl"
    with MockServerThread(MockOpenAIServer(responder=_agent_or_garbage)) as mock:
        spec = f"m@{mock.base_url}"
        args = ["rollout", "--suite", "vita", "--num-tasks", "2", "--trials", "2"]
        result = CliRunner().invoke(
            app,
            [
                *args,
                "--policy-model",
                spec,
                "--evaluator",
                "both",
                "--judge-model",
                spec,
                "--out",
                str(out),
            ],
        )
        assert result.exit_code == 1, result.output
        assert "4 episodes: 0 graded" in result.stdout and "4 grading failed" in result.stdout
        records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        assert [(r["task_id"], r["trial"]) for r in records] == sorted(
            (r["task_id"], r["trial"]) for r in records
        )
        for r in records:
            assert r["status"] == "grading_failed" and r["reward"] is None
            assert r["termination"] == "agent_stop" and "judge" in r["error"]
            assert r["bases"]["state"]["reward"] == 0.0  # the state basis was still computed
            assert r["trajectory"][-1]["content"] == "Goodbye ###STOP###"
            assert r["usage"]["agent"]["calls"] == 1
        again = CliRunner().invoke(app, [*args, "--policy-model", spec, "--out", str(out)])
        assert again.exit_code == 2 and "exists" in again.output
        graded = CliRunner().invoke(
            app, [*args, "--policy-model", spec, "--out", str(out), "--overwrite"]
        )
        assert graded.exit_code == 0, graded.output
        assert "4 episodes: 4 graded (mean reward 0.0000)" in graded.stdout


def test_rollout_against_a_dead_endpoint_stops_with_the_provider_message(tmp_path: Path) -> None:
    with MockServerThread(MockOpenAIServer(refuse=True)) as mock:
        result = CliRunner().invoke(
            app,
            [
                "rollout",
                "--suite",
                "travel",
                "--num-tasks",
                "1",
                "--policy-model",
                f"m@{mock.base_url}",
                "--out",
                str(tmp_path / "r.jsonl"),
            ],
        )
    assert result.exit_code == 3, result.output
    assert "refuses" in result.output and "Traceback" not in result.output


def _outcome(evaluation: Evaluation | None, **sim: Any) -> Outcome:
    simulation = Simulation(
        task_id="t", trial=0, seed=1, termination=sim.pop("termination", "user_stop"), **sim
    )
    return Outcome.of(simulation, evaluation, ["a"])


def test_an_outcome_carries_a_reward_only_when_graded() -> None:
    ok = BasisResult(basis="a", reward=1.0, score=1.0)
    assert _outcome(Evaluation(reward=1.0, basis="a", by_basis={"a": ok})).reward == 1.0
    failed = _outcome(Evaluation(reward=0.0, basis="a", by_basis={"a": ok}, error="judge died"))
    assert (failed.status, failed.reward, failed.error) == ("grading_failed", None, "judge died")
    blind = BasisResult(basis="a", reward=0.0, score=0.0, gradable=False, note="no rubric")
    ungradable = _outcome(Evaluation(reward=0.0, basis="a", by_basis={"a": blind}, gradable=False))
    assert (ungradable.status, ungradable.reward) == ("ungradable", None)
    assert ungradable.error is not None and "no rubric" in ungradable.error
    infra = _outcome(None, termination=TerminationReason.INFRASTRUCTURE_ERROR, error="E: down")
    assert (infra.status, infra.reward, infra.error) == ("infrastructure_error", None, "E: down")
    rejected = _outcome(
        None, termination=TerminationReason.INFRASTRUCTURE_ERROR, info={"content_rejected": True}
    )
    assert (rejected.status, rejected.reward) == ("rejected", None)


def test_serve_openenv_plays_episodes_over_its_websocket(tmp_path: Path) -> None:
    from openenv.core import GenericEnvClient

    values = {"suite": "vita", "domain": "instore", "num_tasks": 1}
    ref = run(reference(values))
    ((task_id, _, seed),) = ref.units

    async def play(address: str) -> None:
        async with GenericEnvClient(base_url=f"http://{address}") as client:
            with pytest.raises(RuntimeError, match="no episode"):
                await client.step({"type": "list_tools"})
            with pytest.raises(RuntimeError, match="unknown task id"):
                await client.reset(task_id="nope")
            first = await client.reset()  # the server's first task, trial 0, the run's seed
            obs = first.observation
            assert (obs["task_id"], obs["trial"], obs["seed"]) == (task_id, 0, seed)
            assert obs["role"] == "assistant" and obs["messages"][0]["role"] == "system"
            assert first.reward is None and not first.done
            listed = await client.step({"type": "list_tools"})
            names = [t["name"] for t in listed.observation["mcp_tools"]]
            assert names[-3:] == ["send_message_to_user", "read_conversation", "finish"]
            assert {t["function"]["name"] for t in obs["tools"]} == set(names[:-3])
            result = first
            for answer in ref.answers[seed]:
                result = await client.step({"type": "message", **openai_message(answer)})
            assert result.done and result.reward == ref.outcomes[seed].reward
            assert result.observation["reward_components"]["bases"]["state"]["criteria"]
            state = await client.state()
            assert state["done"] and state["termination"] == ref.outcomes[seed].termination
            second = await client.reset()  # the same task again: its next trial
            assert second.observation["trial"] == 1
            call = await client.step(
                {"type": "call_tool", "tool_name": "finish", "arguments": {"message": "bye"}}
            )
            assert call.done and call.observation["termination"] == "agent_stop"
            assert json.loads(call.observation["tool_result"])["status"] == "graded"

    with server(
        [
            "serve",
            "openenv",
            "--suite",
            "vita",
            "--domain",
            "instore",
            "--num-tasks",
            "1",
            "--port",
            "0",
        ]
    ) as address:
        run(play(address))


def test_serve_mcp_over_stdio_stores_each_episode_for_show_and_eval(tmp_path: Path) -> None:
    from mcp import Client

    values = {"suite": "travel", "num_tasks": 1}
    ref = run(reference(values))
    ((task_id, _, seed),) = ref.units
    out = tmp_path / "mcp-run"
    params = mcp_stdio(["serve", "mcp", "--suite", "travel", "--task", task_id, "--out", str(out)])

    async def session() -> list[dict[str, Any]]:
        outcomes = []
        async with Client(params) as client:
            assert task_id in (client.instructions or "")
            prompt = await client.get_prompt("task")
            assert prompt.messages[-1].role == "user"  # the user's request, as the agent sees it

            async def call(name: str, arguments: dict[str, Any]) -> str:
                result = await client.call_tool(name, arguments)
                return str(result.content[0].text)

            outcomes.append(await mcp_replay(call, ref.replies[seed]))
            unknown = await client.call_tool("no_such_tool", {})
            assert unknown.is_error  # the next trial began: an unknown tool is a tool error
            outcomes.append(json.loads(await call("finish", {})))
        return outcomes

    first, second = run(session())
    assert first["reward"] == ref.outcomes[seed].reward and first["trial"] == 0
    assert second["trial"] == 1 and second["tool_errors"] == 1
    shown = CliRunner().invoke(app, ["show", str(out), task_id, "--trial", "1"])
    assert shown.exit_code == 0 and "no_such_tool" in shown.stdout
    evaluated = CliRunner().invoke(app, ["eval", str(out), "--quiet"])
    assert evaluated.exit_code == 0, evaluated.output
    report = json.loads(CliRunner().invoke(app, ["report", str(out), "--json"]).stdout)
    assert report["n_simulations"] == 2
    assert report["config"]["agent_model"] == "mcp-client"


def test_the_gym_wrapper_speaks_gymnasium() -> None:
    from gymnasium.utils.env_checker import check_env

    from lifebench.rl.gym import LifebenchGymEnv

    values = {
        "suite": "flow",
        "suite_options": {"level": "session", "max_turns": 1},
        "num_tasks": 1,
    }
    ref = run(reference(values))
    env = LifebenchGymEnv(values)
    try:
        obs, info = env.reset(options={"trial": 3})
        assert env.observation_space.contains(obs) and info["trial"] == 3
        assert not env.action_space.contains({"role": "user", "content": "x"})
        ((_, _, seed),) = ref.units
        _, reward, terminated, truncated, info = env.step(openai_message(ref.answers[seed][0]))
        assert truncated and not terminated  # one action allowed: cut by the limit
        assert info["outcome"]["termination"] == "max_steps"
        assert reward == info["outcome"]["reward"] or math.isnan(reward)
    finally:
        env.close()
    checked = LifebenchGymEnv({"suite": "vita", "num_tasks": 2})
    try:
        check_env(checked, skip_render_check=True)  # seeded resets, random-word actions
        obs, _ = checked.reset(seed=5)
        again, _ = checked.reset(seed=5)
        assert obs == again and obs["task_id"] == checked.step_environment.task_ids[1]
    finally:
        checked.close()


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _example(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / args[0]), *args[1:]],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_documented_examples_run(tmp_path: Path) -> None:
    loop = _example("rl_step_loop.py", "--num-tasks", "2")
    assert loop.count("reward 0.5 (graded, max_turns)") == 2
    session = _example("mcp_client.py", "GEN-delivery-0-0", str(tmp_path / "mcp"))
    assert "reward 0.0 (graded, user_stop)" in session and "not met" in session
    shown = CliRunner().invoke(app, ["show", str(tmp_path / "mcp"), "GEN-delivery-0-0"])
    assert shown.exit_code == 0 and "Which store" in shown.stdout
    with server(["serve", "openenv", "--suite", "vita", "--num-tasks", "2", "--port", "0"]) as a:
        client = _example("openenv_client.py", f"http://{a}")
    assert client.count("(graded, agent_stop)") == 2 and "send_message_to_user" in client


def test_serve_mcp_over_http_and_its_refusals(tmp_path: Path) -> None:
    from mcp import Client

    out = tmp_path / "run"
    args = ["serve", "mcp", "--suite", "vita", "--domain", "ota", "--task"]
    bad = CliRunner().invoke(app, [*args, "nope", "--out", str(out)])
    assert bad.exit_code == 2 and "nope" in bad.output
    odd = CliRunner().invoke(app, [*args, "x", "--transport", "carrier-pigeon"])
    assert odd.exit_code == 2 and "stdio or http" in odd.output
    task_id = "GEN-ota-0-0"

    async def session(address: str) -> dict[str, Any]:
        async with Client(f"http://{address}/mcp") as client:
            prompts = await client.list_prompts()
            assert [p.name for p in prompts.prompts] == ["task"]
            said = await client.call_tool("send_message_to_user", {"message": "Hello?"})
            assert not said.is_error
            return dict(json.loads((await client.call_tool("finish", {})).content[0].text))

    with server([*args, task_id, "--transport", "http", "--port", "0", "--out", str(out)]) as a:
        outcome = run(session(a))
    assert outcome["task_id"] == task_id and outcome["status"] == "graded"
    report = json.loads(CliRunner().invoke(app, ["report", str(out), "--json"]).stdout)
    assert report["n_simulations"] == 1


def test_the_policy_plays_vitabench_s_user_where_the_user_is_a_chat_model() -> None:
    from lifebench.errors import InputError
    from lifebench.rl import StepEnvironment

    async def play() -> None:
        env = StepEnvironment.build({"suite": "vita", "num_tasks": 1}, policy_plays_user=True)
        (task_id,) = env.task_ids
        session = await env.reset(task_id)
        first = session.observation()
        assert first.role == "user" and first.tools == []
        assert first.messages[0]["role"] == "system"  # the persona prompt
        assert first.messages[-1] == {"role": "user", "content": "Hello, how can I help you?"}
        agent = await session.step({"role": "assistant", "content": "I want noodles."})
        assert agent.role == "assistant"
        assert agent.new_messages[-1].role == "user"
        assert agent.new_messages[-1].content == "I want noodles."
        await session.step({"role": "assistant", "content": "Which shop? "})
        end = await session.step({"role": "assistant", "content": "Never mind. ###STOP###"})
        assert end.done and end.outcome is not None
        assert end.outcome.termination == "user_stop" and end.outcome.status == "graded"
        await env.aclose()
        travel = StepEnvironment.build({"suite": "travel", "num_tasks": 1}, policy_plays_user=True)
        with pytest.raises(InputError, match="not driven by a chat model"):
            await travel.reset(travel.task_ids[0])
        await travel.aclose()

    run(play())

"""Parity of every face: the same trajectory, played through ``lifebench run``, the step
protocol, the rollout, the OpenEnv server, the MCP server and the Gymnasium wrapper, earns the
same reward and components as ``lifebench eval`` gives the stored run.

The trajectory is the suite's offline agent's (oracle, scripted, gold) on bundled tasks,
replayed as the model's answers (a loopback mock endpoint for the CLI faces) or as an MCP
client's actions. Set LIFEBENCH_PARITY_TASKS=0 to check every bundled task (default: the
first 3 of each suite and domain).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from replay import (
    Reference,
    components,
    mcp_replay,
    mcp_steps,
    openai_message,
    reference,
    responder,
    run,
)
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.rl import Outcome, StepEnvironment, rollout
from lifebench.rl._record import RunRecorder
from lifebench.rl._serving import serving
from lifebench.runner import RunStore
from lifebench.suites import make_run_options
from lifebench.testing.mock_openai import MockOpenAIServer, MockServerThread

CASES: dict[str, tuple[dict[str, Any], list[str]]] = {
    "vita-delivery": ({"suite": "vita", "domain": "delivery"}, []),
    "vita-instore": ({"suite": "vita", "domain": "instore"}, []),
    "vita-ota": ({"suite": "vita", "domain": "ota"}, []),
    "vita-cross": ({"suite": "vita", "domain": "cross"}, []),
    "vita-zh": ({"suite": "vita", "domain": "delivery", "language": "zh"}, []),
    # single-20: the scripted agent batches two tool calls in one message
    "travel": ({"suite": "travel", "task_ids": ["single-1", "single-20", "multi-1"]}, []),
    "flow-session-react": (
        {"suite": "flow", "suite_options": {"level": "session"}},
        ["--level", "session"],
    ),
    "flow-session-fc": (
        {"suite": "flow", "suite_options": {"level": "session", "agent_mode": "function-calling"}},
        ["--level", "session", "--agent-mode", "function-calling"],
    ),
    "flow-session-cross": (
        {"suite": "flow", "suite_options": {"level": "session", "setting": "cross"}},
        ["--level", "session", "--setting", "cross"],
    ),
}
TRIALS = 2


def _selected(values: dict[str, Any]) -> dict[str, Any]:
    limit = int(os.environ.get("LIFEBENCH_PARITY_TASKS", "3"))
    if limit <= 0:
        return {k: v for k, v in values.items() if k != "task_ids"}
    return values if "task_ids" in values else {**values, "num_tasks": limit}


def _cli(args: list[str]) -> str:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.stdout


def _flags(values: dict[str, Any], extra: list[str]) -> list[str]:
    flags = ["--suite", values["suite"]]
    for name in ("domain", "language", "num_tasks"):
        if name in values:
            flags += [f"--{name.replace('_', '-')}", str(values[name])]
    for task_id in values.get("task_ids", []):
        flags += ["--task-ids", task_id]
    return [*flags, *extra]


def _stored(run_dir: Path) -> dict[tuple[str, int], Outcome]:
    store = RunStore.read(run_dir)
    try:
        config = store.config()
        return {
            (r.task_id, r.trial): Outcome.of(r.simulation, r.evaluation, config["bases"])
            for r in store.results()
            if r.simulation is not None
        }
    finally:
        store.close()


def _eval(run_dir: Path, copy: Path) -> dict[tuple[str, int], Outcome]:
    """``lifebench eval`` of a copy of ``run_dir`` (the stored configuration's evaluators)."""
    shutil.copytree(run_dir, copy)
    _cli(["eval", str(copy), "--quiet"])
    return _stored(copy)


async def _step_faces(values: dict[str, Any], ref: Reference, base_url: str) -> dict[str, Any]:
    """Outcomes of the in-process faces: step protocol, rollout function, OpenEnv server."""
    from openenv.core import GenericEnvClient

    from lifebench.rl.openenv import create_openenv_app

    out: dict[str, dict[tuple[str, int], Outcome]] = {"step": {}, "rollout": {}, "openenv": {}}
    env = StepEnvironment.build(values)
    for task_id, trial, seed in ref.units:
        session = await env.reset(task_id, trial)
        assert session.seed == seed
        for answer in ref.answers[seed]:
            if session.done:
                break
            await session.step(answer)
        assert session.outcome is not None, f"{task_id}#{trial}: the replay did not end it"
        out["step"][(task_id, trial)] = session.outcome
    options = {**values, "trials": TRIALS, "agent_model": f"replay@{base_url}"}
    async for record in rollout(options):
        out["rollout"][(record.task_id, record.trial)] = Outcome(**record.model_dump())
    async with (
        serving(create_openenv_app(env)) as address,
        GenericEnvClient(base_url=f"http://{address}") as client,
    ):
        for task_id, trial, seed in ref.units:
            result = await client.reset(task_id=task_id, trial=trial)
            for answer in ref.answers[seed]:
                if result.done:
                    break
                result = await client.step({"type": "message", **openai_message(answer)})
            assert result.done
            components = result.observation["reward_components"]
            assert result.reward == components["reward"]
            out["openenv"][(task_id, trial)] = Outcome.model_validate(components)
    await env.aclose()
    return out


async def _mcp_face(values: dict[str, Any], ref: Reference, run_dir: Path) -> dict[Any, Outcome]:
    """The MCP server over streamable HTTP: one client session per task, its trials in turn."""
    from mcp import Client

    from lifebench.rl.mcp_server import EpisodeServer

    out: dict[tuple[str, int], Outcome] = {}
    env = StepEnvironment.build({**values, "agent_model": "mcp-client"}, policy_name="mcp-client")
    recorder = RunRecorder(env, run_dir, "test")
    try:
        for task_id in dict.fromkeys(t for t, _, _ in ref.units):
            server = EpisodeServer(env, task_id, recorder)
            async with (
                serving(server.http_app()) as address,
                Client(f"http://{address}/mcp") as client,
            ):

                async def call(name: str, arguments: dict[str, Any], c: Any = client) -> str:
                    result = await c.call_tool(name, arguments)
                    return str(result.content[0].text)

                for unit_task, trial, seed in ref.units:
                    if unit_task == task_id:
                        data = await mcp_replay(call, ref.replies[seed])
                        out[(task_id, trial)] = Outcome.model_validate(data)
    finally:
        recorder.close()
        await env.aclose()
    return out


def _gym_face(values: dict[str, Any], ref: Reference) -> dict[Any, Outcome]:
    from lifebench.rl.gym import LifebenchGymEnv

    out: dict[tuple[str, int], Outcome] = {}
    env = LifebenchGymEnv(values)
    try:
        for task_id, trial, seed in ref.units:
            env.reset(options={"task_id": task_id, "trial": trial})
            done = False
            info: dict[str, Any] = {}
            for answer in ref.answers[seed]:
                _, reward, terminated, truncated, info = env.step(openai_message(answer))
                done = terminated or truncated
                if done:
                    break
            assert done
            outcome = Outcome.model_validate(info["outcome"])
            assert outcome.reward is None or reward == outcome.reward
            out[(task_id, trial)] = outcome
    finally:
        env.close()
    return out


@pytest.mark.parametrize("case", list(CASES))
def test_every_face_earns_the_reward_eval_gives_the_stored_run(case: str, tmp_path: Path) -> None:
    values, extra = CASES[case]
    values = _selected(values)
    ref = run(reference(values, TRIALS))
    assert ref.units, "no tasks selected"
    with MockServerThread(MockOpenAIServer(responder=responder(ref))) as mock:
        base_url = mock.base_url
        cli_dir = tmp_path / "cli"
        _cli(
            [
                "run",
                *_flags(values, extra),
                "--trials",
                str(TRIALS),
                "--agent-model",
                f"replay@{base_url}",
                "--no-cache",
                "--quiet",
                "--out",
                str(cli_dir),
            ]
        )
        faces: dict[str, dict[Any, Outcome]] = {"run": _stored(cli_dir)}
        roll = tmp_path / "rollout.jsonl"
        _cli(
            [
                "rollout",
                *_flags(values, extra),
                "--trials",
                str(TRIALS),
                "--policy-model",
                f"replay@{base_url}",
                "--out",
                str(roll),
            ]
        )
        with roll.open(encoding="utf-8") as stream:
            records = [json.loads(line) for line in stream]
        faces["rollout-cli"] = {
            (r["task_id"], r["trial"]): Outcome.model_validate(r) for r in records
        }
        faces.update(run(_step_faces(values, ref, base_url)))
    faces["gym"] = _gym_face(values, ref)
    mcp_dir = tmp_path / "mcp"
    faces["mcp"] = run(_mcp_face(values, ref, mcp_dir))
    expected = _eval(cli_dir, tmp_path / "cli-eval")
    assert set(expected) == {(t, k) for t, k, _ in ref.units}
    want = {key: components(o) for key, o in expected.items()}
    for key, outcome in expected.items():  # the offline agent's own episode, for the record
        assert components(ref.outcomes[outcome.seed]) == want[key]
    seeds = {(t, k): seed for t, k, seed in ref.units}
    batched = {key: mcp_steps(want[key], ref.replies[seeds[key]]) for key in want}
    for face, outcomes in faces.items():
        got = {key: components(o) for key, o in outcomes.items()}
        expect = batched if face == "mcp" else want
        assert got == expect, f"{case}: {face} differs from lifebench eval of the stored run"
    mcp_eval = _eval(mcp_dir, tmp_path / "mcp-eval")
    assert {k: components(o) for k, o in mcp_eval.items()} == batched
    provenance = {}
    for face, run_dir in (("run", cli_dir), ("mcp", mcp_dir)):
        with RunStore.read(run_dir) as store:
            provenance[face] = store.provenance()
    cli_facts, mcp_facts = provenance["run"], provenance["mcp"]
    assert cli_facts is not None and mcp_facts is not None  # the MCP run says what produced it
    assert mcp_facts.models["agent"].spec == "mcp-client"
    assert (mcp_facts.tasks_hash, mcp_facts.graders) == (cli_facts.tasks_hash, cli_facts.graders)
    rewards = [o.reward for o in expected.values()]
    assert any(r for r in rewards), "no episode earned a reward: the replay proves little"


def test_the_parity_cases_cover_every_suite_and_vita_domain() -> None:
    from lifebench.suites import get_suite, suite_names

    covered = {(v["suite"], v.get("domain")) for v, _ in CASES.values()}
    for name in suite_names():
        assert any(s == name for s, _ in covered), name
    for domain in get_suite("vita").domains():
        assert ("vita", domain) in covered, domain
    assert make_run_options({"suite": "flow"}).suite_options.model_dump()["agent_mode"] == "react"

"""Scripted policies for the faces of the step protocol: the trajectory a suite's offline
agent plays, replayed as a model's answers (CLI run, rollout, step protocol, OpenEnv, Gym) or
as an MCP client's actions."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from lifebench.messages import AssistantMessage
from lifebench.models._convert import message_to_openai
from lifebench.rl import Outcome
from lifebench.runner._experiment import build_experiment, evaluate
from lifebench.simulation import Simulation, run_episode
from lifebench.suites import make_run_options
from lifebench.testing.mock_openai import completion_response, tool_call


@dataclass
class Reference:
    """The offline agent's episodes of some tasks, by seed: the agent's replies as its model
    would have answered (ReAct text for a ReAct agent), and as the episode recorded them."""

    answers: dict[int, list[AssistantMessage]] = field(default_factory=dict)
    replies: dict[int, list[AssistantMessage]] = field(default_factory=dict)
    outcomes: dict[int, Outcome] = field(default_factory=dict)
    opening: dict[int, int] = field(default_factory=dict)
    """Assistant messages before the agent's first reply (a greeting), by seed."""
    units: list[tuple[str, int, int]] = field(default_factory=list)


def agent_replies(simulation: Simulation, skip: int) -> list[AssistantMessage]:
    """The agent's messages of ``simulation`` after the ``skip`` opening messages."""
    return [m for m in simulation.messages[skip:] if isinstance(m, AssistantMessage)]


def model_answer(message: AssistantMessage, react: bool) -> AssistantMessage:
    """The model answer an agent reads as ``message``."""
    if react:
        return AssistantMessage(content=str((message.raw or {})["react"]))
    return AssistantMessage(
        content=message.content, tool_calls=message.tool_calls, reasoning=message.reasoning
    )


async def reference(values: dict[str, Any], trials: int = 1) -> Reference:
    """Play ``values``' tasks with the suite's offline agent (the default without a model)."""
    options = make_run_options({**values, "trials": trials})
    exp = build_experiment(options)
    react = (options.suite_options.model_dump().get("agent_mode") or "") == "react"
    ref = Reference()
    for unit in exp.units:
        task = exp.tasks[unit.task_id]
        episode = exp.suite.build_episode(task, unit.trial, unit.seed, exp.options, exp.models)
        simulation = await run_episode(episode)
        skip = len(episode.history) or int(episode.greeting is not None)
        replies = agent_replies(simulation, skip)
        evaluation = await evaluate(task, simulation, exp.evaluators, exp.bases)
        ref.units.append((unit.task_id, unit.trial, unit.seed))
        opening = simulation.messages[:skip]
        ref.opening[unit.seed] = sum(1 for m in opening if isinstance(m, AssistantMessage))
        ref.replies[unit.seed] = replies
        ref.answers[unit.seed] = [model_answer(m, react) for m in replies]
        ref.outcomes[unit.seed] = Outcome.of(simulation, evaluation, exp.bases)
    await exp.aclose()
    return ref


def responder(ref: Reference) -> Any:
    """A mock-endpoint responder answering each episode (told apart by the request's seed)
    with its next scripted answer (the one after the agent's replies the request holds)."""

    def respond(body: dict[str, Any]) -> dict[str, Any]:
        seed = int(body["seed"])
        said = sum(1 for m in body["messages"] if m.get("role") == "assistant")
        answer = ref.answers[seed][said - ref.opening[seed]]
        calls = [tool_call(c.name, c.arguments, c.id) for c in answer.tool_calls]
        return completion_response(answer.content, tool_calls=calls, reasoning=answer.reasoning)

    return respond


def openai_message(answer: AssistantMessage) -> dict[str, Any]:
    """``answer`` as an OpenAI chat message dict."""
    return message_to_openai(answer)


def components(outcome: Outcome) -> dict[str, Any]:
    """What must agree across faces: the reward, how it was decided, and every component."""
    data = outcome.model_dump(mode="json")
    for basis in data["bases"].values():
        basis.pop("usage", None)
    return data


def mcp_steps(outcome: dict[str, Any], replies: list[AssistantMessage]) -> dict[str, Any]:
    """``outcome`` (components) as the MCP face records the same replies: it calls one tool
    per agent message, so every call beyond the first of a message adds a message and a
    tool-result step."""
    extra = sum(2 * (len(m.tool_calls) - 1) for m in replies if len(m.tool_calls) > 1)
    return {**outcome, "steps": outcome["steps"] + extra}


async def mcp_replay(call: Any, replies: list[AssistantMessage]) -> dict[str, Any]:
    """Play ``replies`` as an MCP client would (``call(name, arguments) -> text``): each tool
    call as a call of that tool, each text to the user through send_message_to_user; then
    finish. Returns finish's outcome."""
    for message in replies:
        for c in message.tool_calls:
            await call(c.name, json.loads(c.arguments))
        if not message.tool_calls:
            await call("send_message_to_user", {"message": message.content})
    text = await call("finish", {})
    return dict(json.loads(text))


LIFEBENCH = [sys.executable, "-c", "from lifebench.cli import main; main()"]
"""The lifebench command, as this interpreter runs it."""


def mcp_stdio(args: list[str]) -> Any:
    """The parameters with which an MCP client starts ``lifebench ARGS`` over stdio."""
    from mcp.client.stdio import StdioServerParameters

    return StdioServerParameters(
        command=LIFEBENCH[0], args=[*LIFEBENCH[1:], *args], env=dict(os.environ)
    )


@contextmanager
def server(args: list[str]) -> Iterator[str]:
    """Start ``lifebench ARGS`` (a server on port 0) and yield the address it announces."""
    proc = subprocess.Popen(
        [*LIFEBENCH, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "127.0.0.1:" in line, (line, proc.stderr.read() if proc.stderr else "")
        address = line.split("://", 1)[1].split("/", 1)[0].split()[0]
        yield address
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def run(coro: Any) -> Any:
    """Run ``coro`` to its end in a fresh event loop."""
    return asyncio.run(coro)

"""Rollouts: a policy model plays a suite's episodes; one record per episode.

The policy is any :class:`~lifebench.models.ChatModel` — typically an OpenAI-compatible
endpoint (``--policy-model M@URL``) that a trainer serves or intercepts — asked exactly the
prompts the suite's agent would ask its model, through the step protocol
(:class:`~lifebench.rl.StepEnvironment`). The user simulator, the tool simulator and the judge
are the run's, so a record's reward is the one ``lifebench run`` would give. With a run
directory, every episode is also stored there as a unit (with the model calls of every role,
the policy's included, unless ``record_requests`` is off), for ``show``, ``view``, ``report``
and ``eval``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from pydantic import Field

from lifebench.errors import FatalProviderError, InfrastructureError, InputError
from lifebench.messages import Message, Usage
from lifebench.models import ChatModel, ModelFactory
from lifebench.rl._env import StepEnvironment, StepSession
from lifebench.rl._record import RunRecorder
from lifebench.rl._types import Outcome
from lifebench.runner._experiment import plan_units
from lifebench.suites import RunOptions


class RolloutRecord(Outcome):
    """One episode of a rollout: the outcome (reward, components, termination) and the
    trajectory."""

    trajectory: list[Message] = Field(description="Every message of the episode, in order.")
    usage: dict[str, Usage] = Field(
        description="Model usage by role: agent (the policy), user, tool, judge."
    )

    @classmethod
    def from_session(cls, session: StepSession) -> RolloutRecord:
        """The record of an ended session."""
        simulation, outcome = session.simulation, session.outcome
        if simulation is None or outcome is None:
            raise ValueError("the episode has not ended")
        judge = Usage.zero()
        for basis in outcome.bases.values():
            judge = judge + basis.usage
        return cls(
            **outcome.model_dump(),
            trajectory=simulation.messages,
            usage={
                "agent": simulation.agent_usage,
                "user": simulation.user_usage,
                "tool": simulation.tool_usage,
                "judge": judge,
            },
        )


async def play(session: StepSession, policy: ChatModel) -> None:
    """Let ``policy`` answer every prompt of ``session`` until the episode ends. A policy call
    that fails after its retries ends the episode as an infrastructure error (as in a run);
    :class:`~lifebench.errors.FatalProviderError` propagates. The policy's calls are the
    session's (recorded as the agent's when the session records its calls)."""
    while not session.done:
        try:
            answer = await session.ask(policy)
        except FatalProviderError:
            raise
        except InfrastructureError as exc:
            await session.fail(exc)
            continue
        await session.step(answer)


async def rollout(
    options: RunOptions | Mapping[str, Any],
    *,
    policy: ChatModel | None = None,
    models: ModelFactory | None = None,
    run_dir: Path | None = None,
) -> AsyncIterator[RolloutRecord]:
    """Play every selected (task, trial) of ``options`` with ``policy`` (default: the model
    of ``agent_model``, e.g. ``M@URL``), ``options.concurrency`` episodes at a time, and yield
    one record per episode in task and trial order. With ``run_dir``, each episode is also
    stored there as a unit as soon as it ends (:class:`~lifebench.rl._record.RunRecorder`).

    Raises:
        InputError: Bad options or tasks, or no policy.
        FatalProviderError: A provider refuses every call (the rollout stops).
    """
    if policy is None and not _value(options, "agent_model"):
        raise InputError("a rollout needs a policy model", field="--policy-model")
    env = StepEnvironment.build(options, models=models)
    recorder = None
    try:
        if run_dir is not None:
            recorder = RunRecorder(env, run_dir, "lifebench rollout")
        agent = policy or env.experiment.models.resolve(env.options.agent_model or "")
        limit = asyncio.Semaphore(env.options.concurrency)

        async def one(task_id: str, trial: int, seed: int) -> RolloutRecord:
            async with limit:
                session = await env.reset(task_id, trial, seed)
                await play(session, agent)
                if recorder is not None:
                    recorder.record(session)
                return RolloutRecord.from_session(session)

        units = plan_units(list(env.experiment.tasks.values()), env.options)
        jobs = [asyncio.ensure_future(one(u.task_id, u.trial, u.seed)) for u in units]
        try:
            for job in jobs:
                yield await job
        finally:
            for job in jobs:
                job.cancel()
            await asyncio.gather(*jobs, return_exceptions=True)
    finally:
        try:
            if recorder is not None:
                recorder.close()
        finally:
            await env.aclose()


def _value(options: RunOptions | Mapping[str, Any], name: str) -> Any:
    return getattr(options, name) if isinstance(options, RunOptions) else options.get(name)


async def write_rollouts(
    options: RunOptions | Mapping[str, Any],
    out: Path,
    *,
    policy: ChatModel | None = None,
    models: ModelFactory | None = None,
    run_dir: Path | None = None,
) -> list[RolloutRecord]:
    """:func:`rollout` into ``out``, one JSON line per episode, each written (and flushed) as
    soon as it is its turn; returns the records. ``run_dir``: see :func:`rollout`."""
    records: list[RolloutRecord] = []
    with out.open("w", encoding="utf-8") as stream:
        async for record in rollout(options, policy=policy, models=models, run_dir=run_dir):
            stream.write(record.model_dump_json())
            stream.write("\n")
            stream.flush()
            records.append(record)
    return records

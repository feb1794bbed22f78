#!/usr/bin/env python3
"""The step protocol in a loop: a policy plays every bundled TravelBench task.

    python examples/rl_step_loop.py                          # offline: a scripted policy
    python examples/rl_step_loop.py --model M@http://host/v1 # any OpenAI-compatible endpoint

Each observation is the chat request the suite's agent would send its model (OpenAI messages
and tool schemas); the policy answers with one assistant message; the episode ends graded.
"""

from __future__ import annotations

import argparse
import asyncio

from lifebench.models import ChatModel, ModelFactory, ScriptedModel
from lifebench.rl import StepEnvironment


async def main(model: str | None, num_tasks: int) -> None:
    env = StepEnvironment.build({"suite": "travel", "num_tasks": num_tasks})
    policy: ChatModel = (
        ModelFactory().resolve(model)
        if model
        else ScriptedModel(["Sorry, I cannot plan that for you."], repeat_last=True)
    )
    try:
        for task_id in env.task_ids:
            session = await env.reset(task_id, trial=0)
            obs = session.observation()
            while not obs.done:
                # obs.messages / obs.tools: what to send the model (OpenAI format);
                # session.request: the same, as lifebench messages.
                request = session.request
                assert request is not None
                answer = await policy.generate(
                    request.messages, tools=request.tools, config=request.config
                )
                obs = await session.step(answer)
            outcome = obs.outcome
            assert outcome is not None
            bases = {name: basis.score for name, basis in outcome.bases.items()}
            print(
                f"{task_id}: reward {outcome.reward} ({outcome.status}, {outcome.termination}); "
                f"scores {bases}; tool errors {outcome.tool_errors}"
            )
    finally:
        await env.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", help="MODEL@BASE_URL of the policy (default: scripted)")
    parser.add_argument("--num-tasks", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.model, args.num_tasks))

"""The oracle agent: replays a plan derived from ``expected_states`` as an agent would.

It knows the answer but has no privileged access: every action is an ordinary tool call that
goes through argument validation and the environment, one call per message, and ids it needs
(the id of a record it just created) are read from the tool results it received.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from lifebench.messages import AssistantMessage, Message, ToolCall
from lifebench.simulation import AGENT_STOP
from lifebench.vita.agents.plan import PlannedCall, find_key
from lifebench.vita.domains.registry import domain_spec, resolve
from lifebench.vita.task import VitaTask


def oracle_plan(
    task: VitaTask, *, domain: str = "delivery", distractor: bool = False
) -> list[PlannedCall]:
    """The tool calls the oracle (or its distractor variant) makes for ``task`` in ``domain``."""
    plan: list[PlannedCall] = resolve(domain_spec(domain).planner)(task, distractor=distractor)
    return plan


class PlanAgent:
    """Replays a given plan of tool calls, one per message, then closes the conversation.

    The near-miss agents of ``lifebench tasks certify`` are plan agents over a perturbed oracle
    plan.
    """

    def __init__(self, plan: Sequence[PlannedCall], *, language: str = "en") -> None:
        self._plan = list(plan)
        self._next = 0
        self._done_text = (
            "全部办好了。请问还有其他需要吗？"
            if language == "zh"
            else "Everything is done. Is there anything else I can help you with?"
        )
        self._said_done = False

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        """The next planned tool call, then a closing question, then ###STOP###."""
        if self._next < len(self._plan):
            step = self._plan[self._next]
            self._next += 1
            filled = _latest(trajectory, step.fill) if step.fill else None
            call = ToolCall(
                id=f"oracle-{self._next}",
                name=step.name,
                arguments=_dumps(step.arguments(filled)),
            )
            return AssistantMessage(tool_calls=[call])
        if not self._said_done:
            self._said_done = True
            return AssistantMessage(content=self._done_text)
        return AssistantMessage(content=AGENT_STOP)


class OracleAgent(PlanAgent):
    """Replays the calls that reach the task's expected state, then closes the conversation.

    ``distractor=True`` makes the near-miss variant used to prove that grading discriminates.
    """

    def __init__(
        self,
        task: VitaTask,
        *,
        domain: str = "delivery",
        language: str = "en",
        distractor: bool = False,
    ) -> None:
        super().__init__(oracle_plan(task, domain=domain, distractor=distractor), language=language)


def _latest(trajectory: Sequence[Message], key: str) -> str | None:
    for m in reversed(trajectory):
        if m.role == "tool" and not m.error:
            found = find_key(m.content, key)
            if found:
                return found
    return None


def _dumps(args: object) -> str:
    return json.dumps(args, ensure_ascii=False)

"""The gold agent: replays the gold next turn (the upper bound of every metric)."""

from __future__ import annotations

from collections.abc import Sequence

from lifebench.flow.agents.convert import reply_message
from lifebench.flow.agents.parse import parse_react
from lifebench.messages import AssistantMessage, Message

GOLD_EXHAUSTED = "I have nothing more to add. Goodbye!"


class GoldAgent:
    """Says the gold assistant turns in order: the k-th reply is the k-th gold assistant
    message, where k counts the assistant messages already in the trajectory. At turn level the
    history is the gold one, so this is exactly the gold next turn; in a session driven by the
    scripted user it reproduces the gold session. Once the gold turns are spent it says goodbye.
    """

    def __init__(self, gold_turns: Sequence[str], tool_names: Sequence[str] = ()) -> None:
        self._turns = list(gold_turns)
        self._tools = tuple(tool_names)

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        """The next gold turn."""
        k = sum(1 for m in trajectory if isinstance(m, AssistantMessage))
        text = self._turns[k] if k < len(self._turns) else f"Response: {GOLD_EXHAUSTED}"
        return reply_message(parse_react(text), text, f"call_{len(trajectory)}", self._tools)

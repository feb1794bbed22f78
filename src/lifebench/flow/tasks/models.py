"""Turn-level samples and session-level tasks, whatever file they came from.

* :class:`TurnSample` — one gold agent turn to predict from the gold history (official turn-level
  lines, FlowSwitch sample lines, our generated turn files).
* :class:`SessionTask` — one session to simulate from a task-user summary (official session-level
  lines, our generated session files), with the gold calls and their recorded outputs.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from lifebench._util.hashing import stable_hash
from lifebench._util.text import Language
from lifebench.flow.kb.models import ToolDef

Setting = Literal["single", "cross"]
Source = Literal["official", "flowswitch", "generated"]

UNKNOWN = "UNK"
"""The intent / node label of an out-of-scope turn."""


class FlowMessage(BaseModel):
    """One message of a FlowBench dialogue (``function`` = a tool's return, with its name)."""

    model_config = ConfigDict(frozen=True)

    role: Literal["user", "assistant", "function"]
    content: str
    name: str | None = None


class GoldThought(BaseModel):
    """The gold thought of an agent turn: where in the flowchart, and the tool call if any.

    ``action_input`` is the argument object exactly as the data holds it (a JSON string)."""

    model_config = ConfigDict(frozen=True)

    last_node: str | None = None
    intent: str | None = None
    current_node: str | None = None
    action: str | None = None
    action_input: str | None = None

    def arguments(self) -> dict[str, Any] | None:
        """The parsed arguments (None when absent or not a JSON object)."""
        if not self.action_input:
            return None
        try:
            value = json.loads(self.action_input)
        except json.JSONDecodeError:
            return None
        return value if isinstance(value, dict) else None

    def data(self) -> dict[str, str]:
        """The official ``gt_thought`` shape (absent keys left out)."""
        out = {
            "last_node": self.last_node,
            "intent": self.intent,
            "current_node": self.current_node,
            "Action": self.action,
            "Action Input": self.action_input,
        }
        return {k: v for k, v in out.items() if v is not None}


class GoldTurn(BaseModel):
    """What the agent should say at a turn: thought, the reply or call text, the full text."""

    model_config = ConfigDict(frozen=True)

    thought: GoldThought = Field(default_factory=GoldThought)
    response: str = Field("", description="The reply (or the Action / Action Input text).")
    content: str | None = Field(None, description="The full ReAct text, when the data has it.")

    @property
    def is_tool_turn(self) -> bool:
        """The official rule: a tool turn has a non-empty Action and Action Input."""
        return bool(self.thought.action) and bool(self.thought.action_input)


class TurnSample(BaseModel):
    """One turn-level unit: history → the next agent turn."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(description="Turn id '<session>_agent_turn-<k>' (unique within a set).")
    session_id: str
    turn: int = Field(description="k of the id: the agent turn's index within its session.")
    domain: str = Field("", description="FlowBench domain as the data spells it ('' unknown).")
    role: str = Field("", description="Agent role ('' unknown).")
    scenarios: tuple[str, ...] = Field(
        (), description="Uuids of the scenarios the session is about (empty when unknown)."
    )
    setting: Setting = "single"
    language: Language = "en"
    datetime: str = Field("", description="The conversation's current time ('' unknown).")
    system_prompt: str | None = Field(
        None, description="The rendered agent prompt of an official file (ours: None)."
    )
    history: tuple[FlowMessage, ...] = ()
    tools: tuple[ToolDef, ...] = Field((), description="The tools the agent may call.")
    gold: GoldTurn
    source: Source = "generated"

    def content_hash(self) -> str:
        """sha256 of the sample's content."""
        return stable_hash(self.model_dump(mode="json"))


class GoldCall(BaseModel):
    """An expected tool call of a session and its recorded return (raw JSON text)."""

    model_config = ConfigDict(frozen=True)

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    arguments_text: str = Field("", description="The argument object as written in the data.")
    output: str | None = Field(None, description="The recorded return, when the data has it.")

    def action_text(self) -> str:
        """The call as the official ``gt_actions_string`` writes it."""
        args = self.arguments_text or json.dumps(self.arguments, ensure_ascii=False)
        return f"Action: {self.name}\nAction Input: {args}"


class SessionTask(BaseModel):
    """One session-level unit: a user goal to reach with the agent."""

    model_config = ConfigDict(frozen=True)

    id: str
    domain: str = ""
    role: str = ""
    scenarios: tuple[str, ...] = ()
    setting: Setting = "single"
    language: Language = "en"
    datetime: str = Field("", description="The conversation's current time.")
    user_summary: str = Field(description="The task-user summary (the user simulator's task).")
    persona: str = Field("", description="Shown to the user simulator every turn.")
    user_target: str = Field("", description="Goals and expected calls, for the judge.")
    gold_calls: tuple[GoldCall, ...] = ()
    tools: tuple[ToolDef, ...] = ()
    system_prompt: str | None = Field(None, description="An official file's agent prompt.")
    knowledge: str | None = Field(
        None, description="Workflow and API text given to the completion judge."
    )
    messages: tuple[FlowMessage, ...] = Field(
        (), description="The gold session when known (our files; empty for official ones)."
    )
    source: Source = "generated"

    def content_hash(self) -> str:
        """sha256 of the task's content."""
        return stable_hash(self.model_dump(mode="json"))

    @property
    def user_lines(self) -> list[str]:
        """The gold session's user messages, in order."""
        return [m.content for m in self.messages if m.role == "user"]


# ---------------------------------------------------------------------------------------------
# Prompt helpers shared by the loaders

KNOWLEDGE_MARKER = "Your capabilities are based on the following workflows and API information:"
TIME_MARKER = "Please note that the current time is:"
_TIME_LINE = re.compile(re.escape(TIME_MARKER) + r"\s*(.*)")


def split_official_prompt(system: str) -> tuple[str, str, str]:
    """(instructions, knowledge, current time) of an official rendered agent prompt: the
    knowledge is what lies between the marker sentence and the time line (spec §1.2–1.3);
    parts that are missing come back empty."""
    head, found, rest = system.partition(KNOWLEDGE_MARKER)
    if not found:
        head, rest = system, ""
    time_match = _TIME_LINE.search(system)
    when = time_match.group(1).strip() if time_match else ""
    knowledge = rest.split(TIME_MARKER, 1)[0].strip() if found else ""
    return head.strip(), knowledge, when

"""Simulation: agent and user protocols, built-in agents/users, and the episode loop."""

from lifebench.simulation._llm_agent import LLMAgent, NoopAgent
from lifebench.simulation._loop import (
    AgentTurn,
    Answer,
    Episode,
    EpisodeProcess,
    Limits,
    Need,
    ToolRun,
    UserTurn,
    run_episode,
)
from lifebench.simulation._protocols import (
    Agent,
    ChatRequest,
    ModelAgent,
    ModelUser,
    UserSimulator,
    ask_model,
)
from lifebench.simulation._stop import AGENT_STOP, USER_STOP_TOKENS, agent_stopped, user_stopped
from lifebench.simulation._types import Simulation, TerminationReason
from lifebench.simulation._users import LLMUser, ScriptedUser, flip_roles

__all__ = [
    "AGENT_STOP",
    "USER_STOP_TOKENS",
    "Agent",
    "AgentTurn",
    "Answer",
    "ChatRequest",
    "Episode",
    "EpisodeProcess",
    "LLMAgent",
    "LLMUser",
    "Limits",
    "ModelAgent",
    "ModelUser",
    "Need",
    "NoopAgent",
    "ScriptedUser",
    "Simulation",
    "TerminationReason",
    "ToolRun",
    "UserSimulator",
    "UserTurn",
    "agent_stopped",
    "ask_model",
    "flip_roles",
    "run_episode",
    "user_stopped",
]

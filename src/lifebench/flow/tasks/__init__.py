"""FlowBench units: turn-level samples and session-level tasks, their file formats and loaders."""

from lifebench.flow.tasks.loader import (
    bundled_session_tasks,
    bundled_turn_samples,
    detect_task_file,
    load_session_tasks,
    load_turn_samples,
)
from lifebench.flow.tasks.models import (
    KNOWLEDGE_MARKER,
    TIME_MARKER,
    UNKNOWN,
    FlowMessage,
    GoldCall,
    GoldThought,
    GoldTurn,
    SessionTask,
    Setting,
    TurnSample,
    split_official_prompt,
)
from lifebench.flow.tasks.sessions import parse_actions, session_line
from lifebench.flow.tasks.turns import turn_line

__all__ = [
    "KNOWLEDGE_MARKER",
    "TIME_MARKER",
    "UNKNOWN",
    "FlowMessage",
    "GoldCall",
    "GoldThought",
    "GoldTurn",
    "SessionTask",
    "Setting",
    "TurnSample",
    "bundled_session_tasks",
    "bundled_turn_samples",
    "detect_task_file",
    "load_session_tasks",
    "load_turn_samples",
    "parse_actions",
    "session_line",
    "split_official_prompt",
    "turn_line",
]

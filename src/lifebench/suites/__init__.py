"""Suites plug domains, tools, prompts and evaluators into the core; found lazily by name."""

from lifebench.suites._options import AgentKind, EvaluatorKind, RunOptions, UserKind
from lifebench.suites._registry import Suite, TaskLike, get_suite, suite_names

__all__ = [
    "AgentKind",
    "EvaluatorKind",
    "RunOptions",
    "Suite",
    "TaskLike",
    "UserKind",
    "get_suite",
    "suite_names",
]

"""The suite contract and a lazy registry (built-ins by import path, plus entry points)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from lifebench._util.text import Language
from lifebench.errors import InputError
from lifebench.evaluation import Evaluator
from lifebench.simulation import Episode
from lifebench.suites._options import RunOptions
from lifebench.tools import ToolSet

_BUILTIN: Mapping[str, str] = {"vita": "lifebench.vita.suite:VitaSuite"}


@runtime_checkable
class TaskLike(Protocol):
    """What the core needs of a task: an id and a content hash."""

    @property
    def id(self) -> str:
        """Task id, unique within its file."""
        ...

    def content_hash(self) -> str:
        """sha256 of the task's content."""
        ...


class ModelResolver(Protocol):
    """Turns a model spec (config name or ``MODEL@BASE_URL``) into a chat model."""

    def resolve(self, spec: str) -> Any:
        """Return the chat model for ``spec``."""
        ...


@runtime_checkable
class Suite(Protocol):
    """A benchmark system: its domains, task loading, episodes and evaluators."""

    name: str

    def domains(self) -> Sequence[str]:
        """Domain names this suite offers."""
        ...

    def load_tasks(
        self, source: Path | None, domain: str, language: Language, task_set: str = "auto"
    ) -> list[Any]:
        """Tasks from ``source`` (an official file) or the bundled ``task_set`` when None."""
        ...

    def parse_task(self, data: str) -> Any:
        """A task from the JSON the run store kept (for re-grading)."""
        ...

    def toolset(self, domain: str, language: Language, task: Any | None = None) -> ToolSet:
        """The tools of ``domain`` (over ``task``'s data when given, else an empty world)."""
        ...

    def build_episode(
        self, task: Any, trial: int, seed: int, options: RunOptions, models: ModelResolver
    ) -> Episode:
        """A fresh episode (environment, agent, user) for one (task, trial)."""
        ...

    def build_evaluators(self, options: RunOptions, models: ModelResolver) -> dict[str, Evaluator]:
        """Every evaluator the options ask for, keyed by basis."""
        ...

    def reward_bases(self, options: RunOptions) -> list[str]:
        """The bases whose product is the reward."""
        ...


def suite_names() -> list[str]:
    """Names of the built-in and installed suites."""
    names = set(_BUILTIN)
    names.update(ep.name for ep in entry_points(group="lifebench.suites"))
    return sorted(names)


def get_suite(name: str) -> Suite:
    """Import and instantiate the suite called ``name`` (nothing is imported before)."""
    target = _BUILTIN.get(name)
    if target is None:
        for ep in entry_points(group="lifebench.suites"):
            if ep.name == name:
                target = ep.value
                break
    if target is None:
        raise InputError(f"unknown suite '{name}'; available: {', '.join(suite_names())}")
    module_name, _, attr = target.partition(":")
    factory = getattr(importlib.import_module(module_name), attr)
    suite: Suite = factory()
    return suite

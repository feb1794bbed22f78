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
from lifebench.suites._options import RunOptions, SuiteOptions
from lifebench.suites._tables import Finding, StatsTable
from lifebench.tools import ToolSet

# name → (suite class, options model). Options models live in light modules so that the CLI can
# list and validate a suite's options without importing the suite itself.
_BUILTIN: Mapping[str, tuple[str, str]] = {
    "vita": ("lifebench.vita.suite:VitaSuite", "lifebench.vita.options:VitaOptions"),
    "travel": ("lifebench.travel.suite:TravelSuite", "lifebench.travel.options:TravelOptions"),
    "flow": ("lifebench.flow.suite:FlowSuite", "lifebench.flow.options:FlowOptions"),
}


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


def required_model(models: ModelResolver, spec: str | None, role: str) -> Any:
    """The chat model of ``role`` (``agent``, ``user``, ``judge``, ``tool``) for a part of an
    episode that needs one; without ``--ROLE-model`` an InputError naming that flag. Its calls
    are recorded under ``role`` (:class:`lifebench.models.RoleModel`)."""
    if not spec:
        raise InputError(f"--{role}-model is required for this {role}", field=f"--{role}-model")
    from lifebench.models._record import for_role

    return for_role(models.resolve(spec), role)


@runtime_checkable
class Suite(Protocol):
    """A benchmark system: its domains, task loading, episodes and evaluators."""

    name: str
    options_model: type[SuiteOptions]

    def domains(self) -> Sequence[str]:
        """Domain names this suite offers."""
        ...

    def resolve_domain(self, source: Path | None, requested: str | None) -> str:
        """The domain a run uses: ``requested`` when given, else the one ``source``'s tasks
        declare, else the suite's default. Raises InputError for a domain that cannot serve
        the file."""
        ...

    def load_tasks(
        self, source: Path | None, domain: str, language: Language, task_set: str = "auto"
    ) -> list[Any]:
        """Tasks from ``source`` (an official file) or the bundled ``task_set`` when None."""
        ...

    def lint(self, tasks: Sequence[Any]) -> Sequence[Finding]:
        """Data problems of loaded tasks that do not stop a run (``tasks validate``)."""
        ...

    def stats(self, sources: Sequence[Path], domain: str | None, language: Language) -> StatsTable:
        """Statistics of the task files ``sources`` (every bundled set when empty)."""
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

    def report_metrics(
        self, records: Sequence[Any], config: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        """The suite's own metrics of a run's unit records (JSON-compatible), shown beside the
        core ones in reports; empty when the suite has none."""
        ...


def suite_names() -> list[str]:
    """Names of the built-in and installed suites."""
    names = set(_BUILTIN)
    names.update(ep.name for ep in entry_points(group="lifebench.suites"))
    return sorted(names)


def _load(target: str) -> Any:
    module_name, _, attr = target.partition(":")
    return getattr(importlib.import_module(module_name), attr)


def _suite_target(name: str) -> str:
    builtin = _BUILTIN.get(name)
    if builtin is not None:
        return builtin[0]
    for ep in entry_points(group="lifebench.suites"):
        if ep.name == name:
            return str(ep.value)
    raise InputError(f"unknown suite '{name}'; available: {', '.join(suite_names())}")


def get_suite(name: str) -> Suite:
    """Import and instantiate the suite called ``name`` (nothing is imported before)."""
    suite: Suite = _load(_suite_target(name))()
    return suite


def options_model(name: str) -> type[SuiteOptions]:
    """The options model of suite ``name``, importing as little as possible: a built-in
    suite's light options module, or an installed suite's ``options_model`` attribute."""
    builtin = _BUILTIN.get(name)
    model = _load(builtin[1]) if builtin is not None else _load(_suite_target(name)).options_model
    if not (isinstance(model, type) and issubclass(model, SuiteOptions)):
        raise InputError(f"suite '{name}' declares no SuiteOptions model")
    return model

"""An opt-in suite hook: tasks that depend on the suite's own options."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from lifebench.suites._options import RunOptions


@runtime_checkable
class RunTaskLoader(Protocol):
    """A suite whose task set depends on its own options (e.g. FlowBench's evaluation level and
    scenario setting select different task files) implements this; the runner then loads a
    run's tasks with it instead of ``Suite.load_tasks``. Suites without it are unaffected."""

    def load_run_tasks(self, source: Path | None, domain: str, options: RunOptions) -> list[Any]:
        """The tasks of the run ``options`` describe (``source`` = its task file, if any)."""
        ...


def load_run_tasks(suite: Any, source: Path | None, domain: str, options: RunOptions) -> list[Any]:
    """``suite.load_run_tasks`` when the suite offers it, else ``suite.load_tasks``."""
    if isinstance(suite, RunTaskLoader):
        return list(suite.load_run_tasks(source, domain, options))
    return list(suite.load_tasks(source, domain, options.language, options.task_set))

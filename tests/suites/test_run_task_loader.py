"""The opt-in ``load_run_tasks`` hook: a suite whose tasks depend on its own options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lifebench.suites import RunOptions, load_run_tasks


class _Plain:
    def load_tasks(
        self, source: Path | None, domain: str, language: str, task_set: str = "auto"
    ) -> list[Any]:
        return [("plain", domain, language, task_set)]


class _Aware(_Plain):
    def load_run_tasks(self, source: Path | None, domain: str, options: RunOptions) -> list[Any]:
        return [("aware", domain, options.seed)]


def test_suites_without_the_hook_load_as_before() -> None:
    options = RunOptions(language="zh", task_set="demo")
    assert load_run_tasks(_Plain(), None, "d", options) == [("plain", "d", "zh", "demo")]


def test_the_hook_sees_the_whole_run_options() -> None:
    assert load_run_tasks(_Aware(), None, "d", RunOptions(seed=7)) == [("aware", "d", 7)]

"""Suites plug domains, tools, prompts and evaluators into the core; found lazily by name."""

from lifebench.suites._compared import ComparedMetrics, MetricKind
from lifebench.suites._official import OfficialScoring
from lifebench.suites._options import (
    RoleChoices,
    RunOptions,
    SuiteOptions,
    make_run_options,
)
from lifebench.suites._registry import (
    Suite,
    TaskLike,
    get_suite,
    options_model,
    required_model,
    suite_names,
)
from lifebench.suites._report_design import ReportDesign
from lifebench.suites._run_tasks import RunTaskLoader, load_run_tasks
from lifebench.suites._tables import StatsTable
from lifebench.suites._warm import RunWarmer

__all__ = [
    "ComparedMetrics",
    "MetricKind",
    "OfficialScoring",
    "ReportDesign",
    "RoleChoices",
    "RunOptions",
    "RunTaskLoader",
    "RunWarmer",
    "StatsTable",
    "Suite",
    "SuiteOptions",
    "TaskLike",
    "get_suite",
    "load_run_tasks",
    "make_run_options",
    "options_model",
    "required_model",
    "suite_names",
]

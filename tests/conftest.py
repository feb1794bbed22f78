"""Shared fixtures: where the official sample data lives (``../shared/data``, read-only).

Tests that need the official samples ask for them through :func:`shared_file` (or the fixtures
below). When a sample is missing the test is skipped with the reason shown in the summary,
except in CI (``CI=true``), where a missing sample is a failure: a CI run must not go green by
silently skipping the acceptance tests on the official data.

The data directory is ``$LIFEBENCH_SHARED_DATA`` when set, else the first ``shared/data``
found above this directory (``../shared/data`` of a worktree; also found from the copy of the
tests that mutation testing runs in ``mutants/``).
"""

from __future__ import annotations

import gc
import json
import os
from pathlib import Path

import pytest
from hypothesis import settings

from hang_watchdog import pytest_timeout_set_timer
from id_rules import readable_id, unselectable_reason
from shared_data import SHARED_DATA, in_ci, shared_file

# Property tests are deterministic (derandomized: the same examples on every run, no example
# database) and have no per-example deadline, so CPU load cannot fail them.
settings.register_profile("lifebench", derandomize=True, database=None, deadline=None)
settings.load_profile("lifebench")

__all__ = ["SHARED_DATA", "in_ci", "pytest_timeout_set_timer", "shared_file"]


def pytest_configure(config: pytest.Config) -> None:
    """Under mutation testing (mutmut sets ``MUTANT_UNDER_TEST``), freeze the inherited heap.

    mutmut runs each mutant's tests in a process forked from a server that has collected every
    test; without a freeze the garbage collector walks that whole heap again and again (about
    25 s per mutant instead of 2). No effect on an ordinary test run.
    """
    if "MUTANT_UNDER_TEST" in os.environ:
        gc.freeze()


def pytest_make_parametrize_id(config: pytest.Config, val: object, argname: str) -> str | None:
    """Text parameters without explicit ids get ids that can be passed back on a command line
    (``tests/id_rules.py``); other values keep pytest's ids."""
    if isinstance(val, str) and readable_id(val) != val:
        return readable_id(val)
    return None


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Refuse a collection with a test that its own id would not select again (mutmut,
    ``--lf`` and people re-run tests by id; see tests/test_ids.py), and under mutation testing
    run the fastest tests first (a mutant is killed by the first failing test: ``-x``)."""
    bad = [
        f"  {item.nodeid}: {reason}"
        for item in items
        if (reason := unselectable_reason(item.nodeid, item.name)) is not None
    ]
    if bad:
        raise pytest.UsageError(
            f"{len(bad)} test(s) cannot be selected again by their id; give their parameters "
            "ids of printable ASCII without backslashes (ids=..., or id_rules.readable_id):\n"
            + "\n".join(bad)
        )
    _fastest_first_under_mutation(items)


def _fastest_first_under_mutation(items: list[pytest.Item]) -> None:
    """Order a mutant's tests by the durations mutmut measured (``mutmut-stats.json`` in the
    ``mutants/`` directory the tests run in): a mutant's tests come in no particular order, and
    one slow test run before a fast failing one costs its whole duration per mutant. Tests
    marked ``bounded`` come first: they fail at once where a test waiting (up to its wall-clock
    bound) for an answer the mutant never gives would run past mutmut's limit, a timeout."""
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    if mutant in ("", "fail", "stats", "list_all_tests", "mutant_generation"):
        return
    stats = Path("mutmut-stats.json")
    if not stats.is_file():
        return
    try:
        durations = json.loads(stats.read_text(encoding="utf-8")).get("duration_by_test", {})
    except (OSError, ValueError):
        return
    items.sort(
        key=lambda item: (
            item.get_closest_marker("bounded") is None,
            float(durations.get(item.nodeid, 0.0)),
        )
    )


@pytest.fixture
def delivery_tasks_en() -> Path:
    """The 60 official English delivery tasks."""
    return shared_file("vitabench", "delivery_tasks_en.json")


@pytest.fixture
def instore_tasks_en() -> Path:
    """The 60 official English in-store tasks."""
    return shared_file("vitabench", "instore_tasks_en.json")

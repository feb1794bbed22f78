"""Test modules are imported by their file name (the test directories are not packages), so
two test files with the same name in different directories collide: pytest collects the first
and refuses the second with "import file mismatch" — a whole file of tests silently off in a
partial run and an error in CI (it happened: tests/tools and tests/travel each got a
``test_mutation_guards_toolset.py``)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_every_test_module_and_helper_has_a_unique_file_name() -> None:
    seen: dict[str, list[str]] = defaultdict(list)
    for path in TESTS.rglob("*.py"):
        if "__pycache__" in path.parts or path.name in ("conftest.py", "__init__.py"):
            continue
        seen[path.name].append(str(path.relative_to(TESTS)))
    clashes = {name: sorted(paths) for name, paths in seen.items() if len(paths) > 1}
    assert clashes == {}

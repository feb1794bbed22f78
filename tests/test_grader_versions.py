"""Grader versions are bumped when grading rules change.

Every module that declares ``GRADER_VERSION`` (the grader version runs record and
``comparability`` compares) is fingerprinted together with the modules of its own package it
imports, directly or not (judge prompts, parsers, matchers, scoring helpers): the sha256 of a
canonical dump of each module's syntax tree, so comments, docstrings, string statements that
document attributes, formatting and the ``GRADER_VERSION`` line itself do not count, and every
other change does. ``tests/grader_fingerprints.json`` holds, for each versioned module and each
of its versions, the fingerprints of its modules. The test fails when the current source of a
module does not match the fingerprints recorded for its current version, naming the modules
that changed and the version to bump.

After a change:

* it can change a verdict, a score or a reward → bump ``GRADER_VERSION`` of each module named,
  then record the new version's fingerprints;
* it cannot (a rename, a message, speed) → record the fingerprints under the same version.

Recording: ``LIFEBENCH_UPDATE_FINGERPRINTS=1 python -m pytest -n 0 tests/test_grader_versions.py``
(the fingerprints of older versions are kept; CONTRIBUTING.md, "Grader versions").
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import lifebench

SRC = Path(lifebench.__file__).resolve().parent
TABLE = Path(__file__).resolve().parent / "grader_fingerprints.json"
UPDATE = "LIFEBENCH_UPDATE_FINGERPRINTS"
VERSION = "GRADER_VERSION"


def module_name(path: Path) -> str:
    """``lifebench.a.b`` of ``SRC/a/b.py`` (``lifebench.a`` of ``SRC/a/__init__.py``)."""
    parts = path.relative_to(SRC).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(("lifebench", *parts))


def module_path(name: str) -> Path | None:
    """The source file of module ``name`` under ``SRC`` (None: not a lifebench module)."""
    parts = name.split(".")
    if parts[0] != "lifebench":
        return None
    base = SRC.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _is_doc(node: ast.stmt) -> bool:
    """A statement that is only a string (a docstring, an attribute's documentation)."""
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _is_version(node: ast.stmt) -> bool:
    """The module's ``GRADER_VERSION = N`` line."""
    return (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == VERSION
    )


def canonical(node: Any) -> Iterator[str]:
    """A dump of ``node`` that does not depend on the Python version: fields that are None or
    empty (those newer Pythons add, such as ``type_params``) and source positions are left
    out, string statements dropped."""
    if isinstance(node, ast.AST):
        yield type(node).__name__
        yield "("
        for field in node._fields:
            value = getattr(node, field, None)
            if value is None or value == [] or field == "ctx":
                continue
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                value = [s for s in value if not _is_doc(s) and not _is_version(s)]
            yield field
            yield "="
            yield from canonical(value)
            yield ","
        yield ")"
    elif isinstance(node, list):
        yield "["
        for item in node:
            yield from canonical(item)
            yield ","
        yield "]"
    else:
        yield f"{type(node).__name__}:{node!r}"


def fingerprint(path: Path) -> str:
    """The fingerprint of one module's source (16 hex digits of a sha256)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    text = "".join(canonical(tree))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def declared_version(tree: ast.Module) -> int | None:
    """The module's top-level ``GRADER_VERSION`` (None: it declares none)."""
    for node in tree.body:
        if _is_version(node):
            assert isinstance(node, ast.Assign)
            value = node.value
            if isinstance(value, ast.Constant) and type(value.value) is int:
                return value.value
            raise AssertionError(f"{VERSION} must be an integer literal: {ast.unparse(node)}")
    return None


def imported(tree: ast.Module, name: str, is_package: bool) -> set[str]:
    """Every module ``tree`` (module ``name``) imports, anywhere in it (lazy imports too),
    including ``from package import submodule``."""
    package = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)
    return out


def graded_modules(name: str) -> dict[str, str]:
    """Module name → fingerprint, for versioned module ``name`` and the modules of its
    package it imports, transitively."""
    package = name.rpartition(".")[0]
    seen: dict[str, str] = {}
    todo = [name]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        path = module_path(current)
        if path is None:
            continue
        seen[current] = fingerprint(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for other in imported(tree, current, path.name == "__init__.py"):
            if other.startswith(package + ".") and other not in seen:
                todo.append(other)
    return dict(sorted(seen.items()))


def versioned_modules() -> dict[str, int]:
    """Every lifebench module that declares a grader version → that version."""
    out: dict[str, int] = {}
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if VERSION not in text:
            continue
        version = declared_version(ast.parse(text, filename=str(path)))
        if version is not None:
            out[module_name(path)] = version
    return out


def current_table() -> dict[str, dict[str, dict[str, str]]]:
    """Versioned module → its current version → the fingerprints of its modules."""
    return {
        name: {str(version): graded_modules(name)} for name, version in versioned_modules().items()
    }


def load_table() -> dict[str, dict[str, dict[str, str]]]:
    if not TABLE.is_file():
        return {}
    data: dict[str, dict[str, dict[str, str]]] = json.loads(TABLE.read_text(encoding="utf-8"))
    return data


def _shown_path(path: Path) -> Path:
    """``src/lifebench/…`` in a checkout, else the file's path."""
    return path.relative_to(SRC.parent.parent) if SRC.parent.name == "src" else path


def _changes(recorded: dict[str, str], now: dict[str, str]) -> list[str]:
    changed = [m for m in now if m in recorded and recorded[m] != now[m]]
    added = [m for m in now if m not in recorded]
    removed = [m for m in recorded if m not in now]
    return (
        [f"changed {m}" for m in changed]
        + [f"now uses {m}" for m in added]
        + [f"no longer uses {m}" for m in removed]
    )


def problems(
    table: dict[str, dict[str, dict[str, str]]], now: dict[str, dict[str, dict[str, str]]]
) -> list[str]:
    """What does not match between the recorded ``table`` and the source ``now``."""
    out: list[str] = []
    for name, versions in now.items():
        ((version, modules),) = versions.items()
        path = module_path(name)
        where = _shown_path(path) if path is not None else name
        recorded = table.get(name, {})
        latest = max((int(v) for v in recorded), default=None)
        if latest is not None and int(version) < latest:
            out.append(
                f"{name}: {VERSION} went back from {latest} to {version} ({where}); "
                "versions only go up"
            )
            continue
        if version not in recorded:
            out.append(
                f"{name}: version {version} has no recorded fingerprints ({where}); "
                f"record them: {UPDATE}=1 python -m pytest -n 0 tests/test_grader_versions.py"
            )
            continue
        changes = _changes(recorded[version], modules)
        if changes:
            out.append(
                f"{name} changed without a version bump: {'; '.join(changes)}. If the change "
                f"can change a verdict, score or reward, bump {VERSION} in {where} to "
                f"{int(version) + 1}; if it cannot (rename, message, speed), keep it. Then "
                f"record the fingerprints: {UPDATE}=1 python -m pytest -n 0 "
                "tests/test_grader_versions.py"
            )
    for name in table:
        if name not in now:
            out.append(
                f"{name} is in {TABLE.name} but declares no {VERSION} any more (or is gone); "
                f"record the fingerprints again: {UPDATE}=1 python -m pytest -n 0 "
                "tests/test_grader_versions.py"
            )
    return out


def updated(
    table: dict[str, dict[str, dict[str, str]]], now: dict[str, dict[str, dict[str, str]]]
) -> dict[str, dict[str, dict[str, str]]]:
    """``table`` with the fingerprints of every current version set from ``now`` (older
    versions kept; modules that declare no version any more dropped)."""
    out: dict[str, dict[str, dict[str, str]]] = {}
    for name in sorted(now):
        merged = {**table.get(name, {}), **now[name]}
        out[name] = dict(sorted(merged.items(), key=lambda kv: int(kv[0])))
    return out


@pytest.mark.skipif(
    bool(os.environ.get("MUTANT_UNDER_TEST")), reason="mutmut's copies are not the source"
)
def test_every_grader_change_bumps_its_version_or_is_recorded_as_not_changing_results() -> None:
    now = current_table()
    assert now, f"no module declares {VERSION} under {SRC}"
    table = load_table()
    if os.environ.get(UPDATE):
        TABLE.write_text(
            json.dumps(updated(table, now), indent=1, sort_keys=False) + "\n", encoding="utf-8"
        )
        table = load_table()
    found = problems(table, now)
    assert not found, "\n".join(found)


# ------------------------------------------------------------------ the rules of the check


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_comments_docstrings_and_format_do_not_change_a_fingerprint(tmp_path: Path) -> None:
    base = "GRADER_VERSION = 1\n\ndef f(x):\n    return x > 0.5\n"
    same = (
        '"""Module doc."""\n# a comment\nGRADER_VERSION = 2\n\n\n'
        'def f(x):  # why\n    """Doc."""\n    return (x\n            > 0.5)\n'
    )
    documented = (
        'GRADER_VERSION = 1\nLIMIT = 3\n"""The limit."""\n\ndef f(x):\n    return x > 0.5\n'
    )
    limit = "GRADER_VERSION = 1\nLIMIT = 3\n\ndef f(x):\n    return x > 0.5\n"
    _write(tmp_path, {"a.py": base, "b.py": same, "c.py": documented, "d.py": limit})
    prints = {p: fingerprint(tmp_path / p) for p in ("a.py", "b.py", "c.py", "d.py")}
    assert prints["a.py"] == prints["b.py"]  # the version line itself is not a rule
    assert prints["c.py"] == prints["d.py"]
    assert prints["a.py"] != prints["d.py"]


@pytest.mark.parametrize(
    "changed",
    [
        "def f(x):\n    return x >= 0.5\n",
        "def f(x):\n    return x > 0.6\n",
        "def f(x):\n    return x > 0.5 and x < 1\n",
        "def f(y):\n    return y > 0.5\n",
        "def f(x):\n    return 'x > 0.5'\n",
    ],
    ids=["operator", "constant", "condition", "name", "string-value"],
)
def test_any_change_of_code_changes_the_fingerprint(tmp_path: Path, changed: str) -> None:
    _write(tmp_path, {"a.py": "def f(x):\n    return x > 0.5\n", "b.py": changed})
    assert fingerprint(tmp_path / "a.py") != fingerprint(tmp_path / "b.py")


def test_the_real_graders_and_their_helpers_are_covered() -> None:
    versions = versioned_modules()
    assert {"lifebench.vita.grading.state", "lifebench.travel.grading.judge"} <= set(versions)
    assert any(n.startswith("lifebench.flow.evaluation.") for n in versions)
    judge = graded_modules("lifebench.travel.grading.judge")
    assert "lifebench.travel.grading.judge_prompts" in judge  # imported prompts count
    assert all(m.startswith("lifebench.travel.grading.") for m in judge)  # only its package


def _fake(name: str, modules: dict[str, str]) -> dict[str, dict[str, dict[str, str]]]:
    return {name: {"1": modules}}


def test_a_changed_helper_without_a_bump_names_the_module_and_the_version_to_bump() -> None:
    name = "lifebench.vita.grading.state"
    recorded = _fake(name, {name: "aaaa", "lifebench.vita.grading.expected": "bbbb"})
    now = _fake(name, {name: "aaaa", "lifebench.vita.grading.expected": "cccc"})
    (problem,) = problems(recorded, now)
    assert "changed lifebench.vita.grading.expected" in problem
    assert "to 2" in problem and UPDATE in problem
    bumped = {name: {"2": now[name]["1"]}}
    (unrecorded,) = problems(recorded, bumped)
    assert "version 2 has no recorded fingerprints" in unrecorded
    assert problems(updated(recorded, bumped), bumped) == []
    assert set(updated(recorded, bumped)[name]) == {"1", "2"}  # the old version is kept
    (gone,) = problems(recorded, {})
    assert "declares no GRADER_VERSION" in gone


def test_a_version_that_goes_back_is_refused() -> None:
    name = "lifebench.flow.evaluation.turn"
    (problem,) = problems({name: {"3": {name: "x"}}}, {name: {"2": {name: "x"}}})
    assert "went back from 3 to 2" in problem
    recorded = {name: {"1": {name: "x"}, "2": {name: "y"}}}
    (used,) = problems(recorded, {name: {"1": {name: "x"}}})  # even to a version recorded
    assert "went back from 2 to 1" in used


def test_a_new_module_used_by_a_grader_counts_as_a_change() -> None:
    name = "lifebench.flow.evaluation.turn"
    (problem,) = problems(
        {name: {"1": {name: "x"}}},
        {name: {"1": {name: "x", "lifebench.flow.evaluation.matching": "y"}}},
    )
    assert "now uses lifebench.flow.evaluation.matching" in problem

"""scripts/mutmut_run.py: mutmut mutates the rules inside ``@tool`` methods, and the mutated
module still exposes exactly the same tools (the copies mutmut makes are not tools)."""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path
from types import ModuleType

import mutmut.configuration as configuration
import mutmut.mutation.file_mutation as file_mutation
import pytest

from lifebench.tools import ToolError
from lifebench.tools._tool import tools_of

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "mutmut_run.py"

SOURCE = """
from __future__ import annotations

from typing import Annotated

from lifebench.tools import Param, ToolError, tool


class Shop:
    @tool(kind="general", description="Minutes for a distance.")
    def minutes(self, distance: Annotated[float, Param("Metres.")]) -> int:
        if distance < 0:
            raise ToolError("distance must be >= 0", "precondition")
        return 25

    def helper(self) -> int:
        return 2

    @tool(kind="read", description="Kept as it is.")
    def kept(self) -> int:  # pragma: no mutate block
        return 7
"""


@pytest.fixture
def launcher(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    # the patches are undone after the test (monkeypatch restores what it replaced first)
    monkeypatch.setattr(
        file_mutation.MutationVisitor,
        "_skip_node_and_children",
        file_mutation.MutationVisitor._skip_node_and_children,
    )
    monkeypatch.setattr(
        file_mutation,
        "function_trampoline_arrangement",
        file_mutation.function_trampoline_arrangement,
    )
    monkeypatch.setattr(configuration, "_load_config", configuration._load_config)
    spec = importlib.util.spec_from_file_location("mutmut_run_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    module.patch_mutmut()
    return module


def _load(code: str, name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    module = types.ModuleType(name)
    monkeypatch.setitem(sys.modules, name, module)
    exec(compile(code, f"{name}.py", "exec"), module.__dict__)
    return module


def test_plain_mutmut_leaves_tool_methods_alone() -> None:
    mutated = file_mutation.mutate_file_contents("shop.py", SOURCE)
    assert not any("minutes" in n for n in mutated.mutant_names)


def test_tool_rules_are_mutated_and_the_tools_stay_the_same(
    launcher: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    mutated = file_mutation.mutate_file_contents("shop.py", SOURCE)
    names = list(mutated.mutant_names)
    assert any("minutes" in n for n in names)
    assert any("helper" in n for n in names)
    assert not any("kept" in n for n in names)  # the pragma still counts

    module = _load(mutated.code, "shop_mutated", monkeypatch)
    original = _load(SOURCE, "shop_original", monkeypatch)
    tools = tools_of(module.Shop())
    assert (
        [t.name for t in tools]
        == [t.name for t in tools_of(original.Shop())]
        == [
            "minutes",
            "kept",
        ]
    )
    assert tools[0].parameters_schema() == tools_of(original.Shop())[0].parameters_schema()

    monkeypatch.delenv("MUTANT_UNDER_TEST", raising=False)
    assert module.Shop().minutes(0.5) == 25
    with pytest.raises(ToolError):
        module.Shop().minutes(-1)
    # the mutant `distance < 1` is what runs when it is active
    flipped = next(n for n in names if "minutes" in n and "distance < 1" in _body(mutated.code, n))
    monkeypatch.setenv("MUTANT_UNDER_TEST", f"shop_mutated.{flipped}")
    with pytest.raises(ToolError):
        module.Shop().minutes(0.5)


def _body(code: str, function: str) -> str:
    start = code.index(f"def {function}(")
    return code[start : code.index("\n    def ", start + 1)]


def test_mutation_tests_restricts_the_selection(
    launcher: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUTATION_TESTS", "tests/runner tests/metrics/test_x.py::test_y")
    launcher.restrict_tests()
    selection = configuration._load_config().pytest_add_cli_args_test_selection
    assert selection[-2:] == ["tests/runner", "tests/metrics/test_x.py::test_y"]

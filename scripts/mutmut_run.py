"""Run mutmut (``python scripts/mutmut_run.py run ...``) so that it also mutates ``@tool`` methods.

mutmut 3 leaves every decorated function alone (bar ``@staticmethod`` / ``@classmethod``),
because it copies a function once per mutant and the copies would run their decorators again.
VitaBench's tool preconditions (``raise ToolError(...)`` when an argument breaks a rule) live
in ``@tool`` methods, so without this launcher they are never measured.

``@tool(...)`` only attaches a spec to the function and returns it unchanged
(``lifebench.tools._spec.tool``), so the trampoline mutmut puts in the function's place can carry
it as well as the original does. This launcher makes two changes to mutmut, in this process
(mutmut forks its workers, so they inherit them):

* a function whose only decorators are ``@tool(...)`` is mutated like an undecorated one (the
  decorator's arguments, texts the agent reads, are still never mutated);
* the copies mutmut makes of such a function (the original and one per mutant) drop the
  ``@tool`` decorator: only the trampoline, under the tool's own name, is a tool; the copies
  are plain methods the trampoline calls, and ``tools_of`` never lists them.

``MUTATION_TESTS`` (space-separated pytest paths or node ids), when set, restricts the tests
mutmut runs (its ``pytest_add_cli_args_test_selection``): a quicker run whose score is a lower
bound, since a test outside the selection might have killed a survivor.

Anything else is passed to mutmut's own command line unchanged. If mutmut's internals moved
(another major version), this refuses to run instead of measuring less than it says.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from typing import Any

import libcst as cst
import mutmut.configuration as configuration
import mutmut.mutation.file_mutation as file_mutation
from libcst.metadata import PositionProvider

TOOL_DECORATOR = "tool"


def is_tool_decorator(decorator: cst.Decorator) -> bool:
    """``@tool(...)`` or ``@tool`` (a bare name or a call of that name)."""
    target = decorator.decorator
    if isinstance(target, cst.Call):
        target = target.func
    return isinstance(target, cst.Name) and target.value == TOOL_DECORATOR


def only_tool_decorators(node: cst.CSTNode) -> bool:
    """A function definition whose decorators are all ``@tool``."""
    return (
        isinstance(node, cst.FunctionDef)
        and len(node.decorators) > 0
        and all(is_tool_decorator(d) for d in node.decorators)
    )


def patch_mutmut() -> None:
    """Teach mutmut to mutate ``@tool`` functions (see the module docstring)."""
    visitor = getattr(file_mutation, "MutationVisitor", None)
    arrange = getattr(file_mutation, "function_trampoline_arrangement", None)
    if visitor is None or arrange is None or not hasattr(visitor, "_skip_node_and_children"):
        sys.exit("mutmut_run.py: this mutmut has no MutationVisitor / trampoline hook to patch")
    skip = visitor._skip_node_and_children

    def skip_node_and_children(self: Any, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.FunctionDef) and only_tool_decorators(node):
            # `# pragma: no mutate block` on a line of the header (decorators to `def`) still
            # leaves the function alone
            start = self.get_metadata(PositionProvider, node, None)
            name = self.get_metadata(PositionProvider, node.name, None)
            if start and name:
                header = range(start.start.line, name.start.line + 1)
                if any(line in self._ignored_node_lines for line in header):
                    self.ignored_functions.add(node.name.value)
                    return True
            # the other rules judge the function as if it were undecorated
            return bool(skip(self, node.with_changes(decorators=[])))
        return bool(skip(self, node))

    def arrangement(
        function: cst.FunctionDef, mutants: Iterable[Any], class_name: str | None
    ) -> tuple[Sequence[Any], Sequence[Any], Sequence[Any], Sequence[str]]:
        declarations, methods, assignments, names = arrange(function, mutants, class_name)
        if not only_tool_decorators(function):
            return declarations, methods, assignments, names
        trampoline, *copies = methods
        plain = [
            c.with_changes(decorators=[]) if isinstance(c, cst.FunctionDef) else c for c in copies
        ]
        return declarations, [trampoline, *plain], assignments, names

    visitor._skip_node_and_children = skip_node_and_children
    file_mutation.function_trampoline_arrangement = arrangement


def restrict_tests() -> None:
    """``MUTATION_TESTS`` → mutmut's test selection (see the module docstring)."""
    selection = os.environ.get("MUTATION_TESTS", "").split()
    if not selection:
        return
    load = configuration._load_config

    def load_config() -> Any:
        loaded = load()
        loaded.pytest_add_cli_args_test_selection = [
            *loaded.pytest_add_cli_args_test_selection,
            *selection,
        ]
        return loaded

    configuration._load_config = load_config


def main() -> None:
    patch_mutmut()
    restrict_tests()
    from mutmut.__main__ import cli

    cli()


if __name__ == "__main__":
    main()

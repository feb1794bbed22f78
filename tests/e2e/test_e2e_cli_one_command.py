"""The console script builds only the command it runs (``lifebench.cli.app_for``): every help
text, usage error and the top-level behaviour are those of the whole application."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from lifebench.cli import app, app_for

COMMANDS = [c.name for c in app.registered_commands] + [g.name for g in app.registered_groups]


def _invoke(target: object, args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(target, args, env={"COLUMNS": "100", "NO_COLOR": "1"})  # type: ignore[arg-type]
    return result.exit_code, result.output


@pytest.mark.parametrize("name", COMMANDS)
def test_one_command_is_the_same_command(name: str) -> None:
    one = app_for([name, "--help"])
    assert one is not app
    assert [c.name for c in one.registered_commands + one.registered_groups] == [name]  # type: ignore[operator]
    for args in ([name, "--help"], [name, "--no-such-option"]):
        assert _invoke(one, args) == _invoke(app, args), args


def test_a_command_of_a_group_is_the_same_command() -> None:
    for args in (["tasks", "validate", "--help"], ["serve", "mcp", "--help"], ["tasks", "nope"]):
        assert _invoke(app_for(args), args) == _invoke(app, args), args


@pytest.mark.parametrize("args", [[], ["--help"], ["--version"], ["nosuch"], ["--version", "run"]])
def test_anything_else_is_the_whole_application(args: list[str]) -> None:
    assert app_for(args) is app

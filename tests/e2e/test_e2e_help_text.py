"""Help texts: docstring paragraphs are re-flowed to the terminal, brackets are shown."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.cli._help import reflow


def _help(*args: str, width: int) -> str:
    result = CliRunner().invoke(app, [*args, "--help"], terminal_width=width)
    assert result.exit_code == 0, result.output
    return result.output


def _prose(output: str) -> str:
    """The words of ``output`` outside the option boxes, one space apart."""
    kept = [line for line in output.splitlines() if not re.match(r"\s*[│╭╰]", line)]
    return " ".join(" ".join(kept).split())


def test_a_paragraph_is_wrapped_once_to_a_narrow_terminal() -> None:
    output = _help("tasks", "certify", width=80)
    assert max(len(line.rstrip()) for line in output.splitlines()) <= 80
    # Hard-wrapped docstring lines end on "writes" and "accept,": re-flowed, the terminal's
    # own wrap must not also break there (that leaves short ragged lines).
    lines = [line.strip() for line in output.splitlines()]
    assert "oracle writes" not in [line[-len("oracle writes") :] for line in lines]
    ragged = [line for line in lines if line.endswith(("writes", "accept,"))]
    assert all(len(line) > 60 for line in ragged), ragged
    assert "every field of every record the oracle writes wrong in turn" in _prose(output)


def test_square_brackets_in_help_are_shown() -> None:
    assert "pip install 'lifebench[ray]'" in _prose(_help("sweep", width=200))
    assert "'lifebench[ray]'" in _help("run", width=200)
    assert "pip install -e '.[view]' (part of .[dev])" in _prose(_help("view", width=200))


def test_reflow_keeps_paragraphs_and_lists() -> None:
    text = "One\nparagraph.\n\n- a\n- b\n\n\bkept\nas is"
    assert reflow(text) == "One paragraph.\n\n- a\n- b\n\n\bkept\nas is"

"""Test ids: every collected test can be selected again by the id pytest prints.

mutmut, ``pytest --lf``, CI logs and people re-run a test by passing its node id on the command
line. pytest prints a parameter id with newlines and non-ASCII characters escaped
(``\\n``, ``\\uff0c``), and the escaped text is what must be passed back, backslashes and all;
copied through a shell it stops matching, and mutmut then counted mutants as killed that no test
had run (issue 21). So ids are printable ASCII without backslashes (:func:`readable_id` makes
them from any text), and ``tests/conftest.py`` refuses a collection with any other id.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from id_rules import readable_id, unselectable_reason

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("plain words", "plain words"),
        ("Thought: t\nAction: a", "Thought: t<nl>Action: a"),
        ("tab\there\r", "tab<tab>here<cr>"),
        ("a\\b", "a<bs>b"),
        ("\uff0c", "<U+FF0C>"),
        ("\u8f83\u597d", "<U+8F83><U+597D>"),
        ("\x1b[0m", "<U+001B>[0m"),
        ("", ""),
    ],
    ids=[
        "plain",
        "newline",
        "tab-and-cr",
        "backslash",
        "fullwidth-comma",
        "chinese",
        "escape",
        "empty",
    ],
)
def test_readable_id(text: str, want: str) -> None:
    assert readable_id(text) == want
    assert unselectable_reason(f"tests/x.py::test_f[{want}]", f"test_f[{want}]") is None


@pytest.mark.parametrize(
    ("nodeid", "name", "reason"),
    [
        ("tests/x.py::test_f[a\\nb]", "test_f[a\\nb]", "a backslash"),
        ("tests/x.py::test_f[\u8f83]", "test_f[\u8f83]", "U+8F83"),
        ("tests/x.py::test_f[a\nb]", "test_f[a\nb]", "U+000A"),
        ("tests/x.py::test_f[a\x7fb]", "test_f[a\x7fb]", "U+007F"),
        ("tests/x.py::Class::test_f[x]", "test_g[x]", "selects test_f[x], not test_g[x]"),
        ("tests/x[1].py::test_f", "test_f", "selects tests/x, not test_f"),
    ],
    ids=["backslash", "chinese", "raw-newline", "delete", "other-name", "bracket-in-path"],
)
def test_unselectable_ids_are_named(nodeid: str, name: str, reason: str) -> None:
    found = unselectable_reason(nodeid, name)
    assert found is not None and reason in found


def test_a_plain_id_is_selectable() -> None:
    assert unselectable_reason("tests/x.py::Class::test_f[a-b c]", "test_f[a-b c]") is None
    assert unselectable_reason("tests/x.py::test_f", "test_f") is None


def test_collection_refuses_an_id_it_could_not_select_again(tmp_path: Path) -> None:
    """The guard of tests/conftest.py, on a test file of its own: collection fails and the
    message names the test and why (the guard runs on every collection, mutmut's too)."""
    (tmp_path / "conftest.py").write_text(
        (REPO / "tests" / "conftest.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    for helper in ("shared_data.py", "id_rules.py", "hang_watchdog.py"):
        (tmp_path / helper).write_text(
            (REPO / "tests" / helper).read_text(encoding="utf-8"), encoding="utf-8"
        )
    (tmp_path / "test_bad.py").write_text(
        textwrap.dedent(
            """
            import pytest

            @pytest.mark.parametrize("x", ["ok"], ids=["line\\none"])
            def test_explicit(x):
                pass

            def test_plain():
                pass
            """
        ),
        encoding="utf-8",
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    out = run.stdout + run.stderr
    assert run.returncode == pytest.ExitCode.USAGE_ERROR, out
    assert "test_bad.py::test_explicit[line\\none]" in out
    assert "a backslash" in out
    assert "test_plain" not in out.split("cannot be selected")[-1]


def test_automatic_ids_of_text_parameters_are_readable(tmp_path: Path) -> None:
    """Text parameters without explicit ids get readable ids (the conftest's id hook)."""
    (tmp_path / "conftest.py").write_text(
        (REPO / "tests" / "conftest.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    for helper in ("shared_data.py", "id_rules.py", "hang_watchdog.py"):
        (tmp_path / helper).write_text(
            (REPO / "tests" / helper).read_text(encoding="utf-8"), encoding="utf-8"
        )
    (tmp_path / "test_auto.py").write_text(
        textwrap.dedent(
            """
            import pytest

            @pytest.mark.parametrize("x", ["\\u4e0d", "a\\nb", "plain"])
            def test_auto(x):
                pass
            """
        ),
        encoding="utf-8",
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    for want in ("test_auto[<U+4E0D>]", "test_auto[a<nl>b]", "test_auto[plain]"):
        assert want in run.stdout

"""Mutation guards (issue 21): the report environments of ``lifebench.reporting._templates``
pinned by what they render — HTML autoescaped, Markdown escaped once on output, undefined
names refused, block tags leaving no blank lines, the filters the templates use."""

from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import UndefinedError

import lifebench.reporting
from lifebench.reporting import _format
from lifebench.reporting._templates import environment, md_escape, static_text


def test_html_is_autoescaped_and_not_markdown_escaped() -> None:
    env = environment()
    assert env.from_string("{{ x }}").render(x="<b>a|b & *c*</b>") == (
        "&lt;b&gt;a|b &amp; *c*&lt;/b&gt;"
    )


def test_markdown_escapes_each_value_once() -> None:
    env = environment(markdown=True)
    # md_escape alone: the entities are not escaped a second time by autoescaping
    assert env.from_string("{{ x }}").render(x="<b>a|b</b>") == "&lt;b&gt;a\\|b&lt;/b&gt;"
    assert env.from_string("| {{ x }} |").render(x="two\nlines") == "| two lines |"
    assert env.from_string("{{ x }}").render(x=None) == ""


@pytest.mark.parametrize("markdown", [False, True], ids=["html", "markdown"])
def test_an_undefined_name_is_an_error(markdown: bool) -> None:
    with pytest.raises(UndefinedError):
        environment(markdown=markdown).from_string("{{ missing }}").render()


@pytest.mark.parametrize("markdown", [False, True], ids=["html", "markdown"])
def test_block_tags_leave_no_blank_lines_and_the_final_newline_stays(markdown: bool) -> None:
    env = environment(markdown=markdown)
    assert env.from_string("{% if x %}\nyes\n{% endif %}\nend\n").render(x=True) == "yes\nend\n"
    assert env.from_string("    {% if x %}\nyes\n    {% endif %}\n").render(x=True) == "yes\n"
    assert env.from_string("line\n").render() == "line\n"


def test_the_filters_the_templates_use() -> None:
    env = environment()
    assert env.filters["pct"] is _format.pct
    assert env.filters["ci"] is _format.ci_text
    assert env.filters["num"] is _format.num
    assert env.filters["money"] is _format.money
    assert env.filters["metric"] is _format.metric_text
    assert env.filters["score"] is _format.score_text
    # pass^k by k as a number: 10 after 2
    assert env.from_string("{{ d | by_k | join(',') }}").render(d={"10": 1, "2": 1, "1": 1}) == (
        "1,2,10"
    )


def test_templates_and_static_files_come_from_the_package() -> None:
    package = Path(lifebench.reporting.__file__).parent
    env = environment()
    assert env.get_template("report.md.j2").filename == str(package / "templates" / "report.md.j2")
    css = (package / "static" / "report.css").read_text(encoding="utf-8")
    assert css and static_text("report.css") == css


def test_md_escape_entities_before_markdown_punctuation() -> None:
    assert md_escape("a&b") == "a&amp;b"
    assert md_escape("#1 `x` ~y~ [z] \\") == "\\#1 \\`x\\` \\~y\\~ \\[z\\] \\\\"
    assert md_escape("_a_") == "\\_a\\_"
    assert md_escape("\x1b[31m") == "\\\\x1b\\[31m"
    assert md_escape("  a \t b  ") == "a b"
    assert md_escape(3) == "3"

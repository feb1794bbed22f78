"""Jinja2 environments of the reports (HTML autoescaped; Markdown escaped on output)."""

from __future__ import annotations

import re
from importlib.resources import files
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

from lifebench.reporting._safe import safe_text


def _filters() -> dict[str, Any]:
    from lifebench.reporting._format import ci_text, metric_text, money, num, pct, score_text

    return {
        "pct": pct,
        "ci": ci_text,
        "num": num,
        "money": money,
        "metric": metric_text,
        "score": score_text,
        "by_k": lambda d: sorted(d, key=int),
    }


_MD_SPECIAL = re.compile(r"([\\`*_\[\]|#~])")


def md_escape(value: Any) -> str:
    """Text safe inside a Markdown table cell: one line, control characters made visible,
    Markdown punctuation escaped, and ``& < >`` as entities so that no renderer turns stored
    text into HTML."""
    text = "" if value is None else safe_text(str(value))
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = " ".join(text.split())
    return _MD_SPECIAL.sub(r"\\\1", text)


def environment(*, markdown: bool = False) -> Environment:
    """A fresh environment loading ``lifebench/reporting/templates`` (HTML: autoescape on;
    Markdown: every ``{{ … }}`` passes through :func:`md_escape`)."""
    env = Environment(
        loader=PackageLoader("lifebench.reporting", "templates"),
        autoescape=not markdown,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=md_escape if markdown else None,
    )
    env.filters.update(_filters())
    return env


def static_text(name: str) -> str:
    """A file of ``lifebench/reporting/static`` as text."""
    return files("lifebench.reporting").joinpath("static", name).read_text(encoding="utf-8")

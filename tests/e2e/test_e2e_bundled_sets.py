"""Acceptance on every bundled generated set: oracle passes, noop fails, in both languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.vita.loader import available_bundled_tasks

SETS = available_bundled_tasks("generated")


def _pass_hat_1(tmp_path: Path, domain: str, language: str, agent: str) -> dict[str, object]:
    out = tmp_path / f"{domain}-{language}-{agent}"
    args = [
        "run",
        "--domain",
        domain,
        "--language",
        language,
        "--task-set",
        "generated",
        "--agent",
        agent,
        "--out",
        str(out),
        "--quiet",
        "--concurrency",
        "16",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr + result.stdout
    return dict(json.loads(CliRunner().invoke(app, ["report", str(out), "--json"]).stdout))


@pytest.mark.parametrize(("domain", "language"), SETS, ids=[f"{d}-{lang}" for d, lang in SETS])
def test_generated_set(tmp_path: Path, domain: str, language: str) -> None:
    oracle = _pass_hat_1(tmp_path, domain, language, "oracle")
    assert oracle["n_tasks"] == 100 and oracle["n_errors"] == 0
    assert oracle["pass_hat_k"]["1"] == 1.0  # type: ignore[index]
    noop = _pass_hat_1(tmp_path, domain, language, "noop")
    assert noop["pass_hat_k"]["1"] == 0.0  # type: ignore[index]


def test_every_domain_ships_both_languages() -> None:
    domains = {d for d, _ in SETS}
    assert "delivery" in domains
    assert all((d, lang) in SETS for d in domains for lang in ("en", "zh"))

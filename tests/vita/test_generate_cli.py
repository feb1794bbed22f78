"""``lifebench tasks generate``."""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.vita.generate import GENERATORS, available_generators, registry
from lifebench.vita.loader import load_tasks


def _generate(out: Path, *extra: str) -> tuple[int, str]:
    args = ["tasks", "generate", "--domain", "delivery", "--n", "3", "--seed", "5"]
    result = CliRunner().invoke(app, [*args, "--out", str(out), *extra])
    return result.exit_code, result.stdout + result.stderr


def test_generate_twice_gives_identical_bytes(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    code, output = _generate(first)
    assert code == 0, output
    assert "3 delivery tasks (seed 5, en); certified 3/3" in output
    assert _generate(second)[0] == 0
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes().endswith(b"}\n]\n")
    assert [t.id for t in load_tasks(first)] == [f"GEN-delivery-5-{i}" for i in range(3)]


def test_generate_in_chinese_with_knobs(tmp_path: Path) -> None:
    out = tmp_path / "zh.json"
    code, output = _generate(
        out, "--language", "zh", "--subgoals", "2", "--providers", "9", "--products", "4"
    )
    assert code == 0, output
    tasks = json.loads(out.read_text(encoding="utf-8"))
    for task in tasks:
        assert "用户id" in task["user_scenario"]["user_profile"]
        assert len(task["environment"]["stores"]) == 9
        assert len(task["evaluation_criteria"]["expected_states"]) == 2
        assert all(len(s["products"]) == 4 for s in task["environment"]["stores"].values())


def test_generate_refuses_bad_options(tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    for extra, message in [
        (["--language", "fr"], "--language"),
        (["--products", "2"], "--products"),
        (["--n", "0"], "--n"),
    ]:
        code, output = _generate(out, *extra)
        assert code == 2 and message in output, output
    assert not out.exists()


def test_generate_refuses_a_registered_domain_without_a_generator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every built-in domain has its generator now: register one whose module does not exist
    missing = "lifebench.vita.generate.no_such_module:PizzaGenerator"
    monkeypatch.setattr(registry, "GENERATORS", MappingProxyType({**GENERATORS, "pizza": missing}))
    assert "pizza" not in available_generators()
    out = tmp_path / "x.json"
    result = CliRunner().invoke(app, ["tasks", "generate", "--domain", "pizza", "--out", str(out)])
    assert result.exit_code == 2
    assert "task generation for domain 'pizza' is not available yet" in result.stderr
    assert "available: delivery, instore, ota, cross" in result.stderr
    assert not out.exists()

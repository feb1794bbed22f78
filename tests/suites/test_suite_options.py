"""Suite options: typed per suite, read from the command line, hashed, stored and re-graded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import Field
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.cli._suite_flags import parse_suite_flags
from lifebench.errors import InputError
from lifebench.runner._regrade import regrade_options
from lifebench.suites import RunOptions, make_run_options
from lifebench.suites._options import RoleChoices, SuiteOptions
from lifebench.vita.options import VitaOptions


class _Demo(SuiteOptions):
    roles = RoleChoices(
        agents={"llm": frozenset({"agent"}), "noop": frozenset()},
        users={"scripted": frozenset()},
        evaluators={"judge": frozenset({"judge"})},
        offline_agent="noop",
        offline_user="scripted",
        model_agent="llm",
        model_user="scripted",
        default_evaluator="judge",
        model_evaluator="judge",
    )
    subset: str = "single"
    meta_judge: bool = True
    caps: list[int] = Field(default_factory=list)
    ratio: float = 0.5


def test_flags_values_bools_lists() -> None:
    args = ["--subset", "multi", "--no-meta-judge", "--caps", "3", "--caps=4", "--ratio=0.25"]
    parsed = parse_suite_flags(args, _Demo, "demo")
    assert parsed == {"subset": "multi", "meta_judge": False, "caps": ["3", "4"], "ratio": "0.25"}
    options = _Demo.model_validate(parsed)
    assert options.caps == [3, 4] and options.ratio == 0.25 and options.meta_judge is False
    assert parse_suite_flags(["--meta-judge"], _Demo, "demo") == {"meta_judge": True}
    assert parse_suite_flags(["--caps", "[1, 2]"], _Demo, "demo") == {"caps": [1, 2]}


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--subsett", "x"], "--subsett"),
        (["--subset"], "needs a value"),
        (["--subset", "a", "--subset", "b"], "given twice"),
        (["stray"], "unexpected argument 'stray'"),
        (["--no-subset"], "not a yes/no option"),
        (["--no-meta-judge=1"], "takes no value"),
    ],
)
def test_flag_errors_name_the_flag(args: list[str], needle: str) -> None:
    with pytest.raises(InputError) as info:
        parse_suite_flags(args, _Demo, "demo")
    assert needle in str(info.value)


def test_unknown_flag_lists_the_suites_options() -> None:
    with pytest.raises(InputError) as info:
        parse_suite_flags(["--nope", "1"], VitaOptions, "vita")
    text = str(info.value)
    assert "--nope" in text and "--judge-variant" in text and "--rubric-dedup" in text


def test_role_defaults_come_from_the_suite() -> None:
    offline = RunOptions(suite="vita")
    assert (offline.agent, offline.user, offline.evaluator) == ("oracle", "scripted", "state")
    online = RunOptions(suite="vita", agent_model="a@http://x/v1", user_model="u@http://x/v1")
    assert (online.agent, online.user) == ("llm", "llm")
    assert isinstance(online.suite_options, VitaOptions) and online.suite_options.window == 10
    assert RunOptions(suite="vita", judge_model="j@http://x/v1").evaluator == "both"


@pytest.mark.parametrize(
    ("values", "needle"),
    [
        ({"agent": "telepath"}, "agent 'telepath' is not offered by suite 'vita'"),
        ({"agent": "llm"}, "needs --agent-model"),
        ({"evaluator": "both"}, "needs --judge-model"),
        ({"user": "dummy"}, "needs --user-model"),
        ({"suite_options": {"window": 2, "overlap": 2}}, "--overlap (2) must be smaller"),
        ({"suite_options": {"windowz": 2}}, "--windowz is not an option of suite 'vita'"),
        ({"suite_options": {"window": 0}}, "--window"),
    ],
)
def test_unrunnable_options_are_one_clear_error(values: dict[str, Any], needle: str) -> None:
    with pytest.raises(InputError) as info:
        make_run_options({"suite": "vita", **values})
    assert needle in str(info.value)
    assert "errors.pydantic.dev" not in str(info.value)


def test_suite_options_are_hashed_and_round_trip() -> None:
    base = RunOptions(suite="vita")
    wider = RunOptions(suite="vita", suite_options={"window": 12})
    assert base.config_hash() != wider.config_hash()
    stored = wider.semantic_dict()
    assert stored["suite_options"]["window"] == 12
    again = RunOptions(**stored)
    assert again == wider and again.config_hash() == wider.config_hash()
    assert RunOptions(suite="vita", concurrency=64).config_hash() == base.config_hash()


def test_options_for_checks_the_type() -> None:
    options = RunOptions(suite="vita")
    assert options.options_for(VitaOptions).rubric_dedup == "paraphrase"
    with pytest.raises(TypeError):
        options.options_for(_Demo)


def test_regrade_merges_suite_overrides_and_migrates_old_stores(tmp_path: Path) -> None:
    old_store = {"suite": "vita", "domain": "delivery", "agent": "oracle", "window": 6}
    new = regrade_options(
        old_store,
        {"evaluator": "both", "judge_model": "j", "suite_options": {"overlap": 1}},
        tmp_path,
    )
    vita = new.options_for(VitaOptions)
    assert (vita.window, vita.overlap, new.evaluator) == (6, 1, "both")
    with pytest.raises(InputError) as info:
        regrade_options(old_store, {"evaluator": "rubric"}, tmp_path)
    assert "needs --judge-model" in str(info.value)
    judged = regrade_options(
        {"suite": "vita", "evaluator": "state"}, {"judge_model": "j"}, tmp_path
    )
    assert judged.evaluator == "both"
    kept = regrade_options(
        {"suite": "vita", "evaluator": "rubric", "judge_model": "j"}, {}, tmp_path
    )
    assert kept.evaluator == "rubric"


def test_run_help_lists_every_suites_options() -> None:
    result = CliRunner().invoke(app, ["run", "--help"], terminal_width=200)
    assert result.exit_code == 0
    assert "Suite options: vita" in result.output
    assert "--judge-variant" in result.output and "[default: sliding]" in result.output


def test_run_reads_suite_flags_and_guards_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "--num-tasks", "1", "--quiet", "--out", str(out)]
    first = CliRunner().invoke(app, [*args, "--window", "6", "--overlap", "1"])
    assert first.exit_code == 0, first.output
    report = json.loads((out / "report.json").read_text())
    assert report["config"]["suite_options"]["window"] == 6
    changed = CliRunner().invoke(app, [*args, "--window", "7", "--overlap", "1"])
    assert changed.exit_code == 2 and "suite_options.window: 6 -> 7" in changed.output
    bad = CliRunner().invoke(app, [*args, "--windw", "7"])
    assert bad.exit_code == 2 and "--windw" in bad.output


def test_a_suite_sets_defaults_of_common_options_unless_given() -> None:
    travel = RunOptions(suite="travel")
    assert (travel.max_errors, travel.max_steps) == (10_000, 1_000)
    assert RunOptions(suite="travel", max_errors=3).max_errors == 3
    vita = make_run_options({"suite": "vita", "max_errors": None, "max_steps": None})
    assert (vita.max_errors, vita.max_steps) == (10, 300)


def test_required_model_names_the_missing_flag_or_resolves() -> None:
    from lifebench.errors import InputError
    from lifebench.suites import required_model

    class Resolver:
        def resolve(self, spec: str) -> str:
            return f"model:{spec}"

    with pytest.raises(InputError, match=r"--judge-model is required for this judge") as info:
        required_model(Resolver(), None, "judge")
    assert info.value.field == "--judge-model"
    with pytest.raises(InputError, match="--tool-model"):
        required_model(Resolver(), "", "tool")
    resolved = required_model(Resolver(), "m@http://x/v1", "agent")
    # the model itself, seen from its role: its calls are recorded as the agent's
    assert resolved.wrapped == "model:m@http://x/v1" and resolved.role == "agent"

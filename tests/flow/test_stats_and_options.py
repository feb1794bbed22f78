"""``tasks stats --suite flow`` (the spec's totals, the duplicated id explained) and the suite's
own options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.errors import InputError
from lifebench.flow.kb import load_knowledge
from lifebench.flow.options import FlowOptions
from lifebench.flow.stats import stats_table, suite_stats
from lifebench.suites import get_suite, options_model
from lifebench.suites._options import make_run_options


def test_public_totals_agree_with_the_spec(flowbench_dir: Path) -> None:
    table = get_suite("flow").stats([flowbench_dir], None, "en")
    total = table.data[-1]
    assert (total["nodes"], total["edges"], total["tools"], total["tool_nodes"]) == (
        470,
        509,
        109,
        109,
    )
    assert (total["node_definitions"], total["edge_statements"], total["unlabelled_edges"]) == (
        471,
        492,
        17,
    )
    assert total["scenario"] == "51" and total["role"] == "22"
    assert table.rows[-1][2:] == ["470", "509", "109", "109"]
    assert any("File printing: node id BY004 is defined 2 times" in n for n in table.notes)
    assert any("470 nodes (471 node definitions), 509 edges" in n for n in table.notes)
    rows = {r["scenario"]: r for r in table.data[:-1]}
    assert rows["File printing"]["duplicate_ids"] == ["BY004"]
    assert rows["Book a flight"]["edges"] == rows["Book a flight"]["edge_statements"] + 2


def test_domain_filter_and_bundled_default(flowbench_dir: Path) -> None:
    kb = load_knowledge(flowbench_dir)
    table = stats_table([kb], "Logistics Solutions")
    assert table.data[-1]["scenario"] == "6"
    with pytest.raises(InputError, match="no scenarios of domain 'Nowhere'"):
        stats_table([kb], "Nowhere")
    with pytest.raises(InputError, match="a turn-level task file; tasks stats --suite flow reads"):
        suite_stats([flowbench_dir / "sample_turns.jsonl"], None, "en")
    bundled = suite_stats([], None, "zh")
    assert bundled.data[-1]["nodes"] == 58 and bundled.data[-1]["edges"] == 82


def test_cli_prints_the_totals(flowbench_dir: Path) -> None:
    result = CliRunner().invoke(
        app, ["tasks", "stats", "--suite", "flow", str(flowbench_dir), "--json"]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert (rows[-1]["nodes"], rows[-1]["edges"]) == (470, 509)
    plain = CliRunner().invoke(app, ["tasks", "stats", "--suite", "flow"])
    assert plain.exit_code == 0 and "(total: 7 scenarios)" in plain.output


def test_flow_options() -> None:
    assert options_model("flow") is FlowOptions
    options = FlowOptions()
    assert (options.level, options.knowledge_format, options.setting) == (
        "turn",
        "flowchart",
        "single",
    )
    assert options.turn_cap == 15
    assert FlowOptions(setting="cross").turn_cap == 20
    assert FlowOptions(setting="cross", max_turns=7).turn_cap == 7
    run = make_run_options({"suite": "flow"})
    assert (run.agent, run.user, run.evaluator) == ("gold", "scripted", "metrics")
    with pytest.raises(InputError, match="--knowledge-format"):
        make_run_options({"suite": "flow", "suite_options": {"knowledge_format": "poem"}})
    with pytest.raises(InputError, match="needs --judge-model"):
        make_run_options({"suite": "flow", "suite_options": {"response_judge": True}})
    with pytest.raises(InputError, match="needs --judge-model"):
        make_run_options(
            {"suite": "flow", "suite_options": {"level": "session", "failure_reasons": True}}
        )
    judged = make_run_options(
        {"suite": "flow", "judge_model": "m", "suite_options": {"response_judge": True}}
    )
    assert judged.evaluator == "judge"

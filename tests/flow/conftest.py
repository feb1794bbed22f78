"""Fixtures of the flow tests: the shared FlowBench samples (skipped when absent) and a tiny
synthetic world written to a temporary directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from flow_synthetic import write_world

from shared_data import shared_file


@pytest.fixture
def flowbench_dir() -> Path:
    """The shared FlowBench data directory (workflows, tools, FlowSwitch turn samples);
    missing: a failure in CI, a visible skip elsewhere."""
    return shared_file("flowbench", "sample_turns.jsonl").parent


@pytest.fixture
def sample_turns(flowbench_dir: Path) -> Path:
    """The five FlowSwitch turn samples."""
    return flowbench_dir / "sample_turns.jsonl"


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Path]:
    """Knowledge base dir, turn file and session file of the synthetic world."""
    return write_world(tmp_path / "world")

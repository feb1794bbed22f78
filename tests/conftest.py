"""Shared fixtures: where the official sample data lives (``../shared/data``, read-only)."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def shared_file(*parts: str) -> Path:
    """A file of the official samples; the calling test is skipped when it is absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.is_file():
        pytest.skip(f"official sample {path} not available")
    return path


@pytest.fixture
def delivery_tasks_en() -> Path:
    """The 60 official English delivery tasks."""
    return shared_file("vitabench", "delivery_tasks_en.json")

"""Mutation guards for ``metrics/_extra.py``: whether the ``stats`` extra (scipy) is there,
and the one message that names how to install it."""

from __future__ import annotations

import importlib.util

import pytest

from lifebench.metrics._extra import STATS_INSTALL, have_scipy, needs_stats


def test_scipy_is_found_when_installed() -> None:
    pytest.importorskip("scipy")
    assert have_scipy() is True


def test_scipy_is_missing_without_a_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def find_spec(name: str) -> None:
        asked.append(name)
        return None

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    assert have_scipy() is False
    assert asked == ["scipy"]


def test_a_module_without_a_spec_is_not_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    def find_spec(name: str) -> None:
        raise ValueError(f"{name}.__spec__ is None")

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    assert have_scipy() is False


def test_the_message_names_the_feature_and_the_install_command() -> None:
    assert STATS_INSTALL == "pip install 'lifebench[stats]'"
    assert needs_stats("lifebench compare") == (
        "lifebench compare needs the stats extra (scipy): pip install 'lifebench[stats]'"
    )

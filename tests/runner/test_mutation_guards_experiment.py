"""Mutation guards for lifebench.runner._experiment (placeholder: filled below)."""

from __future__ import annotations


def test_placeholder() -> None:
    assert True

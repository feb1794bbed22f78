"""Number formats shared by the reports and the viewer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def pct(value: float | None, digits: int = 1) -> str:
    """``0.4567`` → ``45.7%``; None → ``—``."""
    return "—" if value is None else f"{100 * value:.{digits}f}%"


def ci_text(ci: Sequence[float] | None) -> str:
    """A 95 % interval as ``[40.0–51.2]`` (empty when absent)."""
    return "" if not ci else f"[{100 * ci[0]:.1f}–{100 * ci[1]:.1f}]"


def num(value: float | None, digits: int = 1) -> str:
    """A number with thousands separators; None → ``—``."""
    return "—" if value is None else f"{value:,.{digits}f}"


def money(value: float | None, unknown: bool = False) -> str:
    """US dollars with 4 decimals; ``unknown`` (some price unknown) → ``unknown``; None →
    ``—``."""
    if unknown:
        return "unknown"
    return "—" if value is None else f"${value:,.4f}"


def metric_text(value: Any) -> str:
    """A suite metric value as text: fractions in [0, 1] stay numbers (4 significant digits)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        return ", ".join(metric_text(v) for v in value[:8]) + (" …" if len(value) > 8 else "")
    return str(value)

"""Which number leads a report: lifebench's or the official code's (a leaf module: the
command line checks ``--headline`` against it without importing any metric)."""

from __future__ import annotations

from typing import Literal

Headline = Literal["lifebench", "official"]
HEADLINES: tuple[Headline, ...] = ("lifebench", "official")

"""The task clock's timestamp format, parsed leniently, for reading task data.

The official data has stray spaces, missing seconds and the like, so graders and planners read
timestamps with :func:`parse_time`. Tool arguments from an agent are held to the exact format
instead (``lifebench.vita.domains._calendar.parse_datetime``): a malformed time there is an
error the agent must see.
"""

from __future__ import annotations

from datetime import datetime

FMT = "%Y-%m-%d %H:%M:%S"
_ALSO = ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d")


def parse_time(value: object) -> datetime | None:
    """``YYYY-MM-DD HH:MM:SS`` (also without seconds, with a ``T``, or a bare date) or None."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    for fmt in (FMT, *_ALSO):
        try:
            return datetime.strptime(text, fmt)  # noqa: DTZ007 - task clocks are naive local time
        except ValueError:
            continue
    return None


def format_time(value: datetime) -> str:
    """``YYYY-MM-DD HH:MM:SS``."""
    return value.strftime(FMT)

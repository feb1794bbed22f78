"""A TravelBench task: one official row (``single_turn`` / ``multi_turn`` / ``unsolve`` JSON Lines),
loaded unchanged, plus the subset it belongs to and the language of its text."""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from lifebench._util.hashing import stable_hash

if TYPE_CHECKING:
    from lifebench.suites._options import RunOptions
    from lifebench.travel.options import TravelOptions

Subset = Literal["single", "multi", "unsolvable"]
SUBSETS: tuple[Subset, ...] = ("single", "multi", "unsolvable")

TIME_FORMAT = "%Y-%m-%d %H:%M"
"""Format of a row's ``time`` (the official rows always use it; seconds are tolerated)."""

# Context block headers, in the official Chinese form and the English form of our own rows.
_HEADERS: dict[str, tuple[str, ...]] = {
    "coordinates": ("用户当前位置坐标", "Current location coordinates"),
    "location": ("用户当前位置描述", "Current location"),
    "destination": ("用户导航终点位置", "Navigation destination"),
    "navigation": ("用户导航信息", "Navigation info"),
}
_BLOCK = re.compile(r"^\*\*(?P<header>[^*\n]+)\*\*[ \t]*$", re.MULTILINE)
_LAT = re.compile(r"(?:latitude|纬度)\s*[:：]\s*(-?\d+(?:\.\d+)?)", re.IGNORECASE)
_LNG = re.compile(r"(?:longitude|经度)\s*[:：]\s*(-?\d+(?:\.\d+)?)", re.IGNORECASE)


def context_blocks(context: str) -> dict[str, str]:
    """The ``**header**`` blocks of a context string, by role (coordinates, location,
    destination, navigation); unknown headers are kept under their own text."""
    matches = list(_BLOCK.finditer(context))
    blocks: dict[str, str] = {}
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(context)
        header = m.group("header").strip()
        role = next((k for k, names in _HEADERS.items() if header in names), header)
        blocks[role] = context[m.end() : end].strip()
    return blocks


class TravelTask(BaseModel):
    """One row. Official fields are kept as they are; unknown fields are tolerated and kept."""

    model_config = ConfigDict(frozen=True, extra="allow")

    trace_id: str = Field(description="Row id, unique within its file.")
    time: str = Field(description="Instance time 'YYYY-MM-DD HH:MM' (the tools' 'now').")
    query: str = Field(description="The user's first message.")
    context: str = Field("", description="Location / navigation blocks ('' when absent).")
    intent: str = Field("", description="Paraphrase of the goal (the user simulator's intent).")
    primary_intent: str = Field("", description="Dotted intent taxonomy path.")
    missing_tool: bool = Field(False, description="Unsolvable: no tool can do it.")
    missing_info: bool = Field(False, description="Unsolvable: key information is missing.")
    no_actionable: bool = Field(False, description="Unsolvable: nothing actionable was asked.")
    avg_tool_calls: float | None = Field(None, description="Reference tool calls per run.")
    user_profile: str = Field("", description="Markdown profile (multi-turn rows only).")
    subset: Subset = Field("single", description="single | multi | unsolvable.")
    language: Literal["zh", "en"] = Field("zh", description="Language of the row's text.")

    @property
    def id(self) -> str:
        """The task id (the row's ``trace_id``)."""
        return self.trace_id

    def content_hash(self) -> str:
        """sha256 of the row's canonical JSON (refuses resuming over a changed row)."""
        return stable_hash(self.model_dump(mode="json"))

    @property
    def now(self) -> datetime:
        """The instance time as a datetime (naive, local to the row)."""
        return parse_time(self.time)

    @property
    def blocks(self) -> dict[str, str]:
        """The context's blocks by role."""
        return context_blocks(self.context)

    @property
    def coordinates(self) -> tuple[float, float] | None:
        """(latitude, longitude) of the user's position, when the context gives it."""
        lat, lng = _LAT.search(self.context), _LNG.search(self.context)
        if lat is None or lng is None:
            return None
        return float(lat.group(1)), float(lng.group(1))

    @property
    def location_text(self) -> str:
        """The location description (e.g. '安徽省亳州市'), '' when absent."""
        return self.blocks.get("location", "")

    @property
    def destination_name(self) -> str:
        """The navigation destination's name, '' when absent."""
        return self.blocks.get("destination", "")

    @property
    def unsolvable_reason(self) -> str | None:
        """missing_tool / missing_info / no_actionable, when one flag is set."""
        for name in ("missing_tool", "missing_info", "no_actionable"):
            if getattr(self, name):
                return name
        return None


def parse_time(value: str) -> datetime:
    """A row time ('YYYY-MM-DD HH:MM', seconds tolerated); raises ValueError otherwise."""
    for fmt in (TIME_FORMAT, "%Y-%m-%d %H:%M:%S"):
        try:
            return datetime.strptime(value.strip(), fmt)  # noqa: DTZ007 - rows use a naive clock
        except ValueError:
            continue
    raise ValueError(f"time must look like 'YYYY-MM-DD HH:MM', got {value!r}")


def effective_subset(task: TravelTask, options: RunOptions | TravelOptions | None) -> Subset:
    """The subset a task runs as: ``--subset`` when set, else the one the loader inferred."""
    from lifebench.travel.options import TravelOptions

    if options is None:
        return task.subset
    travel = options if isinstance(options, TravelOptions) else options.options_for(TravelOptions)
    chosen = travel.subset
    if chosen == "auto" or chosen == "all":
        return task.subset
    return chosen


def with_subset(task: TravelTask, options: RunOptions | TravelOptions | None) -> TravelTask:
    """``task`` with its subset replaced by the effective one."""
    subset = effective_subset(task, options)
    return task if subset == task.subset else task.model_copy(update={"subset": subset})


def row_fields(task: TravelTask) -> dict[str, Any]:
    """The row as the official files hold it (our ``subset``/``language`` fields left out)."""
    data = task.model_dump(mode="json")
    data.pop("subset", None)
    data.pop("language", None)
    return data

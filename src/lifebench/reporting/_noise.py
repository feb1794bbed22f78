"""The noise floor of a run in the terminal: flip rate, ICC, minimum detectable difference,
trials needed, and where the variance comes from."""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text

from lifebench.metrics._noise import NoiseFloor
from lifebench.reporting._format import pct
from lifebench.reporting._safe import safe_text

_SOURCE_NAMES = {
    "task": "task (signal)",
    "agent": "agent",
    "user": "user simulator",
    "judge": "judge",
}


def _num(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _points(value: float | None) -> str:
    """A reward difference in percentage points."""
    return "—" if value is None else f"{100 * value:.1f} pts"


def _caption(notes: list[str]) -> Text | None:
    """Notes as plain text (never markup: ``lifebench[stats]`` keeps its brackets)."""
    return Text(safe_text("\n".join(notes))) if notes else None


def _compact(title: str, **kwargs: object) -> Table:
    """A table in the report's compact style: no outer border, no header."""
    return Table(
        title=title,
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        show_header=False,
        caption_justify="left",
        **kwargs,  # type: ignore[arg-type]
    )


def noise_table(noise: NoiseFloor) -> Table:
    """Flip rate, ICC, MDD and the trials needed for each target difference, in three rows
    (the variances and counts are in the JSON report and the HTML report)."""
    power, alpha = f"{100 * noise.power:.0f}%", f"{100 * noise.alpha:.0f}%"
    table = _compact("Noise floor (trial to trial)", caption=_caption(noise.notes))
    table.add_column("what")
    table.add_column("value", justify="right")
    table.add_row(
        f"verdict flip rate · ICC(1) ({noise.tasks_repeated} tasks with 2+ trials)",
        f"{pct(noise.flip_rate)} · {_num(noise.icc)}",
    )
    table.add_row(
        f"min. detectable Avg@k difference ({power} power, α {alpha})", _points(noise.mdd)
    )
    if noise.trials_needed:
        targets = " / ".join(f"{100 * float(t):g}" for t in noise.trials_needed)
        needed = " / ".join("—" if n is None else str(n) for n in noise.trials_needed.values())
        table.add_row(f"trials per task to detect {targets} pts", needed)
    return table


def sources_table(noise: NoiseFloor) -> Table | None:
    """The variance components (None when there is no split): one row per component measured
    on its own; a run that varied only the agent's trials gets one row and a note."""
    split = noise.sources
    if split is None or not split.components:
        return None
    measured = [c for c in split.components if c.variance is not None]
    # a judge no grader asks is 0 by construction (no group measured it): not a separate part
    unjudged = any(c.name == "judge" and c.groups == 0 for c in measured)
    separated = any(c.name in ("user", "judge") and c.groups > 0 for c in measured)
    table = _compact(
        "Where the variance comes from (reward)",
        caption=_caption(split.notes) if separated else None,
    )
    table.add_column("source")
    table.add_column("variance", justify="right")
    table.add_column("share of within-task", justify="right")
    rows = split.components if separated else [c for c in measured if c.groups or c.name != "judge"]
    for c in rows:
        name = _SOURCE_NAMES[c.name]
        if c.includes:
            name += " (incl. " + ", ".join(_SOURCE_NAMES[i] for i in c.includes) + ")"
        table.add_row(
            name,
            "not varied" if c.variance is None else f"{c.variance:.4f}",
            pct(c.share) if c.name != "task" else "",
        )
    if not separated and unjudged:
        table.add_row("(--user-seeds S: separate user simulator; no judge: judge 0)", "", "")
    elif not separated:
        table.add_row("(--user-seeds S, eval --rejudge K: separate user simulator, judge)", "", "")
    return table

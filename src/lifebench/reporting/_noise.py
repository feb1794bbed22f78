"""The noise floor of a run in the terminal: flip rate, ICC, minimum detectable difference,
trials needed, and where the variance comes from."""

from __future__ import annotations

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


def noise_table(noise: NoiseFloor) -> Table:
    """Flip rate, ICC, variances, MDD and the trials needed for each target difference."""
    power, alpha = f"{100 * noise.power:.0f}%", f"{100 * noise.alpha:.0f}%"
    table = Table(
        title="Noise floor (trial to trial)",
        show_header=False,
        caption=_caption(noise.notes),
        caption_justify="left",
    )
    table.add_column("what")
    table.add_column("value", justify="right")
    rows = [
        ("tasks (with 2+ trials)", f"{noise.tasks} ({noise.tasks_repeated})"),
        ("trials per task (harmonic mean)", _num(noise.trials_per_task, 2)),
        ("verdict flip rate (two trials disagree)", pct(noise.flip_rate)),
        ("tasks whose verdict flips", pct(noise.tasks_flipping)),
        ("intraclass correlation ICC(1)", _num(noise.icc)),
        ("within-task variance of the reward", _num(noise.within_task_variance, 4)),
        ("between-task variance of the reward", _num(noise.between_task_variance, 4)),
        (f"min. detectable Avg@k difference ({power} power, α {alpha})", _points(noise.mdd)),
    ]
    for target, trials in noise.trials_needed.items():
        rows.append(
            (
                f"trials per task to detect {_points(float(target))}",
                "—" if trials is None else str(trials),
            )
        )
    for name, value in rows:
        table.add_row(name, value)
    return table


def sources_table(noise: NoiseFloor) -> Table | None:
    """The variance components (None when there is no split)."""
    split = noise.sources
    if split is None or not split.components:
        return None
    table = Table(
        title="Where the variance comes from (reward)",
        caption=_caption(split.notes),
        caption_justify="left",
    )
    table.add_column("source")
    table.add_column("variance", justify="right")
    table.add_column("share of within-task", justify="right")
    table.add_column("measured over", justify="right")
    for c in split.components:
        name = _SOURCE_NAMES[c.name]
        if c.includes:
            name += " (incl. " + ", ".join(_SOURCE_NAMES[i] for i in c.includes) + ")"
        table.add_row(
            name,
            "not varied" if c.variance is None else f"{c.variance:.4f}",
            pct(c.share) if c.name != "task" else "",
            f"{c.groups} group(s)",
        )
    return table

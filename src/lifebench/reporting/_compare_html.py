"""The comparison section of the HTML report (``lifebench report A B --html``) and of the
viewer's comparison page: for each group of runs of one suite and domain, the paired
comparison (:func:`lifebench.compare.compare_runs`) with a chart of the differences and their
intervals, each run's noise floor, and the discordant tasks side by side."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lifebench.compare import Comparison, ComparisonError, PairComparison, compare_runs
from lifebench.compare._compare import DiscordantTask
from lifebench.reporting._bundle import RunReport
from lifebench.reporting._charts import Chart, Mark, nice_ticks, series_class
from lifebench.reporting._outcomes import UnitSummary

MAX_SIDE_BY_SIDE = 50
_W, _ROW, _TOP, _LEFT, _RIGHT = 640, 26, 30, 120, 24


@dataclass(frozen=True)
class SideBySide:
    """A discordant task: what happened in each run's chosen trial."""

    task: DiscordantTask
    a: UnitSummary | None
    b: UnitSummary | None


@dataclass(frozen=True)
class PairView:
    """One pair of a comparison, ready for a template."""

    pair: PairComparison
    a_label: str
    b_label: str
    chart: Chart
    side_by_side: list[SideBySide] = field(default_factory=list)


@dataclass(frozen=True)
class ComparisonSection:
    """The runs of one suite/domain group: their comparison, or why there is none."""

    group: str
    labels: list[str]
    indices: list[int]
    comparison: Comparison | None = None
    refusal: str | None = None
    pairs: list[PairView] = field(default_factory=list)


def difference_chart(pair: PairComparison, a: str, b: str) -> Chart:
    """The differences of the metrics shown as percentages, in points, each with its
    interval: a dot on a bar, a vertical line at 0."""
    rows = [m for m in pair.metrics if m.scale == "fraction"]
    title = "Differences in percentage points, with 95% paired bootstrap intervals"
    description = "Each metric's mean difference over the shared tasks; bars: intervals."
    height = _TOP + _ROW * max(1, len(rows)) + 36
    if not rows:
        return Chart(title, description, width=_W, height=height)
    extent = max(5.0, *(100 * abs(x) for m in rows for x in (*m.ci, m.difference)))
    ticks = nice_ticks(-extent, extent, 6)
    low, high = min(ticks), max(ticks)
    right = _W - _RIGHT

    def px(points: float) -> float:
        return round(_LEFT + (points - low) / (high - low) * (right - _LEFT), 1)

    bottom = _TOP + _ROW * len(rows)
    marks = []
    for t in ticks:
        marks.append(Mark("line", "grid", x=px(t), y=_TOP - 6, x2=px(t), y2=bottom))
        marks.append(Mark("text", "tick", x=px(t), y=bottom + 16, text=f"{t:+g}"))
    marks.append(Mark("line", "axis", x=px(0), y=_TOP - 10, x2=px(0), y2=bottom + 4))
    for i, m in enumerate(rows):
        y = round(_TOP + _ROW * i + _ROW / 2, 1)
        css = series_class(0 if m.significant else 5)
        lo, hi = (100 * x for x in m.ci)
        tip = f"{m.metric}: {100 * m.difference:+.1f} [{lo:+.1f}, {hi:+.1f}] p={m.p_holm:.3g}"
        marks.append(Mark("text", "tick", x=_LEFT - 8, y=y + 4, text=m.metric, anchor="end"))
        marks.append(Mark("line", f"line {css}", x=px(lo), y=y, x2=px(hi), y2=y))
        marks.append(Mark("circle", css, x=px(100 * m.difference), y=y, title=tip))
    marks.append(
        Mark(
            "text",
            "axis-title",
            x=round((_LEFT + right) / 2, 1),
            y=height - 6,
            text=f"← better in {b}   |   better in {a} →",
        )
    )
    return Chart(title, description, width=_W, height=height, marks=marks)


def _summaries(run: RunReport) -> dict[tuple[str, int], UnitSummary]:
    return {(s.task_id, s.trial): s for s in run.summaries}


def comparison_sections(runs: Sequence[RunReport]) -> list[ComparisonSection]:
    """One section per suite/domain group holding two or more runs (in the order given)."""
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(runs):
        groups.setdefault(r.group, []).append(i)
    out = []
    for group, indices in groups.items():
        members = [runs[i] for i in indices]
        if len(members) < 2:
            continue
        labels = [r.label for r in members]
        data = [r.data for r in members]
        if any(d is None for d in data):
            continue
        try:
            result = compare_runs([d for d in data if d is not None], labels)
        except ComparisonError as exc:
            out.append(ComparisonSection(group, labels, indices, refusal=str(exc)))
            continue
        views = []
        for pair in result.pairs:
            ra, rb = members[pair.a], members[pair.b]
            sa, sb = _summaries(ra), _summaries(rb)
            views.append(
                PairView(
                    pair=pair,
                    a_label=ra.label,
                    b_label=rb.label,
                    chart=difference_chart(pair, ra.label, rb.label),
                    side_by_side=[
                        SideBySide(
                            d, sa.get((d.task_id, d.a_trial)), sb.get((d.task_id, d.b_trial))
                        )
                        for d in pair.discordant[:MAX_SIDE_BY_SIDE]
                    ],
                )
            )
        out.append(ComparisonSection(group, labels, indices, comparison=result, pairs=views))
    return out

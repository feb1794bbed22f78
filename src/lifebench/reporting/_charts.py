"""Chart geometry for the HTML report: pure functions from numbers to SVG primitives.

The SVG itself is written by a Jinja2 template (``templates/_svg.html.j2``, autoescaped), so a
chart is plain data — deterministic (coordinates rounded to 0.1 px), tiny, needs no
JavaScript and no network, and every label in it is escaped like any other text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

PALETTE_SIZE = 8
WIDTH = 640
HEIGHT = 300
_MARGIN = (30, 16, 48, 56)  # top, right, bottom, left


def _r(value: float) -> float:
    return round(value, 1)


@dataclass(frozen=True)
class Mark:
    """One SVG element: ``kind`` is line, polyline, polygon, rect, circle or text."""

    kind: str
    css: str = ""
    points: str = ""
    x: float = 0.0
    y: float = 0.0
    x2: float = 0.0
    y2: float = 0.0
    w: float = 0.0
    h: float = 0.0
    text: str = ""
    anchor: str = "middle"
    title: str = ""


@dataclass(frozen=True)
class LegendItem:
    """One legend entry: a label and its series class (``s0`` … ``s7``), dashed or not."""

    label: str
    css: str
    dashed: bool = False


@dataclass(frozen=True)
class Chart:
    """An SVG chart: size, accessible description, marks in drawing order, legend."""

    title: str
    description: str
    width: int = WIDTH
    height: int = HEIGHT
    marks: list[Mark] = field(default_factory=list)
    legend: list[LegendItem] = field(default_factory=list)


def series_class(index: int) -> str:
    """CSS class of the ``index``-th series (colours cycle through the palette)."""
    return f"s{index % PALETTE_SIZE}"


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` round tick values covering [low, high] (1, 2, 2.5 or 5 × 10^n steps)."""
    if not math.isfinite(low) or not math.isfinite(high):
        return [0.0, 1.0]
    if high <= low:
        high = low + (abs(low) or 1.0)
    raw = (high - low) / max(count, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    if ticks[-1] < high:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def _fmt(value: float, percent: bool) -> str:
    if percent:
        return f"{100 * value:.0f}%"
    return f"{value:g}" if abs(value) < 1e4 else f"{value:,.0f}"


@dataclass(frozen=True)
class _Frame:
    """A plot area with linear scales."""

    x0: float
    x1: float
    y0: float
    y1: float
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def left(self) -> float:
        return _MARGIN[3]

    @property
    def right(self) -> float:
        return self.width - _MARGIN[1]

    @property
    def top(self) -> float:
        return _MARGIN[0]

    @property
    def bottom(self) -> float:
        return self.height - _MARGIN[2]

    def px(self, x: float) -> float:
        span = (self.x1 - self.x0) or 1.0
        return _r(self.left + (x - self.x0) / span * (self.right - self.left))

    def py(self, y: float) -> float:
        span = (self.y1 - self.y0) or 1.0
        return _r(self.bottom - (y - self.y0) / span * (self.bottom - self.top))


def _axes(
    frame: _Frame,
    xticks: Sequence[tuple[float, str]],
    yticks: Sequence[float],
    x_title: str,
    y_title: str,
    percent_y: bool,
) -> list[Mark]:
    marks = []
    for y in yticks:
        py = frame.py(y)
        marks.append(Mark("line", "grid", x=frame.left, y=py, x2=frame.right, y2=py))
        marks.append(
            Mark("text", "tick", x=frame.left - 6, y=py + 4, text=_fmt(y, percent_y), anchor="end")
        )
    for x, label in xticks:
        px = frame.px(x)
        marks.append(Mark("text", "tick", x=px, y=frame.bottom + 16, text=label))
    marks.append(
        Mark("line", "axis", x=frame.left, y=frame.bottom, x2=frame.right, y2=frame.bottom)
    )
    marks.append(Mark("line", "axis", x=frame.left, y=frame.top, x2=frame.left, y2=frame.bottom))
    mid_x = _r((frame.left + frame.right) / 2)
    marks.append(Mark("text", "axis-title", x=mid_x, y=frame.height - 8, text=x_title))
    marks.append(Mark("text", "axis-title", x=8, y=12, text=y_title, anchor="start"))
    return marks


@dataclass(frozen=True)
class LineSeries:
    """A named series of (x, y) points, optionally with a confidence band and dashes."""

    name: str
    index: int
    points: Sequence[tuple[float, float]]
    band: Sequence[tuple[float, float, float]] = ()  # (x, low, high)
    dashed: bool = False


def line_chart(
    title: str,
    description: str,
    series: Sequence[LineSeries],
    *,
    x_title: str,
    y_title: str,
    integer_x: bool = True,
    percent_y: bool = True,
) -> Chart:
    """Lines with point markers (and translucent CI bands) on a 0–1 (or data) y scale."""
    xs = [x for s in series for x, _ in s.points]
    ys = [y for s in series for _, y in s.points] + [
        v for s in series for _, lo, hi in s.band for v in (lo, hi)
    ]
    if not xs:
        return Chart(title, description + " (no data)")
    y_low, y_high = (0.0, 1.0) if percent_y else (min(0.0, *ys), max(ys) or 1.0)
    yticks = nice_ticks(y_low, y_high)
    x_low, x_high = min(xs), max(xs)
    if x_low == x_high:
        x_low, x_high = x_low - 1, x_high + 1
    frame = _Frame(x_low, x_high, yticks[0], yticks[-1])
    if integer_x:
        step = max(1, math.ceil((x_high - x_low) / 10))
        xt = [(float(x), f"{x:g}") for x in range(math.ceil(x_low), math.floor(x_high) + 1, step)]
    else:
        xt = [(t, f"{t:g}") for t in nice_ticks(x_low, x_high) if x_low <= t <= x_high]
    marks = _axes(frame, xt, yticks, x_title, y_title, percent_y)
    legend = []
    for s in series:
        css = series_class(s.index)
        if s.band:
            upper = [f"{frame.px(x)},{frame.py(hi)}" for x, _, hi in s.band]
            lower = [f"{frame.px(x)},{frame.py(lo)}" for x, lo, _ in reversed(s.band)]
            marks.append(Mark("polygon", f"band {css}", points=" ".join(upper + lower)))
        line = " ".join(f"{frame.px(x)},{frame.py(y)}" for x, y in s.points)
        marks.append(Mark("polyline", f"line {css}{' dashed' if s.dashed else ''}", points=line))
        for x, y in s.points:
            tip = f"{s.name}: {x:g} → {_fmt(y, percent_y) if percent_y else f'{y:.3g}'}"
            marks.append(Mark("circle", f"dot {css}", x=frame.px(x), y=frame.py(y), title=tip))
        legend.append(LegendItem(s.name, css, s.dashed))
    return Chart(title, description, marks=marks, legend=legend)


@dataclass(frozen=True)
class Bar:
    """One bar: its category, series, value and tooltip text."""

    category: str
    series: str
    index: int
    value: float
    label: str = ""


def bar_chart(
    title: str,
    description: str,
    bars: Sequence[Bar],
    *,
    y_title: str,
    percent_y: bool = True,
    categories: Sequence[str] | None = None,
) -> Chart:
    """Grouped vertical bars: one group per category, one bar per series within it."""
    if not bars:
        return Chart(title, description + " (no data)")
    cats = list(categories or dict.fromkeys(b.category for b in bars))
    names = list(dict.fromkeys(b.series for b in bars))
    high = 1.0 if percent_y else max(b.value for b in bars) or 1.0
    yticks = nice_ticks(0.0, high)
    frame = _Frame(0.0, float(len(cats)), yticks[0], yticks[-1])
    group = (frame.right - frame.left) / len(cats)
    width = group * 0.8 / len(names)
    marks = _axes(
        frame, [(i + 0.5, _short(c)) for i, c in enumerate(cats)], yticks, "", y_title, percent_y
    )
    for b in bars:
        ci, si = cats.index(b.category), names.index(b.series)
        x = frame.left + ci * group + group * 0.1 + si * width
        y = frame.py(max(b.value, 0.0))
        tip = f"{b.series} · {b.category}: {b.label or _fmt(b.value, percent_y)}"
        marks.append(
            Mark(
                "rect",
                f"bar {series_class(b.index)}",
                x=_r(x),
                y=y,
                w=_r(width),
                h=_r(frame.bottom - y),
                title=tip,
            )
        )
    legend = list({b.series: LegendItem(b.series, series_class(b.index)) for b in bars}.values())
    return Chart(title, description, marks=marks, legend=legend)


def _short(text: str, limit: int = 22) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Point:
    """A labelled point of a scatter chart."""

    label: str
    index: int
    x: float
    y: float


def scatter_chart(
    title: str, description: str, points: Sequence[Point], *, x_title: str, y_title: str
) -> Chart:
    """Labelled points; y on a 0–100 % scale, x on a data scale starting at 0."""
    if not points:
        return Chart(title, description + " (no data)")
    xticks = nice_ticks(0.0, max(p.x for p in points) or 1.0)
    yticks = nice_ticks(0.0, 1.0)
    frame = _Frame(xticks[0], xticks[-1], 0.0, 1.0)
    marks = _axes(frame, [(t, f"{t:g}") for t in xticks], yticks, x_title, y_title, True)
    for p in points:
        px, py = frame.px(p.x), frame.py(p.y)
        tip = f"{p.label}: {p.x:.1f} turns, {100 * p.y:.1f}%"
        marks.append(Mark("circle", f"dot big {series_class(p.index)}", x=px, y=py, title=tip))
        marks.append(
            Mark(
                "text",
                "point-label",
                x=_r(px + 8),
                y=_r(py - 6),
                text=_short(p.label, 28),
                anchor="start",
            )
        )
    legend = [LegendItem(p.label, series_class(p.index)) for p in points]
    return Chart(title, description, marks=marks, legend=legend)


@dataclass(frozen=True)
class StackRow:
    """One horizontal stacked bar: a label and its (part name, value) segments."""

    label: str
    parts: Sequence[tuple[str, float]]


def stacked_rows(
    title: str,
    description: str,
    rows: Sequence[StackRow],
    *,
    normalise: bool,
    unit: str = "",
) -> Chart:
    """Horizontal stacked bars, one per row; ``normalise`` scales each row to 100 %."""
    if not rows:
        return Chart(title, description + " (no data)")
    names = list(dict.fromkeys(name for r in rows for name, _ in r.parts))
    totals = [sum(v for _, v in r.parts) for r in rows]
    if not any(totals):
        return Chart(title, description + " (all zero)")
    high = 1.0 if normalise else (max(totals) or 1.0)
    row_h, gap, left, top = 22.0, 10.0, 170.0, 8.0
    right = WIDTH - 60.0
    height = int(top + len(rows) * (row_h + gap) + 8)
    marks: list[Mark] = []
    for i, (row, total) in enumerate(zip(rows, totals, strict=True)):
        y = top + i * (row_h + gap)
        marks.append(
            Mark("text", "tick", x=left - 6, y=_r(y + 15), text=_short(row.label, 26), anchor="end")
        )
        x = left
        for name, value in row.parts:
            share = value / total if normalise and total else value / high
            w = share * (right - left)
            if w <= 0:
                continue
            label = f"{100 * share:.1f}%" if normalise else f"{unit}{value:,.4g}"
            tip = f"{row.label} · {name}: {label}" + (f" ({value:g})" if normalise else "")
            css = f"bar {series_class(names.index(name))}"
            marks.append(Mark("rect", css, x=_r(x), y=_r(y), w=_r(w), h=row_h, title=tip))
            x += w
        total_label = "100%" if normalise else f"{unit}{total:,.4g}"
        marks.append(
            Mark("text", "tick", x=_r(x + 4), y=_r(y + 15), text=total_label, anchor="start")
        )
    legend = [LegendItem(name, series_class(i)) for i, name in enumerate(names)]
    return Chart(title, description, height=height, marks=marks, legend=legend)

"""Chart geometry for the HTML report: pure functions from numbers to SVG primitives.

The SVG itself is written by a Jinja2 template (``templates/_svg.html.j2``, autoescaped), so a
chart is plain data — deterministic (coordinates rounded to 0.1 px), tiny, needs no
JavaScript and no network, and every label in it is escaped like any other text.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

PALETTE_SIZE = 8
WIDTH = 1200
"""Width of a chart's coordinate system. The report draws every chart at the width of the
page (``width: 100%`` of at most 1,352 px), so 1,200 units are about 1.1 px: text stays the
size of the page's own small text."""
HEIGHT = 300
FONT_PX = 11.0
"""Font size of every chart text (``svg text`` in report.css)."""
LINE_PX = 14.0
ZERO_MARK_PX = 2.0
"""Height of the marker drawn for a bar of value 0 (so that it is seen, not missing)."""
MAX_BAR_PX = 72.0
_MARGIN = (30, 16, 48, 56)  # top, right, bottom, left
_ROTATED = 35.0  # degrees of category labels too wide to stand side by side


def text_width(text: str, font_px: float = FONT_PX) -> float:
    """Width of ``text`` in the report's sans-serif font, estimated from its characters
    (wide East Asian characters a full em, digits and most letters ~0.6 em, narrow ones
    less); a little generous, so that labels placed apart by it never touch."""
    width = 0.0
    for ch in text:
        if unicodedata.east_asian_width(ch) in ("W", "F"):
            width += 1.0
        elif ch in "iljtfI.,:;!|' ":
            width += 0.34
        elif ch in "mwMW@%":
            width += 0.9
        else:
            width += 0.62
    return width * font_px


def fit_text(text: str, width: float, font_px: float = FONT_PX) -> str:
    """``text`` cut (with "…") to fit in ``width`` px."""
    if text_width(text, font_px) <= width:
        return text
    out = ""
    for ch in text:
        if text_width(out + ch + "…", font_px) > width:
            break
        out += ch
    return out + "…" if out else ""


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
    rotate: float = 0.0
    """Degrees a text is turned about its anchor point (negative: counter-clockwise)."""


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


def _value_text(value: float, percent: bool) -> str:
    """A bar's value: like a tick, but a share under 1 % keeps a decimal (0.4 %, never a
    rounded "0%" for what is not 0)."""
    if percent and value and abs(value) < 0.01:
        return f"{100 * value:.1f}%" if abs(value) >= 0.0005 else "<0.1%"
    return _fmt(value, percent) if percent else f"{value:.3g}"


@dataclass(frozen=True)
class _Frame:
    """A plot area with linear scales."""

    x0: float
    x1: float
    y0: float
    y1: float
    width: int = WIDTH
    height: int = HEIGHT
    margin: tuple[float, float, float, float] = _MARGIN  # top, right, bottom, left

    @property
    def left(self) -> float:
        return self.margin[3]

    @property
    def right(self) -> float:
        return self.width - self.margin[1]

    @property
    def top(self) -> float:
        return self.margin[0]

    @property
    def bottom(self) -> float:
        return self.height - self.margin[2]

    def px(self, x: float) -> float:
        span = (self.x1 - self.x0) or 1.0
        return _r(self.left + (x - self.x0) / span * (self.right - self.left))

    def py(self, y: float) -> float:
        span = (self.y1 - self.y0) or 1.0
        return _r(self.bottom - (y - self.y0) / span * (self.bottom - self.top))


@dataclass(frozen=True)
class _Labels:
    """How category labels are laid out under a plot: side by side, or turned by
    ``_ROTATED`` degrees (each cut to ``limit`` px), showing every ``step``-th."""

    rotate: bool
    limit: float
    step: int
    depth: float  # px below the axis the labels need


def _label_layout(labels: Sequence[str], spacing: float) -> _Labels:
    """Side by side when every label fits in its slot (``spacing`` px apart) with a gap;
    else turned, cut to at most 150 px, and thinned so that turned labels stay a line
    apart."""
    widest = max((text_width(t) for t in labels), default=0.0)
    if widest + 8 <= spacing:
        return _Labels(False, spacing, 1, 24.0)
    limit = min(widest, 150.0)
    sin = math.sin(math.radians(_ROTATED))
    step = max(1, math.ceil(LINE_PX / sin / max(spacing, 1e-9)))
    return _Labels(True, limit, step, 14.0 + limit * sin + LINE_PX)


_SEPARATORS = "._/:- "


def _common_ends(labels: Sequence[str]) -> tuple[int, int]:
    """Lengths of the prefix and suffix all ``labels`` share, each ending (or starting) at a
    separator (``.``, ``_``, ``/``, …) so that only whole words are dropped."""
    if len(labels) < 2:
        return 0, 0
    first = labels[0]
    head = 0
    while head < len(first) and all(len(t) > head and t[head] == first[head] for t in labels):
        head += 1
    while head > 0 and first[head - 1] not in _SEPARATORS:
        head -= 1
    tail = 0
    shortest = min(len(t) for t in labels) - head
    while tail < shortest and all(t[-1 - tail] == first[-1 - tail] for t in labels):
        tail += 1
    while tail > 0 and first[len(first) - tail] not in _SEPARATORS:
        tail -= 1
    return head, tail


def short_labels(labels: Sequence[str], limit: float) -> list[str]:
    """``labels`` made to fit in ``limit`` px each while they stay told apart: cut at the end
    when that keeps them distinct; labels whose cuts would read the same have the words they
    share at the start and end replaced by "…" first (``subset_scores.multi_turn.a`` and
    ``subset_scores.multi_turn.b`` → ``…a``, ``…b``)."""
    cut = [fit_text(t, limit) for t in labels]
    clashes: dict[str, set[str]] = {}
    for text, label in zip(cut, labels, strict=True):
        clashes.setdefault(text, set()).add(label)
    out = list(cut)
    for group in clashes.values():
        if len(group) < 2:
            continue
        members = sorted(group)
        head, tail = _common_ends(members)
        if not head and not tail:
            continue
        for i, label in enumerate(labels):
            if label in group:
                middle = label[head : len(label) - tail]
                text = ("…" if head else "") + middle + ("…" if tail else "")
                out[i] = fit_text(text, limit)
    return out


def _category_marks(
    frame: _Frame, xticks: Sequence[tuple[float, str]], layout: _Labels
) -> list[Mark]:
    marks = []
    texts = short_labels([label for _, label in xticks], layout.limit)
    for i, ((x, label), text) in enumerate(zip(xticks, texts, strict=True)):
        if i % layout.step:
            continue
        px = frame.px(x)
        title = label if text != label else ""
        if layout.rotate:
            marks.append(
                Mark(
                    "text",
                    "tick",
                    x=px,
                    y=_r(frame.bottom + 14),
                    text=text,
                    anchor="end",
                    rotate=-_ROTATED,
                    title=title,
                )
            )
        else:
            marks.append(Mark("text", "tick", x=px, y=frame.bottom + 16, text=text, title=title))
    return marks


def _axes(
    frame: _Frame,
    xticks: Sequence[tuple[float, str]],
    yticks: Sequence[float],
    x_title: str,
    y_title: str,
    percent_y: bool,
    layout: _Labels | None = None,
) -> list[Mark]:
    marks = []
    for y in yticks:
        py = frame.py(y)
        marks.append(Mark("line", "grid", x=frame.left, y=py, x2=frame.right, y2=py))
        marks.append(
            Mark("text", "tick", x=frame.left - 6, y=py + 4, text=_fmt(y, percent_y), anchor="end")
        )
    if layout is None:
        spacing = (frame.right - frame.left) / max(len(xticks), 1)
        layout = _label_layout([label for _, label in xticks], spacing)
    marks.extend(_category_marks(frame, xticks, layout))
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
    """Grouped vertical bars: one group per category, one bar per series within it (the bars
    a category has, centred in its slot). A bar of value 0 is drawn as a thin marker on the
    axis, so it is seen rather than missing; each bar's value is written above it when it
    fits. Category labels stand side by side when they fit, else they are turned (and cut,
    the full text in their tooltip) — never over each other."""
    if not bars:
        return Chart(title, description + " (no data)")
    cats = list(categories or dict.fromkeys(b.category for b in bars))
    names = list(dict.fromkeys(b.series for b in bars))
    high = 1.0 if percent_y else max(b.value for b in bars) or 1.0
    yticks = nice_ticks(0.0, high)
    plot_width = WIDTH - _MARGIN[1] - _MARGIN[3]
    group = plot_width / len(cats)
    layout = _label_layout(cats, group)
    extra = max(0.0, layout.depth - 24.0)
    left = float(_MARGIN[3])
    if layout.rotate:  # the first turned label reaches left of its slot
        reach = layout.limit * math.cos(math.radians(_ROTATED)) - group / 2 + 8
        left = max(left, reach)
        group = (WIDTH - _MARGIN[1] - left) / len(cats)
    frame = _Frame(
        0.0,
        float(len(cats)),
        yticks[0],
        yticks[-1],
        height=int(HEIGHT + extra),
        margin=(_MARGIN[0], _MARGIN[1], _MARGIN[2] + extra, left),
    )
    most = max(len({b.series for b in bars if b.category == c}) for c in cats)
    width = min(group * 0.8 / max(most, 1), MAX_BAR_PX)
    marks = _axes(
        frame,
        [(i + 0.5, c) for i, c in enumerate(cats)],
        yticks,
        "",
        y_title,
        percent_y,
        layout,
    )
    by_category: dict[str, list[Bar]] = {}
    for b in bars:
        by_category.setdefault(b.category, []).append(b)
    for ci, category in enumerate(cats):
        members = sorted(by_category.get(category, []), key=lambda b: names.index(b.series))
        start = frame.left + ci * group + (group - width * len(members)) / 2
        for si, b in enumerate(members):
            x = start + si * width
            value = max(b.value, 0.0)
            y = frame.py(value)
            text = b.label or _value_text(b.value, percent_y)
            tip = f"{b.series} · {b.category}: {text}"
            css = f"bar {series_class(b.index)}"
            if frame.bottom - y < ZERO_MARK_PX:  # 0 (or next to it): a marker on the axis
                y = _r(frame.bottom - ZERO_MARK_PX)
                css += " zero"
            marks.append(
                Mark("rect", css, x=_r(x), y=y, w=_r(width), h=_r(frame.bottom - y), title=tip)
            )
            if text_width(text) <= width + 4:
                marks.append(Mark("text", "value", x=_r(x + width / 2), y=_r(y - 4), text=text))
    legend = list({b.series: LegendItem(b.series, series_class(b.index)) for b in bars}.values())
    return Chart(title, description, height=frame.height, marks=marks, legend=legend)


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
    placed: list[tuple[float, float, float, float]] = []
    for p in sorted(points, key=lambda p: (-p.y, p.x, p.label)):
        px, py = frame.px(p.x), frame.py(p.y)
        tip = f"{p.label}: {p.x:.1f} turns, {100 * p.y:.1f}%"
        marks.append(Mark("circle", f"dot big {series_class(p.index)}", x=px, y=py, title=tip))
        text = fit_text(p.label, 200.0)
        x, anchor, y = _place_label(text, px, py, frame, placed)
        marks.append(Mark("text", "point-label", x=x, y=y, text=text, anchor=anchor, title=p.label))
    legend = [LegendItem(p.label, series_class(p.index)) for p in points]
    return Chart(title, description, marks=marks, legend=legend)


def _place_label(
    text: str, px: float, py: float, frame: _Frame, placed: list[tuple[float, float, float, float]]
) -> tuple[float, str, float]:
    """Where the label of the point (``px``, ``py``) goes: right of it (left of it when it
    would leave the plot), moved down a line at a time until it overlaps no label placed
    before (their boxes in ``placed``, to which its own is added). Returns (x, anchor, y)."""
    width = text_width(text)
    right = px + 8 + width <= frame.right
    x0 = px + 8 if right else px - 8 - width
    y = py - 6
    for _ in range(200):
        box = (x0, y - FONT_PX, x0 + width, y + 3)
        if not any(
            box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in placed
        ):
            break
        y += LINE_PX
    placed.append((x0, y - FONT_PX, x0 + width, y + 3))
    return (_r(px + 8), "start", _r(y)) if right else (_r(px - 8), "end", _r(y))


@dataclass(frozen=True)
class StackRow:
    """One horizontal stacked bar: a label, its (part name, value) segments, and the parts
    whose value is not known (drawn as "unknown", never as 0)."""

    label: str
    parts: Sequence[tuple[str, float]]
    unknown: Sequence[str] = ()


def stacked_rows(
    title: str,
    description: str,
    rows: Sequence[StackRow],
    *,
    normalise: bool,
    unit: str = "",
) -> Chart:
    """Horizontal stacked bars, one per row; ``normalise`` scales each row to 100 %. A row
    with unknown parts ends with "unknown: PART, …" instead of a total (a partial sum is not
    a total); the row labels' column and the space after the bars are as wide as their
    texts."""
    if not rows:
        return Chart(title, description + " (no data)")
    names = list(dict.fromkeys(name for r in rows for name, _ in r.parts))
    names += [n for r in rows for n in r.unknown if n not in names]
    totals = [sum(v for _, v in r.parts) for r in rows]
    if not any(totals) and not any(r.unknown for r in rows):
        return Chart(title, description + " (all zero)")
    high = 1.0 if normalise else (max(totals) or 1.0)
    ends = [
        f"{', '.join(r.unknown)}: unknown · total unknown"
        if r.unknown
        else ("100%" if normalise else f"{unit}{total:,.4g}")
        for r, total in zip(rows, totals, strict=True)
    ]
    row_h, gap, top = 22.0, 10.0, 8.0
    label_px = min(max(text_width(r.label) for r in rows), 248.0)
    left = label_px + 12.0
    right = WIDTH - min(max(text_width(e) for e in ends) + 12.0, 360.0)
    height = int(top + len(rows) * (row_h + gap) + 8)
    marks: list[Mark] = []
    for i, (row, total, end) in enumerate(zip(rows, totals, ends, strict=True)):
        y = top + i * (row_h + gap)
        label = fit_text(row.label, label_px)
        marks.append(
            Mark(
                "text",
                "tick",
                x=_r(left - 6),
                y=_r(y + 15),
                text=label,
                anchor="end",
                title=row.label if label != row.label else "",
            )
        )
        x = left
        for name, value in row.parts:
            if name in row.unknown:
                continue
            share = value / total if normalise and total else value / high
            w = share * (right - left)
            if w <= 0:
                continue
            label = f"{100 * share:.1f}%" if normalise else f"{unit}{value:,.4g}"
            tip = f"{row.label} · {name}: {label}" + (f" ({value:g})" if normalise else "")
            css = f"bar {series_class(names.index(name))}"
            marks.append(Mark("rect", css, x=_r(x), y=_r(y), w=_r(w), h=row_h, title=tip))
            x += w
        css = "tick unknown" if row.unknown else "tick"
        marks.append(Mark("text", css, x=_r(x + 4), y=_r(y + 15), text=end, anchor="start"))
    legend = [LegendItem(name, series_class(i)) for i, name in enumerate(names)]
    return Chart(title, description, height=height, marks=marks, legend=legend)

"""Chart geometry: labels never over each other, 0 bars seen, unknown never drawn as 0, charts
as wide as the page."""

from __future__ import annotations

import itertools
import math

import pytest

from lifebench.reporting._charts import (
    FONT_PX,
    WIDTH,
    ZERO_MARK_PX,
    Bar,
    Chart,
    Mark,
    Point,
    StackRow,
    bar_chart,
    scatter_chart,
    short_labels,
    stacked_rows,
    text_width,
)
from lifebench.reporting._templates import static_text

LONG = [f"subset_scores.multi_turn.intent_{i}_planning_and_decision" for i in range(14)]
CHINESE = ["外卖订单完成率", "到店预订成功率", "旅行规划"]


def _axis_labels(chart: Chart) -> list[Mark]:
    """The category labels under the plot (tick texts below the lowest grid line)."""
    grid = max(m.y for m in chart.marks if m.kind == "line" and m.css == "grid")
    return [m for m in chart.marks if m.kind == "text" and m.css == "tick" and m.y > grid + 8]


def _assert_apart(labels: list[Mark]) -> None:
    """Side-by-side labels: their boxes do not overlap; turned labels: consecutive ones are
    at least a font height apart across their direction (parallel lines of text)."""
    assert labels
    ordered = sorted(labels, key=lambda m: m.x)
    for a, b in itertools.pairwise(ordered):
        if a.rotate or b.rotate:
            assert a.rotate == b.rotate
            gap = (b.x - a.x) * math.sin(math.radians(abs(a.rotate)))
            assert gap >= FONT_PX, (a.text, b.text, gap)
        else:
            assert a.x + text_width(a.text) / 2 < b.x - text_width(b.text) / 2, (a.text, b.text)


def _inside(labels: list[Mark], chart: Chart) -> None:
    for m in labels:
        if m.rotate:  # anchored at its end, running left and up
            reach = text_width(m.text) * math.cos(math.radians(abs(m.rotate)))
            assert m.x - reach >= 0, m.text
            drop = text_width(m.text) * math.sin(math.radians(abs(m.rotate)))
            assert m.y <= chart.height and m.y - drop >= 0
        else:
            assert m.x - text_width(m.text) / 2 >= 0 and m.x + text_width(m.text) / 2 <= WIDTH


@pytest.mark.parametrize(
    "categories",
    [
        ["vita/delivery", "vita/instore", "vita/ota"],
        LONG + CHINESE,
        [f"c{i}" for i in range(80)],  # more categories than fit side by side
        [f"{w} category with a long descriptive name" for w in "ABCDEFGHIJKLMNOPQRST"],
        CHINESE * 1 + [f"{c}（第{i}轮）" for i in range(6) for c in CHINESE[:1]],
    ],
)
def test_category_labels_never_overlap_and_stay_in_the_chart(categories: list[str]) -> None:
    bars = [Bar(c, s, j, 0.5) for c in categories for j, s in enumerate(["m-a", "m-b"])]
    chart = bar_chart("t", "d", bars, y_title="y")
    labels = _axis_labels(chart)
    _assert_apart(labels)
    _inside(labels, chart)
    assert all(m.rotate == 0 for m in labels) == (categories[0] == "vita/delivery")


def test_cut_labels_stay_told_apart() -> None:
    labels = LONG + CHINESE
    short = short_labels(labels, 120.0)
    assert len(set(short)) == len(labels)  # a plain cut would make 14 identical labels
    assert all(text_width(t) <= 120.0 for t in short)
    assert short[0] == "…0…" and short[-1] == "旅行规划"
    assert short_labels(["vita/delivery", "vita/instore"], 200.0) == [
        "vita/delivery",
        "vita/instore",
    ]
    # a cut label carries the full text as its tooltip
    chart = bar_chart("t", "d", [Bar(c, "m", 0, 0.5) for c in labels], y_title="y")
    assert {m.title for m in _axis_labels(chart) if m.title} >= set(LONG)


def test_point_labels_are_moved_apart() -> None:
    points = [Point(f"run-{i} gpt-4o-mini", i, 8 + 0.05 * i, 0.5 + 0.01 * i) for i in range(6)]
    chart = scatter_chart("t", "d", points, x_title="turns", y_title="Avg@k")
    boxes = []
    for m in chart.marks:
        if m.css == "point-label":
            w = text_width(m.text)
            x0 = m.x if m.anchor == "start" else m.x - w
            boxes.append((x0, m.y - FONT_PX, x0 + w, m.y + 3))
    assert len(boxes) == 6
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)


def test_a_zero_bar_is_a_visible_marker_with_its_value() -> None:
    bars = [Bar("a", "m", 0, 0.0), Bar("b", "m", 0, 0.5), Bar("c", "m", 0, 0.004)]
    chart = bar_chart("t", "d", bars, y_title="y")
    rects = [m for m in chart.marks if m.kind == "rect"]
    assert len(rects) == 3
    zero = next(m for m in rects if m.title.endswith(": 0%"))
    assert zero.h >= ZERO_MARK_PX and "zero" in zero.css
    values = [m.text for m in chart.marks if m.css == "value"]
    assert values == ["0%", "50%", "0.4%"]  # a small share is not rounded to 0%


def test_unknown_parts_are_said_unknown_never_drawn_as_zero() -> None:
    rows = [
        # the judge's priced calls sum to 0.003, but some are not priced: not a cost
        StackRow("run-a", [("agent", 0.01), ("judge", 0.003)], unknown=("judge",)),
        StackRow("run-b", [("agent", 0.02), ("judge", 0.001)]),
    ]
    chart = stacked_rows("cost", "d", rows, normalise=False, unit="$")
    texts = [m.text for m in chart.marks if m.kind == "text"]
    assert "judge: unknown · total unknown" in texts and "$0.021" in texts
    assert "run-a" in texts and "run-b" in texts  # the labels fit their column uncut
    assert not any(t.startswith("$0.01") for t in texts)  # no partial sum shown as a total
    rects = [m for m in chart.marks if m.kind == "rect"]
    assert [m.title.split(":")[0] for m in rects] == [
        "run-a · agent",
        "run-b · agent",
        "run-b · judge",
    ]
    # a chart whose only costs are unknown still says so (not "all zero")
    only = stacked_rows(
        "cost", "d", [StackRow("r", [("agent", 0.0)], unknown=("agent",))], normalise=False
    )
    assert only.marks and "agent: unknown · total unknown" in [m.text for m in only.marks]


def test_charts_are_drawn_at_the_width_of_the_page() -> None:
    chart = bar_chart("t", "d", [Bar("a", "m", 0, 0.5)], y_title="y")
    assert chart.width == WIDTH >= 1000
    css = static_text("report.css")
    assert "figure.chart svg { width: 100%;" in css

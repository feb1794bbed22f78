"""The terminal face of ``lifebench compare``: number formats and what the tables say."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from rich.console import Console

sys.path.insert(0, str(Path(__file__).parent))

from compare_fakes import config, records, run_data

from lifebench.compare import compare_runs
from lifebench.compare._compare import MetricComparison
from lifebench.compare._render import difference_text, p_text, render_comparison, value_text


def _m(scale: str, a: float, b: float, ci: tuple[float, float], p: float = 0.2) -> MetricComparison:
    return MetricComparison(
        metric="m", kind="score", scale=scale, tasks=5, a=a, b=b, difference=a - b, ci=ci,
        test="permutation", exact=True, p_value=p, p_holm=min(1.0, 3 * p), significant=False,
        a_better=1, b_better=1, ties=3,
    )  # fmt: skip


def test_fractions_are_percentages_and_points() -> None:
    m = _m("fraction", 0.5, 0.25, (0.1, 0.4))
    assert value_text(m, m.a) == "50.0%"
    assert difference_text(m) == "+25.0 [+10.0, +40.0]"


def test_raw_numbers_get_decimals_by_their_size() -> None:
    assert difference_text(_m("raw", 66.0, 62.6, (-0.86, 7.85))) == "+3.4 [-0.9, +7.8]"
    assert value_text(_m("raw", 66.0, 62.6, (-0.86, 7.85)), 66.0) == "66.0"
    assert difference_text(_m("raw", 2.5, 1.0, (0.5, 2.5))) == "+1.50 [+0.50, +2.50]"
    assert difference_text(_m("raw", 0.5, 0.25, (0.1, 0.4))) == "+0.250 [+0.100, +0.400]"
    assert value_text(_m("raw", 0.5, 0.25, (0.1, 0.4)), 0.5) == "0.500"


def test_p_values() -> None:
    m = _m("raw", 1, 0, (0, 1), p=0.2)
    assert p_text(m, several=False) == "0.200 perm."
    assert p_text(m, several=True) == "0.600 perm."
    assert p_text(_m("raw", 1, 0, (0, 1), p=0.0001), several=False) == "<0.001 perm."
    mc = m.model_copy(update={"test": "mcnemar_exact"})
    assert p_text(mc, several=False).endswith("McNemar")


def test_the_tables_name_runs_metrics_and_mismatches() -> None:
    a = run_data(records({f"t{i}": [1.0, 1.0] for i in range(12)}), name="a")
    b = run_data(
        records({f"t{i}": [0.0, 1.0] for i in range(12)}),
        name="b",
        cfg=config(max_steps=10),
    )
    result = compare_runs([a, b], ["a", "b"], allow_mismatch=True)
    out = io.StringIO()
    render_comparison(result, Console(file=out, width=80, color_system=None))
    text = out.getvalue()
    assert text.startswith("NOT COMPARABLE (--allow-mismatch):")
    assert "\n  a vs b: --max-steps: 300 vs 10\n" in text
    assert "A − B: paired over tasks (95% bootstrap CI)" in text
    assert text.count("Discordant tasks: 12 better in A, 0 in B") == 1
    assert "lifebench view /runs/a /runs/b" in text
    assert "warning: NOT COMPARABLE" in text
    assert max(len(line) for line in text.splitlines()) <= 80

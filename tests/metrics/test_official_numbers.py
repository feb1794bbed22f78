"""The core pieces of the official-vs-lifebench comparison: pairs, classes, the official
two-decimal rounding and the stratified bootstrap of an aggregate."""

from __future__ import annotations

import pytest

from lifebench.metrics import (
    OfficialComparison,
    ScorePair,
    official_round,
    stratified_bootstrap,
    tally_classes,
    unavailable,
)
from lifebench.metrics._official import pair_map


def test_a_pair_gives_the_number_and_interval_the_headline_picks() -> None:
    pair = ScorePair(
        metric="overall",
        label="x",
        lifebench=70.0,
        official=69.5,
        lifebench_ci=(60.0, 80.0),
        official_ci=(59.0, 79.0),
    )
    assert (pair.value("lifebench"), pair.interval("lifebench")) == (70.0, (60.0, 80.0))
    assert (pair.value("official"), pair.interval("official")) == (69.5, (59.0, 79.0))
    assert pair.scale == "fraction"
    comparison = OfficialComparison(
        reference="r", pairs=[pair, pair.model_copy(update={"metric": "b"})]
    )
    assert comparison.headline_pair() is pair and comparison.available
    assert list(pair_map(comparison)) == ["overall", "b"]
    assert OfficialComparison(reference="r").headline_pair() is None


def test_classes_count_units_once_per_class() -> None:
    units, differing, classes = tally_classes([[], ["a", "a", "b"], ["b"], []])
    assert (units, differing, classes) == (4, 2, {"a": 1, "b": 2})
    assert list(tally_classes([["z"], ["a"]])[2]) == ["a", "z"]  # sorted
    assert tally_classes([]) == (0, 0, {})


def test_unavailable_says_why() -> None:
    c = unavailable("ref", "no judge")
    assert (c.available, c.reason, c.reference, c.pairs) == (False, "no judge", "ref", [])


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, None), (2.675, 2.67), (1.005, 1.0), (27.234999, 27.23), (33.335, 33.34), (-0.0, -0.0)],
)
def test_the_official_rounding_is_pythons_format(
    value: float | None, expected: float | None
) -> None:
    assert official_round(value) == expected
    assert official_round(12.3456, 3) == 12.346


def _mean(totals: dict[str, list[float]]) -> float | None:
    row = totals["a"]
    return row[0] / row[1] if row[1] else None


def test_stratified_bootstrap_resamples_within_each_stratum() -> None:
    constant = stratified_bootstrap({"a": [[5.0, 1.0]] * 10}, _mean)
    assert constant == (5.0, 5.0)
    interval = stratified_bootstrap({"a": [[float(i), 1.0] for i in range(10)]}, _mean, seed=3)
    assert interval is not None and 2.0 < interval[0] < 4.5 < interval[1] < 7.0
    assert (
        stratified_bootstrap({"a": [[float(i), 1.0] for i in range(10)]}, _mean, seed=3) == interval
    )
    assert (
        stratified_bootstrap({"a": [[float(i), 1.0] for i in range(10)]}, _mean, seed=4) != interval
    )
    # one draw per task of every stratum: the statistic sees both strata's totals
    seen: list[tuple[float, float]] = []

    def both(totals: dict[str, list[float]]) -> float:
        seen.append((totals["a"][1], totals["b"][1]))
        return 0.0

    stratified_bootstrap({"a": [[0.0, 1.0]] * 3, "b": [[0.0, 1.0]] * 7}, both, samples=5)
    assert seen == [(3.0, 7.0)] * 5


def test_stratified_bootstrap_edges() -> None:
    assert stratified_bootstrap({}, _mean) is None
    assert stratified_bootstrap({"a": []}, _mean) is None
    assert stratified_bootstrap({"a": [[1.0, 0.0]]}, _mean) is None  # no replicate has a value
    narrow = stratified_bootstrap({"a": [[float(i), 1.0] for i in range(20)]}, _mean, level=0.5)
    wide = stratified_bootstrap({"a": [[float(i), 1.0] for i in range(20)]}, _mean, level=0.99)
    assert narrow is not None and wide is not None
    assert wide[0] < narrow[0] < narrow[1] < wide[1]
    with pytest.raises(ValueError, match="samples must be at least 1"):
        stratified_bootstrap({"a": [[1.0, 1.0]]}, _mean, samples=0)
    for level in (0.0, 1.0):
        with pytest.raises(ValueError, match="level must be in"):
            stratified_bootstrap({"a": [[1.0, 1.0]]}, _mean, level=level)

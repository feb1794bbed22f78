"""The bundled travel rows: our own, official format, >= 50 per subset and language, regenerable."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from lifebench.travel import data
from lifebench.travel.generate import (
    LANGUAGES,
    SUBSETS,
    generate_pairs,
    generate_rows,
    rows_text,
    write_bundled,
)
from lifebench.travel.generate.places import CITIES
from lifebench.travel.task import TravelTask, parse_time

OFFICIAL_KEYS = {
    "trace_id",
    "time",
    "query",
    "primary_intent",
    "context",
    "intent",
    "missing_tool",
    "missing_info",
    "no_actionable",
}
FLAGS = ("missing_tool", "missing_info", "no_actionable")
HAN = re.compile(r"[\u4e00-\u9fff]")


def test_the_shipped_files_are_exactly_what_the_generator_writes(tmp_path: Path) -> None:
    write_bundled(tmp_path)
    for subset in SUBSETS:
        for language in LANGUAGES:
            name = data.bundled_name(subset, language)
            assert (tmp_path / name).read_text("utf-8") == data.bundled_text(subset, language)


def test_same_seed_same_bytes_other_seed_other_rows() -> None:
    a = rows_text(generate_rows("single", "zh", 8, seed=3))
    assert a == rows_text(generate_rows("single", "zh", 8, seed=3))
    assert a != rows_text(generate_rows("single", "zh", 8, seed=4))


def test_every_subset_and_language_is_shipped_with_at_least_50_rows() -> None:
    assert sorted(data.available()) == sorted((s, lang) for s in SUBSETS for lang in LANGUAGES)
    for subset, language in data.available():
        rows = data.load_bundled_rows(subset, language)
        assert len(rows) >= 50
        assert [r["trace_id"] for r in rows] == [str(i) for i in range(1, len(rows) + 1)]
        assert len({r["query"] for r in rows}) == len(rows), "queries repeat"


@pytest.mark.parametrize("subset", SUBSETS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_rows_are_in_the_official_format(subset: str, language: str) -> None:
    rows = data.load_bundled_rows(subset, language)
    for row in rows:
        extra = {"avg_tool_calls"} if subset != "unsolvable" else set()
        extra |= {"user_profile"} if subset == "multi" else set()
        assert set(row) == OFFICIAL_KEYS | extra
        parse_time(row["time"])
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:00", row["time"])
        assert row["query"].strip() and row["intent"].strip() and row["context"].strip()
        flags = [f for f in FLAGS if row[f]]
        assert len(flags) == (1 if subset == "unsolvable" else 0)
        task = TravelTask.model_validate({**row, "subset": subset, "language": language})
        assert task.coordinates is not None
        assert task.location_text
        if subset == "multi":
            assert "###" in row["user_profile"]
        # the text is in the file's language
        assert bool(HAN.search(row["query"])) is (language == "zh")


def test_unsolvable_rows_cover_the_three_categories() -> None:
    counts = Counter(
        next(f for f in FLAGS if r[f]) for r in data.load_bundled_rows("unsolvable", "zh")
    )
    assert set(counts) == set(FLAGS) and min(counts.values()) >= 10


def test_missing_info_rows_really_lack_the_destination() -> None:
    for row in data.load_bundled_rows("unsolvable", "zh"):
        if row["missing_info"]:
            assert "用户导航终点位置" not in row["context"]
            assert "用户导航信息" not in row["context"]


def test_chinese_and_english_rows_describe_the_same_situation() -> None:
    for pair in generate_pairs("multi", 10):
        zh, en = pair["zh"], pair["en"]
        assert zh["time"] == en["time"] and zh["primary_intent"] == en["primary_intent"]
        assert zh["context"].split("\n")[1:3] == en["context"].split("\n")[1:3]  # coordinates
        assert "**Current location coordinates**" in en["context"]


def test_municipalities_repeat_the_name_as_officially() -> None:
    beijing = next(c for c in CITIES if c.name.zh == "北京市")
    assert beijing.municipality and beijing.short.zh == "北京"
    rows = [r for s in SUBSETS for r in data.load_bundled_rows(s, "zh")]
    assert any("北京市北京市" in r["context"] or "上海市上海市" in r["context"] for r in rows)


def test_unknown_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown subset"):
        generate_pairs("all")
    with pytest.raises(ValueError, match="unknown language"):
        generate_rows("single", "fr")
    with pytest.raises(ValueError, match="no bundled travel rows"):
        data.bundled_text("single", "fr")


def test_profiles_are_consistent() -> None:
    for row in data.load_bundled_rows("multi", "en"):
        profile = row["user_profile"]
        if "Car: no car" in profile:
            assert "drives whenever possible" not in profile
        if "retired" in profile:
            assert "60-64" in profile
        json.dumps(row, ensure_ascii=False)

"""The language of a TravelBench row without one: Chinese when its query or context holds a
CJK ideograph, English otherwise; a stated language is kept, an unknown one refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifebench.errors import InputError
from lifebench.travel.loader import parse_rows

BASE = {"trace_id": "1", "time": "2025-10-24 10:00", "query": "q", "intent": "i"}

_TEXT = st.text(
    st.one_of(
        st.characters(codec="ascii"),
        st.sampled_from(["中", "\u4e00", "\u9fff", "\u3400", "\ua000", "\u3000", "，", "é", "ア"]),
    ),
    max_size=12,
)


def _cjk(text: str) -> bool:
    return any("\u4e00" <= c <= "\u9fff" for c in text)


@settings(max_examples=150)
@given(query=_TEXT, context=_TEXT)
def test_the_language_follows_query_and_context(query: str, context: str) -> None:
    query = f"q{query}"  # a query is never empty
    (task,) = parse_rows([(1, {**BASE, "query": query, "context": context})], file="f.jsonl")
    assert task.language == ("zh" if _cjk(query + context) else "en")


@pytest.mark.parametrize(
    ("query", "context", "language"),
    [
        ("附近的咖啡", "", "zh"),
        ("coffee nearby", "**用户当前位置描述**\n浙江省杭州市", "zh"),
        ("coffee nearby", "latitude: 30.25", "en"),
        ("coffee nearby", None, "en"),
        ("、。，", "", "en"),
    ],
    ids=["zh-query", "zh-context", "en", "no-context", "cjk-punctuation-only"],
)
def test_examples(query: str, context: str | None, language: str) -> None:
    row = {**BASE, "query": query} | ({} if context is None else {"context": context})
    (task,) = parse_rows([(1, row)], file="f.jsonl")
    assert task.language == language


@pytest.mark.parametrize("stated", ["zh", "en"])
def test_a_stated_language_is_kept(stated: str) -> None:
    query = "coffee" if stated == "zh" else "咖啡"
    (task,) = parse_rows([(1, {**BASE, "query": query, "language": stated})], file="f.jsonl")
    assert task.language == stated


def test_an_unknown_language_is_refused_with_file_line_and_field(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        parse_rows([(3, {**BASE, "language": "fr"})], file="rows.jsonl")
    text = str(caught.value)
    assert "rows.jsonl" in text and "3" in text and "language" in text
    assert "must be zh or en, got 'fr'" in text
    json.dumps(BASE)

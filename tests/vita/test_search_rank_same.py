"""The search ranking of the VitaBench tools answers as it did before it was made cheaper.

``rank`` now reads the query once, finds equal words by a set lookup and computes the title
similarities (``WRatio``, ``ratio``) only for the documents that can still be among the first
``limit``. The ranking must not change: every result below is compared with the previous
implementation (kept here verbatim as the reference) on documents built from the bundled tasks
of every domain, English and Chinese, and on queries drawn from those documents' own words
(exact words, spelling variants, word pieces, words of other tasks, nothing, stop words only).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from rapidfuzz import fuzz

from lifebench.vita.domains import _match
from lifebench.vita.domains._match import _STOP_WORDS, _WORD_THRESHOLD, _has_cjk, fold
from lifebench.vita.loader import available_bundled_tasks, load_bundled_tasks

# ---- the previous implementation, verbatim ---------------------------------------------------


def _old_same_word(a: str, b: str) -> bool:
    if a == b:
        return True
    return min(len(a), len(b)) >= 4 and fuzz.ratio(a, b) >= _WORD_THRESHOLD


def _old_coverage(words: list[str], others: list[str]) -> float:
    total = sum(len(w) for w in words)
    if not total:
        return 0.0
    covered = sum(len(w) for w in words if any(_old_same_word(w, o) for o in others))
    return covered / total


def _old_query_words(text: str) -> list[str]:
    processed: str = fold(text)
    words = processed.split()
    return list(dict.fromkeys([w for w in words if w not in _STOP_WORDS] or words))


def _old_search_score(query: str, document: str) -> float:
    q, d = fold(query), fold(document)
    if not q or not d:
        return 0.0
    if _has_cjk(q) or _has_cjk(d):
        return float(fuzz.partial_ratio(q, d))
    return 100.0 * _old_coverage(_old_query_words(query), d.split())


def _old_rank(
    query: str, documents: Sequence[str], limit: int, titles: Sequence[str] | None = None
) -> list[int]:
    q = fold(query)
    heads = titles if titles is not None else documents
    scored = []
    for i, (doc, head) in enumerate(zip(documents, heads, strict=True)):
        h = fold(head)
        scored.append(
            (_old_search_score(query, doc), float(fuzz.WRatio(q, h)), float(fuzz.ratio(q, h)), i)
        )
    scored.sort(key=lambda item: (-item[0], -item[1], -item[2], item[3]))
    return [item[3] for item in scored[:limit]]


# ---- documents and queries from the bundled tasks --------------------------------------------


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _records(value: Any) -> Iterator[dict[str, Any]]:
    """Every dict of the environment that holds a name: a store, product, shop, hotel..."""
    if isinstance(value, dict):
        if any(isinstance(v, str) and "name" in k for k, v in value.items()):
            yield value
        for v in value.values():
            yield from _records(v)
    elif isinstance(value, list):
        for v in value:
            yield from _records(v)


def _corpora() -> list[tuple[str, list[str], list[str]]]:
    """(label, documents, titles): per bundled task set, the named records of some tasks as
    documents (their strings joined, as the tools join name, store and tags), the name as title."""
    out = []
    for task_set in ("demo", "generated"):
        for domain, language in available_bundled_tasks(task_set):
            for task in load_bundled_tasks(domain, language, task_set)[:2]:
                docs, titles = [], []
                for record in _records(task.environment):
                    name = next(str(v) for k, v in record.items() if "name" in k)
                    texts = [s for s in _strings(record) if len(s) < 80]
                    docs.append(" ".join(texts))
                    titles.append(name)
                if docs:
                    out.append((f"{task_set}/{domain}/{language}/{task.id}", docs, titles))
    return out


def _queries(docs: list[str], rng: random.Random) -> list[str]:
    words = [w for d in docs for w in d.split() if w]
    picked = rng.sample(words, min(12, len(words)))
    queries = ["", "   ", "the of and", "zzzz qqqq", "麻辣 香锅", "Noodle", "noodles beef"]
    for w in picked:
        queries.append(w)
        if len(w) > 4:
            queries.append(w[:-1])  # a spelling variant (a letter short)
            queries.append(w[1:] + "s")
            queries.append(w[: len(w) // 2])  # a piece of a word
    for _ in range(6):
        queries.append(" ".join(rng.sample(picked, min(3, len(picked)))))
    queries.extend(d[:12] for d in rng.sample(docs, min(4, len(docs))))
    return queries


CORPORA = _corpora()


def test_the_corpora_cover_every_domain_in_both_languages() -> None:
    labels = {tuple(label.split("/")[1:3]) for label, _, _ in CORPORA}
    assert {("delivery", "en"), ("delivery", "zh"), ("instore", "en"), ("instore", "zh")} <= labels
    assert {("ota", "en"), ("ota", "zh"), ("cross", "en"), ("cross", "zh")} <= labels


@pytest.mark.parametrize(("label", "docs", "titles"), CORPORA, ids=[c[0] for c in CORPORA])
def test_rank_orders_as_the_previous_implementation(
    label: str, docs: list[str], titles: list[str]
) -> None:
    rng = random.Random(label)
    for query in _queries(docs, rng):
        for limit in (1, 5, len(docs), len(docs) + 5, 0):
            assert _match.rank(query, docs, limit, titles=titles) == _old_rank(
                query, docs, limit, titles=titles
            ), (query, limit)
        assert _match.rank(query, docs, 5) == _old_rank(query, docs, 5)


@pytest.mark.parametrize(
    ("label", "docs", "titles"), CORPORA[::4], ids=[c[0] for c in CORPORA[::4]]
)
def test_search_score_is_the_previous_score(label: str, docs: list[str], titles: list[str]) -> None:
    rng = random.Random(label)
    for query in _queries(docs, rng)[:20]:
        for doc in docs[:30]:
            assert _match.search_score(query, doc) == _old_search_score(query, doc), (query, doc)


def test_ties_at_the_cut_are_ordered_by_title_then_by_position() -> None:
    # every document holds the query word: all tie on the score, the titles decide
    docs = ["beef noodle a", "beef noodle b", "beef noodle c", "rice", "beef noodle d"]
    titles = ["Noodle House", "Beef Noodle", "Beef", "Rice", "Beef Noodle"]
    assert _match.rank("beef noodle", docs, 2, titles=titles) == [1, 4]
    assert _match.rank("beef noodle", docs, 2, titles=titles) == _old_rank(
        "beef noodle", docs, 2, titles=titles
    )
    # a document below the cut's score never enters, however close its title
    assert _match.rank("beef noodle", docs, 4, titles=titles) == [1, 4, 2, 0]
    assert 3 not in _match.rank("beef noodle", docs, 4, titles=["x", "x", "x", "beef noodle", "x"])


def test_one_title_per_document() -> None:
    with pytest.raises(ValueError, match="one title per document"):
        _match.rank("beef", ["beef", "rice"], 1, titles=["beef"])


def test_a_spelling_variant_at_the_length_bound_is_still_found() -> None:
    # 4 and 6 letters: the lengths allow a ratio of 80 at most, and "abcd"/"abcdef" reach it
    assert fuzz.ratio("abcd", "abcdef") == pytest.approx(80.0)
    assert _match.search_score("abcd", "abcdef xyz") == 100.0
    assert _match.search_score("abcd", "abcdefg xyz") == 0.0  # 72.7: not a variant
    assert _match.search_score("abc", "abcd") == 0.0  # under 4 letters: equal words only
    assert _match.search_score("abcd noodle", "abcd noodles") == 100.0
    assert _match.search_score("lamb noodle", "noodles") == pytest.approx(100.0 * 6 / 10)

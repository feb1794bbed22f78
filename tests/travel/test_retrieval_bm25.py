"""BM25 retrieval of cached calls: the rankings the bm25s library gave (recorded before it was
replaced by the plain-Python scorer) and the formula on hand-checked cases."""

from __future__ import annotations

import json
import math
from pathlib import Path

from bm25_cases import cases

from lifebench.travel.sandbox.retrieval import BM25, Retriever

EXPECTED = Path(__file__).with_name("bm25_expected.json")


def test_rankings_are_those_bm25s_gave() -> None:
    """Top-5 of 320 queries over 40 generated corpora, as bm25s 0.3.16 (method lucene,
    k1 1.5, b 0.75) ranked them through this module."""
    expected = json.loads(EXPECTED.read_text())
    got = []
    for corpus, queries in cases():
        retriever = Retriever([(p, str(i)) for i, p in enumerate(corpus)])
        got.append([[int(r) for _, r in retriever.nearest(q, 5)] for q in queries])
    assert sum(len(x) for x in got) == 320
    assert got == expected


def test_lucene_bm25_formula() -> None:
    docs = [["a", "b", "a"], ["b", "c"], ["c"]]
    index = BM25(docs)
    avg = 2.0

    def weight(tf: int, df: int, length: int) -> float:
        idf = math.log(1 + (3 - df + 0.5) / (df + 0.5))
        return idf * tf / (tf + 1.5 * (1 - 0.75 + 0.75 * length / avg))

    scores = index.scores(["a", "c", "zzz"])
    assert scores == [
        weight(2, 1, 3),
        weight(1, 2, 2),
        weight(1, 2, 1),
    ]
    # a repeated query token counts twice; unknown tokens add nothing
    assert index.scores(["b", "b"]) == [2 * weight(1, 2, 3), 2 * weight(1, 2, 2), 0.0]
    assert index.scores([]) == [0.0, 0.0, 0.0]


def test_ties_and_no_overlap_keep_file_order() -> None:
    examples = [('{"q": "x"}', "0"), ('{"q": "y"}', "1"), ('{"q": "x"}', "2")]
    retriever = Retriever(examples)
    assert [r for _, r in retriever.nearest('{"q": "x"}', 3)] == ["0", "2", "1"]
    assert [r for _, r in retriever.nearest('{"q": "none"}', 2)] == ["0", "1"]
    assert retriever.nearest('{"q": "x"}', 0) == [] and Retriever([]).nearest("{}", 3) == []

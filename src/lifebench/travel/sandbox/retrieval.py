"""The cached calls most similar to a new call, by BM25 over their arguments.

A call's text is its arguments as "name: value | name: value" (sorted names; the time is left
out, as in the official retrieval). Tokens: runs of Latin letters/digits (lower-cased) and, for
Chinese, single characters plus character bigrams. Ties and the no-overlap case fall back to
file order, so the choice is deterministic.

Scoring is Okapi BM25 in its Lucene variant (k1 = 1.5, b = 0.75, idf = ln(1 + (N - df + 0.5) /
(df + 0.5)); a query token counts as often as it occurs) — the formula of the ``bm25s`` library
this module used before, computed here over a few hundred cached calls in plain Python rather
than pulling numpy (≈ 70 MB) into every install. ``tests/travel/test_retrieval_bm25.py`` holds
the rankings bm25s gave on 320 generated queries.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

_WORD = re.compile(r"[a-z0-9_.:+-]+|[\u4e00-\u9fff]+")


def params_text(params: str) -> str:
    """'k1: v1 | k2: v2' for a params JSON string (the string itself when it is not JSON)."""
    try:
        data = json.loads(params)
    except json.JSONDecodeError:
        return params
    if not isinstance(data, dict):
        return params
    return " | ".join(f"{k}: {_plain(data[k])}" for k in sorted(data))


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def tokens(text: str) -> list[str]:
    """BM25 tokens of ``text``."""
    out: list[str] = []
    for run in _WORD.findall(text.lower()):
        if "\u4e00" <= run[0] <= "\u9fff":
            out.extend(run)
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
        else:
            out.append(run)
    return out


K1 = 1.5
B = 0.75


class BM25:
    """Okapi BM25 (Lucene variant) over tokenised documents: per token, the documents that hold
    it with their precomputed term weights, so a query costs one pass over its tokens' lists."""

    def __init__(self, corpus: Sequence[Sequence[str]], k1: float = K1, b: float = B) -> None:
        self.size = len(corpus)
        lengths = [len(doc) for doc in corpus]
        average = sum(lengths) / self.size if self.size else 0.0
        counts = [Counter(doc) for doc in corpus]
        df = Counter(token for c in counts for token in c)
        self.postings: dict[str, list[tuple[int, float]]] = {}
        for index, (c, length) in enumerate(zip(counts, lengths, strict=True)):
            norm = k1 * (1 - b + b * length / average) if average else k1
            for token, tf in c.items():
                idf = math.log(1 + (self.size - df[token] + 0.5) / (df[token] + 0.5))
                self.postings.setdefault(token, []).append((index, idf * tf / (tf + norm)))

    def scores(self, query: Sequence[str]) -> list[float]:
        """The score of every document for ``query`` (tokens not in the corpus add nothing)."""
        out = [0.0] * self.size
        for token in query:
            for index, weight in self.postings.get(token, ()):
                out[index] += weight
        return out


class Retriever:
    """BM25 over one tool's cached calls."""

    def __init__(self, examples: Sequence[tuple[str, str]]) -> None:
        self.examples = list(examples)
        self._index = BM25([tokens(params_text(p)) or ["∅"] for p, _ in self.examples])

    def nearest(self, params: str, k: int) -> list[tuple[str, str]]:
        """Up to ``k`` (params, result) examples, most similar first (ties: file order)."""
        if k <= 0 or not self.examples:
            return []
        scores = self._index.scores(tokens(params_text(params)))
        order = sorted(range(len(self.examples)), key=lambda i: (-scores[i], i))
        return [self.examples[i] for i in order[:k]]

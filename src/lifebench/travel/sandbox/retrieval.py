"""The cached calls most similar to a new call, by BM25 over their arguments (``bm25s``).

A call's text is its arguments as "name: value | name: value" (sorted names; the time is left
out, as in the official retrieval). Tokens: runs of Latin letters/digits (lower-cased) and, for
Chinese, single characters plus character bigrams. Ties and the no-overlap case fall back to
file order, so the choice is deterministic.
"""

from __future__ import annotations

import json
import re
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


class Retriever:
    """BM25 over one tool's cached calls."""

    def __init__(self, examples: Sequence[tuple[str, str]]) -> None:
        self.examples = list(examples)
        self._index: Any = None
        corpus = [tokens(params_text(p)) or ["∅"] for p, _ in self.examples]
        if corpus:
            import bm25s  # heavy import only when a simulator actually retrieves

            self._index = bm25s.BM25()
            self._index.index(corpus, show_progress=False)

    def nearest(self, params: str, k: int) -> list[tuple[str, str]]:
        """Up to ``k`` (params, result) examples, most similar first."""
        if k <= 0 or not self.examples:
            return []
        query = tokens(params_text(params))
        scores = [float(s) for s in self._index.get_scores(query)] if query else []
        if not scores:
            scores = [0.0] * len(self.examples)
        order = sorted(range(len(self.examples)), key=lambda i: (-scores[i], i))
        return [self.examples[i] for i in order[:k]]

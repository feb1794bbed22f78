"""Fuzzy matching used by the tools: addresses, city names and keyword search.

Everything here is a pure function over the candidates it is given; nothing is cached or
registered, so a lookup can only ever see the data of the environment that calls it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rapidfuzz import fuzz
from rapidfuzz.utils import default_process

#: Minimum score (0–100) for an address to resolve to a known location.
ADDRESS_THRESHOLD = 80.0
#: Minimum score (0–100) for a place name to select a city of the weather table.
CITY_THRESHOLD = 80.0
# Two words longer than three letters count as the same word above this similarity.
_WORD_THRESHOLD = 80.0

_CJK = re.compile(r"[\u3400-\u9fff]")

# Words that occur in almost every address; they carry no identity and, if kept, make any two
# addresses look alike ("…District, …City, …Province").
_GENERIC_TEXT = """
a an and at by from in near next of on opposite the to behind side
no number meters meter metres metre m km walk walking exit intersection
district province city county town village township subdistrict street road avenue lane
alley section middle north south east west northeast northwest southeast southwest
building floor room unit zone area phase block tower plaza center centre garden community
residential compound complex branch store shop restaurant co ltd
"""
_GENERIC_WORDS = frozenset(_GENERIC_TEXT.split())

# Words that carry no meaning in a search query.
_STOP_WORDS = frozenset(("a", "an", "and", "the", "of", "with", "for", "in", "on", "to", "or"))

_CITY_SUFFIXES = (" city", "市")


def _has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def _distinctive(text: str) -> list[str]:
    """Distinct lower-cased words of ``text`` without the generic address vocabulary."""
    processed: str = default_process(text)
    words = processed.split()
    kept = [w for w in words if w not in _GENERIC_WORDS] or words
    return list(dict.fromkeys(kept))


def _same_word(a: str, b: str) -> bool:
    """Equal, or a spelling variant of a longer word ("jiale" / "jialeyu")."""
    if a == b:
        return True
    return min(len(a), len(b)) >= 4 and fuzz.ratio(a, b) >= _WORD_THRESHOLD


def _coverage(words: list[str], others: list[str]) -> float:
    """Share of the characters of ``words`` whose word also occurs (fuzzily) in ``others``."""
    total = sum(len(w) for w in words)
    if not total:
        return 0.0
    covered = sum(len(w) for w in words if any(_same_word(w, o) for o in others))
    return covered / total


def address_score(query: str, candidate: str) -> float:
    """Similarity (0–100) of two addresses, robust to shortened or extended forms.

    Latin text: the share of one side's distinctive words found in the other side, taking the
    better direction — so "Jinzheng Haiyue International" matches a long address containing
    those words (and vice versa), while two addresses that share only their district, city
    and province names do not. Chinese text (no word boundaries): best partial alignment.
    """
    q, c = default_process(query), default_process(candidate)
    if not q or not c:
        return 0.0
    if q == c:
        return 100.0
    if _has_cjk(q) or _has_cjk(c):
        shorter = min(len(q.replace(" ", "")), len(c.replace(" ", "")))
        return float(fuzz.partial_ratio(q, c) if shorter >= 4 else fuzz.ratio(q, c))
    qw, cw = _distinctive(query), _distinctive(candidate)
    return 100.0 * max(_coverage(qw, cw), _coverage(cw, qw))


def best_address(query: str, candidates: Sequence[str]) -> int | None:
    """Index of the candidate ``query`` designates, or None when none is close enough.

    Ties on the address score are broken by plain similarity of the whole strings, then by
    position (earlier wins).
    """
    best: tuple[float, float, int] | None = None
    for i, cand in enumerate(candidates):
        score = address_score(query, cand)
        if score < ADDRESS_THRESHOLD:
            continue
        key = (score, float(fuzz.ratio(query, cand, processor=default_process)), -i)
        if best is None or key > best:
            best = key
    return None if best is None else -best[2]


def city_core(city: str) -> str:
    """``city`` without a trailing "City" / "市" (``"Kunming City"`` → ``"Kunming"``)."""
    text = city.strip()
    for suffix in _CITY_SUFFIXES:
        if text.lower().endswith(suffix) and len(text) > len(suffix):
            return text[: -len(suffix)].strip()
    return text


def city_score(place: str, city: str) -> float:
    """How well ``place`` (a city name or a full address) designates ``city`` (0–100)."""
    core = default_process(city_core(city))
    text = default_process(place)
    if not core or not text:
        return 0.0
    return float(max(fuzz.partial_ratio(core, text), fuzz.ratio(default_process(city), text)))


def keyword_query(keywords: Sequence[str]) -> str:
    """The search query: non-blank keywords joined by single spaces."""
    return " ".join(k.strip() for k in keywords if k.strip())


def _query_words(text: str) -> list[str]:
    processed: str = default_process(text)
    words = processed.split()
    return list(dict.fromkeys([w for w in words if w not in _STOP_WORDS] or words))


def search_score(query: str, document: str) -> float:
    """How completely ``document`` contains the words of ``query`` (0–100).

    Each query word counts by its length and is found if the document has the same word or a
    close spelling variant ("noodle" / "noodles"); the length of the document does not matter.
    Chinese text (no word boundaries): best partial alignment.
    """
    q, d = default_process(query), default_process(document)
    if not q or not d:
        return 0.0
    if _has_cjk(q) or _has_cjk(d):
        return float(fuzz.partial_ratio(q, d))
    return 100.0 * _coverage(_query_words(query), d.split())


def rank(
    query: str, documents: Sequence[str], limit: int, titles: Sequence[str] | None = None
) -> list[int]:
    """Indices of the ``limit`` documents most relevant to ``query``, best first.

    Primary key: :func:`search_score` over the whole document (name, store, tags). Ties —
    several documents containing every query word — go to the document whose title (product
    or store name) is most similar to the query, then to the earlier document.
    """
    q = default_process(query)
    heads = titles if titles is not None else documents
    scored = []
    for i, (doc, head) in enumerate(zip(documents, heads, strict=True)):
        h = default_process(head)
        scored.append(
            (search_score(query, doc), float(fuzz.WRatio(q, h)), float(fuzz.ratio(q, h)), i)
        )
    scored.sort(key=lambda item: (-item[0], -item[1], -item[2], item[3]))
    return [item[3] for item in scored[:limit]]

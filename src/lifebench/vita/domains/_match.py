"""Fuzzy matching used by the tools: addresses, city names and keyword search.

Everything here is a pure function over the candidates it is given; nothing is cached or
registered, so a lookup can only ever see the data of the environment that calls it. Every
comparison reads its texts through :func:`fold`: Unicode NFKC first (full-width letters, digits
and punctuation become ASCII, as the time reader reads full-width digits), then case folding and
punctuation to spaces — "No. １０ Fengning Road" is "No. 10 Fengning Road".
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.utils import default_process

from lifebench.vita.domains._geo import haversine_m

#: Minimum score (0–100) for an address to resolve to a known location.
ADDRESS_THRESHOLD = 80.0
#: A place scoring within this many points of the best one makes a query ambiguous…
RIVAL_MARGIN = 5.0
#: …when it lies farther than this (metres) from the best one.
SAME_PLACE_M = 100
# Minimum token-set similarity (0–100) of a known address to be suggested in a "not found".
_CLOSE_THRESHOLD = 50.0
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


def fold(text: str) -> str:
    """``text`` as every match reads it: NFKC-normalised, then rapidfuzz's default processing
    (lower case, non-alphanumeric characters to spaces, trimmed)."""
    processed: str = default_process(unicodedata.normalize("NFKC", text))
    return processed


def _has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


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
    present = set(others)  # equal words first: a set lookup instead of a ratio per word
    fuzzy = [o for o in present if len(o) >= 4]  # only these can be a spelling variant
    covered = sum(len(w) for w in words if w in present or _has_variant(w, fuzzy))
    return covered / total


def _has_variant(word: str, others: list[str]) -> bool:
    """Whether one of ``others`` (each of 4 or more characters) is a spelling variant of
    ``word`` (:func:`_same_word`). A ratio is only computed where the lengths allow it: the
    ratio of two words is at most ``100 · (1 − |length difference| / total length)``."""
    n = len(word)
    if n < 4:
        return False
    slack = 100.0 - _WORD_THRESHOLD
    return any(
        100 * abs(n - len(o)) <= slack * (n + len(o)) and fuzz.ratio(word, o) >= _WORD_THRESHOLD
        for o in others
    )


def _numbers(text: str) -> Counter[str]:
    """The digit runs of ``text``, counted ("No.308-1, 3rd Floor" → 308, 1, 3)."""
    return Counter(re.findall(r"\d+", text))


_SEGMENT = re.compile(r"[,，;；()（）]")
# Words that place an address relative to another place ("… near the East Station").
_RELATIONAL = frozenset(("near", "nearby", "opposite", "behind", "beside", "next", "across"))


def _is_name(word: str) -> bool:
    """A word that names a place: alphabetic, three letters or more, not generic address
    vocabulary."""
    return word.isalpha() and len(word) >= 3 and word not in _GENERIC_WORDS


def _weight(word: str) -> float:
    # A generic word still tells something ("Huchi Garden" is not "Huchi Road") but counts
    # half as much as a name.
    return 0.5 * len(word) if word in _GENERIC_WORDS else float(len(word))


def _found(word: str, others: Sequence[str]) -> bool:
    return any(_same_word(word, o) for o in others)


def _head(text: str) -> list[str]:
    """The words of the first part of ``text`` (split at commas and parentheses) that has a
    name: what the address designates ("Shujiuxiang Hot Pot" in "Shujiuxiang Hot Pot (South
    Railway Station Branch), …"; "Jinzheng Haiyue" in "Building 3, Jinzheng Haiyue, …";
    "No. 92 Business Road" in "No. 92 Business Road, Zhengdong District")."""
    for part in _SEGMENT.split(text):
        words = fold(part).split()
        if any(_is_name(w) for w in words):
            return words
    return []


def _share(words: Sequence[str], others: Sequence[str]) -> float:
    total = sum(len(w) for w in words)
    return sum(len(w) for w in words if _found(w, others)) / total if total else 1.0


def _holds(head: Sequence[str], words: Sequence[str], names: bool = True) -> bool:
    """Whether ``words`` contain the head words of an address: its numbers and relational
    words exactly, and (unless ``names`` is False) at least :data:`ADDRESS_THRESHOLD` % of its
    name letters."""
    if not _numbers(" ".join(head)) <= _numbers(" ".join(words)):
        return False
    if any(w in _RELATIONAL and w not in words for w in head):
        return False
    if not names:
        return True
    return 100.0 * _share([w for w in head if _is_name(w)], words) >= ADDRESS_THRESHOLD


def _designates(a: str, b: str) -> float:
    """How much (0–100) of address ``a`` is found in address ``b`` — 0 unless ``a`` can be a
    shortened or extended form of ``b``:

    * ``a`` has a name (a word of :func:`_is_name`; "3rd Floor", "Building 1" have none) and
      at least :data:`ADDRESS_THRESHOLD` % of its name letters are found in ``b``;
    * every number of ``a`` (house, building, room …) is a number of ``b``;
    * each side holds the other's head (:func:`_head`, what an address designates), numbers
      and relational words ("near", "opposite" …) included — so a kiosk "near the East
      Railway Station" is not the station, a street is not the house "No. 92" on it, and a
      district is no place in it. Only a numbered ``a`` ("115 Huashan Road, …": the street
      address of a known shop, all numbers matching) may leave out the name of ``b``'s head.

    Otherwise the share of ``a``'s letters found in ``b``, generic words counting half.
    """
    aw, bw = fold(a).split(), fold(b).split()
    names = [w for w in aw if _is_name(w)]
    if not names or not _numbers(" ".join(aw)) <= _numbers(" ".join(bw)):
        return 0.0
    if 100.0 * _share(names, bw) < ADDRESS_THRESHOLD:
        return 0.0
    numbered = bool(_numbers(" ".join(aw)))
    if not (_holds(_head(b), aw, names=not numbered) and _holds(_head(a), bw)):
        return 0.0
    total = sum(_weight(w) for w in aw)
    covered = sum(_weight(w) for w in aw if _found(w, bw))
    return 100.0 * covered / total


def address_score(query: str, candidate: str) -> float:
    """Similarity (0–100) of two addresses, robust to shortened or extended forms.

    Latin text: the share of one side's words found in the other side, taking the better
    direction (:func:`_designates`) — so "Jinzheng Haiyue International" matches a long address
    of it (and vice versa), while two addresses that share only their district, city and
    province names do not, "Room 503" never designates "Room 502", and an address that merely
    mentions a known place is not that place. Chinese text (no word boundaries): best partial
    alignment, the shorter side's numbers required in the longer.
    """
    q, c = fold(query), fold(candidate)
    if not q or not c:
        return 0.0
    if q == c:
        return 100.0
    if _has_cjk(q) or _has_cjk(c):
        short, long = sorted((q, c), key=lambda t: len(t.replace(" ", "")))
        if not _numbers(short) <= _numbers(long):
            return 0.0
        return float(
            fuzz.partial_ratio(q, c) if len(short.replace(" ", "")) >= 4 else fuzz.ratio(q, c)
        )
    return max(_designates(query, candidate), _designates(candidate, query))


@dataclass(frozen=True)
class AddressMatch:
    """The outcome of :func:`match_address`.

    Attributes:
        index: The place the query designates, or None.
        rivals: When None because the query fits several places equally well (different
            coordinates), their indices, best first.
        close: When None, the indices of the most similar known places (for the message).
    """

    index: int | None
    rivals: tuple[int, ...] = ()
    close: tuple[int, ...] = ()


def match_address(query: str, places: Sequence[tuple[str, float, float]]) -> AddressMatch:
    """The place among ``places`` (``(address, longitude, latitude)``) that ``query`` designates.

    An address equal to the query (ignoring case, punctuation and spacing) wins. Otherwise the
    best :func:`address_score` ≥ :data:`ADDRESS_THRESHOLD` wins, ties broken by plain
    similarity, then data order — unless another place more than :data:`SAME_PLACE_M` metres
    away scores within :data:`RIVAL_MARGIN` of it: then the query is ambiguous and designates
    none ("Wenling Rice Cake" when two such shops are known). Never a place the query does not
    designate.
    """
    q = fold(query)
    for i, (address, _, _) in enumerate(places):
        if q and fold(address) == q:
            return AddressMatch(i)
    scored = []
    for i, (address, _, _) in enumerate(places):
        score = address_score(query, address)
        if score >= ADDRESS_THRESHOLD:
            scored.append((score, float(fuzz.ratio(query, address, processor=fold)), -i))
    if not scored:
        return AddressMatch(None, close=_closest(query, places))
    scored.sort(reverse=True)
    best_score, _, best = scored[0]
    _, lon, lat = places[-best]
    rivals = [
        -i
        for score, _, i in scored[1:]
        if score >= best_score - RIVAL_MARGIN
        and haversine_m(lon, lat, places[-i][1], places[-i][2]) > SAME_PLACE_M
    ]
    if rivals:
        return AddressMatch(None, rivals=(-best, *rivals))
    return AddressMatch(-best)


def _closest(
    query: str, places: Sequence[tuple[str, float, float]], limit: int = 3
) -> tuple[int, ...]:
    scored = sorted(
        (-fuzz.token_set_ratio(query, address, processor=fold), i)
        for i, (address, _, _) in enumerate(places)
    )
    return tuple(i for score, i in scored[:limit] if -score >= _CLOSE_THRESHOLD)


def city_core(city: str) -> str:
    """``city`` without a trailing "City" / "市" (``"Kunming City"`` → ``"Kunming"``), NFKC
    normalised."""
    text = unicodedata.normalize("NFKC", city).strip()
    for suffix in _CITY_SUFFIXES:
        if text.lower().endswith(suffix) and len(text) > len(suffix):
            return text[: -len(suffix)].strip()
    return text


_STREET_WORDS = frozenset(
    ("road", "rd", "street", "st", "avenue", "ave", "lane", "路", "街", "大道")
)


def _city_mentions(city: str, text: str) -> list[str]:
    """For each place ``text`` names ``city`` (its core, see :func:`in_city`), the word that
    follows it ("" at the end; for Chinese text, the next character)."""
    core = fold(city_core(city))
    hay = fold(text)
    if not core or not hay:
        return []
    if _has_cjk(core):
        needle, flat = core.replace(" ", ""), hay.replace(" ", "")
        return [flat[i + len(needle) : i + len(needle) + 2] for i in _find_all(flat, needle)]
    compact = core.replace(" ", "")
    words = hay.split()
    found = []
    for i in range(len(words)):
        joined = ""
        for j in range(i, len(words)):
            joined += words[j]
            if joined == compact:
                found.append(words[j + 1] if j + 1 < len(words) else "")
            if len(joined) >= len(compact):
                break
    return found


def _find_all(text: str, needle: str) -> list[int]:
    out, start = [], text.find(needle)
    while start >= 0:
        out.append(start)
        start = text.find(needle, start + 1)
    return out


def in_city(city_name: str, text: str) -> bool:
    """Whether ``text`` (an address or a city field) lies in / names the city ``city_name``.

    The city name without a trailing "City" / "市" must appear in ``text``: as a run of whole
    words for Latin text (so "Xi'an" and "Xian" both match "… Xi'an, Shaanxi" but "Xi'an" does
    not match "Xiamen", nor "Huzhou" "Suzhou"), as a substring for Chinese text. Case and
    punctuation are ignored.
    """
    return bool(_city_mentions(city_name, text))


@dataclass(frozen=True)
class CityMatch:
    """The outcome of :func:`match_city`: the city (index) or, when None, the ``rivals`` it
    could equally be or the ``close`` names worth suggesting."""

    index: int | None
    rivals: tuple[int, ...] = ()
    close: tuple[int, ...] = ()


def match_city(place: str, cities: Sequence[str]) -> CityMatch:
    """The city of ``cities`` that ``place`` (a city name or an address) names.

    A city is named when :func:`in_city` holds. Several named: a mention directly followed
    by a street word ("Beijing Road, Guiyang") does not count; if several remain, the place is
    ambiguous. None named: the most similar names are suggested — never another city.
    """
    named = [i for i, c in enumerate(cities) if in_city(c, place)]
    if len(named) > 1:
        kept = [
            i
            for i in named
            if any(nxt not in _STREET_WORDS for nxt in _city_mentions(cities[i], place))
        ]
        named = kept or named
    if len(named) == 1:
        return CityMatch(named[0])
    if named:
        return CityMatch(None, rivals=tuple(named))
    scored = sorted(
        (-fuzz.WRatio(place, city_core(c), processor=fold), i) for i, c in enumerate(cities)
    )
    return CityMatch(None, close=tuple(i for score, i in scored[:3] if -score >= _CLOSE_THRESHOLD))


def keyword_query(keywords: Sequence[str]) -> str:
    """The search query: non-blank keywords joined by single spaces."""
    return " ".join(k.strip() for k in keywords if k.strip())


def _query_words(text: str) -> list[str]:
    processed: str = fold(text)
    words = processed.split()
    return list(dict.fromkeys([w for w in words if w not in _STOP_WORDS] or words))


def search_score(query: str, document: str) -> float:
    """How completely ``document`` contains the words of ``query`` (0–100).

    Each query word counts by its length and is found if the document has the same word or a
    close spelling variant ("noodle" / "noodles"); the length of the document does not matter.
    Chinese text (no word boundaries): best partial alignment.
    """
    return _SearchQuery(query).score(document)


class _SearchQuery:
    """A query read once (folded, its words, whether it is Chinese) for scoring many
    documents: :func:`search_score` of each document, without reading the query again."""

    __slots__ = ("cjk", "folded", "words")

    def __init__(self, query: str) -> None:
        self.folded = fold(query)
        self.cjk = _has_cjk(self.folded)
        self.words = _query_words(query)

    def score(self, document: str) -> float:
        q, d = self.folded, fold(document)
        if not q or not d:
            return 0.0
        if self.cjk or _has_cjk(d):
            return float(fuzz.partial_ratio(q, d))
        return 100.0 * _coverage(self.words, d.split())


def rank(
    query: str, documents: Sequence[str], limit: int, titles: Sequence[str] | None = None
) -> list[int]:
    """Indices of the ``limit`` documents most relevant to ``query``, best first.

    Primary key: :func:`search_score` over the whole document (name, store, tags). Ties —
    several documents containing every query word — go to the document whose title (product
    or store name) is most similar to the query, then to the earlier document.
    """
    search = _SearchQuery(query)
    q = search.folded
    heads = titles if titles is not None else documents
    if len(heads) != len(documents):
        raise ValueError("rank: one title per document")
    scores = [search.score(doc) for doc in documents]
    order = sorted(range(len(documents)), key=lambda i: (-scores[i], i))
    # The title similarities only order documents of equal score: compute them for the
    # documents that can still be among the first ``limit`` (those scoring at least as much
    # as the ``limit``-th), not for every document.
    kept = limit if 0 < limit < len(order) else len(order)
    floor = scores[order[kept - 1]] if order else 0.0
    scored = []
    for i in order:
        if scores[i] < floor:
            break
        h = fold(heads[i])
        scored.append((scores[i], float(fuzz.WRatio(q, h)), float(fuzz.ratio(q, h)), i))
    scored.sort(key=lambda item: (-item[0], -item[1], -item[2], item[3]))
    return [item[3] for item in scored[:limit]]

"""Comparison of short free texts (notes, attribute options) for state grading.

The rule (documented with its examples in docs/evaluation.md, "Comparing text"): two texts are
the same when they have the same **meaning key**. The key is built as follows:

1. Unicode NFKC (full-width letters and digits become ASCII), case folding, ``n't`` → ``not``;
   a level written in tenths becomes a percentage before a sugar, sweetness or ice word
   ("Three Parts Sweet" = "30% Sweet", ``三分糖`` = ``3分糖`` = ``30%糖``); "tomato sauce" is
   "ketchup" (``番茄酱`` is both).
2. The text is cut into clauses at punctuation (``, ; . ! ? / | ( ) 、，；。！？（）【】`` …); the
   order of the clauses does not matter ("Less ice, no sugar" = "No sugar, less ice").
3. Each clause becomes tokens: Latin words and numbers (``%`` and hyphens dropped), and single
   Chinese characters. Filler words that carry no request (``please``, ``the``, ``with``,
   ``and``, ``请``, ``的``, ``要`` …) are dropped; plurals are folded (``onions`` → ``onion``);
   a few spelling variants of the same request share one token (``regular`` / ``normal`` /
   ``standard``; ``extra`` / ``more`` / ``additional`` / ``added``; ``cutlery`` / ``tableware``
   / ``utensils``; ``portion`` / ``serving``; ``approx`` / ``approximately`` / ``around`` /
   ``roughly`` / ``about``; ``approx.`` is ``about`` and ``No.`` before a number is ``number``,
   their periods separating nothing); every negation (``no``, ``not``, ``non``, ``without``, ``不``, ``无``, ``没``,
   ``别`` …, and ``un-`` before a participle: ``unseparated`` → ``not separated``) becomes one
   negation token.
4. A clause whose tokens include a negation, two or more degree words (``extra``, ``less``,
   ``only``, ``half`` …) or any Chinese character keeps its word order; any other clause is
   compared as a multiset of words ("Cilantro only" = "Only with cilantro").

Consequences, by construction: a phrase and its negation never share a key (the negation token
is a token); a phrase that adds or drops a qualifier never shares a key (a token more or less);
swapping what a negation or a degree word applies to changes the key (order is kept there).
The price is that some true paraphrases are told apart ("No cilantro" vs "Hold the cilantro");
grading prefers a wrong *reject* of a paraphrase to a wrong *accept* of a different request.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

#: One clause: ("o", tokens in order) or ("u", tokens sorted).
ClauseKey = tuple[str, tuple[str, ...]]
#: The key of a text: its clause keys, sorted.
TextKey = tuple[ClauseKey, ...]

NEGATION = "¬"
"""The token every negation becomes."""

_CLAUSE_SPLIT = re.compile(r"[,;.!?/|()\[\]{}<>:、，；。！？（）【】《》：]+")
_TOKEN = re.compile(r"[a-z0-9]+|[\u3400-\u9fff]")
_CJK = re.compile(r"[\u3400-\u9fff]")
_NOT_CONTRACTION = re.compile(r"n['’]t\b")
_APOSTROPHE = re.compile(r"['’`]")

_EN_NEGATIONS = frozenset(
    [
        "no",
        "not",
        "non",
        "without",
        "never",
        "none",
        "nor",
        "cannot",
        "cant",
        "dont",
        "doesnt",
        "didnt",
        "wont",
        "isnt",
        "arent",
    ]
)
_ZH_NEGATIONS = frozenset("不无没别勿免非未")
_EN_FILLERS = frozenset(
    [
        "a",
        "an",
        "the",
        "please",
        "kindly",
        "with",
        "and",
        "or",
        "of",
        "for",
        "to",
        "in",
        "on",
        "at",
        "by",
        "my",
        "me",
        "i",
        "you",
        "your",
        "it",
        "its",
        "is",
        "are",
        "be",
        "do",
        "does",
        "did",
        "some",
        "just",
        "thanks",
        "thank",
        "thx",
        "level",
        "pls",
        "plz",
    ]
)
# Multi-character Chinese fillers are removed before single ones.
_ZH_FILLERS = (
    "麻烦",
    "谢谢",
    "一下",
    "帮忙",
    "帮我",
    "需要",
    "请",
    "要",
    "的",
    "了",
    "呢",
    "吧",
    "啊",
    "您",
)
_SYNONYMS = {
    "regular": "normal",
    "standard": "normal",
    "usual": "normal",
    "more": "extra",
    "additional": "extra",
    "added": "extra",
    "tableware": "cutlery",
    "utensil": "cutlery",
    "portion": "serving",
    "approx": "about",
    "approximately": "about",
    "around": "about",
    "roughly": "about",
}
# A level in tenths ("three parts sweet", 三分糖) is a percentage; only before these words.
_LEVEL_WORDS = "sugar|sweet|sweetness|ice"
_EN_TENTHS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_EN_LEVEL = re.compile(rf"\b({'|'.join(_EN_TENTHS)}|10|[1-9])\s+parts?(?=\s+(?:{_LEVEL_WORDS})\b)")
_ZH_TENTHS = {c: i for i, c in enumerate("一二三四五六七八九十", 1)}
_ZH_LEVEL = re.compile(r"(10|[1-9]|[一二三四五六七八九十])分(?=[糖甜冰])")
_PHRASES = (
    # abbreviations whose period is not a clause separator
    (re.compile(r"\b(?:approx|ca|abt)\.(?!\w)"), "about "),
    (re.compile(r"\bno\.\s*(?=\d)"), "number "),
    (re.compile(r"\btomato sauce\b"), "ketchup"),
)
_DEGREE = frozenset(
    [
        "extra",
        "less",
        "normal",
        "only",
        "half",
        "double",
        "little",
        "few",
        "much",
        "light",
        "heavy",
        "mild",
        "medium",
        "strong",
        "weak",
        "big",
        "small",
        "large",
        "high",
        "low",
        "full",
    ]
)
# Chinese characters of degree or polarity (less, more, slight, medium, extra, super, add,
# reduce, half, full, only, big, small, normal, standard, remove, both/all excluded).
_ZH_DEGREE = frozenset("少多微中特超加减半全只仅大小正常标准去")
_UN_SUFFIXES = ("ed", "ing", "able", "ible")


def normalise(text: str) -> str:
    """NFKC, case-folded, single-spaced text (the form every comparison starts from)."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _stem(word: str) -> str:
    """Fold English plurals ("onions" → "onion", "dishes" → "dish", "berries" → "berry")."""
    if len(word) <= 3 or word.endswith(("ss", "us", "is")) or not word.endswith("s"):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "zes", "sses")):
        return word[:-2]
    return word[:-1]


def _tokens(clause: str) -> list[str]:
    for filler in _ZH_FILLERS:
        clause = clause.replace(filler, " ")
    out: list[str] = []
    for raw in _TOKEN.findall(clause):
        if raw in _ZH_NEGATIONS:
            out.append(NEGATION)
            continue
        if raw in _EN_NEGATIONS:
            out.append(NEGATION)
            continue
        if raw in _EN_FILLERS:
            continue
        if raw.startswith("un") and len(raw) >= 7 and raw.endswith(_UN_SUFFIXES):
            out += [NEGATION, _SYNONYMS.get(raw[2:], raw[2:])]
            continue
        word = _stem(raw)
        out.append(_SYNONYMS.get(word, word))
    return out


def _clause_key(tokens: list[str]) -> ClauseKey:
    ordered = (
        NEGATION in tokens
        or sum(t in _DEGREE for t in tokens) >= 2
        or any(_CJK.match(t) for t in tokens)
    )
    return ("o", tuple(tokens)) if ordered else ("u", tuple(sorted(tokens)))


def _tenths(number: str) -> int:
    return int(number) if number.isdigit() else _EN_TENTHS.get(number) or _ZH_TENTHS[number]


def _clauses(text: str | Iterable[str]) -> list[list[str]]:
    """The token lists of the clauses of ``text``, in text order (empty clauses dropped)."""
    if not isinstance(text, str):
        text = ", ".join(str(part) for part in text)
    clean = _NOT_CONTRACTION.sub(" not", normalise(text))
    clean = _APOSTROPHE.sub("", clean)  # other punctuation (- % …) separates words
    clean = _EN_LEVEL.sub(lambda m: f"{10 * _tenths(m.group(1))}%", clean)
    clean = _ZH_LEVEL.sub(lambda m: f"{10 * _tenths(m.group(1))}%", clean)
    for phrase, canonical in _PHRASES:
        clean = phrase.sub(canonical, clean)
    clauses = [_tokens(part) for part in _CLAUSE_SPLIT.split(clean)]
    return [tokens for tokens in clauses if tokens]


def text_key(text: str | Iterable[str]) -> TextKey:
    """The meaning key of ``text`` (a list of parts counts as its comma-joined form)."""
    return tuple(sorted(_clause_key(tokens) for tokens in _clauses(text)))


def text_tokens(text: str | Iterable[str]) -> tuple[str, ...]:
    """The tokens of ``text`` as the meaning key reads them, in text order (clause after
    clause): what :mod:`~lifebench.vita.grading.options` compares when a wording is a shortened
    or extended form of an offered option."""
    return tuple(token for tokens in _clauses(text) for token in tokens)


def clause_texts(text: str) -> list[str]:
    """The clauses of ``text`` as written (split where the meaning key splits), blank ones
    dropped."""
    folded = unicodedata.normalize("NFKC", text)
    return [part.strip() for part in _CLAUSE_SPLIT.split(folded) if part.strip()]


def is_cjk(token: str) -> bool:
    """Whether ``token`` is a Chinese character (the meaning key's Chinese tokens)."""
    return bool(_CJK.match(token))


def is_modifier(token: str) -> bool:
    """Whether ``token`` changes the degree or polarity of what it qualifies: the negation, a
    degree word, a number, or a Chinese character of degree or polarity (少 多 微 去 只 …)."""
    return (
        token == NEGATION
        or token in _DEGREE
        or token in _ZH_DEGREE
        or any(c.isdigit() for c in token)
    )


def same_text(a: str | Iterable[str], b: str | Iterable[str]) -> bool:
    """Whether two texts make the same request (see the module docstring for the rule)."""
    return text_key(a) == text_key(b)


def is_blank(text: str | Iterable[str] | None) -> bool:
    """True for ``None``, ``""``, an empty list, or text without a single word."""
    return text is None or not text_key(text)


def negated(text: str, language: str = "en") -> str:
    """``text`` with its meaning reversed (for near-miss tests): drop a leading negation, or add
    one ("No green onions" → "green onions"; "Less seasoning" → "No less seasoning")."""
    stripped = text.strip()
    match = re.match(r"(?i)(no|not|without|don't|do not)\s+", stripped)
    if match:
        return stripped[match.end() :]
    for prefix in ("不要", "不", "无", "没有", "别"):
        if stripped.startswith(prefix):
            return stripped[len(prefix) :]
    return f"不{stripped}" if language == "zh" or _CJK.search(stripped) else f"No {stripped}"

"""Tolerant reading of the judge's and the meta-judge's XML answers.

The official format is ``<response><DIM><reasoning>…</reasoning><rating>LEVEL</rating></DIM>…
</response>`` (one block per dimension) and ``<meta_evaluation><reasoning>…</reasoning>
<rating>LEVEL</rating></meta_evaluation>``, with LEVEL one of 极差 / 较差 / 一般 / 较好 / 优秀
(1…5). The official reader strips a leading ```` ```xml ```` fence, cuts out ``<response>…
</response>``, parses it with an XML parser (after a tag repair) and maps the rating text
*exactly*; anything else leaves that dimension unrated.

This reader is deliberately more forgiving, because a judge's formatting slip should not change
a score: it never needs well-formed XML (text such as ``距离<5km`` in a reasoning, unclosed tags,
missing ``</response>``, code fences anywhere, XML comments, entities), takes the last complete
block of a dimension when the judge echoed the template first, and reads a rating given as the
Chinese word with decoration (``**较好**``, ``“较好”``, ``评级：较好``), as its English
equivalent (``good``) or as the number itself (``4``, ``4/5``). A rating it still cannot read
leaves the dimension unrated, as in the official reader.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

RATING_WORDS: Mapping[str, int] = {"极差": 1, "较差": 2, "一般": 3, "较好": 4, "优秀": 5}
"""The official five levels and their values."""

ENGLISH_RATING_WORDS: Mapping[str, int] = {
    "very poor": 1,
    "poor": 2,
    "fair": 3,
    "good": 4,
    "excellent": 5,
}
"""The levels of the English judge prompt."""

WORD_OF_VALUE: Mapping[int, str] = {v: k for k, v in RATING_WORDS.items()}

_FENCE = re.compile(r"^[ \t]*```[a-zA-Z]*[ \t]*$", re.MULTILINE)
_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
_EDGE = "\\s\"'“”‘’「」『』《》*_`#:：\\-—\\[\\]()（）【】<>.,，。;；!！?？"
_TRIM = re.compile(f"^[{_EDGE}]+|[{_EDGE}]+$")
_LABEL = re.compile(r"^(?:评级|评分|等级|rating|level|score)\s*[:：=]\s*", re.IGNORECASE)
_NUMBER = re.compile(r"^([1-5])(?:\s*(?:/|out of|分|／)\s*5?)?(?:\s*分)?$", re.IGNORECASE)


def rating_value(text: str) -> int | None:
    """The 1–5 value of a rating text, or None when it names no level unambiguously."""
    cleaned = _TRIM.sub("", html.unescape(text).strip())
    cleaned = _TRIM.sub("", _LABEL.sub("", cleaned))
    if not cleaned:
        return None
    if cleaned in RATING_WORDS:
        return RATING_WORDS[cleaned]
    lowered = " ".join(cleaned.lower().split())
    if lowered in ENGLISH_RATING_WORDS:
        return ENGLISH_RATING_WORDS[lowered]
    number = _NUMBER.match(lowered)
    if number:
        return int(number.group(1))
    if len(cleaned) <= 20:  # e.g. "较好（4）": one level named, nothing contradicting it
        found = {v for w, v in RATING_WORDS.items() if w in cleaned}
        if len(found) == 1:
            return found.pop()
    return None


@dataclass(frozen=True)
class Verdict:
    """One dimension (or the meta-judge): its reasoning, the rating as written and its value."""

    reasoning: str = ""
    rating: str = ""
    value: int | None = None


@dataclass(frozen=True)
class JudgeReply:
    """A parsed judge answer: a verdict for each requested dimension (value None = unrated)."""

    verdicts: dict[str, Verdict] = field(default_factory=dict)

    def ratings(self) -> dict[str, int | None]:
        """Dimension → value (None when unrated)."""
        return {d: v.value for d, v in self.verdicts.items()}

    @property
    def rated(self) -> list[str]:
        """Dimensions with a value."""
        return [d for d, v in self.verdicts.items() if v.value is not None]


def clean_reply(text: str) -> str:
    """The reply without code-fence lines and XML comments."""
    return _COMMENT.sub("", _FENCE.sub("", text))


def _open(tag: str) -> re.Pattern[str]:
    return re.compile(f"<\\s*{re.escape(tag)}(?:\\s[^<>]*)?>", re.IGNORECASE)


def _segment(text: str, tag: str, stops: Sequence[str]) -> list[str]:
    """Every ``<tag>…`` segment: up to ``</tag>``, else up to the next stop tag, else the end."""
    closing = re.compile(f"<\\s*/\\s*{re.escape(tag)}\\s*>", re.IGNORECASE)
    stop = (
        re.compile("|".join(f"<\\s*/?\\s*{re.escape(s)}(?:\\s[^<>]*)?>" for s in stops), re.I)
        if stops
        else None
    )
    out = []
    for match in _open(tag).finditer(text):
        rest = text[match.end() :]
        end = closing.search(rest)
        cut = len(rest) if end is None else end.start()
        if stop is not None:
            early = stop.search(rest, 0, cut)
            if early is not None:
                cut = early.start()
        out.append(rest[:cut])
    return out


def _field(block: str, tag: str, stops: Sequence[str]) -> str | None:
    parts = _segment(block, tag, stops)
    if not parts:
        return None
    return html.unescape(parts[-1]).strip()


def _verdict(block: str) -> Verdict:
    reasoning = _field(block, "reasoning", ("rating",)) or ""
    rating = _field(block, "rating", ("reasoning",))
    if rating is None:
        return Verdict(reasoning=reasoning)
    rating = rating.split("<", 1)[0].strip()
    return Verdict(reasoning=reasoning, rating=rating, value=rating_value(rating))


def _root(text: str, tag: str) -> str:
    parts = _segment(text, tag, ())
    return parts[-1] if parts else text


def parse_judge_reply(text: str, dimensions: Sequence[str]) -> JudgeReply | None:
    """Read the verdict of each of ``dimensions`` from a judge reply.

    Returns None when the reply has none of the dimension blocks at all; dimensions whose block
    is missing or whose rating cannot be read are present with ``value`` None.
    """
    body = _root(clean_reply(text), "response")
    verdicts: dict[str, Verdict] = {}
    seen = False
    for dim in dimensions:
        others = [d for d in dimensions if d != dim] + ["response"]
        blocks = _segment(body, dim, others)
        seen = seen or bool(blocks)
        chosen = Verdict()
        for block in blocks:  # the last readable block wins (a template echo comes first)
            verdict = _verdict(block)
            if verdict.value is not None or chosen.value is None:
                chosen = verdict
        verdicts[dim] = chosen
    return JudgeReply(verdicts) if seen else None


def parse_meta_reply(text: str) -> Verdict | None:
    """Read the meta-judge's verdict; None when the reply has no rating element at all."""
    body = _root(clean_reply(text), "meta_evaluation")
    if not _open("rating").search(body):
        return None
    return _verdict(body)

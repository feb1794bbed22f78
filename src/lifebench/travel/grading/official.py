"""The official TravelBench scoring of the same stored outputs (small-xiangcheng/TravelBench 445a29d:
``evaluation/evaluate.py``, ``utils/eval_util.py``, ``evaluation/evaluate_unsolved.py`` and
``scripts/eval.sh``), rebuilt in our own words, and why it differs from lifebench's.

What the official code does, and so what this module reproduces from the judge answers lifebench
stored (``judge_replies``, ``meta_replies``: every attempt, in order):

* **Reading a judge answer.** The text is stripped; a leading ```` ```xml ```` and a trailing
  ```` ``` ```` are cut; the *first* ``<response>…</response>`` is kept when there is one; the
  rest must parse as XML, either as it is or after the official tag repair
  (:func:`repair_tags`), else the attempt is unreadable. Each dimension is the *first* child
  element of that exact tag name, and its rating counts only when its stripped text is exactly
  one of the five level words. An attempt is usable when one dimension or more is rated.
* **What it retries.** The official judge asks the *same* prompt again (up to 10 times) while
  an answer is unusable; a judge at temperature 0 answers the same prompt the same way, so the
  official reading is that of the judge's *first* answer (lifebench's re-asks are other prompts,
  whose answers the official code would never see): a first answer the official reader cannot
  use means the official loop drops the trajectory.
* **What it drops.** A trajectory without a usable answer is not in the results at all (it leaves
  ``total_trajectories``).
* **The meta-judge** answer must be XML whose ``<rating>`` child is exactly a level word (no tag
  repair); otherwise the factor stays 1.
* **A failed run** (an infrastructure error, or a request the provider rejected) is in the
  official results file without messages: the judge sees an empty conversation and the unsolved
  check finds no reply. lifebench makes no judge call for it and counts it as the lowest rating
  on every dimension — 0 points, whatever the meta-judge says — and as not unsolved.
* **Scores.** Per dimension the mean of the final scores of the trajectories rated on it (0 when
  none is), then the mean over the dimensions; unsolved accuracy = answers whose *first*
  assistant message contains ``[Unsolved]`` / all trajectories. The overall is what ``eval.sh``
  prints: the three subset numbers formatted with two decimals, averaged, formatted again.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from lifebench.travel.grading.parse import RATING_WORDS

REFERENCE = (
    "small-xiangcheng/TravelBench 445a29d (evaluation/evaluate.py, utils/eval_util.py, "
    "evaluation/evaluate_unsolved.py, scripts/eval.sh)"
)

_TAG = re.compile(r"</?[^>]+>")
_RESPONSE = re.compile(r"<response>(.*?)</response>", re.DOTALL)
_META = re.compile(r"<meta_evaluation>(.*?)</meta_evaluation>", re.DOTALL)
_CHILDREN = ("<reasoning>", "</reasoning>", "<rating>", "</rating>")


def _unfence(text: str) -> str:
    body = text.strip()
    if body.startswith("```xml"):
        body = body[len("```xml") :]
    if body.endswith("```"):
        body = body[: -len("```")]
    return body.strip()


def repair_tags(text: str, dimensions: Sequence[str]) -> str:
    """The official best-effort tag repair, tried once when the XML does not parse.

    Every ``<…>`` run is a tag. Opening tags are stacked under their text between the brackets.
    A closing tag that matches the top of the stack closes it; when that is a dimension, a
    missing ``</reasoning>``, and (if the dimension has a reasoning) a missing ``<rating>`` or
    ``</rating>``, are inserted before the closing tag. A closing tag that matches a deeper
    entry closes — by inserting closing tags before it — every entry from the top down to *and
    including* that one (so it is closed twice). A closing tag that matches nothing is left.
    Entries still open at the end are closed at the end of the text, innermost first.
    """
    tags = list(_TAG.finditer(text))
    if not tags:
        return text
    stack: list[tuple[str, int]] = []  # (name, index of its tag)
    inserts: list[tuple[int, str]] = []
    for index, match in enumerate(tags):
        tag = match.group()
        if not tag.startswith("</"):
            stack.append((tag[1:-1], index))
            continue
        name = tag[2:-1]
        if stack and stack[-1][0] == name:
            _, opened = stack.pop()
            if name in dimensions:
                inner = [t.group() for t in tags[opened + 1 : index]]
                has = {child: child in inner for child in _CHILDREN}
                if has["<reasoning>"] and not has["</reasoning>"]:
                    inserts.append((match.start(), "</reasoning>"))
                if has["<reasoning>"] or has["</reasoning>"]:
                    if not has["<rating>"]:
                        inserts.append((match.start(), "<rating>"))
                    if not has["</rating>"]:
                        inserts.append((match.start(), "</rating>"))
            continue
        depth = next((i for i in range(len(stack) - 1, -1, -1) if stack[i][0] == name), None)
        if depth is not None:
            while len(stack) > depth:
                unclosed, _ = stack.pop()
                inserts.append((match.start(), f"</{unclosed}>"))
    inserts.extend((len(text), f"</{name}>") for name, _ in reversed(stack))
    for position, inserted in reversed(inserts):
        text = text[:position] + inserted + text[position:]
    return text


@dataclass(frozen=True)
class OfficialReading:
    """One judge answer as the official reader sees it: per dimension, the rating text of its
    first element (None: no such element; "" : an element without rating text)."""

    ratings: dict[str, str | None] = field(default_factory=dict)

    def values(self) -> dict[str, int | None]:
        """Dimension → 1…5 when the rating text is exactly a level word, else None."""
        return {d: RATING_WORDS.get(t) if t is not None else None for d, t in self.ratings.items()}

    @property
    def usable(self) -> bool:
        """The official loop accepts the answer: at least one dimension is rated."""
        return any(v is not None for v in self.values().values())


def _child_text(element: ET.Element, tag: str) -> str | None:
    child = element.find(tag)
    if child is None:
        return None
    return (child.text or "").strip()


def read_judge_answer(text: str, dimensions: Sequence[str]) -> OfficialReading | None:
    """The official reading of one judge answer; None when it is not XML even after repair."""
    body = _unfence(text)
    block = _RESPONSE.search(body)
    if block:
        body = f"<response>{block.group(1)}</response>"
    try:
        try:
            root = ET.fromstring(body)
        except ET.ParseError:
            root = ET.fromstring(repair_tags(body, dimensions))
    except Exception:  # the official reader turns every failure into "retry"
        return None
    ratings: dict[str, str | None] = {}
    for dim in dimensions:
        element = root.find(dim)
        ratings[dim] = None if element is None else (_child_text(element, "rating") or "")
    return OfficialReading(ratings)


def read_meta_answer(text: str) -> str | None:
    """The rating text of a meta-judge answer as the official reader sees it (None when the
    answer is not XML; "" when it has no rating)."""
    body = _unfence(text)
    block = _META.search(body)
    if block:
        body = f"<meta_evaluation>{block.group(1)}</meta_evaluation>"
    try:
        root = ET.fromstring(body)
    except Exception:
        return None
    return _child_text(root, "rating") or ""


@dataclass(frozen=True)
class OfficialJudgement:
    """The official reading of the judge's first answer."""

    reading: OfficialReading


def official_judgement(
    replies: Sequence[str], dimensions: Sequence[str]
) -> OfficialJudgement | None:
    """The official reading of the first stored answer (None: the official loop would drop the
    trajectory, or no answer is stored)."""
    if not replies:
        return None
    reading = read_judge_answer(replies[0], dimensions)
    if reading is None or not reading.usable:
        return None
    return OfficialJudgement(reading)


def drop_class(replies: Sequence[str], dimensions: Sequence[str]) -> str:
    """Why the official loop drops a trajectory whose first answer it cannot use: the answer is
    not XML even after the tag repair, or no dimension has an exact level word."""
    reading = read_judge_answer(replies[0], dimensions) if replies else None
    return "official_drops_unparsable_xml" if reading is None else "official_drops_no_exact_rating"


def official_meta(replies: Sequence[str]) -> int | None:
    """The meta rating of the first stored meta answer as the official reader sees it (None:
    the factor stays 1)."""
    rating = read_meta_answer(replies[0]) if replies else None
    return RATING_WORDS.get(rating) if rating is not None else None


def block_count(text: str, dimension: str) -> int:
    """How many ``<dimension>`` opening tags an answer holds (a template echo makes two)."""
    return len(re.findall(f"<{re.escape(dimension)}>", text))


def rating_classes(
    reading: OfficialJudgement,
    first_answer: str,
    ours: Mapping[str, int | None],
    ours_attempt: int | None,
) -> list[str]:
    """Why the official ratings of a trajectory differ from lifebench's (empty: they agree)."""
    classes: list[str] = []
    official = reading.reading.values()
    if ours_attempt is not None and ours_attempt > 1:
        classes.append("lifebench_used_a_reask")
    used = first_answer
    for dim, value in ours.items():
        theirs = official.get(dim)
        if theirs == value:
            continue
        if theirs is None and value is not None:
            text = reading.reading.ratings.get(dim)
            classes.append(
                "rating_not_an_exact_level_word" if text else "dimension_unread_officially"
            )
        elif theirs is not None and value is not None and block_count(used, dim) > 1:
            classes.append("duplicate_block_first_vs_last")
        else:
            classes.append("rating_read_differently")
    return classes

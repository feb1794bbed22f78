"""Wording → offered option: the one rule the delivery tool and the state grader share.

A product offers options (its ``attributes``: "Mild Spicy", "Less Ice" …); an order line
chooses at most one, or a combination of several. A wording — what an agent passes to
``create_delivery_order``, or what a task file's expected order says — names an offered option
(:func:`resolve_option`) when, in this order:

1. it is blank, or only a negation ("None", "无") that is not itself an option: **none**;
2. the product offers no options: it is **free** text (kept as given, compared by meaning key);
3. it has the meaning key of an option (:func:`~lifebench.vita.grading.text.text_key`: case,
   width, clause and word order, plurals, fillers, spelling variants such as "Regular" /
   "Normal", "More" / "Extra"): that **option**;
4. it has several clauses and each names a different option (by 3 or 5): that
   **combination** ("Less ice, No extra sugar");
5. it is a shortened or extended form of exactly one option: the shorter side's words all occur
   in the longer side (in order, unless neither side has a modifier), and every word that only
   the longer side has changes neither degree nor polarity — no negation, degree word, number
   or Chinese degree character (:func:`~lifebench.vita.grading.text.is_modifier`). "White Oreo
   Flavor" names "White Skin Oreo Flavor", "Mild Spicy" names "Mild", "辣椒醋包" names
   "辣椒醋包都要" — but "Ice" never names "No Ice", "Less Ice" or "Standard Ice", "Spicy" never
   names "Extra Spicy", "Sugar" never names "50% Sugar";
6. several options fit rule 5: **ambiguous** (the tool refuses and lists them; the grader
   cannot check the line); none fits: **unmatched** (the tool refuses and lists the offered
   options; the grader cannot check the line).

The tool stores the offered spelling of what the wording names, so a created order's line and
the grader's expectation are read by the same rule. :func:`attribute_rule` turns the resolution
of an expected wording into what the chosen attribute must be; ``tasks validate`` lists every
expected wording that is not an option as written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from lifebench.vita.grading.text import (
    NEGATION,
    TextKey,
    clause_texts,
    is_cjk,
    is_modifier,
    text_key,
    text_tokens,
)
from lifebench.vita.task import VitaTask

Mapping_ = Literal["none", "option", "combination", "free", "unmatched"]
Resolution = Literal["none", "option", "combination", "free", "ambiguous", "unmatched"]

_LONE_NEGATION: TextKey = (("o", (NEGATION,)),)


@dataclass(frozen=True)
class OptionChoice:
    """What a wording names among a product's offered options (see the module docstring).

    Attributes:
        text: The wording as given.
        how: ``none``, ``free``, ``option``, ``combination``, ``ambiguous`` or ``unmatched``.
        option: The offered spelling to store (comma-joined for a combination; the text with
            its spaces collapsed for free text; "" otherwise).
        candidates: For ``ambiguous``, the options the wording could name.
    """

    text: str
    how: Resolution
    option: str = ""
    candidates: tuple[str, ...] = ()

    @property
    def resolved(self) -> bool:
        """Whether the wording names something a line can store (none and free included)."""
        return self.how not in ("ambiguous", "unmatched")


def _extra(short: Sequence[str], long: Sequence[str], ordered: bool) -> list[str] | None:
    """The tokens of ``long`` left over once ``short`` is found in it (in order when
    ``ordered``); None when ``short`` is not found."""
    if not ordered:
        rest = Counter(long)
        rest.subtract(short)
        if any(n < 0 for n in rest.values()):
            return None
        return list(rest.elements())
    left: list[str] = []
    i = 0
    for token in long:
        if i < len(short) and token == short[i]:
            i += 1
        else:
            left.append(token)
    return left if i == len(short) else None


def _forms(wording: str, option: str) -> tuple[bool, list[str]] | None:
    """(whether ``wording`` is the shorter side, the tokens only the longer side has) when one
    is a shortened form of the other (in order when either has a modifier); None otherwise."""
    want, have = text_tokens(wording), text_tokens(option)
    if not want or not have or len(want) == len(have):
        return None
    shorter = len(want) < len(have)
    short, long = (want, have) if shorter else (have, want)
    ordered = any(is_modifier(t) for t in (*short, *long))
    extra = _extra(short, long, ordered)
    return None if extra is None else (shorter, extra)


def names(wording: str, option: str) -> bool:
    """Rule 5: whether ``wording`` names ``option`` as a shortened or extended form of it (not
    when both read the same). The longer side may not repeat a word of the shorter one; an
    extended wording may not add a clause of its own ("Hot, Warm" does not name "Hot"); an
    option may ("70% Sweet" names "70% Sweet (Recommended)")."""
    forms = _forms(wording, option)
    if forms is None:
        return False
    shorter, extra = forms
    if any(is_modifier(t) for t in extra):
        return False
    want, have = text_tokens(wording), text_tokens(option)
    if set(extra) & set(want if shorter else have):
        return False  # a word said twice is another request ("Hot, Hot")
    if all(is_cjk(t) for t in want + have) and min(len(want), len(have)) < 2:
        return False  # one Chinese character is no word ("辣" is not in "辣椒")
    return shorter or all(
        any(t in have for t in text_tokens(clause)) for clause in clause_texts(wording)
    )


def _near(wording: str, option: str) -> bool:
    """Whether ``option`` is ``wording`` with a degree added ("Less Spicy", "50% Sugar",
    "只要醋包" for "Spicy", "Sugar", "醋包"): the wording may mean it, so a longer form that
    rule 5 accepts is not the only reading. An added negation is no such reading: a wording
    without one asks for the positive ("Ice" never means "No Ice")."""
    forms = _forms(wording, option)
    if forms is None:
        return False
    shorter, extra = forms
    return shorter and all(is_modifier(t) for t in extra) and any(t != NEGATION for t in extra)


def _single(text: str, by_key: Mapping[TextKey, str]) -> tuple[str | None, tuple[str, ...]]:
    """The option ``text`` names by rule 3 or 5, or None with the options it could mean: those
    rule 5 accepts and those that only add a degree to it (when there are two or more)."""
    key = text_key(text)
    if key in by_key:
        return by_key[key], ()
    fits = [o for o in by_key.values() if names(text, o)]
    near = [o for o in by_key.values() if _near(text, o)]
    if len(fits) == 1 and not near:
        return fits[0], ()
    candidates = tuple(o for o in by_key.values() if o in fits or o in near)
    return None, candidates if len(candidates) > 1 else ()


def resolve_option(text: str, offered: Sequence[str]) -> OptionChoice:
    """What ``text`` names among ``offered`` (see the module docstring)."""
    want = text_key(text)
    options = [o for o in offered if text_key(o)]
    by_key: dict[TextKey, str] = {}
    for option in options:
        by_key.setdefault(text_key(option), option)
    if not want or (want == _LONE_NEGATION and want not in by_key):
        return OptionChoice(text, "none")
    if not by_key:
        return OptionChoice(text, "free", " ".join(text.split()))
    if want in by_key:
        return OptionChoice(text, "option", by_key[want])
    if len(want) > 1:
        parts = [_single(c, by_key)[0] for c in clause_texts(text) if text_key(c)]
        if all(parts) and len(set(parts)) == len(parts):
            return OptionChoice(text, "combination", ", ".join(str(p) for p in parts))
    found, fits = _single(text, by_key)
    if found is not None:
        return OptionChoice(text, "option", found)
    if fits:
        return OptionChoice(text, "ambiguous", candidates=fits)
    return OptionChoice(text, "unmatched")


@dataclass(frozen=True)
class AttributeRule:
    """What one expected order line asks of the chosen attribute.

    Attributes:
        expected: The expected attribute as written ("" when none).
        how: ``none`` (nothing asked), ``option`` (one offered option), ``combination``
            (several offered options at once), ``free`` (the product offers no options: free
            text), ``unmatched`` (the wording names no offered option, or several: not
            checked).
        key: The meaning key the chosen attribute must have (None: anything goes).
        option: The offered spelling to choose (comma-joined for a combination; the expected
            text for free text; "" otherwise).
        offered: The product's offered options.
        candidates: For an ambiguous wording, the options it could name.
    """

    expected: str
    how: Mapping_
    key: TextKey | None
    option: str
    offered: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()

    @property
    def checked(self) -> bool:
        """Whether grading compares the chosen attribute."""
        return self.key is not None


def attribute_rule(expected: str, offered: Sequence[str]) -> AttributeRule:
    """Map ``expected`` onto ``offered`` by :func:`resolve_option`."""
    options = tuple(offered)
    choice = resolve_option(expected, options)
    if choice.how == "none":
        return AttributeRule(expected, "none", None, "", options)
    if choice.how == "free":
        return AttributeRule(expected, "free", text_key(expected), expected.strip(), options)
    if choice.how in ("option", "combination"):
        how: Mapping_ = "option" if choice.how == "option" else "combination"
        return AttributeRule(expected, how, text_key(choice.option), choice.option, options)
    return AttributeRule(expected, "unmatched", None, "", options, choice.candidates)


def product_options(product: Mapping[str, Any]) -> list[str]:
    """The options a raw catalog product offers (a string is one option, as for the tools)."""
    attrs = product.get("attributes") or []
    return [attrs] if isinstance(attrs, str) else [str(a) for a in attrs]


def offered_attributes(task: VitaTask, store_id: str, product_id: str) -> list[str]:
    """The options a delivery product offers, looked up in its store (else in any store)."""
    stores: Mapping[str, Any] = task.environment.get("stores") or {}
    ordered = [stores.get(store_id) or {}, *(s for k, s in stores.items() if k != store_id)]
    for store in ordered:
        for p in store.get("products") or []:
            if p.get("product_id") == product_id:
                return product_options(p)
    return []


def chosen_key(chosen: Any, offered: Sequence[str] = ()) -> TextKey:
    """The meaning key of a chosen attribute (a string, or a list of parts). With the
    product's ``offered`` options, a wording that names an option (or a combination) has that
    option's key, as the tool would have stored it."""
    text = ", ".join(str(c) for c in chosen) if isinstance(chosen, list) else str(chosen or "")
    if offered:
        choice = resolve_option(text, offered)
        if choice.how in ("option", "combination"):
            return text_key(choice.option)
    return text_key(text)

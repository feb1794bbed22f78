"""Expected attribute wording → what the chosen attribute of an order line must be.

English task files translate attribute options, so the expected wording often differs from the
offered spelling ("Regular Spicy" for "Normal Spicy", "No Extra Sugar (Recommended)" for
"No Additional Sugar (Recommended)"). An expected attribute is mapped onto the offered options
by meaning key (:func:`~lifebench.vita.grading.text.text_key`): the offered option with the same
key is the one to choose. Options with equal keys are the same option for grading, so the
mapping is never ambiguous. Several clauses that are each an offered option ("Less ice, No
extra sugar") expect that combination. An expected wording that no option (or combination)
matches cannot be checked: it is reported as an unchecked ask, and ``tasks validate`` lists it.
A product that offers no options takes free text, compared by meaning key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from lifebench.vita.grading.text import TextKey, text_key
from lifebench.vita.task import VitaTask

Mapping_ = Literal["none", "option", "combination", "free", "unmatched"]


@dataclass(frozen=True)
class AttributeRule:
    """What one expected order line asks of the chosen attribute.

    Attributes:
        expected: The expected attribute as written ("" when none).
        how: ``none`` (nothing asked), ``option`` (one offered option), ``combination``
            (several offered options at once), ``free`` (the product offers no options: free
            text), ``unmatched`` (no offered option has that meaning: not checked).
        key: The meaning key the chosen attribute must have (None: anything goes).
        option: The offered spelling to choose (comma-joined for a combination; the expected
            text for free text; "" otherwise).
        offered: The product's offered options.
    """

    expected: str
    how: Mapping_
    key: TextKey | None
    option: str
    offered: tuple[str, ...] = ()

    @property
    def checked(self) -> bool:
        """Whether grading compares the chosen attribute."""
        return self.key is not None


def attribute_rule(expected: str, offered: Sequence[str]) -> AttributeRule:
    """Map ``expected`` onto ``offered`` (see the module docstring)."""
    want = text_key(expected)
    options = tuple(offered)
    if not want:
        return AttributeRule(expected, "none", None, "", options)
    if not options:
        return AttributeRule(expected, "free", want, expected.strip(), options)
    by_key: dict[TextKey, str] = {}
    for option in options:
        by_key.setdefault(text_key(option), option)
    if want in by_key:
        return AttributeRule(expected, "option", want, by_key[want], options)
    parts = [by_key.get((clause,)) for clause in want]
    if all(parts):  # (one clause would have matched above)
        return AttributeRule(
            expected, "combination", want, ", ".join(str(p) for p in parts), options
        )
    return AttributeRule(expected, "unmatched", None, "", options)


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


def chosen_key(chosen: Any) -> TextKey:
    """The meaning key of a chosen attribute (a string, or a list of parts)."""
    if isinstance(chosen, list):
        return text_key([str(c) for c in chosen])
    return text_key(str(chosen or ""))

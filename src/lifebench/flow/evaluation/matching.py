"""When a predicted tool argument matches the gold one (both evaluation levels).

The rules, in order (spec §2.4–2.6, with the official weak points fixed):

* a gold argument that is empty (``""`` or blank, ``[]``, ``{}``, ``None``) is not checked and
  not counted;
* numbers match when their values are equal; a numeric string is read as its number
  (``"2"`` = ``2``, ``"2.0"`` = ``2``), anything else fails;
* booleans match booleans (or ``"true"`` / ``"false"``) of the same value;
* an enumeration (a parameter whose description lists ``Enumeration type, [A, B]``) matches
  only the same value after normalisation — no containment, no judge;
* strings are normalised (Unicode NFKC, case-folded, punctuation, symbols and every kind of
  whitespace removed); they match when equal or when the gold text is contained in the
  predicted one; otherwise the verdict is *unsure* and an optional LLM judge decides (without a
  judge, unsure is a mismatch);
* lists match when they hold the same elements (order-free, one-to-one, each element by these
  rules with no judge); otherwise unsure when any element is a string, else a mismatch;
* objects match when every non-empty gold key matches (no judge inside); unsure propagates.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any


class Verdict(Enum):
    """The rule-based outcome of comparing one gold value with one predicted value."""

    MATCH = "match"
    MISMATCH = "mismatch"
    UNSURE = "unsure"


_ENUM = re.compile(r"enumerat\w*(?:\s+type)?\s*[,:：，]?\s*\[([^\]]*)\]", re.IGNORECASE)


def enum_values(description: str) -> tuple[str, ...]:
    """The values an ``Enumeration type, [A, B]`` description allows (empty if none)."""
    m = _ENUM.search(description)
    if m is None:
        return ()
    return tuple(v.strip().strip("'\"") for v in m.group(1).split(",") if v.strip())


def is_empty(value: Any) -> bool:
    """True for values a gold argument is not checked on: None, blank strings, [] and {}."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, list | tuple | dict):
        return len(value) == 0
    return False


def normalize(text: str) -> str:
    """NFKC, case-folded, with punctuation, symbols and all whitespace removed."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if unicodedata.category(ch)[0] not in "PSZC")


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip().replace(",", ""))
        except ValueError:
            return None
    return None


def _boolean(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().casefold() in ("true", "false"):
        return value.strip().casefold() == "true"
    return None


def _text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, bool | int | float):
        return json.dumps(value)  # true / false / 2 / 2.5
    return None


def _strings(gold: str, pred: Any, enum: Sequence[str]) -> Verdict:
    text = _text(pred)
    if text is None:
        return Verdict.MISMATCH
    g, p = normalize(gold), normalize(text)
    if g == p:
        return Verdict.MATCH
    if enum:
        return Verdict.MISMATCH
    if g and g in p:
        return Verdict.MATCH
    return Verdict.UNSURE


def _lists(gold: Sequence[Any], pred: Any) -> Verdict:
    if not isinstance(pred, list | tuple):
        return Verdict.UNSURE if isinstance(pred, str) and pred.strip() else Verdict.MISMATCH
    if len(gold) != len(pred):
        return _unsure_if_strings(gold)
    unused = list(pred)
    for item in gold:
        hit = next((i for i, p in enumerate(unused) if match_value(item, p) is Verdict.MATCH), None)
        if hit is None:
            return _unsure_if_strings(gold)
        unused.pop(hit)
    return Verdict.MATCH


def _unsure_if_strings(gold: Sequence[Any]) -> Verdict:
    return Verdict.UNSURE if any(isinstance(g, str) for g in gold) else Verdict.MISMATCH


def _objects(gold: Mapping[str, Any], pred: Any) -> Verdict:
    if not isinstance(pred, Mapping):
        return Verdict.MISMATCH
    verdict = Verdict.MATCH
    for key, value in gold.items():
        if is_empty(value):
            continue
        if key not in pred:
            return Verdict.MISMATCH
        sub = match_value(value, pred[key])
        if sub is Verdict.MISMATCH:
            return Verdict.MISMATCH
        if sub is Verdict.UNSURE:
            verdict = Verdict.UNSURE
    return verdict


def match_value(gold: Any, pred: Any, enum: Sequence[str] = ()) -> Verdict:
    """Compare one gold argument value with the predicted one by the rules above.

    ``gold`` must not be empty (callers skip empty gold values, see :func:`is_empty`).
    """
    if is_empty(pred):
        return Verdict.MISMATCH
    if isinstance(gold, bool):
        return Verdict.MATCH if _boolean(pred) is gold else Verdict.MISMATCH
    if isinstance(gold, int | float):
        number = _number(pred)
        return Verdict.MATCH if number is not None and number == gold else Verdict.MISMATCH
    if isinstance(gold, str):
        return _strings(gold, pred, enum)
    if isinstance(gold, list | tuple):
        return _lists(gold, pred)
    if isinstance(gold, Mapping):
        return _objects(gold, pred)
    return Verdict.MISMATCH  # not a JSON value


def gold_keys(arguments: Mapping[str, Any] | None) -> list[str]:
    """The gold argument names that are checked and counted (non-empty values), in order."""
    return [k for k, v in (arguments or {}).items() if not is_empty(v)]

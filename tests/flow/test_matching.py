"""Argument matching rules: each rule pinned by near-miss inputs."""

from __future__ import annotations

from typing import Any

import pytest

from lifebench.flow.evaluation.matching import (
    Verdict,
    enum_values,
    gold_keys,
    is_empty,
    match_value,
    normalize,
)

M, X, U = Verdict.MATCH, Verdict.MISMATCH, Verdict.UNSURE

_CASES: list[tuple[str, Any, Any, Verdict]] = [
    # numbers: exact value; numeric strings read as numbers
    ("int equal", 2, 2, M),
    ("int off by one", 2, 3, X),
    ("int vs float equal", 2, 2.0, M),
    ("int vs fractional", 2, 2.5, X),
    ("numeric string", 2, "2", M),
    ("numeric string with decimals", 2, "2.0", M),
    ("non-numeric string", 2, "two", X),
    ("number vs bool", 1, True, X),
    ("float exact", 0.5, 0.5, M),
    ("float near miss", 0.5, 0.51, X),
    # booleans
    ("bool equal", True, True, M),
    ("bool string", True, "true", M),
    ("bool opposite", True, False, X),
    ("bool vs number", True, 1, X),
    # strings: normalised equality, then gold contained in pred
    ("same string", "Orlando", "Orlando", M),
    ("case", "Orlando", "orlando", M),
    ("punctuation and spaces", "Orlando, Florida", "orlando florida", M),
    ("unicode whitespace", "New York", "New\u00a0York", M),
    ("full-width", "ＡＢＣ１２３", "abc123", M),
    ("gold inside pred", "Dell XPS 15", "a Dell XPS 15 laptop", M),
    ("pred inside gold is not enough", "Dell XPS 15 laptop", "Dell XPS", U),
    ("different string", "Orlando", "Miami", U),
    ("number as string gold", "2", 2, M),
    ("string vs list", "a", ["a"], X),
    # empty predictions never match
    ("empty pred", "Orlando", "", X),
    ("missing pred", "Orlando", None, X),
    # lists: same elements, order-free, one-to-one
    ("list same", ["a", "b"], ["a", "b"], M),
    ("list reordered", ["a", "b"], ["b", "a"], M),
    ("list normalised", ["New York"], ["new york"], M),
    ("list missing element", ["a", "b"], ["a"], U),
    ("list duplicate not double-used", ["a", "a"], ["a", "b"], U),
    ("list of numbers differs", [1, 2], [1, 3], X),
    ("list vs text", ["a"], "a", U),
    ("list vs number", [1], 1, X),
    # objects: every non-empty gold key
    ("object same", {"name": "Ann", "n": 2}, {"name": "ann", "n": 2, "x": 1}, M),
    ("object empty gold key ignored", {"name": "Ann", "note": ""}, {"name": "Ann"}, M),
    ("object missing key", {"name": "Ann", "n": 2}, {"name": "Ann"}, X),
    ("object wrong number", {"n": 2}, {"n": 3}, X),
    ("object unsure string", {"name": "Ann"}, {"name": "Bob"}, U),
    ("object vs string", {"name": "Ann"}, "Ann", X),
]


@pytest.mark.parametrize(("case", "gold", "pred", "want"), _CASES, ids=[c[0] for c in _CASES])
def test_value_rules(case: str, gold: Any, pred: Any, want: Verdict) -> None:
    assert match_value(gold, pred) is want, case


def test_enumerations_need_equality_not_containment() -> None:
    enum = ("Yes", "No")
    assert match_value("Yes", "yes", enum) is M
    assert match_value("Yes", "Yes, No", enum) is X  # contained, but an enum needs equality
    assert match_value("Yes", "Yes, No") is M  # the same pair without the enum rule
    assert match_value("Yes", "No", enum) is X  # never unsure: no judge for enums


def test_enum_values_are_read_from_descriptions() -> None:
    assert enum_values("Whether an elevator is required. Enumeration type, [Yes, No].") == (
        "Yes",
        "No",
    )
    assert enum_values("enumerated type: [Economy Class, Business Class]") == (
        "Economy Class",
        "Business Class",
    )
    assert enum_values("Flight ID, such as [CA1234]") == ()


def test_normalize() -> None:
    assert normalize("  Hello,\tWorld!\u3000") == "helloworld"
    assert normalize("北京，朝阳区") == "北京朝阳区"


@pytest.mark.parametrize("value", [None, "", "  ", [], {}, ()])
def test_empty_values(value: Any) -> None:
    assert is_empty(value)


@pytest.mark.parametrize("value", [0, False, "0", [""], {"a": ""}])
def test_non_empty_values(value: Any) -> None:
    assert not is_empty(value)


def test_gold_keys_skip_empty_values() -> None:
    assert gold_keys({"a": "x", "b": "", "c": [], "d": 0, "e": None}) == ["a", "d"]
    assert gold_keys(None) == []


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("true", True, M),  # a boolean prediction read as text
        ("false", False, M),
        ("true", False, U),
        (False, "false", M),
        (False, " FALSE ", M),
        (False, "true", X),
        (1200, "1,200", M),  # thousands separators
        (1200, "1.200", X),
        ({"note": "", "n": 2}, {"n": 3}, X),  # an empty key does not end the check
    ],
)
def test_more_value_rules(gold: Any, pred: Any, want: Verdict) -> None:
    assert match_value(gold, pred) is want


def test_non_json_gold_never_matches() -> None:
    assert match_value(object, object) is X


def test_enum_values_strip_quotes() -> None:
    assert enum_values("Enumeration type, ['Yes', \"No\"]") == ("Yes", "No")
    assert enum_values("Enumeration type, [Yes, , No]") == ("Yes", "No")


def test_enum_values_keep_their_letters() -> None:
    assert enum_values("Size. Enumeration type, [XL, M, S]") == ("XL", "M", "S")

"""The rules of ``lifebench._util.text`` pinned by their effect: the language a text is shown
in, the whitespace variants a loader reports and removes, and the natural order of task ids."""

from __future__ import annotations

from lifebench._util.text import Text, as_text, natural_key, normalise_spaces, space_variants


def test_text_falls_back_to_english_only_without_a_chinese_variant() -> None:
    both = Text("Order food.", "点餐。")
    assert both.get("zh") == "点餐。"
    assert both.get("en") == "Order food."
    assert Text("Order food.").get("zh") == "Order food."
    assert Text("Order food.", "").get("zh") == ""  # an empty translation is still one


def test_as_text_wraps_a_string_and_keeps_a_text() -> None:
    text = Text("a", "甲")
    assert as_text(text) is text
    assert as_text("plain") == Text("plain")
    assert as_text("plain").zh is None


def test_space_variants_name_each_odd_space_once_in_order_of_appearance() -> None:
    assert space_variants("ab") == []
    assert space_variants("a b") == []
    assert space_variants("a\u00a0b") == ["U+00A0 NO-BREAK SPACE"]
    assert space_variants("a\u3000b\u00a0c\u3000d") == [
        "U+3000 IDEOGRAPHIC SPACE",
        "U+00A0 NO-BREAK SPACE",
    ]
    assert space_variants("a\u200bb") == ["U+200B ZERO WIDTH SPACE"]
    assert space_variants("a\tb") == ["U+0009 CONTROL CHARACTER"]  # no Unicode name
    assert space_variants("a\u202fb") == ["U+202F NARROW NO-BREAK SPACE"]


def test_space_variants_repeated_and_edge_spaces() -> None:
    assert space_variants("a  b") == ["repeated spaces"]
    assert space_variants(" a") == ["leading or trailing spaces"]
    assert space_variants("a ") == ["leading or trailing spaces"]
    # two spaces at an end are an edge, not a repetition inside the text
    assert space_variants("  a") == ["leading or trailing spaces"]
    assert space_variants("a  ") == ["leading or trailing spaces"]
    # an odd space next to a plain one makes a repetition (it counts as a space)
    assert space_variants("a\u00a0 b") == ["U+00A0 NO-BREAK SPACE", "repeated spaces"]
    assert space_variants("\u3000a") == ["U+3000 IDEOGRAPHIC SPACE", "leading or trailing spaces"]
    assert space_variants("a\u200b") == ["U+200B ZERO WIDTH SPACE", "leading or trailing spaces"]


def test_normalise_spaces_makes_every_variant_one_plain_space() -> None:
    assert normalise_spaces("  a\u00a0\u3000b\t\nc \u200bd  ") == "a b c d"
    assert normalise_spaces("a\u200bb") == "a b"
    assert normalise_spaces("中文\u3000全角") == "中文 全角"
    assert normalise_spaces("plain") == "plain"
    assert normalise_spaces("") == ""


def test_natural_key_exact_pieces() -> None:
    assert natural_key("") == ((1, 0, ""),)
    assert natural_key("T") == ((1, 0, "T"),)
    assert natural_key("T10") == ((1, 0, "T"), (0, 10, "10"))
    assert natural_key("12") == ((1, 0, ""), (0, 12, "12"))
    assert natural_key("a1b22c") == (
        (1, 0, "a"),
        (0, 1, "1"),
        (1, 0, "b"),
        (0, 22, "22"),
        (1, 0, "c"),
    )


def test_natural_key_orders_numbers_as_numbers_and_never_ties() -> None:
    ids = ["T10", "T2", "T1", "T007", "T7", "Tx", "T", "2", "10"]
    assert sorted(ids, key=natural_key) == ["2", "10", "T", "T1", "T2", "T007", "T7", "T10", "Tx"]
    # equal numbers: the digits compared as text ("007" < "7"), so distinct ids never tie
    keys = [natural_key(i) for i in ids]
    assert len(set(keys)) == len(ids)
    # a number before a word at the same place
    assert natural_key("1") < natural_key("a")
    assert natural_key("x1") < natural_key("xa")


def test_a_lone_surrogate_is_invisible_and_escaped() -> None:
    from lifebench._util.text import escape_invisible, is_invisible

    assert is_invisible("\ud800") and is_invisible("\udfff")
    assert escape_invisible("id\ud83d-1") == "id\\ud83d-1"

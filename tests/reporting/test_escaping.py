"""Untrusted text made safe, character by character, as properties.

``safe_text`` (terminal output): C0 and C1 controls except tab and newline, DEL and the
bidirectional overrides and isolates become visible escapes; every other character is kept.
``md_escape`` (Markdown report cells): one line, no raw ``& < >``, Markdown punctuation escaped.
``escape_invisible`` (messages about input): invisible characters written as escapes.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifebench._util.text import escape_invisible, is_invisible
from lifebench.reporting._safe import safe_text
from lifebench.reporting._templates import md_escape

_BIDI = {chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]}


def _unsafe(ch: str) -> bool:
    code = ord(ch)
    if ch in "\t\n":
        return False
    return code < 0x20 or 0x7F <= code <= 0x9F or ch in _BIDI


def _shown(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_TEXT = st.text(
    st.one_of(
        st.characters(codec="utf-8", exclude_categories=("Cs",)),
        st.sampled_from([chr(c) for c in range(0xA0)] + sorted(_BIDI) + ["\u2065", "\u206a"]),
    ),
    max_size=40,
)


@settings(max_examples=300)
@given(text=_TEXT)
def test_safe_text_escapes_exactly_the_unsafe_characters(text: str) -> None:
    assert safe_text(text) == "".join(_shown(c) if _unsafe(c) else c for c in text)


@pytest.mark.parametrize(
    ("ch", "shown"),
    [
        ("\x00", "\\x00"), ("\x08", "\\x08"), ("\t", "\t"), ("\n", "\n"), ("\x0b", "\\x0b"),
        ("\r", "\\x0d"), ("\x1b", "\\x1b"), ("\x1f", "\\x1f"), (" ", " "), ("~", "~"),
        ("\x7f", "\\x7f"), ("\x85", "\\x85"), ("\x9f", "\\x9f"), ("\xa0", "\xa0"),
        ("\u2029", "\u2029"), ("\u202a", "\\u202a"), ("\u202e", "\\u202e"), ("\u202f", "\u202f"),
        ("\u2065", "\u2065"), ("\u2066", "\\u2066"), ("\u2069", "\\u2069"), ("\u206a", "\u206a"),
    ],
    ids=lambda v: f"U+{ord(v[0]):04X}" if isinstance(v, str) and len(v) == 1 else None,
)  # fmt: skip
def test_safe_text_boundaries(ch: str, shown: str) -> None:
    assert safe_text(f"a{ch}b") == f"a{shown}b"


@settings(max_examples=200)
@given(text=_TEXT)
def test_md_escape_is_one_safe_line(text: str) -> None:
    cell = md_escape(text)
    assert "\n" not in cell and "\r" not in cell
    assert not any(c in cell for c in "<>")
    assert all(not _unsafe(c) for c in cell)
    if not any(_unsafe(c) or c.isspace() or c in "\\`*_[]|#~&<>" for c in text):
        assert cell == text


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        (None, ""),
        (3, "3"),
        ("a | b", "a \\| b"),
        ("*x* _y_ `z` [l](u) #h ~s~ \\", "\\*x\\* \\_y\\_ \\`z\\` \\[l\\](u) \\#h \\~s\\~ \\\\"),
        ("<b>&amp;</b>", "&lt;b&gt;&amp;amp;&lt;/b&gt;"),
        ("two\nlines\t and  spaces ", "two lines and spaces"),
        ("\x1b[2J", "\\\\x1b\\[2J"),
        ("\u202eevil", "\\\\u202eevil"),
    ],
    ids=["none", "number", "pipe", "punctuation", "html", "whitespace", "escape", "bidi"],
)
def test_md_escape_cells(value: object, cell: str) -> None:
    assert md_escape(value) == cell


_SHORT = {"\t": "\\t", "\r": "\\r"}


@settings(max_examples=300)
@given(text=_TEXT)
def test_escape_invisible_writes_every_invisible_character(text: str) -> None:
    def shown(c: str) -> str:
        if not is_invisible(c):
            return c
        if c in _SHORT:
            return _SHORT[c]
        return f"\\U{ord(c):08x}" if ord(c) > 0xFFFF else f"\\u{ord(c):04x}"

    assert escape_invisible(text) == "".join(shown(c) for c in text)


@pytest.mark.parametrize(
    ("ch", "invisible"),
    [
        (" ", False), ("\n", False), ("a", False), ("名", False), ("\t", True), ("\r", True),
        ("\xa0", True), ("\u3000", True), ("\u2028", True), ("\u2029", True), ("\x00", True),
        ("\u200b", True), ("\u200c", True), ("\u200d", True), ("\u2060", True), ("\ufeff", True),
        ("\u00ad", True), ("\U000e0001", True), ("\u061c", True),
    ],
    ids=lambda v: f"U+{ord(v[0]):04X}" if isinstance(v, str) and len(v) == 1 else None,
)  # fmt: skip
def test_invisible_characters(ch: str, invisible: bool) -> None:
    assert is_invisible(ch) is invisible
    assert (
        unicodedata.category(ch) in ("Zs", "Zl", "Zp", "Cc", "Cf")
        or not invisible
        or ch in ("\u200b\u200c\u200d\u2060\ufeff")
    )


def test_escape_invisible_examples() -> None:
    assert escape_invisible("plain text, two\nlines") == "plain text, two\nlines"
    assert escape_invisible("a\u00a0b\tc\rd") == "a\\u00a0b\\tc\\rd"
    assert escape_invisible("x\U000e0001y") == "x\\U000e0001y"
    assert escape_invisible("中文\u3000全角") == "中文\\u3000全角"

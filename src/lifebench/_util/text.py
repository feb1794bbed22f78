"""Localised text, language codes, and the handling of invisible characters in text."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

Language = Literal["en", "zh"]
LANGUAGES: tuple[Language, ...] = ("en", "zh")


@dataclass(frozen=True)
class Text:
    """A piece of text in English with an optional Chinese variant (falls back to English)."""

    en: str
    zh: str | None = None

    def get(self, language: Language) -> str:
        """Return the text in ``language``, or English when no translation exists."""
        if language == "zh" and self.zh is not None:
            return self.zh
        return self.en


def as_text(value: str | Text) -> Text:
    """Wrap a plain string as an English-only :class:`Text`."""
    return value if isinstance(value, Text) else Text(value)


# --------------------------------------------------------------------------------------------
# Invisible characters and whitespace variants
# --------------------------------------------------------------------------------------------

#: Characters that render as nothing or as a plain space but are not U+0020 (besides the
#: Unicode categories tested in :func:`is_invisible`): zero-width joiners, word joiner, BOM.
_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff")
_SHORT_ESCAPES = {"\t": "\\t", "\r": "\\r"}


def is_invisible(char: str) -> bool:
    """True for a character a reader cannot tell from a plain space or from nothing.

    That is every space other than U+0020 (NBSP U+00A0, U+2000–U+200A, U+202F, U+3000 …),
    line/paragraph separators, control characters other than the newline (tabs included),
    format characters (zero-width space U+200B, joiners, BOM U+FEFF …) and lone surrogates
    (no terminal can show one, and no UTF-8 text can hold one).
    """
    if char in (" ", "\n"):
        return False
    if char in _ZERO_WIDTH:
        return True
    return unicodedata.category(char) in ("Zs", "Zl", "Zp", "Cc", "Cf", "Cs")


def escape_invisible(text: str) -> str:
    """``text`` with every invisible character (see :func:`is_invisible`) written as an
    escape: ``\\u00a0`` for a non-breaking space, ``\\t`` for a tab, so a message shows what
    a terminal would hide. Newlines are kept."""
    if text.isascii() and text.isprintable():
        return text
    out = []
    for char in text:
        if not is_invisible(char):
            out.append(char)
        elif char in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[char])
        elif ord(char) > 0xFFFF:
            out.append(f"\\U{ord(char):08x}")
        else:
            out.append(f"\\u{ord(char):04x}")
    return "".join(out)


def _is_space_like(char: str) -> bool:
    return char.isspace() or char in _ZERO_WIDTH


def space_variants(text: str) -> list[str]:
    """Names of the whitespace variants in ``text`` that :func:`normalise_spaces` changes:
    odd space characters (``"U+00A0 NO-BREAK SPACE"``), and ``"repeated spaces"`` /
    ``"leading or trailing spaces"`` when present. Empty when ``text`` is already normal."""
    found: dict[str, None] = {}
    for char in text:
        if char != " " and _is_space_like(char):
            name = unicodedata.name(char, "") or "CONTROL CHARACTER"
            found[f"U+{ord(char):04X} {name}"] = None
    spaced = "".join(" " if _is_space_like(c) else c for c in text)
    if "  " in spaced.strip():
        found["repeated spaces"] = None
    if spaced != spaced.strip():
        found["leading or trailing spaces"] = None
    return list(found)


def normalise_spaces(text: str) -> str:
    """``text`` with every whitespace variant (NBSP, U+2000–U+200B, U+202F, U+3000, tabs,
    newlines, zero-width spaces …) replaced by one plain space, runs collapsed and the ends
    stripped."""
    return " ".join("".join(" " if _is_space_like(c) else c for c in text).split())


# --------------------------------------------------------------------------------------------
# Ordering
# --------------------------------------------------------------------------------------------

_DIGITS = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple[tuple[int, int, str], ...]:
    """Sort key that orders the digit runs of ``text`` as numbers: ``T2`` < ``T10`` (text order
    puts ``T10`` first). Pieces compare as (kind, number, text): a number before a word at the
    same place, and ``007`` before ``7`` (the digits compared as text) so that distinct ids
    never tie."""
    return tuple(
        (0, int(piece), piece) if index % 2 else (1, 0, piece)
        for index, piece in enumerate(_DIGITS.split(text))
        if piece or index == 0
    )

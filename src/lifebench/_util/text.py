"""Localised text and language codes."""

from __future__ import annotations

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

"""A piece of text in both task languages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lifebench._util.text import Language


@dataclass(frozen=True)
class Bi:
    """English and Chinese renderings of the same text (both mandatory)."""

    en: str
    zh: str

    def get(self, language: Language) -> str:
        """The text in ``language``."""
        return self.zh if language == "zh" else self.en

    def format(self, **values: Any) -> Bi:
        """Both sides formatted with ``values``; a :class:`Bi` value is rendered per side."""
        en = {k: v.en if isinstance(v, Bi) else v for k, v in values.items()}
        zh = {k: v.zh if isinstance(v, Bi) else v for k, v in values.items()}
        return Bi(self.en.format(**en), self.zh.format(**zh))

    def __add__(self, other: Bi) -> Bi:
        return Bi(self.en + other.en, self.zh + other.zh)

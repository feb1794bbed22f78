"""Travel dates and how a user says them: absolute, relative to today, or a festival.

A :class:`When` is a date with its phrase in both languages. Relative phrases are chosen only
where they are unambiguous: "this Saturday" for a later day of the current (Monday-first) week,
"Saturday next week" for a day of the following week, "tomorrow", "the day after tomorrow",
and a festival of the current year whose date ``get_holiday_date`` returns.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from types import MappingProxyType

from lifebench.vita.domains._calendar import FESTIVAL_YEARS, FESTIVALS, Festival
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.world import WEEKDAYS, day_text, weighted

_EN_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six")
_ZH_NUMBERS = ("零", "一", "两", "三", "四", "五", "六")


def count_word(n: int) -> Bi:
    """ "two" / "两" for small counts, digits otherwise."""
    if 0 <= n < len(_EN_NUMBERS):
        return Bi(_EN_NUMBERS[n], _ZH_NUMBERS[n])
    return Bi(str(n), str(n))


@dataclass(frozen=True)
class When:
    """A date and how the user refers to it.

    ``adverb`` fits "… {adverb}" ("on April 12", "this Saturday"); ``noun`` fits "move it to
    {noun}" ("April 12", "this Saturday"); Chinese uses one form for both. ``style`` is the
    phrasing kind (``absolute``, ``tomorrow``, ``day_after``, ``this_week``, ``next_week``,
    ``holiday``).
    """

    day: date
    adverb: Bi
    noun: Bi
    style: str

    @property
    def relative(self) -> bool:
        """Whether the phrase needs working out (anything but an absolute date)."""
        return self.style != "absolute"

    def rubric(self) -> Bi:
        """``2025-10-18`` plus the phrase when it is relative: ``2025-10-18 (this Saturday)``."""
        iso = self.day.isoformat()
        if not self.relative:
            return Bi(iso, iso)
        return Bi(f"{iso} ({self.noun.en})", f"{iso}（{self.noun.zh}）")


def absolute(day: date) -> When:
    """ "on April 12" / "4月12日"."""
    text = day_text(day)
    return When(day, Bi(f"on {text.en}", text.zh), text, "absolute")


def festival_on(day: date) -> Festival | None:
    """The festival of :data:`FESTIVALS` falling on ``day`` (None if none or out of range)."""
    if day.year not in FESTIVAL_YEARS:
        return None
    return next((f for f in FESTIVALS if f.on(day.year) == day), None)


def festival_days(today: date, lo: int, hi: int) -> list[date]:
    """Festival dates of the current year between ``today + lo`` and ``today + hi`` days."""
    if today.year not in FESTIVAL_YEARS:
        return []
    first, last = today + timedelta(days=lo), today + timedelta(days=hi)
    days = sorted({f.on(today.year) for f in FESTIVALS})
    return [d for d in days if first <= d <= last]


def styles_for(today: date, day: date) -> list[str]:
    """The phrasings that are correct and unambiguous for ``day`` seen from ``today``."""
    delta = (day - today).days
    out = ["absolute"]
    if delta == 1:
        out.append("tomorrow")
    if delta == 2:
        out.append("day_after")
    monday = today - timedelta(days=today.weekday())
    if delta >= 2 and day < monday + timedelta(days=7):
        out.append("this_week")
    if monday + timedelta(days=7) <= day < monday + timedelta(days=14):
        out.append("next_week")
    if delta >= 1 and day.year == today.year and festival_on(day) is not None:
        out.append("holiday")
    return out


def phrase(day: date, style: str) -> When:
    """``day`` phrased in ``style`` (which must be one of :func:`styles_for`)."""
    weekday = WEEKDAYS[day.weekday()]
    if style == "tomorrow":
        words = Bi("tomorrow", "明天")
        return When(day, words, words, style)
    if style == "day_after":
        words = Bi("the day after tomorrow", "后天")
        return When(day, words, words, style)
    if style == "this_week":
        words = Bi(f"this {weekday.en}", f"这{weekday.zh}")
        return When(day, words, words, style)
    if style == "next_week":
        noun = Bi(f"{weekday.en} next week", f"下{weekday.zh}")
        return When(day, Bi(f"on {noun.en}", noun.zh), noun, style)
    if style == "holiday":
        fest = festival_on(day)
        assert fest is not None
        noun = Bi(f"the day of this year's {fest.en}", f"今年{fest.zh}当天")
        return When(day, Bi(f"on {noun.en}", noun.zh), noun, style)
    return absolute(day)


_STYLE_WEIGHTS: Mapping[str, float] = MappingProxyType(
    {
        "absolute": 0.35,
        "tomorrow": 0.12,
        "day_after": 0.15,
        "this_week": 0.3,
        "next_week": 0.25,
        "holiday": 0.6,
    }
)


def describe(rng: random.Random, today: date, day: date, relative_rate: float = 0.5) -> When:
    """``day`` phrased absolutely, or (with ``relative_rate``) in a relative style it allows."""
    styles = [s for s in styles_for(today, day) if s != "absolute"]
    if not styles or rng.random() >= relative_rate:
        return absolute(day)
    return phrase(day, weighted(rng, [(s, _STYLE_WEIGHTS[s]) for s in styles]))


def trip_day(rng: random.Random, today: date, lo: int = 2, hi: int = 40) -> When:
    """A travel date between ``today + lo`` and ``today + hi`` days, with its phrase.

    About a fifth of the time it is a festival of the current year (when one lies in range),
    a third of the time a day of this or next week, otherwise a date further ahead.
    """
    festivals = festival_days(today, max(lo, 2), hi)
    kind = weighted(
        rng,
        [("holiday", 0.2 if festivals else 0.0), ("week", 0.35), ("near", 0.1), ("far", 0.35)],
    )
    if kind == "holiday":
        return phrase(rng.choice(festivals), "holiday")
    if kind == "near":
        day = today + timedelta(days=rng.choice((max(lo, 1), max(lo, 2))))
        return describe(rng, today, day, relative_rate=1.0)
    if kind == "week":
        day = today + timedelta(days=rng.randint(max(lo, 2), max(lo + 1, 12)))
        return describe(rng, today, day, relative_rate=0.85)
    day = today + timedelta(days=rng.randint(max(lo, 6), max(hi, 7)))
    return absolute(day)

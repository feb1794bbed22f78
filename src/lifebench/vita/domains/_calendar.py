"""Dates and times: the task clock format, holiday lookups and the festival table."""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from types import MappingProxyType
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from lifebench._util.text import Language
from lifebench.vita.domains._match import fold
from lifebench.vita.timefmt import normalise_time

if TYPE_CHECKING:
    import holidays

#: Format of every date-time in the VitaBench data (task clock, dispatch and delivery times).
DATETIME_FORMAT = "%Y-%m-%d %H:%M:%S"

_WEEKDAYS: dict[Language, tuple[str, ...]] = {
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "zh": ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"),
}


def parse_datetime(text: str) -> datetime | None:
    """A moment ``YYYY-MM-DD HH:MM:SS`` (also unpadded or with odd spaces, as the official
    tools' ``strptime`` reads it: :func:`lifebench.vita.timefmt.normalise_time`) as a naive
    datetime; None for anything else: a bare day, a time without seconds, an ISO ``T``."""
    read = normalise_time(text)
    ok = read is not None and read.has_seconds and "T" not in text
    return read.value if read is not None and ok else None


def parse_date(text: str) -> date | None:
    """A day (``YYYY-MM-DD``, also unpadded or with odd spaces) as a date; None for anything
    else, a moment with a time of day included."""
    read = normalise_time(text)
    return read.value.date() if read is not None and not read.has_time else None


def format_datetime(value: datetime) -> str:
    """The data format ``YYYY-MM-DD HH:MM:SS``."""
    return value.strftime(DATETIME_FORMAT)


def weekday_name(day: date, language: Language) -> str:
    """Name of the weekday of ``day``."""
    return _WEEKDAYS[language][day.weekday()]


def public_holidays(
    day: date, language: Language, calendar: HolidayCalendar | None = None
) -> list[str]:
    """Names of the Chinese public holidays (incl. days off in lieu) falling on ``day``
    (read from ``calendar``'s tables when one is given: the same names, computed once)."""
    if calendar is not None:
        return calendar.names(day, language)
    names = _holiday_table(day.year, language).get_list(day)
    return [str(n) for n in names]


class HolidayCalendar:
    """The holiday tables of one run (see :meth:`lifebench.vita.suite.VitaSuite.environment`).

    The ``holidays`` package computes a country's whole year at once (about 0.5 ms), and the
    first lookup of a process imports it and loads the country's calendar and translations
    (about 0.1 s). A calendar computes each (year, language) table once — by one thread at a
    time, so :meth:`warm` can run in a worker thread while simulations look days up — and
    keeps at most :attr:`LIMIT` read-only tables.
    """

    LIMIT = 64

    def __init__(self) -> None:
        self._tables: dict[tuple[int, str], Mapping[date, tuple[str, ...]]] = {}
        self._lock = threading.Lock()

    def names(self, day: date, language: Language) -> list[str]:
        """What :func:`public_holidays` returns for ``day``."""
        return list(self._table(day.year, language).get(day, ()))

    def warm(self, years: Iterable[int], language: Language) -> None:
        """Compute the tables of ``years`` now (any thread)."""
        for year in sorted(set(years)):
            self._table(year, language)

    def _table(self, year: int, language: Language) -> Mapping[date, tuple[str, ...]]:
        table = self._tables.get((year, language))
        if table is not None:
            return table
        with self._lock:
            table = self._tables.get((year, language))
            if table is None:
                computed = _holiday_table(year, language)
                table = MappingProxyType(
                    {d: tuple(str(n) for n in computed.get_list(d)) for d in sorted(computed)}
                )
                if len(self._tables) >= self.LIMIT:
                    self._tables.clear()
                self._tables[(year, language)] = table
            return table


def _holiday_table(year: int, language: Language) -> holidays.HolidayBase:
    import holidays  # about 50 ms: only when a holiday is first looked up (or warmed)

    return holidays.country_holidays(
        "CN", years=year, language="zh_CN" if language == "zh" else "en_US"
    )


# --------------------------------------------------------------------------------------------
# Festival table for get_holiday_date
# --------------------------------------------------------------------------------------------

#: Years covered by :data:`FESTIVALS` and :data:`MORE_FESTIVALS`.
FESTIVAL_YEARS: tuple[int, ...] = (2023, 2024, 2025, 2026)


@dataclass(frozen=True)
class Festival:
    """One festival: English and Chinese names, other names, and its date in each covered year."""

    en: str
    zh: str
    aliases: tuple[str, ...]
    dates: tuple[str, ...]  # "MM-DD" ("" when it falls in no day of that year), per FESTIVAL_YEARS

    def name(self, language: Language) -> str:
        """The festival's name in ``language``."""
        return self.zh if language == "zh" else self.en

    def occurs_in(self, year: int) -> bool:
        """Whether the festival falls on a day of calendar year ``year`` (a covered year).

        Only a lunar festival late in the lunar year can miss a Gregorian year (the Laba
        Festival fell on 2022-12-30 and 2024-01-18, never in 2023)."""
        return bool(self.dates[FESTIVAL_YEARS.index(year)])

    def on(self, year: int) -> date:
        """The festival's date in ``year`` (a year of :data:`FESTIVAL_YEARS` it occurs in)."""
        month, day = self.dates[FESTIVAL_YEARS.index(year)].split("-")
        return date(year, int(month), int(day))


def _fixed(month_day: str) -> tuple[str, ...]:
    return (month_day,) * len(FESTIVAL_YEARS)


# Lunar dates checked against the Chinese lunisolar calendar; Western movable days computed
# as "n-th weekday of the month" (see tests/vita/test_delivery_calendar.py).
FESTIVALS: tuple[Festival, ...] = (
    Festival("New Year's Day", "元旦", ("New Year", "元旦节"), _fixed("01-01")),
    Festival(
        "Chinese New Year's Eve",
        "除夕",
        ("Spring Festival Eve", "Lunar New Year's Eve", "大年三十", "农历除夕"),
        ("01-21", "02-09", "01-28", "02-16"),
    ),
    Festival(
        "Spring Festival",
        "春节",
        ("Chinese New Year", "Lunar New Year", "农历新年"),
        ("01-22", "02-10", "01-29", "02-17"),
    ),
    Festival("Valentine's Day", "情人节", ("Saint Valentine's Day", "西方情人节"), _fixed("02-14")),
    Festival(
        "Lantern Festival",
        "元宵节",
        ("Yuanxiao Festival", "Shangyuan Festival"),
        ("02-05", "02-24", "02-12", "03-03"),
    ),
    Festival("Women's Day", "妇女节", ("International Women's Day", "三八妇女节"), _fixed("03-08")),
    Festival(
        "Qingming Festival",
        "清明节",
        ("Tomb-Sweeping Day", "Tomb Sweeping Festival", "Qingming", "清明"),
        ("04-05", "04-04", "04-04", "04-05"),
    ),
    Festival(
        "Labor Day", "劳动节", ("Labour Day", "May Day", "五一劳动节", "五一"), _fixed("05-01")
    ),
    Festival("Mother's Day", "母亲节", ("Mothers Day",), ("05-14", "05-12", "05-11", "05-10")),
    Festival(
        "Children's Day", "儿童节", ("International Children's Day", "六一儿童节"), _fixed("06-01")
    ),
    Festival(
        "Dragon Boat Festival",
        "端午节",
        ("Duanwu Festival", "端午"),
        ("06-22", "06-10", "05-31", "06-19"),
    ),
    Festival("Father's Day", "父亲节", ("Fathers Day",), ("06-18", "06-16", "06-15", "06-21")),
    Festival(
        "Qixi Festival",
        "七夕节",
        ("Chinese Valentine's Day", "Double Seventh Festival", "七夕", "七夕情人节"),
        ("08-22", "08-10", "08-29", "08-19"),
    ),
    Festival("Teachers' Day", "教师节", ("Teacher's Day",), _fixed("09-10")),
    Festival(
        "Mid-Autumn Festival",
        "中秋节",
        ("Moon Festival", "Mooncake Festival", "中秋"),
        ("09-29", "09-17", "10-06", "09-25"),
    ),
    Festival("National Day", "国庆节", ("China National Day", "国庆"), _fixed("10-01")),
    Festival(
        "Double Ninth Festival",
        "重阳节",
        ("Chongyang Festival", "重阳"),
        ("10-23", "10-11", "10-29", "10-18"),
    ),
    Festival("Halloween", "万圣节", ("All Hallows' Eve", "万圣夜"), _fixed("10-31")),
    Festival("Thanksgiving Day", "感恩节", ("Thanksgiving",), ("11-23", "11-28", "11-27", "11-26")),
    Festival(
        "Winter Solstice",
        "冬至",
        ("Dongzhi Festival", "冬至节"),
        ("12-22", "12-21", "12-21", "12-22"),
    ),
    Festival("Christmas Eve", "平安夜", (), _fixed("12-24")),
    Festival("Christmas Day", "圣诞节", ("Christmas", "Xmas"), _fixed("12-25")),
)


# The official table's entries that :data:`FESTIVALS` lacks (the official tool knows them in
# English and Chinese). They are kept apart because the task generators phrase dates with
# FESTIVALS only (the bundled sets regenerate byte-identically); the tool reads both. Dates:
# Laba = 8th day of the 12th lunar month, Dragon Head = 2nd day of the 2nd lunar month (Chinese
# lunisolar calendar); Start of Autumn = the solar term at 135° solar longitude, Beijing time.
MORE_FESTIVALS: tuple[Festival, ...] = (
    Festival(
        "Laba Festival",
        "腊八节",
        ("Laba", "Laba Rice Porridge Festival", "腊八"),
        ("", "01-18", "01-07", "01-26"),
    ),
    Festival(
        "Dragon Head Festival",
        "龙头节",
        ("Dragon Raises Its Head", "Dragon Heads-raising Day", "Longtaitou", "龙抬头", "二月二"),
        ("02-21", "03-11", "03-01", "03-20"),
    ),
    Festival(
        "Party Founding Day",
        "建党节",
        ("CPC Founding Day", "Communist Party Founding Day", "七一建党节", "七一"),
        _fixed("07-01"),
    ),
    Festival(
        "Start of Autumn",
        "立秋",
        ("Beginning of Autumn", "Liqiu", "立秋节"),
        ("08-08", "08-07", "08-07", "08-07"),
    ),
)


def festival_table() -> tuple[Festival, ...]:
    """Every festival ``get_holiday_date`` knows: :data:`FESTIVALS` + :data:`MORE_FESTIVALS`."""
    return FESTIVALS + MORE_FESTIVALS


# Words that say "a festival" in any name; a name is matched on what remains (its core).
_GENERIC_NAME_WORDS = frozenset(("festival", "day", "the", "holiday", "holidays"))
_CJK_SUFFIXES = ("节日", "节")
#: Minimum similarity (0–100) of two name cores (spaces removed, five letters or more) for a
#: spelling variant to count as the same name ("Mid Autumn" / "MidAutumn", "Mother Day").
NAME_VARIANT_THRESHOLD = 88.0
_CANDIDATE_THRESHOLD = 60.0


def _name_keys(name: str) -> tuple[str, str]:
    """``(whole, core)`` of a festival name: case-folded words without punctuation or
    apostrophes; the core also without generic words ("festival", "day", 节 …)."""
    text = unicodedata.normalize("NFKC", name).casefold().replace("'", "").replace("’", "")
    words = re.sub(r"[^\w]+", " ", text).split()
    whole = " ".join(words)
    kept = [w for w in words if w not in _GENERIC_NAME_WORDS] or words
    core = " ".join(kept)
    for suffix in _CJK_SUFFIXES:
        if core.endswith(suffix) and len(core) - len(suffix) >= 2:
            core = core[: -len(suffix)]
            break
    return whole, core


def _labels(fest: Festival) -> tuple[str, ...]:
    return (fest.en, fest.zh, *fest.aliases)


def _similar(a: str, b: str) -> float:
    a, b = a.replace(" ", ""), b.replace(" ", "")
    if min(len(a), len(b)) < 5 or not a.isascii() or not b.isascii():
        return 0.0
    return float(fuzz.ratio(a, b))


def find_festival(name: str) -> Festival | None:
    """The festival ``name`` designates (English or Chinese, any of its names), or None.

    A name designates a festival when its words, or its core (without "festival", "day",
    节 …), equal those of one of the festival's names, or — for Latin names of five letters or
    more — when its core is a close spelling variant of one (similarity ≥
    :data:`NAME_VARIANT_THRESHOLD`). A name that matches no festival, or two festivals
    equally, designates none: "Laba Festival" is never taken for another festival.
    """
    whole, core = _name_keys(name)
    if not core:
        return None
    table = festival_table()
    exact = [f for f in table if any({whole, core} & set(_name_keys(lb)) for lb in _labels(f))]
    if exact:
        return exact[0] if len(exact) == 1 else None
    scored = sorted(
        (
            (max(_similar(core, _name_keys(lb)[1]) for lb in _labels(f)), i)
            for i, f in enumerate(table)
        ),
        reverse=True,
    )
    best, index = scored[0]
    if best < NAME_VARIANT_THRESHOLD or (len(scored) > 1 and scored[1][0] == best):
        return None
    return table[index]


def festival_candidates(name: str, language: Language, limit: int = 5) -> list[str]:
    """Names (in ``language``) of the ``limit`` festivals whose names look most like ``name``."""
    scored = []
    for i, fest in enumerate(festival_table()):
        score = max(fuzz.WRatio(name, label, processor=fold) for label in _labels(fest))
        scored.append((-score, i, fest.name(language)))
    return [n for _, _, n in sorted(scored)[:limit]]


def parse_year(text: str) -> int | None:
    """A four-digit year from ``text`` ("2025", "2025年"), or None."""
    found = re.fullmatch(r"\s*(\d{4})\s*(?:年)?\s*", text)
    return int(found.group(1)) if found else None

"""Machine-checkable constraints stated in rubric text, English and Chinese.

A rubric such as "The delivery time for the dessert order should be between 18:15 and 18:30 on
February 14, 2025" or "米线订单的送达时间应在2025-06-21 12:00:00左右" states something a record
field can be checked against. :func:`parse_rubric` reads, from one rubric:

* **time** — a window on the timeline for a delivery (``delivery``) or an appointment
  (``appointment``): a moment with a relation (before / by / not later than / 之前 / 以前 /
  不晚于 …, after / not before / 之后 / 不早于 …, around / about / 左右 / 前后 …, between … and …
  / 至 / 到 / ``-``), a time of day (``18:30``, ``6:30 PM``, ``noon``, ``下午1点半``, ``十二点``),
  a day (``2025-06-03``, ``2025年6月3日``, ``June 3, 2025``, ``6月3日``; relative: today, tonight,
  tomorrow, the day after tomorrow, 今天, 今晚, 明天, 后天, weekdays: Friday, next Friday, 周五,
  下周五, 星期五), a part of the day (morning, noon, afternoon, evening, 上午, 中午, 下午, 晚上),
  or a duration from the clock (within half an hour, 30分钟内);
* **date** — a day alone (no time of day) for a delivery, an appointment or a booking
  (``booking``: hotel, attraction, flight, train);
* **party_size** — a number of people for an appointment (``4 people``, ``table for two``,
  ``3人``, ``两位``);
* **note** — a note asked for an order, with its wording when the rubric gives it (after a
  colon, in quotes, or right after "note" / "备注").

Only the *predicate* of a rubric is read for values — the words after its modal ("should",
"must", "应", "需要" …), cut before a justification ("to ensure", "so that", "确保", "以便" …) —
so that a part of the day in the subject ("the noon noodle order", "中午面条订单") or in a
reason ("so that she can eat before 6:30") is not taken for a constraint. The subject (the
words before the predicate) is kept to attribute the constraint to a record
(:mod:`lifebench.vita.grading.stated`). Digits and punctuation are read after Unicode NFKC, so
full-width and half-width text read alike; spaces are optional everywhere.

Tolerances are those of the record rules: a moment stated without a relation, or with "around",
is the window of :data:`AROUND_MIN` minutes either side.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from typing import Literal

FieldClass = Literal["time", "date", "party_size", "note", "attribute", "status"]
Target = Literal["delivery", "appointment", "booking"]
#: Every kind of record a constraint can be about.
ALL_TARGETS: frozenset[Target] = frozenset({"delivery", "appointment", "booking"})
Relation = Literal["before", "after", "around", "between", "on"]

#: Half-width of the window of a moment stated without a relation or with "around", in minutes.
AROUND_MIN = 30.0

#: Every field class a constraint or a record check can belong to, in report order.
FIELD_CLASSES: tuple[str, ...] = (
    "store",
    "products",
    "attribute",
    "status",
    "note",
    "address",
    "time",
    "date",
    "party_size",
    "unrequested",
)


@dataclass(frozen=True)
class Window:
    """A closed interval of moments; ``None`` ends are open."""

    start: datetime | None
    end: datetime | None

    def contains(self, moment: datetime) -> bool:
        """Whether ``moment`` lies in the window (ends included)."""
        if self.start is not None and moment < self.start:
            return False
        return self.end is None or moment <= self.end

    def days(self) -> set[date]:
        """The days the window covers when both ends are on one day (else empty)."""
        if self.start is not None and self.end is not None and self.start.date() == self.end.date():
            return {self.start.date()}
        return set()

    def __str__(self) -> str:
        def fmt(m: datetime | None) -> str:
            return "…" if m is None else m.strftime("%Y-%m-%d %H:%M:%S")

        return f"[{fmt(self.start)}, {fmt(self.end)}]"


@dataclass(frozen=True)
class Stated:
    """One constraint a rubric states.

    Attributes:
        field: The field class (``time``, ``date``, ``party_size``, ``note``).
        target: The kind of record it constrains.
        rubric: The rubric, as written.
        subject: The words before the predicate (used to attribute the constraint).
        relation: How the window was stated.
        window: The allowed moments (time and date classes).
        count: The number of people (party_size).
        text: The note's wording ("" when the rubric asks a note without giving it).
    """

    field: FieldClass
    target: Target
    rubric: str
    subject: str
    relation: Relation | None = None
    window: Window | None = None
    count: int | None = None
    text: str = ""
    moved_days: int = 0
    """Days the window was moved to the clock (a delivery bound stated far from it)."""

    def describe(self) -> str:
        """The constraint in words (for evidence and coverage lines)."""
        if self.field in ("time", "date"):
            return f"{self.target} {self.field} {self.relation} {self.window}"
        if self.field == "party_size":
            return f"party size {self.count}"
        return f"note '{self.text}'" if self.text else "a note"


# ---- text helpers --------------------------------------------------------------------------------

_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for m in names
}
_MONTH = "(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_EN_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "七": 6}
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6}
_ZH_DIGITS.update({"七": 7, "八": 8, "九": 9})
_EN_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_ZH_NUM = "[零〇一二两三四五六七八九十]{1,3}"


def zh_number(text: str) -> int | None:
    """A Chinese numeral up to 99 (``十二`` → 12, ``两`` → 2), or digits; None otherwise."""
    if text.isdigit():
        return int(text)
    if not text or any(c not in _ZH_DIGITS and c != "十" for c in text):
        return None
    if "十" not in text:
        return _ZH_DIGITS[text] if len(text) == 1 else None
    tens, _, ones = text.partition("十")
    if "十" in ones or len(tens) > 1 or len(ones) > 1:
        return None
    value = (_ZH_DIGITS[tens] if tens else 1) * 10
    return value + (_ZH_DIGITS[ones] if ones else 0)


def _number(text: str) -> int | None:
    low = text.lower()
    return _EN_NUMBERS.get(low) if low in _EN_NUMBERS else zh_number(text)


def fold(text: str) -> str:
    """NFKC and single spaces (full-width digits, colons and letters become ASCII)."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


# ---- the predicate -------------------------------------------------------------------------------

_DELIVERY_KEYS = re.compile(
    r"delivery\s*time|deliver(?:ed|y\s+(?:should|must|is|at|by|before|after|around|between|on|in|"
    r"within))|\bdeliver\s|送达|配送时间|送到|送餐时间|配送的时间|"
    r"配送(?:应|需|要|在)",
    re.IGNORECASE,
)
_APPOINTMENT_KEYS = re.compile(
    r"reserv|\bbook|appointment|\btable\b|visit time|arrival at the (?:shop|store|restaurant)|"
    r"预约|预订|预定|订座|订位|到店|就餐时间|用餐时间|订桌",
    re.IGNORECASE,
)
_BOOKING_KEYS = re.compile(
    r"\bcheck[- ]?in|\bstay|\bnight of|\bdepart(?!ment)|\bflights?\b|\btrains?\b|\btickets?\b|\bhotels?\b|"
    r"\brooms?\b|\battractions?\b|\bvisit|\btravel|"
    r"入住|出发|航班|机票|火车|高铁|车票|门票|酒店|景点|游玩|出行|日期",
    re.IGNORECASE,
)
_CONDITION = re.compile(
    r"\s*(?:when|if|whether|unless|in case|"
    r"(?:should |need to |by )?check(?:ing)?\b(?![- ]?(?:in|out)\b)|"  # not "check in on June 9"
    r"as\b|since|because|如果|若|假如|当|查询|查看|检查|由于|因为)",
    re.IGNORECASE,
)
_ADDRESS_KEYS = re.compile(r"address|地址|送至|送往", re.IGNORECASE)
_MODAL = re.compile(
    r"\b(?:should|must|shall|needs? to|has to|have to|is to|are to|is required to|will)\b|"
    r"应该|应当|应在|应为|应是|需要|必须|需|应|要在|要",
    re.IGNORECASE,
)
_REASON = re.compile(
    r",?\s*(?:\bto ensure\b|\bensuring\b|\bso that\b|\bso as to\b|\bin order to\b|\bbecause\b|"
    r"\bsince\b|\bas the user\b|\bbut\b|\bwhich\b|\bfor use\b|\bto meet\b|\bto avoid\b|"
    r"\bto allow\b|\bto give\b|\bto make sure\b)|"
    r"[，,;；。]?\s*(?:确保|保证|以便|以满足|以免|避免|因为|由于|但|方便|便于|好让|以保证|以确保|满足)",
    re.IGNORECASE,
)


def _predicate(text: str, key: re.Match[str]) -> tuple[str, str]:
    """(subject, predicate) around the modal that follows (or precedes) the field keyword."""
    after = _MODAL.search(text, key.start())
    if after is None:
        before = [m for m in _MODAL.finditer(text, 0, key.start())]
        # without any modal ("明天18:30送达"), the whole clause states the ask
        start = before[-1].end() if before else 0
        subject_end = before[-1].start() if before else 0
    else:
        start, subject_end = after.end(), after.start()
    rest = text[start:]
    cut = _REASON.search(rest)
    if cut is not None:
        rest = rest[: cut.start()]
    return text[:subject_end], rest


# ---- moments ---------------------------------------------------------------------------------------

_STAMP = re.compile(
    r"(?P<y>\d{4})\s*(?:[-/.]\s*(?P<mo>\d{1,2})\s*[-/.]\s*(?P<d>\d{1,2})|年\s*(?P<mo2>\d{1,2})\s*月"
    r"\s*(?P<d2>\d{1,2})\s*[日号]?)"
)
_MONTH_DAY_ZH = re.compile(r"(?<!\d)(?P<mo>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号]")
_MONTH_DAY_EN = re.compile(
    rf"\b(?P<mon>{_MONTH})\s*(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s*(?P<y>\d{{4}}))?|"
    rf"\b(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon2>{_MONTH})\b(?:,?\s*(?P<y2>\d{{4}}))?",
    re.IGNORECASE,
)
_CLOCK = re.compile(
    r"(?<![\d:])(?P<h>\d{1,2})\s*:\s*(?P<m>\d{2})(?:\s*:\s*(?P<s>\d{2}))?"
    r"(?:\s*(?P<ap>[ap]\.?\s*m\b\.?))?",
    re.IGNORECASE,
)
_AMPM = re.compile(r"(?<![\d:])(?P<h>\d{1,2})\s*(?P<ap>[ap]\.?\s*m\b\.?)", re.IGNORECASE)
_EN_WORD_HOUR = re.compile(
    r"\b(?P<h>" + "|".join(_EN_NUMBERS) + r")\s*(?:o'?clock|(?P<ap>[ap]\.?\s*m\b\.?))",
    re.IGNORECASE,
)
_ZH_PERIOD = (
    "凌晨|早上|早晨|清晨|上午|中午|正午|午间|下午|傍晚|晚上|晚间|夜里|夜间|今晚|明晚|明早|今早"
)
_ZH_CLOCK = re.compile(
    rf"(?P<p>{_ZH_PERIOD})?\s*(?P<h>\d{{1,2}}|{_ZH_NUM})\s*(?:点|點|时(?![间候段刻])|時)"
    rf"(?:\s*(?P<half>半)|\s*(?P<q>一刻|三刻)|\s*(?P<m>\d{{1,2}}|{_ZH_NUM})\s*分?)?"
)
_NOON = re.compile(r"\b(?:noon|midday)\b|正午", re.IGNORECASE)
_MIDNIGHT = re.compile(r"\bmidnight\b|午夜|零点", re.IGNORECASE)

_PERIODS: tuple[tuple[re.Pattern[str], int, int], ...] = (
    (
        re.compile(r"\b(?:early )?morning\b|凌晨|早上|早晨|清晨|上午|今早|明早|早餐时间", re.I),
        6,
        12,
    ),
    (re.compile(r"\blunch ?time\b|\bnoon\b|中午|午间|午饭时间|午餐时间", re.I), 11, 13),
    (re.compile(r"\bafternoon\b|下午", re.I), 12, 18),
    (
        re.compile(r"\bevening\b|\btonight\b|\bnight\b|傍晚|晚上|晚间|今晚|明晚|夜里|夜间", re.I),
        18,
        24,
    ),
)
_PM_PERIODS = re.compile(r"下午|傍晚|晚上|晚间|夜里|夜间|今晚|明晚|evening|night|afternoon", re.I)
_NOON_PERIODS = re.compile(r"中午|正午|午间|noon", re.I)
# "晚上12点" / "tonight 12:00" is midnight, the end of that day (下午12点 stays noon)
_NIGHT_PERIODS = re.compile(r"晚上|晚间|夜里|夜间|今晚|明晚|night", re.I)

_TODAY = re.compile(
    r"\btoday\b|\btonight\b|\bthis (?:morning|afternoon|evening)\b|今天|今日|今晚|今早", re.I
)
_TOMORROW = re.compile(r"\btomorrow\b|明天|明日|明晚|明早", re.I)
_DAY_AFTER = re.compile(r"\bday after tomorrow\b|后天|後天", re.I)
_EN_WEEKDAY = re.compile(
    r"\b(?P<q>next|this|coming)?\s*(?P<w>" + "|".join(_EN_WEEKDAYS) + r")\b", re.IGNORECASE
)
_ZH_WEEKDAY = re.compile(
    r"(?P<q>下|本|这|這)?\s*(?:个)?(?:周|星期|礼拜|禮拜)(?P<w>[一二三四五六日天七])"
)

_RELATIVE_DAY = re.compile(
    "|".join(
        re.sub(r"\?P<\w+>", "?:", p.pattern)
        for p in (_TODAY, _TOMORROW, _DAY_AFTER, _EN_WEEKDAY, _ZH_WEEKDAY)
    ),
    re.IGNORECASE,
)

_DURATION = re.compile(
    r"within\s+(?:(?P<half>half an?)|(?P<an>an?)|(?P<n>\d+))\s*(?P<u>hours?|minutes?|mins?)|"
    r"(?P<zn>半|\d+|[一二两三四五六七八九十]{1,3})\s*(?:个)?\s*(?P<zu>小时|钟头|分钟)(?:之内|以内|内)",
    re.IGNORECASE,
)

_BETWEEN = re.compile(r"\bbetween\b|\bfrom\b|之间|期间|时间段|时段|范围内|区间")
_RANGE_SEP = re.compile(r"^\s*(?:-|–|—|~|～|至|到|and|to|until|till)\s*$", re.IGNORECASE)
_AROUND = re.compile(
    r"\baround\b|\babout\b|\bapprox(?:imately|\.)?|\broughly\b|\bclose to\b|\bnear\b|"
    r"左右|前后|上下|大约|大概|约",
    re.IGNORECASE,
)
_NOT_LATER = re.compile(
    r"\bno later than\b|\bnot later than\b|\bnot after\b|\bat the latest\b|\bon or before\b|"
    r"\bor before\b|\bor earlier\b|不晚于|不迟于|最晚|最迟|及以前|及之前|或之前|或以前",
    re.IGNORECASE,
)
_NOT_EARLIER = re.compile(
    r"\bno earlier than\b|\bnot earlier than\b|\bnot before\b|\bat the earliest\b|"
    r"\bon or after\b|\bor after\b|\bor later\b|不早于|最早|及以后|及之后|或之后|或以后",
    re.IGNORECASE,
)
_BEFORE = re.compile(
    r"\bbefore\b|\bby\b|\bprior to\b|\bearlier than\b|\buntil\b|\bup to\b|早于|之前|以前|前(?!后)",
    re.IGNORECASE,
)
_AFTER = re.compile(r"\bafter\b|\blater than\b|\bfrom\b|晚于|之后|以后|(?<!前)后(?!天)", re.I)


@dataclass(frozen=True)
class _Point:
    """A moment read from text: its position, day (if stated) and time of day (if stated)."""

    start: int
    end: int
    day: date | None
    tod: time | None
    end_of_day: bool = False


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _days(text: str, clock: datetime) -> list[tuple[int, int, date]]:
    """Every day named in ``text`` with its span."""
    found: list[tuple[int, int, date]] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, day: date | None) -> None:
        if day is not None and not any(s < end and start < e for s, e in taken):
            found.append((start, end, day))
            taken.append((start, end))

    for m in _STAMP.finditer(text):
        mo, d = m["mo"] or m["mo2"], m["d"] or m["d2"]
        add(m.start(), m.end(), _safe_date(int(m["y"]), int(mo), int(d)))
    for m in _MONTH_DAY_ZH.finditer(text):
        add(m.start(), m.end(), _safe_date(clock.year, int(m["mo"]), int(m["d"])))
    for m in _MONTH_DAY_EN.finditer(text):
        mon = (m["mon"] or m["mon2"]).lower().rstrip(".")
        year = m["y"] or m["y2"]
        day = int(m["d"] or m["d2"])
        add(m.start(), m.end(), _safe_date(int(year) if year else clock.year, _MONTHS[mon], day))
    for m in _DAY_AFTER.finditer(text):
        add(m.start(), m.end(), clock.date() + timedelta(days=2))
    for m in _TOMORROW.finditer(text):
        add(m.start(), m.end(), clock.date() + timedelta(days=1))
    for m in _TODAY.finditer(text):
        add(m.start(), m.end(), clock.date())
    for m in _EN_WEEKDAY.finditer(text):
        add(m.start(), m.end(), _weekday(clock.date(), _EN_WEEKDAYS.index(m["w"].lower()), m["q"]))
    for m in _ZH_WEEKDAY.finditer(text):
        q = {"下": "next", "本": "this", "这": "this", "這": "this"}.get(m["q"] or "")
        add(m.start(), m.end(), _weekday(clock.date(), _ZH_WEEKDAYS[m["w"]], q))
    return sorted(found)


def _weekday(today: date, weekday: int, qualifier: str | None) -> date:
    """The day named by a weekday: ``next`` → that weekday of next week (Monday-based);
    otherwise its next occurrence from today (today included)."""
    if qualifier is not None and qualifier.lower() == "next":
        monday = today - timedelta(days=today.weekday()) + timedelta(days=7)
        return monday + timedelta(days=weekday)
    return today + timedelta(days=(weekday - today.weekday()) % 7)


def _hour(h: int, period: str | None, ap: str | None) -> int | None:
    if ap is not None:
        pm = ap.lower().startswith("p")
        if not 1 <= h <= 12:
            return None
        return (h % 12) + (12 if pm else 0)
    if period and h == 12 and _NIGHT_PERIODS.search(period):
        return 24
    if period and _PM_PERIODS.search(period) and h < 12:
        return h + 12
    if period and _NOON_PERIODS.search(period) and 1 <= h <= 3:
        return h + 12
    return h if 0 <= h <= 24 else None


def _times(text: str) -> list[tuple[int, int, time, bool]]:
    """Every time of day in ``text``: (start, end, time, is end of day)."""
    found: list[tuple[int, int, time, bool]] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, h: int | None, mi: int, s: int = 0) -> None:
        if h is None or not 0 <= mi < 60 or any(a < end and start < b for a, b in taken):
            return
        taken.append((start, end))
        if h == 24:
            found.append((start, end, time(23, 59, 59), True))
        elif 0 <= h < 24:
            found.append((start, end, time(h, mi, s), False))

    # the part of the day just before a clock time ("晚上8:00", "tonight at 8:00") or just
    # after it ("8:00 tonight", "8:00 in the evening")
    period_near = re.compile(
        rf"({_ZH_PERIOD}|evening|night|afternoon|morning|noon)"
        r"(?:\s+(?:at|by|before|after|around|about|until|till))?\s*$",
        re.I,
    )
    period_after = re.compile(
        r"\s*(?:to(night)|(?:this|in the|tomorrow) (evening|afternoon|morning)|at (night))\b", re.I
    )
    for m in _CLOCK.finditer(text):
        near = period_near.search(text[max(0, m.start() - 20) : m.start()])
        after = period_after.match(text, m.end())
        period = near.group(1) if near else None
        if period is None and after is not None:
            period = next(g for g in after.groups() if g)
        h = _hour(int(m["h"]), period, m["ap"])
        add(m.start(), m.end(), h, int(m["m"]), int(m["s"] or 0))
    for m in _AMPM.finditer(text):
        add(m.start(), m.end(), _hour(int(m["h"]), None, m["ap"]), 0)
    for m in _EN_WORD_HOUR.finditer(text):
        add(m.start(), m.end(), _hour(_EN_NUMBERS[m["h"].lower()], None, m["ap"]), 0)
    for m in _ZH_CLOCK.finditer(text):
        h = zh_number(m["h"])
        if h is None:
            continue
        if m["p"] is None and not m["h"].isdigit() and not (m["half"] or m["m"] or m["q"]):
            tail = text[m.end() : m.end() + 3]
            if not re.match(r"\s*(?:前|后|以前|之前|以后|之后|左右|前后|整|钟)", tail):
                continue  # "快一点" (a bit faster) is not one o'clock
        minute = 30 if m["half"] else 15 if m["q"] == "一刻" else 45 if m["q"] else 0
        if m["m"]:
            minute = zh_number(m["m"]) or 0
        add(m.start(), m.end(), _hour(h, m["p"], None), minute)
    for m in _NOON.finditer(text):
        add(m.start(), m.end(), 12, 0)
    for m in _MIDNIGHT.finditer(text):
        add(m.start(), m.end(), 24, 0)
    return sorted(found)


def _points(text: str, clock: datetime) -> list[_Point]:
    """Days and times of ``text`` paired into moments (a day and a time close together are one
    moment; a lone day given once applies to every time)."""
    days = _days(text, clock)
    times = _times(text)
    points: list[_Point] = []
    used_days: set[int] = set()
    for ts, te, tod, eod in times:
        best = None
        for i, (ds, de, _day) in enumerate(days):
            gap = ts - de if ds < ts else ds - te
            if gap <= 8 and i not in used_days and (best is None or gap < best[0]):
                best = (gap, i)
        if best is not None:
            used_days.add(best[1])
            ds, de, day = days[best[1]]
            points.append(_Point(min(ds, ts), max(de, te), day, tod, eod))
        else:
            points.append(_Point(ts, te, None, tod, eod))
    lone = [d for i, d in enumerate(days) if i not in used_days]
    if lone and points and all(p.day is None for p in points) and len(lone) == 1:
        points = [replace(p, day=lone[0][2]) for p in points]
    elif not points:
        points = [_Point(s, e, d, None) for s, e, d in lone]
    elif lone:  # a day besides dated times: leave it (it names another moment)
        pass
    return sorted(points, key=lambda p: p.start)


def _moment(p: _Point, clock: datetime) -> datetime | None:
    if p.tod is None:
        return None
    day = p.day
    if day is None:
        day = clock.date()
        if (
            datetime.combine(day, p.tod) < clock - timedelta(minutes=AROUND_MIN)
            and not p.end_of_day
        ):
            day += timedelta(days=1)
    return datetime.combine(day, p.tod)


def _day_window(day: date) -> Window:
    return Window(datetime.combine(day, time(0, 0)), datetime.combine(day, time(23, 59, 59)))


def _window(text: str, clock: datetime) -> tuple[Relation, Window, bool] | None:
    """The window ``text`` states: (relation, window, has a time of day)."""
    duration = _DURATION.search(text)
    if duration is not None:
        minutes = _duration_minutes(duration)
        if minutes is not None:
            return "before", Window(clock, clock + timedelta(minutes=minutes)), True
    points = _points(text, clock)
    if not points:
        period = _period(text, clock)
        return period
    timed = [p for p in points if p.tod is not None]
    if not timed:
        day = points[0].day
        assert day is not None
        period = _period(text, clock, day)
        return period or ("on", _day_window(day), False)
    first = timed[0]
    a = _moment(first, clock)
    assert a is not None
    if len(timed) >= 2:
        between = text[first.end : timed[1].start]
        if _RANGE_SEP.match(between) or (_BETWEEN.search(text) and len(between) <= 12):
            second = timed[1]
            if second.day is None:
                second = replace(second, day=first.day)
            elif first.day is None:
                a = _moment(replace(first, day=second.day), clock)
            b = _moment(second, clock)
            assert a is not None and b is not None
            lo, hi = sorted((a, b))
            return "between", Window(lo, hi), True
    tail = text[first.end : first.end + 16]
    head = text[max(0, first.start - 24) : first.start]
    near = head + " " + text[first.start : first.end] + " " + tail
    day_end = _day_window(a.date()).end if first.day is not None else None
    # "before noon tomorrow" / "下周五18点前" names the day of the arrival: it is on that day;
    # "before 18:30 on 2025-11-28" is a deadline (an earlier day meets it, as written)
    relative = _RELATIVE_DAY.search(text[first.start : first.end]) is not None
    day_start = _day_window(a.date()).start if relative and a.time() != time(0) else None
    if _NOT_LATER.search(near):
        return "before", Window(day_start, a), True
    if _NOT_EARLIER.search(near):
        return "after", Window(a, day_end), True
    if _AROUND.search(near):
        return "around", _around(a), True
    if _BEFORE.search(near):
        return "before", Window(day_start, a), True
    if _AFTER.search(near):
        return "after", Window(a, day_end), True
    return "around", _around(a), True


def _around(moment: datetime) -> Window:
    span = timedelta(minutes=AROUND_MIN)
    return Window(moment - span, moment + span)


_NAME_WORD = re.compile(r"[A-Z][\w'’-]*")


def _in_name(text: str, m: re.Match[str]) -> bool:
    """Whether a period word is part of a capitalised name ("Garden Night Market", "Morning
    Glory Café"): it is capitalised and so is the word after it or (not at the start of the
    text) the word before it."""
    if not m.group(0)[:1].isupper():
        return False
    after = _NAME_WORD.match(text[m.end() :].lstrip())
    words_before = text[: m.start()].split()
    before = bool(words_before) and _NAME_WORD.fullmatch(words_before[-1].strip(",.;:")) is not None
    return after is not None or (before and len(words_before) > 1)


def _period(
    text: str, clock: datetime, day: date | None = None
) -> tuple[Relation, Window, bool] | None:
    for pattern, lo, hi in _PERIODS:
        if any(not _in_name(text, m) for m in pattern.finditer(text)):
            when = day
            if when is None:
                when = clock.date()
                if datetime.combine(when, time(0)) + timedelta(hours=hi) <= clock:
                    when += timedelta(days=1)
            start = datetime.combine(when, time(lo))
            end = (
                datetime.combine(when, time(23, 59, 59))
                if hi == 24
                else datetime.combine(when, time(hi))
            )
            return "between", Window(start, end), True
    return None


def _duration_minutes(m: re.Match[str]) -> float | None:
    if m["u"]:
        amount = 0.5 if m["half"] else 1.0 if m["an"] else float(m["n"])
        return amount * (60 if m["u"].lower().startswith("h") else 1)
    zn = m["zn"]
    amount = 0.5 if zn == "半" else float(zh_number(zn) or 0)
    return amount * (60 if m["zu"] in ("小时", "钟头") else 1) or None


# ---- party size, note ------------------------------------------------------------------------------

_PEOPLE_EN = re.compile(
    r"\b(?P<n>\d+|" + "|".join(_EN_NUMBERS) + r")\s*(?:people|persons|person|guests|diners|pax|"
    r"adults?)\b|\b(?:party|table|group) (?:of|for) (?P<n2>\d+|" + "|".join(_EN_NUMBERS) + r")\b|"
    r"\bnumber of (?:people|guests|diners|persons)\b[^.;]*?\b(?P<n3>\d+|"
    + "|".join(_EN_NUMBERS)
    + r")\b",
    re.IGNORECASE,
)
_PEOPLE_ZH = re.compile(
    rf"(?P<n>\d+|{_ZH_NUM})\s*(?:个)?\s*(?:人|位)(?![民员物气群])|人数[^，。；]*?(?P<n2>\d+|{_ZH_NUM})"
)
_NOTE_KEYS = re.compile(r"\b[Nn]otes?\b(?! [A-Z])|\b[Rr]emarks?\b|备注|留言")
_QUOTED = re.compile(r"[\"“”'‘’「『](?P<q>[^\"“”'‘’「」『』]+)[\"“”'‘’」』]")


def _party_size(text: str) -> int | None:
    for pattern in (_PEOPLE_EN, _PEOPLE_ZH):
        m = pattern.search(text)
        if m is not None:
            raw = next(
                g for g in (m.group("n"), m.groupdict().get("n2"), m.groupdict().get("n3")) if g
            )
            value = _number(raw)
            if value is not None and 0 < value < 100:
                return value
    return None


def _note_text(text: str, key: re.Match[str]) -> str:
    """The wording of a note the rubric gives ("" when it only asks for one)."""
    quoted = _QUOTED.search(text, key.end())
    if quoted is not None:
        return quoted["q"].strip()
    rest = text[key.end() :]
    colon = re.search(r"[:：]", rest)
    if colon is not None:
        return rest[colon.end() :].strip(" .。")
    # "… should note no disposable tableware", "应当备注不要一次性餐具", "备注为少辣"
    verb = re.search(
        r"(?:should|must|to|please|应当?|应该|需要?|请)\s*$", text[: key.start()], re.I
    )
    if verb is not None:
        body = re.sub(r"^\s*(?:为|是|写)\s*", "", rest)
        cut = _REASON.search(body)
        body = (body[: cut.start()] if cut else body).strip(" .。,，")
        if body and not re.match(r"(?:to|for|on|with|that|of)\b", body, re.I):
            return body
    return ""


# ---- the entry point ---------------------------------------------------------------------------------


def _clauses(text: str) -> list[tuple[int, str]]:
    """The rubric cut at sentence punctuation (commas inside an English date kept)."""
    out: list[tuple[int, str]] = []
    start = 0
    for m in re.finditer(r"[;；。]|[，,](?!\s*\d{4})", text):
        out.append((start, text[start : m.start()]))
        start = m.end()
    out.append((start, text[start:]))
    return [(s, c) for s, c in out if c.strip()]


FAR_DAYS = 7
"""A delivery bound stated more days than this from the task's clock is a slip of the date."""


def near_clock(window: Window, clock: datetime) -> tuple[Window, int]:
    """``window`` of a delivery moved by whole days to the clock when it is stated more than
    :data:`FAR_DAYS` days after it, and the days moved (0 when it is not; a window before the
    clock is one no arrival can meet: "as soon as possible", see the state grader).

    Deliveries are same-day services: "before 2025-05-23 12:15" on a 2025-02-08 clock (official
    D0716001, whose instructions say "before the session starts" today) keeps its time of day
    on the first day that puts it at or after the clock; lint warns about such a rubric.
    """
    anchor = window.end or window.start
    if anchor is None or anchor - clock <= timedelta(days=FAR_DAYS):
        return window, 0
    target = datetime.combine(clock.date(), anchor.time())
    if target < clock:
        target += timedelta(days=1)  # the first such time of day at or after the clock
    shift = target - anchor
    moved = Window(
        None if window.start is None else window.start + shift,
        None if window.end is None else window.end + shift,
    )
    return moved, shift.days


def to_clock(stated: Stated, clock: datetime) -> Stated:
    """``stated`` with a delivery window stated far after the clock moved to it
    (:func:`near_clock`; ``moved_days`` says by how much)."""
    if stated.target != "delivery" or stated.window is None:
        return stated
    window, moved = near_clock(stated.window, clock)
    return stated if not moved else replace(stated, window=window, moved_days=moved)


def parse_rubric(
    rubric: str, clock: datetime, targets: frozenset[Target] = frozenset({"delivery"})
) -> list[Stated]:
    """The constraints ``rubric`` states about records of ``targets`` (see the module docstring).

    ``clock`` is the task's clock (relative days and times without a day are read from it).
    """
    text = fold(rubric)
    out: list[Stated] = []
    keys: list[tuple[Target, re.Pattern[str]]] = [
        (t, p)
        for t, p in (
            ("delivery", _DELIVERY_KEYS),
            ("appointment", _APPOINTMENT_KEYS),
            ("booking", _BOOKING_KEYS),
        )
        if t in targets
    ]
    for offset, clause in _clauses(text):
        if _ADDRESS_KEYS.search(clause) and not _CLOCK.search(clause):
            continue
        if _CONDITION.match(clause):
            continue  # "when checking whether … at 11:00", "如果…": a condition, not the ask
        for target, pattern in keys:
            key = pattern.search(clause)
            if key is None:
                continue
            subject, predicate = _predicate(clause, key)
            subject = text[:offset] + subject
            if target == "booking":
                # Bookings are per day ("the night of 2024-11-30"); times of day in their
                # rubrics are the product's (a flight's departure), not asks.
                days = {d for _, _, d in _days(predicate, clock)}
                read: tuple[Relation, Window, bool] | None = (
                    ("on", _day_window(days.pop()), False) if len(days) == 1 else None
                )
            else:
                read = _window(predicate, clock)
            if read is not None:
                relation, window, timed = read
                out.append(
                    Stated(
                        field="time" if timed else "date",
                        target=target,
                        rubric=rubric,
                        subject=subject,
                        relation=relation,
                        window=window,
                    )
                )
            if target == "appointment":
                count = _party_size(predicate) or (
                    _party_size(clause)
                    if re.search(r"number|人数|people|人", clause, re.I)
                    else None
                )
                if count is not None:
                    out.append(Stated("party_size", target, rubric, subject, count=count))
            break
    note = _NOTE_KEYS.search(text)
    if note is not None:
        subject = text[: note.start()]
        out.append(Stated("note", "delivery", rubric, subject, text=_note_text(text, note)))
    return out


# ---- actions on named records -----------------------------------------------------------------------

Action = Literal["cancel", "note", "reorder", "keep", "pay", "change"]

_ACTIONS: tuple[tuple[Action, re.Pattern[str]], ...] = (
    (
        "reorder",
        re.compile(
            r"\bagain\b|\bone more\b|\bre-?order|\banother (?:serving|portion|one)\b|再下单|再来|再点|再买|再订|重新下",
            re.I,
        ),
    ),
    ("cancel", re.compile(r"cancel|取消", re.I)),
    ("note", _NOTE_KEYS),
    (
        "keep",
        re.compile(
            r"unchanged|remain|\bkeep\b|\bkept\b|保持不变|不变|保留|不要改动|不做改动", re.I
        ),
    ),
    (
        "change",
        re.compile(
            r"\bchange[ds]? to\b|\bmoved? to\b|\bmodif|\breschedul|改签|改为|改到|修改|更改|变更为",
            re.I,
        ),
    ),
    ("pay", re.compile(r"\bpa(?:y|id)\b|支付|付款", re.I)),
)


def actions(rubric: str) -> list[Action]:
    """What a rubric asks to do with the records it names, in order of precedence: re-order
    from, cancel, set a note, keep unchanged, change, pay."""
    text = fold(rubric)
    found = [a for a, p in _ACTIONS if p.search(text)]
    if "reorder" in found:
        return ["reorder"]
    if "note" in found and "cancel" not in found:
        found = [a for a in found if a != "change"]
    return found

"""Domain-independent building blocks of a generated task: persona, places, clock, weather.

Every function takes the task's ``random.Random`` and returns language-neutral records whose text
is a :class:`~lifebench.vita.generate.pools.Bi`; rendering into one language happens last, so
the English and Chinese tasks of one sub-seed describe the same world. In-store, OTA and
cross-scenario generators reuse these helpers.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, TypeVar

from lifebench._util.text import Language
from lifebench.vita.domains._geo import haversine_m
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.people import (
    AGE_GROUPS,
    EMOTIONAL_EXPRESSIONS,
    FAMILIES,
    GENDERS,
    INTERACTION_PATTERNS,
    NO_RESTRICTION,
    OCCUPATIONS,
    Restriction,
)
from lifebench.vita.generate.pools.places import (
    CITIES,
    COMPOUND_NAMES,
    COMPOUND_TYPES,
    OFFICE_NAMES,
    OFFICE_TYPES,
    STREET_NAMES,
    STREET_TYPES,
    WEATHER,
    City,
)

T = TypeVar("T")

TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
"""Timestamp format of the task data."""

FIRST_DAY = date(2024, 3, 1)
LAST_DAY = date(2026, 8, 31)
"""Range of task dates (the calendar tools cover 2023–2026)."""

PROFILE_KEYS: tuple[Bi, ...] = (
    Bi("user id", "用户id"),
    Bi("occupation", "职业"),
    Bi("gender", "性别"),
    Bi("age group", "年龄段"),
    Bi("residence", "常住地"),
    Bi("home address", "家庭住址"),
    Bi("work address", "工作地址"),
    Bi("dietary restrictions", "饮食禁忌"),
    Bi("family status", "家庭情况"),
    Bi("personality", "性格"),
)
"""Keys of ``user_scenario.user_profile`` as in the official files (the first seven also open
``user_historical_behaviors``)."""

WEEKDAYS: tuple[Bi, ...] = (
    Bi("Monday", "周一"),
    Bi("Tuesday", "周二"),
    Bi("Wednesday", "周三"),
    Bi("Thursday", "周四"),
    Bi("Friday", "周五"),
    Bi("Saturday", "周六"),
    Bi("Sunday", "周日"),
)
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def pick(rng: random.Random, items: Sequence[T]) -> T:
    """One item of ``items`` (a non-empty sequence, never a set: order must be stable)."""
    return items[rng.randrange(len(items))]


def weighted(rng: random.Random, items: Sequence[tuple[T, float]]) -> T:
    """One item by weight; ``items`` holds (item, weight) pairs."""
    total = sum(w for _, w in items)
    x = rng.random() * total
    for item, w in items:
        x -= w
        if x < 0:
            return item
    return items[-1][0]


def fmt_time(value: datetime) -> str:
    """``YYYY-MM-DD HH:MM:SS``."""
    return value.strftime(TIME_FORMAT)


def clock(value: datetime) -> str:
    """``HH:MM``."""
    return value.strftime("%H:%M")


def day_text(value: date) -> Bi:
    """ "April 12" / "4月12日"."""
    return Bi(f"{_MONTHS[value.month - 1]} {value.day}", f"{value.month}月{value.day}日")


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st …"""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


# --------------------------------------------------------------------------------------------
# Geography
# --------------------------------------------------------------------------------------------


def offset(lon: float, lat: float, bearing_deg: float, metres: float) -> tuple[float, float]:
    """The point ``metres`` away from (lon, lat) on ``bearing_deg``, rounded to 6 decimals."""
    rad = math.radians(bearing_deg)
    d_lat = metres * math.cos(rad) / 111_195.0
    d_lon = metres * math.sin(rad) / (111_195.0 * math.cos(math.radians(lat)))
    return round(lon + d_lon, 6), round(lat + d_lat, 6)


@dataclass(frozen=True)
class Place:
    """A geocoded address of the task (user places, stores …)."""

    address: Bi
    longitude: float
    latitude: float

    def location(self, language: Language) -> dict[str, Any]:
        """The official ``Location`` record."""
        return {
            "address": self.address.get(language),
            "longitude": self.longitude,
            "latitude": self.latitude,
        }

    def metres_to(self, longitude: float, latitude: float) -> int:
        """Distance to a point with the domain's haversine (whole metres)."""
        return haversine_m(self.longitude, self.latitude, longitude, latitude)


@dataclass
class AddressBook:
    """Makes distinct street addresses in one city (no two share street and number)."""

    rng: random.Random
    city: City
    used: set[tuple[str, int]] = field(default_factory=set)

    def _street(self) -> tuple[Bi, int]:
        while True:
            name, kind = pick(self.rng, STREET_NAMES), pick(self.rng, STREET_TYPES)
            street = Bi(f"{name.en} {kind.en}", f"{name.zh}{kind.zh}")
            number = self.rng.randint(1, 499)
            if (street.en, number) not in self.used:
                self.used.add((street.en, number))
                return street, number

    def _region(self, district: Bi) -> tuple[str, str]:
        city = self.city
        en = f"{district.en} District, {city.name.en}"
        zh = f"{city.name.zh}市{district.zh}区"
        if city.province is not None:
            en += f", {city.province.en} Province"
            zh = f"{city.province.zh}省" + zh
        return en, zh

    def home(self) -> Bi:
        """A flat in a residential compound."""
        street, number = self._street()
        district = pick(self.rng, self.city.districts)
        compound = pick(self.rng, COMPOUND_NAMES)
        kind = pick(self.rng, COMPOUND_TYPES)
        building = self.rng.randint(1, 18)
        room = self.rng.randint(1, 28) * 100 + self.rng.randint(1, 6)
        region_en, region_zh = self._region(district)
        return Bi(
            f"Room {room}, Building {building}, {compound.en} {kind.en}, {number} {street.en}, "
            f"{region_en}",
            f"{region_zh}{street.zh}{number}号{compound.zh}{kind.zh}{building}号楼{room}室",
        )

    def office(self) -> Bi:
        """A floor of an office building."""
        street, number = self._street()
        district = pick(self.rng, self.city.districts)
        name = pick(self.rng, OFFICE_NAMES)
        kind = pick(self.rng, OFFICE_TYPES)
        floor = self.rng.randint(2, 32)
        region_en, region_zh = self._region(district)
        return Bi(
            f"{ordinal(floor)} Floor, {name.en} {kind.en}, {number} {street.en}, {region_en}",
            f"{region_zh}{street.zh}{number}号{name.zh}{kind.zh}{floor}楼",
        )

    def venue(self) -> Bi:
        """A plain street address (a hotel, an attraction …): number, street, district, city."""
        street, number = self._street()
        district = pick(self.rng, self.city.districts)
        region_en, region_zh = self._region(district)
        return Bi(f"{number} {street.en}, {region_en}", f"{region_zh}{street.zh}{number}号")

    def shop(self) -> Bi:
        """A street-front shop."""
        street, number = self._street()
        district = pick(self.rng, self.city.districts)
        unit = self.rng.randint(1, 40)
        region_en, region_zh = self._region(district)
        return Bi(
            f"Shop {unit}, {number} {street.en}, {region_en}",
            f"{region_zh}{street.zh}{number}号{unit}号铺",
        )


def place_around(rng: random.Random, anchor: Place, address: Bi, lo_m: float, hi_m: float) -> Place:
    """A place between ``lo_m`` and ``hi_m`` metres (haversine) from ``anchor``."""
    for _ in range(50):
        lon, lat = offset(
            anchor.longitude, anchor.latitude, rng.uniform(0, 360), rng.uniform(lo_m, hi_m)
        )
        if lo_m <= anchor.metres_to(lon, lat) <= hi_m:
            return Place(address, lon, lat)
    raise AssertionError(f"cannot place a point {lo_m}-{hi_m} m away")  # pragma: no cover


# --------------------------------------------------------------------------------------------
# Persona
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Persona:
    """The simulated user: personal and behaviour attributes, and their home and work."""

    user_id: str
    occupation: Bi
    gender: Bi
    age_group: str
    family: Bi
    personality: Bi
    restriction: Restriction | None
    city: City
    home: Place
    work: Place

    def profile(self, language: Language) -> dict[str, str]:
        """``user_scenario.user_profile`` with the official keys, in the official order."""
        diet = self.restriction.profile if self.restriction else NO_RESTRICTION
        values: tuple[str, ...] = (
            self.user_id,
            self.occupation.get(language),
            self.gender.get(language),
            self.age_group,
            self.city.name.get(language),
            self.home.address.get(language),
            self.work.address.get(language),
            diet.get(language),
            self.family.get(language),
            self.personality.get(language),
        )
        return {k.get(language): v for k, v in zip(PROFILE_KEYS, values, strict=True)}

    def history_head(self, language: Language) -> dict[str, str]:
        """The seven profile keys that open ``user_historical_behaviors``."""
        return dict(list(self.profile(language).items())[:7])


def make_persona(
    rng: random.Random,
    restrictions: Sequence[Restriction],
    restriction_rate: float = 0.8,
    book: AddressBook | None = None,
) -> tuple[Persona, AddressBook]:
    """A persona in a random city (home 1.5–6 km from the centre, work 3–8 km from home).

    Returns the persona and the address book of its city (for further distinct addresses).
    """
    city = pick(rng, CITIES)
    book = book or AddressBook(rng, city)
    centre = Place(Bi("", ""), city.longitude, city.latitude)
    home = place_around(rng, centre, book.home(), 1500, 6000)
    work = place_around(rng, home, book.office(), 3000, 8000)
    emotion = pick(rng, EMOTIONAL_EXPRESSIONS)
    pattern = pick(rng, INTERACTION_PATTERNS)
    restriction = pick(rng, restrictions) if rng.random() < restriction_rate else None
    persona = Persona(
        user_id=f"U{rng.randint(100000, 999999)}",
        occupation=pick(rng, OCCUPATIONS),
        gender=pick(rng, GENDERS),
        age_group=pick(rng, AGE_GROUPS),
        family=pick(rng, FAMILIES),
        personality=Bi(f"{emotion.en}; {pattern.en}", f"{emotion.zh}；{pattern.zh}"),
        restriction=restriction,
        city=city,
        home=home,
        work=work,
    )
    return persona, book


# --------------------------------------------------------------------------------------------
# Clock and weather
# --------------------------------------------------------------------------------------------


def random_day(rng: random.Random) -> date:
    """A day between :data:`FIRST_DAY` and :data:`LAST_DAY`."""
    return FIRST_DAY + timedelta(days=rng.randint(0, (LAST_DAY - FIRST_DAY).days))


def random_moment(
    rng: random.Random, day: date, start: tuple[int, int], end: tuple[int, int]
) -> datetime:
    """A time (with seconds) on ``day`` between ``start`` and ``end`` (hour, minute)."""
    first = start[0] * 60 + start[1]
    last = end[0] * 60 + end[1]
    minute = rng.randint(first, last)
    hour, minute, second = minute // 60, minute % 60, rng.randint(0, 59)
    return datetime(day.year, day.month, day.day, hour, minute, second)  # noqa: DTZ001 - naive task clock


@dataclass(frozen=True)
class WeatherDraft:
    """Weather of one day, language-neutral."""

    category: Bi
    low: int
    high: int
    humidity: int

    @property
    def rainy(self) -> bool:
        """Whether it rains."""
        return self.category.en in ("rainy", "showers")

    def record(self, city: City, day: date, language: Language) -> dict[str, Any]:
        """The official ``Weather`` record."""
        suffix = " City" if language == "en" else "市"
        return {
            "city": city.name.get(language) + suffix,
            "category": self.category.get(language),
            "datetime": day.isoformat(),
            "temperature": [self.low, self.high],
            "humidity": self.humidity,
        }


def weather_entry(rng: random.Random, city: City, day: date) -> WeatherDraft:
    """Seasonal weather for ``city`` on ``day``."""
    mean, swing, humidity = city.climate
    season = -math.cos(2 * math.pi * (day.timetuple().tm_yday - 15) / 365.0)
    middle = mean + swing * season + rng.uniform(-2.5, 2.5)
    spread = rng.randint(3, 6)
    category = weighted(rng, [(c, float(w)) for c, w in WEATHER])
    wet = 12 if category.en in ("rainy", "showers") else 0
    return WeatherDraft(
        category=category,
        low=round(middle - spread),
        high=round(middle + spread),
        humidity=max(20, min(98, humidity + wet + rng.randint(-10, 10))),
    )

"""Holiday tools: get_holiday_date's festival table and get_date_holiday_info."""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any

import holidays
import pytest

from lifebench.vita.domains._calendar import FESTIVAL_YEARS, FESTIVALS, find_festival
from lifebench.vita.domains.delivery import DeliveryEnvironment
from lifebench.vita.task import VitaTask


def make_env(language: Any = "en") -> DeliveryEnvironment:
    task = VitaTask(id="CAL", environment={"time": "2025-06-21 11:20:00", "user_id": "U1"})
    return DeliveryEnvironment(task, language=language)


async def holiday_date(env: DeliveryEnvironment, year: str, name: str) -> dict[str, Any]:
    out = await env.tools.run("get_holiday_date", {"year": year, "holiday_name": name})
    assert not out.error, out.content
    result: dict[str, Any] = json.loads(out.content)
    return result


@pytest.mark.parametrize(
    ("year", "name", "canonical", "day"),
    [
        ("2025", "Mid-Autumn Festival", "Mid-Autumn Festival", "2025-10-06"),
        ("2025", "mid autumn", "Mid-Autumn Festival", "2025-10-06"),
        ("2025", "中秋节", "Mid-Autumn Festival", "2025-10-06"),
        ("2024", "Chinese New Year", "Spring Festival", "2024-02-10"),
        ("2026", "Qixi", "Qixi Festival", "2026-08-19"),
        ("2025", "Chinese Valentine's Day", "Qixi Festival", "2025-08-29"),
        ("2025", "Valentine's Day", "Valentine's Day", "2025-02-14"),
        ("2025", "Mother's Day", "Mother's Day", "2025-05-11"),
        ("2023", "Dragon Boat", "Dragon Boat Festival", "2023-06-22"),
        ("2025", "Christmas", "Christmas Day", "2025-12-25"),
        ("2025年", "Thanksgiving", "Thanksgiving Day", "2025-11-27"),
        ("2025", "Lantern Festival", "Lantern Festival", "2025-02-12"),
    ],
)
async def test_get_holiday_date(year: str, name: str, canonical: str, day: str) -> None:
    out = await holiday_date(make_env(), year, name)
    assert out == {"year": int(year[:4]), "holiday": canonical, "date": day}


async def test_get_holiday_date_names_follow_the_language() -> None:
    out = await holiday_date(make_env("zh"), "2025", "Double Ninth Festival")
    assert out == {"year": 2025, "holiday": "重阳节", "date": "2025-10-29"}


def test_statutory_festivals_agree_with_the_holidays_package() -> None:
    names = {
        "Spring Festival": "Chinese New Year (Spring Festival)",
        "Qingming Festival": "Tomb-Sweeping Day",
        "Dragon Boat Festival": "Dragon Boat Festival",
        "Mid-Autumn Festival": "Mid-Autumn Festival",
    }
    for year in FESTIVAL_YEARS:
        official = holidays.country_holidays("CN", years=year, language="en_US")
        for ours, theirs in names.items():
            fest = find_festival(ours)
            assert fest is not None
            first = min(d for d, n in official.items() if n == theirs)
            assert fest.on(year) == first, (year, ours)
        eve = find_festival("Chinese New Year's Eve")
        spring = find_festival("Spring Festival")
        lantern = find_festival("Lantern Festival")
        assert eve is not None and spring is not None and lantern is not None
        assert eve.on(year) == spring.on(year) - timedelta(days=1)
        assert lantern.on(year) == spring.on(year) + timedelta(days=14)


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    first = date(year, month, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def test_western_movable_days() -> None:
    mother, father, thanks = (
        find_festival(n) for n in ("Mother's Day", "Father's Day", "Thanksgiving")
    )
    assert mother is not None and father is not None and thanks is not None
    for year in FESTIVAL_YEARS:
        assert mother.on(year) == _nth_weekday(year, 5, 6, 2)  # 2nd Sunday of May
        assert father.on(year) == _nth_weekday(year, 6, 6, 3)  # 3rd Sunday of June
        assert thanks.on(year) == _nth_weekday(year, 11, 3, 4)  # 4th Thursday of November


def test_festival_table_is_well_formed() -> None:
    assert len({f.en for f in FESTIVALS}) == len(FESTIVALS)
    for fest in FESTIVALS:
        assert len(fest.dates) == len(FESTIVAL_YEARS) and fest.zh
        for year in FESTIVAL_YEARS:
            fest.on(year)  # a real calendar date
        assert find_festival(fest.en) is fest and find_festival(fest.zh) is fest


@pytest.mark.parametrize(
    ("day", "language", "is_holiday", "names", "weekday"),
    [
        ("2025-10-01", "en", True, ["National Day"], "Wednesday"),
        ("2025-10-06", "zh", True, ["中秋节"], "星期一"),
        ("2025-06-21", "en", False, [], "Saturday"),
        ("2024-02-10", "en", True, ["Chinese New Year (Spring Festival)"], "Saturday"),
    ],
)
async def test_get_date_holiday_info(
    day: str, language: Any, is_holiday: bool, names: list[str], weekday: str
) -> None:
    env = make_env(language)
    out = await env.tools.run("get_date_holiday_info", {"date": day})
    assert not out.error, out.content
    assert json.loads(out.content) == {
        "date": day,
        "weekday": weekday,
        "is_holiday": is_holiday,
        "holidays": names,
    }

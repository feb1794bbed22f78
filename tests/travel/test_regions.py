"""Administrative-division resolution agrees with the official table's outcomes."""

from __future__ import annotations

import hashlib
import json
from importlib import resources

import pytest

from lifebench.travel.tools.regions import region_table, resolve


def test_reconciled_table_is_the_official_set_of_full_names() -> None:
    """The pinned sha256 is that of the official harness's 3,533 full names (sorted, one per
    line), computed from its adcode.txt; our table (cpca + overrides) must reproduce it."""
    overrides = json.loads(
        resources.files("lifebench.travel.tools")
        .joinpath("region_overrides.json")
        .read_text("utf-8")
    )
    names = sorted(region_table().by_full_name)
    assert len(names) == overrides["official_fullnames"] == 3533
    digest = hashlib.sha256("\n".join(names).encode()).hexdigest()
    assert (
        digest
        == overrides["official_sha256"]
        == ("838802e856d5795a9f276bf3c62b6d5213a8e42d05146849ef72a27bafa16f81")
    )


@pytest.mark.parametrize(
    ("name", "note", "matches"),
    [
        ("上海市", "exact match", 1),
        ("杭州市", "suffix match", 1),
        ("浦东新区", "suffix match", 1),
        ("上海", "no match", 0),
        ("杭州", "no match", 0),
        ("北京市北京市", "no match", 0),
        ("朝阳区", "ambiguous matches", 2),
        ("鼓楼区", "ambiguous matches", 4),
        ("  北京市海淀区 ", "exact match", 1),
    ],
)
def test_spec_verified_outcomes(name: str, note: str, matches: int) -> None:
    outcome = resolve(name)
    assert outcome.note == note and len(outcome.matches) == matches


def test_ambiguous_matches_are_sorted_by_length_then_text() -> None:
    names = [m.full_name for m in resolve("鼓楼区").matches]
    assert names == sorted(names, key=lambda n: (len(n), n))


def test_official_quirks_are_kept() -> None:
    assert resolve("安徽省宿州市_桥区").resolved is not None  # the official table's "_" name
    assert resolve("埇桥区").resolved is None
    assert resolve("山东省烟台市蓬莱").resolved is not None and resolve("蓬莱市").resolved is None
    assert resolve("湖北省仙桃市").resolved is not None


def test_places_have_centres_for_the_offline_world() -> None:
    table = region_table()
    provinces = [p for p in table.by_full_name.values() if p.adcode % 10000 == 0]
    assert all(p.latitude is not None for p in provinces if 110000 <= p.adcode < 700000)
    hz = resolve("杭州市").resolved
    assert hz is not None and hz.latitude is not None and 29.5 < hz.latitude < 31

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


# --- regression: the shipped table gives what cpca's own file gave -------------------------
#
# Pinned on the table read from the cpca 0.5.5 package (before lifebench shipped its data file):
# every place (full name, adcode, own name, centre, whether the centre is its own), and the
# outcome of resolving 13,751 names derived from the table itself — every full name, every own
# name, every tail after a division suffix (省市区县旗州盟) and every full name less its last
# character.

TABLE_SHA256 = "c10e3f99b14945fb7049e703d6b8414cdfd05b8615f87021c856cb2b31a8030a"
OUTCOMES_SHA256 = "ede7af8e701514184fa195bdd651ed8436827d781375d42509b90a2b1e0cb3ce"


def test_the_table_is_unchanged_from_cpcas() -> None:
    lines = sorted(
        f"{p.full_name}\t{p.adcode}\t{p.name}\t{p.latitude!r}\t{p.longitude!r}\t{p.own_centre}"
        for p in region_table().by_full_name.values()
    )
    assert len(lines) == 3533
    assert hashlib.sha256("\n".join(lines).encode()).hexdigest() == TABLE_SHA256


def _derived_queries() -> list[str]:
    queries: set[str] = set()
    for full, place in region_table().by_full_name.items():
        queries.update((full, place.name, full[:-1]))
        queries.update(
            full[cut:] for cut in range(1, len(full)) if full[cut - 1] in "省市区县旗州盟"
        )
    return sorted(queries)


def test_resolution_outcomes_are_unchanged_from_cpcas() -> None:
    queries = _derived_queries()
    lines = []
    for query in queries:
        outcome = resolve(query)
        codes = ",".join(str(m.adcode) for m in outcome.matches)
        lines.append(f"{query}\t{outcome.note}\t{codes}")
    assert len(queries) == 13751
    assert hashlib.sha256("\n".join(lines).encode()).hexdigest() == OUTCOMES_SHA256


def test_the_shipped_file_is_cpcas_and_carries_its_licence() -> None:
    folder = resources.files("lifebench.travel.tools").joinpath("data")
    data = folder.joinpath("cpca_adcodes.csv").read_bytes()
    assert hashlib.sha256(data).hexdigest() == (
        "66948fa1519ba053f22b8c2d05c897c9b19c44cdc3044e464b52f0143ff418fe"
    )
    notice = folder.joinpath("NOTICE.md").read_text("utf-8")
    assert "MIT" in notice and "Copyright (c) 2018 QinYuan Du" in notice


def test_cpca_is_not_a_dependency() -> None:
    from importlib.metadata import requires

    assert not [r for r in requires("lifebench") or [] if r.split()[0].startswith("cpca")]

"""Chinese division names (issue 21): the composition rule of full names, a division's own name
when the table has none, the centre borrowed from a parent, and the shipped files — pinned on
small synthetic tables whose every outcome follows from the rule (regions.py's docstring), and
on the functions themselves (region_table is built once per process, so a test that only
resolves names may run on a table another test already built)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from lifebench.travel.tools.regions import (
    _centre_of_parent,
    _cpca_rows,
    _last_name,
    _overrides,
    compose_full_names,
)


def test_a_division_sits_under_its_city_else_its_province() -> None:
    entries = [
        ("甲省", "110000"),
        ("乙市", "110100"),
        ("丙区", "110101"),  # under its city
        ("丁县", "110201"),  # no city 110200: under the province
        ("戊市", "120100"),  # no province 120000: on its own
        ("己区", "120102"),  # under 戊市
        ("庚区", "130101"),  # neither city nor province
    ]
    assert compose_full_names(entries) == {
        "甲省": 110000,
        "甲省乙市": 110100,
        "甲省乙市丙区": 110101,
        "甲省丁县": 110201,
        "戊市": 120100,
        "戊市己区": 120102,
        "庚区": 130101,
    }


def test_a_province_is_never_under_anything() -> None:
    """A code xx0000 has no parent, even when another code's prefix would suit it."""
    entries = [("甲省", "110000"), ("乙省", "120000")]
    assert compose_full_names(entries) == {"甲省": 110000, "乙省": 120000}


def test_a_city_is_under_its_province_only() -> None:
    """xxyy00 sits under xx0000 (not under another xxyy00), and alone without it."""
    entries = [("甲市", "110100"), ("乙区", "110200"), ("丙省", "110000")]
    assert compose_full_names(entries) == {"丙省": 110000, "丙省甲市": 110100, "丙省乙区": 110200}
    assert compose_full_names([("甲市", "110100"), ("乙市", "110200")]) == {
        "甲市": 110100,
        "乙市": 110200,
    }


def test_a_placeholder_is_left_out_of_its_childrens_names() -> None:
    entries = [
        ("北京市", "110000"),
        ("北京市市辖区", "110100"),  # a placeholder city named after its province
        ("海淀区", "110108"),
        ("重庆市", "500000"),
        ("县", "500200"),  # not a placeholder: kept in its children's names
        ("忠县", "500233"),
        ("天津市", "120000"),
        ("市辖区", "120100"),  # a placeholder not starting with its province's name
        ("和平区", "120101"),
    ]
    assert compose_full_names(entries) == {
        "北京市": 110000,
        "北京市市辖区": 110100,  # its own full name: the province's name not repeated
        "北京市海淀区": 110108,
        "重庆市": 500000,
        "重庆市县": 500200,
        "重庆市县忠县": 500233,
        "天津市": 120000,
        "天津市市辖区": 120100,
        "天津市和平区": 120101,
    }


def test_a_placeholders_own_name_and_its_place_in_names_do_not_mix() -> None:
    """The placeholder's own full name and the prefix it gives its children are kept apart,
    whichever is asked for first."""
    child_first = [("甲省", "110000"), ("丙区", "110101"), ("甲省市辖区", "110100")]
    own_first = [("甲省", "110000"), ("甲省市辖区", "110100"), ("丙区", "110101")]
    expected = {"甲省": 110000, "甲省市辖区": 110100, "甲省丙区": 110101}
    assert compose_full_names(child_first) == expected
    assert compose_full_names(own_first) == expected


def test_a_top_level_placeholder_keeps_its_name_and_an_empty_name_is_no_entry() -> None:
    assert compose_full_names([("市辖区", "110000"), ("乙区", "110101")]) == {
        "市辖区": 110000,
        "乙区": 110101,
    }
    assert compose_full_names([("", "150000"), ("乙市", "150100")]) == {"乙市": 150100}


def test_a_name_is_its_own_text_then_its_parents() -> None:
    """A code listed twice keeps its last name (the entries are read in order)."""
    entries = [("甲省", "110000"), ("乙市", "110100"), ("新乙市", "110100")]
    assert compose_full_names(entries) == {"甲省": 110000, "甲省新乙市": 110100}


@pytest.mark.parametrize(
    ("full_name", "own"),
    [
        ("北京市海淀区", "海淀区"),
        ("甲市乙市丙区", "丙区"),  # the last marker before the end, not the first
        ("甲自治县乙县丙镇", "乙县丙镇"),  # 自治县 before 县
        ("甲自治旗乙旗丙", "乙旗丙"),  # 自治旗 before 旗
        ("甲新区乙区丙", "乙区丙"),  # 新区 before 区
        ("甲区乙县丙", "乙县丙"),  # 区 before 县
        ("甲县乙市丙", "乙市丙"),  # 县 before 市
        ("甲市乙旗丙", "乙旗丙"),  # 市 before 旗
        ("甲旗乙", "乙"),
        ("县城关镇", "城关镇"),  # a marker at the very start
        ("海淀区", "海淀区"),  # the closing marker is the name's own
        ("某新区", "某新区"),
        ("安徽省宿州市_桥区", "_桥区"),
        ("区", "区"),
        ("abc", "abc"),
    ],
)
def test_the_own_name_after_the_last_division_marker(full_name: str, own: str) -> None:
    assert _last_name(full_name) == own


def test_the_centre_of_the_city_else_of_the_province() -> None:
    centres: dict[int, tuple[float | None, float | None]] = {
        330100: (30.25, 120.16),
        330000: (30.27, 120.15),
        340100: (None, 117.2),
        340000: (31.86, 117.28),
        350100: (26.07, None),
        350000: (26.1, 119.3),
        360000: (None, None),
    }
    assert _centre_of_parent(330106, centres) == (30.25, 120.16)
    assert _centre_of_parent(330206, centres) == (30.27, 120.15)  # no city 330200
    assert _centre_of_parent(340102, centres) == (31.86, 117.28)  # the city has no latitude
    assert _centre_of_parent(350102, centres) == (26.1, 119.3)  # the city has no longitude
    assert _centre_of_parent(360102, centres) == (None, None)
    assert _centre_of_parent(370102, centres) == (None, None)


def test_a_code_right_under_its_province_borrows_the_provinces_centre_only() -> None:
    """xx00zz: the "city" code xx0000 is the province itself; nothing else is its parent."""
    assert _centre_of_parent(330012, {320000: (32.0, 118.8)}) == (None, None)
    assert _centre_of_parent(330012, {330000: (30.27, 120.15)}) == (30.27, 120.15)


def test_the_shipped_division_table_rows() -> None:
    rows = _cpca_rows()
    assert len(rows) == 3511
    assert rows[0] == {
        "adcode": "500233000000",
        "name": "忠县",
        "longitude": "108.039002",
        "latitude": "30.299559",
    }
    assert all(set(r) == {"adcode", "name", "longitude", "latitude"} for r in rows)
    assert any(r["name"] == "北京市" for r in rows)


def test_the_shipped_overrides() -> None:
    document = _overrides()
    assert list(document) == ["about", "official_fullnames", "official_sha256", "add", "remove"]
    assert document["official_fullnames"] == 3533
    add, remove = document["add"], document["remove"]
    assert isinstance(add, dict) and isinstance(remove, list)
    assert "安徽省宿州市_桥区" in add and "重庆市县忠县" in remove


def test_the_shipped_tables_are_read_as_utf8_whatever_the_locale() -> None:
    """A user whose locale is plain C (ASCII) gets the same tables."""
    env = {
        **os.environ,
        "LC_ALL": "C",
        "LANG": "C",
        "PYTHONCOERCECLOCALE": "0",
        "PYTHONUTF8": "0",
        "PYTHONPATH": os.pathsep.join(sys.path),
    }
    code = (
        "from lifebench.travel.tools.regions import _cpca_rows, _overrides\n"
        "rows = _cpca_rows()\n"
        "print(len(rows), rows[0]['name'].encode('unicode_escape').decode(), "
        "len(_overrides()['add']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3511", "\\u5fe0\\u53bf", "178"]

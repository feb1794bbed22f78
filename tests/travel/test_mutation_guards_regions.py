"""``python -m lifebench.travel.tools.regions OFFICIAL_ADCODE_TXT``: the override document that
reconciles cpca's division table with an official ``adcode.txt`` (TSV: name, adcode, citycode;
the first line a header), checked on a synthetic official table made from cpca's own rows with
one division dropped and one added."""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path

from lifebench.travel.tools.regions import _cpca_rows, compose_full_names, overrides_against

DROPPED = "500233"  # 忠县, under 重庆市's placeholder "县"
ADDED = ("新测 试区", "110199")  # a name with a space: one TSV field all the same


def _official_table(tmp_path: Path) -> Path:
    rows = [(r["name"], r["adcode"][:6]) for r in _cpca_rows()]
    lines = ["名称\tadcode\tcitycode"]
    # the added division first: the header is the only line skipped
    lines.append(f"{ADDED[0]}\t{ADDED[1]}\t010")
    lines.append("")  # a blank line is no division
    lines += [f"{name}\t{code}\t" for name, code in rows if code != DROPPED]
    path = tmp_path / "adcode.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_override_document_adds_and_removes_what_the_official_table_differs_in(
    tmp_path: Path,
) -> None:
    document = overrides_against(_official_table(tmp_path))
    ours = compose_full_names([(r["name"], r["adcode"][:6]) for r in _cpca_rows()])
    official_names = (set(ours) - {"重庆市县忠县"}) | {"北京市新测 试区"}
    shipped = json.loads(
        resources.files("lifebench.travel.tools")
        .joinpath("region_overrides.json")
        .read_text(encoding="utf-8")
    )
    assert document == {
        "about": shipped["about"],
        "official_fullnames": len(official_names),
        "official_sha256": hashlib.sha256("\n".join(sorted(official_names)).encode()).hexdigest(),
        "add": {"北京市新测 试区": 110199},
        "remove": ["重庆市县忠县"],
    }
    assert document["about"]  # the shipped explanation is carried over


def test_an_official_code_that_differs_from_cpcas_is_added(tmp_path: Path) -> None:
    path = tmp_path / "adcode.txt"
    # 北京市 with another code, and one more division; everything else of cpca's is absent
    path.write_text("name\tadcode\tcitycode\n北京市\t110001\t\n乙区\t120000\t\n", encoding="utf-8")
    document = overrides_against(path)
    assert document["add"] == {"乙区": 120000, "北京市": 110001}
    assert list(document["add"]) == ["乙区", "北京市"]  # sorted by full name
    assert document["official_fullnames"] == 2
    # in both tables (another code): not removed; cpca's others are
    assert "北京市" not in document["remove"] and "上海市" in document["remove"]
    assert document["remove"] == sorted(document["remove"])

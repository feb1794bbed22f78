"""Chinese administrative-division names → adcodes, resolved the way the official harness does.

The table is the national division table of the ``cpca`` package (0.5.5), shipped with lifebench
unchanged as ``data/cpca_adcodes.csv`` under cpca's MIT licence (``data/NOTICE.md``); the package
itself, which pulls in pandas and numpy, is not a dependency. Each entry's *full name* is the
concatenation of its ancestors' names: a code ``xx0000`` is a province, ``xxyy00`` a city under
``xx0000``, anything else sits under ``xxyy00`` when that exists, else under ``xx0000``;
placeholder nodes ("…市辖区") are left out of their children's names. Where this table and the
official harness's table disagree, ``region_overrides.json`` makes ours give the official
outcome (entries added or removed; see docs/compat.md) — the official one is ~2020 data, with a
few odd names ("_桥区", "蓬莱") that we keep because agents' calls are judged by them.

Resolution (:func:`resolve`): strip the name; an exact full name wins; otherwise every full name
ending with it is a candidate — one candidate resolves ("suffix match"), several are
"ambiguous", none is "no match".
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal

Note = Literal["exact match", "suffix match", "ambiguous matches", "no match"]
_PLACEHOLDER_SUFFIX = "市辖区"


@dataclass(frozen=True)
class Place:
    """One administrative division: its full name, adcode, own name and centre."""

    full_name: str
    adcode: int
    name: str
    latitude: float | None
    longitude: float | None
    own_centre: bool = True
    """False when the centre is borrowed from the parent (the division is not in cpca's table)."""


@dataclass(frozen=True)
class Resolution:
    """The outcome of resolving a name: the match (when unique), candidates and a note."""

    resolved: Place | None
    matches: tuple[Place, ...]
    note: Note


@dataclass(frozen=True)
class RegionTable:
    """Full name → place, plus the list in table order for suffix scans."""

    by_full_name: dict[str, Place]
    by_code: dict[int, Place]

    def resolve(self, name: str) -> Resolution:
        """Resolve ``name`` (see the module docstring)."""
        key = name.strip()
        exact = self.by_full_name.get(key)
        if exact is not None:
            return Resolution(exact, (exact,), "exact match")
        matches = sorted(
            (p for full, p in self.by_full_name.items() if full.endswith(key)),
            key=lambda p: (len(p.full_name), p.full_name),
        )
        if len(matches) == 1:
            return Resolution(matches[0], tuple(matches), "suffix match")
        return Resolution(None, tuple(matches), "ambiguous matches" if matches else "no match")


def compose_full_names(entries: list[tuple[str, str]]) -> dict[str, int]:
    """Full name → adcode for ``(name, 6-digit code)`` entries, by the composition rule above."""
    names = {code: name for name, code in entries}

    def parent(code: str) -> str | None:
        if code.endswith("0000"):
            return None
        if code.endswith("00"):
            province = f"{code[:2]}0000"
            return province if province in names else None
        city = f"{code[:4]}00"
        if city in names:
            return city
        province = f"{code[:2]}0000"
        return province if province in names else None

    memo: dict[tuple[str, bool], str] = {}

    def full(code: str, own: bool) -> str:
        key = (code, own)
        if key not in memo:
            name = names[code]
            up = parent(code)
            prefix = full(up, False) if up else ""
            if name.endswith(_PLACEHOLDER_SUFFIX):
                if not own:
                    memo[key] = prefix
                    return prefix
                if up and name.startswith(names[up]):
                    name = name[len(names[up]) :]
            memo[key] = prefix + name
        return memo[key]

    out: dict[str, int] = {}
    for _, code in entries:
        full_name = full(code, True)
        if full_name:
            out[full_name] = int(code)
    return out


def _cpca_rows() -> list[dict[str, str]]:
    """The rows of cpca's division table (adcode, name, longitude, latitude)."""
    source = resources.files("lifebench.travel.tools").joinpath("data", "cpca_adcodes.csv")
    return list(csv.DictReader(io.StringIO(source.read_text(encoding="utf-8"), newline="")))


def _overrides() -> dict[str, object]:
    text = resources.files("lifebench.travel.tools").joinpath("region_overrides.json")
    data: dict[str, object] = json.loads(text.read_text(encoding="utf-8"))
    return data


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


@cache
def region_table() -> RegionTable:
    """The reconciled table (built once per process; immutable)."""
    rows = _cpca_rows()
    entries = [(r["name"], r["adcode"][:6]) for r in rows]
    centres = {int(r["adcode"][:6]): (_float(r["latitude"]), _float(r["longitude"])) for r in rows}
    names = {int(code): name for name, code in entries}
    full_names = compose_full_names(entries)
    overrides = _overrides()
    removed = overrides.get("remove", [])
    added = overrides.get("add", {})
    assert isinstance(removed, list) and isinstance(added, dict)
    for full_name in removed:
        full_names.pop(str(full_name), None)
    for full_name, code in added.items():
        full_names[str(full_name)] = int(code)
    places: dict[str, Place] = {}
    by_code: dict[int, Place] = {}
    for full_name, code in full_names.items():
        own = code in centres and None not in centres[code]
        lat, lng = centres[code] if own else _centre_of_parent(code, centres)
        place = Place(full_name, code, names.get(code) or _last_name(full_name), lat, lng, own)
        places[full_name] = place
        by_code.setdefault(code, place)
    return RegionTable(by_full_name=places, by_code=by_code)


def _last_name(full_name: str) -> str:
    for marker in ("自治县", "自治旗", "新区", "区", "县", "市", "旗"):
        cut = full_name.rfind(marker, 0, len(full_name) - len(marker))
        if cut >= 0:
            return full_name[cut + len(marker) :]
    return full_name


def _centre_of_parent(
    code: int, centres: dict[int, tuple[float | None, float | None]]
) -> tuple[float | None, float | None]:
    for parent in (code // 100 * 100, code // 10000 * 10000):
        lat, lng = centres.get(parent, (None, None))
        if lat is not None and lng is not None:
            return lat, lng
    return None, None


def resolve(name: str) -> Resolution:
    """Resolve ``name`` against the reconciled table."""
    return region_table().resolve(name)


def overrides_against(official_table: Path) -> dict[str, object]:
    """The override document that makes cpca's table give the outcomes of an official
    ``adcode.txt`` (TSV: name, adcode, citycode; first line a header)."""
    import hashlib

    lines = official_table.read_text(encoding="utf-8").splitlines()[1:]
    official = compose_full_names(
        [(parts[0], parts[1]) for parts in (ln.split("\t") for ln in lines if ln.strip())]
    )
    ours = compose_full_names([(r["name"], r["adcode"][:6]) for r in _cpca_rows()])
    add = {k: v for k, v in official.items() if ours.get(k) != v}
    return {
        "about": _overrides().get("about", ""),
        "official_fullnames": len(official),
        "official_sha256": hashlib.sha256("\n".join(sorted(official)).encode()).hexdigest(),
        "add": dict(sorted(add.items())),
        "remove": sorted(set(ours) - set(official)),
    }


if __name__ == "__main__":  # python -m lifebench.travel.tools.regions OFFICIAL_ADCODE_TXT
    import sys

    document = overrides_against(Path(sys.argv[1]))
    sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=1) + "\n")

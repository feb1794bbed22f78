"""The generator of the bundled travel rows (our own data, not the CC BY-NC official rows).

``generate_rows(subset, language)`` draws each row from a seed of its own (the subset, the row
number and the master seed), so the Chinese and English rows of the same number describe the
same situation, and the same seed always gives the same bytes. Rows are in the official format:
``trace_id``, ``time``, ``query``, ``primary_intent``, ``context``, ``intent``, the three
unsolvable flags, ``avg_tool_calls`` (single / multi; the template's planned number of calls) and
``user_profile`` (multi). Regenerate the shipped files with
``python -m lifebench.travel.generate`` (a test checks they are byte-identical).
"""

from __future__ import annotations

import json
import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from lifebench.travel.generate.context import TRAFFIC, Position, render_context
from lifebench.travel.generate.places import CITIES, City, Named
from lifebench.travel.generate.profiles import draw_profile, render_profile
from lifebench.travel.generate.templates import (
    DAYS,
    FACILITIES,
    FOODS,
    TEMPLATES,
    WEEKDAYS,
    Template,
)

SUBSETS: tuple[str, ...] = ("single", "multi", "unsolvable")
LANGUAGES: tuple[str, ...] = ("zh", "en")
DEFAULT_ROWS = 60
DEFAULT_SEED = 2025
FIRST_DAY = date(2025, 10, 1)
DAY_SPAN = 58  # up to 2025-11-27


def _rng(seed: int, subset: str, index: int) -> random.Random:
    return random.Random(f"lifebench-travel/{seed}/{subset}/{index}")


def _slots(rng: random.Random, city: City) -> dict[str, Named | str]:
    other = rng.choice([c for c in CITIES if c.name != city.name])
    first = rng.randrange(2)
    return {
        "city": city.short,
        "city_full": city.name,
        "city2": other.short,
        "city2_full": other.name,
        "dest": city.landmarks[first],
        "landmark2": city.landmarks[1 - first],
        "district": rng.choice(city.districts),
        "food": rng.choice(FOODS),
        "facility": rng.choice(FACILITIES),
        "day": rng.choice(DAYS),
        "weekday": rng.choice(WEEKDAYS),
        "days": str(rng.choice((2, 3, 4))),
        "rating": rng.choice(("4.0", "4.5")),
    }


def _position(rng: random.Random, city: City, template: Template, dest: Named) -> Position:
    if template.destination:
        destination: Named | None = dest
    elif template.bare:
        destination = None
    else:
        destination = dest if rng.random() < 0.5 else None
    navigation = destination is not None and (template.navigation or rng.random() < 0.2)
    km = round(rng.uniform(2.0, 40.0), 1)
    return Position(
        city=city,
        lat=round(city.lat + rng.uniform(-0.04, 0.04), 5),
        lng=round(city.lng + rng.uniform(-0.04, 0.04), 5),
        district=rng.choice(city.districts),
        destination=destination,
        navigation=navigation,
        km=km,
        minutes=int(km * 2) + rng.randrange(5),
        traffic=rng.choice(TRAFFIC),
    )


def _fill(text: Named, slots: dict[str, Named | str], language: str) -> str:
    values = {k: v.get(language) if isinstance(v, Named) else v for k, v in slots.items()}
    return text.get(language).format(**values)


MAX_ATTEMPTS = 12


def _draw(seed: int, subset: str, index: int, attempt: int) -> tuple[Template, dict[str, Any]]:
    """One row's template and values (language-independent)."""
    templates = TEMPLATES[subset]
    rng = _rng(seed, subset, index * 100 + attempt)
    template = templates[(index + attempt // 4) % len(templates)]  # another template after 4 tries
    city = rng.choice(CITIES)
    slots = _slots(rng, city)
    dest = slots["dest"]
    assert isinstance(dest, Named)
    values: dict[str, Any] = {
        "city": city,
        "slots": slots,
        "query": rng.choice(template.queries),
        "position": _position(rng, city, template, dest),
        "moment": FIRST_DAY + timedelta(days=rng.randrange(DAY_SPAN)),
        "hour": rng.randrange(7, 23),
        "profile": draw_profile(rng) if subset == "multi" else None,
    }
    return template, values


def _row(
    subset: str, index: int, template: Template, v: dict[str, Any], language: str
) -> dict[str, Any]:
    row: dict[str, Any] = {
        "trace_id": str(index + 1),
        "time": f"{v['moment'].isoformat()} {v['hour']:02d}:00",
        "query": _fill(v["query"], v["slots"], language),
        "primary_intent": template.primary_intent,
        "context": render_context(v["position"], language),
        "intent": _fill(template.intent, v["slots"], language),
        "missing_tool": template.reason == "missing_tool",
        "missing_info": template.reason == "missing_info",
        "no_actionable": template.reason == "no_actionable",
    }
    if v["profile"] is not None:
        row["user_profile"] = render_profile(v["profile"], v["city"], language)
    if subset != "unsolvable":
        row["avg_tool_calls"] = template.avg_tool_calls
    return row


def generate_pairs(
    subset: str, n: int = DEFAULT_ROWS, seed: int = DEFAULT_SEED
) -> list[dict[str, dict[str, Any]]]:
    """``n`` rows of ``subset``, each in every language; no query repeats within a language."""
    if subset not in TEMPLATES:
        raise ValueError(f"unknown subset {subset!r}; choose from {', '.join(SUBSETS)}")
    seen: dict[str, set[str]] = {lang: set() for lang in LANGUAGES}
    out: list[dict[str, dict[str, Any]]] = []
    for i in range(n):
        for attempt in range(MAX_ATTEMPTS):
            template, values = _draw(seed, subset, i, attempt)
            rows = {lang: _row(subset, i, template, values, lang) for lang in LANGUAGES}
            if all(rows[lang]["query"] not in seen[lang] for lang in LANGUAGES):
                break
        else:
            raise ValueError(f"{subset} row {i + 1}: no unused query after {MAX_ATTEMPTS} draws")
        for lang in LANGUAGES:
            seen[lang].add(rows[lang]["query"])
        out.append(rows)
    return out


def generate_rows(
    subset: str, language: str, n: int = DEFAULT_ROWS, seed: int = DEFAULT_SEED
) -> list[dict[str, Any]]:
    """``n`` rows of ``subset`` in ``language``."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; choose from {', '.join(LANGUAGES)}")
    return [pair[language] for pair in generate_pairs(subset, n, seed)]


def rows_text(rows: list[dict[str, Any]]) -> str:
    """JSON Lines, one row per line, non-ASCII kept, trailing newline."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def write_bundled(directory: Path, n: int = DEFAULT_ROWS, seed: int = DEFAULT_SEED) -> list[Path]:
    """Write ``<subset>.<language>.jsonl`` for every subset and language into ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    pairs = {subset: generate_pairs(subset, n, seed) for subset in SUBSETS}
    for subset in SUBSETS:
        for language in LANGUAGES:
            path = directory / f"{subset}.{language}.jsonl"
            rows = [pair[language] for pair in pairs[subset]]
            path.write_text(rows_text(rows), encoding="utf-8")
            written.append(path)
    return written

"""Retrieval test cases generated from a seed: corpora of tool-call arguments (Chinese place
names from the division table, English words, numbers, dates) and queries that overlap them."""

from __future__ import annotations

import json
import random

from lifebench.travel.tools.regions import region_table

WORDS = ["hotel", "museum", "hotpot", "station", "airport", "park", "coffee", "noodles",
         "mall", "hospital", "school", "bank", "gas", "cinema", "beach"]  # fmt: skip
KEYS = ["origin", "destination", "query", "region", "date", "location", "sort_by", "days"]


def _value(rng: random.Random, places: list[str]) -> object:
    kind = rng.randrange(5)
    if kind == 0:
        return rng.choice(places)
    if kind == 1:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
    if kind == 2:
        return rng.randint(1, 30)
    if kind == 3:
        return f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    return rng.choice(places)[-3:] + rng.choice(["美食", "酒店", "景点", "加油站", "火锅"])


def _params(rng: random.Random, places: list[str]) -> str:
    keys = rng.sample(KEYS, rng.randint(1, 4))
    return json.dumps({k: _value(rng, places) for k in keys}, ensure_ascii=False)


def cases(seed: int = 7, n_corpora: int = 40) -> list[tuple[list[str], list[str]]]:
    """(corpus of params JSON, queries) pairs."""
    rng = random.Random(seed)
    places = sorted(region_table().by_full_name)
    out = []
    for _ in range(n_corpora):
        corpus = [_params(rng, places) for _ in range(rng.randint(1, 60))]
        queries = [rng.choice(corpus) for _ in range(3)]  # exact repeats
        queries += [_params(rng, places) for _ in range(5)]  # fresh ones
        out.append((corpus, queries))
    return out

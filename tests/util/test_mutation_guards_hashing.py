"""Mutation guards (issue 21): the content hashes behind seeds, config hashes and cache keys
(``lifebench._util.hashing``) pinned by value: a changed recipe would silently give every run
new seeds and make every stored run look changed."""

from __future__ import annotations

import hashlib
from pathlib import Path

from lifebench._util.hashing import canonical_json, derive_seed, stable_hash


def test_canonical_json_is_compact_sorted_unescaped_text() -> None:
    assert canonical_json({"b": [1, 2], "a": "ü 中"}) == '{"a":"ü 中","b":[1,2]}'
    assert canonical_json({"z": {"y": 1, "x": None}}) == '{"z":{"x":null,"y":1}}'
    # anything JSON cannot hold is written as its text
    assert canonical_json({"p": Path("/a/b.json")}) == '{"p":"/a/b.json"}'


def test_stable_hash_is_the_sha256_of_the_canonical_json() -> None:
    full = hashlib.sha256('{"a":"ü"}'.encode()).hexdigest()
    assert stable_hash({"a": "ü"}) == full
    assert len(stable_hash({"a": "ü"})) == 64
    assert stable_hash({"a": "ü"}, 10) == full[:10]
    assert stable_hash([1, "t"], 16) == hashlib.sha256(b'[1,"t"]').hexdigest()[:16]


def test_derive_seed_from_the_first_16_hex_digits_mod_a_31_bit_prime() -> None:
    digest = hashlib.sha256('[7,"任务",2]'.encode()).hexdigest()
    assert derive_seed(7, "任务", 2) == int(digest[:16], 16) % (2**31 - 1)
    seeds = {derive_seed(1, "t", trial) for trial in range(200)}
    assert len(seeds) == 200 and all(0 <= s < 2**31 - 1 for s in seeds)

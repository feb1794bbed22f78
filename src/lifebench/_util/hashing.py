"""Stable content hashes (sha256 of canonical JSON); never Python's salted ``hash()``."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(value: Any) -> str:
    """Serialise ``value`` as compact JSON with sorted keys (the input of every hash)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def stable_hash(value: Any, length: int = 64) -> str:
    """Hex sha256 of the canonical JSON of ``value``, truncated to ``length`` characters."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()[:length]


def derive_seed(*parts: Any) -> int:
    """A 31-bit seed derived deterministically from ``parts``."""
    return int(stable_hash(list(parts), 16), 16) % (2**31 - 1)

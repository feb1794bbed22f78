"""Sub-seeds: one per (domain, master seed, task index, attempt), independent of the task count."""

from __future__ import annotations

import hashlib
import json


def sub_seed(domain: str, seed: int, index: int, attempt: int = 0) -> int:
    """A 64-bit seed from sha256 of ``[domain, seed, index, attempt]``.

    The language is deliberately not an input: the English and Chinese tasks of one sub-seed
    describe the same world.
    """
    payload = json.dumps([domain, seed, index, attempt], separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(payload.encode("utf-8")).digest()[:8], "big")


def task_id(domain: str, seed: int, index: int) -> str:
    """``GEN-<domain>-<seed>-<index>``."""
    return f"GEN-{domain}-{seed}-{index}"

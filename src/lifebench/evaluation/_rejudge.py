"""Extra gradings of one stored trajectory (``lifebench eval --rejudge K``), kept inside its
evaluation.

The run store keeps one evaluation per unit. The K - 1 extra gradings of ``--rejudge K`` are
stored inside it, under ``info["rejudge"]`` of every basis they computed: one entry per extra
grading, in order (``replicate`` 1, 2, …), with the seed the judge was given, the basis's
reward and score, whether it was gradable, the error of that grading if it failed, and the
judge usage it cost. The primary grading is the evaluation itself (replicate 0). Nothing else
reads or writes the key, so an evaluation without extra gradings is byte-for-byte what it was.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from lifebench._util.hashing import derive_seed
from lifebench.evaluation._types import BasisResult, Evaluation
from lifebench.messages import Usage

REJUDGE_KEY = "rejudge"
"""Key of ``BasisResult.info`` that holds a basis's extra gradings."""


def replicate_seed(seed: int, replicate: int) -> int:
    """The seed the judge is given for extra grading ``replicate`` (>= 1) of a trajectory
    simulated with ``seed``; replicate 0 is the primary grading and keeps ``seed``."""
    if replicate < 0:
        raise ValueError(f"replicate must be >= 0, got {replicate}")
    return seed if replicate == 0 else derive_seed(seed, "rejudge", replicate)


def _entry(replicate: int, seed: int, result: BasisResult, error: str | None) -> dict[str, Any]:
    return {
        "replicate": replicate,
        "seed": seed,
        "reward": result.reward,
        "score": result.score,
        "gradable": result.gradable,
        "error": error,
        "usage": result.usage.model_dump(mode="json"),
    }


def strip_replicates(result: BasisResult) -> BasisResult:
    """``result`` without its extra gradings."""
    if REJUDGE_KEY not in result.info:
        return result
    info = {k: v for k, v in result.info.items() if k != REJUDGE_KEY}
    return result.model_copy(update={"info": info})


def with_replicates(
    evaluation: Evaluation, replicates: Sequence[tuple[int, Evaluation]]
) -> Evaluation:
    """``evaluation`` holding the extra gradings ``replicates`` — (seed, evaluation) in
    replicate order, replacing any it held — under ``info["rejudge"]`` of each of its bases."""
    by_basis: dict[str, BasisResult] = {}
    for name, result in evaluation.by_basis.items():
        base = strip_replicates(result)
        entries = [
            _entry(i, seed, rep.by_basis[name], rep.error)
            for i, (seed, rep) in enumerate(replicates, start=1)
            if name in rep.by_basis
        ]
        if entries:
            base = base.model_copy(update={"info": {**base.info, REJUDGE_KEY: entries}})
        by_basis[name] = base
    return evaluation.model_copy(update={"by_basis": by_basis})


def _entries(result: BasisResult) -> list[dict[str, Any]]:
    raw = result.info.get(REJUDGE_KEY)
    return [e for e in raw if isinstance(e, dict)] if isinstance(raw, list) else []


def replicate_count(evaluation: Evaluation) -> int:
    """Extra gradings stored for every basis of the reward (the fewest of any basis)."""
    bases = evaluation.basis.split("+")
    counts = [len(_entries(evaluation.by_basis[b])) for b in bases if b in evaluation.by_basis]
    return min(counts) if counts and len(counts) == len(bases) else 0


def replicate_rewards(evaluation: Evaluation) -> list[float | None]:
    """The reward of each extra grading, in order: the product over the reward's bases (as
    :func:`~lifebench.evaluation.combine` computes it), or None for an extra grading that
    failed or could not grade."""
    bases = evaluation.basis.split("+")
    out: list[float | None] = []
    for i in range(replicate_count(evaluation)):
        reward: float | None = 1.0
        for name in bases:
            entry = _entries(evaluation.by_basis[name])[i]
            value = entry.get("reward")
            if (
                entry.get("error") is not None
                or not entry.get("gradable", True)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
            ):
                reward = None
                break
            assert reward is not None
            reward *= float(value)
        out.append(reward)
    return out


def replicate_usage(evaluation: Evaluation) -> Usage:
    """Judge usage of every extra grading of ``evaluation``, summed over its bases."""
    total = Usage.zero()
    for result in evaluation.by_basis.values():
        for entry in _entries(result):
            usage = entry.get("usage")
            if isinstance(usage, dict):
                total = total + Usage.model_validate(usage)
    return total

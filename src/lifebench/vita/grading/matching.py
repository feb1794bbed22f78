"""Matching helpers of the state graders: order lines as multisets, requirements to orders."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TypeVar

from lifebench.vita.grading.text import TextKey

#: One expected line: (product id, quantity, the attribute key it needs or None for any).
WantLine = tuple[str, int, TextKey | None]
#: One order line: (product id, quantity, the chosen attribute's key).
GotLine = tuple[str, int, TextKey]

R = TypeVar("R")
C = TypeVar("C")


def lines_mismatch(want: Sequence[WantLine], got: Sequence[GotLine]) -> str | None:
    """Why ``got`` is not the multiset of (product, attribute, quantity) units of ``want``.

    Every line counts as ``quantity`` units; two lines of one product with different
    attributes, or one line split in two, are matched unit by unit. A unit that needs an
    attribute takes a unit with that attribute; a unit that needs none takes any unit of its
    product. None when they match.
    """
    need: Counter[tuple[str, TextKey | None]] = Counter()
    have: Counter[tuple[str, TextKey]] = Counter()
    for pid, qty, key in want:
        need[(pid, key)] += qty
    for pid, qty, key in got:
        have[(pid, key)] += qty
    want_total: Counter[str] = Counter()
    got_total: Counter[str] = Counter()
    for (pid, _), n in need.items():
        want_total[pid] += n
    for (pid, _), n in have.items():
        got_total[pid] += n
    if want_total != got_total:
        return f"products {dict(sorted(got_total.items()))} ≠ {dict(sorted(want_total.items()))}"
    for (pid, key), n in need.items():
        if key is not None and have[(pid, key)] < n:
            return f"{pid}: {have[(pid, key)]} of {n} with the expected attribute"
    return None


def max_matching(
    requirements: Sequence[R], candidates: Sequence[C], fits: Callable[[R, C], bool]
) -> dict[int, int]:
    """A maximum one-to-one matching requirement index → candidate index (Kuhn's algorithm).

    Deterministic: requirements are placed in order, each taking its first free candidate, and
    an earlier requirement is moved to another candidate only when that lets a later one in.
    """
    edges = [[j for j, c in enumerate(candidates) if fits(r, c)] for r in requirements]
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        free = next((j for j in edges[i] if j not in owner), None)
        if free is not None:  # a free candidate first: no need to displace anyone
            owner[free] = i
            return True
        for j in edges[i]:
            if j not in seen:
                seen.add(j)
                if place(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(requirements)):
        place(i, set())
    return {i: j for j, i in owner.items()}

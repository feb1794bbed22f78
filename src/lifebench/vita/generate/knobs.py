"""The ``--subgoals`` / ``--providers`` / ``--products`` knobs, checked and applied one way.

Every domain generator declares its limits as :class:`KnobRules`; :func:`check_knobs` turns a
bad value into an :class:`~lifebench.errors.InputError` naming the flag, and
:func:`subgoal_count` draws the number of sub-goals of one task.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from lifebench.errors import InputError
from lifebench.vita.generate.protocol import Draft, GenerateOptions, TaskSpec
from lifebench.vita.generate.world import weighted


@dataclass(frozen=True)
class KnobRules:
    """Limits of one generator's knobs.

    Attributes:
        domain: Name used in messages.
        min_subgoals: Fewest sub-goals per task.
        max_subgoals: Most sub-goals per task.
        min_products: Fewest products per provider.
        max_products: Most products per provider.
        max_providers: Most providers per task (None: no limit).
        default_subgoals: ``(count, weight)`` pairs drawn when ``--subgoals`` is not given.
        why_subgoals: Optional reason appended to the sub-goal message.
    """

    domain: str
    min_subgoals: int
    max_subgoals: int
    min_products: int
    max_products: int
    max_providers: int | None = None
    default_subgoals: Sequence[tuple[int, float]] = ((1, 0.3), (2, 0.45), (3, 0.25))
    why_subgoals: str = ""


def check_knobs(options: GenerateOptions, rules: KnobRules) -> None:
    """Raise InputError (naming the flag) for a knob outside ``rules``; two providers per
    sub-goal at the least."""
    subgoals = options.subgoals
    if subgoals is not None and not rules.min_subgoals <= subgoals <= rules.max_subgoals:
        why = f" ({rules.why_subgoals})" if rules.why_subgoals else ""
        raise InputError(
            f"must be between {rules.min_subgoals} and {rules.max_subgoals} for "
            f"{rules.domain}{why}",
            field="--subgoals",
        )
    if options.products is not None and not (
        rules.min_products <= options.products <= rules.max_products
    ):
        raise InputError(
            f"must be between {rules.min_products} and {rules.max_products} for {rules.domain}",
            field="--products",
        )
    if options.providers is not None:
        needed = 2 * (subgoals or rules.min_subgoals)
        most = rules.max_providers
        if options.providers < needed or (most is not None and options.providers > most):
            upper = f" and at most {most}" if most is not None else ""
            raise InputError(
                f"must be at least {needed} (two per sub-goal){upper} for {rules.domain}",
                field="--providers",
            )


def subgoal_count(spec: TaskSpec, rng: random.Random, rules: KnobRules) -> int:
    """The requested count, else a draw from ``rules.default_subgoals`` capped by the provider
    budget (two providers per sub-goal)."""
    if spec.subgoals is not None:
        return spec.subgoals
    count = weighted(rng, list(rules.default_subgoals))
    if spec.providers is not None:
        count = max(rules.min_subgoals, min(count, spec.providers // 2))
    return count


class DraftBuilder(Protocol):
    """What a generator's task builder offers: one draft per builder."""

    def run(self) -> Draft:
        """Draw the whole task."""
        ...


class KnobbedGenerator:
    """The part every domain generator shares: its knob limits (:attr:`KNOBS`), the sub-goal
    count and one draft per builder. A domain sets ``KNOBS`` and defines :meth:`builder`."""

    KNOBS: ClassVar[KnobRules]
    DEFAULT_PRODUCTS: ClassVar[int] = 5

    def check_options(self, options: GenerateOptions) -> None:
        """Knob limits: see :attr:`KNOBS`."""
        check_knobs(options, self.KNOBS)

    def subgoal_count(self, spec: TaskSpec, rng: random.Random) -> int:
        """The requested count, else a weighted draw capped by the provider budget."""
        return subgoal_count(spec, rng, self.KNOBS)

    def draft(self, spec: TaskSpec, rng: random.Random) -> Draft:
        """One task from ``rng``."""
        return self.builder(spec, rng).run()

    def builder(self, spec: TaskSpec, rng: random.Random) -> DraftBuilder:
        """The builder of one task (tests use it to look at what is behind a draft)."""
        raise NotImplementedError

"""The contract between the generation pipeline and a per-domain generator.

A domain plugs in with one class implementing :class:`TaskGenerator` and one entry in
:data:`lifebench.vita.generate.registry.GENERATORS`. The pipeline owns everything else: sub-seeds,
task ids, loading and linting the draft, certification by the real environment, retries and the
byte-stable output.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from lifebench._util.text import Language


@dataclass(frozen=True)
class GenerateOptions:
    """What to generate.

    Attributes:
        domain: Generator name (``delivery``, ``instore``, ``ota``, ``cross``).
        n: Number of tasks.
        seed: Master seed; task ``i`` depends on (domain, seed, i) only, never on ``n``.
        language: Language of every text in the tasks.
        subgoals: Sub-goals per task (None: the generator picks 1–3 per task).
        providers: Service providers (stores, shops, hotels …) per task (None: as needed).
        products: Products per provider (None: the generator's default).
        max_attempts: Sub-seeds tried per task before giving up.
        certify: Run every draft through the environment (oracle 1, noop 0, distractor 0).
    """

    domain: str
    n: int
    seed: int = 0
    language: Language = "en"
    subgoals: int | None = None
    providers: int | None = None
    products: int | None = None
    max_attempts: int = 20
    certify: bool = True


@dataclass(frozen=True)
class TaskSpec:
    """One draft request: the task's id, its sub-seed and the knobs.

    ``seed`` is the sub-seed of this attempt; the generator must draw every random choice from
    ``random.Random(seed)`` (handed to :meth:`TaskGenerator.draft` as ``rng``).
    """

    task_id: str
    index: int
    attempt: int
    seed: int
    language: Language
    subgoals: int | None
    providers: int | None
    products: int | None


@dataclass(frozen=True)
class Draft:
    """A generated task in the official format, plus the generator's own self-check findings.

    A non-empty ``problems`` rejects the draft (the pipeline retries with the next sub-seed).
    """

    task: dict[str, Any]
    problems: tuple[str, ...] = ()


class TaskGenerator(Protocol):
    """A per-domain task generator.

    Attributes:
        domain: The ``--domain`` name it answers to.
        vita_domain: The VitaBench domain (``lifebench.vita.domains.registry``) whose
            environment, oracle planner and state evaluator run and certify its tasks.
    """

    domain: str
    vita_domain: str

    def check_options(self, options: GenerateOptions) -> None:
        """Reject knob values the generator cannot honour (raise ``InputError``)."""
        ...

    def draft(self, spec: TaskSpec, rng: random.Random) -> Draft:
        """Build one task from ``rng`` alone (no clock, no global state, no set order)."""
        ...

"""Task generators by domain, as lazy import paths.

A generator module is imported only when its domain is asked for, so a domain whose generator
does not exist yet costs nothing and fails with a clear message.

Adding a domain (in-store, OTA, cross-scenario) takes one module, e.g.
``lifebench/vita/generate/instore.py`` (or a package of that name) defining the class named
here, implementing :class:`~lifebench.vita.generate.protocol.TaskGenerator`:

* ``domain`` (the ``--domain`` name) and ``vita_domain`` (the entry of
  :data:`lifebench.vita.domains.registry.DOMAINS` whose environment, oracle planner and
  ``state`` evaluator certify the tasks: ``instore``, ``ota``; a cross generator needs a cross
  entry there first);
* ``check_options(options)``: refuse knobs it cannot honour (``InputError`` naming the option);
* ``draft(spec, rng)``: one task in the official format, every choice drawn from ``rng``, with
  the generator's own self-check findings in ``Draft.problems``.

Shared material lives in :mod:`lifebench.vita.generate.world` (persona, addresses, places,
clock, weather) and :mod:`lifebench.vita.generate.pools` (people, places; food for delivery).
The pipeline does the rest: sub-seeds, ids, loading, linting, certification, retries, output.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from types import MappingProxyType

from lifebench.errors import InputError
from lifebench.vita.generate.protocol import TaskGenerator

GENERATORS: Mapping[str, str] = MappingProxyType(
    {
        "delivery": "lifebench.vita.generate.delivery:DeliveryGenerator",
        "instore": "lifebench.vita.generate.instore:InStoreGenerator",
        "ota": "lifebench.vita.generate.ota:OTAGenerator",
        "cross": "lifebench.vita.generate.cross:CrossGenerator",
    }
)
"""``--domain`` name → ``module:Class`` of its generator (instantiated without arguments)."""


def _installed(path: str) -> bool:
    module = path.partition(":")[0]
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # pragma: no cover - a missing parent package
        return False


def available_generators() -> list[str]:
    """Domains whose generator module exists, in registry order."""
    return [name for name, path in GENERATORS.items() if _installed(path)]


def load_generator(domain: str) -> TaskGenerator:
    """The generator of ``domain``; InputError if unknown or not available yet."""
    path = GENERATORS.get(domain)
    if path is None:
        known = ", ".join(GENERATORS)
        raise InputError(f"unknown domain {domain!r} (known: {known})", field="--domain")
    if not _installed(path):
        ready = ", ".join(available_generators()) or "none"
        raise InputError(
            f"task generation for domain {domain!r} is not available yet (available: {ready})",
            field="--domain",
        )
    module, _, name = path.partition(":")
    generator: TaskGenerator = getattr(importlib.import_module(module), name)()
    return generator

"""The VitaBench domains: where each one's environment, oracle planner and state grader live.

Entries are import paths, resolved only when a domain is used, so adding a domain costs nothing
at start-up and a half-built domain never breaks the others.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lifebench.errors import InputError


@dataclass(frozen=True)
class DomainSpec:
    """Import paths (``module:attribute``) of one domain's parts.

    Attributes:
        environment: A class ``(task, language=...)`` implementing the Environment protocol.
        planner: ``(task, *, distractor=False) -> list[PlannedCall]`` for the oracle.
        evaluator: A zero-argument factory of the domain's ``state`` evaluator.
    """

    environment: str
    planner: str
    evaluator: str

    def available(self) -> bool:
        """True when every part's module is installed."""
        return all(
            importlib.util.find_spec(path.partition(":")[0]) is not None
            for path in (self.environment, self.planner, self.evaluator)
        )


DOMAINS: Mapping[str, DomainSpec] = {
    "delivery": DomainSpec(
        environment="lifebench.vita.domains.delivery:DeliveryEnvironment",
        planner="lifebench.vita.agents.plan_delivery:plan_delivery",
        evaluator="lifebench.vita.grading.state:delivery_state_evaluator",
    ),
    "instore": DomainSpec(
        environment="lifebench.vita.domains.instore:InStoreEnvironment",
        planner="lifebench.vita.agents.plan_instore:plan_instore",
        evaluator="lifebench.vita.grading.instore:instore_state_evaluator",
    ),
    "ota": DomainSpec(
        environment="lifebench.vita.domains.ota:OTAEnvironment",
        planner="lifebench.vita.agents.plan_ota:plan_ota",
        evaluator="lifebench.vita.grading.ota:ota_state_evaluator",
    ),
    "cross": DomainSpec(
        environment="lifebench.vita.domains.cross:CrossEnvironment",
        planner="lifebench.vita.agents.plan_cross:plan_cross",
        evaluator="lifebench.vita.grading.cross:cross_state_evaluator",
    ),
}


def available_domains() -> list[str]:
    """Domains whose parts are all installed, in registry order."""
    return [name for name, spec in DOMAINS.items() if spec.available()]


def domain_spec(domain: str) -> DomainSpec:
    """The spec of an available domain; a clear error otherwise."""
    spec = DOMAINS.get(domain)
    if spec is None or not spec.available():
        raise InputError(
            f"unknown vita domain '{domain}'; available: {', '.join(available_domains())}",
            field="--domain",
        )
    return spec


def resolve(path: str) -> Any:
    """Import ``module:attribute``."""
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


# --------------------------------------------------------------------------------------------
# Which domain a task belongs to, and which environments can run it
# --------------------------------------------------------------------------------------------

CROSS = "cross"
"""The cross-scenario environment: every domain's tools over one task (serves every domain)."""

_LABELS: Mapping[str, str] = {
    "delivery": "delivery",
    "fooddelivery": "delivery",
    "外卖": "delivery",
    "instore": "instore",
    "instoreconsumption": "instore",
    "到店": "instore",
    "到店消费": "instore",
    "ota": "ota",
    "travel": "ota",
    "旅行": "ota",
    "出行": "ota",
    "cross": CROSS,
    "crossdomain": CROSS,
    "crossscenario": CROSS,
    "跨场景": CROSS,
    "跨域": CROSS,
}
"""Spellings of the ``domain`` label (lower case, without spaces and punctuation) → domain.
The official in-store file alone has ``instore``, ``in-store`` and ``in-store consumption``."""

_TABLES: Mapping[str, tuple[str, ...]] = {
    "delivery": ("stores",),
    "instore": ("shops", "books", "reservations"),
    "ota": ("hotels", "attractions", "flights", "trains"),
}
"""Provider tables that only a domain's environment reads."""


def _label_key(label: str) -> str:
    return "".join(c for c in label.casefold() if c.isalnum())


def domain_of_label(label: str) -> str | None:
    """The domain a task's ``domain`` label names (any spelling above; a list such as
    ``delivery,instore,ota`` names the cross-scenario domain), or None if unrecognised."""
    parts = [p for p in label.replace("+", ",").replace("/", ",").split(",") if p.strip()]
    found = {_LABELS.get(_label_key(p)) for p in parts}
    if not found or None in found:
        return None
    if len(found) > 1:
        return CROSS
    return found.pop()


def domain_of_tables(environment: Mapping[str, Any]) -> str | None:
    """The domain whose provider tables the environment fills (``cross`` for several, None for
    none)."""
    found = {d for d, tables in _TABLES.items() if any(environment.get(t) for t in tables)}
    if len(found) > 1:
        return CROSS
    return found.pop() if found else None


def task_domain(label: str, environment: Mapping[str, Any]) -> str | None:
    """The domain a task belongs to: its ``domain`` label when recognised, else the domain of
    the tables it fills; None when neither tells (any environment may run it)."""
    return domain_of_label(label) or domain_of_tables(environment)


def serves(environment_domain: str, domain: str | None) -> bool:
    """Whether an environment of ``environment_domain`` can run a task of ``domain``: the same
    domain, or the cross-scenario environment (which holds every domain's tools)."""
    return domain is None or environment_domain in (domain, CROSS)

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

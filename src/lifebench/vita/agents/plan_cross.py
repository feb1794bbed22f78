"""Oracle plan for cross-scenario tasks: each domain's plan, in the official domain order."""

from __future__ import annotations

from lifebench.vita.agents.plan import PlannedCall
from lifebench.vita.agents.plan_delivery import plan_delivery
from lifebench.vita.agents.plan_instore import plan_instore
from lifebench.vita.agents.plan_ota import plan_ota
from lifebench.vita.task import VitaTask


def plan_cross(task: VitaTask, *, distractor: bool = False) -> list[PlannedCall]:
    """Delivery, then in-store, then OTA calls (each planner reads only its own record types)."""
    return [
        *plan_delivery(task, distractor=distractor),
        *plan_instore(task, distractor=distractor),
        *plan_ota(task, distractor=distractor),
    ]

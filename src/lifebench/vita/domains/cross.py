"""Cross-scenario environment: several VitaBench domains over one task database.

Every domain environment is built from the same task; then they share **one** orders table
(each pre-existing order parsed by the domain that owns its type), address lookups see the
places of every domain, and the agent gets the 8 shared tools once plus every domain's own
tools — 66 for delivery + in-store + OTA (27 write / 33 read / 6 general), with no name clash.
Order ids cannot collide: each domain has its own prefix (OT, OI/BK/RS, OO).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lifebench._util.text import Language
from lifebench.tools import ToolSet, tools_of
from lifebench.vita.domains.common import Location, SharedTools
from lifebench.vita.domains.delivery import DeliveryEnvironment
from lifebench.vita.domains.instore import InStoreEnvironment
from lifebench.vita.domains.ota import OTAEnvironment
from lifebench.vita.task import VitaTask

#: Domains of a cross-scenario task, in the official order, and the order types each owns.
_PARTS: tuple[tuple[str, type[SharedTools], frozenset[str]], ...] = (
    ("delivery", DeliveryEnvironment, frozenset({"delivery"})),
    ("instore", InStoreEnvironment, frozenset({"instore"})),
    ("ota", OTAEnvironment, frozenset({"hotel", "attraction", "flight", "train"})),
)

CROSS_DOMAINS: tuple[str, ...] = tuple(name for name, _, _ in _PARTS)


class CrossEnvironment(SharedTools):
    """One simulation's world spanning delivery, in-store and OTA."""

    def __init__(
        self,
        task: VitaTask,
        language: Language = "en",
        domains: Sequence[str] = CROSS_DOMAINS,
    ) -> None:
        self.task_id = task.id
        self.language = language
        chosen = [(n, cls, types) for n, cls, types in _PARTS if n in domains]
        self.parts: dict[str, Any] = {n: cls(task, language) for n, cls, _ in chosen}  # type: ignore[call-arg]
        first = next(iter(self.parts.values()))
        self.db = first.db
        self.now = first.now
        shared: dict[str, Any] = {}
        for oid in first.db.orders:
            owner = first
            for name, _, types in chosen:
                if first.db.orders[oid].order_type in types:
                    owner = self.parts[name]
            shared[oid] = owner.db.orders[oid]
        for part in self.parts.values():
            part.db.orders = shared
            part.location_source = self._all_locations
        own = [t for t in tools_of(self)]
        shared_names = {t.name for t in own}
        for part in self.parts.values():
            own.extend(t for t in part.tools if t.name not in shared_names)
        self._tools = ToolSet(own)

    @property
    def tools(self) -> ToolSet:
        """The shared tools once plus every domain's own tools."""
        return self._tools

    def _all_locations(self) -> list[Location]:
        seen: set[tuple[str, float, float]] = set()
        out: list[Location] = []
        for part in self.parts.values():
            for loc in part.known_locations():
                key = (loc.address, loc.longitude, loc.latitude)
                if key not in seen:
                    seen.add(key)
                    out.append(loc)
        return out

    def known_locations(self) -> list[Location]:
        """Places of every domain (user places, orders, stores, shops, hotels, stations …)."""
        return self._all_locations()

    def nearby_places(self) -> list[tuple[dict[str, Any], Location]]:
        """Stores, shops, hotels, attractions and both ends of flights and trains."""
        out: list[tuple[dict[str, Any], Location]] = []
        for part in self.parts.values():
            out.extend(part.nearby_places())
        return out

    def snapshot(self) -> dict[str, Any]:
        """The union of the domains' snapshots over the one shared orders table."""
        merged: dict[str, Any] = {}
        created: list[str] = []
        for part in self.parts.values():
            snap: Mapping[str, Any] = part.snapshot()
            for key, value in snap.items():
                if key == "created_order_ids":
                    created.extend(value)
                elif key not in merged:
                    merged[key] = value
        merged["created_order_ids"] = created
        return merged

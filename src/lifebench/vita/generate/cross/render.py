"""Rendering a built cross-scenario world into the official task record (one language).

One environment holds every domain's tables: ``stores`` (delivery), ``shops`` / ``books`` /
``reservations`` (in-store), ``hotels`` / ``attractions`` / ``flights`` / ``trains`` (OTA), and
one ``orders`` table with the pre-existing orders of every type. ``user_historical_behaviors``
is the profile head followed by the sections of every domain the task involves. Each sub-goal
is one expected state whose records have the shape its domain's planner and evaluator read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from lifebench._util.text import Language
from lifebench.vita.generate.cross import text as ctext
from lifebench.vita.generate.cross.stories import Plan, Slot
from lifebench.vita.generate.cross.world import World
from lifebench.vita.generate.delivery.context import Goal as DeliveryGoal
from lifebench.vita.generate.delivery.context import order_record as delivery_order
from lifebench.vita.generate.delivery.history import SectionDraft
from lifebench.vita.generate.delivery.history import render_history as delivery_history
from lifebench.vita.generate.delivery.model import StoreDraft
from lifebench.vita.generate.delivery.render import Decoy as DeliveryDecoy
from lifebench.vita.generate.instore.context import Goal as InStoreGoal
from lifebench.vita.generate.instore.context import order_record as instore_order
from lifebench.vita.generate.instore.history import HistoryDraft as InStoreHistory
from lifebench.vita.generate.instore.model import ShopDraft
from lifebench.vita.generate.instore.render import Decoy as InStoreDecoy
from lifebench.vita.generate.instore.text import weather_remark
from lifebench.vita.generate.ota.history import HistoryDraft as OTAHistory
from lifebench.vita.generate.ota.history import render_history as ota_history
from lifebench.vita.generate.ota.model import TABLES, Provider
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.places import City
from lifebench.vita.generate.world import Place, WeatherDraft, fmt_time

Record = tuple[str, dict[str, Any]]
"""A record of the initial database: (table, record)."""


@dataclass
class Built:
    """Everything the rendering needs: the world, the plan, the providers of each domain,
    decoy orders, history drafts, weather and the extra addresses to list."""

    world: World
    plan: Plan
    stores: list[StoreDraft] = field(default_factory=list)
    shops: list[ShopDraft] = field(default_factory=list)
    providers: list[Provider] = field(default_factory=list)
    delivery_decoys: list[DeliveryDecoy] = field(default_factory=list)
    instore_decoys: list[InStoreDecoy] = field(default_factory=list)
    delivery_history: list[SectionDraft] | None = None
    instore_history: InStoreHistory | None = None
    ota_history: OTAHistory | None = None
    weather: list[tuple[City, date, WeatherDraft]] = field(default_factory=list)
    places: list[Place] = field(default_factory=list)


# --------------------------------------------------------------------------------------------
# One sub-goal, whatever its domain
# --------------------------------------------------------------------------------------------


def instruction_of(world: World, slot: Slot) -> Bi:
    """The sub-goal's part of the instruction, after its lead sentence."""
    goal = slot.goal
    if isinstance(goal, DeliveryGoal):
        part = goal.instruction(world.delivery)
    elif isinstance(goal, InStoreGoal):
        part = goal.instruction(world.instore)
    else:
        part = goal.instruction(world.ota)
    return part if slot.lead is None else ctext.join([slot.lead, part])


def rubrics_of(world: World, slot: Slot) -> list[Bi]:
    """The sub-goal's rubrics."""
    goal = slot.goal
    if isinstance(goal, DeliveryGoal):
        return goal.rubrics(world.delivery)
    if isinstance(goal, InStoreGoal):
        return goal.rubrics(world.instore)
    return goal.rubrics(world.ota)


def expected_of(world: World, slot: Slot, language: Language) -> list[dict[str, Any]]:
    """The required records of the sub-goal's expected state."""
    goal = slot.goal
    if isinstance(goal, DeliveryGoal):
        return goal.expected(world.delivery, language)
    if isinstance(goal, InStoreGoal):
        return goal.expected(world.instore, language)
    return [b.record(world.persona.user_id, language) for b in goal.expected()]


def preexisting_of(world: World, slot: Slot, language: Language) -> list[Record]:
    """Records of the sub-goal that exist before the conversation."""
    goal = slot.goal
    if isinstance(goal, DeliveryGoal):
        return [("orders", r) for r in goal.preexisting(world.delivery, language)]
    if isinstance(goal, InStoreGoal):
        return goal.preexisting(world.instore, language)
    return [("orders", b.record(world.persona.user_id, language)) for b in goal.preexisting()]


# --------------------------------------------------------------------------------------------
# The task
# --------------------------------------------------------------------------------------------


def _tables(built: Built, language: Language) -> dict[str, dict[str, Any]]:
    """``orders``, ``books`` and ``reservations`` before the conversation."""
    world = built.world
    tables: dict[str, dict[str, Any]] = {"orders": {}, "books": {}, "reservations": {}}
    ids: dict[str, Callable[[dict[str, Any]], str]] = {
        "orders": lambda r: str(r["order_id"]),
        "books": lambda r: str(r["book_id"]),
        "reservations": lambda r: str(r["reservation_id"]),
    }
    for slot in built.plan.slots:
        for table, record in preexisting_of(world, slot, language):
            tables[table][ids[table](record)] = record
    for d in built.delivery_decoys:
        oid = world.delivery.order_id("O")
        tables["orders"][oid] = delivery_order(
            world.delivery,
            language,
            order_id=oid,
            store=d.store,
            lines=[d.line],
            place=world.delivery.places["home"],
            status="delivered",
            created=d.created,
            dispatch=d.created,
        )
    for i in built.instore_decoys:
        tables["orders"][i.order_id] = instore_order(
            world.instore,
            order_id=i.order_id,
            shop=i.shop,
            product=i.product,
            quantity=1,
            status="consumed",
            created=i.created,
            language=language,
        )
    return tables


def _history(built: Built, language: Language) -> dict[str, Any]:
    """Profile head, then the sections of each domain the task involves."""
    world = built.world
    history: dict[str, Any] = dict(world.persona.history_head(language))
    if built.delivery_history is not None:
        history.update(delivery_history(world.delivery, built.delivery_history, language))
    if built.instore_history is not None:
        history.update(built.instore_history.render(world.instore, language))
    if built.ota_history is not None:
        history.update(ota_history(world.ota, built.ota_history, language))
    return history


def _locations(built: Built, language: Language) -> list[dict[str, Any]]:
    """The user's places, the relatives' home if any, then the places deliveries may go to."""
    world = built.world
    places = [world.persona.home, world.persona.work]
    if "other" in world.delivery.places:
        places.append(world.delivery.places["other"].place)
    places += built.places
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for place in places:
        if place.address.en not in seen:
            seen.add(place.address.en)
            out.append(place.location(language))
    return out


def instruction(built: Built) -> Bi:
    """Opening, story introduction, one paragraph per sub-goal, closing."""
    world = built.world
    today = built.weather[0][2]
    remark = weather_remark(today.category.en, today.high)
    parts = [ctext.situation(world.now, world.where, world.home.name, remark)]
    if built.plan.intro is not None:
        parts.append(built.plan.intro)
    for i, slot in enumerate(built.plan.slots):
        part = instruction_of(world, slot)
        parts.append(ctext.also(part) if i else part)
    parts.append(ctext.CLOSING)
    return ctext.join(parts)


def render_task(built: Built, language: Language) -> dict[str, Any]:
    """The official task record: environment, persona, instruction, expected states, rubrics."""
    world = built.world
    persona = world.persona
    tables = _tables(built, language)
    text = instruction(built).get(language)
    states = []
    overall: list[str] = []
    for slot in built.plan.slots:
        rubrics = [r.get(language) for r in rubrics_of(world, slot)]
        overall += rubrics
        states.append(
            {
                "required_orders": expected_of(world, slot, language),
                "optional_orders": [],
                "state_rubrics": rubrics,
            }
        )
    environment: dict[str, Any] = {
        "time": fmt_time(world.now),
        "user_id": persona.user_id,
        "orders": tables["orders"],
        "weather": [w.record(city, day, language) for city, day, w in built.weather],
        "location": _locations(built, language),
        "user_historical_behaviors": _history(built, language),
        "stores": {s.store_id: s.record(language) for s in built.stores},
        "shops": {s.shop_id: s.record(language) for s in built.shops},
        "books": tables["books"],
        "reservations": tables["reservations"],
    }
    for table in TABLES:
        environment[table.table] = {
            p.provider_id: p.record(language) for p in built.providers if isinstance(p, table)
        }
    return {
        "id": world.task_id,
        "domain": "cross",
        "environment": environment,
        "user_scenario": {"user_profile": persona.profile(language)},
        "instructions": text,
        "evaluation_criteria": {"expected_states": states, "overall_rubrics": overall},
        "message_history": [],
    }

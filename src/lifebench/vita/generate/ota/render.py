"""Rendering a built OTA world into the official task record (one language)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from lifebench._util.text import Language
from lifebench.vita.generate.ota import text
from lifebench.vita.generate.ota.context import Context, Goal
from lifebench.vita.generate.ota.history import HistoryDraft, render_history
from lifebench.vita.generate.ota.model import TABLES, Provider
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.places import City
from lifebench.vita.generate.world import WeatherDraft, fmt_time


@dataclass(frozen=True)
class World:
    """Everything the rendering needs: the context, sub-goals, providers, history, weather."""

    ctx: Context
    goals: list[Goal]
    providers: list[Provider]
    history: HistoryDraft
    weather: list[tuple[City, date, WeatherDraft]]


def instruction(world: World) -> Bi:
    """Situation, trip, one paragraph per sub-goal, closing."""
    ctx = world.ctx
    parts = [text.situation(ctx.now, ctx.home.name)]
    if ctx.trip is not None:
        parts.append(text.trip_intro(ctx.trip.purpose, ctx.trip.city.name))
    for i, goal in enumerate(world.goals):
        part = goal.instruction(ctx)
        parts.append(text.also(part) if i else part)
    parts.append(text.CLOSING)
    return text.join(parts)


def render_task(world: World, language: Language) -> dict[str, Any]:
    """The official task record: environment, persona, instruction, expected states, rubrics."""
    ctx = world.ctx
    persona = ctx.persona
    user = persona.user_id
    orders: dict[str, Any] = {}
    for goal in world.goals:
        for booking in goal.preexisting():
            orders[booking.order_id] = booking.record(user, language)
    states = []
    overall: list[str] = []
    for goal in world.goals:
        rubrics = [r.get(language) for r in goal.rubrics(ctx)]
        overall += rubrics
        states.append(
            {
                "required_orders": [b.record(user, language) for b in goal.expected()],
                "optional_orders": [],
                "state_rubrics": rubrics,
            }
        )
    environment: dict[str, Any] = {
        "time": fmt_time(ctx.now),
        "user_id": user,
        "orders": orders,
        "weather": [w.record(city, day, language) for city, day, w in world.weather],
        "location": [persona.home.location(language), persona.work.location(language)],
        "user_historical_behaviors": render_history(ctx, world.history, language),
    }
    for table in TABLES:
        environment[table.table] = {
            p.provider_id: p.record(language) for p in world.providers if isinstance(p, table)
        }
    return {
        "id": ctx.task_id,
        "domain": "ota",
        "environment": environment,
        "user_scenario": {"user_profile": persona.profile(language)},
        "instructions": instruction(world).get(language),
        "evaluation_criteria": {"expected_states": states, "overall_rubrics": overall},
        "message_history": [],
    }

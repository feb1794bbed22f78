"""Rendering a built delivery world into the official task record (one language)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from lifebench._util.text import Language
from lifebench.vita.generate.delivery import text
from lifebench.vita.generate.delivery.context import (
    Context,
    Goal,
    Line,
    current_section,
    order_record,
)
from lifebench.vita.generate.delivery.history import draft_sections, render_history
from lifebench.vita.generate.delivery.model import StoreDraft
from lifebench.vita.generate.pools.food import KIN
from lifebench.vita.generate.world import WEEKDAYS, WeatherDraft, day_text, fmt_time


@dataclass(frozen=True)
class Decoy:
    """A delivered order from days ago that the task never mentions (it must stay untouched)."""

    store: StoreDraft
    line: Line
    created: datetime


def render_task(
    lang: Language,
    ctx: Context,
    goals: list[Goal],
    stores: list[StoreDraft],
    decoys: list[Decoy],
    day: date,
    weather: WeatherDraft,
) -> dict[str, Any]:
    """The official task record: environment, persona, instruction, expected states, rubrics."""
    orders = _orders(lang, ctx, goals, decoys)
    pinned = [entry for g in goals if (entry := g.recent()) is not None]
    reserved = {
        k for g in goals if g.recent() is not None for k in {g.category.key, *KIN[g.category.key]}
    }
    history = draft_sections(ctx, current_section(ctx.period, ctx.weekend), pinned, reserved)
    remark = text.weather_remark(weather.category.en, weather.high)
    opening = text.situation(
        WEEKDAYS[day.weekday()], day_text(day), ctx.now, ctx.where, ctx.period, remark
    )
    sentences = [opening]
    for i, goal in enumerate(goals):
        part = goal.instruction(ctx)
        sentences.append(text.also(part) if i else part)
    states = []
    overall: list[str] = []
    for goal in goals:
        rubrics = [r.get(lang) for r in goal.rubrics(ctx)]
        overall += rubrics
        states.append(
            {
                "required_orders": goal.expected(ctx, lang),
                "optional_orders": [],
                "state_rubrics": rubrics,
            }
        )
    persona = ctx.persona
    environment = {
        "time": fmt_time(ctx.now),
        "user_id": persona.user_id,
        "orders": orders,
        "weather": [weather.record(persona.city, day, lang)],
        "location": [p.place.location(lang) for p in ctx.places.values()],
        "user_historical_behaviors": render_history(ctx, history, lang),
        "stores": {s.store_id: s.record(lang) for s in stores},
    }
    return {
        "id": ctx.task_id,
        "domain": "delivery",
        "environment": environment,
        "user_scenario": {"user_profile": persona.profile(lang)},
        "instructions": text.join(sentences).get(lang),
        "evaluation_criteria": {"expected_states": states, "overall_rubrics": overall},
        "message_history": [],
    }


def _orders(lang: Language, ctx: Context, goals: list[Goal], decoys: list[Decoy]) -> dict[str, Any]:
    """Pre-existing orders: those of the sub-goals, then the decoys."""
    orders: dict[str, Any] = {}
    for goal in goals:
        for record in goal.preexisting(ctx, lang):
            orders[record["order_id"]] = record
    for decoy in decoys:
        oid = ctx.order_id("O")
        orders[oid] = order_record(
            ctx,
            lang,
            order_id=oid,
            store=decoy.store,
            lines=[decoy.line],
            place=ctx.places["home"],
            status="delivered",
            created=decoy.created,
            dispatch=decoy.created,
        )
    return orders

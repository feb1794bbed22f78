"""Rendering a built in-store world into the official task record (one language)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from lifebench._util.text import Language
from lifebench.vita.generate.instore import text
from lifebench.vita.generate.instore.context import Context, Goal, order_record
from lifebench.vita.generate.instore.history import HistoryDraft
from lifebench.vita.generate.instore.model import ProductDraft, ShopDraft
from lifebench.vita.generate.world import WeatherDraft, fmt_time


@dataclass(frozen=True)
class Decoy:
    """A consumed order from days ago that the task never mentions (it must stay untouched)."""

    order_id: str
    shop: ShopDraft
    product: ProductDraft
    created: datetime


def render_task(
    lang: Language,
    ctx: Context,
    goals: list[Goal],
    shops: list[ShopDraft],
    decoys: list[Decoy],
    weather: list[tuple[date, WeatherDraft]],
    history: HistoryDraft,
) -> dict[str, Any]:
    """The official task record: environment, persona, instruction, expected states, rubrics."""
    tables: dict[str, dict[str, Any]] = {"orders": {}, "books": {}, "reservations": {}}
    for goal in goals:
        for table, record in goal.preexisting(ctx, lang):
            key = record.get("order_id") or record.get("book_id") or record["reservation_id"]
            tables[table][key] = record
    for decoy in decoys:
        tables["orders"][decoy.order_id] = order_record(
            ctx,
            order_id=decoy.order_id,
            shop=decoy.shop,
            product=decoy.product,
            quantity=1,
            status="consumed",
            created=decoy.created,
            language=lang,
        )
    today = weather[0][1]
    remark = text.weather_remark(today.category.en, today.high)
    sentences = [text.situation(ctx.now, ctx.where, remark)]
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
        "orders": tables["orders"],
        "weather": [w.record(persona.city, day, lang) for day, w in weather],
        "location": [p.place.location(lang) for p in ctx.places.values()],
        "shops": {s.shop_id: s.record(lang) for s in shops},
        "books": tables["books"],
        "reservations": tables["reservations"],
        "user_historical_behaviors": history.render(ctx, lang),
    }
    return {
        "id": ctx.task_id,
        "domain": "instore",
        "environment": environment,
        "user_scenario": {"user_profile": persona.profile(lang)},
        "instructions": text.join(sentences).get(lang),
        "evaluation_criteria": {"expected_states": states, "overall_rubrics": overall},
        "message_history": [],
    }

"""Offline agents of the travel suite.

:class:`ScriptedTravelAgent` is a deterministic stand-in for a model, for offline runs and
tests: it reads the row's context, calls one to three tools with valid arguments (a place
search around the user, a route to the first place found or to the navigation destination, a
forecast when the user asks about weather), then answers from what the tools returned. On the
unsolvable subset it answers ``[Unsolved]`` when the request names nothing it can search for.
It measures the harness, not a model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from lifebench.messages import AssistantMessage, Message, ToolCall
from lifebench.travel.sandbox.world import lexicon
from lifebench.travel.task import Subset, TravelTask

UNSOLVED = "[Unsolved]"
_ROUTE = re.compile(r"路线|怎么走|多久|多远|导航|开车|route|how long|how far|drive|get to", re.I)
_WEATHER = re.compile(r"天气|下雨|气温|weather|rain|temperature", re.I)
_STOPWORDS = re.compile(r"[，。！？、,.!?\s]+")


def _keyword(query: str) -> str:
    category = lexicon.category_of(query)
    if category is not lexicon.GENERIC:
        for trigger in category.triggers:
            if trigger in query.lower():
                return trigger
    words = [w for w in _STOPWORDS.split(query) if w]
    return (words[-1] if words else query)[:12]


class ScriptedTravelAgent:
    """Deterministic tool use from the row; see the module docstring."""

    def __init__(self, task: TravelTask, subset: Subset) -> None:
        self._task = task
        self._subset = subset
        self._zh = task.language == "zh"

    def _call(self, trajectory: Sequence[Message], name: str, args: dict[str, Any]) -> ToolCall:
        index = sum(len(m.tool_calls) for m in trajectory if m.role == "assistant")
        return ToolCall(
            id=f"call_{index}", name=name, arguments=json.dumps(args, ensure_ascii=False)
        )

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        """The next tool call(s) or the final answer of this turn."""
        last_user = max((i for i, m in enumerate(trajectory) if m.role == "user"), default=-1)
        turn = trajectory[last_user + 1 :]
        results = [m for m in turn if m.role == "tool"]
        first_turn = sum(1 for m in trajectory if m.role == "user") == 1
        query = self._task.query
        coords = self._task.coordinates
        if not first_turn:
            return AssistantMessage(content=self._closing())
        if self._subset == "unsolvable" and (
            coords is None or lexicon.category_of(query) is lexicon.GENERIC
        ):
            return AssistantMessage(content=UNSOLVED)
        if not results:
            calls = []
            if _WEATHER.search(query):
                calls.append(
                    self._call(
                        trajectory,
                        "weather_forecast_days",
                        {"location": self._city(), "date": self._task.time[:10], "days": 2},
                    )
                )
            if coords is not None:
                calls.append(
                    self._call(
                        trajectory,
                        "map_search_places",
                        {
                            "query": _keyword(query),
                            "center": f"{coords[0]},{coords[1]}",
                            "radius": 5000,
                            "limit": 5,
                        },
                    )
                )
            if not calls:
                calls.append(self._call(trajectory, "web_search", {"query": query}))
            return AssistantMessage(tool_calls=calls)
        if len(results) < 3 and _ROUTE.search(query) and coords is not None:
            target = self._first_place(results)
            routed = any(m.name == "map_compute_routes" for m in results)
            if target is not None and not routed:
                return AssistantMessage(
                    tool_calls=[
                        self._call(
                            trajectory,
                            "map_compute_routes",
                            {"origin": f"{coords[0]},{coords[1]}", "destination": target},
                        )
                    ]
                )
        return AssistantMessage(content=self._answer(results))

    def _city(self) -> str:
        text = self._task.location_text
        match = re.search(r"[\u4e00-\u9fff]+?市", text)
        return match.group(0) if match else (text or "北京市")

    @staticmethod
    def _first_place(results: Sequence[Message]) -> str | None:
        for m in results:
            try:
                data = json.loads(m.content)
            except (json.JSONDecodeError, AttributeError):
                continue
            places = data.get("places") if isinstance(data, dict) else None
            if places:
                return str(places[0].get("location"))
        return None

    def _answer(self, results: Sequence[Message]) -> str:
        lines: list[str] = []
        for m in results:
            if getattr(m, "error", False):
                continue
            try:
                data = json.loads(m.content)
            except json.JSONDecodeError:
                continue
            if not isinstance(data, dict):
                continue
            for place in (data.get("places") or [])[:3]:
                lines.append(
                    f"- {place.get('name')}：{place.get('address')}，评分 {place.get('rating')}"
                    if self._zh
                    else f"- {place.get('name')}: {place.get('address')}, rated {place.get('rating')}"
                )
            for route in (data.get("routes") or [])[:1]:
                km = route.get("distance_m", 0) / 1000
                lines.append(
                    f"- {route.get('mode')}约 {km:.1f} 公里，预计 {route.get('duration_min')} 分钟"
                    if self._zh
                    else f"- {route.get('mode')}: about {km:.1f} km, {route.get('duration_min')} min"
                )
            for day in (data.get("forecast") or [])[:2]:
                lines.append(
                    f"- {day.get('date')} {day.get('condition')} {day.get('low_c')}~{day.get('high_c')}℃"
                )
            for hit in (data.get("results") or [])[:2]:
                lines.append(f"- {hit.get('title')}")
        if not lines:
            return "抱歉，没有查到可用的结果。" if self._zh else "Sorry, I found nothing usable."
        head = "为你找到以下结果：" if self._zh else "Here is what I found:"
        return head + "\n" + "\n".join(lines)

    def _closing(self) -> str:
        return (
            "好的，就按上面的方案出行，祝一路顺利。"
            if self._zh
            else "All right, go with the plan above. Have a good trip."
        )

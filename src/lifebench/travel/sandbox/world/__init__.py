"""The offline world: a deterministic generator that answers every tool plausibly from the call
(places around the given coordinates, routes by haversine and mode speeds, timetables between
real cities, forecasts), seeded from the call so the same call always gets the same answer."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from lifebench._util.text import Language

_Generator = Callable[[Mapping[str, Any], str, Language], dict[str, Any]]


def _generators() -> dict[str, _Generator]:
    from lifebench.travel.sandbox.world import places, routes, transport, weather, web

    return {
        "travel_search_flights": transport.flights,
        "travel_search_trains": transport.trains,
        "weather_current_conditions": weather.current,
        "weather_forecast_days": weather.forecast,
        "map_compute_routes": routes.compute_routes,
        "map_search_places": places.search_places,
        "map_search_along_route": places.along_route,
        "map_search_central_places": places.central_places,
        "map_search_ranking_list": places.ranking_lists,
        "web_search": web.web_search,
    }


def answer(tool: str, args: Mapping[str, Any], time: str, language: Language) -> str:
    """The world's answer to a validated call, as JSON text."""
    result = _generators()[tool](args, time, language)
    return json.dumps(result, ensure_ascii=False)

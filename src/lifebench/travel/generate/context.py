"""The ``context`` string of a bundled row: bold-header blocks for the coordinates, the location,
the navigation destination and (sometimes) the navigation status — the official layout, with
English headers in the English rows (those :mod:`lifebench.travel.task` reads)."""

from __future__ import annotations

from dataclasses import dataclass

from lifebench.travel.generate.places import City, Named

HEADERS = {
    "zh": ("用户当前位置坐标", "用户当前位置描述", "用户导航终点位置", "用户导航信息"),
    "en": (
        "Current location coordinates",
        "Current location",
        "Navigation destination",
        "Navigation info",
    ),
}
TRAFFIC = (
    Named("道路畅通", "free-flowing"),
    Named("前方1公里缓行", "slow traffic for 1 km ahead"),
    Named("前方500米拥堵", "congestion 500 m ahead"),
)


@dataclass(frozen=True)
class Position:
    """Where the user is and what the navigation shows (a language-independent draw)."""

    city: City
    lat: float
    lng: float
    district: Named
    destination: Named | None
    navigation: bool
    km: float
    minutes: int
    traffic: Named


def _location(city: City, language: str) -> str:
    if language == "en":
        return f"{city.name.en}, {city.province.en}"
    return f"{city.province.zh}{city.name.zh}"  # municipalities repeat: 北京市北京市, as officially


def _navigation(p: Position, language: str) -> str:
    dest = p.destination.get(language) if p.destination else ""
    if language == "en":
        return (
            f"Current area: {p.district.en}, {p.city.name.en}\n"
            f"Remaining distance: {p.km} km; estimated time left: {p.minutes} min; "
            f"traffic ahead: {p.traffic.en}; destination: {dest}"
        )
    return (
        f"当前所在区划：{p.city.province.zh if not p.city.municipality else ''}"
        f"{p.city.name.zh}{p.district.zh}\n"
        f"剩余距离：{p.km}千米；预计还需{p.minutes}分钟；前方路况：{p.traffic.zh}；终点：{dest}"
    )


def render_context(p: Position, language: str) -> str:
    """The context in ``language`` (Chinese headers for zh rows, English headers for en rows)."""
    lang = "en" if language == "en" else "zh"
    coords, location, destination, navigation = HEADERS[lang]
    blocks = [
        f"**{coords}**\nlatitude: {p.lat:.5f}\nlongitude: {p.lng:.5f}",
        f"**{location}**\n{_location(p.city, lang)}",
    ]
    if p.destination is not None:
        blocks.append(f"**{destination}**\n{p.destination.get(lang)}")
    if p.navigation and p.destination is not None:
        blocks.append(f"**{navigation}**\n{_navigation(p, lang)}")
    return "\n\n".join(blocks)

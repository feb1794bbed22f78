"""``user_historical_behaviors`` of an in-store task: the profile head, then ``in-store dining``
(fine-dining, light meal, desserts/drinks/snacks) and ``other in-store services``, as in the
official files.

Sections are drawn language-neutrally first and rendered last. Recent orders start with the
entries sub-goals need ("the same as last time"); every other recent order names an invented shop
that is not in the task, of a category that no such sub-goal uses (nor a kin one), so "last
time" is never ambiguous.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from lifebench._util.text import Language
from lifebench.vita.generate.instore.context import Context
from lifebench.vita.generate.instore.model import ProductDraft
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.instore import (
    BRANDS,
    CATEGORIES,
    KIN,
    SECTION_TITLES,
    ShopCategory,
)
from lifebench.vita.generate.world import pick

_KEYS: Mapping[str, Bi] = MappingProxyType(
    {
        "dining": Bi("in-store dining", "到店餐饮"),
        "services": Bi("other in-store services", "其他到店服务"),
        "purchased": Bi("frequently purchased categories", "常购品类"),
        "per_person": Bi("preferred average price per person", "人均价格偏好"),
        "rating": Bi("preferred store rating", "偏好店铺评分"),
        "dining_time": Bi("typical dining time", "常用餐时间"),
        "distance": Bi("preferred distance", "偏好距离"),
        "recent": Bi("recent orders", "最近订单"),
        "search": Bi("search history", "搜索历史"),
        "store": Bi("store", "店铺"),
        "product": Bi("product", "商品"),
        "consumed": Bi("frequently consumed categories", "常消费品类"),
        "cost": Bi("cost per order by category", "各品类客单价"),
        "service_time": Bi("preferred service time", "偏好服务时间"),
    }
)
_TIMES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "fine": ("18:00-20:30", "18:30-21:00", "11:30-13:30", "17:30-20:00"),
        "light": ("11:30-13:00", "12:00-13:30", "17:30-19:00"),
        "sweet": ("14:30-16:30", "15:00-17:00", "19:00-21:00"),
        "services": ("18:00-21:00", "10:00-12:00", "14:00-18:00", "19:00-21:30"),
    }
)

_SHARES: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {0: (), 1: (100,), 2: (60, 40), 3: (50, 30, 20), 4: (40, 30, 20, 10), 5: (30, 25, 20, 15, 10)}
)
"""Shares of visits (percent) of the favourite service categories, most frequent first."""

Entry = tuple[Bi, Bi]
"""A recent order: (shop name, product name)."""


def _yuan(low: int, high: int, language: Language) -> str:
    """ "80~150 yuan" / "80~150元"."""
    return f"{low}~{high}元" if language == "zh" else f"{low}~{high} yuan"


@dataclass(frozen=True)
class SectionDraft:
    """One section (a dining sub-section or the services section), language-neutral.

    ``categories`` pairs each favourite category with its average spend (dining) or its share
    of visits in percent (services); ``costs`` is the per-order range of each (services).
    """

    section: str
    categories: tuple[tuple[ShopCategory, int], ...]
    costs: tuple[tuple[int, int], ...]
    spend: tuple[int, int]
    rating: tuple[float, float]
    hours: str
    distance: int
    recent: tuple[Entry, ...]
    search: tuple[Bi, ...]

    def render(self, language: Language) -> dict[str, Any]:
        """The official section dict."""

        def key(name: str) -> str:
            return _KEYS[name].get(language)

        stars = " stars" if language == "en" else "分"
        rating = f"{self.rating[0]:.1f}~{self.rating[1]:.1f}{stars}"
        recent = [
            {key("store"): s.get(language), key("product"): p.get(language)} for s, p in self.recent
        ]
        search = [s.get(language) for s in self.search]
        distance = f"0~{self.distance}m"
        if self.section != "services":
            if language == "zh":
                cats = [f"{c.name.zh}（均价{avg}元）" for c, avg in self.categories]
            else:
                cats = [f"{c.name.en} (average {avg} yuan)" for c, avg in self.categories]
            return {
                key("purchased"): cats,
                key("per_person"): _yuan(*self.spend, language),
                key("rating"): rating,
                key("dining_time"): self.hours,
                key("distance"): distance,
                key("recent"): recent,
                key("search"): search,
            }
        return {
            key("consumed"): {c.name.get(language): f"{share}%" for c, share in self.categories},
            key("cost"): {
                c.name.get(language): _yuan(*cost, language)
                for (c, _), cost in zip(self.categories, self.costs, strict=True)
            },
            key("rating"): rating,
            key("service_time"): self.hours,
            key("distance"): distance,
            key("recent"): recent,
            key("search"): search,
        }


@dataclass(frozen=True)
class HistoryDraft:
    """The three dining sub-sections and the services section."""

    dining: tuple[SectionDraft, ...]
    services: SectionDraft

    def render(self, ctx: Context, language: Language) -> dict[str, Any]:
        """Profile head, then ``in-store dining`` and ``other in-store services``."""
        history: dict[str, Any] = dict(ctx.persona.history_head(language))
        history[_KEYS["dining"].get(language)] = {
            SECTION_TITLES[d.section].get(language): d.render(language) for d in self.dining
        }
        history[_KEYS["services"].get(language)] = self.services.render(language)
        return history


def _invented_shop(ctx: Context, category: ShopCategory, taken: set[str]) -> Bi:
    """A shop name of ``category`` that no shop of the task (nor another entry) uses."""
    for _ in range(200):
        brand, noun = pick(ctx.rng, BRANDS), pick(ctx.rng, category.nouns)
        name = Bi(f"{brand.en} {noun.en}", f"{brand.zh}{noun.zh}")
        if not ({name.en, name.zh} & (ctx.catalog.names | taken)):
            taken.update((name.en, name.zh))
            return name
    raise AssertionError("no free shop name for the history")  # pragma: no cover


def _invented_product(ctx: Context, category: ShopCategory) -> Bi:
    """The name of a product of ``category`` the user may have bought."""
    forbidden = ctx.forbidden if category.dining else frozenset()
    combos = ctx.catalog.combos(category, 1, lambda s, k: not (s.flags | k.flags) & forbidden)
    style, kind = combos[0] if combos else (category.styles[0], category.kinds[0])
    return ProductDraft(category, style, kind, 0.0, 0, ()).name


def _section(
    ctx: Context, section: str, pinned: list[tuple[ShopCategory, Bi, Bi]], reserved: set[str],
    taken: set[str],
) -> SectionDraft:  # fmt: skip
    """One section: favourite categories (the pinned ones first), spend, preferences, recent
    orders (pinned entries, then invented shops of unreserved categories) and searches."""
    rng = ctx.rng
    services = section == "services"
    mine = [(c, s, p) for c, s, p in pinned if (c.section == section)]
    pool = [c for c in CATEGORIES if c.section == section and c.key not in reserved]
    rng.shuffle(pool)
    extra = pool[: rng.randint(2, 3) if services else rng.randint(1, 2)]
    favourites = list(dict.fromkeys([c for c, _, _ in mine] + extra))
    recent: list[Entry] = [(s, p) for _, s, p in mine]
    for category in extra[: rng.randint(1, 2) if not recent else rng.randint(0, 1)]:
        recent.append((_invented_shop(ctx, category, taken), _invented_product(ctx, category)))
    search: list[Bi] = []
    for category in favourites:
        search.append(category.place)
        search.append(pick(rng, category.kinds).item)
    costs: list[tuple[int, int]] = []
    values: list[int] = []
    if services:
        values = list(_SHARES[len(favourites)])
        for category in favourites:
            lo = min(k.price[0] for k in category.kinds)
            hi = max(k.price[0] for k in category.kinds)
            costs.append((lo, max(hi, lo + 20)))
        spend = (min(c[0] for c in costs), max(c[1] for c in costs)) if costs else (50, 200)
    else:
        for category in favourites:
            kind = category.kinds[0]
            values.append(rng.randint(*kind.price) // max(1, kind.people))
        low = min(values) if values else 30
        spend = (max(10, 10 * (low // 10) - 10), 10 * (max(values, default=80) // 10) + 30)
    low_rating = rng.randint(38, 45) / 10
    return SectionDraft(
        section=section,
        categories=tuple(zip(favourites, values, strict=True)),
        costs=tuple(costs),
        spend=spend,
        rating=(low_rating, min(5.0, low_rating + rng.randint(3, 9) / 10)),
        hours=pick(rng, _TIMES[section]),
        distance=rng.choice((800, 1500, 2000, 3000, 5000)),
        recent=tuple(recent),
        search=tuple(search[: rng.randint(3, 5)]),
    )


def draft_history(ctx: Context, pinned: list[tuple[ShopCategory, Bi, Bi]]) -> HistoryDraft:
    """All sections; ``pinned`` (category, shop, product) entries open their section's recent
    orders, and no other recent order is of their categories or kin ones."""
    reserved = {c.key for c, _, _ in pinned}
    reserved |= {k for c, _, _ in pinned for k in KIN[c.key]}
    taken: set[str] = set()
    dining = tuple(_section(ctx, s, pinned, reserved, taken) for s in SECTION_TITLES)
    services = _section(ctx, "services", pinned, reserved, taken)
    return HistoryDraft(dining, services)

"""``user_historical_behaviors`` of a delivery task: profile head plus five meal-period sections.

The sections are drawn language-neutrally first (:class:`SectionDraft`) and rendered last. Recent
orders of the current meal period start with the entries sub-goals need ("the same as last
time"); every other recent order names an invented store that is not in the task and a
category no "same as last time" sub-goal uses, so "last time" is never ambiguous.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lifebench._util.text import Language
from lifebench.vita.generate.delivery.context import SECTIONS, Context, Section
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.food import BRANDS, CATEGORIES, FoodCategory
from lifebench.vita.generate.world import pick

_KEYS = {
    "categories": Bi("frequently purchased categories", "常购品类"),
    "cost": Bi("cost per order", "客单价"),
    "rating": Bi("preferred store rating", "偏好店铺评分"),
    "time": Bi("preferred delivery time", "偏好配送时长"),
    "distance": Bi("preferred distance", "偏好距离"),
    "recent": Bi("recent orders", "最近订单"),
    "search": Bi("search history", "搜索历史"),
    "store": Bi("store", "店铺"),
    "product": Bi("product", "商品"),
}


@dataclass(frozen=True)
class SectionDraft:
    """One meal-period section, language-neutral."""

    section: Section
    categories: tuple[tuple[FoodCategory, int], ...]
    cost: tuple[int, int]
    rating: tuple[float, float]
    minutes: tuple[int, int]
    distance: int
    recent: tuple[tuple[Bi, Bi], ...]
    search: tuple[Bi, ...]

    def render(self, language: Language) -> dict[str, Any]:
        """The official section dict."""

        def key(name: str) -> str:
            return _KEYS[name].get(language)

        if language == "zh":
            categories = [f"{c.group.zh}/{c.name.zh}（均价{avg}元）" for c, avg in self.categories]
            cost = f"{self.cost[0]}~{self.cost[1]}元"
            minutes = f"{self.minutes[0]}~{self.minutes[1]}分钟"
        else:
            categories = [
                f"{c.group.en}/{c.name.en} (average ¥{avg})" for c, avg in self.categories
            ]
            cost = f"¥{self.cost[0]}~{self.cost[1]}"
            minutes = f"{self.minutes[0]}~{self.minutes[1]} minutes"
        return {
            key("categories"): categories,
            key("cost"): cost,
            key("rating"): f"{self.rating[0]:.1f}~{self.rating[1]:.1f}",
            key("time"): minutes,
            key("distance"): f"0~{self.distance}m",
            key("recent"): [
                {key("store"): s.get(language), key("product"): p.get(language)}
                for s, p in self.recent
            ],
            key("search"): [s.get(language) for s in self.search],
        }


def _invented_store(ctx: Context, category: FoodCategory, taken: set[str]) -> Bi:
    """A store name of ``category`` that no store of the task (nor another entry) uses."""
    for _ in range(200):
        brand, noun = pick(ctx.rng, BRANDS), pick(ctx.rng, category.nouns)
        name = Bi(f"{brand.en} {noun.en}", f"{brand.zh}{noun.zh}")
        if not ({name.en, name.zh} & (ctx.catalog.names | taken)):
            taken.update((name.en, name.zh))
            return name
    raise AssertionError("no free store name for the history")  # pragma: no cover


def draft_sections(
    ctx: Context, current: Section, pinned: list[tuple[Bi, Bi]], reserved: set[str]
) -> list[SectionDraft]:
    """All five sections; ``pinned`` entries open the current section's recent orders.

    ``reserved`` holds category keys that must not appear in any other recent order.
    """
    rng = ctx.rng
    taken: set[str] = set()
    out = []
    for section in SECTIONS:
        pool = [c for c in CATEGORIES if c.periods & section.periods and c.key not in reserved] or [
            c for c in CATEGORIES if c.key not in reserved
        ]
        rng.shuffle(pool)
        favourites = pool[: rng.randint(2, 3)]
        categories = tuple((c, rng.randint(c.price[0], c.price[1])) for c in favourites)
        low = min(avg for _, avg in categories)
        high = max(avg for _, avg in categories)
        recent: list[tuple[Bi, Bi]] = list(pinned) if section == current else []
        for category in favourites[: rng.randint(1, 2) + (0 if recent else 1)]:
            dishes = [d for d in category.dishes if ctx.safe(d)] or list(category.dishes)
            recent.append((_invented_store(ctx, category, taken), pick(rng, dishes).name))
        search: list[Bi] = []
        for category in favourites:
            search.append(category.name)
            search.append(pick(rng, category.dishes).name)
        low_rating = rng.randint(40, 46) / 10
        out.append(
            SectionDraft(
                section=section,
                categories=categories,
                cost=(max(5, low - rng.randint(3, 10)), high + rng.randint(5, 25)),
                rating=(low_rating, min(5.0, low_rating + rng.randint(3, 7) / 10)),
                minutes=(rng.choice((15, 20, 25)), rng.choice((30, 35, 40, 45))),
                distance=rng.choice((1500, 2000, 2500, 3000, 4000, 5000)),
                recent=tuple(recent),
                search=tuple(search[: rng.randint(3, 4)]),
            )
        )
    return out


def render_history(
    ctx: Context, sections: list[SectionDraft], language: Language
) -> dict[str, Any]:
    """Profile head, then every section under its official key."""
    history: dict[str, Any] = dict(ctx.persona.history_head(language))
    for draft in sections:
        history[draft.section.title.get(language)] = draft.render(language)
    return history

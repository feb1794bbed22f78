"""Web search of the offline world: neutral result snippets built from the query (the offline
world has no encyclopaedia; the answers are placeholders an agent can cite, not facts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lifebench._util.hashing import stable_hash
from lifebench._util.text import Language
from lifebench.travel.sandbox.world.common import rng_for

_SOURCES_ZH = ("百科", "旅游攻略", "本地资讯", "出行指南", "新闻")
_SOURCES_EN = ("Encyclopedia", "Travel guide", "Local news", "Transport guide", "News")
_TEMPLATES_ZH = (
    "{q}的基本介绍、开放时间与交通方式汇总。",
    "网友整理的{q}实用攻略：推荐路线、注意事项和费用参考。",
    "关于{q}的最新消息与官方通知，出行前请以官方发布为准。",
    "{q}常见问题解答：预约、门票、停车等信息。",
    "{q}周边的推荐去处和当地口碑。",
)
_TEMPLATES_EN = (
    "Overview of {q}: opening times and how to get there.",
    "A practical guide to {q}: suggested routes, tips and typical costs.",
    "Latest news and official notices about {q}; check official sources before travelling.",
    "FAQ about {q}: bookings, tickets and parking.",
    "Recommended places around {q} and what locals say.",
)


def web_search(args: Mapping[str, Any], time: str, language: Language) -> dict[str, Any]:
    """web_search."""
    query = str(args.get("query", "")).strip()
    rng = rng_for("web", query)
    zh = language == "zh"
    sources = _SOURCES_ZH if zh else _SOURCES_EN
    templates = _TEMPLATES_ZH if zh else _TEMPLATES_EN
    picks = rng.sample(range(len(templates)), 3 + rng.randint(0, 2))
    results = [
        {
            "title": f"{query} - {sources[i]}",
            "snippet": templates[i].format(q=query),
            "url": f"https://search.example/{stable_hash([query, i], 12)}",
        }
        for i in picks
    ]
    return {"query": query, "results": results}

"""Argument and output values that satisfy a tool's schema.

A value comes from the parameter's pool when the scenario gives one; otherwise it is made up
from the schema and the description (an enumeration "[a, b]", an example "such as \"X\"", a
default, the parameter's name), so the generator can also play the public workflows, whose
tools carry no value pools.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from lifebench._util.text import Language
from lifebench.flow.kb.models import ParamSpec

_ENUM = re.compile(r"(?:enumerat\w*|枚举)[^\[\]]{0,40}\[([^\[\]]+)\]", re.I)
_EXAMPLE = re.compile(
    r"(?:such as|e\.g\.|for example|example|例如|比如)[,:：]?\s*[\"“]([^\"”]+)[\"”]", re.I
)
_DEFAULT_STR = re.compile(r"default(?: value)?(?: is)?\s*[\"“]([^\"”]+)[\"”]", re.I)
_DEFAULT_INT = re.compile(r"default(?: value)?(?: is)?\s*(\d+)", re.I)
_SPLIT = re.compile(r"\s*[,，、]\s*")

_NAMES = {
    "en": ["Lena Fischer", "Omar Haddad", "Grace Okafor", "Daniel Kim", "Sofia Rossi"],
    "zh": ["张若溪", "李嘉豪", "王梓涵", "陈思远", "刘一凡"],
}
_CITIES = {
    "en": ["Chongqing", "Hangzhou", "Shenzhen", "Chengdu", "Qingdao"],
    "zh": ["重庆", "杭州", "深圳", "成都", "青岛"],
}
_DATES = {
    "en": ["June 18, 2034", "July 2, 2034", "August 9, 2034", "May 27, 2034"],
    "zh": ["2034年6月18日", "2034年7月2日", "2034年8月9日", "2034年5月27日"],
}
_WORDS = {
    "en": ["standard", "express", "blue", "large", "morning", "north"],
    "zh": ["标准", "加急", "蓝色", "大号", "上午", "北区"],
}


@dataclass
class ValueHint:
    """What the scenario says about one parameter's values (all optional)."""

    pool: list[Any] = field(default_factory=list)
    phrase: str | None = None
    from_output: str | None = None
    when: dict[str, Any] | None = None
    nested: dict[str, ValueHint] = field(default_factory=dict)


def enumeration(description: str) -> list[str]:
    """The values of an "Enumeration type, [a, b]" description (empty when none)."""
    match = _ENUM.search(description)
    if match is None:
        return []
    return [v.strip().strip("\"'“”") for v in _SPLIT.split(match.group(1)) if v.strip()]


def examples(description: str) -> list[str]:
    """The example values of a "such as \"X, Y\"" description."""
    out: list[str] = []
    for match in [*_EXAMPLE.finditer(description), *_DEFAULT_STR.finditer(description)]:
        for part in _SPLIT.split(match.group(1)):
            part = part.strip()
            if part and part not in out:
                out.append(part)
    return out


def _digits(rng: random.Random, n: int) -> str:
    return str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(n - 1))


def _string(name: str, description: str, rng: random.Random, language: Language) -> str:
    lowered = f"{name} {description}".lower()
    enum = enumeration(description)
    if enum:
        return rng.choice(enum)
    found = examples(description)
    if found:
        return rng.choice(found)
    if "phone" in lowered or "mobile" in lowered or "电话" in lowered or "手机" in lowered:
        return "1" + _digits(rng, 10)
    if "name" in lowered or "姓名" in lowered:
        return rng.choice(_NAMES[language])
    if any(w in lowered for w in ("date", "time", "日期", "时间")):
        return rng.choice(_DATES[language])
    if any(w in lowered for w in ("city", "address", "location", "place", "地址", "城市", "地点")):
        return rng.choice(_CITIES[language])
    if any(w in lowered for w in ("id", "number", "code", "编号", "号码")):
        return _digits(rng, 8)
    return rng.choice(_WORDS[language])


def draw(
    name: str,
    spec: ParamSpec,
    hint: ValueHint | None,
    rng: random.Random,
    language: Language,
    avoid: Any = None,
) -> Any:
    """A value of parameter ``name`` (a different one from ``avoid`` when the pool allows)."""
    hint = hint or ValueHint()
    if hint.pool:
        choices = [v for v in hint.pool if v != avoid] or list(hint.pool)
        value = rng.choice(choices)
        return list(value) if isinstance(value, list) else value
    kind = spec.type
    if kind in ("integer", "int"):
        match = _DEFAULT_INT.search(spec.description)
        base = int(match.group(1)) if match else 2
        options = [v for v in (base, base + 1, max(1, base - 1), base + 2) if v != avoid]
        return rng.choice(options or [base])
    if kind in ("number", "float"):
        return float(rng.randint(1, 9))
    if kind in ("boolean", "bool"):
        return rng.random() < 0.5
    if kind in ("list", "array"):
        item_spec = spec.items or ParamSpec(type="string", description=spec.description)
        item_hint = hint.nested.get("[]")
        count = rng.randint(1, 2)
        items: list[Any] = []
        for _ in range(count * 3):
            value = draw(name, item_spec, item_hint, rng, language)
            if value not in items:
                items.append(value)
            if len(items) == count:
                break
        return items if items != avoid else items[:1]
    if kind in ("object", "dict"):
        return {
            key: draw(key, sub, hint.nested.get(key), rng, language)
            for key, sub in (spec.properties or {}).items()
        }
    value = _string(name, spec.description, rng, language)
    if value == avoid:
        value = _string(name, spec.description, rng, language)
    return value


def draw_list(
    spec: ParamSpec, hint: ValueHint | None, rng: random.Random, language: Language, n: int
) -> list[Any]:
    """A list output of up to ``n`` distinct items."""
    item_spec = spec.items or ParamSpec(type="string", description=spec.description)
    item_hint = (hint or ValueHint()).nested.get("[]")
    items: list[Any] = []
    for _ in range(n * 4):
        value = draw("item", item_spec, item_hint, rng, language)
        if value not in items:
            items.append(value)
        if len(items) == n:
            break
    if item_hint is not None and item_hint.pool and all(not isinstance(v, dict) for v in items):
        order = {repr(v): i for i, v in enumerate(item_hint.pool)}
        items.sort(key=lambda v: order.get(repr(v), 0))
    return items


def lookup(context: dict[str, Any], path: str) -> Any:
    """The value at a dotted ``path`` ('book.branch', 'loans[].book_id', 'slots[]') of the
    context; for a ``[]`` path, the list of values; None when absent."""
    head, _, rest = path.partition(".")
    many = head.endswith("[]")
    value = context.get(head.removesuffix("[]"))
    if value is None:
        return None
    if many:
        if not isinstance(value, list):
            return None
        values = [lookup({"x": v}, f"x.{rest}") if rest else v for v in value]
        return [v for v in values if v is not None]
    if rest:
        return lookup(value, rest) if isinstance(value, dict) else None
    return value


def render_value(value: Any, language: Language) -> str:
    """A value as text in a reply or a user line."""
    sep = "、" if language == "zh" else ", "
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value):
            return ("；" if language == "zh" else "; ").join(
                render_value(v, language) for v in value
            )
        return sep.join(render_value(v, language) for v in value)
    if isinstance(value, dict):
        return " / ".join(render_value(v, language) for v in value.values())
    return str(value)


_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.\[\]]*)\}")


def fill(template: str, context: dict[str, Any], language: Language) -> str:
    """``template`` with each ``{path}`` replaced by the context's value (left as is when
    the context has none, which the generator's checks report)."""

    def one(match: re.Match[str]) -> str:
        value = lookup(context, match.group(1))
        return match.group(0) if value is None else render_value(value, language)

    return _PLACEHOLDER.sub(one, template)


def unfilled(text: str) -> list[str]:
    """Placeholders left in ``text``."""
    return _PLACEHOLDER.findall(text)

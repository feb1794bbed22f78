"""What a task's rubrics state about its records, attributed to the records it concerns.

:mod:`~lifebench.vita.grading.constraints` reads each rubric into constraints; this module
decides which required record each constraint is about (its *attribution*), so that the state
grader can check it on the record that satisfies that requirement:

1. a rubric that names a record's id (``order_id 30711009O01``) is about that record;
2. a constraint with exactly one candidate record of its kind (delivery order, appointment,
   booking) is about that one;
3. otherwise the words before the predicate (the subject: "the dessert order", "米线订单") are
   compared with each candidate's names (store / shop / provider name, product names, tags):
   the candidate sharing the most words (Latin words, Chinese character pairs; filler such as
   "order", "delivery", "订单", "配送" left out) is the one, when it is the only best;
4. a constraint left without a record is **unchecked**: the state basis then cannot decide the
   task (never a pass).

Rubrics that name pre-existing records with an action ("cancel the order with order_id X",
"modify the note of X to: …", "order the product from X again") are read by
:func:`named_actions` and :func:`named_notes`; the expected-state reader uses them to tell an
edit of an existing order from a new one (:func:`lifebench.vita.grading.expected.classify`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from lifebench.vita.grading.constraints import (
    Action,
    Stated,
    Target,
    actions,
    fold,
    parse_rubric,
)
from lifebench.vita.task import VitaTask
from lifebench.vita.timefmt import parse_time

_STOP_EN = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "for",
        "to",
        "in",
        "on",
        "at",
        "by",
        "with",
        "and",
        "or",
        "from",
        "order",
        "orders",
        "ordered",
        "ordering",
        "new",
        "newly",
        "user",
        "users",
        "user's",
        "delivery",
        "deliver",
        "delivered",
        "time",
        "estimated",
        "expected",
        "should",
        "must",
        "be",
        "is",
        "are",
        "item",
        "items",
        "product",
        "products",
        "store",
        "shop",
        "restaurant",
        "merchant",
        "reservation",
        "booking",
        "appointment",
        "book",
        "booked",
        "reserved",
        "reserve",
        "table",
        "selected",
        "select",
        "placed",
        "place",
        "re",
        "reordered",
        "re-ordered",
        "number",
        "people",
        "person",
        "this",
        "that",
        "which",
        "its",
        "it",
        "his",
        "her",
        "their",
        "my",
        "your",
    ]
)
_STOP_ZH = frozenset(
    [
        "订单",
        "配送",
        "送达",
        "时间",
        "预计",
        "预期",
        "用户",
        "商品",
        "下单",
        "店铺",
        "预约",
        "预订",
        "的订",
        "单的",
        "应在",
        "应为",
        "需要",
        "新的",
        "重新",
        "新下",
    ]
)
_WORD = re.compile(r"[a-z0-9]+")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")


def words(text: str) -> set[str]:
    """The comparison units of ``text``: Latin words (plural folded) and Chinese character
    pairs, without filler."""
    low = fold(text).casefold()
    out: set[str] = set()
    for w in _WORD.findall(low):
        if w in _STOP_EN or len(w) < 2:
            continue
        out.add(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)
    for run in _CJK_RUN.findall(low):
        out.update(run[i : i + 2] for i in range(len(run) - 1) if run[i : i + 2] not in _STOP_ZH)
    return out


def rubrics(task: VitaTask) -> list[str]:
    """Every rubric of the task (state rubrics, then overall), without duplicates."""
    criteria = task.evaluation_criteria
    if criteria is None:
        return []
    out: list[str] = []
    for state in criteria.expected_states:
        out += state.state_rubrics
    out += criteria.overall_rubrics
    return list(dict.fromkeys(r for r in out if r.strip()))


def clock(task: VitaTask) -> datetime:
    """The task clock (year 2000 when it cannot be read: relative days then read from it)."""
    return parse_time(task.environment.get("time")) or datetime(2000, 1, 1)  # noqa: DTZ001


def _ids_in(text: str, known: Iterable[str]) -> list[str]:
    return [
        k for k in known if k and re.search(rf"(?<![A-Za-z0-9]){re.escape(k)}(?![A-Za-z0-9])", text)
    ]


def known_ids(task: VitaTask) -> set[str]:
    """Ids of the pre-existing records and of every expected record of the task."""
    env = task.environment
    ids: set[str] = set()
    for table in ("orders", "books", "reservations"):
        value = env.get(table)
        if isinstance(value, Mapping):
            ids.update(str(k) for k in value)
    criteria = task.evaluation_criteria
    for state in criteria.expected_states if criteria is not None else []:
        for record in state.required_orders:
            for key in ("order_id", "book_id", "reservation_id"):
                if record.get(key):
                    ids.add(str(record[key]))
    return ids


def named_actions(task: VitaTask) -> dict[str, set[Action]]:
    """Per pre-existing record id that a rubric names: what the rubrics ask to do with it."""
    env = task.environment
    before: set[str] = set()
    for table in ("orders", "books", "reservations"):
        value = env.get(table)
        if isinstance(value, Mapping):
            before.update(str(k) for k in value)
    out: dict[str, set[Action]] = {}
    for rubric in rubrics(task):
        ids = _ids_in(rubric, before)
        if len(ids) != 1:
            continue
        found = actions(rubric)
        if found:
            out.setdefault(ids[0], set()).update(found)
    return out


def named_notes(task: VitaTask) -> dict[str, str]:
    """Per pre-existing order id: the note wording rubrics that name it give (after a colon or
    in quotes), when every such rubric gives the same wording."""
    from lifebench.vita.grading.text import same_text

    env = task.environment
    before = (
        {str(k) for k in env.get("orders") or {}}
        if isinstance(env.get("orders"), Mapping)
        else set()
    )
    texts: dict[str, list[str]] = {}
    when = clock(task)
    for rubric in rubrics(task):
        ids = _ids_in(rubric, before)
        if len(ids) != 1 or "note" not in actions(rubric):
            continue
        for stated in parse_rubric(rubric, when, frozenset()):
            if stated.field == "note" and stated.text:
                texts.setdefault(ids[0], []).append(stated.text)
    return {
        oid: found[0]
        for oid, found in texts.items()
        if all(same_text(found[0], other) for other in found[1:])
    }


@dataclass(frozen=True)
class Candidate:
    """A required record a constraint may be about.

    Attributes:
        key: Index of the requirement among the evaluator's requirements.
        target: The kind of record (delivery order, appointment, booking).
        ids: Ids the record goes by (its own, the pre-existing order it is about).
        names: Text naming it (store / shop / provider name, product names, tags).
        record: The expected record (to prefer a candidate whose record agrees).
    """

    key: int
    target: Target
    ids: tuple[str, ...]
    names: str
    record: Mapping[str, object] = field(default_factory=dict)


@dataclass
class Attribution:
    """Constraints per candidate key, and those no record could be found for."""

    by_key: dict[int, list[Stated]] = field(default_factory=dict)
    unattributed: list[Stated] = field(default_factory=list)

    def of(self, key: int) -> list[Stated]:
        """The constraints attributed to the requirement with this key."""
        return self.by_key.get(key, [])


#: Kinds of food a subject may name instead of a product ("the beverage order", "饮品订单"),
#: with words a product or store name of that kind contains.
_KINDS: tuple[tuple[frozenset[str], frozenset[str]], ...] = (
    (
        frozenset(
            [
                "beverage",
                "drink",
                "tea",
                "coffee",
                "juice",
                "饮品",
                "饮料",
                "奶茶",
                "茶饮",
                "咖啡",
                "果汁",
                "热饮",
                "甜饮",
            ]
        ),
        frozenset(
            [
                "tea",
                "coffee",
                "latte",
                "juice",
                "boba",
                "milk",
                "drink",
                "soda",
                "lemon",
                "americano",
                "cappuccino",
                "smoothie",
                "mocha",
                "beverage",
                "茶",
                "咖啡",
                "奶",
                "饮",
                "汁",
                "拿铁",
                "美式",
            ]
        ),
    ),
    (
        frozenset(["dessert", "cake", "sweet", "甜品", "甜点", "蛋糕"]),
        frozenset(
            [
                "cake",
                "dessert",
                "pudding",
                "mochi",
                "sago",
                "tart",
                "糕",
                "甜",
                "布丁",
                "麻糍",
                "西米",
                "挞",
            ]
        ),
    ),
)


def _kind_words(text: str) -> set[str]:
    """The food kinds a subject names (index into :data:`_KINDS`) as pseudo-words."""
    low = fold(text).casefold()
    return {f"#kind{i}" for i, (names, _) in enumerate(_KINDS) if any(n in low for n in names)}


def _name_kinds(text: str) -> set[str]:
    low = fold(text).casefold()
    found = set()
    for i, (_, cues) in enumerate(_KINDS):
        if any(re.search(rf"(?<![a-z]){re.escape(c)}", low) for c in cues):
            found.add(f"#kind{i}")
    return found


def attribute_all(
    task: VitaTask,
    candidates: Sequence[Candidate],
    targets: frozenset[Target],
    *,
    notes: bool,
    agrees: Callable[[Stated, Candidate], bool] | None = None,
) -> Attribution:
    """Parse every rubric of ``task`` for ``targets`` (and notes when ``notes``) and attribute
    each constraint (see the module docstring). ``agrees(stated, candidate)`` says whether a
    candidate's expected record already agrees with a constraint (used to break ties).
    Identical constraints stated twice count once."""
    out = Attribution()
    when = clock(task)
    seen: set[tuple[object, ...]] = set()
    all_ids = known_ids(task)
    pending: list[Stated] = []
    for rubric in rubrics(task):
        ids = _ids_in(rubric, all_ids)
        for stated in parse_rubric(rubric, when, targets):
            if stated.field == "note" and not notes:
                continue
            pool = [c for c in candidates if stated.field == "note" or c.target == stated.target]
            if ids and not any(set(c.ids) & set(ids) for c in candidates):
                continue  # about a record another grader owns (or none requires)
            chosen = _choose(stated, pool, ids, agrees)
            key = (
                stated.field,
                stated.target,
                str(stated.window),
                stated.count,
                stated.text,
                tuple(c.key for c in chosen) if chosen else stated.subject,
            )
            if key in seen:
                continue
            seen.add(key)
            if not chosen:
                pending.append(stated)
            for c in chosen:
                out.by_key.setdefault(c.key, []).append(stated)
    # Elimination: when every constraint of a class left over says the same thing, and as many
    # records are left without one as there are subjects stating it, each of them gets it.
    attributed = {k: list(v) for k, v in out.by_key.items()}
    for stated in pending:
        rest = [s for s in pending if s.field == stated.field and s.target == stated.target]
        same = {(str(s.window), s.count) for s in rest}
        free = [
            c
            for c in candidates
            if c.target == stated.target
            and not any(s.field == stated.field for s in attributed.get(c.key, []))
        ]
        subjects = {" ".join(sorted(words(s.subject))) for s in rest}
        if stated.field != "note" and len(same) == 1 and free and len(subjects) >= len(free):
            for c in free:
                out.by_key.setdefault(c.key, []).append(stated)
        else:
            out.unattributed.append(stated)
    return out


def _choose(
    stated: Stated,
    pool: Sequence[Candidate],
    ids: Sequence[str],
    agrees: Callable[[Stated, Candidate], bool] | None,
) -> list[Candidate]:
    """The records ``stated`` is about: one, or — when several tie and every one of their
    records already states the same — each of them ([] when it cannot be told)."""
    if ids:
        named = [c for c in pool if set(c.ids) & set(ids)]
        return named if len(named) == 1 else []
    if len(pool) == 1:
        return [pool[0]]
    subject = words(stated.subject) | _kind_words(stated.subject)
    whole = words(stated.rubric) | _kind_words(stated.rubric)
    scored = sorted(
        (
            (
                len(subject & (names := words(c.names) | _name_kinds(c.names))),
                len(whole & names),
            ),
            c.key,
        )
        for c in pool
    )
    scored.reverse()
    best = (
        [key for score, key in scored if score == scored[0][0] and score[1] > 0] if scored else []
    )
    if len(best) == 1:
        return [c for c in pool if c.key == best[0]]
    tied = [c for c in pool if c.key in best] if best else list(pool)
    if agrees is not None:
        agreeing = [c for c in tied if agrees(stated, c)]
        if len(agreeing) == 1 or (tied and len(agreeing) == len(tied)):
            return agreeing
    return []


_NAME_KEYS = (
    "name",
    "store_name",
    "shop_name",
    "hotel_name",
    "attraction_name",
    "flight_number",
    "train_number",
    "room_type",
    "ticket_type",
    "seat_type",
    "category",
)


def _texts(record: Mapping[str, object]) -> list[str]:
    out = [str(record[k]) for k in _NAME_KEYS if isinstance(record.get(k), str)]
    tags = record.get("tags")
    if isinstance(tags, list):
        out += [str(t) for t in tags]
    return out


def record_names(task: VitaTask, record: Mapping[str, object], provider_id: str) -> str:
    """Words that name a record: its provider's name and tags, and its products' names."""
    from lifebench.vita.grading.expected import PROVIDER_TABLES, line_product

    table = PROVIDER_TABLES.get(str(record.get("order_type") or ""), "shops")
    providers = task.environment.get(table)
    provider = providers.get(provider_id) if isinstance(providers, Mapping) else None
    out: list[str] = []
    catalog: dict[str, Mapping[str, object]] = {}
    if isinstance(provider, Mapping):
        out += _texts(provider)
        out += [str(provider_id)]
        for p in provider.get("products") or []:
            if isinstance(p, Mapping):
                catalog[str(p.get("product_id"))] = p
    lines = record.get("products")
    for line in lines if isinstance(lines, list) else []:
        if isinstance(line, Mapping):
            pid = line_product(line)
            out += _texts(line) + _texts(catalog.get(pid, {})) + [pid]
    return " ".join(out)

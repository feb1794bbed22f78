"""Read VitaBench task files (official format, unchanged) with errors a user can act on.

A task file is a JSON array of task objects (the official ``tasks*.json``) or JSON Lines (one task
object per line). Every problem found is reported through one :class:`~lifebench.errors.InputError`
that names the file, the task (its id, or ``#<index>`` — 0-based — when the id is missing or
unreadable) and the field path (``environment.time``,
``evaluation_criteria.expected_states[0].required_orders[2].store_id``) with what is wrong. All
problems of a file are collected before raising, so one run shows everything to fix.

Checks done here are the fatal ones (the task cannot be run as written): JSON syntax, shape,
field types (the task model plus the environment tables and order records the tools and the state
check read), duplicate ids, ``environment.time`` / ``environment.user_id``, ids of store and
product records. Non-fatal oddities are the business of :mod:`lifebench.vita.lint`.

Nothing the official harness tolerates is refused. Time fields (the task clock, the times and
dates of pre-existing and expected orders, bookings, reservations, weather rows and dated
products) are read with :func:`lifebench.vita.timefmt.normalise_time` and rewritten to the
canonical form when they were written otherwise (a non-breaking or ideographic space, unpadded
``2025-6-21 9:05``, ...); each rewrite is recorded on the task as a
:class:`~lifebench.vita.task.LoadNote` naming the file and field, which ``tasks validate``
reports as a lint warning. Invisible characters in error messages are shown escaped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from lifebench._util.inputs import decode_text, json_kind, parse_json_records, read_text
from lifebench.errors import InputError
from lifebench.vita.task import LoadNote, VitaTask
from lifebench.vita.timefmt import normalise_time

__all__ = [
    "ORDER_TYPE_TABLES",
    "STORE_TABLES",
    "TIME_FORMAT",
    "available_bundled_tasks",
    "format_path",
    "load_bundled_tasks",
    "load_tasks",
    "parse_tasks",
]

TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
"""Format of ``environment.time`` and of every timestamp in the official data."""

_DATE_TIME_SHAPE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}\s+\d{1,2}:\d{1,2}(:\d{1,2})?")

_MOMENT_KEYS = (
    "create_time",
    "update_time",
    "order_time",
    "dispatch_time",
    "delivery_time",
    "book_time",
    "reservation_time",
)
"""Keys of order-, booking- and reservation-shaped records that hold a moment."""

STORE_TABLES: dict[str, str] = {
    "stores": "store_id",
    "shops": "shop_id",
    "hotels": "hotel_id",
    "attractions": "attraction_id",
    "flights": "flight_id",
    "trains": "train_id",
}
"""Environment tables of service providers (table name → id field of each record)."""

ORDER_TYPE_TABLES: dict[str, str] = {
    "delivery": "stores",
    "instore": "shops",
    "hotel": "hotels",
    "attraction": "attractions",
    "flight": "flights",
    "train": "trains",
}
"""Order type → the environment table its ``store_id`` refers to."""

_MAX_LISTED = 25
"""At most this many problems are spelled out in one error message."""


# --------------------------------------------------------------------------------------------
# Shape models: only used to check types (the task keeps its raw environment dict).
# --------------------------------------------------------------------------------------------


class _Shape(BaseModel):
    model_config = ConfigDict(extra="allow")


class _LocationShape(_Shape):
    address: str
    longitude: float
    latitude: float


class _WeatherShape(_Shape):
    city: str
    category: str
    datetime: str
    temperature: list[float]
    humidity: float


_OrderType = Literal["delivery", "instore", "hotel", "attraction", "flight", "train"]
_OrderStatus = Literal[
    "unpaid", "paid", "unconsumed", "consumed", "processed", "in-progress", "delivered", "cancelled"
]


class _OrderShape(_Shape):
    order_id: str
    order_type: _OrderType
    user_id: str
    store_id: str
    note: str = ""
    location: _LocationShape | None = None
    dispatch_time: str = ""
    shipping_time: float | None = None
    delivery_time: str = ""
    total_price: float
    create_time: str = ""
    update_time: str = ""
    status: _OrderStatus
    products: list[Any]


class _StoreProductShape(_Shape):
    product_id: str
    name: str
    store_id: str
    store_name: str
    price: float
    quantity: int = 0
    tags: list[str] = Field(default_factory=list)
    attributes: list[str] = Field(default_factory=list)

    @field_validator("attributes", mode="before")
    @classmethod
    def _one_attribute(cls, value: Any) -> Any:
        # The official model collapses the list into one comma-joined string; accept that form.
        return [value] if isinstance(value, str) else value


class _StoreShape(_Shape):
    store_id: str
    name: str
    score: float
    location: _LocationShape
    tags: list[str] = Field(default_factory=list)
    products: list[_StoreProductShape] = Field(default_factory=list)


class _ShopProductShape(_Shape):
    product_id: str
    name: str
    shop_id: str
    price: float
    quantity: int = 0
    tags: list[str] = Field(default_factory=list)


class _ShopShape(_Shape):
    shop_id: str
    shop_name: str
    score: float
    location: _LocationShape
    tags: list[str] = Field(default_factory=list)
    enable_book: bool = False
    book_price: float = 0.0
    enable_reservation: bool = False
    products: list[_ShopProductShape] = Field(default_factory=list)


class _GenericProviderShape(_Shape):
    """OTA providers (hotels, attractions, flights, trains): only ids are checked."""

    products: list[dict[str, Any]] = Field(default_factory=list)


class _EnvironmentShape(_Shape):
    time: str
    user_id: str
    weather: list[_WeatherShape] = Field(default_factory=list)
    location: list[_LocationShape] = Field(default_factory=list)
    user_historical_behaviors: dict[str, Any] = Field(default_factory=dict)
    orders: dict[str, _OrderShape] = Field(default_factory=dict)
    stores: dict[str, _StoreShape] = Field(default_factory=dict)
    shops: dict[str, _ShopShape] = Field(default_factory=dict)
    hotels: dict[str, _GenericProviderShape] = Field(default_factory=dict)
    attractions: dict[str, _GenericProviderShape] = Field(default_factory=dict)
    flights: dict[str, _GenericProviderShape] = Field(default_factory=dict)
    trains: dict[str, _GenericProviderShape] = Field(default_factory=dict)
    books: dict[str, dict[str, Any]] = Field(default_factory=dict)
    reservations: dict[str, dict[str, Any]] = Field(default_factory=dict)


# --------------------------------------------------------------------------------------------
# Problem collection and formatting
# --------------------------------------------------------------------------------------------

_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def format_path(parts: Iterable[str | int]) -> str:
    """Render a location as a field path: ``a.b[0].c``; odd keys are quoted (``a["x y"]``)."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _IDENT_RE.fullmatch(part):
            out += f".{part}" if out else part
        else:
            out += f"[{json.dumps(part, ensure_ascii=False)}]"
    return out


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _Problem:
    __slots__ = ("field", "message", "task")

    def __init__(self, task: str | None, field: str | None, message: str) -> None:
        self.task, self.field, self.message = task, field, message

    def render(self) -> str:
        where = []
        if self.task:
            where.append(f"task {self.task}")
        if self.field:
            where.append(f"field {self.field}")
        return (", ".join(where) + ": " if where else "") + self.message


def _raise(problems: Sequence[_Problem], source: str) -> None:
    """Raise one InputError describing ``problems`` (the first one gives the structured fields)."""
    first = problems[0]
    message = first.message
    rest = problems[1:]
    if rest:
        lines = [f"{len(rest)} more problem(s) in this file:"]
        lines += [f"  - {p.render()}" for p in rest[:_MAX_LISTED]]
        if len(rest) > _MAX_LISTED:
            lines.append(f"  - ... and {len(rest) - _MAX_LISTED} more")
        message += "\n" + "\n".join(lines)
    raise InputError(message, file=source, task_id=first.task, field=first.field)


def _validation_problems(
    error: ValidationError, task: str, prefix: Sequence[str | int] = ()
) -> list[_Problem]:
    problems = []
    for item in error.errors(include_url=False):
        path = format_path([*prefix, *item["loc"]])
        if item["type"] == "missing":
            message = "required field is missing"
        else:
            got = item.get("input")
            message = f"{item['msg']} (got {type(got).__name__} {_short(got)})"
        problems.append(_Problem(task, path or None, message))
    return problems


# --------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------


def _parse_document(text: str, source: str) -> list[tuple[str, Any]]:
    """Parse ``text`` into ``(label, raw task)`` pairs; labels are ``#i`` or ``#i (line n)``."""
    records = parse_json_records(text, source, what="task object")
    if len(records) == 1 and not isinstance(records[0].value, dict | list):
        raise InputError(
            "expected a JSON array of task objects (or JSON Lines, one task object per line), "
            f"got a single JSON {json_kind(records[0].value)}",
            file=source,
        )
    if text.lstrip().startswith("["):
        return [(f"#{r.index}", r.value) for r in records]
    return [(f"#{r.index} (line {r.line})", r.value) for r in records]


def _check_environment(env: dict[str, Any], task: str) -> list[_Problem]:
    """Types of the environment tables, the clock, and the ids of every record."""
    problems: list[_Problem] = []
    try:
        _EnvironmentShape.model_validate(env)
    except ValidationError as exc:
        problems += _validation_problems(exc, task, ("environment",))
    time = env.get("time")
    if isinstance(time, str):
        problem = _check_time(time)
        if problem:
            problems.append(_Problem(task, "environment.time", problem))
    user_id = env.get("user_id")
    if isinstance(user_id, str) and not user_id.strip():
        problems.append(_Problem(task, "environment.user_id", "must not be empty"))
    # Ids of the records the shape models keep loose (OTA providers, bookings, reservations).
    loose = {name: STORE_TABLES[name] for name in ("hotels", "attractions", "flights", "trains")}
    loose.update(books="book_id", reservations="reservation_id")
    for table, id_field in loose.items():
        records = env.get(table)
        for key, record in records.items() if isinstance(records, dict) else ():
            if not isinstance(record, dict):
                continue
            where = ("environment", table, key)
            if id_field not in record:
                path = format_path([*where, id_field])
                problems.append(_Problem(task, path, "required field is missing"))
            products = record.get("products")
            for j, product in enumerate(products if isinstance(products, list) else []):
                if isinstance(product, dict) and "product_id" not in product:
                    path = format_path([*where, "products", j, "product_id"])
                    problems.append(_Problem(task, path, "required field is missing"))
    return problems


def _check_time(value: str) -> str | None:
    read = normalise_time(value)
    if read is not None and read.has_time:
        return None
    if read is None and _DATE_TIME_SHAPE.fullmatch(value.strip()):
        return f"not a valid calendar date and time: {_short(value)}"
    return f"expected 'YYYY-MM-DD HH:MM:SS' (a date and a time), got {_short(value)}"


# --------------------------------------------------------------------------------------------
# Normalising time fields
# --------------------------------------------------------------------------------------------


class _TimeFixer:
    """Rewrites the time fields of one raw task to the canonical form, noting every change."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.notes: list[LoadNote] = []

    def fix(self, record: Any, key: str, path: Sequence[str | int], moment: bool) -> None:
        """Normalise ``record[key]`` when it reads as a moment (``moment``) or a day."""
        if not isinstance(record, dict):
            return
        value = record.get(key)
        if not isinstance(value, str):
            return
        read = normalise_time(value)
        if read is None or read.has_time != moment or read.text == value:
            return
        record[key] = read.text
        message = f"normalised on loading {self.source}: {read.describe(value)}"
        self.notes.append(LoadNote(field=format_path([*path, key]), message=message))

    def record(self, record: Any, path: Sequence[str | int]) -> None:
        """An order, booking or reservation: its moments and its lines' dates."""
        if not isinstance(record, dict):
            return
        for key in _MOMENT_KEYS:
            self.fix(record, key, path, moment=True)
        self.lines(record, path)

    def lines(self, record: dict[str, Any], path: Sequence[str | int]) -> None:
        products = record.get("products")
        for j, line in enumerate(products if isinstance(products, list) else []):
            self.fix(line, "date", [*path, "products", j], moment=False)

    def task(self, raw: dict[str, Any]) -> None:
        env = raw.get("environment")
        if isinstance(env, dict):
            self.fix(env, "time", ["environment"], moment=True)
            weather = env.get("weather")
            for i, row in enumerate(weather if isinstance(weather, list) else []):
                self.fix(row, "datetime", ["environment", "weather", i], moment=False)
            for table in ("orders", "books", "reservations"):
                records = env.get(table)
                for key, record in records.items() if isinstance(records, dict) else ():
                    self.record(record, ["environment", table, key])
            for table in ("hotels", "attractions", "flights", "trains"):
                providers = env.get(table)
                for key, provider in providers.items() if isinstance(providers, dict) else ():
                    if isinstance(provider, dict):
                        self.lines(provider, ["environment", table, key])
        criteria = raw.get("evaluation_criteria")
        states = criteria.get("expected_states") if isinstance(criteria, dict) else None
        for i, state in enumerate(states if isinstance(states, list) else []):
            if not isinstance(state, dict):
                continue
            for kind in ("required_orders", "optional_orders"):
                records = state.get(kind)
                for j, record in enumerate(records if isinstance(records, list) else []):
                    self.record(record, ["evaluation_criteria", "expected_states", i, kind, j])


def _check_domain_label(raw: dict[str, Any], task: str) -> list[_Problem]:
    """A ``domain`` label must name a domain (any official spelling) and agree with the
    provider tables the task fills; an empty or missing label lets the tables decide."""
    from lifebench.vita.domains.registry import CROSS, domain_of_label, domain_of_tables

    label = raw.get("domain")
    if not isinstance(label, str) or not label.strip():
        return []
    named = domain_of_label(label)
    if named is None:
        return [
            _Problem(
                task,
                "domain",
                f"{_short(label)} is not a VitaBench domain (delivery, instore, ota, cross, or an "
                "official spelling such as 'in-store consumption'); fix the label or remove it to "
                "let the task's tables decide",
            )
        ]
    env = raw.get("environment")
    tables = domain_of_tables(env) if isinstance(env, dict) else None
    if tables not in (None, CROSS) and named != CROSS and tables != named:
        return [
            _Problem(
                task,
                "domain",
                f"the label says {named}, but the task fills the provider tables of the {tables} "
                "domain; fix the label",
            )
        ]
    return []


def _check_required_orders(raw: dict[str, Any], task: str) -> list[_Problem]:
    """Types of the order-shaped records of ``evaluation_criteria.expected_states``."""
    problems: list[_Problem] = []
    criteria = raw.get("evaluation_criteria")
    if not isinstance(criteria, dict):
        return problems
    states = criteria.get("expected_states")
    for i, state in enumerate(states if isinstance(states, list) else []):
        if not isinstance(state, dict):
            continue
        for kind in ("required_orders", "optional_orders"):
            records = state.get(kind)
            for j, record in enumerate(records if isinstance(records, list) else []):
                # In-store expected states also hold reservation / booking records; only
                # order-shaped records are checked here.
                if not isinstance(record, dict) or not ({"order_id", "order_type"} & set(record)):
                    continue
                try:
                    _OrderShape.model_validate(record)
                except ValidationError as exc:
                    prefix = ("evaluation_criteria", "expected_states", i, kind, j)
                    problems += _validation_problems(exc, task, prefix)
    return problems


def parse_tasks(text: str, source: str = "<string>") -> list[VitaTask]:
    """Parse and check the text of a task file; ``source`` names it in error messages.

    Raises:
        InputError: listing every problem found (see the module docstring).
    """
    items = _parse_document(text, source)
    problems: list[_Problem] = []
    tasks: list[VitaTask] = []
    first_seen: dict[str, str] = {}
    for label, raw in items:
        if not isinstance(raw, dict):
            problems.append(
                _Problem(label, None, f"expected a task object, got a JSON {json_kind(raw)}")
            )
            continue
        raw_id: Any = raw.get("id")
        task_id = raw_id.strip() if isinstance(raw_id, str) else ""
        task = str(raw_id) if task_id else label
        before = len(problems)
        fixer = _TimeFixer(source)
        fixer.task(raw)
        if isinstance(raw_id, str) and not task_id:
            problems.append(_Problem(task, "id", "task id must not be empty"))
        try:
            model = VitaTask.model_validate(raw)
        except ValidationError as exc:
            problems += _validation_problems(exc, task)
            model = None
        env = raw.get("environment")
        if isinstance(env, dict):
            problems += _check_environment(env, task)
        problems += _check_required_orders(raw, task)
        problems += _check_domain_label(raw, task)
        if task_id:
            if task in first_seen:
                first = first_seen[task]
                message = f"duplicate task id {_short(task)} (first used by task {first})"
                problems.append(_Problem(f"{task} ({label})", "id", message))
            else:
                first_seen[task] = label
        if model is not None and len(problems) == before:
            model.record_load_notes(fixer.notes)
            tasks.append(model)
    if problems:
        _raise(problems, source)
    return tasks


def load_tasks(path: Path | str) -> list[VitaTask]:
    """Load an official VitaBench task file (JSON array or JSON Lines), unchanged.

    Raises:
        InputError: the file is missing or unreadable, or any task in it is malformed; the message
            names the file, the task and the field of every problem found.
    """
    path = Path(path)
    return parse_tasks(read_text(path, what="task file"), str(path))


_DATA_PACKAGE = "lifebench.vita.data"


TaskSet = Literal["demo", "generated"]
TASK_SETS: tuple[TaskSet, ...] = ("generated", "demo")
#: Where each bundled set lives inside the package data.
_SET_FOLDERS: dict[str, tuple[str, ...]] = {"demo": (), "generated": ("generated",)}


def _set_folder(task_set: TaskSet) -> Traversable:
    folder = resources.files(_DATA_PACKAGE)
    for part in _SET_FOLDERS[task_set]:
        folder = folder.joinpath(part)
    return folder


def available_bundled_tasks(task_set: TaskSet = "demo") -> list[tuple[str, str]]:
    """``(domain, language)`` pairs of a bundled task set: the hand-written ``demo`` tasks or
    the ``generated`` ones (100 per domain, certified)."""
    folder = _set_folder(task_set)
    if not folder.is_dir():
        return []
    pairs = []
    for entry in folder.iterdir():
        name = entry.name
        if entry.is_file() and name.endswith(".json") and "_" in name:
            domain, _, language = name[: -len(".json")].rpartition("_")
            pairs.append((domain, language))
    return sorted(pairs)


def load_bundled_tasks(domain: str, language: str, task_set: TaskSet = "demo") -> list[VitaTask]:
    """Load a task set shipped as package data (e.g. ``("delivery", "en", "generated")``).

    Works from any install (wheel, zip, editable): files are read through
    :mod:`importlib.resources`, never relative to the source tree.

    Raises:
        InputError: no bundled file for that set, domain and language (the message lists those
            that exist), or the bundled file is malformed.
    """
    name = f"{domain}_{language}.json"
    resource = _set_folder(task_set).joinpath(name)
    if not resource.is_file():
        known = ", ".join(f"{d}/{lang}" for d, lang in available_bundled_tasks(task_set)) or "none"
        raise InputError(
            f"no bundled {task_set} tasks for domain {domain!r} and language {language!r} "
            f"(available: {known})"
        )
    where = "/".join((_DATA_PACKAGE, *_SET_FOLDERS[task_set], name))
    text = decode_text(resource.read_bytes(), where, what="task file")
    return parse_tasks(text, where)

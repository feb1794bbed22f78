"""The VitaBench OTA domain (online travel: hotels, attractions, flights, trains) with 38 tools.

:class:`OTAEnvironment` is built fresh from one task for one simulation and owns a deep copy of
the task's data. Tool names and parameter names are those of the official harness (including
the misspelling ``hotel_search_recommand``); the behaviour fixes the official bugs listed in
docs/compat.md ("OTA domain"): stock is per date and kept consistent by create, modify and
cancel; every order tool checks the order's type and owner; ids are deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date as Date
from typing import Annotated, Any, ClassVar

from lifebench._util.text import Language, Text
from lifebench.tools import Param, ToolError, ToolSet, tool, tools_of
from lifebench.vita.domains import _calendar, _match
from lifebench.vita.domains._match import in_city
from lifebench.vita.domains._ota_tables import (
    ATTRACTION,
    FLIGHT,
    HOTEL,
    KINDS,
    OTA_ORDER_TYPES,
    OTADB,
    TRAIN,
    Attraction,
    AttractionProduct,
    Flight,
    FlightProduct,
    Hotel,
    HotelProduct,
    OTAKind,
    OTAOrder,
    OTAOrderProduct,
    OTAProduct,
    OTAProvider,
    Train,
    TrainProduct,
)
from lifebench.vita.domains.common import Location, OrderStatus, SharedTools, ident
from lifebench.vita.task import VitaTask

__all__ = [
    "KINDS",
    "OTADB",
    "OTA_ORDER_TYPES",
    "Attraction",
    "AttractionProduct",
    "Flight",
    "FlightProduct",
    "Hotel",
    "HotelProduct",
    "OTAEnvironment",
    "OTAKind",
    "OTAOrder",
    "OTAOrderProduct",
    "OTAProduct",
    "OTAProvider",
    "Train",
    "TrainProduct",
    "in_city",
]

#: Statuses in which an order counts as paid (money has been taken).
_PAID_STATUSES = frozenset({"paid", "unconsumed", "consumed", "processed", "in-progress"})
#: Statuses from which a flight / train order may change its date.
_MODIFIABLE = frozenset({"paid", "unconsumed"})

# --------------------------------------------------------------------------------------------
# Parameter documentation and description builders (pure functions of the kind)
# --------------------------------------------------------------------------------------------

_USER_ID = Param("The current user's id.", "当前用户的 id。")
_CITY = Param('City name, e.g. "Hangzhou" (a trailing "City" is optional).', "城市名，例如“杭州”。")
_DATE = Param("The date, YYYY-MM-DD.", "日期，格式 YYYY-MM-DD。")
_QUANTITY = Param("Number of tickets / seats (≥ 1).", "购买数量（不小于 1）。")


def _a(word: str) -> str:
    """``word`` with its English indefinite article ("a hotel", "an attraction")."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _order_id_param(kind: OTAKind) -> Param:
    """Documentation of the ``order_id`` parameter of ``kind``'s order tools."""
    return Param(
        f"Id of {_a(kind.label.en)} order, e.g. as returned by create_{kind.order_type}_order.",
        f"{kind.label.zh}订单号，例如 create_{kind.order_type}_order 返回的订单号。",
    )


def _pay_text(kind: OTAKind) -> dict[str, Any]:
    """Description, conditions and dependencies of ``pay_<kind>_order``."""
    t = kind.order_type
    return {
        "description": Text(
            f"Pay an unpaid {kind.label.en} order (also used to pay the extra amount due after "
            "a date change made the order more expensive).",
            f"支付一笔未支付的{kind.label.zh}订单（改签后需补差价时也用它支付）。",
        ),
        "preconditions": [
            Text(
                f"The order is {_a(kind.label.en)} order of the current user in status unpaid.",
                f"订单为当前用户的{kind.label.zh}订单，且状态为 unpaid。",
            )
        ],
        "postconditions": [
            Text(
                "The status becomes paid; the result states the amount charged.",
                "订单状态变为 paid；结果中给出本次实际支付金额。",
            )
        ],
        "depends_on": [
            f"create_{t}_order",
            f"search_{t}_order",
            f"get_{t}_order_detail",
            "get_user_all_orders",
            *([f"modify_{t}_order"] if t in ("flight", "train") else []),
        ],
    }


def _cancel_text(kind: OTAKind) -> dict[str, Any]:
    """Description, conditions and dependencies of ``cancel_<kind>_order``."""
    t = kind.order_type
    return {
        "description": Text(
            f"Cancel {_a(kind.label.en)} order. What was paid for it is refunded and the booked "
            "stock becomes available again.",
            f"取消一笔{kind.label.zh}订单。已支付金额全额退还，所占库存释放。",
        ),
        "preconditions": [
            Text("user_id is the current user's id.", "user_id 为当前用户的 id。"),
            Text(
                f"The order is {_a(kind.label.en)} order of the current user that is neither "
                "cancelled nor already consumed.",
                f"订单为当前用户的{kind.label.zh}订单，且未取消、未使用。",
            ),
        ],
        "postconditions": [
            Text(
                "The status becomes cancelled; the result states the refund amount.",
                "订单状态变为 cancelled；结果中给出退款金额。",
            )
        ],
        "depends_on": [
            f"create_{t}_order",
            f"search_{t}_order",
            f"get_{t}_order_detail",
            "get_user_all_orders",
        ],
    }


def _search_order_text(kind: OTAKind) -> dict[str, Any]:
    """Description, conditions and dependencies of ``search_<kind>_order``."""
    return {
        "description": Text(
            f"List the current user's {kind.label.en} orders in one status (default paid), "
            "optionally only those for a given date.",
            f"按状态（默认 paid）列出当前用户的{kind.label.zh}订单，可按日期筛选。",
        ),
        "preconditions": [Text("user_id is the current user's id.", "user_id 为当前用户的 id。")],
        "postconditions": [
            Text(
                "Returns the matching orders with their booked lines (empty list if none).",
                "返回匹配的订单及其预订明细（没有则为空列表）。",
            )
        ],
        "depends_on": ["get_user_historical_behaviors"],
    }


def _detail_text(kind: OTAKind) -> dict[str, Any]:
    """Description, conditions and dependencies of ``get_<kind>_order_detail``."""
    t = kind.order_type
    return {
        "description": Text(
            f"Get {_a(kind.label.en)} order's full details: lines with date, type, price and "
            "quantity, total, status.",
            f"获取{kind.label.zh}订单的完整详情：各行的日期、类型、单价和数量，总价及状态。",
        ),
        "preconditions": [
            Text(
                f"The order is {_a(kind.label.en)} order of the current user.",
                f"订单为当前用户的{kind.label.zh}订单。",
            )
        ],
        "postconditions": [Text("Returns the order.", "返回订单详情。")],
        "depends_on": [f"create_{t}_order", f"search_{t}_order", "get_user_all_orders"],
    }


def _modify_text(kind: OTAKind, search_tool: str) -> dict[str, Any]:
    """Description, conditions and dependencies of ``modify_<kind>_order``."""
    t = kind.order_type
    return {
        "description": Text(
            f"Change the date of a paid {kind.label.en} order to another date, keeping the same "
            f"{kind.label.en} and seat class. The price difference is settled: if the new date "
            f"is more expensive the order becomes unpaid until the difference is paid with "
            f"pay_{t}_order; if it is cheaper the difference is refunded.",
            f"将已支付的{kind.label.zh}订单改签到另一日期（同一班次、同一座位等级）。差价结算："
            f"新日期更贵时订单变为未支付，需用 pay_{t}_order 补差价；更便宜时退还差价。",
        ),
        "preconditions": [
            Text("user_id is the current user's id.", "user_id 为当前用户的 id。"),
            Text(
                f"The order is a paid {kind.label.en} order of the current user with one line.",
                f"订单为当前用户已支付的{kind.label.zh}订单，且只含一行。",
            ),
            Text(
                "new_date is YYYY-MM-DD, not in the past, differs from the booked date, and the "
                "same seat class has enough seats on it.",
                "new_date 格式为 YYYY-MM-DD、不早于今天、不同于原日期，且当天同座位等级余票充足。",
            ),
        ],
        "postconditions": [
            Text(
                "The order keeps its id and now holds the seat on new_date; the old seats are "
                "released. The result states the price difference, the amount due and the refund.",
                "订单号不变，改为 new_date 的座位，原座位释放。结果中给出差价、需补金额和退款金额。",
            )
        ],
        "depends_on": [
            f"search_{t}_order",
            f"get_{t}_order_detail",
            "get_user_all_orders",
            f"get_ota_{t}_info",
            search_tool,
            "get_holiday_date",
        ],
    }


def _create_text(kind: OTAKind, what_en: str, what_zh: str, deps: list[str]) -> dict[str, Any]:
    """Description, conditions and dependencies of ``create_<kind>_order``."""
    t = kind.order_type
    return {
        "description": Text(
            f"Book {what_en}. The order starts as unpaid; pay it with pay_{t}_order.",
            f"预订{what_zh}。订单创建后为未支付状态，需用 pay_{t}_order 支付。",
        ),
        "preconditions": [
            Text("user_id is the current user's id.", "user_id 为当前用户的 id。"),
            Text(
                f"{kind.product_param} is a product of that {kind.label.en} for the given date "
                f"(see get_ota_{t}_info); the date is YYYY-MM-DD and not in the past.",
                f"{kind.product_param} 为该{kind.label.zh}在所选日期的商品（见 get_ota_{t}_info）；"
                "日期格式为 YYYY-MM-DD 且不早于今天。",
            ),
            Text(
                "quantity ≥ 1 and the remaining stock on that date covers it.",
                "quantity 不小于 1，且当天剩余库存足够。",
            ),
        ],
        "postconditions": [
            Text(
                "A new unpaid order exists; total_price = price × quantity; the stock of that "
                "date decreases by quantity.",
                "生成一笔未支付订单；total_price = 单价 × 数量；当天库存相应减少。",
            )
        ],
        "depends_on": deps,
    }


# --------------------------------------------------------------------------------------------
# Environment
# --------------------------------------------------------------------------------------------


class OTAEnvironment(SharedTools):
    """One simulation's OTA world: a private copy of the task data and 38 tools.

    Attributes: ``db`` (the :class:`OTADB`), ``now`` (the frozen task clock), ``language``,
    ``task_id``, ``tools``. Ids of created orders are ``OO<task id>-<nnn>`` with one
    per-environment counter for the four order types (ids already in the data are skipped).
    The environment also keeps, per order, the amount the user has paid so far, so that date
    changes and cancellations refund or charge exactly the difference.
    """

    db: OTADB

    ORDER_ID_PREFIX: ClassVar[str] = "OO"
    #: Maximum number of results of the search tools.
    SEARCH_LIMIT: ClassVar[int] = 20

    def __init__(self, task: VitaTask, language: Language = "en") -> None:
        """Copy and validate ``task``'s OTA tables; InputError names the task when they are bad."""
        self.db = self._load_world(task, language, OTADB, "OTA")
        self._next_serial = 1
        self._created: list[str] = []
        self._paid: dict[str, float] = {
            oid: o.total_price for oid, o in self.db.orders.items() if o.status in _PAID_STATUSES
        }
        self._tools = ToolSet(tools_of(self))

    # ---- Environment protocol ----------------------------------------------------------------

    @property
    def tools(self) -> ToolSet:
        """The 38 OTA tools, bound to this environment."""
        return self._tools

    @property
    def created_order_ids(self) -> tuple[str, ...]:
        """Ids of the orders created in this environment, in creation order."""
        return tuple(self._created)

    def paid_amount(self, order_id: str) -> float:
        """What the user has paid for ``order_id`` so far (0 if nothing)."""
        return self._paid.get(order_id, 0.0)

    def snapshot(self) -> dict[str, Any]:
        """``{time, user_id, orders: {id: order}, created_order_ids: [...]}`` as JSON data."""
        return {
            "time": self.db.time,
            "user_id": self.db.user_id,
            "orders": {oid: o.model_dump(mode="json") for oid, o in self.db.orders.items()},
            "created_order_ids": list(self._created),
        }

    # ---- hooks -------------------------------------------------------------------------------

    def _all_providers(self) -> list[tuple[OTAKind, OTAProvider]]:
        """Every provider of the four tables with its kind."""
        out: list[tuple[OTAKind, OTAProvider]] = []
        for kind in KINDS.values():
            out.extend((kind, p) for p in self._providers(kind).values())
        return out

    def known_locations(self) -> list[Location]:
        """User places, earlier order targets, hotels, attractions, airports and stations."""
        found = list(super().known_locations())
        for _, provider in self._all_providers():
            found.extend(loc for _, loc in provider.places())
        return found

    def nearby_places(self) -> list[tuple[dict[str, Any], Location]]:
        """Hotels, attractions, and both ends of every flight and train."""
        out: list[tuple[dict[str, Any], Location]] = []
        for kind, provider in self._all_providers():
            for role, loc in provider.places():
                info: dict[str, Any] = {"type": kind.order_type}
                if role in ("departure", "arrival"):
                    info["endpoint"] = role
                out.append(({**info, **provider.summary()}, loc))
        return out

    # ---- helpers -----------------------------------------------------------------------------

    def _providers(self, kind: OTAKind) -> Mapping[str, OTAProvider]:
        """The table of ``kind`` (hotels, attractions, flights or trains)."""
        if kind is HOTEL:
            return self.db.hotels
        if kind is ATTRACTION:
            return self.db.attractions
        if kind is FLIGHT:
            return self.db.flights
        return self.db.trains

    def _provider(self, kind: OTAKind, provider_id: str) -> OTAProvider:
        """The provider ``provider_id`` of ``kind``; ToolError ``not_found`` otherwise."""
        found = self._providers(kind).get(ident(provider_id))
        if found is None:
            raise ToolError(f"{kind.label.en.capitalize()} '{provider_id}' not found.", "not_found")
        return found

    def _check_user(self, user_id: str) -> None:
        """ToolError unless ``user_id`` is the current user."""
        if ident(user_id) != self.db.user_id:
            raise ToolError(f"User ID '{user_id}' does not match the current user.", "precondition")

    def _order(self, kind: OTAKind, order_id: str) -> OTAOrder:
        """An order of ``kind`` owned by the current user; ToolError otherwise."""
        order = self.db.orders.get(ident(order_id))
        if order is None:
            raise ToolError(f"Order '{order_id}' not found.", "not_found")
        if order.order_type != kind.order_type:
            raise ToolError(
                f"Order '{order.order_id}' is {_a(order.order_type)} order, not "
                f"{_a(kind.order_type)} order; use the {order.order_type} tools for it.",
                "precondition",
            )
        if order.user_id != self.db.user_id:
            raise ToolError(
                f"Order '{order.order_id}' does not belong to the current user.", "precondition"
            )
        return order

    def _day(self, text: str, name: str) -> Date:
        """``text`` as a date; ToolError naming the parameter ``name`` if it is not YYYY-MM-DD."""
        day = _calendar.parse_date(text)
        if day is None:
            raise ToolError(f"{name} must be a date in YYYY-MM-DD format.", "precondition")
        return day

    def _not_past(self, day: Date, name: str) -> None:
        """ToolError when ``day`` is before the task clock's date."""
        if day < self.now.date():
            raise ToolError(
                f"{name} {day.isoformat()} is in the past (today is {self.now.date().isoformat()}).",
                "precondition",
            )

    def _new_order_id(self) -> str:
        """The next free ``OO<task id>-<nnn>`` id."""
        while True:
            candidate = f"{self.ORDER_ID_PREFIX}{self.task_id}-{self._next_serial:03d}"
            self._next_serial += 1
            if candidate not in self.db.orders:
                return candidate

    def _touch(self, order: OTAOrder) -> None:
        """Stamp ``order`` as changed now (task clock)."""
        order.update_time = self.db.time

    def _unknown_product(self, kind: OTAKind, provider: OTAProvider, product_id: str) -> ToolError:
        """The error for a product id that ``provider`` does not offer on any date."""
        for other in self._providers(kind).values():
            if other is not provider and other.find(product_id):
                return ToolError(
                    f"{kind.product_param} '{product_id}' belongs to {kind.label.en} "
                    f"'{other.provider_id}', not to '{provider.provider_id}'.",
                    "precondition",
                )
        return ToolError(
            f"{kind.product_param} '{product_id}' not found at {kind.label.en} "
            f"'{provider.provider_id}'; see get_ota_{kind.order_type}_info for its products.",
            "not_found",
        )

    def _catalog_line(
        self, kind: OTAKind, order: OTAOrder, line: OTAOrderProduct
    ) -> OTAProduct | None:
        """The catalog product an order line booked (same id, and same date when known)."""
        provider = self._providers(kind).get(order.store_id)
        if provider is None:
            return None
        found = provider.find(line.product_id, line.date or None)
        return found[0] if found else None

    def _release(self, kind: OTAKind, order: OTAOrder) -> None:
        """Give the stock of every line of ``order`` back to the catalog."""
        for line in order.products:
            product = self._catalog_line(kind, order, line)
            if product is not None:
                product.quantity += line.quantity

    @staticmethod
    def _take(product: OTAProduct, quantity: int, label: str) -> None:
        """Take ``quantity`` from ``product``'s stock; ToolError (nothing taken) if too few."""
        if product.quantity < quantity:
            left = max(product.quantity, 0)
            raise ToolError(
                f"Insufficient inventory: {label} has {left} left on {product.date}, "
                f"{quantity} requested.",
                "precondition",
            )
        product.quantity -= quantity

    def _add_order(self, kind: OTAKind, provider: OTAProvider, line: OTAOrderProduct) -> OTAOrder:
        """Store a new unpaid order of one line and remember it as created."""
        order = OTAOrder(
            order_id=self._new_order_id(),
            order_type=kind.order_type,
            user_id=self.db.user_id,
            store_id=provider.provider_id,
            total_price=round(line.price * line.quantity, 2),
            create_time=self.db.time,
            update_time=self.db.time,
            status="unpaid",
            products=[line],
        )
        self.db.orders[order.order_id] = order
        self._created.append(order.order_id)
        return order

    # ---- shared bodies of the order tools ----------------------------------------------------

    def _create(
        self,
        kind: OTAKind,
        provider_id: str,
        product_id: str,
        user_id: str,
        date: str,
        quantity: int,
    ) -> dict[str, Any]:
        """Book ``quantity`` of ``product_id`` on ``date`` (attractions, flights, trains)."""
        self._check_user(user_id)
        if quantity <= 0:
            raise ToolError("quantity must be a positive integer.", "precondition")
        day = self._day(date, "date")
        provider = self._provider(kind, provider_id)
        pid = ident(product_id)
        same_id = provider.find(pid)
        if not same_id:
            raise self._unknown_product(kind, provider, pid)
        on_day = [p for p in same_id if p.date == day.isoformat()]
        if not on_day:
            dates = ", ".join(sorted({p.date for p in same_id})) or "none"
            raise ToolError(
                f"{kind.label.en.capitalize()} '{provider.provider_id}' does not offer "
                f"{kind.product_param} '{pid}' on {day.isoformat()} (offered on: {dates}).",
                "precondition",
            )
        self._not_past(day, "date")
        product = next((p for p in on_day if p.quantity >= quantity), on_day[0])
        self._take(product, quantity, f"{kind.product_param} '{pid}'")
        order = self._add_order(kind, provider, kind.line(product, quantity))
        return order.model_dump(mode="json")

    def _pay(self, kind: OTAKind, order_id: str) -> dict[str, Any]:
        """unpaid → paid for an order of ``kind``; charges what is still due."""
        order = self._order(kind, order_id)
        if order.status != "unpaid":
            raise ToolError(
                f"Order '{order.order_id}' cannot be paid: its status must be unpaid (current "
                f"status: {order.status}).",
                "precondition",
            )
        due = round(max(order.total_price - self._paid.get(order.order_id, 0.0), 0.0), 2)
        order.status = "paid"
        self._paid[order.order_id] = order.total_price
        self._touch(order)
        return {
            "message": "Payment successful.",
            "amount_paid": due,
            "order": order.model_dump(mode="json"),
        }

    def _cancel(self, kind: OTAKind, order_id: str, user_id: str) -> dict[str, Any]:
        """→ cancelled for an order of ``kind``; refunds what was paid and releases the stock."""
        self._check_user(user_id)
        order = self._order(kind, order_id)
        if order.status == "cancelled":
            raise ToolError(f"Order '{order.order_id}' is already cancelled.", "precondition")
        if order.status == "consumed":
            raise ToolError(
                f"Order '{order.order_id}' has already been used (status consumed) and cannot "
                "be cancelled.",
                "precondition",
            )
        refund = round(self._paid.pop(order.order_id, 0.0), 2)
        self._release(kind, order)
        order.status = "cancelled"
        self._touch(order)
        return {
            "message": f"Cancellation successful, refund amount: {refund:g}.",
            "refund": refund,
            "order": order.model_dump(mode="json"),
        }

    def _modify(self, kind: OTAKind, order_id: str, user_id: str, new_date: str) -> dict[str, Any]:
        """Move a one-line paid order of ``kind`` to ``new_date`` (same seat type), settling the price."""
        self._check_user(user_id)
        order = self._order(kind, order_id)
        if order.status not in _MODIFIABLE:
            raise ToolError(
                f"Only paid orders can change date; order '{order.order_id}' is {order.status}.",
                "precondition",
            )
        if len(order.products) != 1:
            raise ToolError(
                f"Order '{order.order_id}' has {len(order.products)} lines; only single-line "
                "orders can change date.",
                "precondition",
            )
        day = self._day(new_date, "new_date")
        self._not_past(day, "new_date")
        line = order.products[0]
        if line.date == day.isoformat():
            raise ToolError(f"Order '{order.order_id}' is already for {line.date}.", "precondition")
        provider = self._provider(kind, order.store_id)
        old = self._catalog_line(kind, order, line)
        seat = line.variant or (old.variant if old is not None else "")
        candidates = [
            p for p in provider.items() if p.date == day.isoformat() and p.variant == seat
        ]
        if not candidates:
            dates = sorted({p.date for p in provider.items() if p.variant == seat and p.date})
            raise ToolError(
                f"{kind.label.en.capitalize()} '{provider.provider_id}' has no '{seat}' seats "
                f"on {day.isoformat()} (dates with '{seat}' seats: {', '.join(dates) or 'none'}).",
                "precondition",
            )
        new = next((p for p in candidates if p.quantity >= line.quantity), candidates[0])
        self._take(new, line.quantity, f"'{seat}'")
        if old is not None:
            old.quantity += line.quantity
        old_total = order.total_price
        new_total = round(new.price * line.quantity, 2)
        order.products = [kind.line(new, line.quantity)]
        order.total_price = new_total
        paid = self._paid.get(order.order_id, 0.0)
        due = round(max(new_total - paid, 0.0), 2)
        refund = round(max(paid - new_total, 0.0), 2)
        if refund:
            self._paid[order.order_id] = new_total
        if due:
            order.status = "unpaid"
        self._touch(order)
        difference = round(new_total - old_total, 2)
        if due:
            message = (
                f"Modification successful, need to pay additional amount: {due:g}; pay it with "
                f"pay_{kind.order_type}_order."
            )
        elif refund:
            message = (
                f"Modification successful, price difference: {difference:g}, refunded {refund:g}."
            )
        else:
            message = "Modification successful, no price difference."
        return {
            "message": message,
            "price_difference": difference,
            "amount_due": due,
            "refund": refund,
            "order": order.model_dump(mode="json"),
        }

    def _search_orders(
        self, kind: OTAKind, user_id: str, date: str | None, status: str
    ) -> list[dict[str, Any]]:
        """The user's orders of ``kind`` in ``status`` (and for ``date`` when given)."""
        self._check_user(user_id)
        day = self._day(date, "date").isoformat() if date is not None and date.strip() else None
        return [
            o.model_dump(mode="json")
            for o in self.db.orders.values()
            if o.order_type == kind.order_type
            and o.user_id == self.db.user_id
            and o.status == status
            and (day is None or any(line.date == day for line in o.products))
        ]

    # ---- read: providers -----------------------------------------------------------------------

    @tool(
        kind="read",
        description=Text(
            "Get a hotel's details: name, rating, star level, address, tags and every room "
            "product (room type, date, price, rooms left).",
            "获取酒店详情：名称、评分、星级、地址、标签及全部房型商品（房型、日期、价格、剩余房量）。",
        ),
        preconditions=[
            Text(
                "hotel_id comes from hotel_search_recommand, get_nearby or an order.",
                "hotel_id 来自 hotel_search_recommand、get_nearby 或订单。",
            )
        ],
        postconditions=[
            Text(
                "Returns the hotel with its rooms; each room product is one night on one date.",
                "返回酒店及其房型；每个房型商品对应某一日期的一晚。",
            )
        ],
        depends_on=[
            "hotel_search_recommand",
            "get_nearby",
            "get_user_all_orders",
            "search_hotel_order",
            "get_hotel_order_detail",
        ],
    )
    def get_ota_hotel_info(
        self, hotel_id: Annotated[str, Param("Hotel id.", "酒店 id。")]
    ) -> dict[str, Any]:
        """The hotel and every room product."""
        return self._provider(HOTEL, hotel_id).view()

    @tool(
        kind="read",
        description=Text(
            "Get an attraction's details: name, description, rating, opening hours, address, "
            "list price and every ticket product (ticket type, date, price, tickets left).",
            "获取景点详情：名称、介绍、评分、开放时间、地址、门市价及全部门票商品（票种、日期、价格、余票）。",
        ),
        preconditions=[
            Text(
                "attraction_id comes from attractions_search_recommend, get_nearby or an order.",
                "attraction_id 来自 attractions_search_recommend、get_nearby 或订单。",
            )
        ],
        postconditions=[
            Text("Returns the attraction with its tickets per date.", "返回景点及各日期门票。")
        ],
        depends_on=[
            "attractions_search_recommend",
            "get_nearby",
            "get_user_all_orders",
            "search_attraction_order",
            "get_attraction_order_detail",
        ],
    )
    def get_ota_attraction_info(
        self, attraction_id: Annotated[str, Param("Attraction id.", "景点 id。")]
    ) -> dict[str, Any]:
        """The attraction and every ticket product."""
        return self._provider(ATTRACTION, attraction_id).view()

    @tool(
        kind="read",
        description=Text(
            "Get a flight's details: flight number, cities, airports, times, tags and every "
            "seat product (seat class, date, price, seats left).",
            "获取航班详情：航班号、出发/到达城市与机场、时间、标签及全部座位商品（舱位、日期、价格、余票）。",
        ),
        preconditions=[
            Text(
                "flight_id comes from flight_search_recommend, get_nearby or an order.",
                "flight_id 来自 flight_search_recommend、get_nearby 或订单。",
            )
        ],
        postconditions=[
            Text("Returns the flight with its seats per date.", "返回航班及各日期座位。")
        ],
        depends_on=[
            "flight_search_recommend",
            "get_nearby",
            "get_user_all_orders",
            "search_flight_order",
            "get_flight_order_detail",
        ],
    )
    def get_ota_flight_info(
        self, flight_id: Annotated[str, Param("Flight id.", "航班 id。")]
    ) -> dict[str, Any]:
        """The flight and every seat product."""
        return self._provider(FLIGHT, flight_id).view()

    @tool(
        kind="read",
        description=Text(
            "Get a train's details: train number, cities, stations, times, tags and every seat "
            "product (seat class, date, price, seats left).",
            "获取车次详情：车次号、出发/到达城市与车站、时间、标签及全部座位商品（席别、日期、价格、余票）。",
        ),
        preconditions=[
            Text(
                "train_id comes from train_ticket_search, get_nearby or an order.",
                "train_id 来自 train_ticket_search、get_nearby 或订单。",
            )
        ],
        postconditions=[
            Text("Returns the train with its seats per date.", "返回车次及各日期座位。")
        ],
        depends_on=[
            "train_ticket_search",
            "get_nearby",
            "get_user_all_orders",
            "search_train_order",
            "get_train_order_detail",
        ],
    )
    def get_ota_train_info(
        self, train_id: Annotated[str, Param("Train id.", "车次 id。")]
    ) -> dict[str, Any]:
        """The train and every seat product."""
        return self._provider(TRAIN, train_id).view()

    # ---- read: search ------------------------------------------------------------------------

    def _ranked(
        self, providers: list[OTAProvider], docs: list[str], key_words: list[str] | None
    ) -> list[OTAProvider]:
        """``providers`` ranked by the keywords over ``docs`` (data order without keywords), capped."""
        query = _match.keyword_query(key_words or [])
        if not query:
            return providers[: self.SEARCH_LIMIT]
        titles = [p.display_name for p in providers]
        return [providers[i] for i in _match.rank(query, docs, self.SEARCH_LIMIT, titles=titles)]

    @tool(
        kind="read",
        description=Text(
            "Search the hotels of a city, optionally ranked by keywords (matched against hotel "
            "names and tags); at most 20, without room products.",
            "搜索某城市的酒店，可按关键词（匹配酒店名称和标签）排序；最多返回 20 家，不含房型。",
        ),
        preconditions=[Text("city_name names the city.", "city_name 为城市名。")],
        postconditions=[
            Text(
                "Returns hotels located in that city (empty list if none); use "
                "get_ota_hotel_info for rooms, dates and prices.",
                "返回位于该城市的酒店（没有则为空列表）；房型、日期和价格请用 get_ota_hotel_info 查询。",
            )
        ],
        depends_on=["get_user_historical_behaviors"],
    )
    def hotel_search_recommand(
        self,
        city_name: Annotated[str, _CITY],
        key_words: Annotated[
            list[str] | None,
            Param(
                'Optional keywords, e.g. ["lake view", "breakfast"].',
                '可选关键词，例如 ["湖景", "含早"]。',
            ),
        ] = None,
    ) -> list[dict[str, Any]]:
        """Hotels whose address is in the city, ranked by keywords when given."""
        if not city_name.strip():
            raise ToolError("city_name must not be empty.", "precondition")
        hotels = [h for h in self.db.hotels.values() if in_city(city_name, h.location.address)]
        docs = [f"{h.hotel_name} {', '.join(h.tags)}" for h in hotels]
        return [h.summary() for h in self._ranked(list(hotels), docs, key_words)]

    @tool(
        kind="read",
        description=Text(
            "Search the attractions of a city ranked by keywords (matched against name, "
            "description and address); at most 20, without ticket products.",
            "按关键词（匹配名称、介绍和地址）搜索某城市的景点；最多返回 20 个，不含门票。",
        ),
        preconditions=[Text("city_name names the city.", "city_name 为城市名。")],
        postconditions=[
            Text(
                "Returns attractions in that city (empty list if none); use "
                "get_ota_attraction_info for tickets, dates and prices.",
                "返回该城市的景点（没有则为空列表）；门票、日期和价格请用 get_ota_attraction_info 查询。",
            )
        ],
        depends_on=["get_user_historical_behaviors"],
    )
    def attractions_search_recommend(
        self,
        city_name: Annotated[str, _CITY],
        key_words: Annotated[
            list[str],
            Param('Keywords, e.g. ["museum", "history"].', '关键词，例如 ["博物馆", "历史"]。'),
        ],
    ) -> list[dict[str, Any]]:
        """Attractions whose address is in the city, ranked by keywords."""
        if not city_name.strip():
            raise ToolError("city_name must not be empty.", "precondition")
        found = [a for a in self.db.attractions.values() if in_city(city_name, a.location.address)]
        docs = [f"{a.attraction_name}, {a.description}, {a.location.address}" for a in found]
        return [a.summary() for a in self._ranked(list(found), docs, key_words)]

    @staticmethod
    def _route_matches(departure: str, destination: str, provider: Flight | Train) -> bool:
        """Whether ``provider`` leaves from ``departure`` and arrives at ``destination``."""
        starts = [provider.departure_city]
        ends = [provider.arrival_city]
        for role, loc in provider.places():
            (starts if role == "departure" else ends).append(loc.address)
        return any(in_city(departure, s) for s in starts if s) and any(
            in_city(destination, e) for e in ends if e
        )

    @tool(
        kind="read",
        description=Text(
            "Search flights from one city to another. Each flight lists the dates it has seats "
            "on; seat classes and prices per date are in get_ota_flight_info.",
            "搜索从某城市到另一城市的航班。每个航班列出有座位的日期；各日期的舱位和价格请用 "
            "get_ota_flight_info 查询。",
        ),
        preconditions=[
            Text("departure and destination are city names.", "departure 和 destination 为城市名。")
        ],
        postconditions=[
            Text(
                "Returns the matching flights with their dates (empty list if none).",
                "返回匹配的航班及其可订日期（没有则为空列表）。",
            )
        ],
        depends_on=["get_user_historical_behaviors"],
    )
    def flight_search_recommend(
        self,
        departure: Annotated[str, Param("Departure city.", "出发城市。")],
        destination: Annotated[str, Param("Arrival city.", "到达城市。")],
    ) -> list[dict[str, Any]]:
        """Flights on the route (any date), in data order."""
        hits = [
            {**f.summary(), "dates": f.dates()}
            for f in self.db.flights.values()
            if self._route_matches(departure, destination, f)
        ]
        return hits[: self.SEARCH_LIMIT]

    @tool(
        kind="read",
        description=Text(
            "Search trains from one city to another on a date, with that date's seat classes, "
            "prices and seats left.",
            "搜索某日从某城市到另一城市的车次，附当天的席别、价格和余票。",
        ),
        preconditions=[
            Text(
                "departure and destination are city names; date is YYYY-MM-DD.",
                "departure 和 destination 为城市名；date 格式为 YYYY-MM-DD。",
            )
        ],
        postconditions=[
            Text(
                "Returns each matching train once, with the seat products of that date (empty "
                "list if none).",
                "每个匹配车次返回一次，附当天的座位商品（没有则为空列表）。",
            )
        ],
        depends_on=["get_user_historical_behaviors", "get_holiday_date"],
    )
    def train_ticket_search(
        self,
        departure: Annotated[str, Param("Departure city.", "出发城市。")],
        destination: Annotated[str, Param("Arrival city.", "到达城市。")],
        date: Annotated[str, _DATE],
    ) -> list[dict[str, Any]]:
        """Trains on the route with products on ``date`` (each train once)."""
        day = self._day(date, "date").isoformat()
        hits = []
        for train in self.db.trains.values():
            seats = [p.view() for p in train.products if p.date == day]
            if seats and self._route_matches(departure, destination, train):
                hits.append({**train.summary(), "products": seats})
        return hits[: self.SEARCH_LIMIT]

    # ---- write: create -----------------------------------------------------------------------

    @tool(
        kind="write",
        **{
            **_create_text(
                HOTEL,
                "one night in a hotel room: room_id is the id of a room product, which is for "
                "one specific date (see get_ota_hotel_info); one order books one room for that "
                "night",
                "酒店房间一晚：room_id 为房型商品 id，每个房型商品对应某一具体日期"
                "（见 get_ota_hotel_info）；一笔订单预订该晚一间房",
                [
                    "get_ota_hotel_info",
                    "hotel_search_recommand",
                    "get_user_historical_behaviors",
                    "get_nearby",
                ],
            ),
            "preconditions": [
                Text("user_id is the current user's id.", "user_id 为当前用户的 id。"),
                Text(
                    "room_id is a room product of that hotel whose date is not in the past and "
                    "that has at least one room left.",
                    "room_id 为该酒店的房型商品，其日期不早于今天，且至少剩余一间。",
                ),
            ],
            "postconditions": [
                Text(
                    "A new unpaid order for one room on the room product's date exists; that "
                    "date's room count decreases by one.",
                    "生成一笔该房型商品日期一间房的未支付订单；当天房量减一。",
                )
            ],
        },
    )
    def create_hotel_order(
        self,
        hotel_id: Annotated[str, Param("Hotel id.", "酒店 id。")],
        room_id: Annotated[
            str,
            Param(
                "Id of the room product (one room type on one date).",
                "房型商品 id（某一日期的某一房型）。",
            ),
        ],
        user_id: Annotated[str, _USER_ID],
    ) -> dict[str, Any]:
        """One room for the room product's night; refuses unknown, past or sold-out rooms."""
        self._check_user(user_id)
        hotel = self._provider(HOTEL, hotel_id)
        rid = ident(room_id)
        rooms = hotel.find(rid)
        if not rooms:
            raise self._unknown_product(HOTEL, hotel, rid)
        today = self.now.date()
        upcoming = [r for r in rooms if (d := _calendar.parse_date(r.date)) is None or d >= today]
        if not upcoming:
            raise ToolError(
                f"Room '{rid}' is for {rooms[0].date}, which is in the past (today is "
                f"{today.isoformat()}).",
                "precondition",
            )
        available = [r for r in upcoming if r.quantity >= 1]
        if not available:
            raise ToolError(
                f"No available rooms: room '{rid}' of hotel '{hotel.provider_id}' is sold out on "
                f"{upcoming[0].date}.",
                "precondition",
            )
        room = available[0]
        room.quantity -= 1
        order = self._add_order(HOTEL, hotel, HOTEL.line(room, 1))
        return order.model_dump(mode="json")

    @tool(
        kind="write",
        **_create_text(
            ATTRACTION,
            "attraction tickets: quantity tickets of one ticket product (ticket type) for one date",
            "景点门票：某一日期某一票种的 quantity 张门票",
            [
                "get_ota_attraction_info",
                "attractions_search_recommend",
                "get_user_historical_behaviors",
                "get_holiday_date",
                "weather",
            ],
        ),
    )
    def create_attraction_order(
        self,
        attraction_id: Annotated[str, Param("Attraction id.", "景点 id。")],
        ticket_id: Annotated[str, Param("Id of the ticket product.", "门票商品 id。")],
        user_id: Annotated[str, _USER_ID],
        date: Annotated[str, Param("Visit date, YYYY-MM-DD.", "游玩日期，YYYY-MM-DD。")],
        quantity: Annotated[int, _QUANTITY],
    ) -> dict[str, Any]:
        """Tickets for one date; stock of that date decreases."""
        return self._create(ATTRACTION, attraction_id, ticket_id, user_id, date, quantity)

    @tool(
        kind="write",
        **_create_text(
            FLIGHT,
            "flight tickets: quantity seats of one seat product (seat class) on one date",
            "机票：某一日期某一舱位的 quantity 个座位",
            [
                "get_ota_flight_info",
                "flight_search_recommend",
                "get_user_historical_behaviors",
                "get_holiday_date",
            ],
        ),
    )
    def create_flight_order(
        self,
        flight_id: Annotated[str, Param("Flight id.", "航班 id。")],
        seat_id: Annotated[str, Param("Id of the seat product.", "座位商品 id。")],
        user_id: Annotated[str, _USER_ID],
        date: Annotated[str, Param("Flight date, YYYY-MM-DD.", "乘机日期，YYYY-MM-DD。")],
        quantity: Annotated[int, _QUANTITY],
    ) -> dict[str, Any]:
        """Seats for one date; stock of that date decreases."""
        return self._create(FLIGHT, flight_id, seat_id, user_id, date, quantity)

    @tool(
        kind="write",
        **_create_text(
            TRAIN,
            "train tickets: quantity seats of one seat product (seat class) on one date",
            "火车票：某一日期某一席别的 quantity 个座位",
            [
                "get_ota_train_info",
                "train_ticket_search",
                "get_user_historical_behaviors",
                "get_holiday_date",
            ],
        ),
    )
    def create_train_order(
        self,
        train_id: Annotated[str, Param("Train id.", "车次 id。")],
        seat_id: Annotated[str, Param("Id of the seat product.", "座位商品 id。")],
        user_id: Annotated[str, _USER_ID],
        date: Annotated[str, Param("Travel date, YYYY-MM-DD.", "乘车日期，YYYY-MM-DD。")],
        quantity: Annotated[int, _QUANTITY],
    ) -> dict[str, Any]:
        """Seats for one date; stock of that date decreases."""
        return self._create(TRAIN, train_id, seat_id, user_id, date, quantity)

    # ---- write: pay ----------------------------------------------------------------------------

    @tool(kind="write", **_pay_text(HOTEL))
    def pay_hotel_order(self, order_id: Annotated[str, _order_id_param(HOTEL)]) -> dict[str, Any]:
        """unpaid → paid (hotel orders only)."""
        return self._pay(HOTEL, order_id)

    @tool(kind="write", **_pay_text(ATTRACTION))
    def pay_attraction_order(
        self, order_id: Annotated[str, _order_id_param(ATTRACTION)]
    ) -> dict[str, Any]:
        """unpaid → paid (attraction orders only)."""
        return self._pay(ATTRACTION, order_id)

    @tool(kind="write", **_pay_text(FLIGHT))
    def pay_flight_order(self, order_id: Annotated[str, _order_id_param(FLIGHT)]) -> dict[str, Any]:
        """unpaid → paid (flight orders only)."""
        return self._pay(FLIGHT, order_id)

    @tool(kind="write", **_pay_text(TRAIN))
    def pay_train_order(self, order_id: Annotated[str, _order_id_param(TRAIN)]) -> dict[str, Any]:
        """unpaid → paid (train orders only)."""
        return self._pay(TRAIN, order_id)

    # ---- read: orders --------------------------------------------------------------------------

    @tool(kind="read", **_search_order_text(HOTEL))
    def search_hotel_order(
        self,
        user_id: Annotated[str, _USER_ID],
        date: Annotated[
            str | None,
            Param("Only orders for this night, YYYY-MM-DD.", "仅该晚的订单，YYYY-MM-DD。"),
        ] = None,
        status: Annotated[
            OrderStatus, Param("Order status to list.", "要查询的订单状态。")
        ] = "paid",
    ) -> list[dict[str, Any]]:
        """Hotel orders of the user in ``status`` (empty list when there are none)."""
        return self._search_orders(HOTEL, user_id, date, status)

    @tool(kind="read", **_search_order_text(ATTRACTION))
    def search_attraction_order(
        self,
        user_id: Annotated[str, _USER_ID],
        date: Annotated[
            str | None, Param("Only orders for this day, YYYY-MM-DD.", "仅该日的订单，YYYY-MM-DD。")
        ] = None,
        status: Annotated[
            OrderStatus, Param("Order status to list.", "要查询的订单状态。")
        ] = "paid",
    ) -> list[dict[str, Any]]:
        """Attraction orders of the user in ``status``."""
        return self._search_orders(ATTRACTION, user_id, date, status)

    @tool(kind="read", **_search_order_text(FLIGHT))
    def search_flight_order(
        self,
        user_id: Annotated[str, _USER_ID],
        date: Annotated[
            str | None,
            Param("Only orders for this date, YYYY-MM-DD.", "仅该日的订单，YYYY-MM-DD。"),
        ] = None,
        status: Annotated[
            OrderStatus, Param("Order status to list.", "要查询的订单状态。")
        ] = "paid",
    ) -> list[dict[str, Any]]:
        """Flight orders of the user in ``status``."""
        return self._search_orders(FLIGHT, user_id, date, status)

    @tool(kind="read", **_search_order_text(TRAIN))
    def search_train_order(
        self,
        user_id: Annotated[str, _USER_ID],
        date: Annotated[
            str | None,
            Param("Only orders for this date, YYYY-MM-DD.", "仅该日的订单，YYYY-MM-DD。"),
        ] = None,
        status: Annotated[
            OrderStatus, Param("Order status to list.", "要查询的订单状态。")
        ] = "paid",
    ) -> list[dict[str, Any]]:
        """Train orders of the user in ``status``."""
        return self._search_orders(TRAIN, user_id, date, status)

    @tool(kind="read", **_detail_text(HOTEL))
    def get_hotel_order_detail(
        self, order_id: Annotated[str, _order_id_param(HOTEL)]
    ) -> dict[str, Any]:
        """The full hotel order."""
        return self._order(HOTEL, order_id).model_dump(mode="json")

    @tool(kind="read", **_detail_text(ATTRACTION))
    def get_attraction_order_detail(
        self, order_id: Annotated[str, _order_id_param(ATTRACTION)]
    ) -> dict[str, Any]:
        """The full attraction order."""
        return self._order(ATTRACTION, order_id).model_dump(mode="json")

    @tool(kind="read", **_detail_text(FLIGHT))
    def get_flight_order_detail(
        self, order_id: Annotated[str, _order_id_param(FLIGHT)]
    ) -> dict[str, Any]:
        """The full flight order."""
        return self._order(FLIGHT, order_id).model_dump(mode="json")

    @tool(kind="read", **_detail_text(TRAIN))
    def get_train_order_detail(
        self, order_id: Annotated[str, _order_id_param(TRAIN)]
    ) -> dict[str, Any]:
        """The full train order."""
        return self._order(TRAIN, order_id).model_dump(mode="json")

    # ---- write: modify -------------------------------------------------------------------------

    @tool(kind="write", **_modify_text(FLIGHT, "flight_search_recommend"))
    def modify_flight_order(
        self,
        order_id: Annotated[str, _order_id_param(FLIGHT)],
        user_id: Annotated[str, _USER_ID],
        new_date: Annotated[
            str, Param("The new flight date, YYYY-MM-DD.", "新的乘机日期，YYYY-MM-DD。")
        ],
    ) -> dict[str, Any]:
        """Move the seat to ``new_date`` (same flight and class), settling the difference."""
        return self._modify(FLIGHT, order_id, user_id, new_date)

    @tool(kind="write", **_modify_text(TRAIN, "train_ticket_search"))
    def modify_train_order(
        self,
        order_id: Annotated[str, _order_id_param(TRAIN)],
        user_id: Annotated[str, _USER_ID],
        new_date: Annotated[
            str, Param("The new travel date, YYYY-MM-DD.", "新的乘车日期，YYYY-MM-DD。")
        ],
    ) -> dict[str, Any]:
        """Move the seat to ``new_date`` (same train and class), settling the difference."""
        return self._modify(TRAIN, order_id, user_id, new_date)

    # ---- write: cancel -------------------------------------------------------------------------

    @tool(kind="write", **_cancel_text(HOTEL))
    def cancel_hotel_order(
        self,
        order_id: Annotated[str, _order_id_param(HOTEL)],
        user_id: Annotated[str, _USER_ID],
    ) -> dict[str, Any]:
        """→ cancelled, refund what was paid, give the room back."""
        return self._cancel(HOTEL, order_id, user_id)

    @tool(kind="write", **_cancel_text(ATTRACTION))
    def cancel_attraction_order(
        self,
        order_id: Annotated[str, _order_id_param(ATTRACTION)],
        user_id: Annotated[str, _USER_ID],
    ) -> dict[str, Any]:
        """→ cancelled, refund what was paid, give the tickets back."""
        return self._cancel(ATTRACTION, order_id, user_id)

    @tool(kind="write", **_cancel_text(FLIGHT))
    def cancel_flight_order(
        self,
        order_id: Annotated[str, _order_id_param(FLIGHT)],
        user_id: Annotated[str, _USER_ID],
    ) -> dict[str, Any]:
        """→ cancelled, refund what was paid, give the seats back."""
        return self._cancel(FLIGHT, order_id, user_id)

    @tool(kind="write", **_cancel_text(TRAIN))
    def cancel_train_order(
        self,
        order_id: Annotated[str, _order_id_param(TRAIN)],
        user_id: Annotated[str, _USER_ID],
    ) -> dict[str, Any]:
        """→ cancelled, refund what was paid, give the seats back."""
        return self._cancel(TRAIN, order_id, user_id)

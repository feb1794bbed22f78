"""The VitaBench in-store domain: shops, vouchers, table bookings and service reservations.

:class:`InStoreEnvironment` is built fresh from one task for one simulation. It owns a deep copy
of the task's data (no registry shared between environments) and offers 24 tools: the eight
shared ones (:class:`~lifebench.vita.domains.common.SharedTools`) and sixteen in-store tools
with the official names and parameters. Differences from the official harness (stock handling,
capability and time checks, ownership and record-type checks, deterministic ids) are listed in
docs/compat.md.

Three kinds of records are created here:

* **orders** (``order_type`` ``instore``): a voucher / package of one shop bought ahead of a
  visit, ``unpaid`` → ``paid``; ids ``OI<task id>-<nnn>``;
* **bookings** (``instore_book``, a table or seat at a shop with ``enable_book``): ``unpaid``
  when the shop charges a booking fee, else ``paid``; ids ``BK<task id>-<nnn>``;
* **reservations** (``instore_reservation``, an appointment for a service at a shop with
  ``enable_reservation``): ``unconsumed``; ids ``RS<task id>-<nnn>``.

Each kind has its own counter starting at 001; ids already present in the data are skipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, NoReturn, Self

from pydantic import AliasChoices, Field, model_validator

from lifebench._util.text import Language, Text
from lifebench.tools import Param, ToolError, ToolSet, tool, tools_of
from lifebench.vita.domains import _calendar, _match
from lifebench.vita.domains.common import (
    Location,
    Order,
    OrderProduct,
    Record,
    SharedTools,
    VitaDB,
    ident,
)
from lifebench.vita.task import VitaTask

AppointmentStatus = Literal["unpaid", "paid", "unconsumed", "consumed", "cancelled"]
"""Statuses of bookings and reservations in the official data model."""

# --------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------


class ShopProduct(Record):
    """A catalog item of a shop (voucher, package, set meal). Orders copy it, never alias it.

    ``quantity`` is the stock: how many can still be bought. Annotation keys of the data
    (``product_type`` …) are not fields and are dropped on load.
    """

    product_id: str = Field(description="Product id (unique within its shop).")
    name: str = Field("", description="Product name.")
    shop_id: str = Field("", description="Id of the shop selling it.")
    price: float = Field(0.0, description="Unit price in yuan.")
    quantity: int = Field(0, description="Stock: units still available.")
    tags: list[str] = Field(default_factory=list, description="Descriptive tags.")

    def view(self, shop_name: str) -> dict[str, Any]:
        """The product as the agent sees it (stock shown as ``stock``)."""
        return {
            "product_id": self.product_id,
            "name": self.name,
            "shop_id": self.shop_id,
            "shop_name": shop_name,
            "price": self.price,
            "stock": self.quantity,
            "tags": list(self.tags),
        }


class Shop(Record):
    """An in-store service provider with its catalog and what it accepts.

    Annotation keys of the data (``shop_type``, ``category``, ``target_reason``, …) are not
    fields and are dropped on load, so they can never reach the agent.
    """

    shop_id: str = Field(description="Shop id.")
    shop_name: str = Field(description="Shop name.")
    score: float = Field(0.0, description="Rating, 0–5.")
    location: Location = Field(description="Where the shop is.")
    tags: list[str] = Field(default_factory=list, description="Descriptive tags.")
    enable_book: bool = Field(False, description="Accepts table / seat bookings (instore_book).")
    book_price: float = Field(0.0, description="Booking fee in yuan (0 = free).")
    enable_reservation: bool = Field(
        False, description="Accepts service appointments (instore_reservation)."
    )
    products: list[ShopProduct] = Field(default_factory=list, description="The catalog.")

    def summary(self) -> dict[str, Any]:
        """The shop without its catalog (used by list views)."""
        return self.model_dump(mode="json", exclude={"products"})

    def product(self, product_id: str) -> ShopProduct | None:
        """The catalog product with this id, if the shop sells it."""
        return next((p for p in self.products if p.product_id == product_id), None)


class BookInfo(Record):
    """A table / seat booking at a shop."""

    book_id: str = Field(description="Booking id.")
    shop_id: str = Field(description="The shop booked.")
    book_time: str = Field(
        validation_alias=AliasChoices("book_time", "reservation_time"),
        description="Arrival time, YYYY-MM-DD HH:MM:SS.",
    )
    update_time: str = Field("", description="Last change (task clock).")
    customer_id: str = Field("", description="The user who booked.")
    customer_count: int = Field(1, description="Number of guests.")
    book_price: float = Field(0.0, description="Booking fee charged, in yuan.")
    status: AppointmentStatus = Field(description="Lifecycle status.")


class ReservationInfo(Record):
    """An appointment for a service at a shop."""

    reservation_id: str = Field(description="Reservation id.")
    shop_id: str = Field(description="The shop the appointment is with.")
    reservation_time: str = Field(
        validation_alias=AliasChoices("reservation_time", "book_time"),
        description="Appointment time, YYYY-MM-DD HH:MM:SS.",
    )
    update_time: str = Field("", description="Last change (task clock).")
    customer_id: str = Field("", description="The user who reserved.")
    customer_count: int = Field(1, description="Number of people.")
    status: AppointmentStatus = Field(description="Lifecycle status.")


class InStoreDB(VitaDB):
    """The in-store database: the shared tables plus ``shops``, ``books`` and ``reservations``.

    The key of every table is the record's identity (the official tools look records up by
    key): after validation each shop's ``shop_id`` (and its products' ``shop_id``), each order's
    ``order_id``, each booking's ``book_id`` and each reservation's ``reservation_id`` are set
    from their key, because a few official records disagree with their container. Pre-existing
    orders that carry ``order_time`` instead of ``create_time`` get it as ``create_time``.
    """

    shops: dict[str, Shop] = Field(default_factory=dict)
    books: dict[str, BookInfo] = Field(default_factory=dict)
    reservations: dict[str, ReservationInfo] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _order_time_as_create_time(cls, data: Any) -> Any:
        if not isinstance(data, Mapping) or not isinstance(data.get("orders"), Mapping):
            return data
        orders: dict[str, Any] = {}
        for key, order in data["orders"].items():
            if (
                isinstance(order, Mapping)
                and not order.get("create_time")
                and "order_time" in order
            ):
                order = {**order, "create_time": order["order_time"]}
            orders[key] = order
        return {**data, "orders": orders}

    @model_validator(mode="after")
    def _keys_are_identities(self) -> Self:
        for key, shop in self.shops.items():
            shop.shop_id = key
            for product in shop.products:
                product.shop_id = key
        for key, order in self.orders.items():
            order.order_id = key
        for key, book in self.books.items():
            book.book_id = key
        for key, reservation in self.reservations.items():
            reservation.reservation_id = key
        return self


# --------------------------------------------------------------------------------------------
# Environment
# --------------------------------------------------------------------------------------------

_USER_ID = Param("The current user's id.", "当前用户的 id。")
_SHOP_ID = Param(
    "Shop id, from instore_shop_search_recommend, a product search or get_nearby.",
    "店铺 id，来自 instore_shop_search_recommend、商品搜索或 get_nearby。",
)
_ORDER_ID = Param(
    "In-store order id, e.g. as returned by create_instore_product_order.",
    "到店订单号，例如 create_instore_product_order 返回的订单号。",
)
_BOOK_ID = Param("Booking id, as returned by instore_book.", "订座 id，由 instore_book 返回。")
_RESERVATION_ID = Param(
    "Reservation id, as returned by instore_reservation.",
    "预约 id，由 instore_reservation 返回。",
)
_TIME = Param(
    "Arrival time, 'YYYY-MM-DD HH:MM:SS', not earlier than the current time.",
    "到店时间，格式 'YYYY-MM-DD HH:MM:SS'，不得早于当前时间。",
)
_KEYWORDS = Param(
    'Search keywords, e.g. ["yoga", "beginner"]; they are joined with spaces.',
    '搜索关键词，例如 ["瑜伽", "初学者"]，以空格连接后检索。',
)
_USER_PRE = Text("user_id is the current user's id.", "user_id 为当前用户的 id。")

_ORDER_SOURCES = ("create_instore_product_order", "get_instore_orders", "get_user_all_orders")
_BOOK_SOURCES = ("instore_book", "get_instore_books", "search_instore_book")
_RESERVATION_SOURCES = (
    "instore_reservation",
    "get_instore_reservations",
    "search_instore_reservation",
)
_SHOP_SOURCES = (
    "instore_shop_search_recommend",
    "instore_product_search_recommend",
    "get_nearby",
)

_KIND_NAMES: Mapping[str, tuple[str, str, str]] = {
    # kind -> (label, noun, the tools that act on it)
    "order": ("In-store order", "an in-store order", "pay_instore_order / instore_cancel_order"),
    "book": ("Booking", "a table booking", "pay_instore_book / instore_cancel_book"),
    "reservation": (
        "Reservation",
        "a reservation",
        "instore_modify_reservation / instore_cancel_reservation",
    ),
}


class InStoreEnvironment(SharedTools):
    """One simulation's in-store world: a private copy of the task data and 24 tools.

    Attributes: ``db`` (the :class:`InStoreDB`), ``now`` (the frozen task clock), ``language``
    (of descriptions and localised results), ``task_id``, ``tools`` (a :class:`ToolSet`).

    Stock policy: ``quantity`` of a catalog product is its stock, shown to the agent. As in the
    official tool, ordering is never refused for stock (an order may exceed it, a product
    with stock 0 can be bought); the order takes what stock there is (never below 0) and
    cancelling an order created in this environment gives that back. Cancelling a
    pre-existing order leaves stock alone (the data's stock was recorded after those orders
    were placed).
    """

    db: InStoreDB

    ORDER_ID_PREFIX: ClassVar[str] = "OI"
    BOOK_ID_PREFIX: ClassVar[str] = "BK"
    RESERVATION_ID_PREFIX: ClassVar[str] = "RS"
    #: Maximum number of results of the two search tools.
    SEARCH_LIMIT: ClassVar[int] = 20

    def __init__(self, task: VitaTask, language: Language = "en") -> None:
        self.db = self._load_world(task, language, InStoreDB, "in-store")
        self._serials = {"order": 1, "book": 1, "reservation": 1}
        self._created: dict[str, list[str]] = {"order": [], "book": [], "reservation": []}
        self._taken: dict[str, int] = {}  # stock taken by each order created here
        self._tools = ToolSet(tools_of(self))

    # ---- Environment protocol ----------------------------------------------------------------

    @property
    def tools(self) -> ToolSet:
        """The 24 in-store tools, bound to this environment."""
        return self._tools

    @property
    def created_order_ids(self) -> tuple[str, ...]:
        """Ids of the orders created in this environment, in creation order."""
        return tuple(self._created["order"])

    @property
    def created_book_ids(self) -> tuple[str, ...]:
        """Ids of the bookings created in this environment, in creation order."""
        return tuple(self._created["book"])

    @property
    def created_reservation_ids(self) -> tuple[str, ...]:
        """Ids of the reservations created in this environment, in creation order."""
        return tuple(self._created["reservation"])

    def snapshot(self) -> dict[str, Any]:
        """``{time, user_id, orders, books, reservations, created_*_ids}`` as JSON data."""
        return {
            "time": self.db.time,
            "user_id": self.db.user_id,
            "orders": {k: o.model_dump(mode="json") for k, o in self.db.orders.items()},
            "books": {k: b.model_dump(mode="json") for k, b in self.db.books.items()},
            "reservations": {k: r.model_dump(mode="json") for k, r in self.db.reservations.items()},
            "created_order_ids": list(self._created["order"]),
            "created_book_ids": list(self._created["book"]),
            "created_reservation_ids": list(self._created["reservation"]),
        }

    # ---- hooks and helpers -------------------------------------------------------------------

    def known_locations(self) -> list[Location]:
        """User places, locations of earlier orders and shop addresses of this task."""
        found = list(super().known_locations())
        found.extend(s.location for s in self.db.shops.values())
        return found

    def nearby_places(self) -> list[tuple[dict[str, Any], Location]]:
        """Every shop, described without its catalog."""
        return [({"type": "shop", **s.summary()}, s.location) for s in self.db.shops.values()]

    def _check_user(self, user_id: str) -> None:
        if ident(user_id) != self.db.user_id:
            raise ToolError(f"User ID '{user_id}' does not match the current user.", "precondition")

    def _shop(self, shop_id: str) -> Shop:
        shop = self.db.shops.get(ident(shop_id))
        if shop is None:
            raise ToolError(f"Shop '{shop_id}' not found.", "not_found")
        return shop

    def _time(self, text: str, what: str) -> str:
        """``text`` as a canonical time not earlier than the task clock; ToolError otherwise."""
        when = _calendar.parse_datetime(text)
        if when is None:
            raise ToolError(
                f"{what} must be in 'YYYY-MM-DD HH:MM:SS' format, got '{text}'.", "precondition"
            )
        if when < self.now:
            raise ToolError(
                f"{what} {text} is earlier than the current time {self.db.time}.", "precondition"
            )
        return _calendar.format_datetime(when)

    @staticmethod
    def _count(customer_count: int) -> int:
        if customer_count <= 0:
            raise ToolError("customer_count must be a positive integer.", "precondition")
        return customer_count

    def _missing(self, record_id: str, expected: str) -> NoReturn:
        """ToolError for an unknown id, naming the right tools when it is another kind's id."""
        tables: dict[str, Mapping[str, Any]] = {
            "order": self.db.orders,
            "book": self.db.books,
            "reservation": self.db.reservations,
        }
        for kind, table in tables.items():
            if kind != expected and record_id in table:
                _, noun, tools = _KIND_NAMES[kind]
                raise ToolError(
                    f"'{record_id}' is {noun}, not {_KIND_NAMES[expected][1]}; use {tools}.",
                    "precondition",
                )
        raise ToolError(f"{_KIND_NAMES[expected][0]} '{record_id}' not found.", "not_found")

    def _order(self, order_id: str) -> Order:
        """An in-store order of the current user; ToolError otherwise."""
        key = ident(order_id)
        order = self.db.orders.get(key)
        if order is None:
            self._missing(key, "order")
        if order.order_type != "instore":
            raise ToolError(
                f"Order '{key}' is a {order.order_type} order, not an in-store order.",
                "precondition",
            )
        if order.user_id != self.db.user_id:
            raise ToolError(f"Order '{key}' does not belong to the current user.", "precondition")
        return order

    def _book(self, book_id: str) -> BookInfo:
        key = ident(book_id)
        book = self.db.books.get(key)
        if book is None:
            self._missing(key, "book")
        if book.customer_id != self.db.user_id:
            raise ToolError(f"Booking '{key}' does not belong to the current user.", "precondition")
        return book

    def _reservation(self, reservation_id: str) -> ReservationInfo:
        key = ident(reservation_id)
        reservation = self.db.reservations.get(key)
        if reservation is None:
            self._missing(key, "reservation")
        if reservation.customer_id != self.db.user_id:
            raise ToolError(
                f"Reservation '{key}' does not belong to the current user.", "precondition"
            )
        return reservation

    def _new_id(self, kind: str, prefix: str, taken: Mapping[str, Any]) -> str:
        while True:
            candidate = f"{prefix}{self.task_id}-{self._serials[kind]:03d}"
            self._serials[kind] += 1
            if candidate not in taken:
                return candidate

    @staticmethod
    def _order_view(order: Order) -> dict[str, Any]:
        """An in-store order without the empty delivery-only fields."""
        out = order.model_dump(mode="json")
        for key in ("dispatch_time", "delivery_time", "shipping_time", "location"):
            if out.get(key) in ("", None):
                out.pop(key, None)
        return out

    def _return_stock(self, order: Order) -> None:
        """Give back the stock an order created here took (pre-existing orders: nothing)."""
        taken = self._taken.pop(order.order_id, 0)
        shop = self.db.shops.get(order.store_id)
        for line in order.products[:1]:  # an order created here holds one line
            product = shop.product(line.product_id) if shop is not None else None
            if product is not None:
                product.quantity += taken

    # ---- read: shops and products ------------------------------------------------------------

    @tool(
        kind="read",
        description=Text(
            "Search shops for in-store consumption (restaurants, spas, gyms, salons, studios …) "
            "by keywords matched against shop names and tags; best matches first, at most 20, "
            "without their products. Each shop says whether it accepts table bookings "
            "(enable_book, with its book_price) and service reservations (enable_reservation).",
            "按关键词搜索到店消费的店铺（餐厅、SPA、健身房、美发、工作室等），匹配店铺名称和标签，"
            "按相关度返回最多 20 家，不含商品。每家店会标明是否支持订座（enable_book 及订座费 "
            "book_price）以及是否支持预约服务（enable_reservation）。",
        ),
        preconditions=[Text("At least one non-empty keyword.", "至少一个非空关键词。")],
        postconditions=[
            Text(
                "Returns a ranked list of shops; search products with the shop's name to see "
                "what it sells.",
                "返回按相关度排序的店铺列表；用店铺名称搜索商品可查看其在售商品。",
            )
        ],
        depends_on=["get_user_historical_behaviors"],
    )
    def instore_shop_search_recommend(
        self,
        keywords: Annotated[list[str], _KEYWORDS],
    ) -> list[dict[str, Any]]:
        """Shops ranked by how well "name tags" covers the joined keywords."""
        query = self._query(keywords)
        shops = list(self.db.shops.values())
        docs = [f"{s.shop_name} {', '.join(s.tags)}" for s in shops]
        hits = _match.rank(query, docs, self.SEARCH_LIMIT, titles=[s.shop_name for s in shops])
        return [shops[i].summary() for i in hits]

    @tool(
        kind="read",
        description=Text(
            "Search in-store products (vouchers, packages, set meals, session cards …) by "
            "keywords matched against the shop name, product name and tags; best matches "
            "first, at most 20. Each result has its shop, price and stock (units still "
            "available; 0 means sold out).",
            "按关键词搜索到店商品（代金券、套餐、次卡等），匹配店铺名、商品名和标签，按相关度返回"
            "最多 20 个。每个结果含所属店铺、价格和库存 stock（剩余可售数量，0 表示已售罄）。",
        ),
        preconditions=[Text("At least one non-empty keyword.", "至少一个非空关键词。")],
        postconditions=[
            Text(
                "Returns a ranked list of products with shop_id, shop_name, price and stock.",
                "返回按相关度排序的商品列表，含 shop_id、shop_name、价格和库存。",
            )
        ],
        depends_on=["get_user_historical_behaviors", "instore_shop_search_recommend"],
    )
    def instore_product_search_recommend(
        self,
        keywords: Annotated[list[str], _KEYWORDS],
    ) -> list[dict[str, Any]]:
        """Products ranked by how well "shop name, name, tags" covers the joined keywords."""
        query = self._query(keywords)
        items = [(s, p) for s in self.db.shops.values() for p in s.products]
        docs = [f"{s.shop_name} {p.name} {', '.join(p.tags)}" for s, p in items]
        hits = _match.rank(query, docs, self.SEARCH_LIMIT, titles=[p.name for _, p in items])
        return [items[i][1].view(items[i][0].shop_name) for i in hits]

    @staticmethod
    def _query(keywords: list[str]) -> str:
        query = _match.keyword_query(keywords)
        if not query:
            raise ToolError("keywords must contain at least one non-empty keyword.", "precondition")
        return query

    # ---- write: product orders ---------------------------------------------------------------

    @tool(
        kind="write",
        description=Text(
            "Buy a product (voucher, package, set meal …) of one shop ahead of the visit. One "
            "order holds one product in the given quantity; place one order per product. The "
            "order starts as unpaid.",
            "提前购买某店铺的一个商品（代金券、套餐等），到店核销。一笔订单只含一种商品及其数量；"
            "多种商品请分别下单。订单创建后为未支付状态。",
        ),
        preconditions=[
            _USER_PRE,
            Text(
                "product_id is sold by shop_id; quantity is a positive integer. Check the stock "
                "shown by instore_product_search_recommend first: the order is not refused when "
                "it exceeds the stock.",
                "product_id 为 shop_id 在售商品；quantity 为正整数。请先通过 "
                "instore_product_search_recommend 查看库存：超出库存时下单不会被拒绝。",
            ),
        ],
        postconditions=[
            Text(
                "A new unpaid order exists with total_price = price × quantity; the product's "
                "stock drops by quantity (not below 0).",
                "生成一笔未支付订单，total_price = 单价 × 数量；商品库存相应减少（最少为 0）。",
            ),
            Text("Pay it with pay_instore_order.", "需调用 pay_instore_order 完成支付。"),
        ],
        depends_on=[*_SHOP_SOURCES, "get_user_historical_behaviors"],
    )
    def create_instore_product_order(
        self,
        user_id: Annotated[str, _USER_ID],
        shop_id: Annotated[str, _SHOP_ID],
        product_id: Annotated[str, Param("Id of the product to buy.", "要购买的商品 id。")],
        quantity: Annotated[
            int, Param("How many units to buy (default 1).", "购买数量（默认 1）。")
        ] = 1,
    ) -> dict[str, Any]:
        """Validate, take the stock there is, and add an unpaid order holding its own product
        copy. Stock never refuses an order (as officially)."""
        self._check_user(user_id)
        shop = self._shop(shop_id)
        product = shop.product(ident(product_id))
        if product is None:
            elsewhere = next(
                (s for s in self.db.shops.values() if s.product(ident(product_id)) is not None),
                None,
            )
            if elsewhere is not None:
                raise ToolError(
                    f"Product '{product_id}' is sold by shop '{elsewhere.shop_id}' "
                    f"({elsewhere.shop_name}), not by shop '{shop.shop_id}'.",
                    "precondition",
                )
            raise ToolError(
                f"Product '{product_id}' not found in shop '{shop.shop_id}'.", "not_found"
            )
        if quantity <= 0:
            raise ToolError("quantity must be a positive integer.", "precondition")
        taken = min(quantity, max(product.quantity, 0))
        product.quantity -= taken
        order = Order(
            order_id=self._new_id("order", self.ORDER_ID_PREFIX, self.db.orders),
            order_type="instore",
            user_id=self.db.user_id,
            store_id=shop.shop_id,
            total_price=round(product.price * quantity, 2),
            create_time=self.db.time,
            update_time=self.db.time,
            status="unpaid",
            products=[
                OrderProduct(
                    product_id=product.product_id,
                    name=product.name,
                    price=product.price,
                    quantity=quantity,
                )
            ],
        )
        self.db.orders[order.order_id] = order
        self._created["order"].append(order.order_id)
        self._taken[order.order_id] = taken
        return self._order_view(order)

    @tool(
        kind="write",
        description=Text("Pay an unpaid in-store order.", "支付一笔未支付的到店订单。"),
        preconditions=[
            Text(
                "The order is an in-store order of the current user in status unpaid.",
                "订单为当前用户的到店订单，且状态为 unpaid。",
            )
        ],
        postconditions=[Text("The order's status becomes paid.", "订单状态变为 paid。")],
        depends_on=list(_ORDER_SOURCES),
    )
    def pay_instore_order(self, order_id: Annotated[str, _ORDER_ID]) -> dict[str, Any]:
        """unpaid → paid."""
        order = self._order(order_id)
        if order.status != "unpaid":
            raise ToolError(
                f"Order '{order.order_id}' is not in `unpaid` status (current status: "
                f"{order.status}).",
                "precondition",
            )
        order.status = "paid"
        order.update_time = self.db.time
        return {"message": "Payment successful.", "order": self._order_view(order)}

    @tool(
        kind="write",
        description=Text(
            "Cancel an in-store order (refunding it if it was paid).",
            "取消一笔到店订单（已支付的将退款）。",
        ),
        preconditions=[
            Text(
                "The order is an in-store order of the current user that is neither cancelled "
                "nor already consumed.",
                "订单为当前用户的到店订单，且未取消、未核销。",
            )
        ],
        postconditions=[
            Text(
                "The order's status becomes cancelled; stock taken by an order placed in this "
                "conversation is returned.",
                "订单状态变为 cancelled；本次对话中下单占用的库存会被退回。",
            )
        ],
        depends_on=list(_ORDER_SOURCES),
    )
    def instore_cancel_order(self, order_id: Annotated[str, _ORDER_ID]) -> dict[str, Any]:
        """Any status except cancelled / consumed → cancelled."""
        order = self._order(order_id)
        if order.status in ("cancelled", "consumed"):
            raise ToolError(
                f"Order '{order.order_id}' is {order.status} and cannot be cancelled.",
                "precondition",
            )
        order.status = "cancelled"
        order.update_time = self.db.time
        self._return_stock(order)
        return {
            "message": f"Order {order.order_id} is cancelled.",
            "order": self._order_view(order),
        }

    # ---- write: table bookings ---------------------------------------------------------------

    @tool(
        kind="write",
        description=Text(
            "Book a table / seats at a shop that accepts bookings (enable_book). The shop's "
            "booking fee (book_price) is charged per booking: with a fee the booking starts as "
            "unpaid, without one it is paid at once.",
            "在支持订座（enable_book）的店铺订座。每次订座收取店铺的订座费 book_price："
            "有订座费时订座为未支付状态，无订座费时直接为已支付。",
        ),
        preconditions=[
            _USER_PRE,
            Text(
                "The shop accepts bookings (enable_book is true).",
                "店铺支持订座（enable_book 为 true）。",
            ),
            Text(
                "time is 'YYYY-MM-DD HH:MM:SS' and not earlier than the current time; "
                "customer_count is a positive integer.",
                "time 格式为 'YYYY-MM-DD HH:MM:SS' 且不早于当前时间；customer_count 为正整数。",
            ),
        ],
        postconditions=[
            Text(
                "A new booking exists (unpaid when book_price > 0, else paid).",
                "生成一条订座记录（book_price > 0 时为未支付，否则为已支付）。",
            ),
            Text(
                "Pay an unpaid booking with pay_instore_book.",
                "未支付的订座需调用 pay_instore_book 支付。",
            ),
        ],
        depends_on=[*_SHOP_SOURCES, "get_user_historical_behaviors", "get_date_holiday_info"],
    )
    def instore_book(
        self,
        user_id: Annotated[str, _USER_ID],
        shop_id: Annotated[str, _SHOP_ID],
        time: Annotated[str, _TIME],
        customer_count: Annotated[
            int, Param("Number of guests (default 1).", "用餐/到店人数（默认 1）。")
        ] = 1,
    ) -> dict[str, Any]:
        """Validate and add a booking."""
        self._check_user(user_id)
        shop = self._shop(shop_id)
        if not shop.enable_book:
            raise ToolError(
                f"Shop '{shop.shop_id}' ({shop.shop_name}) does not accept table bookings"
                + (
                    "; it accepts reservations (instore_reservation)."
                    if shop.enable_reservation
                    else "."
                ),
                "precondition",
            )
        count = self._count(customer_count)
        when = self._time(time, "time")
        book = BookInfo(
            book_id=self._new_id("book", self.BOOK_ID_PREFIX, self.db.books),
            shop_id=shop.shop_id,
            book_time=when,
            update_time=self.db.time,
            customer_id=self.db.user_id,
            customer_count=count,
            book_price=shop.book_price,
            status="unpaid" if shop.book_price > 0 else "paid",
        )
        self.db.books[book.book_id] = book
        self._created["book"].append(book.book_id)
        return book.model_dump(mode="json")

    @tool(
        kind="write",
        description=Text(
            "Pay the booking fee of an unpaid table booking.", "支付一条未支付订座的订座费。"
        ),
        preconditions=[
            Text(
                "The booking belongs to the current user and is unpaid.",
                "订座属于当前用户，且状态为 unpaid。",
            )
        ],
        postconditions=[Text("The booking's status becomes paid.", "订座状态变为 paid。")],
        depends_on=list(_BOOK_SOURCES),
    )
    def pay_instore_book(self, book_id: Annotated[str, _BOOK_ID]) -> dict[str, Any]:
        """unpaid → paid."""
        book = self._book(book_id)
        if book.status != "unpaid":
            raise ToolError(
                f"Booking '{book.book_id}' is not in `unpaid` status (current status: "
                f"{book.status}).",
                "precondition",
            )
        book.status = "paid"
        book.update_time = self.db.time
        return {"message": "Payment successful.", "book": book.model_dump(mode="json")}

    @tool(
        kind="write",
        description=Text("Cancel a table booking.", "取消一条订座。"),
        preconditions=[
            Text(
                "The booking belongs to the current user and is neither cancelled nor consumed.",
                "订座属于当前用户，且未取消、未到店消费。",
            )
        ],
        postconditions=[
            Text("The booking's status becomes cancelled.", "订座状态变为 cancelled。")
        ],
        depends_on=list(_BOOK_SOURCES),
    )
    def instore_cancel_book(self, book_id: Annotated[str, _BOOK_ID]) -> dict[str, Any]:
        """Any status except cancelled / consumed → cancelled."""
        book = self._book(book_id)
        if book.status in ("cancelled", "consumed"):
            raise ToolError(
                f"Booking '{book.book_id}' is {book.status} and cannot be cancelled.",
                "precondition",
            )
        book.status = "cancelled"
        book.update_time = self.db.time
        return {
            "message": f"Booking {book.book_id} is cancelled.",
            "book": book.model_dump(mode="json"),
        }

    # ---- write: service reservations ---------------------------------------------------------

    @tool(
        kind="write",
        description=Text(
            "Make an appointment for a service (massage, class, grooming, hair …) at a shop "
            "that accepts reservations (enable_reservation). Reservations are free.",
            "在支持预约（enable_reservation）的店铺预约服务（按摩、课程、宠物洗护、美发等）。"
            "预约不收费。",
        ),
        preconditions=[
            _USER_PRE,
            Text(
                "The shop accepts reservations (enable_reservation is true).",
                "店铺支持预约（enable_reservation 为 true）。",
            ),
            Text(
                "time is 'YYYY-MM-DD HH:MM:SS' and not earlier than the current time; "
                "customer_count is a positive integer.",
                "time 格式为 'YYYY-MM-DD HH:MM:SS' 且不早于当前时间；customer_count 为正整数。",
            ),
        ],
        postconditions=[
            Text(
                "A new reservation exists with status unconsumed.",
                "生成一条状态为 unconsumed（待消费）的预约。",
            )
        ],
        depends_on=[
            *_SHOP_SOURCES,
            "create_instore_product_order",
            "get_user_historical_behaviors",
            "get_date_holiday_info",
        ],
    )
    def instore_reservation(
        self,
        user_id: Annotated[str, _USER_ID],
        shop_id: Annotated[str, _SHOP_ID],
        time: Annotated[str, _TIME],
        customer_count: Annotated[
            int, Param("Number of people (default 1).", "到店人数（默认 1）。")
        ] = 1,
    ) -> dict[str, Any]:
        """Validate and add a reservation."""
        self._check_user(user_id)
        shop = self._shop(shop_id)
        if not shop.enable_reservation:
            raise ToolError(
                f"Shop '{shop.shop_id}' ({shop.shop_name}) does not accept reservations"
                + ("; it accepts table bookings (instore_book)." if shop.enable_book else "."),
                "precondition",
            )
        count = self._count(customer_count)
        when = self._time(time, "time")
        reservation = ReservationInfo(
            reservation_id=self._new_id(
                "reservation", self.RESERVATION_ID_PREFIX, self.db.reservations
            ),
            shop_id=shop.shop_id,
            reservation_time=when,
            update_time=self.db.time,
            customer_id=self.db.user_id,
            customer_count=count,
            status="unconsumed",
        )
        self.db.reservations[reservation.reservation_id] = reservation
        self._created["reservation"].append(reservation.reservation_id)
        return reservation.model_dump(mode="json")

    @tool(
        kind="write",
        description=Text(
            "Change the time (and optionally the number of people) of a reservation.",
            "修改预约的时间（以及可选的人数）。",
        ),
        preconditions=[
            Text(
                "The reservation belongs to the current user and is neither consumed nor "
                "cancelled.",
                "预约属于当前用户，且未消费、未取消。",
            ),
            Text(
                "time is 'YYYY-MM-DD HH:MM:SS' and not earlier than the current time; "
                "customer_count, if given, is a positive integer.",
                "time 格式为 'YYYY-MM-DD HH:MM:SS' 且不早于当前时间；如提供 customer_count，须为正整数。",
            ),
        ],
        postconditions=[
            Text(
                "The reservation has the new time; its number of people changes only when "
                "customer_count is given.",
                "预约时间更新；仅在提供 customer_count 时修改人数。",
            )
        ],
        depends_on=list(_RESERVATION_SOURCES),
    )
    def instore_modify_reservation(
        self,
        reservation_id: Annotated[str, _RESERVATION_ID],
        time: Annotated[
            str,
            Param(
                "New time, 'YYYY-MM-DD HH:MM:SS', not earlier than the current time.",
                "新的时间，格式 'YYYY-MM-DD HH:MM:SS'，不得早于当前时间。",
            ),
        ],
        customer_count: Annotated[
            int | None,
            Param(
                "New number of people; omit to keep the current number.",
                "新的人数；不提供则保持原人数。",
            ),
        ] = None,
    ) -> dict[str, Any]:
        """Replace the time and, if given, the count."""
        reservation = self._reservation(reservation_id)
        if reservation.status in ("consumed", "cancelled"):
            raise ToolError(
                f"Reservation '{reservation.reservation_id}' is {reservation.status} and cannot "
                "be modified.",
                "precondition",
            )
        count = (
            reservation.customer_count if customer_count is None else self._count(customer_count)
        )
        reservation.reservation_time = self._time(time, "time")
        reservation.customer_count = count
        reservation.update_time = self.db.time
        return {
            "message": f"Reservation {reservation.reservation_id} is modified.",
            "reservation": reservation.model_dump(mode="json"),
        }

    @tool(
        kind="write",
        description=Text("Cancel a reservation.", "取消一条预约。"),
        preconditions=[
            Text(
                "The reservation belongs to the current user and is neither cancelled nor "
                "consumed.",
                "预约属于当前用户，且未取消、未消费。",
            )
        ],
        postconditions=[
            Text("The reservation's status becomes cancelled.", "预约状态变为 cancelled。")
        ],
        depends_on=list(_RESERVATION_SOURCES),
    )
    def instore_cancel_reservation(
        self, reservation_id: Annotated[str, _RESERVATION_ID]
    ) -> dict[str, Any]:
        """Any status except cancelled / consumed → cancelled."""
        reservation = self._reservation(reservation_id)
        if reservation.status in ("cancelled", "consumed"):
            raise ToolError(
                f"Reservation '{reservation.reservation_id}' is {reservation.status} and cannot "
                "be cancelled.",
                "precondition",
            )
        reservation.status = "cancelled"
        reservation.update_time = self.db.time
        return {
            "message": f"Reservation {reservation.reservation_id} is cancelled.",
            "reservation": reservation.model_dump(mode="json"),
        }

    # ---- read: the user's records ------------------------------------------------------------

    @tool(
        kind="read",
        description=Text(
            "List the current user's in-store orders (all statuses), with their products.",
            "列出当前用户的全部到店订单（所有状态），含商品明细。",
        ),
        preconditions=[_USER_PRE],
        postconditions=[
            Text("Returns the orders (empty list if none).", "返回订单列表（没有则为空）。")
        ],
        depends_on=["get_user_historical_behaviors"],
    )
    def get_instore_orders(self, user_id: Annotated[str, _USER_ID]) -> list[dict[str, Any]]:
        """In-store orders of the user, pre-existing first, then in creation order."""
        self._check_user(user_id)
        return [
            self._order_view(o)
            for o in self.db.orders.values()
            if o.order_type == "instore" and o.user_id == self.db.user_id
        ]

    @tool(
        kind="read",
        description=Text(
            "List the current user's reservations (all statuses).",
            "列出当前用户的全部预约（所有状态）。",
        ),
        preconditions=[_USER_PRE],
        postconditions=[
            Text("Returns the reservations (empty list if none).", "返回预约列表（没有则为空）。")
        ],
        depends_on=["get_user_historical_behaviors"],
    )
    def get_instore_reservations(self, user_id: Annotated[str, _USER_ID]) -> list[dict[str, Any]]:
        """Reservations of the user, in database order."""
        self._check_user(user_id)
        return [
            r.model_dump(mode="json")
            for r in self.db.reservations.values()
            if r.customer_id == self.db.user_id
        ]

    @tool(
        kind="read",
        description=Text(
            "List the current user's table bookings (all statuses).",
            "列出当前用户的全部订座（所有状态）。",
        ),
        preconditions=[_USER_PRE],
        postconditions=[
            Text("Returns the bookings (empty list if none).", "返回订座列表（没有则为空）。")
        ],
        depends_on=["get_user_historical_behaviors"],
    )
    def get_instore_books(self, user_id: Annotated[str, _USER_ID]) -> list[dict[str, Any]]:
        """Bookings of the user, in database order."""
        self._check_user(user_id)
        return [
            b.model_dump(mode="json")
            for b in self.db.books.values()
            if b.customer_id == self.db.user_id
        ]

    @tool(
        kind="read",
        description=Text(
            "Look up the current user's table bookings: one by id, or all when book_id is omitted.",
            "查询当前用户的订座：指定 book_id 时查询该条，不指定则返回全部。",
        ),
        preconditions=[
            _USER_PRE,
            Text(
                "book_id, if given, is a booking of the current user.",
                "如提供 book_id，须为当前用户的订座。",
            ),
        ],
        postconditions=[
            Text("Returns a list of bookings (empty if none).", "返回订座列表（没有则为空）。")
        ],
        depends_on=["instore_book", "get_instore_books"],
    )
    def search_instore_book(
        self,
        user_id: Annotated[str, _USER_ID],
        book_id: Annotated[
            str | None, Param("Booking id; omit for all bookings.", "订座 id；不提供则查询全部。")
        ] = None,
    ) -> list[dict[str, Any]]:
        """One booking (ownership checked) or all of the user's."""
        self._check_user(user_id)
        if book_id is not None and book_id.strip():
            return [self._book(book_id).model_dump(mode="json")]
        return self.get_instore_books(user_id)

    @tool(
        kind="read",
        description=Text(
            "Look up the current user's reservations: one by id, or all when reservation_id "
            "is omitted.",
            "查询当前用户的预约：指定 reservation_id 时查询该条，不指定则返回全部。",
        ),
        preconditions=[
            _USER_PRE,
            Text(
                "reservation_id, if given, is a reservation of the current user.",
                "如提供 reservation_id，须为当前用户的预约。",
            ),
        ],
        postconditions=[
            Text("Returns a list of reservations (empty if none).", "返回预约列表（没有则为空）。")
        ],
        depends_on=["instore_reservation", "get_instore_reservations"],
    )
    def search_instore_reservation(
        self,
        user_id: Annotated[str, _USER_ID],
        reservation_id: Annotated[
            str | None,
            Param("Reservation id; omit for all reservations.", "预约 id；不提供则查询全部。"),
        ] = None,
    ) -> list[dict[str, Any]]:
        """One reservation (ownership checked) or all of the user's."""
        self._check_user(user_id)
        if reservation_id is not None and reservation_id.strip():
            return [self._reservation(reservation_id).model_dump(mode="json")]
        return self.get_instore_reservations(user_id)

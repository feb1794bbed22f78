"""The VitaBench delivery domain: its tables, database and the environment with its 20 tools.

:class:`DeliveryEnvironment` is built fresh from one task for one simulation. It owns a deep
copy of the task's data and looks everything up in that copy only — there is no registry
shared between environments (the official harness leaks addresses across tasks through a
thread-keyed registry; see docs/compat.md).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any, ClassVar, Self

from pydantic import Field, field_validator, model_validator

from lifebench._util.text import Language, Text
from lifebench.tools import Param, ToolError, ToolSet, tool, tools_of
from lifebench.vita.domains import _calendar, _geo, _match
from lifebench.vita.domains.common import (
    Location,
    Order,
    OrderProduct,
    OrderStatus,
    Record,
    SharedTools,
    VitaDB,
    ident,
)
from lifebench.vita.grading.options import resolve_option
from lifebench.vita.task import VitaTask

# --------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------


class StoreProduct(Record):
    """A catalog product of a delivery store. Orders copy it; they never change it."""

    product_id: str = Field(description="Product id.")
    name: str = Field("", description="Product name.")
    store_id: str = Field("", description="Id of the store selling it.")
    store_name: str = Field("", description="Name of the store selling it.")
    price: float = Field(0.0, description="Unit price in yuan.")
    quantity: int | None = Field(None, description="Stock, when the data has one (it never does).")
    attributes: list[str] = Field(
        default_factory=list,
        description='Selectable options, one of which may be chosen per order line (e.g. "Mild Spicy").',
    )
    tags: list[str] = Field(default_factory=list, description="Descriptive tags.")

    @field_validator("attributes", mode="before")
    @classmethod
    def _single_attribute(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [value] if value.strip() else []
        return value

    def view(self) -> dict[str, Any]:
        """The product as the agent sees it (fields without data left out)."""
        return self.model_dump(mode="json", exclude_none=True)

    def choose_attribute(self, chosen: str) -> str:
        """The offered spelling of what ``chosen`` names ("" for none); ToolError when it names
        no offered option, or several.

        One rule with the state grader (:func:`~lifebench.vita.grading.options.resolve_option`):
        case, width, word and clause order, plurals, filler words and spelling variants do not
        matter; a shortened or extended form names the one option it fits (never one that
        differs by a negation, a degree word or a number); several distinct options joined by
        commas are one line's combination; a blank wording or a lone "None" is none. A product
        that offers no attributes accepts any text (kept as given), as in the official harness.
        """
        choice = resolve_option(chosen, self.attributes)
        if choice.resolved:
            return choice.option
        options = "; ".join(f"'{a}'" for a in self.attributes)
        what = f"product {self.product_id} ({self.name})"
        if choice.candidates:
            fits = "; ".join(f"'{a}'" for a in choice.candidates)
            problem = f"Attribute '{chosen}' is ambiguous for {what}: it could be {fits}."
        else:
            problem = f"Attribute '{chosen}' is not offered for {what}."
        raise ToolError(
            f'{problem} Offered attributes: {options}; use "" for none.', "precondition"
        )


class Store(Record):
    """A delivery store with its catalog."""

    store_id: str = Field(description="Store id.")
    name: str = Field(description="Store name.")
    score: float = Field(0.0, description="Rating, 0–5.")
    location: Location = Field(description="Where the store is.")
    tags: list[str] = Field(default_factory=list, description="Descriptive tags.")
    products: list[StoreProduct] = Field(default_factory=list, description="The catalog.")

    def summary(self) -> dict[str, Any]:
        """The store without its catalog (used by list views)."""
        return self.model_dump(mode="json", exclude={"products"})

    def view(self) -> dict[str, Any]:
        """The store with its catalog."""
        return {**self.summary(), "products": [p.view() for p in self.products]}

    def product(self, product_id: str) -> StoreProduct | None:
        """The catalog product with this id, if the store sells it."""
        return next((p for p in self.products if p.product_id == product_id), None)


class DeliveryDB(VitaDB):
    """The delivery database: the shared tables plus ``stores``.

    The key of ``stores`` is the store's identity (the official tools look stores up by key).
    After validation every store's ``store_id`` and every product's ``store_id`` /
    ``store_name`` are set from the store that lists the product, because a few official
    records disagree with their container (see docs/compat.md).
    """

    stores: dict[str, Store] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _normalise_store_identity(self) -> Self:
        for key, store in self.stores.items():
            store.store_id = key
            for product in store.products:
                product.store_id = key
                product.store_name = store.name
        return self


# --------------------------------------------------------------------------------------------
# Environment
# --------------------------------------------------------------------------------------------

_ORDER_ID = Param("Order id, e.g. as returned by create_delivery_order.", "订单号。")
_USER_ID = Param("The current user's id.", "当前用户的 id。")
_KEYWORDS = Param(
    'Search keywords, e.g. ["rice noodles", "mild"]; they are joined with spaces.',
    '搜索关键词，例如 ["米线", "微辣"]，以空格连接后检索。',
)

_DELIVERY_ORDER_WRITE_DEPS = (
    "create_delivery_order",
    "search_delivery_orders",
    "get_delivery_order_detail",
    "get_user_all_orders",
)


class DeliveryEnvironment(SharedTools):
    """One simulation's delivery world: a private copy of the task data and 20 tools.

    Attributes: ``db`` (the :class:`DeliveryDB`), ``now`` (the frozen task clock),
    ``language`` (of descriptions and localised results), ``task_id``, ``tools`` (a
    :class:`ToolSet`). Ids of created orders are ``OT<task id>-<nnn>`` with a per-environment
    counter, so a replay produces the same ids.
    """

    db: DeliveryDB

    ORDER_ID_PREFIX: ClassVar[str] = "OT"
    #: Maximum number of results of the two search tools.
    SEARCH_LIMIT: ClassVar[int] = 20

    def __init__(self, task: VitaTask, language: Language = "en") -> None:
        self.db = self._load_world(task, language, DeliveryDB, "delivery")
        self._next_serial = 1
        self._created: list[str] = []
        self._tools = ToolSet(tools_of(self))

    # ---- Environment protocol ----------------------------------------------------------------

    @property
    def tools(self) -> ToolSet:
        """The 20 delivery tools, bound to this environment."""
        return self._tools

    @property
    def created_order_ids(self) -> tuple[str, ...]:
        """Ids of the orders created in this environment, in creation order."""
        return tuple(self._created)

    def snapshot(self) -> dict[str, Any]:
        """``{time, user_id, orders: {id: order}, created_order_ids: [...]}`` as JSON data."""
        return {
            "time": self.db.time,
            "user_id": self.db.user_id,
            "orders": {oid: o.model_dump(mode="json") for oid, o in self.db.orders.items()},
            "created_order_ids": list(self._created),
        }

    # ---- hooks and helpers -------------------------------------------------------------------

    def known_locations(self) -> list[Location]:
        """User places, earlier order targets and store addresses of this task."""
        found = list(super().known_locations())
        found.extend(s.location for s in self.db.stores.values())
        return found

    def nearby_places(self) -> list[tuple[dict[str, Any], Location]]:
        """Every store, described without its catalog."""
        return [({"type": "store", **s.summary()}, s.location) for s in self.db.stores.values()]

    def _check_user(self, user_id: str) -> None:
        if ident(user_id) != self.db.user_id:
            raise ToolError(f"User ID '{user_id}' does not match the current user.", "precondition")

    def _store(self, store_id: str) -> Store:
        store = self.db.stores.get(ident(store_id))
        if store is None:
            raise ToolError(f"Store '{store_id}' not found.", "not_found")
        return store

    def _catalog_product(self, product_id: str) -> StoreProduct | None:
        for store in self.db.stores.values():
            found = store.product(ident(product_id))
            if found is not None:
                return found
        return None

    def _order(self, order_id: str) -> Order:
        """A delivery order of the current user; ToolError otherwise."""
        order = self.db.orders.get(ident(order_id))
        if order is None:
            raise ToolError(f"Order '{order_id}' not found.", "not_found")
        if order.order_type != "delivery":
            raise ToolError(
                f"Order '{order_id}' is a {order.order_type} order, not a delivery order.",
                "precondition",
            )
        if order.user_id != self.db.user_id:
            raise ToolError(
                f"Order '{order_id}' does not belong to the current user.", "precondition"
            )
        return order

    def _new_order_id(self) -> str:
        while True:
            candidate = f"{self.ORDER_ID_PREFIX}{self.task_id}-{self._next_serial:03d}"
            self._next_serial += 1
            if candidate not in self.db.orders:
                return candidate

    def _touch(self, order: Order) -> None:
        order.update_time = self.db.time

    # ---- general -----------------------------------------------------------------------------

    @tool(
        kind="general",
        description=Text(
            "Estimate the rider's travel time in minutes for a delivery distance in metres "
            "(25 minutes plus about 6.5 minutes per kilometre).",
            "根据配送距离（米）估算骑手配送时长（分钟）：25 分钟加每公里约 6.5 分钟。",
        ),
        preconditions=[
            Text(
                "distance is in metres (e.g. from longitude_latitude_to_distance) and ≥ 0.",
                "distance 单位为米（例如来自 longitude_latitude_to_distance），且不小于 0。",
            )
        ],
        postconditions=[
            Text("Returns minutes, a whole number.", "返回整数分钟数 minutes。"),
        ],
        depends_on=["longitude_latitude_to_distance"],
    )
    def delivery_distance_to_time(
        self,
        distance: Annotated[float, Param("Distance in metres.", "距离（米）。")],
    ) -> dict[str, Any]:
        """``round(25 + 0.00651 · int(distance))`` minutes."""
        if distance < 0:
            raise ToolError("distance must be a non-negative number of metres.", "precondition")
        return {"distance_m": distance, "minutes": _geo.delivery_minutes(distance)}

    # ---- read: stores and products -------------------------------------------------------------

    @tool(
        kind="read",
        description=Text(
            "Get a delivery store's details: name, rating, address and coordinates, tags and "
            "its full product list (prices, selectable attributes, tags).",
            "获取外卖店铺详情：名称、评分、地址与经纬度、标签及全部商品（价格、可选属性、标签）。",
        ),
        preconditions=[
            Text(
                "store_id comes from a store or product search, get_nearby or an order.",
                "store_id 来自店铺/商品搜索、get_nearby 或订单。",
            )
        ],
        postconditions=[Text("Returns the store with its products.", "返回店铺及其商品。")],
        depends_on=[
            "delivery_store_search_recommand",
            "delivery_product_search_recommand",
            "get_nearby",
            "get_user_all_orders",
            "get_delivery_order_detail",
            "get_delivery_product_info",
        ],
    )
    def get_delivery_store_info(
        self,
        store_id: Annotated[str, Param("Store id.", "店铺 id。")],
    ) -> dict[str, Any]:
        """The store and its catalog."""
        return self._store(store_id).view()

    @tool(
        kind="read",
        description=Text(
            "Get one delivery product's details: name, store, price, selectable attributes "
            "and tags.",
            "获取外卖商品详情：名称、所属店铺、价格、可选属性和标签。",
        ),
        preconditions=[
            Text(
                "product_id comes from a product search, store details or an order.",
                "product_id 来自商品搜索、店铺详情或订单。",
            )
        ],
        postconditions=[Text("Returns the catalog product.", "返回商品信息。")],
        depends_on=[
            "delivery_product_search_recommand",
            "get_delivery_store_info",
            "get_user_all_orders",
            "get_delivery_order_detail",
        ],
    )
    def get_delivery_product_info(
        self,
        product_id: Annotated[str, Param("Product id.", "商品 id。")],
    ) -> dict[str, Any]:
        """The catalog product (never altered by orders)."""
        product = self._catalog_product(product_id)
        if product is None:
            raise ToolError(f"Product '{product_id}' not found.", "not_found")
        return product.view()

    @tool(
        kind="read",
        description=Text(
            "Search delivery stores by keywords (matched against store names and tags); "
            "returns the best matches first, at most 20, without their products.",
            "按关键词搜索外卖店铺（匹配店铺名称和标签），按相关度返回最多 20 家，不含商品。",
        ),
        preconditions=[Text("At least one non-empty keyword.", "至少一个非空关键词。")],
        postconditions=[
            Text(
                "Returns a ranked list of stores; use get_delivery_store_info for products.",
                "返回按相关度排序的店铺列表；商品请用 get_delivery_store_info 查询。",
            )
        ],
        depends_on=["get_user_historical_behaviors"],
    )
    def delivery_store_search_recommand(
        self,
        keywords: Annotated[list[str], _KEYWORDS],
    ) -> list[dict[str, Any]]:
        """Stores ranked by how well "name tags" covers the joined keywords."""
        query = self._query(keywords)
        stores = list(self.db.stores.values())
        docs = [f"{s.name} {', '.join(s.tags)}" for s in stores]
        hits = _match.rank(query, docs, self.SEARCH_LIMIT, titles=[s.name for s in stores])
        return [stores[i].summary() for i in hits]

    @tool(
        kind="read",
        description=Text(
            "Search delivery products by keywords (matched against store name, product name "
            "and tags); returns the best matches first, at most 20.",
            "按关键词搜索外卖商品（匹配店铺名、商品名和标签），按相关度返回最多 20 个。",
        ),
        preconditions=[Text("At least one non-empty keyword.", "至少一个非空关键词。")],
        postconditions=[
            Text(
                "Returns a ranked list of products with store id, price and attributes.",
                "返回按相关度排序的商品列表，含店铺 id、价格和可选属性。",
            )
        ],
        depends_on=["get_user_historical_behaviors"],
    )
    def delivery_product_search_recommand(
        self,
        keywords: Annotated[list[str], _KEYWORDS],
    ) -> list[dict[str, Any]]:
        """Products ranked by how well "store name tags" covers the joined keywords."""
        query = self._query(keywords)
        products = [p for s in self.db.stores.values() for p in s.products]
        docs = [f"{p.store_name} {p.name} {', '.join(p.tags)}" for p in products]
        hits = _match.rank(query, docs, self.SEARCH_LIMIT, titles=[p.name for p in products])
        return [products[i].view() for i in hits]

    @staticmethod
    def _query(keywords: list[str]) -> str:
        query = _match.keyword_query(keywords)
        if not query:
            raise ToolError("keywords must contain at least one non-empty keyword.", "precondition")
        return query

    # ---- write: orders -----------------------------------------------------------------------

    @tool(
        kind="write",
        description=Text(
            "Place a delivery order for products of ONE store, delivered to an address. "
            "product_ids, product_cnts and (if given) attributes are parallel lists: item i "
            "orders product_cnts[i] of product_ids[i] with the single option attributes[i] "
            '("" when no option is chosen). The order starts as unpaid.',
            "为同一家店铺的商品下外卖订单并配送到指定地址。product_ids、product_cnts 和 "
            "attributes（可选）按位置一一对应：第 i 项为 product_ids[i] 点 product_cnts[i] 份，"
            '所选属性为 attributes[i]（不选填 ""）。订单创建后为未支付状态。',
        ),
        preconditions=[
            Text("user_id is the current user's id.", "user_id 为当前用户的 id。"),
            Text(
                "Every product belongs to store_id; counts are positive integers; the lists "
                "have the same length.",
                "所有商品都属于 store_id；数量为正整数；各列表长度一致。",
            ),
            Text(
                "Each chosen attribute names one option the product offers, or a combination "
                "of several joined by commas (if it offers any); the offered spelling is "
                "stored. A wording that fits several options, or none, is refused with the "
                "offered options.",
                "所选属性须指明该商品提供的某个选项，或以逗号连接的多个选项组合（若商品有可选属性）；"
                "订单中保存选项的原文。可能对应多个选项或不对应任何选项的写法会被拒绝，并列出可选项。",
            ),
            Text(
                "The address can be resolved by address_to_longitude_latitude.",
                "地址可由 address_to_longitude_latitude 解析。",
            ),
            Text(
                "dispatch_time is 'YYYY-MM-DD HH:MM:SS' and not earlier than the current time.",
                "dispatch_time 格式为 'YYYY-MM-DD HH:MM:SS'，且不早于当前时间。",
            ),
        ],
        postconditions=[
            Text(
                "A new unpaid order exists; delivery_time = dispatch_time + the rider's travel "
                "time for the store-to-address distance; total_price = Σ price × count.",
                "生成一笔未支付订单；delivery_time = dispatch_time + 店铺到地址距离对应的配送时长；"
                "total_price = Σ 单价 × 数量。",
            ),
            Text("Pay it with pay_delivery_order.", "需调用 pay_delivery_order 完成支付。"),
        ],
        depends_on=[
            "get_delivery_store_info",
            "get_delivery_product_info",
            "delivery_store_search_recommand",
            "delivery_product_search_recommand",
            "address_to_longitude_latitude",
            "get_user_historical_behaviors",
            "delivery_distance_to_time",
            "get_nearby",
        ],
    )
    def create_delivery_order(
        self,
        user_id: Annotated[str, _USER_ID],
        store_id: Annotated[str, Param("The store all products come from.", "商品所属店铺的 id。")],
        product_ids: Annotated[
            list[str], Param("Ids of the products to order.", "要购买的商品 id 列表。")
        ],
        product_cnts: Annotated[
            list[int],
            Param(
                "Count of each product, aligned with product_ids.",
                "各商品数量，与 product_ids 对应。",
            ),
        ],
        address: Annotated[str, Param("Delivery address.", "配送地址。")],
        dispatch_time: Annotated[
            str,
            Param(
                "When the store should start preparing and send the order, 'YYYY-MM-DD HH:MM:SS'.",
                "商家开始备餐并发出订单的时间，格式 'YYYY-MM-DD HH:MM:SS'。",
            ),
        ],
        attributes: Annotated[
            list[str] | None,
            Param(
                'One chosen attribute per product, aligned with product_ids ("" for none); '
                "omit it or pass [] when no product needs an option.",
                '每个商品所选的一个属性，与 product_ids 对应（不选填 ""）；都不需要时可省略或传 []。',
            ),
        ] = None,
        note: Annotated[str, Param("Remark for the store or rider.", "给商家或骑手的备注。")] = "",
    ) -> dict[str, Any]:
        """Validate everything, then add an unpaid order holding its own product copies."""
        self._check_user(user_id)
        store = self._store(store_id)
        n = len(product_ids)
        if n == 0:
            raise ToolError("product_ids must list at least one product.", "precondition")
        if len(product_cnts) != n:
            raise ToolError(
                f"product_cnts has {len(product_cnts)} items but product_ids has {n}; they must "
                "be aligned.",
                "precondition",
            )
        if not attributes:
            attributes = None  # [] means no product takes an option, as when it is left out
        if attributes is not None and len(attributes) != n:
            raise ToolError(
                f"attributes has {len(attributes)} items but product_ids has {n}; give one "
                'attribute per product ("" for none).',
                "precondition",
            )
        if any(c <= 0 for c in product_cnts):
            raise ToolError("Every product count must be a positive integer.", "precondition")
        dispatch = _calendar.parse_datetime(dispatch_time)
        if dispatch is None:
            raise ToolError(
                "dispatch_time must be in 'YYYY-MM-DD HH:MM:SS' format.", "precondition"
            )
        if dispatch < self.now:
            raise ToolError(
                f"dispatch_time {dispatch_time} is earlier than the current time {self.db.time}.",
                "precondition",
            )
        lines = [
            self._order_line(store, pid, count, attr)
            for pid, count, attr in zip(
                product_ids, product_cnts, attributes or [""] * n, strict=True
            )
        ]
        target = self.resolve_address(address)
        metres = _geo.haversine_m(
            store.location.longitude, store.location.latitude, target.longitude, target.latitude
        )
        minutes = _geo.delivery_minutes(metres)
        order = Order(
            order_id=self._new_order_id(),
            order_type="delivery",
            user_id=self.db.user_id,
            store_id=store.store_id,
            note=note,
            location=Location(
                address=address.strip(), longitude=target.longitude, latitude=target.latitude
            ),
            dispatch_time=_calendar.format_datetime(dispatch),
            shipping_time=float(minutes),
            delivery_time=_calendar.format_datetime(dispatch + timedelta(minutes=minutes)),
            total_price=round(sum(line.price * line.quantity for line in lines), 2),
            create_time=self.db.time,
            update_time=self.db.time,
            status="unpaid",
            products=lines,
        )
        self.db.orders[order.order_id] = order
        self._created.append(order.order_id)
        return order.model_dump(mode="json")

    def _order_line(
        self, store: Store, product_id: str, count: int, attribute: str
    ) -> OrderProduct:
        product = store.product(ident(product_id))
        if product is None:
            elsewhere = self._catalog_product(product_id)
            if elsewhere is not None:
                raise ToolError(
                    f"Product '{product_id}' belongs to store '{elsewhere.store_id}', not to "
                    f"store '{store.store_id}'. One order holds products of one store only.",
                    "precondition",
                )
            raise ToolError(
                f"Product '{product_id}' not found in store '{store.store_id}'.", "not_found"
            )
        return OrderProduct(
            product_id=product.product_id,
            name=product.name,
            price=product.price,
            quantity=count,
            attributes=product.choose_attribute(attribute),
        )

    @tool(
        kind="write",
        description=Text("Pay an unpaid delivery order.", "支付一笔未支付的外卖订单。"),
        preconditions=[
            Text(
                "The order is a delivery order of the current user in status unpaid.",
                "订单为当前用户的外卖订单，且状态为 unpaid。",
            )
        ],
        postconditions=[Text("The order's status becomes paid.", "订单状态变为 paid。")],
        depends_on=list(_DELIVERY_ORDER_WRITE_DEPS),
    )
    def pay_delivery_order(self, order_id: Annotated[str, _ORDER_ID]) -> dict[str, Any]:
        """unpaid → paid."""
        order = self._order(order_id)
        if order.status != "unpaid":
            raise ToolError(
                f"Order '{order.order_id}' is not in `unpaid` status (current status: "
                f"{order.status}).",
                "precondition",
            )
        order.status = "paid"
        self._touch(order)
        return {"message": "Payment successful.", "order": order.model_dump(mode="json")}

    @tool(
        kind="read",
        description=Text("Get the status of a delivery order.", "查询外卖订单的状态。"),
        preconditions=[
            Text("The order is a delivery order of the current user.", "订单为当前用户的外卖订单。")
        ],
        postconditions=[Text("Returns the order id and its status.", "返回订单号及其状态。")],
        depends_on=["create_delivery_order", "search_delivery_orders", "get_user_all_orders"],
    )
    def get_delivery_order_status(self, order_id: Annotated[str, _ORDER_ID]) -> dict[str, Any]:
        """The order's status."""
        order = self._order(order_id)
        return {"order_id": order.order_id, "status": order.status}

    @tool(
        kind="write",
        description=Text("Cancel a delivery order.", "取消一笔外卖订单。"),
        preconditions=[
            Text(
                "The order is a delivery order of the current user and not already cancelled.",
                "订单为当前用户的外卖订单，且尚未取消。",
            )
        ],
        postconditions=[Text("The order's status becomes cancelled.", "订单状态变为 cancelled。")],
        depends_on=[*_DELIVERY_ORDER_WRITE_DEPS, "get_delivery_order_status"],
    )
    def cancel_delivery_order(self, order_id: Annotated[str, _ORDER_ID]) -> dict[str, Any]:
        """Any status except cancelled → cancelled."""
        order = self._order(order_id)
        if order.status == "cancelled":
            raise ToolError(f"Order '{order.order_id}' is already cancelled.", "precondition")
        order.status = "cancelled"
        self._touch(order)
        return {
            "message": f"Order {order.order_id} has been cancelled.",
            "order": order.model_dump(mode="json"),
        }

    @tool(
        kind="write",
        description=Text(
            "Replace the note (remark for the store or rider) of a delivery order.",
            "修改外卖订单的备注（给商家或骑手的留言）。",
        ),
        preconditions=[
            Text("The order is a delivery order of the current user.", "订单为当前用户的外卖订单。")
        ],
        postconditions=[
            Text("The order's note is replaced by the given text.", "订单备注被替换为给定内容。")
        ],
        depends_on=list(_DELIVERY_ORDER_WRITE_DEPS),
    )
    def modify_delivery_order(
        self,
        order_id: Annotated[str, _ORDER_ID],
        note: Annotated[
            str, Param("The new note (replaces the old one).", "新的备注（替换原备注）。")
        ],
    ) -> dict[str, Any]:
        """Replace the note."""
        order = self._order(order_id)
        order.note = note
        self._touch(order)
        return {
            "message": f"Order {order.order_id} has been modified.",
            "order": order.model_dump(mode="json"),
        }

    @tool(
        kind="read",
        description=Text(
            "List the current user's delivery orders in one status (default unpaid), without "
            "product lines.",
            "按状态（默认 unpaid）列出当前用户的外卖订单，不含商品明细。",
        ),
        preconditions=[Text("user_id is the current user's id.", "user_id 为当前用户的 id。")],
        postconditions=[
            Text(
                "Returns the matching orders (empty list if none); use get_delivery_order_detail "
                "for products.",
                "返回匹配的订单（没有则为空列表）；商品明细请用 get_delivery_order_detail。",
            )
        ],
        depends_on=["get_user_historical_behaviors"],
    )
    def search_delivery_orders(
        self,
        user_id: Annotated[str, _USER_ID],
        status: Annotated[
            OrderStatus, Param("Order status to list.", "要查询的订单状态。")
        ] = "unpaid",
    ) -> list[dict[str, Any]]:
        """Delivery orders of the user with exactly this status, in database order."""
        self._check_user(user_id)
        return [
            o.summary()
            for o in self.db.orders.values()
            if o.order_type == "delivery" and o.user_id == self.db.user_id and o.status == status
        ]

    @tool(
        kind="read",
        description=Text(
            "Get a delivery order's full details, including its products.",
            "获取外卖订单的完整详情，含商品明细。",
        ),
        preconditions=[
            Text("The order is a delivery order of the current user.", "订单为当前用户的外卖订单。")
        ],
        postconditions=[Text("Returns the order.", "返回订单详情。")],
        depends_on=["search_delivery_orders", "create_delivery_order", "get_user_all_orders"],
    )
    def get_delivery_order_detail(self, order_id: Annotated[str, _ORDER_ID]) -> dict[str, Any]:
        """The full order."""
        return self._order(order_id).model_dump(mode="json")

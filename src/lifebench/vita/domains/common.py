"""Tables and tools shared by every VitaBench domain.

The tables (:class:`Location`, :class:`Weather`, :class:`Order`) and the base database
:class:`VitaDB` mirror the official data format; :class:`SharedTools` holds the eight tools that
every domain offers (distance, weather, geocoding, holidays, user profile, orders, nearby places).
A domain environment subclasses :class:`SharedTools` and supplies the places it knows about.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Self, TypeVar

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from lifebench._util.datacopy import copy_data
from lifebench._util.text import Language, Text
from lifebench.errors import InputError
from lifebench.tools import Param, ToolError, tool
from lifebench.vita.domains import _calendar, _geo, _match

if TYPE_CHECKING:
    from lifebench.vita.task import VitaTask

OrderStatus = Literal[
    "unpaid", "paid", "unconsumed", "consumed", "processed", "in-progress", "delivered", "cancelled"
]
"""Every order status of the official data model."""

OrderType = Literal["delivery", "instore", "hotel", "attraction", "flight", "train"]
"""Every order type of the official data model."""


class Record(BaseModel):
    """Base of the data tables: unknown keys ignored, ``null`` means "use the default".

    The official files contain nulls where a value is expected (e.g. ``shipping_time``); for a
    field with a non-null default, a null is replaced by that default instead of failing.
    """

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    _null_means_default: ClassVar[frozenset[str]] = frozenset()
    """Input keys (names and aliases) of the fields whose default is not None (per class)."""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        keys: set[str] = set()
        for name, info in cls.model_fields.items():
            if info.is_required() or info.get_default(call_default_factory=True) is None:
                continue
            keys.add(name)
            alias = info.validation_alias
            if isinstance(alias, AliasChoices):
                keys.update(str(c) for c in alias.choices if isinstance(c, str))
        cls._null_means_default = frozenset(keys)

    @model_validator(mode="before")
    @classmethod
    def _nulls_to_defaults(cls, data: Any) -> Any:
        if type(data) is dict:
            if None not in data.values():
                return data  # no null at all (the usual case): nothing to drop, no copy
        elif not isinstance(data, Mapping):
            return data
        keys = cls._null_means_default
        return {k: v for k, v in data.items() if v is not None or k not in keys}


class Location(Record):
    """A geocoded address."""

    address: str = Field(description="Postal address as written in the data.")
    longitude: float = Field(description="WGS-84 longitude in degrees.")
    latitude: float = Field(description="WGS-84 latitude in degrees.")


class Weather(Record):
    """Weather of one city on one day."""

    city: str = Field(description='City name, e.g. "Kunming City".')
    category: str = Field("", description='Condition, e.g. "rainy", "sunny".')
    datetime: str = Field(description="Day, YYYY-MM-DD.")
    temperature: list[float] = Field(default_factory=list, description="[low, high] in °C.")
    humidity: float | None = Field(None, description="Relative humidity in percent.")


class OrderProduct(Record):
    """One line of an order: the product as ordered (its own copy, never the catalog object)."""

    product_id: str = Field(description="Catalog product id.")
    name: str | None = Field(None, description="Product name (absent in pre-existing orders).")
    price: float = Field(0.0, description="Unit price at order time.")
    quantity: int = Field(1, description="Ordered count.")
    attributes: str = Field(
        "",
        validation_alias=AliasChoices("attributes", "attribute"),
        description='The chosen attribute (e.g. "Mild Spicy"); "" when none was chosen.',
    )

    @field_validator("attributes", mode="before")
    @classmethod
    def _join_attribute_list(cls, value: Any) -> Any:
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        return value


class Order(Record):
    """An order of any domain (the official shared order model)."""

    order_id: str = Field(description="Order id.")
    order_type: OrderType = Field(description="Which domain the order belongs to.")
    user_id: str = Field("", description="Owner of the order.")
    store_id: str = Field("", description="Store / shop / hotel / attraction / flight / train id.")
    note: str = Field("", description="Free-text remark for the merchant or rider.")
    location: Location | None = Field(None, description="Delivery target (delivery orders).")
    dispatch_time: str = Field(
        "", description="When the merchant should start, YYYY-MM-DD HH:MM:SS."
    )
    shipping_time: float | None = Field(None, description="Rider travel time in minutes.")
    delivery_time: str = Field("", description="Expected arrival, YYYY-MM-DD HH:MM:SS.")
    total_price: float = Field(0.0, description="Sum of price × quantity over the products.")
    create_time: str = Field("", description="Creation time (task clock).")
    update_time: str = Field(
        "", description="Last change (task clock); create_time if never changed."
    )
    status: OrderStatus = Field(description="Lifecycle status.")
    products: list[OrderProduct] = Field(default_factory=list, description="Ordered products.")

    @model_validator(mode="after")
    def _default_update_time(self) -> Self:
        if not self.update_time:
            self.update_time = self.create_time
        return self

    def summary(self) -> dict[str, Any]:
        """The order without its product lines (used by list views)."""
        return self.model_dump(mode="json", exclude={"products"})


class VitaDB(Record):
    """The tables every domain shares; a domain adds its own (stores, shops, hotels …).

    Build it with :meth:`from_environment`: only the keys that are fields of the class are
    read from the task's ``environment`` dict (the official per-domain whitelist), missing
    tables default to empty, and the input is deep-copied first.
    """

    time: str = Field(description="Frozen task clock, YYYY-MM-DD HH:MM:SS.")
    user_id: str = Field(description="The user every user-scoped tool checks against.")
    weather: list[Weather] = Field(default_factory=list)
    location: list[Location] = Field(default_factory=list)
    user_historical_behaviors: dict[str, Any] = Field(default_factory=dict)
    orders: dict[str, Order] = Field(default_factory=dict)

    @classmethod
    def from_environment(cls, environment: Mapping[str, Any]) -> Self:
        """Validate the whitelisted keys of a task's ``environment`` (never mutating it)."""
        picked = {k: copy_data(v) for k, v in environment.items() if k in cls.model_fields}
        return cls.model_validate(picked)


DB = TypeVar("DB", bound=VitaDB)

# Words of the historical-behaviour fields that hold an address.
_ADDRESS_LABELS = ("address", "地址", "住址")


def ident(text: str) -> str:
    """An id as an agent gives it, read the way the data writes ids: NFKC-normalised
    (full-width letters and digits become ASCII) and without surrounding whitespace."""
    return unicodedata.normalize("NFKC", text).strip()


# --------------------------------------------------------------------------------------------
# The eight shared tools
# --------------------------------------------------------------------------------------------


class SharedTools:
    """The eight tools common to every VitaBench domain, over one environment's data.

    Subclasses set ``db``, ``now`` and ``language`` and override :meth:`known_locations` and
    :meth:`nearby_places`. No state lives on the class: every lookup reads this instance.
    """

    db: VitaDB
    now: datetime
    language: Language
    task_id: str
    holiday_calendar: _calendar.HolidayCalendar | None = None
    """The run's holiday tables (set by the suite: every episode shares them); without one,
    each lookup computes its year's table."""

    def _load_world(self, task: VitaTask, language: Language, db_type: type[DB], label: str) -> DB:
        """Set ``task_id``, ``language``, ``now`` and return ``db_type`` built from ``task``.

        Raises:
            InputError: the task's tables or clock are invalid (naming the task and field).
        """
        self.task_id = task.id
        self.language = language
        try:
            db = db_type.from_environment(task.environment)
        except ValidationError as exc:
            raise InputError(
                f"invalid {label} data: {exc}", task_id=task.id, field="environment"
            ) from None
        now = _calendar.parse_datetime(db.time)
        if now is None:
            raise InputError(
                f"time must be 'YYYY-MM-DD HH:MM:SS', got {db.time!r}",
                task_id=task.id,
                field="environment.time",
            )
        self.now = now
        return db

    # ---- hooks for the domains -------------------------------------------------------------

    def known_locations(self) -> Sequence[Location]:
        """Every geocoded address of this environment (user places, stores, order targets)."""
        found = list(self.db.location)
        found.extend(o.location for o in self.db.orders.values() if o.location is not None)
        return found

    def nearby_places(self) -> Iterable[tuple[dict[str, Any], Location]]:
        """Places ``get_nearby`` can return: (short description, location) pairs."""
        return ()

    # ---- helpers ---------------------------------------------------------------------------

    def historical_addresses(self) -> list[tuple[str, str]]:
        """``(label, address)`` of every address the user's historical behaviours state (the
        top-level text fields whose name says address: "home address", "家庭住址" …)."""
        return [
            (str(label), value.strip())
            for label, value in self.db.user_historical_behaviors.items()
            if isinstance(value, str)
            and value.strip()
            and any(word in str(label).casefold() for word in _ADDRESS_LABELS)
        ]

    def resolve_address(self, address: str) -> Location:
        """The known location ``address`` designates; ToolError ``not_found`` otherwise (also
        when it fits several places equally well), naming the closest known addresses.

        The not-found advice is true for this environment: it recommends the user's historical
        addresses only when they resolve, names those that do, and says so when ``address`` is
        a historical address the service has no place for.
        """
        if not address.strip():
            raise ToolError("The address must not be empty.", "precondition")
        source = getattr(self, "location_source", None)
        locations = list(source()) if source is not None else self.known_locations()
        places = [(loc.address, loc.longitude, loc.latitude) for loc in locations]
        found = _match.match_address(address, places)
        if found.index is not None:
            return locations[found.index]
        if found.rivals:
            listed = "; ".join(f"'{locations[i].address}'" for i in found.rivals)
            raise ToolError(
                f"Address '{address}' is ambiguous: it fits several known places equally well "
                f"({listed}). Give the full address of the one you mean.",
                "not_found",
            )
        close = "; ".join(f"'{locations[i].address}'" for i in found.close)
        hint = f" Closest known addresses: {close}." if close else ""
        raise ToolError(
            f"Address not found: '{address}'. Only places the service knows resolve: an "
            f"address as the user gives it, or that of a store, shop, hotel or earlier order."
            f"{hint}{self._history_advice(address, places)}",
            "not_found",
        )

    def _history_advice(self, address: str, places: Sequence[tuple[str, float, float]]) -> str:
        """What the not-found message says about the user's historical addresses."""
        history = self.historical_addresses()
        if not history:
            return ""
        known = [label for label, a in history if _match.match_address(a, places).index is not None]
        asked = _match.match_address(address, [(a, 0.0, 0.0) for _, a in history]).index
        if asked is not None and history[asked][0] not in known:
            return (
                f" '{address}' is the user's {history[asked][0]} in their historical behaviours; "
                "the service has no location for it: ask the user which address to use."
            )
        if known:
            labels = list(dict.fromkeys(known))
            verb = "resolves" if len(labels) == 1 else "resolve"
            return f" Of the user's historical behaviours, the {' and the '.join(labels)} {verb}."
        return " None of the addresses in the user's historical behaviours resolves."

    # ---- general tools ---------------------------------------------------------------------

    @tool(
        kind="general",
        description=Text(
            "Compute the straight-line (great-circle) distance in metres between two points "
            "given by longitude and latitude.",
            "根据经纬度计算两点之间的直线（球面）距离，单位为米。",
        ),
        preconditions=[
            Text(
                "Coordinates come from address_to_longitude_latitude, a store or get_nearby.",
                "经纬度来自 address_to_longitude_latitude、店铺信息或 get_nearby。",
            )
        ],
        postconditions=[
            Text("Returns distance_m, a whole number of metres.", "返回整数米数 distance_m。")
        ],
        depends_on=[
            "address_to_longitude_latitude",
            "get_nearby",
            "get_delivery_store_info",
            "delivery_store_search_recommand",
            "instore_shop_search_recommend",
        ],
    )
    def longitude_latitude_to_distance(
        self,
        longitude1: Annotated[float, Param("Longitude of the first point.", "第一个点的经度。")],
        latitude1: Annotated[float, Param("Latitude of the first point.", "第一个点的纬度。")],
        longitude2: Annotated[float, Param("Longitude of the second point.", "第二个点的经度。")],
        latitude2: Annotated[float, Param("Latitude of the second point.", "第二个点的纬度。")],
    ) -> dict[str, Any]:
        """Haversine distance (R = 6,371,000 m) rounded to whole metres."""
        for lon, lat in ((longitude1, latitude1), (longitude2, latitude2)):
            if not _geo.valid_coordinates(lon, lat):
                raise ToolError(
                    f"Invalid coordinates ({lon}, {lat}): longitude must be within ±180 and "
                    "latitude within ±90.",
                    "precondition",
                )
        return {"distance_m": _geo.haversine_m(longitude1, latitude1, longitude2, latitude2)}

    @tool(
        kind="general",
        description=Text(
            "Look up the daily weather of a city between two dates (inclusive).",
            "查询某城市在两个日期之间（含首尾）的每日天气。",
        ),
        preconditions=[
            Text(
                "Dates are in YYYY-MM-DD format and date_start is not after date_end.",
                "日期格式为 YYYY-MM-DD，且 date_start 不晚于 date_end。",
            )
        ],
        postconditions=[
            Text(
                "Returns the matched city and one entry per day that has data.",
                "返回匹配到的城市以及有数据的每一天的天气。",
            )
        ],
        depends_on=["get_user_historical_behaviors"],
    )
    def weather(
        self,
        address: Annotated[
            str, Param("City name or an address in the city.", "城市名或该城市内的地址。")
        ],
        date_start: Annotated[str, Param("First day, YYYY-MM-DD.", "开始日期，YYYY-MM-DD。")],
        date_end: Annotated[str, Param("Last day, YYYY-MM-DD.", "结束日期，YYYY-MM-DD。")],
    ) -> dict[str, Any]:
        """Weather rows of the best-matching city within the date range."""
        start, end = _calendar.parse_date(date_start), _calendar.parse_date(date_end)
        if start is None or end is None:
            raise ToolError("Dates must be in YYYY-MM-DD format.", "precondition")
        if start > end:
            raise ToolError(
                f"date_start {date_start} is after date_end {date_end}.", "precondition"
            )
        cities = list(dict.fromkeys(w.city for w in self.db.weather))
        found = _match.match_city(address, cities)
        if found.index is None:
            if found.rivals:
                listed = ", ".join(cities[i] for i in found.rivals)
                raise ToolError(
                    f"'{address}' names several cities with weather data ({listed}); give the "
                    "city name.",
                    "not_found",
                )
            close = ", ".join(cities[i] for i in found.close)
            hint = f" Cities with weather data that look closest: {close}." if close else ""
            raise ToolError(f"Weather information not found for '{address}'.{hint}", "not_found")
        city = cities[found.index]
        days = []
        for w in self.db.weather:
            day = _calendar.parse_date(w.datetime)
            if w.city == city and day is not None and start <= day <= end:
                days.append(
                    {
                        "date": w.datetime,
                        "category": w.category,
                        "temperature_min": min(w.temperature) if w.temperature else None,
                        "temperature_max": max(w.temperature) if w.temperature else None,
                        "humidity": w.humidity,
                    }
                )
        if not days:
            raise ToolError(
                f"No weather information for {city} between {date_start} and {date_end}.",
                "not_found",
            )
        days.sort(key=lambda d: str(d["date"]))
        return {"city": city, "days": days}

    @tool(
        kind="general",
        description=Text(
            "Convert an address into longitude and latitude. Only addresses known to the "
            "service can be resolved (the user's places, stores, earlier delivery addresses).",
            "将地址转换为经纬度。只能解析服务已知的地址（用户的常用地点、店铺、历史配送地址）。",
        ),
        preconditions=[
            Text(
                "The address is one the service knows: as the user gives it, or that of a "
                "store, shop, hotel or earlier order. A home or work address from the user's "
                "historical behaviours resolves only when the service knows that place (a "
                "not-found error says which do).",
                "地址为服务已知的地点：用户给出的地址，或店铺、门店、酒店、历史订单的地址。用户历史行为中"
                "的家庭或工作地址仅在服务已知该地点时才能解析（未找到时的错误信息会说明哪些可以）。",
            )
        ],
        postconditions=[
            Text(
                "Returns the matched known address with its longitude and latitude.",
                "返回匹配到的已知地址及其经纬度。",
            )
        ],
        depends_on=[
            "get_user_historical_behaviors",
            "get_user_all_orders",
            "get_delivery_store_info",
            "instore_shop_search_recommend",
        ],
    )
    def address_to_longitude_latitude(
        self,
        address: Annotated[str, Param("The address to geocode.", "要解析的地址。")],
    ) -> dict[str, Any]:
        """Fuzzy lookup among this environment's known locations only."""
        loc = self.resolve_address(address)
        return {
            "matched_address": loc.address,
            "longitude": loc.longitude,
            "latitude": loc.latitude,
        }

    @tool(
        kind="general",
        description=Text(
            "Tell whether a date is a public holiday in China (including days off in lieu) "
            "and which weekday it is.",
            "查询某日期是否为中国法定节假日（含调休放假）以及是星期几。",
        ),
        preconditions=[Text("The date is in YYYY-MM-DD format.", "日期格式为 YYYY-MM-DD。")],
        postconditions=[
            Text(
                "Returns is_holiday, the holiday names (empty if none) and the weekday.",
                "返回 is_holiday、节日名称列表（无则为空）和星期几。",
            )
        ],
    )
    def get_date_holiday_info(
        self,
        date: Annotated[str, Param("The date, YYYY-MM-DD.", "日期，YYYY-MM-DD。")],
    ) -> dict[str, Any]:
        """Public-holiday lookup via the ``holidays`` package (China)."""
        day = _calendar.parse_date(date)
        if day is None:
            raise ToolError("The date must be in YYYY-MM-DD format.", "precondition")
        names = _calendar.public_holidays(day, self.language, self.holiday_calendar)
        return {
            "date": day.isoformat(),
            "weekday": _calendar.weekday_name(day, self.language),
            "is_holiday": bool(names),
            "holidays": names,
        }

    @tool(
        kind="general",
        description=Text(
            "Find the date of a festival in a given year (Chinese festivals such as Spring "
            "Festival, Laba, Qixi or Mid-Autumn, solar terms such as the Start of Autumn, and "
            "common Western ones such as Valentine's Day, Mother's Day or Christmas). Years "
            "2023–2026 are covered.",
            "查询某年某个节日的日期（春节、腊八、七夕、中秋等中国节日，立秋等节气，以及情人节、"
            "母亲节、圣诞节等常见西方节日）。支持 2023–2026 年。",
        ),
        preconditions=[
            Text(
                "year is a four-digit year between 2023 and 2026.",
                "year 为 2023 至 2026 之间的四位年份。",
            )
        ],
        postconditions=[
            Text(
                "Returns the festival's name and its date (YYYY-MM-DD); a name that matches no "
                "known festival is not found (the error lists the closest names).",
                "返回节日名称及日期（YYYY-MM-DD）；与任何已知节日都不匹配的名称返回未找到（错误信息"
                "列出最接近的名称）。",
            )
        ],
    )
    def get_holiday_date(
        self,
        year: Annotated[str, Param('The year, e.g. "2025".', "年份，例如 “2025”。")],
        holiday_name: Annotated[
            str,
            Param(
                'Festival name in English or Chinese, e.g. "Mid-Autumn Festival".',
                "节日名称（中文或英文），例如“中秋节”。",
            ),
        ],
    ) -> dict[str, Any]:
        """Table lookup with fuzzy name matching."""
        y = _calendar.parse_year(year)
        if y is None:
            raise ToolError(
                f"Invalid year '{year}': expected four digits, e.g. 2025.", "precondition"
            )
        if y not in _calendar.FESTIVAL_YEARS:
            first, last = _calendar.FESTIVAL_YEARS[0], _calendar.FESTIVAL_YEARS[-1]
            raise ToolError(
                f"Holiday data for year {y} not found (available: {first}–{last}).", "not_found"
            )
        fest = _calendar.find_festival(holiday_name)
        if fest is None:
            closest = ", ".join(_calendar.festival_candidates(holiday_name, self.language))
            hint = f" Closest names: {closest}." if closest else ""
            known = ", ".join(f.name(self.language) for f in _calendar.festival_table())
            raise ToolError(
                f"Holiday '{holiday_name}' not found: it matches none of the known festivals."
                f"{hint} Known holidays: {known}.",
                "not_found",
            )
        if not fest.occurs_in(y):
            later = next((n for n in _calendar.FESTIVAL_YEARS if n > y and fest.occurs_in(n)), None)
            hint = f"; in {later} it falls on {fest.on(later).isoformat()}" if later else ""
            raise ToolError(
                f"{fest.name(self.language)} does not fall in calendar year {y}{hint}.",
                "not_found",
            )
        return {"year": y, "holiday": fest.name(self.language), "date": fest.on(y).isoformat()}

    # ---- read tools ------------------------------------------------------------------------

    @tool(
        kind="read",
        description=Text(
            "Get the current user's profile and historical behaviour: home and work address, "
            "habits per meal period, recent orders and search history.",
            "获取当前用户的画像与历史行为：家庭和工作地址、各时段消费习惯、近期订单和搜索历史。",
        ),
        postconditions=[
            Text("Returns the behaviour record as stored.", "按原样返回历史行为记录。")
        ],
    )
    def get_user_historical_behaviors(self) -> dict[str, Any]:
        """The user's behaviour record (a copy)."""
        copied: dict[str, Any] = copy_data(self.db.user_historical_behaviors)
        return copied

    @tool(
        kind="read",
        description=Text(
            "List every order of the current user (all types and statuses), with products.",
            "列出当前用户的全部订单（所有类型和状态），含商品明细。",
        ),
        postconditions=[
            Text(
                "Returns a list of orders (empty if there are none).",
                "返回订单列表（没有则为空）。",
            )
        ],
    )
    def get_user_all_orders(self) -> list[dict[str, Any]]:
        """All orders of the database, pre-existing first, then in creation order."""
        return [o.model_dump(mode="json") for o in self.db.orders.values()]

    @tool(
        kind="read",
        description=Text(
            "Find the places (stores, shops …) within a radius of a point, nearest first.",
            "查找某点周围指定半径内的地点（店铺等），按距离由近到远排列。",
        ),
        preconditions=[
            Text(
                "The point comes from address_to_longitude_latitude; range is in metres and ≥ 0.",
                "坐标来自 address_to_longitude_latitude；range 单位为米且不小于 0。",
            )
        ],
        postconditions=[
            Text(
                "Returns each place with its distance_m (empty list if none is in range).",
                "返回每个地点及其距离 distance_m（范围内没有则为空列表）。",
            )
        ],
        depends_on=["address_to_longitude_latitude"],
    )
    def get_nearby(
        self,
        longitude: Annotated[float, Param("Longitude of the centre.", "中心点经度。")],
        latitude: Annotated[float, Param("Latitude of the centre.", "中心点纬度。")],
        range: Annotated[float, Param("Search radius in metres.", "搜索半径（米）。")],
    ) -> list[dict[str, Any]]:
        """Places within ``range`` metres, nearest first (ties keep data order)."""
        if not _geo.valid_coordinates(longitude, latitude):
            raise ToolError(
                f"Invalid coordinates ({longitude}, {latitude}): longitude must be within ±180 "
                "and latitude within ±90.",
                "precondition",
            )
        if range < 0:
            raise ToolError("range must be a non-negative number of metres.", "precondition")
        hits: list[tuple[int, int, dict[str, Any]]] = []
        for i, (info, loc) in enumerate(self.nearby_places()):
            metres = _geo.haversine_m(longitude, latitude, loc.longitude, loc.latitude)
            if metres <= range:
                hits.append((metres, i, {**info, "distance_m": metres}))
        hits.sort(key=lambda h: (h[0], h[1]))
        return [h[2] for h in hits]

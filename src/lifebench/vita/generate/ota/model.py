"""Internal records of an OTA task under construction: providers, dated products, order records.

Drafts are language-neutral (text is :class:`Bi`); ids are assigned once every provider exists,
and records are rendered into the official format (the one ``OTADB`` loads) at the very end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, ClassVar

from lifebench._util.text import Language
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.places import City
from lifebench.vita.generate.pools.travel import AttractionKind, Variant
from lifebench.vita.generate.world import Place, fmt_time


def clock_text(minutes: int) -> str:
    """``HH:MM`` of a time of day given in minutes after midnight."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


@dataclass(eq=False, kw_only=True)
class ProductDraft:
    """One bookable item on one date (a room night, a ticket, a seat)."""

    variant: Variant
    day: date
    price: int
    quantity: int
    product_id: str = ""

    def record(self, variant_field: str, language: Language) -> dict[str, Any]:
        """The official per-date product record."""
        return {
            "product_id": self.product_id,
            "price": self.price,
            "quantity": self.quantity,
            "date": self.day.isoformat(),
            variant_field: self.variant.name.get(language),
        }


@dataclass(eq=False, kw_only=True)
class Provider:
    """A hotel, attraction, flight or train under construction.

    ``owner`` is the index of the sub-goal it was made for (None: none), ``role`` why it exists
    (``target``, or the one constraint a distractor breaks: ``city``, ``price`` …).
    """

    kind: ClassVar[str] = ""
    table: ClassVar[str] = ""
    variant_field: ClassVar[str] = ""
    id_prefix: ClassVar[str] = ""

    owner: int | None
    role: str
    products: list[ProductDraft] = field(default_factory=list)
    provider_id: str = ""

    @property
    def title(self) -> Bi:
        """The provider's name (hotel, attraction) or number (flight, train)."""
        raise NotImplementedError

    def cities(self) -> tuple[City, ...]:
        """The city (cities, for transport) the provider is in."""
        raise NotImplementedError

    def on(self, day: date) -> list[ProductDraft]:
        """Products for ``day``."""
        return [p for p in self.products if p.day == day]

    def find(self, variant_key: str, day: date) -> ProductDraft | None:
        """The product of that variant on that day (None if not offered)."""
        return next(
            (p for p in self.products if p.variant.key == variant_key and p.day == day), None
        )

    def sort_products(self) -> None:
        """Products by date, then in the order their variants were first offered."""
        order: dict[str, int] = {}
        for p in self.products:
            order.setdefault(p.variant.key, len(order))
        self.products.sort(key=lambda p: (p.day, order[p.variant.key]))

    def header(self, language: Language) -> dict[str, Any]:
        """The record without its products."""
        raise NotImplementedError

    def record(self, language: Language) -> dict[str, Any]:
        """The official provider record."""
        return {
            **self.header(language),
            "products": [p.record(self.variant_field, language) for p in self.products],
        }


@dataclass(eq=False, kw_only=True)
class HotelDraft(Provider):
    """A hotel."""

    kind: ClassVar[str] = "hotel"
    table: ClassVar[str] = "hotels"
    variant_field: ClassVar[str] = "room_type"
    id_prefix: ClassVar[str] = "H"

    name: Bi
    city: City
    place: Place
    score: float
    stars: int
    tags: tuple[Bi, ...]

    @property
    def title(self) -> Bi:
        """The hotel name."""
        return self.name

    def cities(self) -> tuple[City, ...]:
        """The hotel's city."""
        return (self.city,)

    def header(self, language: Language) -> dict[str, Any]:
        """Official ``Hotel`` fields."""
        return {
            "hotel_id": self.provider_id,
            "hotel_name": self.name.get(language),
            "score": self.score,
            "star_rating": self.stars,
            "location": self.place.location(language),
            "tags": [t.get(language) for t in self.tags],
        }


@dataclass(eq=False, kw_only=True)
class AttractionDraft(Provider):
    """An attraction."""

    kind: ClassVar[str] = "attraction"
    table: ClassVar[str] = "attractions"
    variant_field: ClassVar[str] = "ticket_type"
    id_prefix: ClassVar[str] = "A"

    name: Bi
    city: City
    category: AttractionKind
    place: Place
    description: Bi
    score: float
    hours: str
    list_price: int

    @property
    def title(self) -> Bi:
        """The attraction name."""
        return self.name

    def cities(self) -> tuple[City, ...]:
        """The attraction's city."""
        return (self.city,)

    def header(self, language: Language) -> dict[str, Any]:
        """Official ``Attraction`` fields."""
        return {
            "attraction_id": self.provider_id,
            "attraction_name": self.name.get(language),
            "location": self.place.location(language),
            "description": self.description.get(language),
            "score": self.score,
            "opening_hours": self.hours,
            "ticket_price": self.list_price,
        }


@dataclass(eq=False, kw_only=True)
class TransportDraft(Provider):
    """A flight or a train (times in minutes after midnight, same-day arrival)."""

    variant_field: ClassVar[str] = "seat_type"
    #: Names of the location fields ("airport" / "station").
    terminal: ClassVar[str] = ""

    number: str
    origin: City
    dest: City
    departure_place: Place
    arrival_place: Place
    depart: int
    arrive: int
    tags: tuple[Bi, ...]

    @property
    def title(self) -> Bi:
        """The flight / train number."""
        return Bi(self.number, self.number)

    def cities(self) -> tuple[City, ...]:
        """Origin and destination."""
        return (self.origin, self.dest)

    def header(self, language: Language) -> dict[str, Any]:
        """Official ``Flight`` / ``Train`` fields."""
        return {
            f"{self.kind}_id": self.provider_id,
            f"{self.kind}_number": self.number,
            "departure_city": self.origin.name.get(language),
            "arrival_city": self.dest.name.get(language),
            f"departure_{self.terminal}_location": self.departure_place.location(language),
            f"arrival_{self.terminal}_location": self.arrival_place.location(language),
            "departure_time": clock_text(self.depart),
            "arrival_time": clock_text(self.arrive),
            "tags": [t.get(language) for t in self.tags],
        }


@dataclass(eq=False, kw_only=True)
class FlightDraft(TransportDraft):
    """A flight."""

    kind: ClassVar[str] = "flight"
    table: ClassVar[str] = "flights"
    id_prefix: ClassVar[str] = "F"
    terminal: ClassVar[str] = "airport"


@dataclass(eq=False, kw_only=True)
class TrainDraft(TransportDraft):
    """A train."""

    kind: ClassVar[str] = "train"
    table: ClassVar[str] = "trains"
    id_prefix: ClassVar[str] = "T"
    terminal: ClassVar[str] = "station"


TABLES: tuple[type[Provider], ...] = (HotelDraft, AttractionDraft, FlightDraft, TrainDraft)
"""The four provider kinds in the order of the environment's tables."""


@dataclass(frozen=True)
class Booking:
    """An order under construction: provider, one dated line, quantity, status and times."""

    order_id: str
    provider: Provider
    product: ProductDraft
    quantity: int
    status: str
    created: datetime
    updated: datetime | None = None

    @property
    def total(self) -> int:
        """Price × quantity."""
        return self.product.price * self.quantity

    def record(self, user_id: str, language: Language) -> dict[str, Any]:
        """The official order-shaped record (pre-existing order or expected state)."""
        return order_record(
            order_id=self.order_id,
            provider=self.provider,
            lines=[(self.product, self.quantity)],
            user_id=user_id,
            status=self.status,
            created=self.created,
            updated=self.updated,
            language=language,
        )


def order_record(
    *,
    order_id: str,
    provider: Provider,
    lines: Sequence[tuple[ProductDraft, int]],
    user_id: str,
    status: str,
    created: datetime,
    updated: datetime | None,
    language: Language,
) -> dict[str, Any]:
    """An OTA order record with the official ``Order`` fields, in the demo files' order."""
    return {
        "order_id": order_id,
        "order_type": provider.kind,
        "user_id": user_id,
        "store_id": provider.provider_id,
        "note": "",
        "location": None,
        "dispatch_time": "",
        "shipping_time": None,
        "delivery_time": "",
        "total_price": sum(p.price * q for p, q in lines),
        "create_time": fmt_time(created),
        "update_time": fmt_time(updated or created),
        "status": status,
        "products": [
            {
                "product_id": p.product_id,
                "price": p.price,
                "date": p.day.isoformat(),
                provider.variant_field: p.variant.name.get(language),
                "quantity": q,
            }
            for p, q in lines
        ],
    }

"""Tables of the VitaBench OTA domain (hotels, attractions, flights, trains) and its database.

Every bookable item is **per date**: a hotel room, an attraction ticket or a seat is one
product record with a ``date``, a price and a stock (``quantity``) for that date. Orders hold
their own :class:`OTAOrderProduct` lines (product id, date, type, price, quantity); the catalog
only changes through the stock that bookings take and cancellations give back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Self

from pydantic import (
    AliasChoices,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from lifebench._util.text import Text
from lifebench.vita.domains.common import Location, Order, OrderProduct, OrderType, Record, VitaDB

# --------------------------------------------------------------------------------------------
# Catalog
# --------------------------------------------------------------------------------------------


class OTAProduct(Record):
    """One bookable item on one date: its id, price and remaining stock."""

    product_id: str = Field(description="Product id (room / ticket / seat id).")
    price: float = Field(0.0, description="Unit price in yuan on that date.")
    quantity: int = Field(0, description="Remaining stock on that date.")
    date: str = Field("", description="The date the item is for, YYYY-MM-DD.")

    @property
    def variant(self) -> str:
        """The room type, ticket type or seat type."""
        return ""

    def view(self) -> dict[str, Any]:
        """The product as the agent sees it."""
        return self.model_dump(mode="json")


class HotelProduct(OTAProduct):
    """One room type of a hotel for one night."""

    room_type: str = Field("", description='Room type, e.g. "Deluxe King Room".')

    @property
    def variant(self) -> str:
        """The room type."""
        return self.room_type


class AttractionProduct(OTAProduct):
    """One ticket type of an attraction for one day."""

    ticket_type: str = Field("", description='Ticket type, e.g. "Adult ticket".')

    @property
    def variant(self) -> str:
        """The ticket type."""
        return self.ticket_type


class FlightProduct(OTAProduct):
    """One seat class of a flight on one date."""

    seat_type: str = Field("", description='Seat class, e.g. "Economy".')

    @property
    def variant(self) -> str:
        """The seat class."""
        return self.seat_type


class TrainProduct(OTAProduct):
    """One seat class of a train on one date."""

    seat_type: str = Field("", description='Seat class, e.g. "Second class".')

    @property
    def variant(self) -> str:
        """The seat class."""
        return self.seat_type


class OTAProvider(Record):
    """Base of the four provider tables: something with per-date products."""

    @property
    def provider_id(self) -> str:
        """The hotel / attraction / flight / train id."""
        raise NotImplementedError

    @property
    def display_name(self) -> str:
        """A human-readable name (hotel name, flight number …)."""
        raise NotImplementedError

    def items(self) -> Sequence[OTAProduct]:
        """The per-date products."""
        raise NotImplementedError

    def places(self) -> list[tuple[str, Location]]:
        """(role, location) pairs: where the provider is (both ends for transport)."""
        return []

    def summary(self) -> dict[str, Any]:
        """The provider without its products (used by list views)."""
        return self.model_dump(mode="json", exclude={"products"})

    def view(self) -> dict[str, Any]:
        """The provider with every product."""
        return {**self.summary(), "products": [p.view() for p in self.items()]}

    def dates(self) -> list[str]:
        """Distinct dates that have products, sorted."""
        return sorted({p.date for p in self.items() if p.date})

    def find(self, product_id: str, date: str | None = None) -> list[OTAProduct]:
        """Products with this id (and this date when given), in data order."""
        return [
            p
            for p in self.items()
            if p.product_id == product_id and (date is None or p.date == date)
        ]


class Hotel(OTAProvider):
    """A hotel with its rooms per night."""

    hotel_id: str = Field(description="Hotel id.")
    hotel_name: str = Field("", description="Hotel name.")
    score: float = Field(0.0, description="Guest rating, 0–5.")
    star_rating: int = Field(0, description="Official star rating, 0–5.")
    location: Location = Field(description="Where the hotel is.")
    tags: list[str] = Field(default_factory=list, description="Descriptive tags.")
    products: list[HotelProduct] = Field(default_factory=list, description="Rooms per night.")

    @property
    def provider_id(self) -> str:
        """The hotel id."""
        return self.hotel_id

    @property
    def display_name(self) -> str:
        """The hotel name."""
        return self.hotel_name

    def items(self) -> Sequence[OTAProduct]:
        """Rooms per night."""
        return self.products

    def places(self) -> list[tuple[str, Location]]:
        """The hotel's address."""
        return [("hotel", self.location)]


class Attraction(OTAProvider):
    """An attraction with its tickets per day."""

    attraction_id: str = Field(description="Attraction id.")
    attraction_name: str = Field("", description="Attraction name.")
    location: Location = Field(description="Where the attraction is.")
    description: str = Field("", description="What the attraction is.")
    score: float = Field(0.0, description="Visitor rating, 0–5.")
    opening_hours: str = Field("", description='Opening hours, e.g. "08:30-17:00".')
    ticket_price: float = Field(0.0, description="Reference (list) ticket price in yuan.")
    products: list[AttractionProduct] = Field(default_factory=list, description="Tickets per day.")

    @property
    def provider_id(self) -> str:
        """The attraction id."""
        return self.attraction_id

    @property
    def display_name(self) -> str:
        """The attraction name."""
        return self.attraction_name

    def items(self) -> Sequence[OTAProduct]:
        """Tickets per day."""
        return self.products

    def places(self) -> list[tuple[str, Location]]:
        """The attraction's address."""
        return [("attraction", self.location)]


class Flight(OTAProvider):
    """A scheduled flight with its seats per date."""

    flight_id: str = Field(description="Flight id.")
    flight_number: str = Field("", description='Flight number, e.g. "CA1405".')
    departure_city: str = Field("", description="City of departure.")
    arrival_city: str = Field("", description="City of arrival.")
    departure_airport_location: Location | None = Field(None, description="Departure airport.")
    arrival_airport_location: Location | None = Field(None, description="Arrival airport.")
    departure_time: str = Field("", description="Scheduled departure time.")
    arrival_time: str = Field("", description="Scheduled arrival time.")
    tags: list[str] = Field(default_factory=list, description="Descriptive tags.")
    products: list[FlightProduct] = Field(default_factory=list, description="Seats per date.")

    @property
    def provider_id(self) -> str:
        """The flight id."""
        return self.flight_id

    @property
    def display_name(self) -> str:
        """The flight number."""
        return self.flight_number

    def items(self) -> Sequence[OTAProduct]:
        """Seats per date."""
        return self.products

    def places(self) -> list[tuple[str, Location]]:
        """Departure and arrival airports."""
        ends = (
            ("departure", self.departure_airport_location),
            ("arrival", self.arrival_airport_location),
        )
        return [(role, loc) for role, loc in ends if loc is not None]


class Train(OTAProvider):
    """A scheduled train with its seats per date."""

    train_id: str = Field(description="Train id.")
    train_number: str = Field("", description='Train number, e.g. "G1234".')
    departure_city: str = Field("", description="City of departure.")
    arrival_city: str = Field("", description="City of arrival.")
    departure_station_location: Location | None = Field(None, description="Departure station.")
    arrival_station_location: Location | None = Field(None, description="Arrival station.")
    departure_time: str = Field("", description="Scheduled departure time.")
    arrival_time: str = Field("", description="Scheduled arrival time.")
    tags: list[str] = Field(default_factory=list, description="Descriptive tags.")
    products: list[TrainProduct] = Field(default_factory=list, description="Seats per date.")

    @property
    def provider_id(self) -> str:
        """The train id."""
        return self.train_id

    @property
    def display_name(self) -> str:
        """The train number."""
        return self.train_number

    def items(self) -> Sequence[OTAProduct]:
        """Seats per date."""
        return self.products

    def places(self) -> list[tuple[str, Location]]:
        """Departure and arrival stations."""
        ends = (
            ("departure", self.departure_station_location),
            ("arrival", self.arrival_station_location),
        )
        return [(role, loc) for role, loc in ends if loc is not None]


# --------------------------------------------------------------------------------------------
# Orders
# --------------------------------------------------------------------------------------------

_TYPE_FIELDS = ("room_type", "ticket_type", "seat_type")


class OTAOrderProduct(OrderProduct):
    """One line of an OTA order: which product, for which date, how many, at what price.

    Pre-existing orders may name the product ``room_id`` / ``ticket_id`` / ``seat_id`` (the
    official product models print it that way); those keys are accepted as ``product_id``.
    """

    product_id: str = Field(
        validation_alias=AliasChoices("product_id", "room_id", "ticket_id", "seat_id"),
        description="Catalog product id (room / ticket / seat id).",
    )
    date: str = Field("", description="The date booked, YYYY-MM-DD.")
    room_type: str | None = Field(None, description="Room type (hotel orders).")
    ticket_type: str | None = Field(None, description="Ticket type (attraction orders).")
    seat_type: str | None = Field(None, description="Seat class (flight and train orders).")

    @model_serializer(mode="wrap")
    def _compact(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Leave out type fields that do not apply and an empty ``attributes``."""
        data: dict[str, Any] = handler(self)
        for key in ("name", *_TYPE_FIELDS):
            if data.get(key) is None:
                data.pop(key, None)
        if not data.get("attributes"):
            data.pop("attributes", None)
        return data

    @property
    def variant(self) -> str:
        """The room, ticket or seat type of the line ("" when unknown)."""
        return self.room_type or self.ticket_type or self.seat_type or ""


class OTAOrder(Order):
    """An order whose lines carry their date and room / ticket / seat type."""

    products: list[OTAOrderProduct] = Field(  # type: ignore[assignment]  # narrowed lines
        default_factory=list, description="Booked products, one per date."
    )


class OTADB(VitaDB):
    """The OTA database: the shared tables plus ``hotels``, ``attractions``, ``flights``, ``trains``.

    The key of each table is the provider's identity (the tools look providers up by key);
    after validation each record's own id field is set from its key.
    """

    orders: dict[str, OTAOrder] = Field(default_factory=dict)  # type: ignore[assignment]
    hotels: dict[str, Hotel] = Field(default_factory=dict)
    attractions: dict[str, Attraction] = Field(default_factory=dict)
    flights: dict[str, Flight] = Field(default_factory=dict)
    trains: dict[str, Train] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _normalise_identity(self) -> Self:
        """Set each provider's id field from its key."""
        for hid, hotel in self.hotels.items():
            hotel.hotel_id = hid
        for aid, attraction in self.attractions.items():
            attraction.attraction_id = aid
        for fid, flight in self.flights.items():
            flight.flight_id = fid
        for tid, train in self.trains.items():
            train.train_id = tid
        return self


# --------------------------------------------------------------------------------------------
# The four order kinds
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OTAKind:
    """What differs between the four OTA order kinds (used to share the tool bodies)."""

    order_type: OrderType
    table: str
    provider_field: str
    product_param: str
    variant_field: str
    label: Text

    def line(self, product: OTAProduct, quantity: int) -> OTAOrderProduct:
        """An order line for ``quantity`` of ``product`` (a copy; never the catalog object)."""
        return OTAOrderProduct.model_validate(
            {
                "product_id": product.product_id,
                "price": product.price,
                "quantity": quantity,
                "date": product.date,
                self.variant_field: product.variant,
            }
        )


HOTEL = OTAKind("hotel", "hotels", "hotel_id", "room_id", "room_type", Text("hotel", "酒店"))
ATTRACTION = OTAKind(
    "attraction",
    "attractions",
    "attraction_id",
    "ticket_id",
    "ticket_type",
    Text("attraction", "景点"),
)
FLIGHT = OTAKind("flight", "flights", "flight_id", "seat_id", "seat_type", Text("flight", "机票"))
TRAIN = OTAKind("train", "trains", "train_id", "seat_id", "seat_type", Text("train", "火车票"))

#: The four kinds, by order type (read-only).
KINDS: Mapping[str, OTAKind] = MappingProxyType(
    {k.order_type: k for k in (HOTEL, ATTRACTION, FLIGHT, TRAIN)}
)

#: Order types of the OTA domain.
OTA_ORDER_TYPES: frozenset[str] = frozenset(KINDS)

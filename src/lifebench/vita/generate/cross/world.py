"""The shared world of a cross-scenario task: one user, one clock, one set of names and addresses.

The three domain generators each work on their own ``Context``; a cross-scenario task builds the
three contexts over the same :class:`~lifebench.vita.generate.world.Persona`, clock,
``random.Random``, set of provider names (unique across every table) and address books (one per
city, so that no two addresses of the task coincide). The delivery and in-store catalogs are
city-aware: a store or shop placed around an anchor in another city (the booked hotel on a trip)
gets a street address of that city.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime

from lifebench.vita.domains._geo import haversine_m
from lifebench.vita.generate.delivery import text as delivery_text
from lifebench.vita.generate.delivery.catalog import Catalog as DeliveryCatalogBase
from lifebench.vita.generate.delivery.context import PERIODS
from lifebench.vita.generate.delivery.context import Context as DeliveryContext
from lifebench.vita.generate.instore.catalog import Catalog as InStoreCatalogBase
from lifebench.vita.generate.instore.context import Context as InStoreContext
from lifebench.vita.generate.instore.context import user_places
from lifebench.vita.generate.ota.context import Context as OTAContext
from lifebench.vita.generate.pools.people import RESTRICTIONS
from lifebench.vita.generate.pools.places import CITIES, City
from lifebench.vita.generate.protocol import TaskSpec
from lifebench.vita.generate.world import (
    AddressBook,
    Persona,
    Place,
    make_persona,
    pick,
    place_around,
    random_day,
    random_moment,
    weighted,
)

PERIOD_WEIGHTS: tuple[tuple[str, float], ...] = (
    ("breakfast", 0.1),
    ("lunch", 0.3),
    ("afternoon", 0.25),
    ("dinner", 0.25),
    ("night", 0.1),
)
"""How often the task clock falls in each delivery meal period."""

RESTRICTION_RATE = 0.6
"""Share of users with a dietary restriction (delivery uses 0.8, OTA 0.3)."""


@dataclass(frozen=True)
class Products:
    """Products per provider in each domain."""

    delivery: int
    instore: int
    ota: int


@dataclass
class Atlas:
    """Address books by city, shared by every domain of the task.

    ``books`` is the very dict the OTA context uses, so hotels, attractions, stores and shops
    of one city never share a street address.
    """

    rng: random.Random
    books: dict[str, AddressBook]

    def book(self, city: City) -> AddressBook:
        """The address book of ``city`` (created on first use)."""
        key = city.name.en
        if key not in self.books:
            self.books[key] = AddressBook(self.rng, city)
        return self.books[key]

    def near(self, place: Place) -> AddressBook:
        """The address book of the city whose centre is closest to ``place``."""
        city = min(
            CITIES,
            key=lambda c: haversine_m(c.longitude, c.latitude, place.longitude, place.latitude),
        )
        return self.book(city)


@dataclass
class DeliveryCatalog(DeliveryCatalogBase):
    """The delivery catalog, placing stores with addresses of the anchor's city."""

    atlas: Atlas = field(kw_only=True)

    def around(self, anchor: Place, lo_m: float, hi_m: float) -> Place:
        """A shop address of the anchor's city between ``lo_m`` and ``hi_m`` metres away."""
        return place_around(self.rng, anchor, self.atlas.near(anchor).shop(), lo_m, hi_m)


@dataclass
class InStoreCatalog(InStoreCatalogBase):
    """The in-store catalog, placing shops with addresses of the anchor's city."""

    atlas: Atlas = field(kw_only=True)

    def around(self, anchor: Place, lo_m: float, hi_m: float) -> Place:
        """A shop address of the anchor's city between ``lo_m`` and ``hi_m`` metres away."""
        return place_around(self.rng, anchor, self.atlas.near(anchor).shop(), lo_m, hi_m)


@dataclass
class World:
    """The user, the clock and the three domain contexts of one task.

    ``where`` is where the user is now (``home`` or ``work``); ``period`` the delivery meal
    period of the clock. Order and record ids get a domain letter (``-D``, ``-I``, ``-V``) after
    the task id, so the ids of the three domains never collide.
    """

    rng: random.Random
    task_id: str
    persona: Persona
    now: datetime
    period: str
    weekend: bool
    where: str
    atlas: Atlas
    names: set[str]
    delivery: DeliveryContext
    instore: InStoreContext
    ota: OTAContext

    @property
    def home(self) -> City:
        """The user's city."""
        return self.persona.city

    def relatives(self) -> delivery_text.UserPlace:
        """The third delivery address (a relative's or friend's home), made on first use."""
        places = self.delivery.places
        if "other" not in places:
            persona = self.persona
            book = self.atlas.book(persona.city)
            other = place_around(self.rng, persona.home, book.home(), 2000, 7000)
            while persona.work.metres_to(other.longitude, other.latitude) < 1500:
                other = place_around(self.rng, persona.home, other.address, 2000, 7000)
            places["other"] = delivery_text.other_place(
                other, pick(self.rng, delivery_text.OTHER_PLACES)
            )
        return places["other"]


def make_world(spec: TaskSpec, rng: random.Random, products: Products) -> World:
    """Persona, clock, where the user is, and the three empty domain contexts."""
    persona, book = make_persona(rng, RESTRICTIONS, restriction_rate=RESTRICTION_RATE)
    day = random_day(rng)
    period = weighted(rng, PERIOD_WEIGHTS)
    _, start, end = next(p for p in PERIODS if p[0] == period)
    now = random_moment(rng, day, start, end)
    weekend = day.weekday() >= 5
    if weekend or period == "night":
        where = "home"
    elif period == "dinner":
        where = "work" if rng.random() < 0.3 else "home"
    elif period == "breakfast":
        where = pick(rng, ("home", "work"))
    else:
        where = "work"
    names: set[str] = set()
    atlas = Atlas(rng, {persona.city.name.en: book})
    places = {
        "home": delivery_text.home_place(persona.home),
        "work": delivery_text.work_place(persona.work),
    }
    delivery = DeliveryContext(
        rng,
        f"{spec.task_id}-D",
        persona,
        DeliveryCatalog(rng, book, products.delivery, names, atlas=atlas),
        now,
        period,
        weekend,
        places,
        where,
    )
    instore = InStoreContext(
        rng,
        f"{spec.task_id}-I",
        persona,
        InStoreCatalog(rng, book, products.instore, names, atlas=atlas),
        now,
        user_places(persona),
        where,
    )
    ota = OTAContext(
        rng, f"{spec.task_id}-V", persona, now, products.ota, names=names, books=atlas.books
    )
    ota.cities.append(persona.city)
    return World(
        rng=rng,
        task_id=spec.task_id,
        persona=persona,
        now=now,
        period=period,
        weekend=weekend,
        where=where,
        atlas=atlas,
        names=names,
        delivery=delivery,
        instore=instore,
        ota=ota,
    )

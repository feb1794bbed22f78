"""The state shared by the sub-goals of one OTA task, and the sub-goal base classes."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, ClassVar

from lifebench.vita.domains._geo import haversine_m
from lifebench.vita.generate.ota.dates import When
from lifebench.vita.generate.ota.model import Booking, ProductDraft, Provider, TransportDraft
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.places import CITIES, City
from lifebench.vita.generate.pools.travel import HUBS
from lifebench.vita.generate.world import AddressBook, Persona

if TYPE_CHECKING:
    from lifebench.vita.generate.ota.catalog import Catalog


def city_km(a: City, b: City) -> float:
    """Distance between two city centres in kilometres."""
    return haversine_m(a.longitude, a.latitude, b.longitude, b.latitude) / 1000


def has_airport(city: City) -> bool:
    """Whether the city has an airport of its own."""
    return HUBS[city.name.en].airport is not None


def can_fly(a: City, b: City) -> bool:
    """Whether a flight between the two cities makes sense (both airports, ≥ 600 km apart)."""
    return has_airport(a) and has_airport(b) and city_km(a, b) >= 600


def can_ride(a: City, b: City) -> bool:
    """Whether a train between the two cities makes sense (150–1,300 km apart)."""
    return 150 <= city_km(a, b) <= 1300


@dataclass(frozen=True)
class Trip:
    """The trip the selection sub-goals share: destination, first day, and an onward leg.

    ``onward`` (with ``onward_when``) is a second city reached by train from ``city`` when the
    task has both a flight and a train to book.
    """

    city: City
    when: When
    purpose: Bi
    onward: City | None = None
    onward_when: When | None = None


@dataclass
class Context:
    """Everything the sub-goals of one task share.

    ``cities`` are the cities claimed so far (the home city first): a sub-goal about existing
    orders takes a city no other sub-goal uses, so that no provider of one sub-goal can satisfy
    another's constraints. ``products`` is the number of dated products per provider.
    """

    rng: random.Random
    task_id: str
    persona: Persona
    now: datetime
    products: int
    trip: Trip | None = None
    cities: list[City] = field(default_factory=list)
    names: set[str] = field(default_factory=set)
    numbers: set[str] = field(default_factory=set)
    books: dict[str, AddressBook] = field(default_factory=dict)
    _serial: int = 0

    @property
    def today(self) -> date:
        """The task date."""
        return self.now.date()

    @property
    def home(self) -> City:
        """The user's city."""
        return self.persona.city

    def book(self, city: City) -> AddressBook:
        """The address book of ``city`` (distinct street addresses within the task)."""
        key = city.name.en
        if key not in self.books:
            self.books[key] = AddressBook(self.rng, city)
        return self.books[key]

    def claim(self, name: Bi) -> bool:
        """Reserve a provider name; False if one is taken already (in either language)."""
        if name.en in self.names or name.zh in self.names:
            return False
        self.names.update((name.en, name.zh))
        return True

    def order_id(self, kind: str) -> str:
        """A fresh order id: ``<task>-O01`` for pre-existing orders, ``-T01`` for new ones."""
        self._serial += 1
        return f"{self.task_id}-{kind}{self._serial:02d}"

    def free_cities(self, ok: Any = None) -> list[City]:
        """Unclaimed cities (passing ``ok(city)`` when given), in pool order."""
        taken = {c.name.en for c in self.cities}
        return [c for c in CITIES if c.name.en not in taken and (ok is None or ok(c))]

    def take_city(self, ok: Any = None) -> City | None:
        """Claim a random unclaimed city passing ``ok`` (None when there is none)."""
        free = self.free_cities(ok)
        if not free:
            return None
        city = free[self.rng.randrange(len(free))]
        self.cities.append(city)
        return city

    def other_city(self, *avoid: City) -> City:
        """A random city no sub-goal claimed (else any but ``avoid``): for wrong-city
        distractors, which must not land in another sub-goal's city."""
        names = {c.name.en for c in avoid}
        options = self.free_cities() or [c for c in CITIES if c.name.en not in names]
        return options[self.rng.randrange(len(options))]


class Goal:
    """One sub-goal of an OTA task.

    Lifecycle: constructed with the context (choosing its parameters), :meth:`build` makes its
    providers given the distractor roles it was granted, ids are assigned, then the render
    methods produce orders, expected states, instruction text and rubrics.
    """

    kind: ClassVar[str] = ""

    def __init__(self, index: int, ctx: Context) -> None:
        """Remember the index; sub-classes draw their parameters from ``ctx``."""
        del ctx  # sub-classes draw their parameters from it
        self.index = index
        self.problems: list[str] = []

    # ---- provider budget ---------------------------------------------------------------------

    @property
    def core(self) -> int:
        """Providers the sub-goal cannot do without."""
        return 1

    def optional_roles(self) -> list[str]:
        """Distractor providers worth adding, most useful first."""
        return []

    def extra_roles(self) -> list[str]:
        """Roles cycled through when the task has providers to spare (empty: none wanted)."""
        return []

    def build(self, cat: Catalog, roles: list[str]) -> list[Provider]:
        """The sub-goal's providers (made with ``cat``): the core ones plus one per granted
        role."""
        raise NotImplementedError

    # ---- rendering ---------------------------------------------------------------------------

    def preexisting(self) -> list[Booking]:
        """Orders that exist before the conversation starts."""
        return []

    def expected(self) -> list[Booking]:
        """The required orders of the sub-goal's expected state."""
        raise NotImplementedError

    def instruction(self, ctx: Context) -> Bi:
        """The sub-goal's part of the instruction (whole sentences)."""
        raise NotImplementedError

    def rubrics(self, ctx: Context) -> list[Bi]:
        """The sub-goal's rubrics."""
        raise NotImplementedError

    def weather(self) -> list[tuple[City, date]]:
        """(city, day) pairs whose weather the task lists."""
        return []

    def check(self, ctx: Context, providers: list[Provider]) -> list[str]:
        """Self-check against the finished world (empty: fine)."""
        return list(self.problems)


class SelectionGoal(Goal):
    """Book something under constraints among targets and distractors.

    Sub-classes set ``table`` and implement :meth:`violations`; the providers they build hold
    1–2 targets meeting every constraint (``targets``, winner first, told apart by ``tie``) and
    distractors whose ``role`` names the one constraint they break.
    """

    table: ClassVar[type[Provider]]

    def __init__(self, index: int, ctx: Context) -> None:
        """No targets yet; a fresh order id; created at the task clock."""
        super().__init__(index, ctx)
        self.targets: list[tuple[Provider, ProductDraft]] = []
        self.tie = "none"
        self.quantity = 1
        self.pays = True
        self.order_id = ctx.order_id("T")
        self.created: datetime = ctx.now

    def violations(self, provider: Provider, product: ProductDraft) -> list[str]:
        """The constraints ``product`` of ``provider`` breaks (empty: a valid option)."""
        raise NotImplementedError

    @property
    def winner(self) -> tuple[Provider, ProductDraft]:
        """The option the expected state holds."""
        return self.targets[0]

    def expected(self) -> list[Booking]:
        """The new order (paid, or only created)."""
        provider, product = self.winner
        return [
            Booking(
                self.order_id,
                provider,
                product,
                self.quantity,
                "paid" if self.pays else "unpaid",
                self.created,
            )
        ]

    def tie_key(self, provider: Provider, product: ProductDraft) -> float:
        """Smaller is better under the tie-break rule."""
        if self.tie == "price":
            return float(product.price)
        if self.tie == "rating":
            return -float(getattr(provider, "score", 0.0))
        if self.tie == "earliest" and isinstance(provider, TransportDraft):
            return float(provider.depart)
        return 0.0

    def best(self, fits: Sequence[tuple[Provider, ProductDraft]]) -> ProductDraft | None:
        """The unique best option by the tie-break rule (None on a tie or without a rule)."""
        if self.tie == "none" or not fits:
            return None
        ranked = sorted(fits, key=lambda f: self.tie_key(*f))
        if len(ranked) > 1 and self.tie_key(*ranked[0]) == self.tie_key(*ranked[1]):
            return None
        return ranked[0][1]

    def check(self, ctx: Context, providers: list[Provider]) -> list[str]:
        """Exactly the targets fit; the tie-break picks the winner; each own distractor has an
        option breaking exactly its role's constraint; the winner's provider has another
        bookable product that day (the distractor oracle's near miss)."""
        problems = super().check(ctx, providers)
        tag = f"sub-goal {self.index} ({self.kind})"
        fits = [
            (pv, p)
            for pv in providers
            if isinstance(pv, self.table)
            for p in pv.products
            if not self.violations(pv, p)
        ]
        if {id(p) for _, p in fits} != {id(p) for _, p in self.targets}:
            names = sorted(f"{pv.title.en}/{p.variant.key}@{p.day}" for pv, p in fits)
            problems.append(f"{tag}: options meeting every constraint: {names}")
        elif len(fits) > 1 and self.best(fits) is not self.winner[1]:
            problems.append(f"{tag}: the tie-break does not pick the winner")
        for pv in providers:
            if pv.owner != self.index or pv.role == "target" or not isinstance(pv, self.table):
                continue
            singles = {v[0] for p in pv.products if len(v := self.violations(pv, p)) == 1}
            if pv.role not in singles:
                problems.append(f"{tag}: distractor {pv.title.en} ({pv.role}) breaks {singles}")
        provider, product = self.winner
        if not any(
            p is not product and p.day == product.day and p.quantity >= self.quantity
            for p in provider.products
        ):
            problems.append(f"{tag}: no near miss next to the target")
        return problems

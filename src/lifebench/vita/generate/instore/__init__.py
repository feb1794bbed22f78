"""The in-store task generator.

Sub-goal kinds: ``buy`` (a voucher, set meal or service package of a given type under category,
distance, rating, price, dietary / feature and stock constraints, paid; sometimes followed by a
table booking or appointment at the same shop), ``book_table`` (a table at a restaurant that
takes bookings, paying the fee), ``reserve_service`` (an appointment at a service shop),
``same_as_last`` (buy again what the history shows, past a look-alike shop),
``modify_reservation`` (move an existing appointment and/or change its party size) and
``cancel_existing`` (cancel an existing order, table booking or appointment). Every task has at
least one sub-goal that creates a record.
"""

from lifebench.vita.generate.instore.generator import GOAL_KINDS, InStoreGenerator

__all__ = ["GOAL_KINDS", "InStoreGenerator"]

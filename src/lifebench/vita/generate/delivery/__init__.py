"""The delivery task generator.

Sub-goal kinds: ``constrained`` (a dish under category, distance or arrival deadline, rating,
price and dietary constraints), ``same_as_last`` (reorder from the history, past a look-alike
store), ``group_order`` (quantities under a total budget), ``cancel_reorder`` (cancel an order
on its way and order again), ``change_note`` (change the note of an order on its way) and
``create_unpaid`` (create an order without paying).
"""

from lifebench.vita.generate.delivery.generator import GOAL_KINDS, DeliveryGenerator

__all__ = ["GOAL_KINDS", "DeliveryGenerator"]

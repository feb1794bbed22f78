"""VitaBench domain environments built on the lifebench tool core.

Only the delivery domain exists so far. Each environment is a fresh, isolated object built
from one task (``DeliveryEnvironment(task, language)``); see docs/compat.md for every
deliberate difference from the official harness.
"""

from lifebench.vita.domains.common import (
    Location,
    Order,
    OrderProduct,
    OrderStatus,
    OrderType,
    SharedTools,
    VitaDB,
    Weather,
)
from lifebench.vita.domains.delivery import DeliveryDB, DeliveryEnvironment, Store, StoreProduct

__all__ = [
    "DeliveryDB",
    "DeliveryEnvironment",
    "Location",
    "Order",
    "OrderProduct",
    "OrderStatus",
    "OrderType",
    "SharedTools",
    "Store",
    "StoreProduct",
    "VitaDB",
    "Weather",
]

"""Distance and delivery-time arithmetic shared by the VitaBench domains."""

from __future__ import annotations

from math import asin, cos, radians, sin, sqrt

#: Earth radius used by the official harness for its haversine distance, in metres.
EARTH_RADIUS_M = 6_371_000.0

#: Delivery time model of the official harness: a fixed base plus a per-metre rate.
DELIVERY_BASE_MINUTES = 25.0
DELIVERY_MINUTES_PER_METRE = 0.00651


def haversine_m(lon1: float, lat1: float, lon2: float, lat2: float) -> int:
    """Great-circle distance between two points in whole metres (rounded)."""
    p1, p2 = radians(lat1), radians(lat2)
    d_lat, d_lon = p2 - p1, radians(lon2 - lon1)
    h = sin(d_lat / 2) ** 2 + cos(p1) * cos(p2) * sin(d_lon / 2) ** 2
    return round(2 * EARTH_RADIUS_M * asin(min(1.0, sqrt(h))))


def delivery_minutes(distance_m: float) -> int:
    """Rider travel time in whole minutes for ``distance_m`` metres (e.g. 2,000 m → 38).

    The distance is truncated to whole metres before the rate is applied, as in the official
    harness: ``round(25 + 0.00651 · int(distance))``.
    """
    return round(DELIVERY_BASE_MINUTES + DELIVERY_MINUTES_PER_METRE * int(distance_m))


def valid_coordinates(longitude: float, latitude: float) -> bool:
    """Whether the pair lies within the WGS-84 ranges (|lon| ≤ 180, |lat| ≤ 90)."""
    return -180.0 <= longitude <= 180.0 and -90.0 <= latitude <= 90.0

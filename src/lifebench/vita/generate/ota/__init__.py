"""The OTA task generator (hotels, attractions, flights, trains).

Sub-goal kinds: ``hotel`` (one night under rating, star, facility, bed and price constraints,
available that night), ``attraction`` (N tickets of a ticket type for an attraction of a kind on
a date), ``flight`` and ``train`` (N seats of a class on a route and date, in a departure
window, under a price), ``usual_hotel`` (the hotel of the last stay from the booking history,
past a look-alike), ``change_date`` (move a paid flight / train order to another date, paying or
refunding the difference) and ``cancel`` (cancel one of two paid hotel / attraction bookings,
sometimes booking again for another date). Dates are given absolutely, relative to today ("this
Saturday", "the day after tomorrow") or as a festival that ``get_holiday_date`` resolves.

Every constrained sub-goal has 1–2 targets meeting every constraint (a tie-break rule picks one)
and distractors breaking exactly one; stock is per date, so "sold out that night" is real.
"""

from lifebench.vita.generate.ota.generator import GOAL_KINDS, OTAGenerator

__all__ = ["GOAL_KINDS", "OTAGenerator"]

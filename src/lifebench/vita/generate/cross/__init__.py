"""The cross-scenario task generator: sub-goals of two or three domains in one story.

A task has one user, one clock, one set of places and one environment holding every domain's
tables (``stores``; ``shops``, ``books``, ``reservations``; ``hotels``, ``attractions``,
``flights``, ``trains``; one ``orders`` table with pre-existing orders of several types). Its
sub-goals are the delivery, in-store and OTA generators' own, composed by a story
(:mod:`lifebench.vita.generate.cross.stories`: ``trip``, ``outing``, ``visit``, ``errands``) and
tied together where the story makes that checkable: a delivery to the hotel the task books, a
table within a distance of the booked hotel or the visited attraction, treats delivered to the
booked restaurant at the meal, a train or flight that must arrive an hour before the day's
plans. ``--subgoals`` counts sub-goals across domains (2–6); ``--providers`` is split between
the domains (each gets its core providers first); ``--products`` applies to every provider.

Certification runs the ``cross`` environment, oracle planner and state evaluator.
"""

from lifebench.vita.generate.cross.generator import CrossGenerator, TaskBuilder
from lifebench.vita.generate.cross.stories import STORIES

__all__ = ["STORIES", "CrossGenerator", "TaskBuilder"]

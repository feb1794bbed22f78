"""Cross-scenario stories: who visits, what a day out is for, and which food fits a delivery.

Only the text a cross-scenario task adds on top of the domain pools lives here: the relatives a
"family visit" story brings to the user's city, the purposes of a family day out, and the food
categories a delivery to a booked restaurant may be about (treats and drinks for the table).
"""

from __future__ import annotations

from dataclasses import dataclass

from lifebench.vita.generate.pools._bi import Bi


@dataclass(frozen=True)
class Guests:
    """Relatives coming to visit.

    Attributes:
        who: How the user calls them ("your aunt", "你姑姑").
        count: How many travel (seats to book).
        rubric: Third-person form for rubrics ("the user's aunt", "用户的姑姑").
    """

    who: Bi
    count: int
    rubric: Bi


GUESTS: tuple[Guests, ...] = (
    Guests(Bi("your aunt", "你姑姑"), 1, Bi("the user's aunt", "用户的姑姑")),
    Guests(Bi("your uncle", "你舅舅"), 1, Bi("the user's uncle", "用户的舅舅")),
    Guests(Bi("your cousin", "你表妹"), 1, Bi("the user's cousin", "用户的表妹")),
    Guests(Bi("your parents", "你爸妈"), 2, Bi("the user's parents", "用户的父母")),
    Guests(Bi("your grandparents", "你爷爷奶奶"), 2, Bi("the user's grandparents", "用户的爷爷奶奶")),
    Guests(Bi("your parents-in-law", "你岳父岳母"), 2, Bi("the user's parents-in-law", "用户的岳父岳母")),
    Guests(Bi("your aunt and uncle", "你姑姑姑父"), 2, Bi("the user's aunt and uncle", "用户的姑姑姑父")),
    Guests(Bi("your sister and her two kids", "你姐姐和她的两个孩子"), 3,
           Bi("the user's sister and her two kids", "用户的姐姐和她的两个孩子")),
)  # fmt: skip
"""Who comes to visit, with how many seats they need."""

OUTING_PURPOSES: tuple[Bi, ...] = (
    Bi("to celebrate your child's birthday", "给孩子过生日"),
    Bi("because the kids are on holiday", "趁孩子放假"),
    Bi("to take your parents out", "陪父母出去走走"),
    Bi("to make the most of a free day", "难得有空"),
)
"""Why the user plans a family day out (completes "You're planning a family day out …")."""

TREAT_CATEGORIES: tuple[str, ...] = ("desserts", "milk_tea", "coffee")
"""Food categories (keys of :data:`lifebench.vita.generate.pools.food.CATEGORIES`) a delivery to
a booked restaurant may be about: something for everyone at the table."""

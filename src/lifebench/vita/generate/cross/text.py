"""Instruction and rubric templates of the cross-scenario generator (English and Chinese).

The domain sub-goals keep their own templates; this module adds what ties them into one story:
the opening, the story introductions, the phrases for places another sub-goal books (the hotel,
the restaurant, the attraction) and the cross-domain rubrics. Every function returns a
:class:`Bi`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType

from lifebench.vita.generate.ota.dates import When
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.world import WEEKDAYS, clock, day_text


def join(parts: list[Bi]) -> Bi:
    """Sentences joined into a paragraph."""
    return Bi(" ".join(p.en for p in parts if p.en), "".join(p.zh for p in parts))


def also(text: Bi) -> Bi:
    """The same sentences introduced as a further request."""
    return Bi("Also, " + text.en[:1].lower() + text.en[1:], "另外，" + text.zh)


def capital(text: str) -> str:
    """``text`` with its first letter in upper case."""
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------------------------------------
# Opening and story introductions
# --------------------------------------------------------------------------------------------

_WHERE: Mapping[str, Bi] = MappingProxyType(
    {"home": Bi("at home", "在家"), "work": Bi("at the office", "在公司")}
)


def situation(now: datetime, where: str, city: Bi, weather: Bi | None) -> Bi:
    """Day, time, weather if it matters, where the user is and in which city."""
    weekday, day = WEEKDAYS[now.weekday()], day_text(now.date())
    extra = Bi("", "") if weather is None else Bi(f", and {weather.en}", f"，{weather.zh}")
    at = _WHERE[where]
    return Bi(
        f"It's {weekday.en}, {day.en}, around {clock(now)}{extra.en}. You're {at.en} in {city.en}.",
        f"今天是{day.zh}{weekday.zh}，现在{clock(now)}左右{extra.zh}。你在{city.zh}，此刻{at.zh}。",
    )


def trip_intro(purpose: Bi, city: Bi, when: When) -> Bi:
    """A trip: where, when and why; the user wants it all arranged in one go."""
    return Bi(
        f"You're going to {city.en} {when.adverb.en} for {purpose.en}, and you want to sort out "
        f"everything for that day with the assistant now.",
        f"你{when.adverb.zh}要去{city.zh}{purpose.zh}，想现在就让助手把那天的事情一起安排好。",
    )


def outing_intro(purpose: Bi, when: When) -> Bi:
    """A family day out in the user's city."""
    return Bi(
        f"You're planning a family day out {when.adverb.en} {purpose.en}.",
        f"你打算{when.adverb.zh}{purpose.zh}，带家人出去玩一天。",
    )


def visit_intro(guests: Bi, origin: Bi, city: Bi, when: When) -> Bi:
    """Relatives coming to the user's city."""
    return Bi(
        f"{capital(guests.en)} will come from {origin.en} to {city.en} {when.adverb.en} to see "
        f"the family, and you're arranging the day.",
        f"{guests.zh}{when.adverb.zh}要从{origin.zh}来{city.zh}看望你们，你来安排这一天。",
    )


ERRANDS_INTRO = Bi(
    "You have several things to sort out with the assistant today.",
    "今天你有几件事要找助手一起处理。",
)
"""Introduction of a task made of independent requests."""

CLOSING = Bi(
    "If the assistant asks about other preferences, you have none.",
    "如果助手问到其他偏好，你都没有特别要求。",
)
"""Last sentence of every instruction."""


# --------------------------------------------------------------------------------------------
# Places that another sub-goal books
# --------------------------------------------------------------------------------------------


def hotel_to(city: Bi) -> Bi:
    """Delivery destination / distance reference: the hotel of the trip."""
    return Bi(f"the hotel you're booking in {city.en}", f"你这次在{city.zh}订的酒店")


def hotel_rubric(name: Bi) -> Bi:
    """The booked hotel in rubrics."""
    return Bi(f"the booked hotel {name.en}", f"预订的酒店{name.zh}")


RESTAURANT_TO = Bi("the restaurant you're booking", "你订的那家餐厅")
"""Delivery destination: the restaurant the task books."""


def restaurant_rubric(name: Bi) -> Bi:
    """The booked restaurant in rubrics."""
    return Bi(f"the booked restaurant {name.en}", f"预订的餐厅{name.zh}")


def attraction_of(word: Bi) -> Bi:
    """Distance reference: the attraction of the outing."""
    return Bi(f"the {word.en.lower()} you're visiting", f"你们要去的那家{word.zh}")


def attraction_rubric(name: Bi) -> Bi:
    """The visited attraction in rubrics."""
    return Bi(f"the attraction {name.en} booked in this task", f"本次预订门票的景点{name.zh}")


def station_of(guests: Bi) -> Bi:
    """Distance reference: the railway station the guests arrive at."""
    return Bi(f"the railway station {guests.en} arrive at", f"{guests.zh}到达的火车站")


def station_rubric(address: Bi) -> Bi:
    """The arrival station in rubrics."""
    return Bi(f"the arrival station ({address.en})", f"到达的火车站（{address.zh}）")


# --------------------------------------------------------------------------------------------
# Scheduled deliveries and guests' tickets
# --------------------------------------------------------------------------------------------

AFTER_CHECK_IN = Bi("That evening, once you've checked in,", "那天晚上入住之后，")
"""Lead of an evening delivery to the hotel."""
NEXT_MORNING = Bi("The next morning, before you check out,", "第二天早上退房之前，")
"""Lead of a breakfast delivery to the hotel."""
FOR_THE_TABLE = Bi("For everyone at the table that day,", "当天为了让大家在饭桌上吃得开心，")
"""Lead of a delivery to the booked restaurant."""


def that_day(moment: datetime) -> Bi:
    """ "that day at 18:30" / "当天18:30": a time on the day the story is about."""
    return Bi(f"that day at {clock(moment)}", f"当天{clock(moment)}")


def portions_of(quantity: int, item: Bi) -> Bi:
    """ "3 portions of the same milk tea" / "3份同样的奶茶"."""
    return Bi(f"{quantity} portions of the same {item.en}", f"{quantity}份同样的{item.zh}")


def scheduled(lead: Bi, what: Bi, to: Bi, when: datetime) -> Bi:
    """What to deliver where, arriving around a time of the day ``lead`` speaks of."""
    return Bi(
        f"{lead.en} you'd like {what.en} delivered to {to.en}, arriving around {clock(when)}.",
        f"{lead.zh}你想点{what.zh}，{clock(when)}左右送到{to.zh}。",
    )


def meal_word(moment: datetime) -> Bi:
    """ "lunch" / "dinner" by the hour."""
    return Bi("lunch", "午饭") if moment.hour < 15 else Bi("dinner", "晚饭")


def guests_who(guests: Bi) -> Bi:
    """Who travels on the guests' tickets."""
    return Bi(f"for {guests.en}", f"乘客是{guests.zh}")


def in_time(guests: Bi, moment: datetime) -> Bi:
    """Why the guests' train or flight must leave early enough."""
    meal = meal_word(moment)
    return Bi(
        f"They need to arrive in time for the family {meal.en} at {clock(moment)}.",
        f"他们要赶上{clock(moment)}的家庭{meal.zh}。",
    )


def arrive_for(moment: datetime) -> Bi:
    """Why the user's own train or flight must leave early enough."""
    return Bi(
        f"You need to be there in time for your plans at {clock(moment)} that day.",
        f"你要赶上当天{clock(moment)}的安排。",
    )


def meal_lead(moment: datetime, after_visit: bool) -> Bi:
    """Lead of a family meal booking."""
    meal = meal_word(moment)
    if after_visit:
        return Bi(
            f"The family will have {meal.en} together near the attraction that day.",
            f"当天一家人要在景点附近一起吃{meal.zh}。",
        )
    return Bi(f"Everyone will have {meal.en} together that day.", f"当天大家要一起吃{meal.zh}。")


# --------------------------------------------------------------------------------------------
# Cross-domain rubrics
# --------------------------------------------------------------------------------------------


def r_delivered_to(store: Bi, anchor: Bi) -> Bi:
    """The delivery goes to the place another sub-goal booked."""
    return Bi(
        f"The order at {store.en} must be delivered to the address of {anchor.en}",
        f"{store.zh}的订单必须送到{anchor.zh}的地址",
    )


def r_guests(number: str, guests: Bi, quantity: int) -> Bi:
    """The guests' tickets."""
    seats = "seat" if quantity == 1 else "seats"
    return Bi(
        f"The {quantity} {seats} on {number} must be booked for {guests.en}",
        f"{number}的{quantity}个座位是给{guests.zh}订的",
    )


def r_arrives(number: str, arrival: str, moment: datetime) -> Bi:
    """The chosen train or flight arrives before the plans of the day."""
    return Bi(
        f"{number} arrives at {arrival}, before the plans at {clock(moment)}",
        f"{number}于{arrival}到达，早于{clock(moment)}的安排",
    )

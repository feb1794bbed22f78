"""Instruction and rubric templates of the in-store generator (English and Chinese in parallel).

Instructions speak to the user in the second person; rubrics follow the official style ("The
shop must be within 3 km of …", "The booking must be for 4 people at …"). Every function returns
a :class:`Bi`. Sentence helpers are shared with the delivery generator.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType

from lifebench.vita.generate.delivery.text import also, join, sentence
from lifebench.vita.generate.instore.model import num
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.instore import Kind, ShopCategory
from lifebench.vita.generate.world import WEEKDAYS, clock, day_text, fmt_time

__all__ = ["also", "join", "sentence"]

RECORD_NOUNS: Mapping[str, Bi] = MappingProxyType(
    {
        "order": Bi("Order", "订单"),
        "book": Bi("Booking", "订座"),
        "reservation": Bi("Reservation", "预约"),
    }
)
"""Capitalised record nouns of rubrics, by record kind."""


# --------------------------------------------------------------------------------------------
# Situation and times
# --------------------------------------------------------------------------------------------

_WHERE: Mapping[str, Bi] = MappingProxyType(
    {"home": Bi("at home", "在家"), "work": Bi("at the office", "在公司")}
)


def situation(now: datetime, where: str, weather: Bi | None) -> Bi:
    """The opening: day, time, where the user is and the weather if it matters."""
    weekday, day = WEEKDAYS[now.weekday()], day_text(now.date())
    extra = Bi("", "") if weather is None else Bi(f", and {weather.en}", f"，{weather.zh}")
    at = _WHERE[where]
    return Bi(
        f"It's {weekday.en}, {day.en}, around {clock(now)}{extra.en}. You're {at.en}.",
        f"今天是{day.zh}{weekday.zh}，现在{clock(now)}左右{extra.zh}。你{at.zh}。",
    )


def weather_remark(category: str, high: int) -> Bi | None:
    """A remark on today's weather when it is worth one."""
    if category in ("rainy", "showers"):
        return Bi("it's raining outside", "外面在下雨")
    if high >= 32:
        return Bi("it's scorching outside", "外面很热")
    if high <= 3:
        return Bi("it's freezing outside", "外面很冷")
    return None


def when(now: datetime, moment: datetime) -> Bi:
    """ "today at 18:30", "tomorrow (Saturday, June 8) at 18:30", "on Monday, June 10 at 10:00"."""
    days = (moment.date() - now.date()).days
    weekday, day, hhmm = WEEKDAYS[moment.weekday()], day_text(moment.date()), clock(moment)
    if days == 0:
        return Bi(f"today at {hhmm}", f"今天{hhmm}")
    if days == 1:
        return Bi(
            f"tomorrow ({weekday.en}, {day.en}) at {hhmm}", f"明天（{day.zh}，{weekday.zh}）{hhmm}"
        )
    return Bi(f"on {weekday.en}, {day.en} at {hhmm}", f"{day.zh}（{weekday.zh}）{hhmm}")


def party(people: int) -> Bi:
    """ "1 person" / "4 people"; "1人" / "4人"."""
    return Bi("1 person" if people == 1 else f"{people} people", f"{people}人")


def who(people: int, category: ShopCategory, rubric: bool = False) -> tuple[Bi, str, str]:
    """Whom an appointment is for, as (English "for 3 people" / "for your car", Chinese text
    before the verb, Chinese text after the clause): ("", "，共3人") or ("给你的爱车", "").
    ``rubric`` speaks of "the user" instead of "you"."""
    solo = category.solo
    if solo is None:
        return Bi(f"for {party(people).en}", ""), "", f"，共{party(people).zh}"
    owner = Bi("the user's", "用户的") if rubric else Bi("your", "你的")
    return Bi(f"for {owner.en} {solo.en}", ""), f"给{owner.zh}{solo.zh}", ""


# --------------------------------------------------------------------------------------------
# Selection sub-goals
# --------------------------------------------------------------------------------------------


def units(kind: Kind, quantity: int) -> Bi:
    """ "a hotpot set for two"; "a yoga trial class for each of the 3 of you (3 in total)"."""
    if quantity == 1:
        return kind.one
    return Bi(
        f"{kind.one.en} for each of the {quantity} of you ({quantity} in total)",
        f"{quantity}份{kind.item.zh}（每人一份）",
    )


def want_buy(kind: Kind, quantity: int, category: ShopCategory) -> Bi:
    """ "You want to buy a hotpot set for two at a hotpot restaurant."""
    what = units(kind, quantity)
    return Bi(
        f"You want to buy {what.en} at {category.one.en}.",
        f"你想在{category.one.zh}买{what.zh}。",
    )


def want_book(people: int, category: ShopCategory, moment: Bi) -> Bi:
    """ "You want to book a table for 4 people at a hotpot restaurant tomorrow … at 18:30."""
    who = party(people)
    return Bi(
        f"You want to book a table for {who.en} at {category.one.en} {moment.en}.",
        f"你想在{category.one.zh}订{moment.zh}的位子，共{who.zh}。",
    )


def want_reserve(people: int, category: ShopCategory, moment: Bi) -> Bi:
    """ "You want to make an appointment at a hair salon for 2 people today at 15:00."""
    whom, before, after = who(people, category)
    return Bi(
        f"You want to make an appointment at {category.one.en} {whom.en} {moment.en}.",
        f"你想{before}预约{category.one.zh}，时间是{moment.zh}{after}。",
    )


def clause_rating(rating: float) -> Bi:
    """Minimum shop rating."""
    return Bi(f"the shop must be rated at least {num(rating)}", f"店铺评分不低于{num(rating)}分")


def clause_distance(km: float, of: Bi) -> Bi:
    """Maximum distance from the user's home or office."""
    return Bi(
        f"the shop must be no more than {num(km)} km from {of.en}",
        f"店铺距离{of.zh}不超过{num(km)}公里",
    )


def clause_price(price: float, quantity: int) -> Bi:
    """Maximum unit price."""
    if quantity == 1:
        return Bi(f"it must cost at most {num(price)} yuan", f"价格不超过{num(price)}元")
    return Bi(f"each must cost at most {num(price)} yuan", f"单价不超过{num(price)}元")


def clause_diet(because: Bi, avoid: Bi) -> Bi:
    """The dietary restriction."""
    return Bi(
        f"since {because.en}, it must not contain {avoid.en}",
        f"{because.zh}，所以不能含有{avoid.zh}",
    )


TIE_BREAKS: Mapping[str, Bi] = MappingProxyType(
    {
        "price": Bi(
            "If several products fit, take the cheapest one.",
            "如果有多款商品符合条件，选最便宜的。",
        ),
        "rating": Bi(
            "If several shops fit, take the highest-rated one.",
            "如果有多家店符合条件，选评分最高的那家。",
        ),
    }
)
"""Instruction sentence per tie-break rule (``distance``: see :func:`tie_distance`)."""


def tie_distance(of: Bi) -> Bi:
    """Take the closest shop."""
    return Bi(
        f"If several shops fit, take the one closest to {of.en}.",
        f"如果有多家店符合条件，选离{of.zh}最近的那家。",
    )


def then_visit(visit: str, people: int, moment: Bi, category: ShopCategory) -> Bi:
    """After buying: book a table / make an appointment at the same shop."""
    whom, before, after = who(people, category)
    if visit == "book":
        return Bi(
            f"Then book a table there {whom.en} {moment.en}; if the restaurant charges a "
            f"booking fee, pay it.",
            f"然后{before}在这家店订{moment.zh}的位子{after}，如果有订座费就一并支付。",
        )
    return Bi(
        f"Then make an appointment there {whom.en} {moment.en}.",
        f"然后{before}在这家店预约{moment.zh}{after}。",
    )


PAY_FEE = Bi(
    "If the restaurant charges a booking fee, pay it.", "如果餐厅收取订座费，就把订座费付了。"
)
"""Instruction to pay a booking fee."""

NOTHING_AHEAD = Bi(
    "You'll pay at the shop, so don't buy anything there in advance.",
    "到店再消费，不用在这家店提前购买任何商品。",
)
"""Instruction not to buy anything for an appointment."""

PAY_NOW = Bi("Pay for it right away.", "下单后直接付款。")
"""Instruction to pay an order."""


# --------------------------------------------------------------------------------------------
# Other sub-goals
# --------------------------------------------------------------------------------------------


def same_as_last(category: ShopCategory, quantity: int) -> Bi:
    """Buy what the user bought last time at a shop of the category."""
    more = (
        Bi("", "")
        if quantity == 1
        else Bi(f", {quantity} of them this time", f"，这次买{quantity}份")
    )
    return Bi(
        f"You'd like to buy again exactly what you bought last time at {category.one.en}, from "
        f"the same shop{more.en}. Pay for it right away.",
        f"你想在上次去过的那家{category.place.zh}再买一次上次买的同款商品{more.zh}，"
        f"下单后直接付款。",
    )


def modify_reservation(
    shop: Bi,
    category: ShopCategory,
    old: Bi,
    old_people: int,
    new: Bi | None,
    new_people: int | None,
) -> Bi:
    """Move an appointment and/or change its party size."""
    whom, before, after = who(old_people, category)
    head = Bi(
        f"You have an appointment at {shop.en} {old.en} {whom.en}.",
        f"你{before}在{shop.zh}预约了{old.zh}{after}。",
    )
    if new is not None and new_people is not None:
        change = Bi(
            f"Move it to {new.en} and make it for {party(new_people).en}.",
            f"把预约改到{new.zh}，人数改为{party(new_people).zh}。",
        )
    elif new is not None:
        change = Bi(f"Move it to {new.en}.", f"把预约改到{new.zh}，人数不变。")
    else:
        assert new_people is not None
        change = Bi(
            f"Keep the time but make it for {party(new_people).en}.",
            f"时间不变，人数改为{party(new_people).zh}。",
        )
    keep = Bi("Leave your other appointments as they are.", "其他预约保持不变。")
    return join([head, change, keep])


def cancel_order(reason: Bi, product: Bi, shop: Bi) -> Bi:
    """Cancel a voucher / package bought earlier."""
    return Bi(
        f"Because {reason.en}, cancel the {product.en} you bought at {shop.en}; keep your "
        f"other orders.",
        f"因为{reason.zh}，把之前在{shop.zh}买的{product.zh}取消掉，其他订单保留。",
    )


def cancel_visit(visit: str, reason: Bi, shop: Bi, moment: Bi) -> Bi:
    """Cancel a table booking or an appointment."""
    if visit == "book":
        return Bi(
            f"Because {reason.en}, cancel your table booking at {shop.en} {moment.en}; keep "
            f"your other bookings.",
            f"因为{reason.zh}，取消在{shop.zh}订的{moment.zh}的位子，其他订座保留。",
        )
    return Bi(
        f"Because {reason.en}, cancel your appointment at {shop.en} {moment.en}; keep your "
        f"other appointments.",
        f"因为{reason.zh}，取消在{shop.zh}{moment.zh}的预约，其他预约保留。",
    )


# --------------------------------------------------------------------------------------------
# Rubrics
# --------------------------------------------------------------------------------------------


def r_order(shop: Bi, quantity: int, product: Bi) -> Bi:
    """Where the order goes and what it holds."""
    return Bi(
        f"The order must be placed at {shop.en} for exactly {quantity} × {product.en}",
        f"订单必须下在{shop.zh}，且恰好购买{quantity}份{product.zh}",
    )


def r_kind(product: Bi, kind: Kind) -> Bi:
    """The product type."""
    return Bi(f"{product.en} must be a {kind.item.en}", f"{product.zh}必须是{kind.item.zh}")


def r_distance(shop: Bi, km: float, of: Bi) -> Bi:
    """The distance requirement."""
    return Bi(
        f"{shop.en} must be within {num(km)} km of {of.en}",
        f"{shop.zh}距离{of.zh}不超过{num(km)}公里",
    )


def r_rating(shop: Bi, rating: float) -> Bi:
    """The rating requirement."""
    return Bi(
        f"{shop.en} must be rated at least {num(rating)}", f"{shop.zh}的评分不低于{num(rating)}分"
    )


def r_price(product: Bi, price: float) -> Bi:
    """The unit price requirement."""
    return Bi(
        f"The unit price of {product.en} must not exceed {num(price)} yuan",
        f"{product.zh}的单价不超过{num(price)}元",
    )


def r_diet(product: Bi, avoid: Bi) -> Bi:
    """The dietary requirement."""
    return Bi(f"{product.en} must not contain {avoid.en}", f"{product.zh}不能含有{avoid.zh}")


def r_feature(product: Bi, rubric: Bi) -> Bi:
    """The required feature."""
    return Bi(f"{product.en} {rubric.en}", f"{product.zh}{rubric.zh}")


def r_sold_out(product: Bi, shop: Bi) -> Bi:
    """A product that would fit is sold out."""
    return Bi(
        f"{product.en} at {shop.en} is sold out, so it must not be chosen",
        f"{shop.zh}的{product.zh}已售罄，不能选择",
    )


def r_tie(rule: str, shop: Bi, product: Bi | None) -> Bi:
    """Why this option among several that fit."""
    if rule == "price":
        assert product is not None
        return Bi(
            f"{product.en} must be chosen because it is the cheapest product meeting every "
            f"requirement",
            f"应选择{product.zh}，因为它是满足全部条件的商品中最便宜的",
        )
    best = Bi("highest-rated", "评分最高的") if rule == "rating" else Bi("closest", "距离最近的")
    return Bi(
        f"{shop.en} must be chosen because it is the {best.en} shop meeting every requirement",
        f"应选择{shop.zh}，因为它是满足全部条件的店铺中{best.zh}",
    )


def r_paid(shop: Bi) -> Bi:
    """The order must be paid."""
    return Bi(f"The order at {shop.en} must be paid", f"{shop.zh}的订单必须完成支付")


def r_booked(shop: Bi, people: int, moment: datetime) -> Bi:
    """The table booking."""
    return Bi(
        f"A table for {party(people).en} must be booked at {shop.en} for {fmt_time(moment)}",
        f"必须在{shop.zh}订{fmt_time(moment)}的位子，共{party(people).zh}",
    )


def r_fee(shop: Bi, fee: float) -> Bi:
    """The booking fee must be paid, or there is none."""
    if fee > 0:
        return Bi(
            f"The {num(fee)}-yuan booking fee at {shop.en} must be paid",
            f"{shop.zh}的{num(fee)}元订座费必须支付",
        )
    return Bi(
        f"The booking at {shop.en} is free and must be confirmed",
        f"{shop.zh}的订座免费，订座必须成功",
    )


def r_reserved(shop: Bi, people: int, moment: datetime, category: ShopCategory) -> Bi:
    """The service reservation."""
    whom, before, after = who(people, category, rubric=True)
    before = before.replace("给", "为")
    return Bi(
        f"An appointment {whom.en} must be made at {shop.en} for {fmt_time(moment)}",
        f"必须{before}在{shop.zh}预约{fmt_time(moment)}{after}",
    )


def r_nothing_bought(shop: Bi) -> Bi:
    """No product may be bought for an appointment."""
    return Bi(f"Nothing may be bought in advance at {shop.en}", f"不能在{shop.zh}提前购买任何商品")


def r_same_shop(shop: Bi, product: Bi, lookalike: Bi) -> Bi:
    """The shop of "the same as last time"."""
    return Bi(
        f"The order must be placed at {shop.en}, where the user bought {product.en} last time "
        f"(not at {lookalike.en})",
        f"订单必须下在用户上次购买{product.zh}的{shop.zh}（而不是{lookalike.zh}）",
    )


def r_moved(record_id: str, shop: Bi, moment: datetime) -> Bi:
    """A reservation's new time."""
    return Bi(
        f"Reservation {record_id} at {shop.en} must be moved to {fmt_time(moment)}",
        f"{shop.zh}的预约{record_id}必须改到{fmt_time(moment)}",
    )


def r_people(record_id: str, people: int) -> Bi:
    """A reservation's new party size."""
    return Bi(
        f"Reservation {record_id} must be for {party(people).en}",
        f"预约{record_id}的人数必须为{party(people).zh}",
    )


def r_unchanged(record_id: str, shop: Bi) -> Bi:
    """Another reservation must stay as it is."""
    return Bi(
        f"Reservation {record_id} at {shop.en} must not be changed or cancelled",
        f"{shop.zh}的预约{record_id}不能被修改或取消",
    )


def r_cancelled(record: str, record_id: str, what: Bi, shop: Bi) -> Bi:
    """A pre-existing record must be cancelled."""
    noun = RECORD_NOUNS[record]
    return Bi(
        f"{noun.en} {record_id} ({what.en} at {shop.en}) must be cancelled",
        f"{noun.zh}{record_id}（{shop.zh}的{what.zh}）必须被取消",
    )


def r_kept(record: str, record_id: str) -> Bi:
    """A pre-existing record must stay."""
    noun = RECORD_NOUNS[record]
    return Bi(f"{noun.en} {record_id} must not be cancelled", f"{noun.zh}{record_id}不能被取消")

"""Instruction and rubric templates of the OTA generator (English and Chinese in parallel).

Instructions speak to the user in the second person; rubrics follow the official style ("The
booking must be at …", "The order must be one Lake View King Room for the night of 2025-09-18
(560 yuan)", "The hotel order must be paid"). Every function returns a :class:`Bi`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType

from lifebench.vita.generate.ota.dates import When, count_word
from lifebench.vita.generate.ota.model import clock_text
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.world import WEEKDAYS, clock


def sentence(parts: list[Bi]) -> Bi:
    """Clauses joined into one sentence ("A; b; c." / "A，b，c。")."""
    en = "; ".join(p.en for p in parts)
    return Bi(en[:1].upper() + en[1:] + ".", "，".join(p.zh for p in parts) + "。")


def join(parts: list[Bi]) -> Bi:
    """Sentences joined into a paragraph."""
    return Bi(" ".join(p.en for p in parts if p.en), "".join(p.zh for p in parts))


def also(text: Bi) -> Bi:
    """The same sentences introduced as a further request."""
    return Bi("Also, " + text.en[:1].lower() + text.en[1:], "另外，" + text.zh)


def requirements(clauses: list[Bi]) -> Bi:
    """ "Your requirements: a; b; c." / "要求：a，b，c。"."""
    return Bi(
        "Your requirements: " + "; ".join(c.en for c in clauses) + ".",
        "要求：" + "，".join(c.zh for c in clauses) + "。",
    )


def yuan(amount: float) -> Bi:
    """ "560 yuan" / "560元"."""
    return Bi(f"{amount:g} yuan", f"{amount:g}元")


# --------------------------------------------------------------------------------------------
# Opening and closing
# --------------------------------------------------------------------------------------------


def situation(now: datetime, home: Bi) -> Bi:
    """Day of the week, time, where the user lives."""
    weekday = WEEKDAYS[now.weekday()]
    return Bi(
        f"It's {weekday.en}, around {clock(now)}. You live in {home.en}.",
        f"今天是{weekday.zh}，现在{clock(now)}左右。你住在{home.zh}。",
    )


def trip_intro(purpose: Bi, city: Bi) -> Bi:
    """What the trip is for."""
    return Bi(f"You're going to {city.en} for {purpose.en}.", f"你要去{city.zh}{purpose.zh}。")


CLOSING = Bi(
    "If the assistant asks about other preferences, you have none.",
    "如果助手问到其他偏好，你都没有特别要求。",
)
"""Last sentence of every instruction."""

PAY_NOW = Bi("Pay for it right away.", "下单后直接付款。")
"""Instruction to pay."""


def pay_later(reason: Bi) -> Bi:
    """Instruction to leave a booking unpaid."""
    return Bi(
        f"Only create the booking and don't pay yet: {reason.en}.",
        f"只下单、先别付款：{reason.zh}。",
    )


TIE_BREAKS: Mapping[str, Bi] = MappingProxyType(
    {
        "price": Bi(
            "If several options fit, take the cheapest one.", "如果有多个选择都符合，选最便宜的。"
        ),
        "rating": Bi(
            "If several options fit, take the highest-rated one.",
            "如果有多个选择都符合，选评分最高的。",
        ),
        "earliest": Bi(
            "If several options fit, take the one that leaves earliest.",
            "如果有多个选择都符合，选出发最早的。",
        ),
    }
)
"""Instruction sentence per tie-break rule."""


def clause_score(score: float) -> Bi:
    """Minimum guest / visitor rating (the ``score`` field, out of 5)."""
    return Bi(f"a score of at least {score:g} (out of 5)", f"评分不低于{score:g}分（满分5分）")


# --------------------------------------------------------------------------------------------
# Hotels
# --------------------------------------------------------------------------------------------


def want_hotel(city: Bi, when: When) -> Bi:
    """One room for one night."""
    return Bi(
        f"You need one hotel room in {city.en} for one night, checking in {when.adverb.en}.",
        f"你需要在{city.zh}订一间酒店客房，{when.adverb.zh}入住，住一晚。",
    )


def clause_stars(stars: int) -> Bi:
    """Minimum star rating."""
    return Bi(f"at least {stars} stars", f"至少{stars}星级")


def clause_tag(words: Bi) -> Bi:
    """A required facility."""
    return Bi(f"the hotel must have {words.en}", f"酒店必须有{words.zh}")


def clause_bed(words: Bi) -> Bi:
    """The bed kind."""
    return Bi(words.en, f"要{words.zh}")


def clause_night_price(cap: int) -> Bi:
    """Maximum price of the night."""
    return Bi(f"no more than {cap} yuan for the night", f"每晚不超过{cap}元")


def usual_hotel(city: Bi, when: Bi, fallback: bool) -> Bi:
    """Book the hotel of the user's history."""
    text = Bi(
        f"You'd like one night at the hotel you stayed at last time in {city.en}, checking in "
        f"{when.en}, in the same room type as last time. You don't remember the hotel's name, "
        f"but it is in your booking history.",
        f"你想{when.zh}入住你上次在{city.zh}住过的那家酒店一晚，房型和上次一样。你不记得酒店名字了，"
        f"但它在你的预订记录里。",
    )
    if fallback:
        text = join(
            [
                text,
                Bi(
                    "If that room type has no room left that night, take the cheapest other "
                    "room type at the same hotel.",
                    "如果那晚这个房型没房了，就订同一家酒店其他房型中最便宜的。",
                ),
            ]
        )
    return text


def r_hotel_choice(hotel: Bi, city: Bi, day: str, tie: str) -> Bi:
    """Why this hotel."""
    if tie == "price":
        why = Bi("the cheapest option", "最便宜的选择")
    elif tie == "rating":
        why = Bi("the highest-rated hotel", "评分最高的酒店")
    else:
        why = Bi("the only hotel", "唯一的酒店")
    return Bi(
        f"The booking must be at {hotel.en}, {why.en} in {city.en} that meets every requirement "
        f"for the night of {day}",
        f"预订必须是{hotel.zh}，它是{city.zh}在{day}当晚满足全部要求的{why.zh}",
    )


def r_room_line(hotel: Bi, room: Bi, day: Bi, price: int) -> Bi:
    """The room night booked."""
    return Bi(
        f"The order at {hotel.en} must be one {room.en} for the night of {day.en} ({price} yuan)",
        f"{hotel.zh}的订单必须是{day.zh}当晚的一间{room.zh}（{price}元）",
    )


def r_usual_hotel(hotel: Bi, city: Bi, lookalike: Bi) -> Bi:
    """The hotel of last time."""
    return Bi(
        f"The booking must be at {hotel.en}, where the user stayed last time in {city.en} "
        f"(not {lookalike.en})",
        f"预订必须是用户上次在{city.zh}住过的{hotel.zh}（而不是{lookalike.zh}）",
    )


def r_sold_out(hotel: Bi, room: Bi, day: str) -> Bi:
    """The usual room type is full, so the fallback applies."""
    return Bi(
        f"The {room.en} at {hotel.en} has no room left on {day}, so the cheapest other room type "
        f"there must be booked",
        f"{hotel.zh}的{room.zh}在{day}已无房，因此必须订该酒店其他房型中最便宜的",
    )


# --------------------------------------------------------------------------------------------
# Attractions
# --------------------------------------------------------------------------------------------


def tickets(n: int, singular: Bi, plural: Bi) -> Bi:
    """ "one adult ticket" / "3 adult tickets"; "1张成人票" / "3张成人票"."""
    word = singular if n == 1 else plural
    return Bi(f"{count_word(n).en} {word.en}", f"{n}张{word.zh}")


ONE_ORDER = Bi(", all in one order", "，放在同一个订单里")
"""Said when several tickets or seats are bought together."""


def want_tickets(one: Bi, city: Bi, when: When, what: Bi, several: bool) -> Bi:
    """Tickets for an attraction of a kind."""
    together = ONE_ORDER if several else Bi("", "")
    return Bi(
        f"You want to visit {one.en} in {city.en} {when.adverb.en}: buy {what.en} for that "
        f"day{together.en}.",
        f"你想{when.adverb.zh}去{city.zh}的{one.zh}游玩：买当天的{what.zh}{together.zh}。",
    )


def clause_ticket_price(cap: int) -> Bi:
    """Maximum price per ticket."""
    return Bi(f"each ticket must cost no more than {cap} yuan", f"每张票不超过{cap}元")


def r_attraction_choice(name: Bi, city: Bi, word: Bi, tie: str) -> Bi:
    """Why this attraction."""
    if tie == "price":
        why = Bi(f"the cheapest {word.en.lower()}", f"最便宜的{word.zh}")
    elif tie == "rating":
        why = Bi(f"the highest-rated {word.en.lower()}", f"评分最高的{word.zh}")
    else:
        why = Bi(f"the only {word.en.lower()}", f"唯一的{word.zh}")
    return Bi(
        f"The tickets must be for {name.en}, {why.en} in {city.en} that meets every requirement",
        f"门票必须是{name.zh}的，它是{city.zh}满足全部要求的{why.zh}",
    )


def r_ticket_line(name: Bi, what: Bi, day: Bi, total: int) -> Bi:
    """The tickets bought."""
    return Bi(
        f"The order at {name.en} must contain exactly {what.en} for {day.en} ({total} yuan in "
        f"total)",
        f"{name.zh}的订单必须恰好是{day.zh}的{what.zh}（共{total}元）",
    )


# --------------------------------------------------------------------------------------------
# Flights and trains
# --------------------------------------------------------------------------------------------

MODES: Mapping[str, Bi] = MappingProxyType(
    {"flight": Bi("flight", "航班"), "train": Bi("train", "火车")}
)
"""The transport noun."""


def seats(n: int, seat: Bi) -> Bi:
    """ "one economy seat" / "two second-class seats"; "经济舱1个座位"."""
    return Bi(f"{count_word(n).en} {seat.en} seat{'s' if n > 1 else ''}", f"{seat.zh}{n}个座位")


def party(n: int) -> Bi:
    """Who travels."""
    if n == 1:
        return Bi("just for you", "只有你自己")
    return Bi(
        f"for you and {count_word(n - 1).en} companion{'s' if n > 2 else ''}",
        f"你和{count_word(n - 1).zh}位同行者",
    )


def want_seats(mode: str, what: Bi, origin: Bi, dest: Bi, when: When, who: Bi, several: bool) -> Bi:
    """Seats on a flight or train."""
    together = ONE_ORDER if several else Bi("", "")
    go = Bi("a flight", "飞") if mode == "flight" else Bi("a train", "到")
    noun = MODES[mode]
    return Bi(
        f"Book {what.en} on {go.en} from {origin.en} to {dest.en} {when.adverb.en} "
        f"({who.en}){together.en}.",
        f"帮你订{when.adverb.zh}从{origin.zh}{go.zh}{dest.zh}的{noun.zh}，{what.zh}（{who.zh}）"
        f"{together.zh}。",
    )


def clause_window(before: bool, limit: int) -> Bi:
    """Departure before / after a time."""
    at = clock_text(limit)
    if before:
        return Bi(f"it must leave before {at}", f"{at}之前出发")
    return Bi(f"it must leave after {at}", f"{at}之后出发")


def clause_seat_price(cap: int) -> Bi:
    """Maximum price per seat."""
    return Bi(f"at most {cap} yuan per seat", f"每个座位不超过{cap}元")


def r_transport_choice(mode: str, number: str, route: Bi, times: str, tie: str) -> Bi:
    """Why this flight / train."""
    noun = MODES[mode]
    if tie == "price":
        why = Bi(f"the cheapest {noun.en}", f"最便宜的{noun.zh}")
    elif tie == "earliest":
        why = Bi(f"the earliest {noun.en}", f"出发最早的{noun.zh}")
    else:
        why = Bi(f"the only {noun.en}", f"唯一的{noun.zh}")
    return Bi(
        f"The {noun.en} must be {number} ({route.en}, {times}), {why.en} that meets every "
        f"requirement",
        f"{noun.zh}必须是{number}（{route.zh}，{times}），它是满足全部要求的{why.zh}",
    )


def r_seat_line(number: str, what: Bi, day: Bi, each: int, total: int) -> Bi:
    """The seats booked."""
    return Bi(
        f"The order for {number} must contain exactly {what.en} on {day.en} ({each} yuan each, "
        f"{total} yuan in total)",
        f"{number}的订单必须恰好是{day.zh}的{what.zh}（每个{each}元，共{total}元）",
    )


def route(origin: Bi, dest: Bi) -> Bi:
    """ "Beijing → Chengdu"."""
    return Bi(f"{origin.en} → {dest.en}", f"{origin.zh}→{dest.zh}")


# --------------------------------------------------------------------------------------------
# Existing orders: date change, cancellation
# --------------------------------------------------------------------------------------------


def have_ticket(mode: str, what: Bi, number: str, origin: Bi, dest: Bi, day: Bi) -> Bi:
    """A paid ticket the user already has."""
    noun = MODES[mode]
    return Bi(
        f"You already have a paid order of {what.en} on {noun.en} {number} from {origin.en} to "
        f"{dest.en} on {day.en}.",
        f"你已经有一笔已支付的订单：{day.zh}从{origin.zh}到{dest.zh}的{noun.zh}{number}，"
        f"{what.zh}。",
    )


def move_ticket(reason: Bi, mode: str, shift: int | None, target: When) -> Bi:
    """Move it to another date, same service and class, keeping the order."""
    noun = MODES[mode]
    if shift is not None:
        later = shift > 0
        k = count_word(abs(shift))
        where = Bi(
            f"move it {k.en} day{'s' if abs(shift) > 1 else ''} {'later' if later else 'earlier'}",
            f"把它改签，{'推迟' if later else '提前'}{k.zh}天",
        )
    else:
        where = Bi(f"move it to {target.noun.en}", f"把它改签到{target.noun.zh}")
    return Bi(
        f"Because {reason.en}, ask the assistant to {where.en}: the same {noun.en} and the same "
        f"seat class, keeping this order (don't cancel it and buy a new one). Settle any price "
        f"difference right away.",
        f"因为{reason.zh}，请助手{where.zh}：同一{noun.zh}、同一座位等级，保留这笔订单"
        f"（不要取消后重新买）。如有差价，需要补的当场补上。",
    )


def keep_return(number: str, day: Bi) -> Bi:
    """The return ticket must stay."""
    return Bi(
        f"Don't touch your return ticket on {number} on {day.en}.",
        f"不要动你{day.zh}的返程票{number}。",
    )


def r_changed(order_id: str, number: str, day: Bi, what: Bi, each: int) -> Bi:
    """The date change."""
    return Bi(
        f"Order {order_id} must be changed to {number} on {day.en}, still {what.en} ({each} yuan "
        f"per seat), keeping the same order",
        f"订单{order_id}必须改签为{day.zh}的{number}，仍为{what.zh}（每个座位{each}元），"
        f"且仍是同一笔订单",
    )


def r_difference(amount: int, more: bool) -> Bi:
    """The price difference settled."""
    if more:
        return Bi(
            f"The price difference of {amount} yuan must be paid, so that the order is paid again",
            f"必须补交{amount}元差价，使订单重新处于已支付状态",
        )
    return Bi(
        f"The user must be told that {amount} yuan of the fare is refunded",
        f"必须告知用户退还了{amount}元差价",
    )


def r_untouched(order_id: str, what: Bi) -> Bi:
    """A pre-existing order that must stay as it is."""
    return Bi(
        f"Order {order_id} ({what.en}) must remain unchanged and paid",
        f"订单{order_id}（{what.zh}）必须保持不变且为已支付",
    )


def two_bookings(what: Bi, city: Bi, first: Bi, second: Bi) -> Bi:
    """The two paid bookings the user has."""
    return Bi(
        f"You have two paid {what.en} in {city.en}: {first.en}, and {second.en}.",
        f"你在{city.zh}有两笔已支付的{what.zh}：{first.zh}；{second.zh}。",
    )


def cancel_one(reason: Bi, which: Bi) -> Bi:
    """Cancel one booking, keep the other, ask about the refund."""
    return Bi(
        f"Because {reason.en}, ask the assistant to cancel {which.en}; keep the other one. Ask "
        f"how much will be refunded.",
        f"因为{reason.zh}，请助手取消{which.zh}，另一笔保留。问一下能退多少钱。",
    )


def rebook(what: Bi, provider: Bi, when: When) -> Bi:
    """Book the same thing on another date instead."""
    return Bi(
        f"Then book {what.en} at {provider.en} again for {when.noun.en} instead, and pay for it.",
        f"然后改为预订{provider.zh}{when.noun.zh}的{what.zh}，并付款。",
    )


def r_cancelled(order_id: str, what: Bi) -> Bi:
    """A pre-existing order must be cancelled."""
    return Bi(
        f"Order {order_id} ({what.en}) must be cancelled", f"订单{order_id}（{what.zh}）必须被取消"
    )


def r_refund(amount: int) -> Bi:
    """The refund the user is told."""
    return Bi(
        f"The user must be told that the refund is {amount} yuan",
        f"必须告知用户退款金额为{amount}元",
    )


def r_paid(what: Bi, provider: Bi, paid: bool, service: bool = False) -> Bi:
    """Payment status of a new order (``service``: a flight / train, "for" not "at")."""
    at = "for" if service else "at"
    if paid:
        return Bi(
            f"The {what.en} order {at} {provider.en} must be paid",
            f"{provider.zh}的{what.zh}订单必须完成支付",
        )
    return Bi(
        f"The {what.en} order {at} {provider.en} must be created but not paid",
        f"{provider.zh}的{what.zh}订单只创建、不支付",
    )


ORDER_NOUNS: Mapping[str, Bi] = MappingProxyType(
    {
        "hotel": Bi("hotel", "酒店"),
        "attraction": Bi("ticket", "门票"),
        "flight": Bi("flight", "机票"),
        "train": Bi("train ticket", "火车票"),
    }
)
"""What an order of each type is called in rubrics."""

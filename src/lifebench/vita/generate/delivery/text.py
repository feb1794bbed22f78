"""Instruction and rubric templates of the delivery generator (English and Chinese in parallel).

Instructions speak to the user in the second person; rubrics follow the official style ("The
restaurant must be within 3 km of …", "The order must not contain …", "The delivery time should
be around …"). Every function returns a :class:`Bi`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from lifebench.vita.generate.delivery.model import num
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.world import Place, clock, fmt_time


@dataclass(frozen=True)
class UserPlace:
    """A place of the user that orders can be delivered to.

    ``to`` is the destination phrase of instructions ("your office"), ``of`` the reference in
    distance requirements ("your office"), ``rubric`` the third-person name used in rubrics.
    """

    key: str
    place: Place
    to: Bi
    of: Bi
    rubric: Bi


def home_place(place: Place) -> UserPlace:
    """The user's home."""
    return UserPlace(
        "home",
        place,
        Bi("your home", "家里"),
        Bi("your home", "你家"),
        Bi("the user's home", "用户家"),
    )


def work_place(place: Place) -> UserPlace:
    """The user's workplace."""
    return UserPlace(
        "work",
        place,
        Bi("your office", "公司"),
        Bi("your office", "公司"),
        Bi("the user's office", "用户的公司"),
    )


OTHER_PLACES: tuple[Bi, ...] = (
    Bi("your parents' home", "父母家"),
    Bi("your friend's flat", "朋友家"),
    Bi("your sister's place", "姐姐家"),
    Bi("your grandparents' home", "爷爷奶奶家"),
)
"""Names of a third delivery address the instruction spells out."""


def other_place(place: Place, name: Bi) -> UserPlace:
    """A third place, given with its full address in the instruction."""
    return UserPlace(
        "other",
        place,
        Bi(f"{name.en} at {place.address.en}", f"{name.zh}（{place.address.zh}）"),
        name,
        Bi("the delivery address", "配送地址"),
    )


def sentence(parts: list[Bi]) -> Bi:
    """Clauses joined into one sentence ("A; b; c." / "A，b，c。")."""
    en = "; ".join(p.en for p in parts)
    return Bi(en[:1].upper() + en[1:] + ".", "，".join(p.zh for p in parts) + "。")


def join(parts: list[Bi]) -> Bi:
    """Sentences joined into a paragraph."""
    return Bi(" ".join(p.en for p in parts if p.en), "".join(p.zh for p in parts))


def also(text: Bi) -> Bi:
    """The same sentence introduced as a further request."""
    return Bi("Also, " + text.en[:1].lower() + text.en[1:], "另外，" + text.zh)


def portions(quantity: int, dish: Bi) -> Bi:
    """ "Beef Noodles" / "2 portions of Beef Noodles"; "一份…" / "2份…"."""
    if quantity == 1:
        return Bi(dish.en, f"一份{dish.zh}")
    return Bi(f"{quantity} portions of {dish.en}", f"{quantity}份{dish.zh}")


def exactly(quantity: int, dish: Bi) -> Bi:
    """ "exactly 2 × Beef Noodles" / "恰好2份…"."""
    return Bi(f"exactly {quantity} × {dish.en}", f"恰好{quantity}份{dish.zh}")


# --------------------------------------------------------------------------------------------
# Situation
# --------------------------------------------------------------------------------------------

_MOODS: dict[str, Bi] = {
    "breakfast": Bi("about to start the day", "正准备开始新的一天"),
    "lunch": Bi("getting hungry", "有点饿了"),
    "afternoon": Bi("in the mood for a treat", "想吃点东西解解馋"),
    "dinner": Bi("not in the mood to cook", "不想做饭"),
    "night": Bi("craving a late-night snack", "想吃点夜宵"),
}

_WHERE: dict[str, Bi] = {
    "home": Bi("at home", "在家"),
    "work": Bi("at the office", "在公司"),
}


def situation(
    weekday: Bi, day: Bi, now: datetime, where: str, period: str, weather: Bi | None
) -> Bi:
    """The opening: day, time, where the user is, the weather if it matters, the mood."""
    extra = Bi("", "") if weather is None else Bi(f", and {weather.en}", f"，{weather.zh}")
    at = _WHERE[where]
    mood = _MOODS[period]
    return Bi(
        f"It's {weekday.en}, {day.en}, around {clock(now)}{extra.en}. You're {at.en} and "
        f"{mood.en}.",
        f"今天是{day.zh}{weekday.zh}，现在{clock(now)}左右{extra.zh}。你{at.zh}，{mood.zh}。",
    )


def weather_remark(category: str, high: int) -> Bi | None:
    """A remark on the weather when it is worth one."""
    if category in ("rainy", "showers"):
        return Bi("it's raining outside", "外面在下雨")
    if high >= 32:
        return Bi("it's scorching outside", "外面很热")
    if high <= 3:
        return Bi("it's freezing outside", "外面很冷")
    return None


# --------------------------------------------------------------------------------------------
# Selection sub-goals (constrained order, group order, order without payment)
# --------------------------------------------------------------------------------------------


def want_one(one: Bi, to: Bi) -> Bi:
    """ "You want a noodle dish, delivered to your office."""
    return Bi(f"You want {one.en}, delivered to {to.en}.", f"你想点{one.zh}，送到{to.zh}。")


def want_group(quantity: int, item: Bi, at_work: bool, to: Bi) -> Bi:
    """ "You're ordering for 4 people …: 4 portions of the same noodle dish …"."""
    who = (
        Bi(f"you and {quantity - 1} colleagues", f"你和{quantity - 1}位同事")
        if at_work
        else Bi(f"{quantity} people at home", f"家里{quantity}个人")
    )
    return Bi(
        f"You're ordering for {who.en}: {quantity} portions of the same {item.en}, "
        f"delivered to {to.en}.",
        f"你要给{who.zh}点餐：同一款{item.zh}点{quantity}份，送到{to.zh}。",
    )


def clause_rating(rating: float) -> Bi:
    """Minimum store rating."""
    return Bi(f"the shop must be rated at least {num(rating)}", f"店铺评分不低于{num(rating)}分")


def clause_distance(km: float, of: Bi) -> Bi:
    """Maximum distance from the delivery address."""
    return Bi(
        f"the shop must be no more than {num(km)} km from {of.en}",
        f"店铺距离{of.zh}不超过{num(km)}公里",
    )


def clause_price(price: float) -> Bi:
    """Maximum unit price."""
    return Bi(f"it must cost at most {num(price)} yuan", f"单价不超过{num(price)}元")


def clause_budget(total: float) -> Bi:
    """Maximum total price."""
    return Bi(
        f"the whole order must cost at most {num(total)} yuan", f"整单总价不超过{num(total)}元"
    )


def clause_diet(because: Bi, avoid: Bi) -> Bi:
    """The dietary restriction."""
    return Bi(
        f"since {because.en}, it must not contain {avoid.en}",
        f"{because.zh}，所以不能含有{avoid.zh}",
    )


def clause_deadline(deadline: datetime) -> Bi:
    """Arrival deadline for an order placed now."""
    return Bi(
        f"it must arrive by {clock(deadline)}, so it has to be sent out right away",
        f"必须在{clock(deadline)}之前送到，所以要马上下单配送",
    )


def clause_scheduled(when: datetime) -> Bi:
    """Wished arrival time."""
    return Bi(f"it should arrive around {clock(when)}", f"希望{clock(when)}左右送到")


TIE_BREAKS: dict[str, Bi] = {
    "price": Bi(
        "If several dishes fit, take the cheapest one.", "如果有多款符合条件，选最便宜的。"
    ),
    "rating": Bi(
        "If several shops fit, take the highest-rated one.",
        "如果有多家店符合条件，选评分最高的那家。",
    ),
    "distance": Bi(
        "If several shops fit, take the closest one.", "如果有多家店符合条件，选距离最近的那家。"
    ),
}
"""Instruction sentence per tie-break rule."""


def choose_option(attribute: Bi) -> Bi:
    """Which option of the dish to pick."""
    return Bi(
        f'If the dish comes with options, choose "{attribute.en}".',
        f"如果有规格可选，选“{attribute.zh}”。",
    )


PAY_NOW = Bi("Pay for it right away.", "下单后直接付款。")
"""Instruction to pay."""


def pay_later(reason: Bi) -> Bi:
    """Instruction to leave the order unpaid."""
    return Bi(f"Place the order but don't pay yet: {reason.en}.", f"下单但先别付款：{reason.zh}。")


# --------------------------------------------------------------------------------------------
# Other sub-goals
# --------------------------------------------------------------------------------------------


def same_as_last(item: Bi, quantity: int, to: Bi) -> Bi:
    """Order what the user had last time."""
    more = (
        Bi("", "")
        if quantity == 1
        else Bi(f", but {quantity} portions this time", f"，这次要{quantity}份")
    )
    return Bi(
        f"You'd like the same {item.en} you ordered last time, from the same shop{more.en}, "
        f"delivered to {to.en}. Pay for it right away.",
        f"你想再点上次点过的那款{item.zh}，要同一家店的同一款{more.zh}，送到{to.zh}，"
        f"下单后直接付款。",
    )


def cancel_and_redirect(what: Bi, store: Bi, old: Bi, new: Bi) -> Bi:
    """Cancel an order and place it again to another address."""
    return Bi(
        f"Earlier you ordered {what.en} from {store.en} to be delivered to {old.en}, but you "
        f"won't be there: cancel that order, place the same order again to {new.en} instead, "
        f"and pay for it.",
        f"你之前在{store.zh}点了{what.zh}，送到{old.zh}，但你到时不在那里：把这单取消，"
        f"重新下一单同样的送到{new.zh}，并付款。",
    )


def cancel_and_swap(what: Bi, store: Bi, instead: Bi) -> Bi:
    """Cancel an order and order another dish of the same store."""
    return Bi(
        f"Earlier you ordered {what.en} from {store.en}, but you've changed your mind: cancel "
        f"that order and order {instead.en} from the same shop instead, delivered to the same "
        f"address, and pay for it.",
        f"你之前在{store.zh}点了{what.zh}，但你改主意了：取消这单，改在同一家店点"
        f"{instead.zh}，送到同一个地址，并付款。",
    )


def add_note(dish: Bi, store: Bi, note: Bi) -> Bi:
    """Change the note of an order on its way."""
    return Bi(
        f"Your order of {dish.en} from {store.en} is already paid and on its way; add this "
        f'note to it: "{note.en}"',
        f"你在{store.zh}点的{dish.zh}已经付款、正在配送，给这单加上备注：“{note.zh}”",
    )


# --------------------------------------------------------------------------------------------
# Rubrics
# --------------------------------------------------------------------------------------------


def r_store_and_items(item: Bi, store: Bi, quantity: int, dish: Bi, attribute: Bi | None) -> Bi:
    """Where the order goes and what it holds."""
    text = Bi(
        f"The {item.en} order must be placed at {store.en} and contain "
        f"{exactly(quantity, dish).en}",
        f"{item.zh}订单必须下在{store.zh}，且{exactly(quantity, dish).zh}",
    )
    if attribute is not None:
        text = text + Bi(f', with the "{attribute.en}" option', f"，规格为“{attribute.zh}”")
    return text


def r_distance(store: Bi, km: float, of: Bi) -> Bi:
    """The distance requirement."""
    return Bi(
        f"The restaurant {store.en} must be within {num(km)} km of {of.en}",
        f"店铺{store.zh}距离{of.zh}不超过{num(km)}公里",
    )


def r_rating(store: Bi, rating: float) -> Bi:
    """The rating requirement."""
    return Bi(
        f"The restaurant {store.en} must be rated at least {num(rating)}",
        f"店铺{store.zh}的评分不低于{num(rating)}分",
    )


def r_price(dish: Bi, price: float) -> Bi:
    """The unit price requirement."""
    return Bi(
        f"The price of {dish.en} must not exceed {num(price)} yuan",
        f"{dish.zh}的单价不超过{num(price)}元",
    )


def r_budget(store: Bi, total: float) -> Bi:
    """The total budget requirement."""
    return Bi(
        f"The total price of the order at {store.en} must not exceed {num(total)} yuan",
        f"{store.zh}订单的总价不超过{num(total)}元",
    )


def r_diet(store: Bi, avoid: Bi) -> Bi:
    """The dietary requirement."""
    return Bi(
        f"The order at {store.en} must not contain {avoid.en}",
        f"{store.zh}的订单中不能含有{avoid.zh}",
    )


def r_address(store: Bi, address: Bi, new: bool = False) -> Bi:
    """The delivery address."""
    order = Bi("new order", "新订单") if new else Bi("order", "订单")
    return Bi(
        f"The {order.en} at {store.en} must be delivered to {address.en}",
        f"{store.zh}的{order.zh}配送地址必须是{address.zh}",
    )


def r_deadline(store: Bi, deadline: datetime) -> Bi:
    """The arrival deadline."""
    return Bi(
        f"The order at {store.en} must arrive no later than {fmt_time(deadline)}",
        f"{store.zh}的订单必须在{fmt_time(deadline)}之前送达",
    )


def r_scheduled(store: Bi, when: datetime) -> Bi:
    """The wished arrival time."""
    return Bi(
        f"The delivery time of the order at {store.en} should be around {fmt_time(when)}",
        f"{store.zh}订单的送达时间应在{fmt_time(when)}左右",
    )


def r_tie(rule: str, store: Bi, dish: Bi) -> Bi:
    """Why this option among several that fit."""
    if rule == "price":
        return Bi(
            f"{dish.en} must be chosen because it is the cheapest dish meeting every requirement",
            f"应选择{dish.zh}，因为它是满足全部条件的菜品中最便宜的",
        )
    best = Bi("highest-rated", "评分最高的") if rule == "rating" else Bi("closest", "距离最近的")
    return Bi(
        f"{store.en} must be chosen because it is the {best.en} shop meeting every requirement",
        f"应选择{store.zh}，因为它是满足全部条件的店铺中{best.zh}",
    )


def r_paid(store: Bi, paid: bool, new: bool = False) -> Bi:
    """Payment status."""
    order = Bi("new order", "新订单") if new else Bi("order", "订单")
    if paid:
        return Bi(
            f"The {order.en} at {store.en} must be paid", f"{store.zh}的{order.zh}必须完成支付"
        )
    return Bi(
        f"The {order.en} at {store.en} must be created but not paid",
        f"{store.zh}的{order.zh}只创建、不支付",
    )


def r_same_store(store: Bi, dish: Bi, lookalike: Bi) -> Bi:
    """The store of "the same as last time"."""
    return Bi(
        f"The order must be placed at {store.en}, where the user ordered {dish.en} last time "
        f"(not at {lookalike.en})",
        f"订单必须下在用户上次点{dish.zh}的{store.zh}（而不是{lookalike.zh}）",
    )


def r_items(store: Bi, quantity: int, dish: Bi) -> Bi:
    """The items of an order."""
    return Bi(
        f"The order at {store.en} must contain {exactly(quantity, dish).en}",
        f"{store.zh}的订单必须{exactly(quantity, dish).zh}",
    )


def r_cancelled(order_id: str, what: Bi, store: Bi) -> Bi:
    """A pre-existing order must be cancelled."""
    return Bi(
        f"Order {order_id} ({what.en} from {store.en}) must be cancelled",
        f"订单{order_id}（{store.zh}的{what.zh}）必须被取消",
    )


def r_reordered(store: Bi, quantity: int, dish: Bi) -> Bi:
    """The replacement order."""
    return Bi(
        f"A new order with {exactly(quantity, dish).en} must be placed at {store.en}",
        f"必须在{store.zh}重新下单，{exactly(quantity, dish).zh}",
    )


def r_note(order_id: str, store: Bi, note: Bi) -> Bi:
    """The new note of a pre-existing order."""
    return Bi(
        f'The note of order {order_id} from {store.en} must be changed to "{note.en}"',
        f"订单{order_id}（{store.zh}）的备注必须改为“{note.zh}”",
    )


def r_kept(order_id: str) -> Bi:
    """A pre-existing order must stay."""
    return Bi(f"Order {order_id} must not be cancelled", f"订单{order_id}不能被取消")

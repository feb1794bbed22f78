"""User profiles of the bundled multi-turn rows: Markdown with a basic-information section and an
interests-and-preferences section (the official layout, our own content), drawn from pools."""

from __future__ import annotations

import random

from lifebench.travel.generate.places import City, Named

GENDERS = (Named("男性", "male"), Named("女性", "female"))
AGES = ("22-24", "25-29", "30-34", "35-39", "40-44", "45-49", "50-54", "60-64")
CARS = (
    Named("有车，周末常自驾", "yes, often drives at weekends"),
    Named("有车，但市内出行少开", "yes, but rarely drives in town"),
    Named("没有车", "no car"),
)
FAMILIES = (
    Named("独自居住，工作日通勤为主", "lives alone, mostly commuting on weekdays"),
    Named("与配偶同住，暂无孩子", "lives with a spouse, no children"),
    Named("与配偶和一个上小学的孩子同住", "lives with a spouse and a primary-school child"),
    Named("与父母同住，常陪父母出门", "lives with their parents and often takes them out"),
)
ROUTINES = (
    Named(
        "工作日朝九晚六，周末喜欢出门走走", "nine-to-five on weekdays, likes going out at weekends"
    ),
    Named("作息灵活，经常出差", "flexible hours, travels a lot for work"),
    Named("已退休，白天时间充裕", "retired, with plenty of free time in the day"),
)
TRANSPORT = (
    Named(
        "城际出行优先坐高铁，二等座即可",
        "prefers high-speed rail between cities, second class is fine",
    ),
    Named(
        "长途更愿意坐飞机，对时间敏感",
        "prefers flying for long distances, time matters more than price",
    ),
    Named("能自驾就自驾，不喜欢换乘", "drives whenever possible, dislikes changing transport"),
    Named("市内出行以地铁和公交为主", "gets around town by metro and bus"),
)
HOTELS = (
    Named(
        "经济型连锁酒店，干净就行，每晚 300 元以内",
        "budget chain hotels, clean is enough, under 300 yuan a night",
    ),
    Named(
        "舒适型酒店，看重交通方便，每晚 400–600 元",
        "mid-range hotels close to transport, 400-600 yuan a night",
    ),
    Named("偏爱有特色的民宿", "prefers characterful guesthouses"),
)
FOOD = (
    Named("爱吃辣，川菜和火锅都可以", "loves spicy food, Sichuan dishes and hotpot"),
    Named("口味清淡，偏好粤菜和家常菜", "light flavours, Cantonese and home-style dishes"),
    Named("喜欢尝当地小吃，不爱排长队", "likes local snacks, dislikes long queues"),
    Named("吃素，偶尔喝咖啡", "vegetarian, an occasional coffee"),
)
TRAVEL = (
    Named("喜欢自然风光和轻松的徒步", "enjoys scenery and easy hikes"),
    Named("偏好历史人文景点和博物馆", "prefers historic sites and museums"),
    Named("喜欢城市漫步、逛街和拍照", "likes city walks, shopping streets and photography"),
    Named(
        "出游以亲子为主，需要适合孩子的地方",
        "trips are mostly with the kids and need child-friendly places",
    ),
)
BUDGET = (
    Named(
        "对价格比较敏感，同等条件下选便宜的", "price-conscious, picks the cheaper of equal options"
    ),
    Named(
        "预算适中，愿意为方便多花一点", "moderate budget, will pay a little more for convenience"
    ),
    Named("不太在意价格，看重体验", "not very price-sensitive, cares about the experience"),
)

_LABELS = {
    "zh": (
        "### 基本信息",
        "常驻城市",
        "年龄及性别",
        "是否有车",
        "家庭与生活方式",
        "生活模式",
        "### 兴趣偏好",
        (
            "#### 1. 出行方式",
            "#### 2. 住宿偏好",
            "#### 3. 餐饮口味",
            "#### 4. 旅游偏好",
            "#### 5. 消费习惯",
        ),
    ),
    "en": (
        "### Basic information",
        "Home city",
        "Age and gender",
        "Car",
        "Household and lifestyle",
        "Daily routine",
        "### Interests and preferences",
        (
            "#### 1. Getting around",
            "#### 2. Lodging",
            "#### 3. Food",
            "#### 4. Travel",
            "#### 5. Spending",
        ),
    ),
}


RETIRED_AGES = frozenset({"60-64"})


def draw_profile(rng: random.Random) -> dict[str, Named | str]:
    """The profile's values (language-independent draw; consistent: no retiree under 60, no
    driver without a car, family trips only with a child at home)."""
    age = rng.choice(AGES)
    car = rng.choice(CARS)
    routines = ROUTINES if age in RETIRED_AGES else ROUTINES[:2]
    drives = car is not CARS[-1]
    transport = TRANSPORT if drives else tuple(t for t in TRANSPORT if t is not TRANSPORT[2])
    family = rng.choice(FAMILIES[:2] if age in RETIRED_AGES else FAMILIES)
    with_child = family is FAMILIES[2]
    travel = TRAVEL if with_child else TRAVEL[:3]
    return {
        "gender": rng.choice(GENDERS),
        "age": age,
        "car": car,
        "family": family,
        "routine": rng.choice(routines),
        "transport": rng.choice(transport),
        "hotel": rng.choice(HOTELS),
        "food": rng.choice(FOOD),
        "travel": rng.choice(travel),
        "budget": rng.choice(BUDGET),
    }


def render_profile(values: dict[str, Named | str], home: City, language: str) -> str:
    """The Markdown profile in ``language``."""
    lang = "en" if language == "en" else "zh"
    basic, city, age, car, family, routine, prefs, heads = _LABELS[lang]

    def text(key: str) -> str:
        value = values[key]
        return value.get(lang) if isinstance(value, Named) else value

    sep = "：" if lang == "zh" else ": "
    age_text = (
        f"{text('gender')}，{text('age')}岁" if lang == "zh" else f"{text('gender')}, {text('age')}"
    )
    lines = [
        basic,
        f"- {city}{sep}{home.name.get(lang)}",
        f"- {age}{sep}{age_text}",
        f"- {car}{sep}{text('car')}",
        f"- {family}{sep}{text('family')}",
        f"- {routine}{sep}{text('routine')}",
        "",
        prefs,
        "",
    ]
    for head, key in zip(heads, ("transport", "hotel", "food", "travel", "budget"), strict=True):
        lines += [head, f"- {text(key)}", ""]
    return "\n".join(lines).rstrip() + "\n"

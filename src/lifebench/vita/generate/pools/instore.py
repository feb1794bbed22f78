"""In-store consumption: shop categories (dining and other services) with their products.

A product is a *style* of the category combined with a *kind* ("Beef Tallow" + "Hotpot Set for
Two", "Premium" + "Haircut"): the kind is the product type a user asks for (its tag is the
product's first tag), the style carries the dietary flags of dining products (the vocabulary of
:data:`lifebench.vita.generate.pools.food.FLAG_TAGS`, shown as product tags). Features are
product tags a user may require ("Includes drinks", "Beginner-friendly").

``visit`` says which appointment a shop of the category takes: ``book`` (a table, with
``enable_book``), ``reservation`` (a service appointment, with ``enable_reservation``) or
neither (None).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from lifebench.vita.generate.pools._bi import Bi


@dataclass(frozen=True)
class Style:
    """A product line of a category: the first part of product names, with dietary flags."""

    name: Bi
    flags: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Kind:
    """A product type.

    Attributes:
        key: Stable identifier (unique within the category).
        tag: The product tag naming the type ("Set for two").
        suffix: The end of product names ("Hotpot Set for Two").
        item: The type in instructions and rubrics, without article ("hotpot set for two").
        one: One unit with article / measure word ("a hotpot set for two", "一份双人火锅套餐").
        price: Typical unit price range in yuan.
        people: People one unit serves (0: one unit per person).
        flags: Dietary flags every product of the type has (a cake set is sweet).
    """

    key: str
    tag: Bi
    suffix: Bi
    item: Bi
    one: Bi
    price: tuple[int, int]
    people: int = 0
    flags: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Feature:
    """A product tag a user may require: ``clause`` for instructions ("it must include
    drinks"), ``rubric`` for rubrics ("must include drinks")."""

    tag: Bi
    clause: Bi
    rubric: Bi


@dataclass(frozen=True)
class ShopCategory:
    """A kind of in-store shop and what it sells.

    Attributes:
        key: Stable identifier.
        name: Category tag, the first tag of every shop of the category ("Hotpot").
        section: History section: ``fine`` / ``light`` / ``sweet`` (in-store dining) or
            ``services`` (other in-store services).
        place: The shop noun without article ("hotpot restaurant", "火锅店").
        one: One shop with article ("a hotpot restaurant").
        nouns: Shop name endings.
        visit: ``book``, ``reservation`` or None (see the module docstring).
        hours: Appointment windows (first and last full hour).
        party: Largest party for an appointment (1: a car, a pet).
        styles: Product lines.
        kinds: Product types.
        features: Feature tags products may carry.
        shop_tags: Neutral shop tags (after the category tag).
        solo: What an appointment is for when it is never for people ("car"), else None.
    """

    key: str
    name: Bi
    section: str
    place: Bi
    one: Bi
    nouns: tuple[Bi, ...]
    visit: str | None
    hours: tuple[tuple[int, int], ...]
    party: int
    styles: tuple[Style, ...]
    kinds: tuple[Kind, ...]
    features: tuple[Feature, ...]
    shop_tags: tuple[Bi, ...]
    solo: Bi | None = None

    @property
    def dining(self) -> bool:
        """Whether the category is in-store dining (dietary restrictions apply)."""
        return self.section != "services"


def _b(*pairs: tuple[str, str]) -> tuple[Bi, ...]:
    """Bi texts from (English, Chinese) pairs."""
    return tuple(Bi(en, zh) for en, zh in pairs)


def _styles(*rows: tuple[str, str, str]) -> tuple[Style, ...]:
    """Styles from (English, Chinese, space-separated flags) rows."""
    return tuple(Style(Bi(en, zh), frozenset(flags.split())) for en, zh, flags in rows)


def _kind(
    key: str,
    tag: tuple[str, str],
    suffix: tuple[str, str],
    item: tuple[str, str],
    one: tuple[str, str],
    price: tuple[int, int],
    people: int = 0,
    flags: str = "",
) -> Kind:
    """A :class:`Kind` from plain (English, Chinese) pairs."""
    return Kind(
        key, Bi(*tag), Bi(*suffix), Bi(*item), Bi(*one), price, people, frozenset(flags.split())
    )


def _feature(tag: tuple[str, str], clause: tuple[str, str], rubric: tuple[str, str]) -> Feature:
    """A :class:`Feature` from plain (English, Chinese) pairs."""
    return Feature(Bi(*tag), Bi(*clause), Bi(*rubric))


# ---- shared features ---------------------------------------------------------------------------

_DRINKS = _feature(
    ("Includes drinks", "含饮品"), ("it must include drinks", "要含饮品"),
    ("must include drinks", "必须含饮品"),
)  # fmt: skip
_WEEKENDS = _feature(
    ("Valid on weekends", "周末可用"), ("it must be valid on weekends", "要周末也能用"),
    ("must be valid on weekends", "必须周末可用"),
)  # fmt: skip
_REFILL = _feature(
    ("Free refill", "免费续杯"), ("it must come with a free refill", "要能免费续杯"),
    ("must come with a free refill", "必须可以免费续杯"),
)  # fmt: skip
_NO_TIME_LIMIT = _feature(
    ("No time limit", "不限时"), ("it must have no time limit", "要不限时"),
    ("must have no time limit", "必须不限时"),
)  # fmt: skip
_NO_BOOKING = _feature(
    ("No appointment needed", "免预约"), ("it must not need an appointment", "要免预约的"),
    ("must not need an appointment", "必须免预约"),
)  # fmt: skip
_BEGINNER = _feature(
    ("Beginner-friendly", "适合新手"), ("it must be suitable for beginners", "要适合新手"),
    ("must be suitable for beginners", "必须适合新手"),
)  # fmt: skip
_PRIVATE = _feature(
    ("Private room", "独立包间"), ("it must come with a private room", "要有独立包间"),
    ("must come with a private room", "必须有独立包间"),
)  # fmt: skip
_SHOWER = _feature(
    ("Shower and lockers", "含淋浴储物"), ("it must include a shower and lockers", "要含淋浴和储物柜"),
    ("must include a shower and lockers", "必须含淋浴和储物柜"),
)  # fmt: skip
_SENIOR = _feature(
    ("Senior staff", "资深技师"), ("it must be done by senior staff", "要资深技师服务"),
    ("must be done by senior staff", "必须由资深技师服务"),
)  # fmt: skip

_QUALIFIERS = _styles(
    ("Classic", "经典", ""), ("Premium", "精品", ""), ("Signature", "招牌", ""),
    ("Deluxe", "豪华", ""), ("Basic", "基础", ""), ("Express", "快捷", ""),
    ("Select", "甄选", ""), ("Standard", "标准", ""),
)  # fmt: skip
"""Generic product lines of service categories."""

_DINING_TAGS = _b(
    ("Chain brand", "连锁品牌"), ("Family-run", "家庭经营"), ("Outdoor seating", "户外座位"),
    ("Open late", "营业至深夜"), ("Free parking", "免费停车"),
)  # fmt: skip
_SERVICE_TAGS = _b(
    ("Chain brand", "连锁品牌"), ("Free parking", "免费停车"), ("Free Wi-Fi", "免费无线网络"),
    ("Newly opened", "新店开业"), ("Near the metro", "近地铁站"),
)  # fmt: skip

_LUNCH_DINNER = ((11, 13), (17, 20))
_DAYTIME = ((10, 20),)

CATEGORIES: tuple[ShopCategory, ...] = (
    # ---- in-store dining: fine dining ------------------------------------------------------
    ShopCategory(
        "hotpot", Bi("Hotpot", "火锅"), "fine",
        Bi("hotpot restaurant", "火锅店"), Bi("a hotpot restaurant", "一家火锅店"),
        _b(("Hotpot", "火锅"), ("Hotpot House", "火锅馆"), ("Hotpot Garden", "火锅园")),
        "book", _LUNCH_DINNER, 6,
        _styles(
            ("Beef Tallow", "牛油", "beef spicy"), ("Mushroom Broth", "菌汤", ""),
            ("Tomato Broth", "番茄", ""), ("Seafood", "海鲜", "seafood"),
            ("Lamb", "羊肉", "lamb"), ("Pork Bone Broth", "猪骨汤", "pork"),
            ("Spicy Chicken", "麻辣鸡", "chicken spicy"), ("Vegetable and Tofu", "素菜豆腐", ""),
            ("Twin-Pot", "鸳鸯锅", "spicy"),
        ),
        (
            _kind("set2", ("Set for two", "双人餐"), ("Hotpot Set for Two", "双人火锅套餐"),
                  ("hotpot set for two", "双人火锅套餐"), ("a hotpot set for two", "一份双人火锅套餐"),
                  (138, 268), 2),
            _kind("set4", ("Set for four", "四人餐"), ("Hotpot Set for Four", "四人火锅套餐"),
                  ("hotpot set for four", "四人火锅套餐"), ("a hotpot set for four", "一份四人火锅套餐"),
                  (268, 498), 4),
            _kind("set1", ("Single set", "单人餐"), ("Hotpot Single Set", "单人火锅套餐"),
                  ("single hotpot set", "单人火锅套餐"), ("a single hotpot set", "一份单人火锅套餐"),
                  (58, 118)),
        ),
        (_DRINKS, _WEEKENDS, _PRIVATE), _DINING_TAGS,
    ),
    ShopCategory(
        "sichuan", Bi("Sichuan cuisine", "川菜"), "fine",
        Bi("Sichuan restaurant", "川菜馆"), Bi("a Sichuan restaurant", "一家川菜馆"),
        _b(("Sichuan Kitchen", "川菜馆"), ("Sichuan House", "川味坊"), ("Spice Hall", "蜀香阁")),
        "book", _LUNCH_DINNER, 6,
        _styles(
            ("Kung Pao Chicken", "宫保鸡丁", "chicken nuts spicy"),
            ("Twice-cooked Pork", "回锅肉", "pork spicy"), ("Boiled Fish", "水煮鱼", "seafood spicy"),
            ("Mapo Tofu", "麻婆豆腐", "beef spicy"), ("Tea-smoked Duck", "樟茶鸭", "chicken"),
            ("Spicy Garlic Eggplant", "蒜香茄子", "spicy"), ("Seasonal Greens", "清炒时蔬", ""),
            ("Steamed Egg Custard", "蒸水蛋", ""), ("Braised Tofu with Mushrooms", "香菇烧豆腐", ""),
        ),
        (
            _kind("set2", ("Set for two", "双人餐"), ("Set for Two", "双人套餐"),
                  ("Sichuan set for two", "川菜双人套餐"), ("a Sichuan set for two", "一份川菜双人套餐"),
                  (98, 218), 2),
            _kind("set4", ("Set for four", "四人餐"), ("Set for Four", "四人套餐"),
                  ("Sichuan set for four", "川菜四人套餐"), ("a Sichuan set for four", "一份川菜四人套餐"),
                  (198, 398), 4),
            _kind("set1", ("Single set", "单人餐"), ("Single Set", "单人套餐"),
                  ("single Sichuan set", "川菜单人套餐"), ("a single Sichuan set", "一份川菜单人套餐"),
                  (38, 88)),
        ),
        (_DRINKS, _WEEKENDS, _PRIVATE), _DINING_TAGS,
    ),
    ShopCategory(
        "cantonese", Bi("Cantonese cuisine", "粤菜"), "fine",
        Bi("Cantonese restaurant", "粤菜馆"), Bi("a Cantonese restaurant", "一家粤菜馆"),
        _b(("Cantonese Kitchen", "粤菜馆"), ("Dim Sum House", "点心楼"), ("Canton Hall", "粤海轩")),
        "book", _LUNCH_DINNER, 6,
        _styles(
            ("Roast Goose", "烧鹅", "chicken"), ("Char Siu", "叉烧", "pork sugar"),
            ("Steamed Fish", "清蒸鱼", "seafood"), ("Shrimp Dumpling", "虾饺", "seafood"),
            ("Vegetarian Dim Sum", "素点心", ""), ("Mushroom and Tofu", "香菇豆腐", ""),
            ("Vegetable Rice Noodle Roll", "斋肠粉", ""), ("Seasonal Vegetable", "时蔬", ""),
            ("Soy Sauce Chicken", "豉油鸡", "chicken"),
        ),
        (
            _kind("set2", ("Set for two", "双人餐"), ("Set for Two", "双人套餐"),
                  ("Cantonese set for two", "粤菜双人套餐"),
                  ("a Cantonese set for two", "一份粤菜双人套餐"), (128, 258), 2),
            _kind("set4", ("Set for four", "四人餐"), ("Set for Four", "四人套餐"),
                  ("Cantonese set for four", "粤菜四人套餐"),
                  ("a Cantonese set for four", "一份粤菜四人套餐"), (238, 468), 4),
            _kind("set1", ("Single set", "单人餐"), ("Single Set", "单人套餐"),
                  ("single Cantonese set", "粤菜单人套餐"),
                  ("a single Cantonese set", "一份粤菜单人套餐"), (48, 98)),
        ),
        (_DRINKS, _WEEKENDS, _PRIVATE), _DINING_TAGS,
    ),
    ShopCategory(
        "japanese", Bi("Japanese cuisine", "日料"), "fine",
        Bi("Japanese restaurant", "日料店"), Bi("a Japanese restaurant", "一家日料店"),
        _b(("Sushi", "寿司"), ("Izakaya", "居酒屋"), ("Japanese Kitchen", "日本料理")),
        "book", _LUNCH_DINNER, 6,
        _styles(
            ("Salmon Sashimi", "三文鱼刺身", "seafood"), ("Wagyu", "和牛", "beef"),
            ("Chicken Teriyaki", "照烧鸡", "chicken sugar"), ("Tonkotsu", "豚骨", "pork"),
            ("Vegetable Tempura", "蔬菜天妇罗", ""), ("Tofu and Edamame", "豆腐毛豆", ""),
            ("Avocado Roll", "牛油果卷", ""), ("Grilled Eel", "蒲烧鳗鱼", "seafood sugar"),
            ("Cucumber Maki", "黄瓜卷", ""),
        ),
        (
            _kind("set2", ("Set for two", "双人餐"), ("Set for Two", "双人套餐"),
                  ("Japanese set for two", "日料双人套餐"),
                  ("a Japanese set for two", "一份日料双人套餐"), (168, 328), 2),
            _kind("set4", ("Set for four", "四人餐"), ("Set for Four", "四人套餐"),
                  ("Japanese set for four", "日料四人套餐"),
                  ("a Japanese set for four", "一份日料四人套餐"), (318, 598), 4),
            _kind("set1", ("Single set", "单人餐"), ("Teishoku", "单人定食"),
                  ("single Japanese set", "日料单人定食"),
                  ("a single Japanese set", "一份日料单人定食"), (58, 128)),
        ),
        (_DRINKS, _WEEKENDS, _PRIVATE), _DINING_TAGS,
    ),
    ShopCategory(
        "korean_bbq", Bi("Korean BBQ", "韩式烤肉"), "fine",
        Bi("Korean BBQ restaurant", "韩式烤肉店"), Bi("a Korean BBQ restaurant", "一家韩式烤肉店"),
        _b(("Korean BBQ", "韩式烤肉"), ("BBQ House", "烤肉馆"), ("Grill Bar", "烤肉坊")),
        "book", _LUNCH_DINNER, 6,
        _styles(
            ("Beef Brisket", "牛胸肉", "beef"), ("Pork Belly", "五花肉", "pork"),
            ("Marinated Chicken", "腌鸡腿肉", "chicken"), ("Spicy Pork", "辣味猪肉", "pork spicy"),
            ("Lamb Shoulder", "羊肩肉", "lamb"), ("Mushroom Platter", "菌菇拼盘", ""),
            ("Mushroom Tofu Stew", "菌菇豆腐汤", ""), ("Spicy Rice Cake", "辣炒年糕", "spicy"),
            ("Vegetable Bibimbap", "素拌饭", ""),
        ),
        (
            _kind("set2", ("Set for two", "双人餐"), ("BBQ Set for Two", "双人烤肉套餐"),
                  ("BBQ set for two", "双人烤肉套餐"), ("a BBQ set for two", "一份双人烤肉套餐"),
                  (148, 268), 2),
            _kind("set4", ("Set for four", "四人餐"), ("BBQ Set for Four", "四人烤肉套餐"),
                  ("BBQ set for four", "四人烤肉套餐"), ("a BBQ set for four", "一份四人烤肉套餐"),
                  (268, 498), 4),
            _kind("set1", ("Single set", "单人餐"), ("BBQ Single Set", "单人烤肉套餐"),
                  ("single BBQ set", "单人烤肉套餐"), ("a single BBQ set", "一份单人烤肉套餐"),
                  (58, 118)),
        ),
        (_DRINKS, _WEEKENDS, _PRIVATE), _DINING_TAGS,
    ),
    ShopCategory(
        "western", Bi("Western cuisine", "西餐"), "fine",
        Bi("Western restaurant", "西餐厅"), Bi("a Western restaurant", "一家西餐厅"),
        _b(("Steakhouse", "牛排馆"), ("Grill", "扒房"), ("Bistro", "西餐厅")),
        "book", _LUNCH_DINNER, 6,
        _styles(
            ("Ribeye Steak", "肉眼牛排", "beef"), ("Roast Chicken", "烤鸡", "chicken"),
            ("Seafood Pasta", "海鲜意面", "seafood dairy"), ("Pork Chop", "猪排", "pork"),
            ("Lamb Chop", "羊排", "lamb"), ("Mushroom Risotto", "蘑菇烩饭", "dairy"),
            ("Margherita Pizza", "玛格丽特披萨", "dairy"), ("Garden Salad", "田园沙拉", ""),
            ("Tomato Pasta", "番茄意面", ""), ("Grilled Vegetable", "烤时蔬", ""),
        ),
        (
            _kind("set2", ("Set for two", "双人餐"), ("Set for Two", "双人套餐"),
                  ("Western set for two", "西餐双人套餐"), ("a Western set for two", "一份西餐双人套餐"),
                  (168, 398), 2),
            _kind("set4", ("Set for four", "四人餐"), ("Set for Four", "四人套餐"),
                  ("Western set for four", "西餐四人套餐"),
                  ("a Western set for four", "一份西餐四人套餐"), (358, 698), 4),
            _kind("set1", ("Single set", "单人餐"), ("Single Set", "单人套餐"),
                  ("single Western set", "西餐单人套餐"), ("a single Western set", "一份西餐单人套餐"),
                  (68, 158)),
        ),
        (_DRINKS, _WEEKENDS, _PRIVATE), _DINING_TAGS,
    ),
    ShopCategory(
        "vegetarian", Bi("Vegetarian", "素食"), "fine",
        Bi("vegetarian restaurant", "素食餐厅"), Bi("a vegetarian restaurant", "一家素食餐厅"),
        _b(("Vegetarian Kitchen", "素食馆"), ("Veggie House", "素食坊"), ("Zen Table", "禅味素食")),
        "book", _LUNCH_DINNER, 6,
        _styles(
            ("Braised Tofu", "红烧豆腐", "sugar"), ("Monk's Delight", "罗汉斋", ""),
            ("Kung Pao Tofu", "宫保豆腐", "nuts spicy"), ("Vegetable Dumpling", "素饺", ""),
            ("Sweet and Sour Gluten", "素咕噜肉", "sugar"),
            ("Cheese-baked Vegetable", "芝士焗蔬菜", "dairy"), ("Spicy Konjac", "麻辣魔芋", "spicy"),
            ("Lotus Root Stir-fry", "荷塘小炒", ""), ("Mushroom Claypot", "菌菇煲", ""),
        ),
        (
            _kind("set2", ("Set for two", "双人餐"), ("Set for Two", "双人套餐"),
                  ("vegetarian set for two", "素食双人套餐"),
                  ("a vegetarian set for two", "一份素食双人套餐"), (88, 188), 2),
            _kind("set4", ("Set for four", "四人餐"), ("Set for Four", "四人套餐"),
                  ("vegetarian set for four", "素食四人套餐"),
                  ("a vegetarian set for four", "一份素食四人套餐"), (168, 338), 4),
            _kind("set1", ("Single set", "单人餐"), ("Single Set", "单人套餐"),
                  ("single vegetarian set", "素食单人套餐"),
                  ("a single vegetarian set", "一份素食单人套餐"), (38, 78)),
        ),
        (_DRINKS, _WEEKENDS, _PRIVATE), _DINING_TAGS,
    ),
    # ---- in-store dining: light meals -------------------------------------------------------
    ShopCategory(
        "noodles", Bi("Noodle house", "面馆"), "light",
        Bi("noodle house", "面馆"), Bi("a noodle house", "一家面馆"),
        _b(("Noodle House", "面馆"), ("Noodle Bar", "面铺"), ("Noodle Kitchen", "面坊")),
        None, _LUNCH_DINNER, 4,
        _styles(
            ("Beef Noodle", "牛肉面", "beef"), ("Pork Rib Noodle", "排骨面", "pork"),
            ("Dan Dan Noodle", "担担面", "pork nuts spicy"), ("Tomato and Egg Noodle", "番茄鸡蛋面", ""),
            ("Scallion Oil Noodle", "葱油拌面", ""), ("Mushroom Noodle", "香菇面", ""),
            ("Seafood Noodle", "海鲜面", "seafood"), ("Chicken Soup Noodle", "鸡汤面", "chicken"),
            ("Hot and Sour Noodle", "酸辣面", "spicy"),
        ),
        (
            _kind("meal1", ("Meal for one", "单人餐"), ("Meal for One", "单人餐"),
                  ("noodle meal for one", "单人面食套餐"), ("a noodle meal for one", "一份单人面食套餐"),
                  (22, 48)),
            _kind("meal2", ("Meal for two", "双人餐"), ("Meal for Two", "双人餐"),
                  ("noodle meal for two", "双人面食套餐"), ("a noodle meal for two", "一份双人面食套餐"),
                  (42, 88), 2),
            _kind("card5", ("5-meal card", "五次卡"), ("5-meal Card", "五次卡"),
                  ("5-meal noodle card", "面食五次卡"), ("a 5-meal noodle card", "一张面食五次卡"),
                  (98, 198)),
        ),
        (_DRINKS, _WEEKENDS, _NO_BOOKING), _DINING_TAGS,
    ),
    ShopCategory(
        "dumplings", Bi("Dumpling house", "饺子馆"), "light",
        Bi("dumpling house", "饺子馆"), Bi("a dumpling house", "一家饺子馆"),
        _b(("Dumpling House", "饺子馆"), ("Dumpling Kitchen", "水饺坊"), ("Dumpling King", "饺子王")),
        None, _LUNCH_DINNER, 4,
        _styles(
            ("Pork and Cabbage", "猪肉白菜", "pork"), ("Beef and Onion", "牛肉洋葱", "beef"),
            ("Shrimp", "虾仁", "seafood"), ("Lamb and Carrot", "羊肉胡萝卜", "lamb"),
            ("Egg and Chive", "韭菜鸡蛋", ""), ("Mushroom and Greens", "香菇青菜", ""),
            ("Corn and Vegetable", "玉米蔬菜", ""), ("Chicken and Mushroom", "鸡肉香菇", "chicken"),
            ("Tofu and Vegetable", "豆腐素馅", ""),
        ),
        (
            _kind("set1", ("Meal for one", "单人餐"), ("Dumpling Meal for One", "饺子单人餐"),
                  ("dumpling meal for one", "饺子单人餐"), ("a dumpling meal for one", "一份饺子单人餐"),
                  (22, 46)),
            _kind("set2", ("Meal for two", "双人餐"), ("Dumpling Meal for Two", "饺子双人餐"),
                  ("dumpling meal for two", "饺子双人餐"), ("a dumpling meal for two", "一份饺子双人餐"),
                  (42, 86), 2),
            _kind("set4", ("Family meal", "家庭餐"), ("Dumpling Family Meal", "饺子家庭餐"),
                  ("dumpling family meal for four", "四人饺子家庭餐"),
                  ("a dumpling family meal for four", "一份四人饺子家庭餐"), (78, 158), 4),
        ),
        (_DRINKS, _WEEKENDS, _NO_BOOKING), _DINING_TAGS,
    ),
    # ---- in-store dining: desserts, drinks, snacks -------------------------------------------
    ShopCategory(
        "cafe", Bi("Café", "咖啡馆"), "sweet",
        Bi("café", "咖啡馆"), Bi("a café", "一家咖啡馆"),
        _b(("Coffee", "咖啡"), ("Café", "咖啡馆"), ("Coffee Roasters", "咖啡烘焙坊")),
        None, ((9, 18),), 4,
        _styles(
            ("Latte", "拿铁", "dairy"), ("Americano", "美式", ""),
            ("Matcha Latte", "抹茶拿铁", "dairy sugar"), ("Mocha", "摩卡", "dairy sugar"),
            ("Cold Brew", "冷萃", ""), ("Oat Milk Latte", "燕麦拿铁", ""),
            ("Hazelnut Latte", "榛果拿铁", "nuts dairy sugar"), ("Pour-over", "手冲", ""),
        ),
        (
            _kind("cup", ("Single-cup voucher", "单杯券"), ("Single-cup Voucher", "单杯券"),
                  ("single-cup coffee voucher", "咖啡单杯券"),
                  ("a single-cup coffee voucher", "一张咖啡单杯券"), (18, 38)),
            _kind("pair", ("Two-cup set", "双杯套餐"), ("Two-cup Set", "双杯套餐"),
                  ("two-cup coffee set", "咖啡双杯套餐"), ("a two-cup coffee set", "一份咖啡双杯套餐"),
                  (32, 66), 2),
            _kind("card", ("10-cup card", "十杯卡"), ("10-cup Card", "十杯卡"),
                  ("10-cup coffee card", "咖啡十杯卡"), ("a 10-cup coffee card", "一张咖啡十杯卡"),
                  (158, 298)),
        ),
        (_WEEKENDS, _REFILL, _NO_BOOKING), _DINING_TAGS[:2],
    ),
    ShopCategory(
        "dessert", Bi("Desserts", "甜品店"), "sweet",
        Bi("dessert shop", "甜品店"), Bi("a dessert shop", "一家甜品店"),
        _b(("Dessert House", "甜品屋"), ("Sweet Shop", "糖水铺"), ("Patisserie", "甜点工坊")),
        None, ((13, 21),), 4,
        _styles(
            ("Mango Pomelo Sago", "杨枝甘露", "sugar"), ("Double-skin Milk", "双皮奶", "dairy sugar"),
            ("Tiramisu", "提拉米苏", "dairy sugar"), ("Fresh Fruit", "鲜果", ""),
            ("Grass Jelly", "烧仙草", "sugar"), ("Sugar-free Tofu Pudding", "无糖豆花", ""),
            ("Coconut Jelly", "椰子冻", "sugar"), ("Peanut Mochi", "花生麻薯", "nuts sugar"),
            ("Sugar-free Fruit Cup", "无糖水果杯", ""),
        ),
        (
            _kind("one", ("Single serving", "单人份"), ("Single Serving", "单人份"),
                  ("single dessert serving", "单人份甜品"), ("a single dessert serving", "一份单人份甜品"),
                  (16, 38)),
            _kind("pair", ("Dessert set for two", "双人甜品套餐"), ("Dessert Set for Two", "双人甜品套餐"),
                  ("dessert set for two", "双人甜品套餐"), ("a dessert set for two", "一份双人甜品套餐"),
                  (32, 72), 2),
            _kind("party", ("Party platter", "聚会拼盘"), ("Party Platter", "聚会拼盘"),
                  ("dessert party platter for four", "四人甜品聚会拼盘"),
                  ("a dessert party platter for four", "一份四人甜品聚会拼盘"), (68, 148), 4),
        ),
        (_DRINKS, _WEEKENDS, _NO_BOOKING), _DINING_TAGS[:2],
    ),
    ShopCategory(
        "tea_house", Bi("Tea house", "茶馆"), "sweet",
        Bi("tea house", "茶馆"), Bi("a tea house", "一家茶馆"),
        _b(("Tea House", "茶馆"), ("Teahouse", "茶社"), ("Tea Pavilion", "茶轩")),
        "book", ((13, 18),), 6,
        _styles(
            ("Longjing", "龙井", ""), ("Pu'er", "普洱", ""), ("Tieguanyin", "铁观音", ""),
            ("Jasmine", "茉莉花茶", ""), ("Osmanthus Oolong", "桂花乌龙", ""),
            ("Milk Tea and Pastry", "奶茶点心", "dairy sugar"), ("Dried Fruit and Nut", "干果坚果", "nuts sugar"),
            ("Black Tea", "红茶", ""),
        ),
        (
            _kind("pair", ("Tea for two", "双人茶位"), ("Tea Set for Two", "双人茶位套餐"),
                  ("tea set for two", "双人茶位套餐"), ("a tea set for two", "一份双人茶位套餐"),
                  (68, 168), 2),
            _kind("room", ("Room for four", "四人包间"), ("Private Room for Four", "四人包间套餐"),
                  ("private room package for four", "四人包间套餐"),
                  ("a private room package for four", "一份四人包间套餐"), (188, 398), 4),
            _kind("one", ("Tea for one", "单人茶位"), ("Tea for One", "单人茶位"),
                  ("tea for one", "单人茶位"), ("a tea for one", "一份单人茶位"), (38, 88)),
        ),
        (_NO_TIME_LIMIT, _WEEKENDS, _feature(
            ("Mahjong table", "含麻将桌"), ("it must come with a mahjong table", "要含麻将桌"),
            ("must come with a mahjong table", "必须含麻将桌"),
        )),
        _DINING_TAGS,
    ),
    # ---- other in-store services -------------------------------------------------------------
    ShopCategory(
        "hair_salon", Bi("Hair salon", "美发"), "services",
        Bi("hair salon", "美发店"), Bi("a hair salon", "一家美发店"),
        _b(("Hair Studio", "美发工作室"), ("Hair Salon", "美发沙龙"), ("Hair Lounge", "发艺馆")),
        "reservation", _DAYTIME, 3, _QUALIFIERS,
        (
            _kind("cut", ("Haircut", "剪发"), ("Haircut", "剪发"), ("haircut", "剪发套餐"),
                  ("a haircut", "一次剪发套餐"), (38, 168)),
            _kind("colour", ("Hair colouring", "染发"), ("Hair Colouring", "染发"),
                  ("hair colouring", "染发套餐"), ("a hair colouring", "一次染发套餐"), (168, 458)),
            _kind("perm", ("Perm", "烫发"), ("Perm", "烫发"), ("perm", "烫发套餐"),
                  ("a perm", "一次烫发套餐"), (198, 498)),
            _kind("care", ("Hair treatment", "护发"), ("Hair Treatment", "护发"),
                  ("hair treatment", "护发套餐"), ("a hair treatment", "一次护发套餐"), (98, 268)),
        ),
        (
            _feature(("Wash and blow-dry", "含洗吹"),
                     ("it must include a wash and blow-dry", "要含洗吹"),
                     ("must include a wash and blow-dry", "必须含洗吹")),
            _SENIOR, _WEEKENDS,
        ),
        _SERVICE_TAGS,
    ),
    ShopCategory(
        "massage", Bi("Massage", "按摩"), "services",
        Bi("massage parlour", "按摩店"), Bi("a massage parlour", "一家按摩店"),
        _b(("Massage Center", "按摩中心"), ("Wellness Studio", "养生馆"), ("Foot Spa", "足道")),
        "reservation", ((11, 22),), 3,
        _styles(
            ("Traditional Chinese", "中式", ""), ("Thai-style", "泰式", ""),
            ("Aromatherapy", "精油", ""), ("Herbal", "草本", ""), ("Hot Stone", "热石", ""),
            ("Classic", "经典", ""), ("Deep Tissue", "深层", ""),
        ),
        (
            _kind("foot", ("Foot massage", "足疗"), ("Foot Massage (60 min)", "足疗60分钟"),
                  ("60-minute foot massage", "60分钟足疗"), ("a 60-minute foot massage", "一次60分钟足疗"),
                  (68, 198)),
            _kind("body", ("Full-body massage", "全身按摩"), ("Full-body Massage (90 min)", "全身按摩90分钟"),
                  ("90-minute full-body massage", "90分钟全身按摩"),
                  ("a 90-minute full-body massage", "一次90分钟全身按摩"), (158, 398)),
            _kind("neck", ("Neck and shoulder", "肩颈按摩"),
                  ("Neck and Shoulder Massage (45 min)", "肩颈按摩45分钟"),
                  ("45-minute neck and shoulder massage", "45分钟肩颈按摩"),
                  ("a 45-minute neck and shoulder massage", "一次45分钟肩颈按摩"), (58, 168)),
        ),
        (_PRIVATE, _SENIOR, _feature(
            ("Tea and fruit", "含茶水果盘"), ("it must include tea and fruit", "要含茶水果盘"),
            ("must include tea and fruit", "必须含茶水果盘"),
        )),
        _SERVICE_TAGS,
    ),
    ShopCategory(
        "nail_salon", Bi("Nail salon", "美甲美睫"), "services",
        Bi("nail salon", "美甲店"), Bi("a nail salon", "一家美甲店"),
        _b(("Nail Studio", "美甲工作室"), ("Nail Bar", "美甲店"), ("Nail Art", "美甲坊")),
        "reservation", _DAYTIME, 3, _QUALIFIERS,
        (
            _kind("mani", ("Manicure", "美甲"), ("Manicure", "美甲"), ("manicure", "美甲套餐"),
                  ("a manicure", "一次美甲套餐"), (68, 198)),
            _kind("pedi", ("Pedicure", "美足"), ("Pedicure", "美足"), ("pedicure", "美足套餐"),
                  ("a pedicure", "一次美足套餐"), (98, 228)),
            _kind("lash", ("Eyelash extension", "美睫"), ("Eyelash Extension", "美睫"),
                  ("eyelash extension", "美睫套餐"), ("an eyelash extension", "一次美睫套餐"),
                  (128, 298)),
        ),
        (_SENIOR, _WEEKENDS, _feature(
            ("Free touch-up", "免费补甲"), ("it must include a free touch-up", "要含免费补甲"),
            ("must include a free touch-up", "必须含免费补甲"),
        )),
        _SERVICE_TAGS,
    ),
    ShopCategory(
        "car_wash", Bi("Car wash", "洗车"), "services",
        Bi("car wash", "洗车店"), Bi("a car wash", "一家洗车店"),
        _b(("Car Care", "汽车美容"), ("Auto Spa", "洗车行"), ("Car Wash", "洗车中心")),
        "reservation", ((9, 19),), 1, _QUALIFIERS,
        (
            _kind("outside", ("Exterior wash", "外观洗车"), ("Exterior Wash", "外观洗车"),
                  ("exterior car wash", "外观洗车"), ("an exterior car wash", "一次外观洗车"),
                  (25, 58)),
            _kind("full", ("Full valet", "内外精洗"), ("Full Valet", "内外精洗"),
                  ("full valet", "内外精洗"), ("a full valet", "一次内外精洗"), (68, 158)),
            _kind("wax", ("Wax and polish", "打蜡抛光"), ("Wax and Polish", "打蜡抛光"),
                  ("wax and polish", "打蜡抛光"), ("a wax and polish", "一次打蜡抛光"), (128, 298)),
        ),
        (
            _feature(("SUV accepted", "SUV适用"), ("it must accept SUVs", "要适用于SUV"),
                     ("must accept SUVs", "必须适用于SUV")),
            _feature(("Hand wash", "纯手工洗"), ("it must be a hand wash", "要纯手工洗"),
                     ("must be a hand wash", "必须是纯手工洗")),
            _WEEKENDS,
        ),
        _SERVICE_TAGS, Bi("car", "爱车"),
    ),
    ShopCategory(
        "yoga", Bi("Yoga", "瑜伽"), "services",
        Bi("yoga studio", "瑜伽馆"), Bi("a yoga studio", "一家瑜伽馆"),
        _b(("Yoga Studio", "瑜伽馆"), ("Yoga Space", "瑜伽空间"), ("Yoga House", "瑜伽会所")),
        "reservation", ((9, 20),), 3,
        _styles(
            ("Hatha", "哈他", ""), ("Vinyasa Flow", "流瑜伽", ""), ("Yin", "阴瑜伽", ""),
            ("Aerial", "空中瑜伽", ""), ("Stretching", "拉伸", ""), ("Hot", "高温瑜伽", ""),
            ("Mindfulness", "正念", ""),
        ),
        (
            _kind("trial", ("Trial class", "体验课"), ("Trial Class", "体验课"),
                  ("yoga trial class", "瑜伽体验课"), ("a yoga trial class", "一节瑜伽体验课"),
                  (39, 99)),
            _kind("single", ("Single class", "单次课"), ("Single Class", "单次课"),
                  ("single yoga class", "瑜伽单次课"), ("a single yoga class", "一节瑜伽单次课"),
                  (88, 168)),
            _kind("card", ("10-class card", "十次卡"), ("10-class Card", "十次卡"),
                  ("10-class yoga card", "瑜伽十次卡"), ("a 10-class yoga card", "一张瑜伽十次卡"),
                  (580, 1280)),
        ),
        (_BEGINNER, _SHOWER, _feature(
            ("Small class", "小班课"), ("it must be a small class", "要小班课"),
            ("must be a small class", "必须是小班课"),
        )),
        _SERVICE_TAGS,
    ),
    ShopCategory(
        "fitness", Bi("Gym", "健身房"), "services",
        Bi("gym", "健身房"), Bi("a gym", "一家健身房"),
        _b(("Fitness", "健身"), ("Fitness Club", "健身会所"), ("Gym", "健身房")),
        "reservation", ((7, 21),), 3,
        _styles(
            ("Standard", "标准", ""), ("All-access", "全能", ""), ("Strength", "力量", ""),
            ("Cardio", "有氧", ""), ("Boxing", "拳击", ""), ("Functional", "功能性", ""),
            ("Core", "核心", ""),
        ),
        (
            _kind("day", ("Day pass", "单日卡"), ("Day Pass", "单日卡"), ("gym day pass", "健身单日卡"),
                  ("a gym day pass", "一张健身单日卡"), (39, 99)),
            _kind("pt", ("Personal training", "私教课"), ("Personal Training Session", "私教课"),
                  ("personal training session", "私教课"),
                  ("a personal training session", "一节私教课"), (168, 398)),
            _kind("month", ("Monthly pass", "月卡"), ("Monthly Pass", "月卡"),
                  ("monthly gym pass", "健身月卡"), ("a monthly gym pass", "一张健身月卡"),
                  (299, 799)),
        ),
        (_SHOWER, _BEGINNER, _feature(
            ("Free towel", "免费毛巾"), ("it must include a free towel", "要送毛巾"),
            ("must include a free towel", "必须含免费毛巾"),
        )),
        _SERVICE_TAGS,
    ),
    ShopCategory(
        "pottery", Bi("Pottery studio", "陶艺"), "services",
        Bi("pottery studio", "陶艺馆"), Bi("a pottery studio", "一家陶艺馆"),
        _b(("Pottery Studio", "陶艺工作室"), ("Ceramics Workshop", "陶艺坊"), ("Clay House", "陶土屋")),
        "reservation", ((10, 19),), 4, _QUALIFIERS,
        (
            _kind("trial", ("Trial session", "体验课"), ("Trial Session", "体验课"),
                  ("pottery trial session", "陶艺体验课"), ("a pottery trial session", "一节陶艺体验课"),
                  (98, 198)),
            _kind("family", ("Parent-child session", "亲子课"), ("Parent-child Session", "亲子课"),
                  ("parent-child pottery session", "陶艺亲子课"),
                  ("a parent-child pottery session", "一节陶艺亲子课"), (168, 328), 2),
            _kind("course", ("Wheel-throwing course", "拉坯课程"),
                  ("Wheel-throwing Course", "拉坯课程"), ("wheel-throwing course", "拉坯课程"),
                  ("a wheel-throwing course", "一期拉坯课程"), (398, 898)),
        ),
        (
            _feature(("Firing included", "含烧制"), ("it must include firing", "要含烧制"),
                     ("must include firing", "必须含烧制")),
            _feature(("Glazing included", "含上釉"), ("it must include glazing", "要含上釉"),
                     ("must include glazing", "必须含上釉")),
            _BEGINNER,
        ),
        _SERVICE_TAGS,
    ),
    ShopCategory(
        "escape_room", Bi("Escape room", "密室逃脱"), "services",
        Bi("escape room", "密室逃脱馆"), Bi("an escape room", "一家密室逃脱馆"),
        _b(("Escape Room", "密室逃脱"), ("Mystery House", "密室馆"), ("Puzzle Hall", "解谜馆")),
        "reservation", ((12, 22),), 6,
        _styles(
            ("Space Station", "太空站", ""), ("Ancient Tomb", "古墓", ""),
            ("Detective Office", "侦探社", ""), ("Pirate Ship", "海盗船", ""),
            ("Magic Academy", "魔法学院", ""), ("Old Cinema", "老电影院", ""),
            ("Lost Temple", "失落神殿", ""),
        ),
        (
            _kind("one", ("Single ticket", "单人票"), ("Single Ticket", "单人票"),
                  ("escape room single ticket", "密室单人票"),
                  ("an escape room single ticket", "一张密室单人票"), (68, 158)),
            _kind("pair", ("Ticket for two", "双人票"), ("Ticket for Two", "双人票"),
                  ("escape room ticket for two", "密室双人票"),
                  ("an escape room ticket for two", "一张密室双人票"), (128, 288), 2),
            _kind("group", ("Group ticket for four", "四人团体票"), ("Group Ticket for Four", "四人团体票"),
                  ("escape room group ticket for four", "密室四人团体票"),
                  ("an escape room group ticket for four", "一张密室四人团体票"), (248, 528), 4),
        ),
        (
            _feature(("Live actors", "真人NPC"), ("it must have live actors", "要有真人NPC"),
                     ("must have live actors", "必须有真人NPC")),
            _feature(("Kid-friendly", "亲子友好"), ("it must be kid-friendly", "要适合带孩子"),
                     ("must be kid-friendly", "必须适合带孩子")),
            _DRINKS,
        ),
        _SERVICE_TAGS,
    ),
    ShopCategory(
        "badminton", Bi("Badminton court", "羽毛球馆"), "services",
        Bi("badminton hall", "羽毛球馆"), Bi("a badminton hall", "一家羽毛球馆"),
        _b(("Badminton Hall", "羽毛球馆"), ("Badminton Club", "羽毛球俱乐部"), ("Sports Hall", "运动馆")),
        "reservation", ((8, 21),), 4, _QUALIFIERS,
        (
            _kind("hour1", ("1-hour court", "1小时场地"), ("Court for 1 Hour", "1小时场地"),
                  ("1-hour court booking", "1小时场地"), ("a 1-hour court", "一个1小时场地"),
                  (30, 80)),
            _kind("hour2", ("2-hour court", "2小时场地"), ("Court for 2 Hours", "2小时场地"),
                  ("2-hour court booking", "2小时场地"), ("a 2-hour court", "一个2小时场地"),
                  (58, 148)),
            _kind("coach", ("Coaching session", "教练课"), ("Coaching Session", "教练课"),
                  ("badminton coaching session", "羽毛球教练课"),
                  ("a badminton coaching session", "一节羽毛球教练课"), (128, 298)),
        ),
        (
            _feature(("Rackets included", "含球拍租借"), ("it must include racket rental", "要含球拍租借"),
                     ("must include racket rental", "必须含球拍租借")),
            _feature(("Shuttlecocks included", "含羽毛球"), ("it must include shuttlecocks", "要含羽毛球"),
                     ("must include shuttlecocks", "必须含羽毛球")),
            _SHOWER,
        ),
        _SERVICE_TAGS,
    ),
    ShopCategory(
        "swimming", Bi("Swimming pool", "游泳馆"), "services",
        Bi("swimming pool", "游泳馆"), Bi("a swimming pool", "一家游泳馆"),
        _b(("Swimming Pool", "游泳馆"), ("Aquatic Center", "游泳中心"), ("Swim Club", "游泳俱乐部")),
        "reservation", ((8, 20),), 4, _QUALIFIERS,
        (
            _kind("entry", ("Single entry", "单次票"), ("Single Entry", "单次票"),
                  ("single swimming entry", "游泳单次票"), ("a single swimming entry", "一张游泳单次票"),
                  (35, 88)),
            _kind("card", ("10-entry card", "十次卡"), ("10-entry Card", "十次卡"),
                  ("10-entry swimming card", "游泳十次卡"),
                  ("a 10-entry swimming card", "一张游泳十次卡"), (280, 680)),
            _kind("lesson", ("Swimming lesson", "游泳课"), ("Swimming Lesson", "游泳课"),
                  ("swimming lesson", "游泳课"), ("a swimming lesson", "一节游泳课"), (128, 298)),
        ),
        (
            _feature(("Heated pool", "恒温泳池"), ("it must be a heated pool", "要恒温泳池"),
                     ("must be in a heated pool", "必须是恒温泳池")),
            _BEGINNER, _SHOWER,
        ),
        _SERVICE_TAGS,
    ),
    ShopCategory(
        "pet_grooming", Bi("Pet grooming", "宠物美容"), "services",
        Bi("pet groomer", "宠物美容店"), Bi("a pet groomer", "一家宠物美容店"),
        _b(("Pet Spa", "宠物会所"), ("Pet Grooming", "宠物美容"), ("Paws Salon", "萌宠沙龙")),
        "reservation", ((10, 19),), 1, _QUALIFIERS,
        (
            _kind("bath", ("Pet bath", "宠物洗澡"), ("Pet Bath", "宠物洗澡"), ("pet bath", "宠物洗澡"),
                  ("a pet bath", "一次宠物洗澡"), (48, 128)),
            _kind("groom", ("Full grooming", "全套美容"), ("Full Grooming", "全套美容"),
                  ("full pet grooming", "宠物全套美容"), ("a full pet grooming", "一次宠物全套美容"),
                  (128, 298)),
            _kind("care", ("Nail and ear care", "修甲洁耳"), ("Nail and Ear Care", "修甲洁耳"),
                  ("pet nail and ear care", "宠物修甲洁耳"),
                  ("a pet nail and ear care", "一次宠物修甲洁耳"), (38, 98)),
        ),
        (
            _feature(("Cats welcome", "接待猫咪"), ("it must accept cats", "要接待猫咪"),
                     ("must accept cats", "必须接待猫咪")),
            _feature(("Pick-up service", "上门接送"), ("it must include pick-up", "要含上门接送"),
                     ("must include pick-up", "必须含上门接送")),
            _SENIOR,
        ),
        _SERVICE_TAGS, Bi("pet", "宠物"),
    ),
    ShopCategory(
        "photo_studio", Bi("Photo studio", "摄影工作室"), "services",
        Bi("photo studio", "摄影工作室"), Bi("a photo studio", "一家摄影工作室"),
        _b(("Photo Studio", "摄影工作室"), ("Portrait Studio", "写真馆"), ("Picture House", "照相馆")),
        "reservation", ((10, 18),), 4, _QUALIFIERS,
        (
            _kind("id", ("ID photo", "证件照"), ("ID Photo", "证件照"), ("ID photo", "证件照"),
                  ("an ID photo", "一套证件照"), (39, 99)),
            _kind("portrait", ("Portrait session", "个人写真"), ("Portrait Session", "个人写真"),
                  ("portrait session", "个人写真"), ("a portrait session", "一套个人写真"), (199, 599)),
            _kind("family", ("Family portrait", "全家福"), ("Family Portrait", "全家福"),
                  ("family portrait for three", "三人全家福"), ("a family portrait for three", "一套三人全家福"),
                  (299, 799), 3),
        ),
        (
            _feature(("Retouching included", "含精修"), ("it must include retouching", "要含精修"),
                     ("must include retouching", "必须含精修")),
            _feature(("Makeup included", "含化妆"), ("it must include makeup", "要含化妆"),
                     ("must include makeup", "必须含化妆")),
            _feature(("Costumes provided", "提供服装"), ("it must provide costumes", "要提供服装"),
                     ("must provide costumes", "必须提供服装")),
        ),
        _SERVICE_TAGS,
    ),
)  # fmt: skip
"""Twenty-four shop categories: twelve of in-store dining and twelve other services."""

CATEGORIES_BY_KEY: Mapping[str, ShopCategory] = MappingProxyType({c.key: c for c in CATEGORIES})
"""Categories by key (read-only)."""

_KIN_PAIRS: tuple[tuple[str, str], ...] = (
    ("hotpot", "sichuan"),  # Sichuan hotpot
    ("cantonese", "dumplings"),  # dim sum dumplings
    ("vegetarian", "dumplings"),  # vegetable dumplings
    ("noodles", "dumplings"),
    ("noodles", "japanese"),  # ramen
    ("cafe", "dessert"),
    ("cafe", "tea_house"),
    ("dessert", "tea_house"),
    ("massage", "nail_salon"),  # beauty and wellness parlours
    ("hair_salon", "nail_salon"),
    ("yoga", "fitness"),
    ("fitness", "swimming"),
    ("fitness", "badminton"),
)

KIN: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        c.key: frozenset(b if a == c.key else a for a, b in _KIN_PAIRS if c.key in (a, b))
        for c in CATEGORIES
    }
)
"""Category key → keys of categories a shop of which could pass for it. Kin categories never
share a task's roles (sub-goal categories, wrong-category distractors, fillers)."""

SECTION_TITLES: Mapping[str, Bi] = MappingProxyType(
    {
        "fine": Bi("fine-dining", "正餐"),
        "light": Bi("light meal", "简餐"),
        "sweet": Bi("desserts/drinks/snacks", "甜品/饮品/小吃"),
    }
)
"""Sub-sections of the in-store dining history, in the official order."""

BRANDS: tuple[Bi, ...] = (
    Bi("Lotus", "莲花"), Bi("Harmony", "和悦"), Bi("Evergreen", "常青"), Bi("Starlight", "星光"),
    Bi("Golden Leaf", "金叶"), Bi("Urban", "都市"), Bi("Sunrise", "朝阳"), Bi("Jade", "翡翠"),
    Bi("Maple", "枫叶"), Bi("Crystal", "水晶"), Bi("Cloud", "云间"), Bi("Serene", "静雅"),
    Bi("Bamboo", "竹林"), Bi("Pearl", "明珠"), Bi("Orchid", "兰亭"), Bi("Aurora", "极光"),
    Bi("Willow", "柳岸"), Bi("Amber", "琥珀"), Bi("Old Town", "老城"), Bi("Riverside", "江畔"),
    Bi("Blue Bay", "蓝湾"), Bi("Spring", "春日"), Bi("Happy Hour", "欢聚"), Bi("Red Maple", "红枫"),
    Bi("Peach Garden", "桃园"), Bi("North Star", "北辰"), Bi("Silver Moon", "银月"),
    Bi("Green Hill", "青山"), Bi("Fortune", "鸿运"), Bi("Dragon Gate", "龙门"),
)  # fmt: skip
"""First parts of shop names."""

EXTRA_TAGS: tuple[Bi, ...] = (
    Bi("Best seller", "热销"),
    Bi("New", "新品"),
    Bi("Limited offer", "限时优惠"),
    Bi("Value pick", "超值"),
)
"""Neutral product tags sprinkled on some products."""

BOOK_FEES: tuple[tuple[float, float], ...] = ((0.0, 5.0), (20.0, 2.0), (30.0, 1.5), (50.0, 1.5))
"""Table booking fees in yuan with relative weights (0: free booking)."""

CANCEL_REASONS: tuple[Bi, ...] = (
    Bi("your plans have changed", "你的计划有变"),
    Bi("something came up at work", "公司临时有事"),
    Bi("your friend can't make it", "朋友来不了了"),
    Bi("you're not feeling well", "你身体不太舒服"),
)
"""Why the user cancels a record."""

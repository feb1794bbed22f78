"""Food: categories with dishes (and their dietary flags), store name parts, order notes.

Dish flags are the vocabulary of :attr:`Restriction.forbidden
<lifebench.vita.generate.pools.people.Restriction.forbidden>`: ``pork``, ``beef``, ``chicken``,
``lamb``, ``seafood``, ``nuts``, ``spicy``, ``sugar``, ``dairy``. A product's tags show its
flags (``FLAG_TAGS``), so whether a dish fits a restriction is decidable from the data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from lifebench.vita.generate.pools._bi import Bi


@dataclass(frozen=True)
class Dish:
    """A dish with the dietary flags of its ingredients."""

    name: Bi
    flags: frozenset[str]


@dataclass(frozen=True)
class FoodCategory:
    """A kind of delivery store and what it sells.

    Attributes:
        key: Stable identifier.
        name: Category tag shown on stores and products ("Noodles").
        group: Broader group used in the user's purchase history ("Quick meals").
        item: The dish noun for instructions without article ("noodle dish").
        one: One such dish with article ("a noodle dish").
        nouns: Store name endings ("Noodle House").
        attributes: Options a product of this category may offer (one is chosen per order).
        price: Typical unit price range in yuan.
        periods: Meal periods (``MEAL_PERIODS`` keys) this category suits.
        dishes: The dishes.
    """

    key: str
    name: Bi
    group: Bi
    item: Bi
    one: Bi
    nouns: tuple[Bi, ...]
    attributes: tuple[Bi, ...]
    price: tuple[int, int]
    periods: frozenset[str]
    dishes: tuple[Dish, ...]


def _dishes(*rows: tuple[str, str, str]) -> tuple[Dish, ...]:
    return tuple(Dish(Bi(en, zh), frozenset(flags.split())) for en, zh, flags in rows)


def _b(*pairs: tuple[str, str]) -> tuple[Bi, ...]:
    return tuple(Bi(en, zh) for en, zh in pairs)


_PREP = _b(("Regular", "正常"), ("Less oil", "少油"), ("Less salt", "少盐"))
_ICE = _b(("No ice", "去冰"), ("Less ice", "少冰"), ("Regular ice", "正常冰"))

CATEGORIES: tuple[FoodCategory, ...] = (
    FoodCategory(
        "noodles", Bi("Noodles", "面食"), Bi("Quick meals", "快餐简餐"),
        Bi("noodle dish", "面"), Bi("a noodle dish", "一份面"),
        _b(("Noodle House", "面馆"), ("Noodle Bar", "面铺"), ("Noodle Kitchen", "面坊")),
        _b(("Thin noodles", "细面"), ("Wide noodles", "宽面")),
        (18, 38), frozenset({"lunch", "dinner", "night"}),
        _dishes(
            ("Braised Beef Noodles", "红烧牛肉面", "beef"),
            ("Spicy Beef Noodles", "麻辣牛肉面", "beef spicy"),
            ("Pork Rib Noodles", "排骨面", "pork"),
            ("Zhajiang Noodles", "炸酱面", "pork"),
            ("Dan Dan Noodles", "担担面", "pork spicy nuts"),
            ("Tomato and Egg Noodles", "番茄鸡蛋面", ""),
            ("Scallion Oil Noodles", "葱油拌面", ""),
            ("Mushroom Noodle Soup", "菌菇汤面", ""),
            ("Seafood Noodle Soup", "海鲜汤面", "seafood"),
            ("Shredded Chicken Noodles", "鸡丝面", "chicken"),
            ("Hot and Sour Glass Noodles", "酸辣粉", "spicy"),
            ("Shrimp Wonton Noodles", "鲜虾云吞面", "seafood pork"),
        ),
    ),
    FoodCategory(
        "rice_bowls", Bi("Rice bowls", "盖饭"), Bi("Quick meals", "快餐简餐"),
        Bi("rice bowl", "盖饭"), Bi("a rice bowl", "一份盖饭"),
        _b(("Rice Bowl Bar", "盖饭馆"), ("Rice Kitchen", "饭堂"), ("Bowl House", "饭庄")),
        _b(("White rice", "白米饭"), ("Brown rice", "糙米饭")),
        (18, 40), frozenset({"lunch", "dinner"}),
        _dishes(
            ("Teriyaki Chicken Rice Bowl", "照烧鸡腿饭", "chicken"),
            ("Braised Pork Rice", "卤肉饭", "pork"),
            ("Kung Pao Chicken Rice", "宫保鸡丁饭", "chicken nuts spicy"),
            ("Mapo Tofu Rice", "麻婆豆腐饭", "pork spicy"),
            ("Tomato Scrambled Egg Rice", "番茄炒蛋饭", ""),
            ("Mushroom and Tofu Rice Bowl", "香菇豆腐盖饭", ""),
            ("Beef Brisket Rice", "牛腩饭", "beef"),
            ("Curry Chicken Rice", "咖喱鸡饭", "chicken"),
            ("Seasonal Greens Rice Bowl", "清炒时蔬饭", ""),
            ("Shrimp Fried Rice", "虾仁炒饭", "seafood"),
            ("Egg Fried Rice", "蛋炒饭", ""),
            ("Black Pepper Beef Rice", "黑椒牛柳饭", "beef"),
        ),
    ),
    FoodCategory(
        "dumplings", Bi("Dumplings", "饺子馄饨"), Bi("Quick meals", "快餐简餐"),
        Bi("dumpling or wonton dish", "饺子或馄饨"),
        Bi("a portion of dumplings or wontons", "一份饺子或馄饨"),
        _b(("Dumpling House", "饺子馆"), ("Wonton Shop", "馄饨铺"), ("Dumpling King", "水饺王")),
        _b(("Boiled", "水煮"), ("Pan-fried", "煎")),
        (16, 36), frozenset({"lunch", "dinner", "night"}),
        _dishes(
            ("Pork and Cabbage Dumplings", "猪肉白菜水饺", "pork"),
            ("Leek and Egg Dumplings", "韭菜鸡蛋水饺", ""),
            ("Shrimp Dumplings", "鲜虾水饺", "seafood"),
            ("Beef and Celery Dumplings", "牛肉芹菜水饺", "beef"),
            ("Three-Delicacy Vegetable Dumplings", "素三鲜水饺", ""),
            ("Lamb and Carrot Dumplings", "羊肉胡萝卜水饺", "lamb"),
            ("Pork Wontons in Chili Oil", "红油抄手", "pork spicy"),
            ("Shrimp Wonton Soup", "鲜虾馄饨", "seafood pork"),
            ("Shepherd's Purse Wonton Soup", "荠菜馄饨", ""),
            ("Pan-fried Pork Buns", "生煎包", "pork"),
            ("Corn and Vegetable Dumplings", "玉米蔬菜水饺", ""),
            ("Chicken and Mushroom Dumplings", "鸡肉香菇水饺", "chicken"),
        ),
    ),
    FoodCategory(
        "burgers", Bi("Burgers and fried chicken", "汉堡炸鸡"), Bi("Western fast food", "西式快餐"),
        Bi("burger or fried chicken item", "汉堡炸鸡"), Bi("a burger or fried chicken item", "一份汉堡炸鸡"),
        _b(("Burger Joint", "汉堡店"), ("Fried Chicken", "炸鸡"), ("Burger Club", "汉堡屋")),
        _b(("Regular", "正常"), ("No onion", "去洋葱")),
        (15, 45), frozenset({"lunch", "dinner", "night"}),
        _dishes(
            ("Classic Beef Burger", "经典牛肉汉堡", "beef dairy"),
            ("Crispy Chicken Burger", "香脆鸡腿堡", "chicken"),
            ("Spicy Chicken Burger", "香辣鸡腿堡", "chicken spicy"),
            ("Fish Fillet Burger", "鳕鱼堡", "seafood dairy"),
            ("Veggie Bean Burger", "素食豆饼堡", ""),
            ("Fried Chicken Wings", "炸鸡翅", "chicken"),
            ("French Fries", "薯条", ""),
            ("Onion Rings", "洋葱圈", ""),
            ("Bacon Cheeseburger", "培根芝士堡", "pork beef dairy"),
            ("Mushroom Swiss Burger", "蘑菇芝士堡", "beef dairy"),
            ("Sweet Corn Cup", "甜玉米杯", "sugar"),
            ("Popcorn Chicken", "鸡米花", "chicken"),
        ),
    ),
    FoodCategory(
        "pizza", Bi("Pizza and pasta", "披萨意面"), Bi("Western food", "西餐"),
        Bi("pizza or pasta dish", "披萨或意面"), Bi("a pizza or pasta dish", "一份披萨或意面"),
        _b(("Pizzeria", "披萨坊"), ("Pasta Bar", "意面馆"), ("Trattoria", "意式餐厅")),
        _PREP,
        (30, 80), frozenset({"lunch", "dinner"}),
        _dishes(
            ("Margherita Pizza", "玛格丽特披萨", "dairy"),
            ("Spicy Pepperoni Pizza", "意式辣香肠披萨", "pork dairy spicy"),
            ("Seafood Pizza", "海鲜披萨", "seafood dairy"),
            ("Garden Vegetable Pizza", "田园蔬菜披萨", "dairy"),
            ("Spaghetti Bolognese", "肉酱意面", "beef"),
            ("Pesto Pasta", "青酱意面", "nuts dairy"),
            ("Tomato Basil Pasta", "番茄罗勒意面", ""),
            ("Spaghetti Carbonara", "培根奶油意面", "pork dairy"),
            ("Mushroom Risotto", "蘑菇烩饭", "dairy"),
            ("Garlic Shrimp Spaghetti", "蒜香虾仁意面", "seafood"),
            ("Grilled Vegetable Penne", "烤蔬菜通心粉", ""),
            ("Chicken Pesto Pizza", "青酱鸡肉披萨", "chicken nuts dairy"),
        ),
    ),
    FoodCategory(
        "salads", Bi("Salads and light meals", "轻食沙拉"), Bi("Healthy food", "健康轻食"),
        Bi("salad or light meal", "轻食沙拉"), Bi("a salad or light meal", "一份轻食沙拉"),
        _b(("Salad Lab", "沙拉实验室"), ("Green Kitchen", "轻食厨房"), ("Salad Bar", "沙拉吧")),
        _b(("Japanese dressing", "和风汁"), ("Vinaigrette", "油醋汁")),
        (25, 55), frozenset({"lunch", "dinner", "breakfast"}),
        _dishes(
            ("Chicken Breast Salad", "鸡胸肉沙拉", "chicken"),
            ("Avocado Shrimp Salad", "牛油果虾仁沙拉", "seafood"),
            ("Quinoa Vegetable Bowl", "藜麦蔬菜碗", ""),
            ("Tuna Salad", "金枪鱼沙拉", "seafood"),
            ("Tofu Poke Bowl", "豆腐波奇碗", ""),
            ("Beef Light Meal Box", "牛肉轻食餐盒", "beef"),
            ("Mixed Nut Salad", "坚果蔬菜沙拉", "nuts"),
            ("Salmon Poke Bowl", "三文鱼波奇碗", "seafood"),
            ("Roasted Vegetable Wrap", "烤蔬菜卷", ""),
            ("Greek Yogurt Fruit Bowl", "希腊酸奶水果碗", "dairy sugar"),
            ("Egg and Broccoli Bowl", "鸡蛋西兰花碗", ""),
            ("Sweet Potato Chickpea Bowl", "红薯鹰嘴豆碗", ""),
        ),
    ),
    FoodCategory(
        "homestyle", Bi("Home-style dishes", "家常菜"), Bi("Chinese cuisine", "中餐"),
        Bi("home-style dish", "家常菜"), Bi("a home-style dish", "一份家常菜"),
        _b(("Home Kitchen", "家常菜馆"), ("Family Restaurant", "小厨"), ("Canteen", "食堂")),
        _PREP,
        (20, 58), frozenset({"lunch", "dinner"}),
        _dishes(
            ("Kung Pao Chicken", "宫保鸡丁", "chicken nuts spicy"),
            ("Fish-Fragrant Shredded Pork", "鱼香肉丝", "pork spicy"),
            ("Twice-Cooked Pork", "回锅肉", "pork spicy"),
            ("Hand-Torn Cabbage", "手撕包菜", ""),
            ("Tomato and Egg Stir-Fry", "西红柿炒鸡蛋", ""),
            ("Dry-Fried Green Beans", "干煸四季豆", "pork spicy"),
            ("Boiled Fish in Chili Oil", "水煮鱼", "seafood spicy"),
            ("Braised Eggplant", "红烧茄子", ""),
            ("Sweet and Sour Pork", "糖醋里脊", "pork sugar"),
            ("Garlic Broccoli", "蒜蓉西兰花", ""),
            ("Beef with Green Peppers", "青椒牛肉", "beef"),
            ("Steamed Egg Custard", "鸡蛋羹", ""),
        ),
    ),
    FoodCategory(
        "cantonese", Bi("Cantonese", "粤菜"), Bi("Chinese cuisine", "中餐"),
        Bi("Cantonese dish", "粤菜"), Bi("a Cantonese dish", "一份粤菜"),
        _b(("Cantonese Kitchen", "粤菜馆"), ("Cha Chaan Teng", "茶餐厅"), ("Dim Sum House", "点心馆")),
        _PREP,
        (22, 68), frozenset({"breakfast", "lunch", "dinner"}),
        _dishes(
            ("Soy Sauce Chicken Rice", "豉油鸡饭", "chicken"),
            ("Char Siu Rice", "叉烧饭", "pork sugar"),
            ("White-Cut Chicken", "白切鸡", "chicken"),
            ("Shrimp Har Gow", "虾饺皇", "seafood"),
            ("Pork Siu Mai", "干蒸烧卖", "pork"),
            ("Egg Rice Noodle Rolls", "鸡蛋肠粉", ""),
            ("Beef Rice Noodle Rolls", "牛肉肠粉", "beef"),
            ("Stir-Fried Seasonal Vegetables", "清炒时蔬", ""),
            ("Century Egg and Pork Congee", "皮蛋瘦肉粥", "pork"),
            ("Steamed Sea Bass", "清蒸鲈鱼", "seafood"),
            ("Vegetable Buns", "香菇菜包", ""),
            ("Egg Tarts", "葡式蛋挞", "dairy sugar"),
        ),
    ),
    FoodCategory(
        "japanese", Bi("Japanese", "日料"), Bi("International cuisine", "异国料理"),
        Bi("Japanese dish", "日料"), Bi("a Japanese dish", "一份日料"),
        _b(("Sushi Bar", "寿司"), ("Izakaya", "居酒屋"), ("Ramen House", "拉面馆")),
        _b(("Regular", "正常"), ("No wasabi", "不要芥末")),
        (28, 78), frozenset({"lunch", "dinner"}),
        _dishes(
            ("Salmon Sushi Platter", "三文鱼寿司拼盘", "seafood"),
            ("Chicken Katsu Curry", "日式咖喱鸡排饭", "chicken"),
            ("Tonkotsu Ramen", "豚骨拉面", "pork"),
            ("Cucumber Maki Rolls", "黄瓜卷", ""),
            ("Beef Sukiyaki Bowl", "寿喜烧牛肉饭", "beef sugar"),
            ("Vegetable Tempura", "蔬菜天妇罗", ""),
            ("Grilled Eel Rice", "鳗鱼饭", "seafood sugar"),
            ("Miso Tofu Set", "味噌豆腐定食", ""),
            ("Shrimp Tempura Udon", "天妇罗虾乌冬面", "seafood"),
            ("Avocado Rolls", "牛油果卷", ""),
            ("Edamame", "盐水毛豆", ""),
            ("Teriyaki Chicken Don", "照烧鸡肉丼", "chicken"),
        ),
    ),
    FoodCategory(
        "korean", Bi("Korean", "韩餐"), Bi("International cuisine", "异国料理"),
        Bi("Korean dish", "韩餐"), Bi("a Korean dish", "一份韩餐"),
        _b(("Korean Kitchen", "韩式料理"), ("Seoul House", "首尔小馆"), ("K-Food", "韩食")),
        _PREP,
        (25, 70), frozenset({"lunch", "dinner", "night"}),
        _dishes(
            ("Beef Bibimbap", "牛肉石锅拌饭", "beef spicy"),
            ("Vegetable Bibimbap", "蔬菜拌饭", ""),
            ("Korean Fried Chicken", "韩式炸鸡", "chicken"),
            ("Kimchi Fried Rice", "泡菜炒饭", "pork spicy"),
            ("Soybean Paste Stew", "大酱汤", ""),
            ("Army Stew", "部队锅", "pork spicy"),
            ("Japchae Glass Noodles", "杂菜粉丝", ""),
            ("Bulgogi Beef Rice", "韩式烤牛肉饭", "beef sugar"),
            ("Seafood Pancake", "海鲜饼", "seafood"),
            ("Spicy Rice Cakes", "辣炒年糕", "spicy"),
            ("Spicy Pork Rice", "辣猪肉饭", "pork spicy"),
            ("Vegetable Kimbap", "蔬菜紫菜包饭", ""),
        ),
    ),
    FoodCategory(
        "bbq", Bi("Barbecue", "烧烤"), Bi("Late-night snacks", "夜宵小吃"),
        Bi("barbecue item", "烧烤"), Bi("a barbecue item", "一份烧烤"),
        _b(("BBQ", "烧烤"), ("Skewer House", "串串屋"), ("Grill", "烤吧")),
        _PREP,
        (12, 48), frozenset({"dinner", "night"}),
        _dishes(
            ("Lamb Skewers", "羊肉串", "lamb spicy"),
            ("Beef Skewers", "牛肉串", "beef"),
            ("Grilled Chicken Wings", "烤鸡翅", "chicken"),
            ("Grilled Oysters", "蒜蓉烤生蚝", "seafood"),
            ("Grilled Eggplant", "蒜蓉烤茄子", ""),
            ("Grilled Corn", "烤玉米", ""),
            ("Pork Belly Skewers", "五花肉串", "pork"),
            ("Grilled Squid", "烤鱿鱼", "seafood spicy"),
            ("Grilled Tofu", "烤豆腐", ""),
            ("Grilled Shiitake Mushrooms", "烤香菇", ""),
            ("Grilled Chinese Chives", "烤韭菜", ""),
            ("Spicy Chicken Gizzards", "香辣鸡胗", "chicken spicy"),
        ),
    ),
    FoodCategory(
        "breakfast", Bi("Breakfast", "早餐"), Bi("Quick meals", "快餐简餐"),
        Bi("breakfast item", "早餐"), Bi("a breakfast item", "一份早餐"),
        _b(("Breakfast Shop", "早餐铺"), ("Bun House", "包子铺"), ("Morning Kitchen", "早点")),
        _b(("Regular", "正常"), ("Less oil", "少油")),
        (6, 22), frozenset({"breakfast"}),
        _dishes(
            ("Soy Milk and Fried Dough Sticks", "豆浆油条", ""),
            ("Steamed Pork Buns", "鲜肉包", "pork"),
            ("Mushroom and Greens Buns", "香菇青菜包", ""),
            ("Century Egg Congee", "皮蛋粥", ""),
            ("Millet Congee", "小米粥", ""),
            ("Jianbing with Egg", "鸡蛋煎饼果子", ""),
            ("Tea Eggs", "茶叶蛋", ""),
            ("Beef Pie", "牛肉馅饼", "beef"),
            ("Seafood Congee", "海鲜粥", "seafood"),
            ("Sweet Peanut Soup", "花生汤", "nuts sugar"),
            ("Chicken Sandwich", "鸡肉三明治", "chicken dairy"),
            ("Red Bean Buns", "豆沙包", "sugar"),
        ),
    ),
    FoodCategory(
        "milk_tea", Bi("Milk tea and fruit tea", "奶茶果茶"), Bi("Drinks and desserts", "饮品甜点"),
        Bi("tea drink", "奶茶或果茶"), Bi("a milk tea or fruit tea", "一杯奶茶或果茶"),
        _b(("Tea House", "茶饮"), ("Tea Bar", "茶铺"), ("Tea Lab", "茶研所")),
        _ICE,
        (10, 30), frozenset({"afternoon", "night"}),
        _dishes(
            ("Pearl Milk Tea", "珍珠奶茶", "dairy sugar"),
            ("Passion Fruit Green Tea", "百香果绿茶", "sugar"),
            ("Unsweetened Lemon Black Tea", "无糖柠檬红茶", ""),
            ("Jasmine Green Tea", "茉莉绿茶", ""),
            ("Mango Smoothie", "芒果冰沙", "sugar"),
            ("Taro Milk Tea", "芋泥奶茶", "dairy sugar"),
            ("Peanut Milk Tea", "花生奶茶", "nuts dairy sugar"),
            ("Oolong Tea", "冻顶乌龙茶", ""),
            ("Grape Fruit Tea", "多肉葡萄", "sugar"),
            ("Cheese Foam Tea", "芝士奶盖茶", "dairy"),
            ("Grapefruit Jasmine Tea", "西柚茉莉", ""),
            ("Brown Sugar Boba Milk", "黑糖波波牛奶", "dairy sugar"),
        ),
    ),
    FoodCategory(
        "coffee", Bi("Coffee", "咖啡"), Bi("Drinks and desserts", "饮品甜点"),
        Bi("coffee or bakery item", "咖啡或烘焙"), Bi("a coffee or bakery item", "一份咖啡或烘焙"),
        _b(("Coffee", "咖啡"), ("Roasters", "烘焙坊"), ("Cafe", "咖啡馆")),
        _b(("Hot", "热"), ("Iced", "冰")),
        (15, 42), frozenset({"breakfast", "afternoon"}),
        _dishes(
            ("Americano", "美式咖啡", ""),
            ("Latte", "拿铁", "dairy"),
            ("Cappuccino", "卡布奇诺", "dairy"),
            ("Caramel Macchiato", "焦糖玛奇朵", "dairy sugar"),
            ("Hazelnut Latte", "榛果拿铁", "nuts dairy sugar"),
            ("Oat Milk Latte", "燕麦拿铁", ""),
            ("Cold Brew", "冷萃咖啡", ""),
            ("Mocha", "摩卡", "dairy sugar"),
            ("Coconut Latte", "生椰拿铁", "sugar"),
            ("Almond Croissant", "杏仁可颂", "nuts dairy"),
            ("Ham and Cheese Croissant", "火腿芝士可颂", "pork dairy"),
            ("Vegetable Sandwich", "蔬菜三明治", ""),
        ),
    ),
    FoodCategory(
        "desserts", Bi("Desserts", "甜品"), Bi("Drinks and desserts", "饮品甜点"),
        Bi("dessert", "甜品"), Bi("a dessert", "一份甜品"),
        _b(("Dessert House", "甜品屋"), ("Sweet Shop", "糖水铺"), ("Patisserie", "甜点工坊")),
        _b(("Regular", "常规"), ("Less sweet", "少甜")),
        (12, 38), frozenset({"afternoon", "night"}),
        _dishes(
            ("Mango Pomelo Sago", "杨枝甘露", "sugar"),
            ("Double-Skin Milk Pudding", "双皮奶", "dairy sugar"),
            ("Tiramisu", "提拉米苏", "dairy sugar"),
            ("Fresh Fruit Platter", "鲜切水果拼盘", ""),
            ("Grass Jelly", "烧仙草", "sugar"),
            ("Coconut Milk Pudding", "椰奶冻", "sugar"),
            ("Peanut Mochi", "花生麻薯", "nuts sugar"),
            ("Fruit Salad Cup", "水果捞", ""),
            ("Red Bean Soup", "红豆沙", "sugar"),
            ("Durian Crepe", "榴莲班戟", "dairy sugar"),
            ("Sugar-Free Tofu Pudding", "无糖豆花", ""),
            ("Chilled Coconut Jelly", "椰子冻", ""),
        ),
    ),
    FoodCategory(
        "malatang", Bi("Malatang", "麻辣烫"), Bi("Snacks", "小吃"),
        Bi("bowl of malatang", "麻辣烫"), Bi("a bowl of malatang", "一份麻辣烫"),
        _b(("Malatang", "麻辣烫"), ("Hot Pot Bowl", "冒菜"), ("Spicy Pot", "香锅")),
        _b(("Regular broth", "原汤"), ("Less broth", "少汤")),
        (18, 42), frozenset({"lunch", "dinner", "night"}),
        _dishes(
            ("Classic Malatang", "经典麻辣烫", "spicy"),
            ("Beef Malatang", "肥牛麻辣烫", "beef spicy"),
            ("Clear Broth Vegetable Malatang", "清汤蔬菜麻辣烫", ""),
            ("Seafood Malatang", "海鲜麻辣烫", "seafood spicy"),
            ("Tomato Broth Malatang", "番茄汤麻辣烫", ""),
            ("Pork Meatball Malatang", "猪肉丸麻辣烫", "pork"),
            ("Chicken Mala Xiang Guo", "鸡肉麻辣香锅", "chicken spicy"),
            ("Pork Bone Broth Malatang", "骨汤麻辣烫", "pork"),
            ("Mushroom Malatang", "菌菇麻辣烫", ""),
            ("Lamb Malatang", "羊肉麻辣烫", "lamb spicy"),
            ("Peanut Sauce Malatang", "花生酱拌麻辣烫", "nuts"),
            ("Tofu Skin Malatang", "腐竹麻辣烫", ""),
        ),
    ),
)  # fmt: skip
"""Sixteen delivery food categories with twelve dishes each."""

CATEGORIES_BY_KEY: Mapping[str, FoodCategory] = MappingProxyType({c.key: c for c in CATEGORIES})
"""Categories by key (read-only)."""

_KIN_PAIRS: tuple[tuple[str, str], ...] = (
    ("noodles", "japanese"),  # ramen, udon
    ("noodles", "korean"),  # glass noodles
    ("noodles", "malatang"),
    ("noodles", "cantonese"),  # rice noodle rolls
    ("noodles", "dumplings"),  # wonton noodles
    ("rice_bowls", "japanese"),  # donburi
    ("rice_bowls", "korean"),  # bibimbap, fried rice
    ("rice_bowls", "cantonese"),  # char siu rice
    ("rice_bowls", "homestyle"),
    ("dumplings", "cantonese"),  # har gow, siu mai
    ("dumplings", "breakfast"),  # buns
    ("homestyle", "cantonese"),
    ("breakfast", "cantonese"),  # congee
    ("breakfast", "coffee"),  # sandwiches
    ("desserts", "cantonese"),  # egg tarts
    ("desserts", "coffee"),
    ("desserts", "milk_tea"),
    ("coffee", "milk_tea"),
    ("salads", "japanese"),  # poke bowls
)

KIN: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        c.key: frozenset(b if a == c.key else a for a, b in _KIN_PAIRS if c.key in (a, b))
        for c in CATEGORIES
    }
)
"""Category key → keys of categories whose dishes could pass for it ("a noodle dish" also
describes a Japanese shop's ramen). Kin categories never share a task's roles: sub-goals use
pairwise unrelated categories, and wrong-category distractors and fillers avoid every kin."""

FLAG_TAGS: Mapping[str, Bi] = MappingProxyType(
    {
        "pork": Bi("Pork", "猪肉"),
        "beef": Bi("Beef", "牛肉"),
        "chicken": Bi("Chicken", "鸡肉"),
        "lamb": Bi("Lamb", "羊肉"),
        "seafood": Bi("Seafood", "海鲜"),
        "nuts": Bi("Contains nuts", "含坚果"),
        "spicy": Bi("Spicy", "辣"),
        "sugar": Bi("Sweet", "含糖"),
        "dairy": Bi("Contains dairy", "含乳制品"),
    }
)
"""Product tag shown for each dish flag (tags are listed in this order)."""

EXTRA_TAGS: tuple[Bi, ...] = (
    Bi("Best seller", "招牌"),
    Bi("New", "新品"),
    Bi("Popular", "人气"),
    Bi("Value pick", "实惠"),
)
"""Neutral product tags sprinkled on some products."""

VARIANTS: tuple[Bi, ...] = (
    Bi("", ""),
    Bi(" (Large)", "（大份）"),
    Bi(" Combo", "套餐"),
    Bi(" (Small)", "（小份）"),
    Bi(" Deluxe", "豪华版"),
)
"""Name variants of a dish (the first is the plain dish)."""

BRANDS: tuple[Bi, ...] = (
    Bi("Old Zhang's", "老张"), Bi("Golden Bowl", "金碗"), Bi("Xiao Li's", "小李"),
    Bi("Auntie Wang's", "王阿姨"), Bi("Red Lantern", "红灯笼"), Bi("Jade Garden", "翡翠园"),
    Bi("Lucky Star", "福星"), Bi("Green Leaf", "绿叶"), Bi("Sunny Day", "晴天"),
    Bi("Moonlight", "月光"), Bi("Harbour", "港湾"), Bi("Bamboo House", "竹屋"),
    Bi("Spring Breeze", "春风"), Bi("Old Town", "老城"), Bi("Silver Spoon", "银勺"),
    Bi("Morning Dew", "晨露"), Bi("Lotus Pond", "荷塘"), Bi("Seabreeze", "海风"),
    Bi("Maple", "枫叶"), Bi("Hometown", "故乡"), Bi("Brother Chen's", "陈哥"),
    Bi("Happy Bite", "开心一口"), Bi("Little Chef", "小厨师"), Bi("Plum Blossom", "梅花"),
    Bi("Cloud Nine", "云上"), Bi("Fortune", "鸿运"), Bi("Corner", "街角"),
    Bi("Sister Liu's", "刘姐"), Bi("Blue Sky", "蓝天"), Bi("Orchard", "果园"),
)  # fmt: skip
"""First parts of store names."""

NOTES: tuple[Bi, ...] = (
    Bi("Please leave it at the front desk.", "请放在前台。"),
    Bi("No cutlery needed, thank you.", "不需要餐具，谢谢。"),
    Bi("Please call me when you arrive.", "到了请给我打电话。"),
    Bi("Please don't ring the doorbell, the baby is asleep.", "请不要按门铃，宝宝在睡觉。"),
    Bi("No cilantro, please.", "请不要放香菜。"),
    Bi("Please put the sauce on the side.", "酱汁请单独放。"),
    Bi("Please hand it to the security guard downstairs.", "请交给楼下保安。"),
    Bi("Please knock gently instead of calling.", "请轻轻敲门，不要打电话。"),
)
"""Order notes a user may ask for."""

UNPAID_REASONS: tuple[Bi, ...] = (
    Bi("your partner wants to pay for it", "你爱人说要自己付"),
    Bi("a friend insisted on paying", "朋友坚持要自己付款"),
    Bi("you want to check with your roommate first", "你想先问问室友"),
    Bi("the company card will be used later", "之后要用公司的卡付款"),
)
"""Why the user wants an order created but not paid."""

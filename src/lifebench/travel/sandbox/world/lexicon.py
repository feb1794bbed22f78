"""Words the offline world builds its answers from (Chinese and English)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Category:
    """A kind of place: trigger words, label, name stems, spend range and opening hours."""

    triggers: tuple[str, ...]
    zh: str
    en: str
    stems_zh: tuple[str, ...]
    stems_en: tuple[str, ...]
    spend: tuple[int, int]
    hours: tuple[str, ...]
    price_kind: str = "average_cost"


CATEGORIES: tuple[Category, ...] = (
    Category(
        ("充电", "charging", "charger"),
        "充电站",
        "charging station",
        ("特来电充电站", "星星充电站", "国家电网充电站", "小桔充电站"),
        ("TELD Charging", "Star Charge", "State Grid Charging", "Xiaoju Charging"),
        (1, 2),
        ("00:00-24:00",),
    ),
    Category(
        ("加油", "油站", "petrol", "gas station", "fuel"),
        "加油站",
        "petrol station",
        ("中国石化加油站", "中国石油加油站", "壳牌加油站", "中海油加油站"),
        ("Sinopec", "PetroChina", "Shell", "CNOOC"),
        (7, 9),
        ("00:00-24:00", "06:00-23:00"),
    ),
    Category(
        ("服务区", "service area"),
        "高速服务区",
        "service area",
        ("服务区",),
        ("Service Area",),
        (20, 60),
        ("00:00-24:00",),
    ),
    Category(
        ("停车", "parking"),
        "停车场",
        "car park",
        ("公共停车场", "地下停车场", "智慧停车场"),
        ("Public Car Park", "Underground Car Park"),
        (5, 15),
        ("00:00-24:00",),
    ),
    Category(
        ("酒店", "宾馆", "住宿", "民宿", "hotel", "inn", "hostel"),
        "酒店",
        "hotel",
        ("全季酒店", "汉庭酒店", "亚朵酒店", "如家酒店", "维也纳酒店", "希尔顿欢朋酒店"),
        (
            "Ji Hotel",
            "Hanting Hotel",
            "Atour Hotel",
            "Home Inn",
            "Vienna Hotel",
            "Hampton by Hilton",
        ),
        (180, 680),
        ("00:00-24:00",),
        "price",
    ),
    Category(
        ("火锅", "hotpot", "hot pot"),
        "火锅",
        "hotpot",
        ("海底捞火锅", "小龙坎火锅", "大龙燚火锅", "巴奴毛肚火锅", "老码头火锅"),
        ("Haidilao Hotpot", "Xiaolongkan Hotpot", "Dalongyi Hotpot", "Banu Hotpot"),
        (80, 150),
        ("10:30-02:00", "11:00-23:00"),
    ),
    Category(
        ("咖啡", "coffee", "cafe"),
        "咖啡厅",
        "café",
        ("瑞幸咖啡", "星巴克", "Manner咖啡", "库迪咖啡", "Tims咖啡"),
        ("Luckin Coffee", "Starbucks", "Manner Coffee", "Cotti Coffee", "Tims Coffee"),
        (20, 45),
        ("07:30-21:00", "08:00-22:00"),
    ),
    Category(
        ("麦当劳", "肯德基", "快餐", "汉堡", "fast food", "burger", "mcdonald", "kfc"),
        "快餐",
        "fast food",
        ("麦当劳", "肯德基", "汉堡王", "华莱士"),
        ("McDonald's", "KFC", "Burger King", "Wallace"),
        (25, 45),
        ("06:30-23:00", "00:00-24:00"),
    ),
    Category(
        ("景点", "景区", "公园", "游玩", "好玩", "attraction", "park", "scenic", "sight"),
        "景点",
        "attraction",
        ("森林公园", "湿地公园", "古镇", "博物馆", "风景区"),
        ("Forest Park", "Wetland Park", "Old Town", "Museum", "Scenic Area"),
        (0, 120),
        ("08:30-17:30", "09:00-18:00"),
        "price",
    ),
    Category(
        ("医院", "诊所", "药店", "hospital", "clinic", "pharmacy"),
        "医疗",
        "medical",
        ("人民医院", "中医医院", "社区卫生服务中心", "大药房"),
        ("People's Hospital", "TCM Hospital", "Community Clinic", "Pharmacy"),
        (0, 0),
        ("00:00-24:00", "08:00-21:00"),
    ),
    Category(
        ("超市", "便利店", "商场", "购物", "supermarket", "convenience", "mall", "shop"),
        "购物",
        "shopping",
        ("永辉超市", "沃尔玛", "罗森便利店", "万达广场", "全家便利店"),
        ("Yonghui Supermarket", "Walmart", "Lawson", "Wanda Plaza", "FamilyMart"),
        (30, 120),
        ("08:00-22:00", "00:00-24:00"),
    ),
    Category(
        ("厕所", "卫生间", "toilet", "restroom"),
        "公共厕所",
        "public toilet",
        ("公共厕所",),
        ("Public Toilet",),
        (0, 0),
        ("00:00-24:00",),
    ),
    Category(
        ("地铁", "公交", "车站", "station", "metro", "bus"),
        "交通设施",
        "transport",
        ("地铁站", "公交站", "客运站", "火车站"),
        ("Metro Station", "Bus Stop", "Coach Station", "Railway Station"),
        (0, 0),
        ("05:30-23:30",),
    ),
    Category(
        (
            "吃",
            "饭",
            "餐",
            "美食",
            "小吃",
            "面",
            "菜",
            "烧烤",
            "food",
            "restaurant",
            "eat",
            "dinner",
            "lunch",
            "noodle",
            "bbq",
        ),
        "餐厅",
        "restaurant",
        ("家常菜馆", "土菜馆", "面馆", "烧烤", "小吃店", "农家乐", "川菜馆", "粤菜馆"),
        (
            "Home Kitchen",
            "Country Kitchen",
            "Noodle House",
            "BBQ",
            "Snack Bar",
            "Farm Kitchen",
            "Sichuan Kitchen",
            "Cantonese Kitchen",
        ),
        (35, 120),
        ("10:00-22:00", "11:00-14:00,17:00-21:30", "09:00-21:00"),
    ),
)

GENERIC = Category((), "地点", "place", ("",), ("",), (20, 100), ("09:00-21:00", "08:00-22:00"))

PREFIXES_ZH = (
    "鑫源",
    "福满",
    "顺达",
    "金诚",
    "悦来",
    "华联",
    "锦江",
    "东方",
    "和兴",
    "宏盛",
    "佳禾",
    "聚福",
    "同心",
    "安泰",
    "明珠",
    "新世纪",
)
PREFIXES_EN = (
    "Golden",
    "Lucky",
    "Sunrise",
    "Harbour",
    "Evergreen",
    "Jade",
    "Riverside",
    "Pearl",
    "Lotus",
    "Crown",
    "Harmony",
    "Orchid",
)
STREETS_ZH = (
    "人民路",
    "建设路",
    "解放路",
    "中山路",
    "新华路",
    "和平路",
    "文化路",
    "胜利路",
    "长江路",
    "黄河路",
    "迎宾大道",
    "滨江大道",
    "工业大道",
    "学府路",
    "朝阳路",
    "光明街",
)
STREETS_EN = (
    "Renmin Rd",
    "Jianshe Rd",
    "Jiefang Rd",
    "Zhongshan Rd",
    "Xinhua Rd",
    "Heping Rd",
    "Wenhua Rd",
    "Shengli Rd",
    "Changjiang Rd",
    "Huanghe Rd",
    "Yingbin Ave",
    "Binjiang Ave",
)
FEATURES_ZH = (
    "环境干净",
    "停车方便",
    "服务热情",
    "性价比高",
    "排队较少",
    "适合家庭",
    "24小时营业",
    "可刷卡",
    "有包间",
    "口碑老店",
)
FEATURES_EN = (
    "clean",
    "easy parking",
    "friendly staff",
    "good value",
    "short queues",
    "family friendly",
    "open 24 hours",
    "cards accepted",
    "private rooms",
    "long-standing favourite",
)
REVIEWS_ZH = (
    "味道不错，下次还来",
    "位置好找，停车方便",
    "服务态度很好",
    "价格实惠，分量足",
    "环境一般但性价比高",
    "排队有点久，但值得",
)
REVIEWS_EN = (
    "Tasty, will come again",
    "Easy to find and park",
    "Very friendly service",
    "Good value, generous portions",
    "Plain place but good value",
    "A bit of a queue, worth it",
)
ROADS_ZH = (
    "G4京港澳高速",
    "G15沈海高速",
    "G60沪昆高速",
    "G30连霍高速",
    "G2京沪高速",
    "S1机场高速",
    "环城高速",
    "绕城高速",
    "国道G205",
    "省道S230",
)
ROADS_EN = (
    "G4 Beijing-HK-Macau Expwy",
    "G15 Shenyang-Haikou Expwy",
    "G60 Shanghai-Kunming Expwy",
    "G30 Lianyungang-Khorgas Expwy",
    "G2 Beijing-Shanghai Expwy",
    "Ring Expressway",
    "National Road G205",
    "Provincial Road S230",
)
AIRLINES = (
    ("CA", "中国国航", "Air China"),
    ("MU", "东方航空", "China Eastern"),
    ("CZ", "南方航空", "China Southern"),
    ("HU", "海南航空", "Hainan Airlines"),
    ("MF", "厦门航空", "Xiamen Airlines"),
    ("3U", "四川航空", "Sichuan Airlines"),
    ("ZH", "深圳航空", "Shenzhen Airlines"),
    ("SC", "山东航空", "Shandong Airlines"),
    ("HO", "吉祥航空", "Juneyao Air"),
    ("9C", "春秋航空", "Spring Airlines"),
)
AIRCRAFT = (
    "空客A320",
    "空客A321",
    "波音737-800",
    "波音737 MAX 8",
    "空客A330-300",
    "波音787-9",
    "C919",
    "ARJ21",
)
CONDITIONS = (
    ("晴", "sunny"),
    ("多云", "cloudy"),
    ("阴", "overcast"),
    ("小雨", "light rain"),
    ("阵雨", "showers"),
    ("中雨", "moderate rain"),
    ("雷阵雨", "thunderstorms"),
    ("小雪", "light snow"),
    ("雾", "fog"),
    ("霾", "haze"),
)
WINDS_ZH = ("北风", "东北风", "东风", "东南风", "南风", "西南风", "西风", "西北风")
WINDS_EN = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
WEEKDAYS_ZH = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
WEEKDAYS_EN = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def category_of(query: object) -> Category:
    """The category whose trigger words occur in ``query`` (generic when none)."""
    text = query.lower() if isinstance(query, str) else ""
    for category in CATEGORIES:
        if any(t in text for t in category.triggers):
            return category
    return GENERIC

"""Travel: airports and stations per city, hotel and attraction name parts, rooms, tickets, seats.

Everything an OTA task needs beyond people and places. Hotel tags, room types, ticket types
and seat classes are the vocabulary the generated constraints are stated in, so each must be
unambiguous on its own (no tag is a paraphrase of another; an attraction's category word
appears in the names of that category only).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from lifebench.vita.generate.pools._bi import Bi


def _b(*pairs: tuple[str, str]) -> tuple[Bi, ...]:
    """Parallel (English, Chinese) pairs as :class:`Bi` texts."""
    return tuple(Bi(en, zh) for en, zh in pairs)


# --------------------------------------------------------------------------------------------
# Airports and railway stations
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Terminal:
    """An airport or a railway station: its full address and coordinates."""

    address: Bi
    longitude: float
    latitude: float


@dataclass(frozen=True)
class Hubs:
    """The main airport (None: the city has none) and high-speed railway station of a city."""

    airport: Terminal | None
    station: Terminal


def _t(en: str, zh: str, lon: float, lat: float) -> Terminal:
    """A terminal from its address pair and coordinates."""
    return Terminal(Bi(en, zh), lon, lat)


HUBS: Mapping[str, Hubs] = MappingProxyType(
    {
        "Beijing": Hubs(
            _t("Beijing Capital International Airport, Shunyi District, Beijing",
               "北京市顺义区北京首都国际机场", 116.603, 40.080),
            _t("Beijing South Railway Station, Fengtai District, Beijing",
               "北京市丰台区北京南站", 116.379, 39.865),
        ),
        "Shanghai": Hubs(
            _t("Shanghai Hongqiao International Airport, Changning District, Shanghai",
               "上海市长宁区上海虹桥国际机场", 121.336, 31.198),
            _t("Shanghai Hongqiao Railway Station, Minhang District, Shanghai",
               "上海市闵行区上海虹桥站", 121.320, 31.194),
        ),
        "Guangzhou": Hubs(
            _t("Guangzhou Baiyun International Airport, Baiyun District, Guangzhou, "
               "Guangdong Province", "广东省广州市白云区广州白云国际机场", 113.299, 23.392),
            _t("Guangzhou South Railway Station, Panyu District, Guangzhou, Guangdong Province",
               "广东省广州市番禺区广州南站", 113.269, 22.989),
        ),
        "Shenzhen": Hubs(
            _t("Shenzhen Bao'an International Airport, Bao'an District, Shenzhen, "
               "Guangdong Province", "广东省深圳市宝安区深圳宝安国际机场", 113.811, 22.639),
            _t("Shenzhen North Railway Station, Longhua District, Shenzhen, Guangdong Province",
               "广东省深圳市龙华区深圳北站", 114.029, 22.610),
        ),
        "Hangzhou": Hubs(
            _t("Hangzhou Xiaoshan International Airport, Xiaoshan District, Hangzhou, "
               "Zhejiang Province", "浙江省杭州市萧山区杭州萧山国际机场", 120.434, 30.236),
            _t("Hangzhou East Railway Station, Shangcheng District, Hangzhou, Zhejiang Province",
               "浙江省杭州市上城区杭州东站", 120.213, 30.291),
        ),
        "Chengdu": Hubs(
            _t("Chengdu Shuangliu International Airport, Shuangliu District, Chengdu, "
               "Sichuan Province", "四川省成都市双流区成都双流国际机场", 103.947, 30.578),
            _t("Chengdu East Railway Station, Chenghua District, Chengdu, Sichuan Province",
               "四川省成都市成华区成都东站", 104.141, 30.630),
        ),
        "Wuhan": Hubs(
            _t("Wuhan Tianhe International Airport, Huangpi District, Wuhan, Hubei Province",
               "湖北省武汉市黄陂区武汉天河国际机场", 114.208, 30.784),
            _t("Wuhan Railway Station, Hongshan District, Wuhan, Hubei Province",
               "湖北省武汉市洪山区武汉站", 114.424, 30.607),
        ),
        "Xi'an": Hubs(
            _t("Xi'an Xianyang International Airport, Xixian New Area, Xi'an, Shaanxi Province",
               "陕西省西安市西咸新区西安咸阳国际机场", 108.752, 34.447),
            _t("Xi'an North Railway Station, Weiyang District, Xi'an, Shaanxi Province",
               "陕西省西安市未央区西安北站", 108.938, 34.377),
        ),
        "Nanjing": Hubs(
            _t("Nanjing Lukou International Airport, Jiangning District, Nanjing, "
               "Jiangsu Province", "江苏省南京市江宁区南京禄口国际机场", 118.862, 31.742),
            _t("Nanjing South Railway Station, Yuhuatai District, Nanjing, Jiangsu Province",
               "江苏省南京市雨花台区南京南站", 118.797, 31.969),
        ),
        "Chongqing": Hubs(
            _t("Chongqing Jiangbei International Airport, Yubei District, Chongqing",
               "重庆市渝北区重庆江北国际机场", 106.642, 29.719),
            _t("Chongqing North Railway Station, Yubei District, Chongqing",
               "重庆市渝北区重庆北站", 106.551, 29.610),
        ),
        "Tianjin": Hubs(
            _t("Tianjin Binhai International Airport, Dongli District, Tianjin",
               "天津市东丽区天津滨海国际机场", 117.346, 39.124),
            _t("Tianjin West Railway Station, Hongqiao District, Tianjin",
               "天津市红桥区天津西站", 117.163, 39.158),
        ),
        "Suzhou": Hubs(
            None,
            _t("Suzhou North Railway Station, Xiangcheng District, Suzhou, Jiangsu Province",
               "江苏省苏州市相城区苏州北站", 120.640, 31.419),
        ),
        "Xiamen": Hubs(
            _t("Xiamen Gaoqi International Airport, Huli District, Xiamen, Fujian Province",
               "福建省厦门市湖里区厦门高崎国际机场", 118.128, 24.544),
            _t("Xiamen North Railway Station, Jimei District, Xiamen, Fujian Province",
               "福建省厦门市集美区厦门北站", 118.074, 24.637),
        ),
        "Qingdao": Hubs(
            _t("Qingdao Jiaodong International Airport, Jiaozhou, Qingdao, Shandong Province",
               "山东省青岛市胶州市青岛胶东国际机场", 120.088, 36.362),
            _t("Qingdao North Railway Station, Licang District, Qingdao, Shandong Province",
               "山东省青岛市李沧区青岛北站", 120.374, 36.168),
        ),
        "Dalian": Hubs(
            _t("Dalian Zhoushuizi International Airport, Ganjingzi District, Dalian, "
               "Liaoning Province", "辽宁省大连市甘井子区大连周水子国际机场", 121.539, 38.966),
            _t("Dalian North Railway Station, Ganjingzi District, Dalian, Liaoning Province",
               "辽宁省大连市甘井子区大连北站", 121.600, 38.996),
        ),
        "Changsha": Hubs(
            _t("Changsha Huanghua International Airport, Changsha County, Changsha, "
               "Hunan Province", "湖南省长沙市长沙县长沙黄花国际机场", 113.220, 28.189),
            _t("Changsha South Railway Station, Yuhua District, Changsha, Hunan Province",
               "湖南省长沙市雨花区长沙南站", 113.065, 28.147),
        ),
        "Kunming": Hubs(
            _t("Kunming Changshui International Airport, Guandu District, Kunming, "
               "Yunnan Province", "云南省昆明市官渡区昆明长水国际机场", 102.929, 25.101),
            _t("Kunming South Railway Station, Chenggong District, Kunming, Yunnan Province",
               "云南省昆明市呈贡区昆明南站", 102.862, 24.886),
        ),
        "Harbin": Hubs(
            _t("Harbin Taiping International Airport, Daoli District, Harbin, "
               "Heilongjiang Province", "黑龙江省哈尔滨市道里区哈尔滨太平国际机场",
               126.250, 45.623),
            _t("Harbin West Railway Station, Nangang District, Harbin, Heilongjiang Province",
               "黑龙江省哈尔滨市南岗区哈尔滨西站", 126.578, 45.712),
        ),
        "Zhengzhou": Hubs(
            _t("Zhengzhou Xinzheng International Airport, Airport Economy Zone, Zhengzhou, "
               "Henan Province", "河南省郑州市航空港区郑州新郑国际机场", 113.841, 34.520),
            _t("Zhengzhou East Railway Station, Jinshui District, Zhengzhou, Henan Province",
               "河南省郑州市金水区郑州东站", 113.772, 34.760),
        ),
        "Shenyang": Hubs(
            _t("Shenyang Taoxian International Airport, Hunnan District, Shenyang, "
               "Liaoning Province", "辽宁省沈阳市浑南区沈阳桃仙国际机场", 123.483, 41.640),
            _t("Shenyang North Railway Station, Huanggu District, Shenyang, Liaoning Province",
               "辽宁省沈阳市皇姑区沈阳北站", 123.437, 41.820),
        ),
        "Fuzhou": Hubs(
            _t("Fuzhou Changle International Airport, Changle District, Fuzhou, "
               "Fujian Province", "福建省福州市长乐区福州长乐国际机场", 119.663, 25.935),
            _t("Fuzhou South Railway Station, Cangshan District, Fuzhou, Fujian Province",
               "福建省福州市仓山区福州南站", 119.392, 25.985),
        ),
        "Hefei": Hubs(
            _t("Hefei Xinqiao International Airport, Shushan District, Hefei, Anhui Province",
               "安徽省合肥市蜀山区合肥新桥国际机场", 116.977, 31.988),
            _t("Hefei South Railway Station, Baohe District, Hefei, Anhui Province",
               "安徽省合肥市包河区合肥南站", 117.290, 31.799),
        ),
    }
)  # fmt: skip
"""Airport and station of every city of :data:`~lifebench.vita.generate.pools.places.CITIES`,
keyed by the city's English name (Suzhou has no airport of its own)."""


# --------------------------------------------------------------------------------------------
# Hotels
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HotelStyle:
    """The second part of a hotel name with the star ratings it comes with."""

    name: Bi
    stars: tuple[int, int]


HOTEL_PREFIXES: tuple[Bi, ...] = _b(
    ("Lanting", "兰亭"), ("Yunqi", "云栖"), ("Hengyue", "恒悦"), ("Xinyue", "欣悦"),
    ("Huating", "华庭"), ("Boyue", "铂悦"), ("Ruiting", "瑞庭"), ("Yashe", "雅舍"),
    ("Qingxi", "清溪"), ("Mingdu", "明都"), ("Tianlun", "天伦"), ("Xiyue", "禧悦"),
    ("Shangpin", "尚品"), ("Jinghua", "京华"), ("Haiyue", "海悦"), ("Songyun", "松云"),
    ("Zhuyuan", "竹苑"), ("Lanyue", "澜悦"), ("Yijing", "逸景"), ("Huaxi", "华玺"),
    ("Wanxin", "万馨"), ("Chengyun", "承云"), ("Qiyue", "栖悦"), ("Hanlin", "翰林"),
    ("Jinfeng", "金枫"), ("Yuquan", "玉泉"), ("Tingtao", "听涛"), ("Guanlan", "观澜"),
    ("Ziyun", "紫云"), ("Fuyuan", "福元"), ("Hongyun", "鸿运"), ("Lixiang", "丽祥"),
)  # fmt: skip
"""First parts of hotel names."""

HOTEL_STYLES: tuple[HotelStyle, ...] = (
    HotelStyle(Bi("Grand Hotel", "大酒店"), (4, 5)),
    HotelStyle(Bi("International Hotel", "国际酒店"), (4, 5)),
    HotelStyle(Bi("Boutique Hotel", "精品酒店"), (3, 4)),
    HotelStyle(Bi("Garden Hotel", "花园酒店"), (3, 5)),
    HotelStyle(Bi("Business Hotel", "商务酒店"), (2, 3)),
    HotelStyle(Bi("Riverside Hotel", "江畔酒店"), (3, 5)),
    HotelStyle(Bi("Resort", "度假酒店"), (4, 5)),
    HotelStyle(Bi("Inn", "客栈"), (2, 3)),
    HotelStyle(Bi("Express Hotel", "快捷酒店"), (2, 2)),
    HotelStyle(Bi("Hotel", "酒店"), (3, 4)),
)
"""Second parts of hotel names."""

BRANCHES: tuple[Bi, ...] = _b(
    ("Airport", "机场"), ("Railway Station", "火车站"), ("Old Town", "古城"),
    ("Exhibition Centre", "会展中心"), ("University Town", "大学城"), ("High-tech Zone", "高新区"),
    ("Riverfront", "滨江"), ("Central Square", "中心广场"),
)  # fmt: skip
"""Branch names of a hotel chain ("Lanting Garden Hotel (Airport Branch)")."""

HOTEL_FEATURES: tuple[Bi, ...] = _b(
    ("Free parking", "免费停车"), ("Breakfast included", "含早餐"),
    ("Swimming pool", "游泳池"), ("Gym", "健身房"), ("Airport shuttle", "接机服务"),
    ("Pet friendly", "可携带宠物"), ("Near metro station", "近地铁站"),
    ("Kids' playroom", "儿童乐园"), ("Spa", "水疗中心"), ("Executive lounge", "行政酒廊"),
    ("Laundry service", "洗衣服务"), ("Self check-in", "自助入住"),
)  # fmt: skip
"""Hotel tags (facilities); each is a distinct facility."""

REQUESTABLE_FEATURES: tuple[tuple[Bi, Bi], ...] = (
    (Bi("Free parking", "免费停车"), Bi("free parking", "免费停车")),
    (Bi("Breakfast included", "含早餐"), Bi("breakfast included", "含早餐")),
    (Bi("Swimming pool", "游泳池"), Bi("a swimming pool", "游泳池")),
    (Bi("Gym", "健身房"), Bi("a gym", "健身房")),
    (Bi("Pet friendly", "可携带宠物"), Bi("pets allowed", "可携带宠物")),
    (Bi("Airport shuttle", "接机服务"), Bi("an airport shuttle", "接机服务")),
)
"""Tags a user may require, with how the instruction says it ("it must have free parking")."""


@dataclass(frozen=True)
class Variant:
    """A bookable kind of product: a room type, a ticket type or a seat class.

    ``key`` identifies it, ``code`` goes into product ids, ``group`` is what a constraint
    tests (the bed of a room, the ticket or seat kind), ``factor`` scales the base price.
    """

    key: str
    code: str
    name: Bi
    group: str
    factor: float


def _rooms() -> tuple[Variant, ...]:
    """Every grade × bed combination."""
    grades = (
        ("standard", "S", Bi("Standard", "标准"), 1.0),
        ("superior", "P", Bi("Superior", "高级"), 1.15),
        ("deluxe", "D", Bi("Deluxe", "豪华"), 1.35),
        ("executive", "E", Bi("Executive", "行政"), 1.7),
    )
    beds = (
        ("king", "K", Bi("King Room", "大床房"), 1.0),
        ("twin", "T", Bi("Twin Room", "双床房"), 1.04),
    )
    return tuple(
        Variant(
            f"{g}-{b}",
            f"{gc}{bc}",
            Bi(f"{gn.en} {bn.en}", f"{gn.zh}{bn.zh}"),
            b,
            round(gf * bf, 3),
        )
        for g, gc, gn, gf in grades
        for b, bc, bn, bf in beds
    )


ROOM_TYPES: tuple[Variant, ...] = _rooms()
"""Room types: four grades × king / twin (``group`` is the bed)."""

BEDS: Mapping[str, tuple[Bi, Bi]] = MappingProxyType(
    {
        "king": (Bi("King Room", "大床房"), Bi("a king-bed room", "大床房")),
        "twin": (Bi("Twin Room", "双床房"), Bi("a twin room", "双床房")),
    }
)
"""Bed kinds: the room-type ending that shows it, and how an instruction asks for it."""

STAR_PRICES: Mapping[int, tuple[int, int]] = MappingProxyType(
    {2: (160, 260), 3: (240, 400), 4: (380, 650), 5: (600, 1150)}
)
"""Base price of a standard room per star rating (yuan per night)."""

# --------------------------------------------------------------------------------------------
# Attractions
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttractionKind:
    """A kind of attraction.

    ``word`` is what an instruction asks for ("a museum") and appears in the names of this
    kind only; ``names`` are templates with ``{p}`` (a place-name prefix or the city name).
    """

    key: str
    word: Bi
    one: Bi
    names: tuple[Bi, ...]
    descriptions: tuple[Bi, ...]
    price: tuple[int, int]
    hours: tuple[str, ...]


ATTRACTION_KINDS: tuple[AttractionKind, ...] = (
    AttractionKind(
        "museum", Bi("Museum", "博物馆"), Bi("a museum", "一家博物馆"),
        _b(("{p} Museum", "{p}博物馆"), ("{p} History Museum", "{p}历史博物馆"),
           ("{p} Folk Culture Museum", "{p}民俗博物馆")),
        _b(("Exhibitions of local history, bronzes and ceramics", "展出本地历史文物、青铜器和陶瓷"),
           ("Permanent collection of calligraphy, paintings and old photographs",
            "常设书画与老照片展览")),
        (20, 80), ("09:00-17:00", "09:00-17:30", "09:30-17:00"),
    ),
    AttractionKind(
        "botanical", Bi("Botanical Garden", "植物园"), Bi("a botanical garden", "一个植物园"),
        _b(("{p} Botanical Garden", "{p}植物园"), ("{p} Tropical Botanical Garden", "{p}热带植物园")),
        _b(("Greenhouses, a rose garden and a bamboo grove", "温室、玫瑰园和竹林"),
           ("Seasonal flower shows and a lakeside walking trail", "四季花展和湖边步道")),
        (10, 45), ("07:30-18:00", "08:00-17:30"),
    ),
    AttractionKind(
        "zoo", Bi("Zoo", "动物园"), Bi("a zoo", "一个动物园"),
        _b(("{p} Zoo", "{p}动物园"), ("{p} Wildlife Zoo", "{p}野生动物园")),
        _b(("Giant pandas, big cats and a petting farm", "大熊猫、猫科动物和萌宠农场"),
           ("Safari drive-through area and bird shows", "自驾观赏区和鸟类表演")),
        (30, 160), ("08:00-17:00", "08:30-17:30"),
    ),
    AttractionKind(
        "aquarium", Bi("Aquarium", "海洋馆"), Bi("an aquarium", "一个海洋馆"),
        _b(("{p} Aquarium", "{p}海洋馆"), ("{p} Polar Aquarium", "{p}极地海洋馆")),
        _b(("Shark tunnel, penguins and a dolphin show", "鲨鱼隧道、企鹅馆和海豚表演"),
           ("Coral reef tanks and a jellyfish gallery", "珊瑚礁展缸和水母展区")),
        (90, 230), ("09:00-18:00", "09:30-17:30"),
    ),
    AttractionKind(
        "theme_park", Bi("Theme Park", "主题乐园"), Bi("a theme park", "一个主题乐园"),
        _b(("{p} Theme Park", "{p}主题乐园"), ("{p} Adventure Theme Park", "{p}探险主题乐园")),
        _b(("Roller coasters, a parade and evening fireworks", "过山车、花车巡游和夜间烟花"),
           ("Thrill rides and a children's area", "惊险游乐项目和儿童游乐区")),
        (150, 360), ("09:30-21:00", "10:00-20:00"),
    ),
    AttractionKind(
        "ancient_town", Bi("Ancient Town", "古镇"), Bi("an ancient town", "一个古镇"),
        _b(("{p} Ancient Town", "{p}古镇"), ("{p} Water Ancient Town", "{p}水乡古镇")),
        _b(("Canals, stone bridges and Ming-dynasty houses", "运河、石桥和明代民居"),
           ("Old streets with traditional crafts and snacks", "传统手工艺和小吃老街")),
        (40, 120), ("08:00-21:00", "08:30-22:00"),
    ),
    AttractionKind(
        "art_gallery", Bi("Art Gallery", "美术馆"), Bi("an art gallery", "一家美术馆"),
        _b(("{p} Art Gallery", "{p}美术馆"), ("{p} Modern Art Gallery", "{p}现代美术馆")),
        _b(("Modern and contemporary Chinese painting", "中国近现代绘画作品"),
           ("Rotating exhibitions of sculpture and photography", "雕塑与摄影轮换展览")),
        (20, 70), ("10:00-18:00", "09:30-17:30"),
    ),
    AttractionKind(
        "mountain", Bi("Mountain Scenic Area", "山景区"), Bi("a mountain scenic area", "一个山景区"),
        _b(("{p} Mountain Scenic Area", "{p}山景区"),),
        _b(("Hiking trails, a cable car and a summit viewing platform", "登山步道、索道和山顶观景台"),
           ("Waterfalls, forest trails and an old pavilion", "瀑布、林间步道和古亭")),
        (60, 190), ("07:00-18:00", "06:30-17:30"),
    ),
    AttractionKind(
        "water_park", Bi("Water Park", "水上乐园"), Bi("a water park", "一个水上乐园"),
        _b(("{p} Water Park", "{p}水上乐园"),),
        _b(("Wave pool, lazy river and water slides", "造浪池、漂流河和水滑梯"),
           ("Indoor and outdoor pools with water slides", "室内外泳池和水滑梯")),
        (100, 260), ("10:00-20:00", "10:00-21:00"),
    ),
)  # fmt: skip
"""Kinds of attractions."""

ATTRACTION_PREFIXES: tuple[Bi, ...] = _b(
    ("Qingyun", "青云"), ("Jinxiu", "锦绣"), ("Wanfeng", "万峰"), ("Longtan", "龙潭"),
    ("Fenghuang", "凤凰"), ("Cuiping", "翠屏"), ("Yunmeng", "云梦"), ("Xishan", "西山"),
    ("Nanhu", "南湖"), ("Jingyue", "净月"), ("Haixin", "海心"), ("Zhuyu", "竹语"),
    ("Baihe", "百合"), ("Tianchi", "天池"), ("Qixia", "栖霞"), ("Yuntai", "云台"),
    ("Lingxi", "灵溪"), ("Dongpo", "东坡"), ("Hongye", "红叶"), ("Shuilian", "水帘"),
)  # fmt: skip
"""Place-name prefixes of attraction names."""

TICKET_TYPES: tuple[Variant, ...] = (
    Variant("adult", "AD", Bi("Adult ticket", "成人票"), "adult", 1.0),
    Variant("student", "ST", Bi("Student ticket", "学生票"), "student", 0.5),
    Variant("child", "CH", Bi("Child ticket", "儿童票"), "child", 0.5),
    Variant("senior", "SN", Bi("Senior ticket", "老人票"), "senior", 0.6),
)
"""Ticket types (``group`` = ``key``)."""

TICKET_WORDS: Mapping[str, tuple[Bi, Bi]] = MappingProxyType(
    {
        "adult": (Bi("adult ticket", "成人票"), Bi("adult tickets", "成人票")),
        "student": (Bi("student ticket", "学生票"), Bi("student tickets", "学生票")),
        "child": (Bi("child ticket", "儿童票"), Bi("child tickets", "儿童票")),
        "senior": (Bi("senior ticket", "老人票"), Bi("senior tickets", "老人票")),
    }
)
"""Singular and plural of each ticket type in instructions."""

# --------------------------------------------------------------------------------------------
# Flights and trains
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Airline:
    """An airline: name and IATA code (flight numbers start with it)."""

    name: Bi
    code: str


AIRLINES: tuple[Airline, ...] = (
    Airline(Bi("Air China", "中国国际航空"), "CA"),
    Airline(Bi("China Eastern Airlines", "东方航空"), "MU"),
    Airline(Bi("China Southern Airlines", "南方航空"), "CZ"),
    Airline(Bi("Hainan Airlines", "海南航空"), "HU"),
    Airline(Bi("Sichuan Airlines", "四川航空"), "3U"),
    Airline(Bi("Xiamen Airlines", "厦门航空"), "MF"),
    Airline(Bi("Shenzhen Airlines", "深圳航空"), "ZH"),
    Airline(Bi("Spring Airlines", "春秋航空"), "9C"),
)
"""Airlines."""

FLIGHT_SEATS: tuple[Variant, ...] = (
    Variant("economy", "Y", Bi("Economy", "经济舱"), "economy", 1.0),
    Variant("business", "C", Bi("Business", "商务舱"), "business", 2.8),
    Variant("first", "F", Bi("First", "头等舱"), "first", 4.5),
)
"""Flight seat classes (``group`` = ``key``)."""

TRAIN_SEATS: tuple[Variant, ...] = (
    Variant("second", "2C", Bi("Second class", "二等座"), "second", 1.0),
    Variant("first", "1C", Bi("First class", "一等座"), "first", 1.6),
    Variant("business", "BC", Bi("Business class", "商务座"), "business", 3.1),
)
"""Train seat classes (``group`` = ``key``)."""

SEAT_WORDS: Mapping[str, Bi] = MappingProxyType(
    {
        "flight:economy": Bi("economy", "经济舱"),
        "flight:business": Bi("business-class", "商务舱"),
        "flight:first": Bi("first-class", "头等舱"),
        "train:second": Bi("second-class", "二等座"),
        "train:first": Bi("first-class", "一等座"),
        "train:business": Bi("business-class", "商务座"),
    }
)
"""How an instruction names a seat class ("an economy seat", "two second-class seats")."""

FLIGHT_TAGS: tuple[Bi, ...] = _b(
    ("Meal included", "含餐食"), ("Wi-Fi on board", "机上Wi-Fi"), ("Wide-body aircraft", "宽体机"),
    ("20 kg checked baggage", "托运行李20公斤"),
)  # fmt: skip
"""Extra flight tags (the airline name always comes first)."""

TRAIN_TAGS: tuple[Bi, ...] = _b(
    ("Quiet carriage", "静音车厢"), ("Dining car", "餐车"), ("Wi-Fi on board", "车上Wi-Fi"),
)  # fmt: skip
"""Extra train tags (the train kind always comes first)."""

TRAIN_KINDS: tuple[tuple[str, Bi], ...] = (
    ("G", Bi("High-speed rail", "高铁")),
    ("D", Bi("EMU", "动车")),
)
"""Train number letter and kind tag."""

# --------------------------------------------------------------------------------------------
# Reasons and history wording
# --------------------------------------------------------------------------------------------

TRIP_PURPOSES: tuple[Bi, ...] = _b(
    ("an industry conference", "参加一个行业会议"), ("a weekend getaway", "度个周末"),
    ("a friend's wedding", "参加朋友的婚礼"), ("a family visit", "探亲"),
    ("a client meeting", "和客户开会"), ("a photography trip", "拍照采风"),
    ("a training course", "参加一个培训课程"), ("a short holiday", "度个短假"),
)  # fmt: skip
"""Why the user travels ("for an industry conference" / "去…参加一个行业会议")."""

UNPAID_REASONS: tuple[Bi, ...] = _b(
    ("you want to check with your partner first", "你想先和伴侣商量一下"),
    ("your company reimburses it and the approval isn't through yet", "公司报销，审批还没下来"),
    ("you'll pay later with another card", "你打算稍后用另一张卡付款"),
    ("your travel companion hasn't confirmed yet", "同行的人还没最终确认"),
)  # fmt: skip
"""Why a booking is only created, not paid."""

CHANGE_REASONS: tuple[Bi, ...] = _b(
    ("your meeting there has been moved", "那边的会议改期了"),
    ("the event you're going to was rescheduled", "你要参加的活动改了日期"),
    ("you have to stay at work a little longer", "工作上还要多留几天"),
    ("your friend asked you to come at another time", "朋友请你换个时间过去"),
)  # fmt: skip
"""Why a ticket's date changes."""

CANCEL_REASONS: tuple[Bi, ...] = _b(
    ("that trip is off", "那次行程取消了"),
    ("something came up at work that day", "那天工作上临时有事"),
    ("your child has an exam then", "那时候孩子要考试"),
    ("the weather forecast looks bad", "天气预报不太好"),
)  # fmt: skip
"""Why a booking is cancelled."""

PREFERRED_TRANSPORT: tuple[Bi, ...] = _b(
    ("High-speed train for short trips, plane for long ones", "短途坐高铁，长途坐飞机"),
    ("Prefers high-speed trains", "偏好高铁"),
    ("Prefers flying", "偏好坐飞机"),
)  # fmt: skip
"""Travel habits in the history."""

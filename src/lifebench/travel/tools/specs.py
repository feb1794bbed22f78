"""The ten TravelBench tools as the agent sees them: names, parameters, types, enums, required
lists and defaults as in the official harness; the prose (descriptions) in our own words, in
Chinese and English. One source for the agent, the judge, the tool simulator and the CLI."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lifebench._util.text import Language, Text


@dataclass(frozen=True)
class ParamSpec:
    """One parameter: JSON-schema type, optional enum / item type, and its description."""

    name: str
    type: str
    description: Text
    enum: tuple[str, ...] = ()
    items: dict[str, Any] | None = None

    def schema(self, language: Language) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.items is not None:
            out["items"] = dict(self.items)
        if self.enum:
            out["enum"] = list(self.enum)
        out["description"] = self.description.get(language)
        return out


@dataclass(frozen=True)
class ToolSpecTB:
    """One tool: name, description, parameters (in schema order) and the required ones."""

    name: str
    description: Text
    params: tuple[ParamSpec, ...]
    required: tuple[str, ...]
    defaults: dict[str, Any] = field(default_factory=dict)

    @property
    def param_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    def parameters_schema(self, language: Language) -> dict[str, Any]:
        return {
            "type": "object",
            "required": list(self.required),
            "properties": {p.name: p.schema(language) for p in self.params},
        }

    def openai_schema(self, language: Language) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description.get(language),
                "parameters": self.parameters_schema(language),
            },
        }


def _p(name: str, type_: str, en: str, zh: str, **kw: Any) -> ParamSpec:
    return ParamSpec(name, type_, Text(en, zh), **kw)


_STR_LIST = {"type": "string"}
_MODES = ("driving", "walking", "bicycling", "transit", "motorcycle", "truck")
_PREFERENCES = (
    "prefer_highways",
    "avoid_highways",
    "avoid_tolls",
    "prefer_main_roads",
    "avoid_highways+avoid_tolls",
)
_PRICE_CATEGORY = ("average_cost", "price")

_REGION_EN = (
    "An administrative area in mainland China (province, city, district or county). Prefer the "
    'full path, e.g. "北京市" or "北京市朝阳区"'
)
_REGION_ZH = '中国境内的省、市、区县名称，最好写完整路径，如"北京市"或"北京市朝阳区"'
_DATE_EN = 'First day to search, "YYYY-MM-DD" (e.g. "2025-07-15").'
_DATE_ZH = '查询起始日期，格式"YYYY-MM-DD"（如"2025-07-15"）。'
_LATLNG_EN = 'Coordinates "latitude,longitude", e.g. "39.9087,116.3974".'
_LATLNG_ZH = '坐标，格式"纬度,经度"，如"39.9087,116.3974"。'
_PRICE_MIN = _p(
    "price_min",
    "number",
    "Lower bound of the price or average spend, in CNY. Default 0.",
    "价格或人均消费下限（元），默认 0。",
)
_PRICE_MAX = _p(
    "price_max",
    "number",
    "Upper bound of the price or average spend, in CNY. No upper bound when omitted.",
    "价格或人均消费上限（元），不填则不设上限。",
)
_MIN_RATING = _p("min_rating", "number", "Lowest rating to keep, 0-10.", "最低评分，0-10。")
_LIMIT = _p("limit", "number", "Most results to return. Default 10.", "最多返回条数，默认 10。")


def _price_category(also_sort: bool) -> ParamSpec:
    when_en = "price_min / price_max" + (' or sort_by "price:a"/"price:d"' if also_sort else "")
    when_zh = "price_min / price_max" + ("，或 sort_by 为 price:a / price:d" if also_sort else "")
    return _p(
        "price_category",
        "string",
        f"Which price the filter uses; required with {when_en}. average_cost: spend per person "
        "(restaurants, entertainment); price: item price (hotels, attractions).",
        f"价格口径；使用 {when_zh} 时必填。average_cost：人均消费（餐厅、娱乐等）；"
        "price：商品价格（酒店、景点等）。",
        enum=_PRICE_CATEGORY,
    )


def _days(thing_en: str, thing_zh: str) -> ParamSpec:
    return _p(
        "days",
        "number",
        f"Extra days after date: days+1 days of {thing_en} are returned (date 2025-12-01 with "
        "days 3 covers 12-01 to 12-04). Default 0, from 0 to 15.",
        f"在 date 之后多查的天数，共返回 days+1 天的{thing_zh}（date 为 2025-12-01、days 为 3 "
        "时覆盖 12-01 至 12-04）。默认 0，取值 0-15。",
    )


TOOLS: tuple[ToolSpecTB, ...] = (
    ToolSpecTB(
        name="travel_search_flights",
        description=Text(
            "Search domestic flights in mainland China between two places, direct and with "
            "connections, for one day or several consecutive days (to compare prices, e.g. "
            '"which day next week is cheapest to fly to Shanghai"). Each flight has its number, '
            "airline, departure and arrival airports and times, flight time, aircraft type and "
            "price range.",
            "查询中国境内两地之间的航班（含直飞与中转），可一次查连续多天以便比价（如"
            '"下周哪天飞上海最便宜"）。每个航班给出航班号、航空公司、起降机场与时间、飞行时长、'
            "机型和价格区间。",
        ),
        params=(
            _p(
                "origin",
                "string",
                f'Departure place. {_REGION_EN}; avoid ambiguous bare names like "朝阳区".',
                f'出发地。{_REGION_ZH}；避免"朝阳区"这类有歧义的名称。',
            ),
            _p(
                "destination",
                "string",
                "Arrival place, same form as origin.",
                "到达地，写法同 origin。",
            ),
            _p("date", "string", _DATE_EN, _DATE_ZH),
            _days("flights", "航班"),
        ),
        required=("origin", "destination", "date"),
        defaults={"days": 0},
    ),
    ToolSpecTB(
        name="travel_search_trains",
        description=Text(
            "Search the train and high-speed rail timetable between two places in mainland "
            "China, for one day or several consecutive days (intercity options, comparing fares "
            'across dates, e.g. "high-speed trains to Shanghai next week"). Each train has its '
            "number, whether it is direct, fare, departure and arrival times and stations, and "
            "journey time.",
            "查询中国境内两地之间的火车/高铁时刻，可一次查连续多天（城际出行方案、不同日期票价"
            '比较，如"下周去上海的高铁"）。每个车次给出车次号、是否直达、票价、出发/到达时间与'
            "车站、全程用时。",
        ),
        params=(
            _p(
                "origin",
                "string",
                f'Departure place. {_REGION_EN}. A bare last-level name ("浦东新区") is looked '
                "up nationwide and fails when several places share it.",
                f'出发地。{_REGION_ZH}。只写末级名称（如"浦东新区"）时在全国范围匹配，重名则失败。',
            ),
            _p(
                "destination",
                "string",
                "Arrival place, same form as origin.",
                "到达地，写法同 origin。",
            ),
            _p("date", "string", _DATE_EN, _DATE_ZH),
            _days("trains", "车次"),
        ),
        required=("origin", "destination", "date"),
        defaults={"days": 0},
    ),
    ToolSpecTB(
        name="weather_current_conditions",
        description=Text(
            "Current weather of a city (not forecasts): condition (sunny, rain, ...), "
            "temperature, feels-like, wind and air quality (AQI).",
            "查询城市当前的实时天气（不做预报）：天气现象（晴、雨等）、气温、体感温度、风向风力、"
            "空气质量（AQI）。",
        ),
        params=(
            _p(
                "location",
                "string",
                'Place to look up, an administrative name such as "上海市" or "北京市朝阳区".',
                '要查询的地点，行政区划名称，如"上海市"、"北京市朝阳区"。',
            ),
        ),
        required=("location",),
    ),
    ToolSpecTB(
        name="weather_forecast_days",
        description=Text(
            'Weather forecast for a given day (e.g. "next Friday") or a run of days from it '
            '(e.g. "the next three days"), at most 15 days ahead of today. Each day has the '
            "date, a label (today / tomorrow / weekday), condition, low and high temperature, "
            "wind and air quality.",
            '查询某天（如"下周五"）或从某天起连续几天（如"未来三天"）的天气预报，最远到今天之后'
            "15 天。每天给出日期、标签（今天/明天/周几）、天气现象、最低/最高气温、风向风力和"
            "空气质量。",
        ),
        params=(
            _p(
                "location",
                "string",
                "Place to look up: an administrative name or a landmark.",
                "要查询的地点：行政区划名称或地标。",
            ),
            _p(
                "days",
                "number",
                "How many days after date to include as well (date itself is always included): "
                "days 1 gives date and the next day, days 3 gives four days. Default 1, from 1 "
                "to 15.",
                "在 date 之外再包含其后的天数（date 当天总会包含）：days 为 1 返回 2 天，为 3 返回"
                " 4 天。默认 1，取值 1-15。",
            ),
            _p(
                "date",
                "string",
                'Day to forecast, "YYYY-MM-DD" (e.g. "2025-11-05"); between today and 15 days '
                "from today.",
                '要预报的日期，格式"YYYY-MM-DD"（如"2025-11-05"），须在今天到今天之后 15 天之间。',
            ),
        ),
        required=("location", "date"),
    ),
    ToolSpecTB(
        name="map_compute_routes",
        description=Text(
            "Plan routes from an origin to a destination, optionally through waypoints "
            '("how do I get from A to B", "how long does it take", "is a taxi, the metro or '
            'walking faster", "avoid highways or tolls"). Modes: driving, public transit, '
            "walking, cycling, motorcycle, truck; live traffic, cost or road-type preferences "
            "can shape the route. For each mode: route type, distance, duration, estimated "
            "arrival, traffic lights (driving), fare (transit), roads taken, transfers "
            "(transit), congested length and time (driving).",
            '规划从起点到终点（可经途经点）的出行路线（"从 A 到 B 怎么走"、"要多久"、"打车、'
            '地铁还是步行更快"、"怎么避开高速或收费站"）。支持驾车、公交、步行、骑行、摩托车、'
            "货车，可按实时路况、费用或道路类型偏好定制。每种方式返回：路线类型、总距离、预计用时、"
            "预计到达时间、红绿灯数（驾车）、费用（公交）、途经道路、换乘方案（公交）、拥堵距离与"
            "时长（驾车）。",
        ),
        params=(
            _p("origin", "string", f"Start point. {_LATLNG_EN}", f"起点。{_LATLNG_ZH}"),
            _p(
                "destination",
                "string",
                "End point, same form as origin.",
                "终点，格式同 origin。",
            ),
            _p(
                "intermediates",
                "array",
                "Waypoints passed in order, each in the same form as origin.",
                "按顺序经过的途经点，每个格式同 origin。",
                items=_STR_LIST,
            ),
            _p(
                "modes",
                "array",
                "Travel modes. preference and traffic_aware apply only to driving, motorcycle "
                'and truck. Default ["driving"].',
                "出行方式列表；preference 与 traffic_aware 只对 driving、motorcycle、"
                'truck 生效。默认 ["driving"]。',
                items={"type": "string", "enum": list(_MODES)},
            ),
            _p(
                "departure_time",
                "string",
                'Leaving time for a traffic forecast, ISO 8601 ("2025-07-11T09:00:00"); not '
                "together with arrival_time. Default: now.",
                '出发时间，用于预测路况，ISO 8601 格式（如"2025-07-11T09:00:00"）；不能与 '
                "arrival_time 同时使用。默认当前时间。",
            ),
            _p(
                "arrival_time",
                "string",
                "Wished arrival time (ISO 8601), to work out when to leave; not together with "
                "departure_time.",
                "期望到达时间（ISO 8601），用于倒推出发时间；不能与 departure_time 同时使用。",
            ),
            _p(
                "traffic_aware",
                "boolean",
                "true: plan on live road conditions; false: plan on historical averages "
                "(fastest to answer, may include roads closed right now; answers can drift as "
                "data updates). Only for driving, motorcycle and truck. Default false.",
                "true：按实时路网和路况规划；false：按历史平均数据规划（响应最快，不考虑突发情况，"
                "可能含临时封闭路段；结果会随数据更新而变化）。仅对 driving、motorcycle、truck "
                "生效。默认 false。",
            ),
            _p(
                "preference",
                "string",
                "Route preference, used when modes include driving, motorcycle or truck: "
                "prefer_highways, avoid_highways, avoid_tolls, prefer_main_roads (main roads, "
                "fewer small streets and complex junctions: new drivers, large vehicles, night "
                "driving), avoid_highways+avoid_tolls. Unset: the fastest route.",
                "路线偏好，modes 含 driving、motorcycle 或 truck 时生效：prefer_highways 高速优先，"
                "avoid_highways 不走高速，avoid_tolls 避开收费，prefer_main_roads 走主干道（少走"
                "小路和复杂路口，适合新手、大车、夜间），avoid_highways+avoid_tolls 不走高速且避开"
                "收费。不填则取用时最短的路线。",
                enum=_PREFERENCES,
            ),
        ),
        required=("origin", "destination"),
        defaults={
            "intermediates": [],
            "modes": ["driving"],
            "departure_time": "",
            "arrival_time": "",
            "traffic_aware": False,
            "preference": "",
        },
    ),
    ToolSpecTB(
        name="map_search_places",
        description=Text(
            "Search places by keyword, category or address, around a point or within an "
            'administrative area (a specific place, "coffee shops", "petrol stations nearby", '
            "places in one district). Each place has its place_id, name, category, address, "
            "coordinates, rating, average spend, opening hours, open status, brand, features, "
            "rankings and selected reviews.",
            '按关键词、类别或地址搜索地点，可限定在某点周边或某行政区内（找具体地点、"咖啡馆"、'
            '"附近的加油站"、某区内的地点）。每个地点给出 place_id、名称、类别、地址、经纬度、'
            "评分、人均消费、营业时间、营业状态、品牌、特色、榜单和精选评价。",
        ),
        params=(
            _p(
                "query",
                "string",
                'What to look for: a keyword ("理发"), a category ("加油站") or an address.',
                '搜索内容：关键词（"理发"）、类别（"加油站"）或具体地址。',
            ),
            _p(
                "center",
                "string",
                f"Centre of a nearby search ('X near me', 'X near somewhere'). {_LATLNG_EN}",
                f'周边搜索的中心点（"附近的X"、"某地附近的X"时填写）。{_LATLNG_ZH}',
            ),
            _p(
                "radius",
                "number",
                "Search radius in metres, used with center. Default 5000, from 100 to 20000.",
                "搜索半径（米），配合 center 使用。默认 5000，取值 100-20000。",
            ),
            _p(
                "region",
                "string",
                'Administrative area to search in, preferably a district or county ("北京市", '
                '"北京市朝阳区"). No limit when omitted.',
                '限定搜索的行政区，尽量具体到区县（如"北京市"、"北京市朝阳区"）。不填则不限。',
            ),
            _p(
                "sort_by",
                "string",
                'Order: "weight" overall (default), "distance" nearest first, "rating:d" best '
                'rated first, "price:a" cheapest first, "price:d" dearest first.',
                '排序："weight" 综合（默认），"distance" 距离优先，"rating:d" 评分从高到低，'
                '"price:a" 价格从低到高，"price:d" 价格从高到低。',
                enum=("weight", "distance", "rating:d", "price:a", "price:d"),
            ),
            _MIN_RATING,
            _PRICE_MIN,
            _PRICE_MAX,
            _price_category(also_sort=True),
            _LIMIT,
        ),
        required=("query",),
        defaults={"radius": 5000, "sort_by": "weight", "limit": 10, "center": "", "region": ""},
    ),
    ToolSpecTB(
        name="map_search_along_route",
        description=Text(
            'Find places on the way from A to B (e.g. "fill up on the way home from work"): '
            "plans the default route between the two points and searches a corridor along it. "
            "Each place has its place_id, name, category, address, coordinates, tags, opening "
            "hours, open status and rankings.",
            '查找从 A 到 B 顺路的地点（如"下班回家顺路加个油"）：先规划两点之间的默认路线，再在'
            "路线两侧的缓冲带内搜索。每个地点给出 place_id、名称、类别、地址、经纬度、标签、"
            "营业时间、营业状态和榜单。",
        ),
        params=(
            _p(
                "query",
                "string",
                'What to look for, e.g. "加油站", "麦当劳", "充电桩".',
                '搜索内容，如"加油站"、"麦当劳"、"充电桩"。',
            ),
            _p("origin", "string", f"Start point. {_LATLNG_EN}", f"起点。{_LATLNG_ZH}"),
            _p("destination", "string", f"End point. {_LATLNG_EN}", f"终点。{_LATLNG_ZH}"),
            _p(
                "transport_mode",
                "string",
                "How the base route is planned: driving (default) or walking.",
                "规划基础路线的交通方式：driving 驾车（默认）或 walking 步行。",
                enum=("driving", "walking"),
            ),
            _p(
                "buffer_radius",
                "number",
                "How far from the route a place may be, in metres. Default 2000 when driving, "
                "500 when walking.",
                "地点距路线的最大偏离距离（米）。默认驾车 2000、步行 500。",
            ),
            _LIMIT,
        ),
        required=("query", "origin", "destination"),
        defaults={"transport_mode": "driving", "limit": 10},
    ),
    ToolSpecTB(
        name="map_search_central_places",
        description=Text(
            'Meeting-point search: places convenient for several starting points ("a hotpot '
            'place close to me, Xiaohong and Xiaoming", "a petrol station between A and B"). '
            "Scores how central each place is and recommends the best. Each place has its "
            "place_id, name, category, address, coordinates, rating, average spend, opening "
            "hours, open status, and its average, longest and total distance to the starting "
            "points.",
            '聚会选址/多点中心搜索：找对多个出发点都方便的地点（"离我和小红、小明都近的火锅店"、'
            '"A 地和 B 地中间的加油站"）。自动计算中心度并推荐。每个地点给出 place_id、名称、'
            "类别、地址、经纬度、评分、人均消费、营业时间、营业状态，以及到各出发点的平均、最远和"
            "总距离。",
        ),
        params=(
            _p("query", "string", "What to look for.", "搜索内容。"),
            _p(
                "origins",
                "array",
                'Starting points, at least two, each "latitude,longitude", e.g. '
                '["39.90,116.40", "39.95,116.35"].',
                '出发点列表，至少两个，每个格式为"纬度,经度"，如 ["39.90,116.40", "39.95,116.35"]。',
                items=_STR_LIST,
            ),
            _p(
                "radius",
                "number",
                "Search radius around each starting point in metres, 100-20000. Default 10000.",
                "每个出发点的搜索半径（米），100-20000，默认 10000。",
            ),
            _p(
                "sort_by",
                "string",
                "balanced (default): distance to everyone and quality together; "
                "min_max_distance: keep the farthest person's trip short; total_distance: the "
                "shortest sum of all trips.",
                "balanced（默认）：兼顾各出发点距离与地点质量；min_max_distance：让最远的人少跑路；"
                "total_distance：所有人路程之和最短。",
                enum=("balanced", "min_max_distance", "total_distance"),
            ),
            _MIN_RATING,
            _PRICE_MIN,
            _PRICE_MAX,
            _price_category(also_sort=False),
            _LIMIT,
        ),
        required=("query", "origins"),
        defaults={"radius": 10000, "sort_by": "balanced", "limit": 10},
    ),
    ToolSpecTB(
        name="map_search_ranking_list",
        description=Text(
            'Curated ranking lists of an area ("food list", "must-eat list") for quality '
            'recommendations, "where is the most popular", or when the user mentions a list. '
            "Returns matching lists, each with its name and ranked places: name, rank, "
            "place_id, address, business district, coordinates, category, average spend, "
            "favourites, opening hours, phone, why it is recommended and feature tags.",
            '查询某地区的推荐榜单（"美食榜"、"必吃榜"），用于高质量推荐、"哪里最火"或用户提到'
            "榜单时。返回匹配的榜单，每个榜单含名称和上榜地点：名称、排名、place_id、地址、商圈、"
            "坐标、类别、人均消费、收藏数、营业时间、电话、推荐理由、特色标签。",
        ),
        params=(
            _p(
                "query",
                "string",
                'List category or keyword, e.g. "美食", "火锅", "游乐园", "酒店".',
                '榜单类别或关键词，如"美食"、"火锅"、"游乐园"、"酒店"。',
            ),
            _p(
                "region",
                "string",
                'Area of the lists, "{city}市" or "{city}市{district}区/县", e.g. "北京市", '
                '"杭州市".',
                '榜单所在行政区，格式为"{城市}市"或"{城市}市{区县}区/县"，如"北京市"、"杭州市"。',
            ),
            _p(
                "max_lists",
                "number",
                "Most lists to return. Default 5, from 1 to 10.",
                "最多返回的榜单数，默认 5，取值 1-10。",
            ),
            _p(
                "max_items",
                "number",
                "Most places per list. Default 3, from 1 to 20.",
                "每个榜单最多返回的地点数，默认 3，取值 1-20。",
            ),
        ),
        required=("query", "region"),
        defaults={"max_lists": 5, "max_items": 3},
    ),
    ToolSpecTB(
        name="web_search",
        description=Text(
            "Open web search for public information: general, open-ended or time-sensitive "
            "questions such as encyclopaedic facts, news, history, policies and regulations "
            '(e.g. "Beijing specialities", "fun amusement parks in Shanghai", "cities around '
            'Hangzhou", "New Year\'s Eve events in Beijing").',
            "开放域网页搜索，检索互联网公开信息：通用、开放或时效性强的问题，如百科知识、新闻、"
            '历史事件、政策法规（例："北京特色美食"、"上海好玩的游乐园"、"杭州周边有哪些城市"、'
            '"北京跨年活动"）。',
        ),
        params=(_p("query", "string", "What to search for.", "搜索内容。"),),
        required=("query",),
    ),
)
"""The ten tools, in the order the official registry registers them."""

TOOL_NAMES: tuple[str, ...] = tuple(t.name for t in TOOLS)
BY_NAME: dict[str, ToolSpecTB] = {t.name: t for t in TOOLS}


def tool_schemas(language: Language = "zh") -> list[dict[str, Any]]:
    """The OpenAI function schemas of the ten tools."""
    return [t.openai_schema(language) for t in TOOLS]

"""Query templates of the bundled rows (our own), per subset, in Chinese and English.

Slots: {city} {city_full} {city2} {city2_full} {dest} {district} {food} {facility} {day}
{weekday} {days} {rating} {budget}. Each template names its taxonomy leaf (``primary_intent``),
the goal the user simulator pursues (``intent``), what the context must hold, and the tool calls
it is planned to need (``avg_tool_calls``: our plan, not a measurement). Unsolvable templates
name their reason: ``missing_tool`` (no tool can do it), ``missing_info`` (key information is
not in the query or the context) or ``no_actionable`` (nothing is being asked).
"""

from __future__ import annotations

from dataclasses import dataclass

from lifebench.travel.generate.places import Named


@dataclass(frozen=True)
class Template:
    """One kind of row."""

    primary_intent: str
    queries: tuple[Named, ...]
    """Ways the user may put it (one is drawn per row)."""
    intent: Named
    avg_tool_calls: float = 0.0
    destination: bool = False
    navigation: bool = False
    reason: str | None = None
    bare: bool = False
    """Unsolvable rows only: no destination and no navigation info in the context."""


def _t(
    intent: str,
    q: tuple[str, str] | list[tuple[str, str]],
    goal: tuple[str, str],
    calls: float = 0.0,
    **kw: object,
) -> Template:
    variants = tuple(Named(*v) for v in (q if isinstance(q, list) else [q]))
    return Template(intent, variants, Named(*goal), calls, **kw)  # type: ignore[arg-type]


FOODS = (
    Named("火锅", "hotpot restaurant"),
    Named("川菜馆", "Sichuan restaurant"),
    Named("咖啡馆", "café"),
    Named("面馆", "noodle shop"),
    Named("烧烤", "barbecue restaurant"),
    Named("粤式早茶", "dim sum restaurant"),
    Named("素食餐厅", "vegetarian restaurant"),
    Named("本地小吃", "local snack shop"),
)
FACILITIES = (
    Named("加油站", "petrol station"),
    Named("充电站", "EV charging station"),
    Named("停车场", "car park"),
    Named("药店", "pharmacy"),
    Named("公共厕所", "public toilet"),
    Named("医院", "hospital"),
    Named("便利店", "convenience store"),
)
WEEKDAYS = (
    Named("周一", "Monday"),
    Named("周二", "Tuesday"),
    Named("周三", "Wednesday"),
    Named("周四", "Thursday"),
    Named("周五", "Friday"),
    Named("周六", "Saturday"),
    Named("周日", "Sunday"),
)
DAYS = (Named("明天", "tomorrow"), Named("后天", "the day after tomorrow"))

SINGLE: tuple[Template, ...] = (
    _t(
        "planning_and_decision.route_planning",
        (
            "开车去{dest}要多久，走哪条路",
            "How long is the drive to {dest}, and which way should I go?",
        ),
        ("从当前位置驾车去{dest}的路线和用时", "Driving route and time from here to {dest}"),
        2.0,
        destination=True,
    ),
    _t(
        "discovery.poi_search.constrained_poi_search",
        (
            "附近评分{rating}以上的{food}有哪些",
            "Which {food}s near me are rated {rating} or higher?",
        ),
        (
            "在当前位置附近找评分不低于{rating}的{food}",
            "Find {food}s near the current position rated at least {rating}",
        ),
        1.0,
    ),
    _t(
        "discovery.poi_search.spatial_optimized_poi_search",
        ("离我最近的{facility}在哪", "Where is the nearest {facility}?"),
        (
            "找到离当前位置最近的{facility}并给出导航信息",
            "Find the {facility} closest to the current position, with directions",
        ),
        2.0,
    ),
    _t(
        "discovery.poi_search.open_ended_poi_exploration",
        ("{district}附近有什么好逛的地方", "What is worth a visit around {district}?"),
        (
            "了解{city_full}{district}附近值得去的地方",
            "Places worth visiting around {district}, {city}",
        ),
        1.5,
    ),
    _t(
        "dynamic_information.realtime_traffic_and_transit.public_transit_schedules_and_routes",
        (
            "{day}从{city}去{city2}的高铁有哪些",
            "Which high-speed trains go from {city} to {city2} {day}?",
        ),
        ("查询{day}{city}到{city2}的高铁车次", "High-speed trains from {city} to {city2} {day}"),
        1.0,
    ),
    _t(
        "planning_and_decision.solution_comparison.transportation_mode_comparison",
        (
            "{weekday}从{city}去{city2}，坐飞机和高铁哪个划算",
            "Going from {city} to {city2} on {weekday}: is flying or the high-speed train better value?",
        ),
        (
            "比较{weekday}{city}到{city2}的航班和高铁的价格与用时",
            "Compare flights and high-speed trains from {city} to {city2} on {weekday} by price and time",
        ),
        2.5,
    ),
    _t(
        "dynamic_information.realtime_weather",
        ("{city}现在天气怎么样", "What's the weather like in {city} right now?"),
        ("查询{city_full}当前天气", "Current weather in {city}"),
        1.0,
    ),
    _t(
        "dynamic_information.realtime_weather",
        ("{city2}这个周末会下雨吗", "Will it rain in {city2} this weekend?"),
        ("查询本周末{city2_full}的天气预报", "This weekend's weather forecast for {city2}"),
        1.0,
    ),
    _t(
        "dynamic_information.realtime_traffic_and_transit.road_traffic_status",
        ("去{dest}的路上现在堵不堵", "Is the road to {dest} congested right now?"),
        ("了解从当前位置到{dest}路线的实时路况", "Live traffic on the route from here to {dest}"),
        2.0,
        destination=True,
        navigation=True,
    ),
    _t(
        "discovery.poi_search.spatial_optimized_poi_search",
        ("去{dest}的路上找个{facility}", "Find a {facility} on my way to {dest}"),
        ("在去{dest}的沿途找一个{facility}", "A {facility} along the route to {dest}"),
        2.0,
        destination=True,
        navigation=True,
    ),
    _t(
        "planning_and_decision.solution_comparison.route_comparison",
        ("去{dest}坐地铁快还是打车快", "To {dest}, is the metro or a taxi faster?"),
        (
            "比较从当前位置到{dest}地铁与驾车的用时",
            "Compare metro and driving time from here to {dest}",
        ),
        2.0,
        destination=True,
    ),
    _t(
        "discovery.poi_search.constrained_poi_search",
        ("{city}有什么上榜的{food}", "Which {food}s in {city} are on the local ranking lists?"),
        ("查看{city_full}的{food}榜单", "Ranking lists of {food}s in {city}"),
        1.0,
    ),
    _t(
        "discovery.poi_search.spatial_optimized_poi_search",
        (
            "我在{dest}，朋友在{landmark2}，找个两边都方便的{food}",
            "I'm at {dest} and my friend is at {landmark2}; find a {food} convenient for both",
        ),
        (
            "在{dest}和{landmark2}之间找一家双方都方便的{food}",
            "A {food} convenient for both {dest} and {landmark2}",
        ),
        3.0,
    ),
    _t(
        "planning_and_decision.itinerary_planning.simple_route_itinerary",
        (
            "{day}去{city2}玩一天，早上出发怎么安排交通",
            "Day trip to {city2} {day}, leaving in the morning: how should I plan the transport?",
        ),
        (
            "安排{day}从{city}到{city2}的一日往返交通",
            "Plan a same-day return trip from {city} to {city2} {day}",
        ),
        3.0,
    ),
)

MULTI: tuple[Template, ...] = (
    _t(
        "discovery.poi_search.constrained_poi_search",
        ("帮我在{dest}附近找个酒店", "Find me a hotel near {dest}"),
        (
            "今晚在{dest}附近找一家符合自己住宿偏好和预算的酒店",
            "A hotel near {dest} for tonight that fits my lodging preferences and budget",
        ),
        2.0,
    ),
    _t(
        "discovery.destination_discovery.open_ended_destination_discovery",
        [
            (
                "周末想出去玩两天，有什么推荐",
                "I'd like to get away for two days this weekend, any ideas?",
            ),
            ("这周末想从{city}出去转转", "I want to get out of {city} this weekend"),
            ("周末两天去哪玩好", "Where should I go for the two days of the weekend?"),
            ("想趁周末出去走走，{city}周边有推荐吗", "Any weekend trip ideas around {city}?"),
        ],
        (
            "从{city}出发的周末两日短途游，推荐目的地并安排往返交通",
            "A two-day weekend trip from {city}: suggest a destination and the transport there and back",
        ),
        4.0,
    ),
    _t(
        "discovery.poi_search.open_ended_poi_exploration",
        [
            ("想吃点好吃的", "I want something good to eat"),
            ("{district}这边有什么好吃的", "What's good to eat around {district}?"),
            ("饿了，附近吃点啥", "I'm hungry, what can I eat around here?"),
            ("晚上想找个地方吃饭", "Looking for somewhere to have dinner tonight"),
        ],
        (
            "在当前位置附近找一家符合自己口味偏好的餐厅",
            "A restaurant near the current position that suits my tastes",
        ),
        2.0,
    ),
    _t(
        "planning_and_decision.solution_comparison.transportation_mode_comparison",
        (
            "下周要去{city2}，怎么去比较好",
            "I'm going to {city2} next week, what's the best way to get there?",
        ),
        (
            "下周{weekday}从{city}去{city2}，按自己的出行偏好选交通方式并给出具体车次或航班",
            "On {weekday} next week from {city} to {city2}: choose the means of transport by my travel preferences and give the exact train or flight",
        ),
        3.0,
    ),
    _t(
        "planning_and_decision.itinerary_planning.short_trip_itinerary",
        ("去{city2}玩{days}天怎么安排", "How should I spend {days} days in {city2}?"),
        (
            "规划{days}天的{city2}行程（景点、住宿和交通），符合自己的旅游偏好",
            "A {days}-day plan for {city2} (sights, lodging, transport) that matches my travel preferences",
        ),
        5.0,
    ),
    _t(
        "discovery.poi_search.spatial_optimized_poi_search",
        [
            ("车快没电了", "My car's battery is nearly flat"),
            (
                "电量不多了，{district}附近能充电吗",
                "Running low on charge, can I charge around {district}?",
            ),
            ("找个地方充电", "Find somewhere to charge the car"),
            ("车子要充电了", "The car needs charging"),
        ],
        ("找到附近可用的充电站并给出导航", "A nearby charging station I can use, with directions"),
        2.0,
    ),
    _t(
        "discovery.poi_search.spatial_optimized_poi_search",
        [
            (
                "约朋友吃饭，找个中间的地方",
                "Meeting a friend for dinner, find somewhere in between",
            ),
            (
                "朋友在{landmark2}那边，约个吃饭的地方",
                "My friend is over by {landmark2}, find us a place to eat",
            ),
            ("和朋友聚餐，找个两边都近的", "Dinner with a friend, somewhere close for both of us"),
        ],
        (
            "和在{landmark2}附近的朋友约饭，找一家两边都方便、符合口味的餐厅",
            "Dinner with a friend near {landmark2}: a restaurant convenient for both and to my taste",
        ),
        3.0,
    ),
    _t(
        "discovery.poi_search.open_ended_poi_exploration",
        [
            ("周末带孩子去哪玩", "Where can I take the kids this weekend?"),
            ("{city}有什么适合带孩子玩的", "What is there for kids in {city}?"),
            ("带娃出去玩，去哪好", "Going out with the little one, where to?"),
        ],
        (
            "在{city}找一个适合带孩子周末去的地方并安排交通",
            "A weekend outing for the kids in {city}, with transport",
        ),
        3.0,
    ),
    _t(
        "planning_and_decision.route_planning",
        ("去{dest}怎么走", "How do I get to {dest}?"),
        (
            "从当前位置去{dest}，按自己的出行方式偏好给出路线",
            "Directions from here to {dest} by my preferred way of getting around",
        ),
        2.0,
        destination=True,
    ),
    _t(
        "planning_and_decision.feasibility_assessment",
        [
            ("{day}适合出去爬山吗", "Is {day} a good day for a hike?"),
            ("{day}想去爬山，天气行吗", "Thinking of a hike {day}, will the weather hold?"),
            ("{city}{day}能去爬山吗", "Can I go hiking in {city} {day}?"),
        ],
        (
            "查{day}{city}的天气，合适的话推荐附近能爬山的地方",
            "Check the weather in {city} {day} and, if it is fine, suggest a hiking spot nearby",
        ),
        2.5,
    ),
)

UNSOLVABLE: tuple[Template, ...] = (
    # missing_tool: no tool can carry it out
    _t(
        "application_interaction.notification_trigger",
        ("前面封路了，通了提醒我一声", "The road ahead is closed, tell me when it reopens"),
        ("道路恢复通行时提醒自己", "Be reminded when the road reopens"),
        reason="missing_tool",
        destination=True,
        navigation=True,
    ),
    _t(
        "application_interaction.system_control",
        [
            ("把导航声音调大一点", "Turn the navigation voice up a bit"),
            ("导航声音太小了，调大点", "The navigation is too quiet, turn it up"),
            ("播报声音大一些", "Make the voice prompts louder"),
        ],
        ("调高导航播报音量", "Raise the navigation voice volume"),
        reason="missing_tool",
    ),
    _t(
        "application_interaction.system_control",
        ("帮我订{day}去{city2}的高铁票", "Book me a high-speed train ticket to {city2} for {day}"),
        ("直接下单购买{day}到{city2}的高铁票", "Actually buy a train ticket to {city2} for {day}"),
        reason="missing_tool",
    ),
    _t(
        "application_interaction.system_control",
        [
            ("帮我叫辆车去{dest}", "Call me a taxi to {dest}"),
            ("叫个网约车，去{dest}", "Get me a ride-hailing car to {dest}"),
        ],
        ("叫一辆网约车去{dest}", "Order a ride to {dest}"),
        reason="missing_tool",
        destination=True,
    ),
    _t(
        "application_interaction.system_control",
        [
            ("把我现在的位置发给我老婆", "Send my current location to my wife"),
            ("把位置分享给我爸", "Share my location with my dad"),
            ("把我在哪发给朋友", "Send my whereabouts to my friend"),
        ],
        ("把当前位置分享给家人", "Share the current location with a family member"),
        reason="missing_tool",
    ),
    _t(
        "application_interaction.system_control",
        [
            ("放首歌听听", "Play some music"),
            ("来点音乐", "Put some music on"),
            ("放个电台", "Turn the radio on"),
        ],
        ("播放音乐", "Play music"),
        reason="missing_tool",
    ),
    _t(
        "application_interaction.notification_trigger",
        ("到{dest}前五公里叫我一下", "Wake me five kilometres before {dest}"),
        ("接近{dest}时提醒自己", "Be alerted when approaching {dest}"),
        reason="missing_tool",
        destination=True,
        navigation=True,
    ),
    _t(
        "application_interaction.system_control",
        [
            ("帮我把这个地址存成常用地址", "Save this address as a favourite"),
            ("把{dest}设成家", "Set {dest} as home"),
            ("把这里收藏一下", "Bookmark this place"),
        ],
        ("把地址保存到收藏", "Save the address to favourites"),
        reason="missing_tool",
        destination=True,
    ),
    # missing_info: the key fact is nowhere to be found
    _t(
        "discovery.poi_search.spatial_optimized_poi_search",
        [
            ("沿途找个服务区歇一下", "Find a service area along the way for a break"),
            ("路上找个地方加油", "Find somewhere to fill up on the way"),
            ("顺路找个吃饭的地方", "Find a place to eat along the route"),
        ],
        ("在行驶路线沿途找服务区", "A service area along the driving route"),
        reason="missing_info",
        bare=True,
    ),
    _t(
        "dynamic_information.realtime_traffic_and_transit.public_transit_schedules_and_routes",
        [
            ("那趟车几点到", "When does that train get in?"),
            ("他坐的车什么时候到站", "When does the train he's on arrive?"),
            ("我要接的那趟车晚点没", "Is the train I'm meeting running late?"),
        ],
        ("查询某趟车的到站时间", "Arrival time of some train"),
        reason="missing_info",
        bare=True,
    ),
    _t(
        "planning_and_decision.route_planning",
        [
            ("还要多久才能到", "How much longer until we get there?"),
            ("到那还得多久", "How long until we're there?"),
            ("几点能到啊", "What time will we arrive?"),
        ],
        ("了解到达目的地的剩余时间", "Time left to the destination"),
        reason="missing_info",
        bare=True,
    ),
    _t(
        "discovery.poi_search.constrained_poi_search",
        [
            ("我刚才说的那家店还开着吗", "Is the shop I just mentioned still open?"),
            ("上次去的那家饭馆今天营业吗", "Is the restaurant we went to last time open today?"),
            ("那个店几点关门", "What time does that shop close?"),
        ],
        ("确认之前提到的某家店是否营业", "Whether a previously mentioned shop is open"),
        reason="missing_info",
        bare=True,
    ),
    _t(
        "planning_and_decision.route_planning",
        [
            ("去那边坐几路车", "Which bus goes over there?"),
            ("到那儿坐地铁几号线", "Which metro line goes there?"),
            ("去他说的地方怎么坐车", "How do I get by bus to the place he mentioned?"),
        ],
        ("查询去某个未说明地点的公交", "A bus to an unnamed place"),
        reason="missing_info",
        bare=True,
    ),
    _t(
        "dynamic_information.realtime_traffic_and_transit.public_transit_schedules_and_routes",
        [
            ("帮我查下那个航班延误没有", "Check whether that flight is delayed"),
            ("她那班飞机落地了吗", "Has her flight landed yet?"),
            ("我那个航班改签了没", "Was my flight rebooked?"),
        ],
        ("查询某个未说明航班的延误情况", "Delay status of an unnamed flight"),
        reason="missing_info",
        bare=True,
    ),
    _t(
        "discovery.poi_search.spatial_optimized_poi_search",
        [
            ("他家附近有什么吃的", "What's there to eat near his place?"),
            ("我妈那边有没有药店", "Is there a pharmacy near my mum's?"),
            ("公司旁边有停车场吗", "Is there a car park next to the office?"),
        ],
        ("查询某人住处附近的餐厅", "Restaurants near someone's home"),
        reason="missing_info",
        bare=True,
    ),
    _t(
        "planning_and_decision.route_planning",
        [
            ("下个路口怎么走", "Which way at the next junction?"),
            ("前面该往哪拐", "Where do I turn up ahead?"),
            ("这个岔路走哪边", "Which side at this fork?"),
        ],
        ("了解下一个路口的行驶方向", "Direction at the next junction"),
        reason="missing_info",
        bare=True,
    ),
    # no_actionable: nothing is being asked
    _t(
        "application_interaction.system_control",
        [
            ("导航怎么又让我绕路了", "Why is the navigation sending me the long way again?"),
            ("这导航绕来绕去的", "This navigation keeps going round in circles"),
            ("又绕远了，烦死了", "Another detour, so annoying"),
        ],
        ("抱怨导航绕路", "Complaining about a detour"),
        reason="no_actionable",
        destination=True,
    ),
    _t(
        "discovery.poi_search.open_ended_poi_exploration",
        [
            ("你推荐的这是什么破地方", "What kind of dump did you recommend?"),
            ("这地方也太差了吧", "This place is really bad"),
            ("上次你推荐的店难吃死了", "The place you recommended last time was awful"),
        ],
        ("抱怨推荐的地方不好", "Complaining about a recommendation"),
        reason="no_actionable",
    ),
    _t(
        "dynamic_information.realtime_traffic_and_transit.road_traffic_status",
        [
            ("唉今天堵死了", "Ugh, total gridlock today"),
            ("怎么这么堵啊", "Why is it so jammed?"),
            ("又堵车，受不了", "Stuck in traffic again, I can't stand it"),
        ],
        ("感叹交通拥堵", "Sighing about the traffic"),
        reason="no_actionable",
    ),
    _t(
        "application_interaction.system_control",
        [
            ("为什么导航不走高速啊", "Why won't the navigation take the motorway?"),
            ("导航为啥不让我走隧道", "Why won't the navigation let me take the tunnel?"),
            ("怎么又让我走小路", "Why does it keep putting me on back roads?"),
        ],
        ("质疑导航没有选择高速路线", "Questioning why the route avoids motorways"),
        reason="no_actionable",
        destination=True,
    ),
    _t(
        "planning_and_decision.route_planning",
        [
            ("算了算了不去了", "Forget it, I'm not going"),
            ("不想去了", "I don't feel like going any more"),
            ("唉，去不去都行", "Meh, I don't care whether we go"),
        ],
        ("放弃出行", "Giving up the trip"),
        reason="no_actionable",
        destination=True,
    ),
    _t(
        "discovery.poi_search.open_ended_poi_exploration",
        [
            ("你刚刚说的不对", "What you just said is wrong"),
            ("你说的这个不行", "That's no good"),
            ("不是这个意思", "That's not what I meant"),
        ],
        (
            "否定之前的回答但没有说明需求",
            "Rejecting an earlier answer without saying what is wanted",
        ),
        reason="no_actionable",
    ),
)

TEMPLATES: dict[str, tuple[Template, ...]] = {
    "single": SINGLE,
    "multi": MULTI,
    "unsolvable": UNSOLVABLE,
}

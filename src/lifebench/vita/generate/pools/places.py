"""Places: cities with real-ish centre coordinates, and name parts for addresses."""

from __future__ import annotations

from dataclasses import dataclass

from lifebench.vita.generate.pools._bi import Bi


@dataclass(frozen=True)
class City:
    """A city with its province (None for municipalities), districts and climate.

    ``climate`` is (annual mean °C, half the summer–winter swing °C, mean humidity %).
    """

    name: Bi
    province: Bi | None
    longitude: float
    latitude: float
    districts: tuple[Bi, ...]
    climate: tuple[float, float, int]


def _d(*pairs: tuple[str, str]) -> tuple[Bi, ...]:
    return tuple(Bi(en, zh) for en, zh in pairs)


CITIES: tuple[City, ...] = (
    City(Bi("Beijing", "北京"), None, 116.4074, 39.9042,
         _d(("Chaoyang", "朝阳"), ("Haidian", "海淀"), ("Dongcheng", "东城")), (13, 15, 55)),
    City(Bi("Shanghai", "上海"), None, 121.4737, 31.2304,
         _d(("Xuhui", "徐汇"), ("Jing'an", "静安"), ("Changning", "长宁")), (17, 11, 73)),
    City(Bi("Guangzhou", "广州"), Bi("Guangdong", "广东"), 113.2644, 23.1291,
         _d(("Tianhe", "天河"), ("Yuexiu", "越秀"), ("Haizhu", "海珠")), (22, 8, 77)),
    City(Bi("Shenzhen", "深圳"), Bi("Guangdong", "广东"), 114.0579, 22.5431,
         _d(("Futian", "福田"), ("Nanshan", "南山"), ("Luohu", "罗湖")), (23, 7, 75)),
    City(Bi("Hangzhou", "杭州"), Bi("Zhejiang", "浙江"), 120.1551, 30.2741,
         _d(("Xihu", "西湖"), ("Gongshu", "拱墅"), ("Binjiang", "滨江")), (17, 12, 74)),
    City(Bi("Chengdu", "成都"), Bi("Sichuan", "四川"), 104.0665, 30.5723,
         _d(("Jinjiang", "锦江"), ("Wuhou", "武侯"), ("Qingyang", "青羊")), (16, 10, 80)),
    City(Bi("Wuhan", "武汉"), Bi("Hubei", "湖北"), 114.3054, 30.5931,
         _d(("Wuchang", "武昌"), ("Jianghan", "江汉"), ("Hongshan", "洪山")), (17, 13, 75)),
    City(Bi("Xi'an", "西安"), Bi("Shaanxi", "陕西"), 108.9398, 34.3416,
         _d(("Yanta", "雁塔"), ("Beilin", "碑林"), ("Lianhu", "莲湖")), (14, 13, 62)),
    City(Bi("Nanjing", "南京"), Bi("Jiangsu", "江苏"), 118.7969, 32.0603,
         _d(("Xuanwu", "玄武"), ("Gulou", "鼓楼"), ("Jianye", "建邺")), (16, 13, 72)),
    City(Bi("Chongqing", "重庆"), None, 106.5516, 29.5630,
         _d(("Yuzhong", "渝中"), ("Jiangbei", "江北"), ("Nan'an", "南岸")), (18, 10, 79)),
    City(Bi("Tianjin", "天津"), None, 117.2008, 39.0842,
         _d(("Heping", "和平"), ("Hexi", "河西"), ("Nankai", "南开")), (13, 15, 60)),
    City(Bi("Suzhou", "苏州"), Bi("Jiangsu", "江苏"), 120.5853, 31.2989,
         _d(("Gusu", "姑苏"), ("Wuzhong", "吴中"), ("Huqiu", "虎丘")), (17, 12, 75)),
    City(Bi("Xiamen", "厦门"), Bi("Fujian", "福建"), 118.0894, 24.4798,
         _d(("Siming", "思明"), ("Huli", "湖里"), ("Jimei", "集美")), (21, 7, 77)),
    City(Bi("Qingdao", "青岛"), Bi("Shandong", "山东"), 120.3826, 36.0671,
         _d(("Shinan", "市南"), ("Shibei", "市北"), ("Laoshan", "崂山")), (13, 12, 71)),
    City(Bi("Dalian", "大连"), Bi("Liaoning", "辽宁"), 121.6147, 38.9140,
         _d(("Zhongshan", "中山"), ("Shahekou", "沙河口"), ("Xigang", "西岗")), (11, 14, 65)),
    City(Bi("Changsha", "长沙"), Bi("Hunan", "湖南"), 112.9388, 28.2282,
         _d(("Yuelu", "岳麓"), ("Furong", "芙蓉"), ("Tianxin", "天心")), (18, 12, 78)),
    City(Bi("Kunming", "昆明"), Bi("Yunnan", "云南"), 102.8329, 24.8801,
         _d(("Wuhua", "五华"), ("Panlong", "盘龙"), ("Guandu", "官渡")), (15, 6, 70)),
    City(Bi("Harbin", "哈尔滨"), Bi("Heilongjiang", "黑龙江"), 126.5349, 45.8038,
         _d(("Nangang", "南岗"), ("Daoli", "道里"), ("Daowai", "道外")), (5, 21, 63)),
    City(Bi("Zhengzhou", "郑州"), Bi("Henan", "河南"), 113.6254, 34.7466,
         _d(("Jinshui", "金水"), ("Zhongyuan", "中原"), ("Erqi", "二七")), (15, 13, 62)),
    City(Bi("Shenyang", "沈阳"), Bi("Liaoning", "辽宁"), 123.4315, 41.8057,
         _d(("Heping", "和平"), ("Shenhe", "沈河"), ("Huanggu", "皇姑")), (8, 18, 63)),
    City(Bi("Fuzhou", "福州"), Bi("Fujian", "福建"), 119.2965, 26.0745,
         _d(("Gulou", "鼓楼"), ("Taijiang", "台江"), ("Cangshan", "仓山")), (20, 8, 76)),
    City(Bi("Hefei", "合肥"), Bi("Anhui", "安徽"), 117.2272, 31.8206,
         _d(("Shushan", "蜀山"), ("Baohe", "包河"), ("Luyang", "庐阳")), (16, 13, 74)),
)  # fmt: skip
"""Twenty-two cities; coordinates are the city centres."""


def _b(*pairs: tuple[str, str]) -> tuple[Bi, ...]:
    return tuple(Bi(en, zh) for en, zh in pairs)


STREET_NAMES: tuple[Bi, ...] = _b(
    ("Zhongshan", "中山"), ("Jiefang", "解放"), ("Renmin", "人民"), ("Jianshe", "建设"),
    ("Xinhua", "新华"), ("Wenhua", "文化"), ("Changjiang", "长江"), ("Huanghe", "黄河"),
    ("Yingbin", "迎宾"), ("Binhe", "滨河"), ("Qingnian", "青年"), ("Chunhui", "春晖"),
    ("Guangming", "光明"), ("Dongfeng", "东风"), ("Huaihai", "淮海"), ("Yan'an", "延安"),
    ("Jinxiu", "锦绣"), ("Fuxing", "复兴"), ("Xingfu", "幸福"), ("Kexue", "科学"),
    ("Xueyuan", "学院"), ("Lianhua", "莲花"), ("Taoyuan", "桃源"), ("Minzhu", "民主"),
    ("Baiyun", "白云"), ("Jinqiao", "金桥"), ("Haibin", "海滨"), ("Wanshou", "万寿"),
    ("Qinghe", "清河"), ("Songling", "松岭"), ("Yuhua", "雨花"), ("Tianxiang", "天香"),
)  # fmt: skip
"""First parts of street names."""

STREET_TYPES: tuple[Bi, ...] = _b(
    ("Road", "路"), ("Street", "街"), ("Avenue", "大道"), ("North Road", "北路"),
    ("South Road", "南路"), ("East Road", "东路"), ("West Road", "西路"),
)  # fmt: skip
"""Second parts of street names."""

COMPOUND_NAMES: tuple[Bi, ...] = _b(
    ("Lanxi", "兰溪"), ("Jinse", "金色"), ("Lvyin", "绿茵"), ("Yajing", "雅景"),
    ("Junting", "君庭"), ("Shuian", "水岸"), ("Xiangxie", "香榭"), ("Boya", "博雅"),
    ("Yunting", "云庭"), ("Hupan", "湖畔"), ("Songhe", "松鹤"), ("Mingyue", "明月"),
    ("Chunjiang", "春江"), ("Qingshan", "青山"), ("Zijing", "紫荆"), ("Jiahe", "嘉禾"),
    ("Taohua", "桃花"), ("Yuelan", "悦澜"), ("Bihai", "碧海"), ("Fengqi", "凤栖"),
)  # fmt: skip
"""First parts of residential compound names."""

COMPOUND_TYPES: tuple[Bi, ...] = _b(
    ("Garden", "花园"), ("Jiayuan", "家园"), ("Community", "小区"), ("Apartments", "公寓"),
    ("New Village", "新村"), ("Court", "苑"),
)  # fmt: skip
"""Second parts of residential compound names."""

OFFICE_NAMES: tuple[Bi, ...] = _b(
    ("Haiyun", "海韵"), ("Huamao", "华贸"), ("Zhongxin", "中信"), ("Jinmao", "金茂"),
    ("Xinghe", "星河"), ("Ruida", "瑞达"), ("Hengtai", "恒泰"), ("Zhonghuan", "中环"),
    ("Kaide", "凯德"), ("Longxiang", "龙翔"), ("Fengda", "丰达"), ("Guomao", "国贸"),
    ("Tianyuan", "天元"), ("Huarun", "华润"), ("Yinhe", "银河"), ("Dingsheng", "鼎盛"),
)  # fmt: skip
"""First parts of office building names."""

OFFICE_TYPES: tuple[Bi, ...] = _b(
    ("Creative Tower", "创意大厦"), ("International Center", "国际中心"),
    ("Science Park", "科技园"), ("Business Building", "商务楼"), ("Plaza", "广场"),
    ("Financial Center", "金融中心"), ("Innovation Park", "创新园"),
)  # fmt: skip
"""Second parts of office building names."""

WEATHER: tuple[tuple[Bi, int], ...] = (
    (Bi("sunny", "晴"), 5),
    (Bi("cloudy", "多云"), 3),
    (Bi("overcast", "阴"), 2),
    (Bi("rainy", "小雨"), 2),
    (Bi("showers", "阵雨"), 1),
)
"""Weather categories with relative weights."""

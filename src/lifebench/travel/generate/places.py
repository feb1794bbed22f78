"""Real Chinese cities for the bundled rows: names, approximate centre coordinates, two districts
and two well-known landmarks each (public geographic facts, written for this generator)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Named:
    """A name in Chinese and English."""

    zh: str
    en: str

    def get(self, language: str) -> str:
        """The name in ``language``."""
        return self.en if language == "en" else self.zh


@dataclass(frozen=True)
class City:
    """A prefecture-level city (or municipality)."""

    province: Named
    name: Named
    lat: float
    lng: float
    districts: tuple[Named, Named]
    landmarks: tuple[Named, Named]

    @property
    def municipality(self) -> bool:
        """Beijing, Shanghai, Tianjin, Chongqing: the province is the city."""
        return self.province.zh == self.name.zh

    @property
    def short(self) -> Named:
        """The name without the trailing 市 (how people say it)."""
        return Named(self.name.zh.removesuffix("市"), self.name.en)


def _c(
    province: tuple[str, str],
    name: tuple[str, str],
    lat: float,
    lng: float,
    districts: tuple[tuple[str, str], tuple[str, str]],
    landmarks: tuple[tuple[str, str], tuple[str, str]],
) -> City:
    return City(
        Named(*province),
        Named(*name),
        lat,
        lng,
        (Named(*districts[0]), Named(*districts[1])),
        (Named(*landmarks[0]), Named(*landmarks[1])),
    )


CITIES: tuple[City, ...] = (
    _c(
        ("北京市", "Beijing"),
        ("北京市", "Beijing"),
        39.90420,
        116.40740,
        (("朝阳区", "Chaoyang District"), ("海淀区", "Haidian District")),
        (("颐和园", "the Summer Palace"), ("北京南站", "Beijing South Railway Station")),
    ),
    _c(
        ("上海市", "Shanghai"),
        ("上海市", "Shanghai"),
        31.23040,
        121.47370,
        (("浦东新区", "Pudong New Area"), ("徐汇区", "Xuhui District")),
        (("外滩", "the Bund"), ("上海虹桥站", "Shanghai Hongqiao Railway Station")),
    ),
    _c(
        ("天津市", "Tianjin"),
        ("天津市", "Tianjin"),
        39.08420,
        117.20090,
        (("和平区", "Heping District"), ("南开区", "Nankai District")),
        (("天津之眼", "the Tianjin Eye"), ("五大道", "the Five Great Avenues")),
    ),
    _c(
        ("重庆市", "Chongqing"),
        ("重庆市", "Chongqing"),
        29.56300,
        106.55160,
        (("渝中区", "Yuzhong District"), ("江北区", "Jiangbei District")),
        (("洪崖洞", "Hongya Cave"), ("解放碑", "the Jiefangbei Monument")),
    ),
    _c(
        ("广东省", "Guangdong"),
        ("广州市", "Guangzhou"),
        23.12910,
        113.26440,
        (("天河区", "Tianhe District"), ("越秀区", "Yuexiu District")),
        (("广州塔", "Canton Tower"), ("广州南站", "Guangzhou South Railway Station")),
    ),
    _c(
        ("广东省", "Guangdong"),
        ("深圳市", "Shenzhen"),
        22.54310,
        114.05790,
        (("南山区", "Nanshan District"), ("福田区", "Futian District")),
        (("世界之窗", "Window of the World"), ("深圳北站", "Shenzhen North Railway Station")),
    ),
    _c(
        ("浙江省", "Zhejiang"),
        ("杭州市", "Hangzhou"),
        30.27410,
        120.15510,
        (("西湖区", "Xihu District"), ("上城区", "Shangcheng District")),
        (("西湖", "West Lake"), ("灵隐寺", "Lingyin Temple")),
    ),
    _c(
        ("江苏省", "Jiangsu"),
        ("南京市", "Nanjing"),
        32.06030,
        118.79690,
        (("玄武区", "Xuanwu District"), ("秦淮区", "Qinhuai District")),
        (("中山陵", "the Sun Yat-sen Mausoleum"), ("夫子庙", "the Confucius Temple")),
    ),
    _c(
        ("江苏省", "Jiangsu"),
        ("苏州市", "Suzhou"),
        31.29900,
        120.58530,
        (("姑苏区", "Gusu District"), ("吴中区", "Wuzhong District")),
        (("拙政园", "the Humble Administrator's Garden"), ("金鸡湖", "Jinji Lake")),
    ),
    _c(
        ("四川省", "Sichuan"),
        ("成都市", "Chengdu"),
        30.57280,
        104.06680,
        (("锦江区", "Jinjiang District"), ("武侯区", "Wuhou District")),
        (("宽窄巷子", "Kuanzhai Alley"), ("成都大熊猫繁育研究基地", "the Chengdu Panda Base")),
    ),
    _c(
        ("湖北省", "Hubei"),
        ("武汉市", "Wuhan"),
        30.59280,
        114.30550,
        (("武昌区", "Wuchang District"), ("江汉区", "Jianghan District")),
        (("黄鹤楼", "the Yellow Crane Tower"), ("东湖", "East Lake")),
    ),
    _c(
        ("陕西省", "Shaanxi"),
        ("西安市", "Xi'an"),
        34.34160,
        108.93980,
        (("雁塔区", "Yanta District"), ("碑林区", "Beilin District")),
        (("大雁塔", "the Big Wild Goose Pagoda"), ("钟楼", "the Bell Tower")),
    ),
    _c(
        ("湖南省", "Hunan"),
        ("长沙市", "Changsha"),
        28.22820,
        112.93880,
        (("岳麓区", "Yuelu District"), ("天心区", "Tianxin District")),
        (("橘子洲", "Orange Isle"), ("岳麓山", "Mount Yuelu")),
    ),
    _c(
        ("山东省", "Shandong"),
        ("青岛市", "Qingdao"),
        36.06710,
        120.38260,
        (("市南区", "Shinan District"), ("崂山区", "Laoshan District")),
        (("栈桥", "Zhanqiao Pier"), ("八大关", "Badaguan")),
    ),
    _c(
        ("福建省", "Fujian"),
        ("厦门市", "Xiamen"),
        24.47980,
        118.08940,
        (("思明区", "Siming District"), ("湖里区", "Huli District")),
        (("鼓浪屿", "Gulangyu Island"), ("厦门大学", "Xiamen University")),
    ),
    _c(
        ("云南省", "Yunnan"),
        ("昆明市", "Kunming"),
        25.03890,
        102.71830,
        (("五华区", "Wuhua District"), ("官渡区", "Guandu District")),
        (("滇池", "Dian Lake"), ("昆明长水国际机场", "Kunming Changshui Airport")),
    ),
    _c(
        ("云南省", "Yunnan"),
        ("丽江市", "Lijiang"),
        26.87210,
        100.22990,
        (("古城区", "Gucheng District"), ("玉龙纳西族自治县", "Yulong County")),
        (("丽江古城", "the Old Town of Lijiang"), ("玉龙雪山", "Jade Dragon Snow Mountain")),
    ),
    _c(
        ("贵州省", "Guizhou"),
        ("贵阳市", "Guiyang"),
        26.64700,
        106.63020,
        (("云岩区", "Yunyan District"), ("南明区", "Nanming District")),
        (("甲秀楼", "Jiaxiu Tower"), ("黔灵山公园", "Qianling Park")),
    ),
    _c(
        ("广西壮族自治区", "Guangxi"),
        ("桂林市", "Guilin"),
        25.27360,
        110.29000,
        (("秀峰区", "Xiufeng District"), ("阳朔县", "Yangshuo County")),
        (("象鼻山", "Elephant Trunk Hill"), ("两江四湖", "the Two Rivers and Four Lakes")),
    ),
    _c(
        ("海南省", "Hainan"),
        ("三亚市", "Sanya"),
        18.25280,
        109.51190,
        (("吉阳区", "Jiyang District"), ("天涯区", "Tianya District")),
        (("亚龙湾", "Yalong Bay"), ("天涯海角", "Tianya Haijiao")),
    ),
    _c(
        ("黑龙江省", "Heilongjiang"),
        ("哈尔滨市", "Harbin"),
        45.80380,
        126.53490,
        (("道里区", "Daoli District"), ("南岗区", "Nangang District")),
        (("中央大街", "Central Street"), ("太阳岛", "Sun Island")),
    ),
    _c(
        ("辽宁省", "Liaoning"),
        ("大连市", "Dalian"),
        38.91400,
        121.61470,
        (("中山区", "Zhongshan District"), ("沙河口区", "Shahekou District")),
        (("星海广场", "Xinghai Square"), ("老虎滩", "Tiger Beach")),
    ),
    _c(
        ("安徽省", "Anhui"),
        ("合肥市", "Hefei"),
        31.82060,
        117.22720,
        (("蜀山区", "Shushan District"), ("包河区", "Baohe District")),
        (("合肥南站", "Hefei South Railway Station"), ("天鹅湖", "Swan Lake")),
    ),
    _c(
        ("河南省", "Henan"),
        ("洛阳市", "Luoyang"),
        34.61970,
        112.45400,
        (("洛龙区", "Luolong District"), ("老城区", "Laocheng District")),
        (("龙门石窟", "the Longmen Grottoes"), ("白马寺", "White Horse Temple")),
    ),
)

"""People: occupations, age groups, family statuses, personalities, dietary restrictions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from lifebench.vita.generate.pools._bi import Bi


def _b(*pairs: tuple[str, str]) -> tuple[Bi, ...]:
    return tuple(Bi(en, zh) for en, zh in pairs)


OCCUPATIONS: tuple[Bi, ...] = _b(
    ("Software engineer", "软件工程师"), ("Primary school teacher", "小学教师"),
    ("Nurse", "护士"), ("Accountant", "会计"), ("Sales manager", "销售经理"),
    ("UI designer", "UI设计师"), ("Graduate student", "研究生"), ("Lawyer", "律师"),
    ("Civil servant", "公务员"), ("Doctor", "医生"), ("Product manager", "产品经理"),
    ("Journalist", "记者"), ("Architect", "建筑师"), ("Freelance photographer", "自由摄影师"),
    ("Marketing specialist", "市场专员"), ("Bank clerk", "银行职员"), ("Chef", "厨师"),
    ("Retired teacher", "退休教师"), ("University student", "大学生"),
    ("Data analyst", "数据分析师"), ("HR specialist", "人力资源专员"),
    ("Logistics coordinator", "物流调度员"), ("Pharmacist", "药剂师"),
    ("Fitness coach", "健身教练"), ("Translator", "翻译"), ("Network engineer", "网络工程师"),
)  # fmt: skip
"""Occupations."""

AGE_GROUPS: tuple[str, ...] = ("18~25", "25~30", "30~35", "35~40", "40~50", "50~60", "60~70")
"""Age groups (the same text in both languages, as in the official data)."""

GENDERS: tuple[Bi, ...] = _b(("male", "男"), ("female", "女"))
"""Genders."""

FAMILIES: tuple[Bi, ...] = _b(
    ("Single, lives alone", "单身，独居"),
    ("Single, shares a flat with a roommate", "单身，与室友合租"),
    ("Married, no children", "已婚，无子女"),
    ("Married with a young child", "已婚，有一个年幼的孩子"),
    ("Married with two children", "已婚，有两个孩子"),
    ("Lives with parents", "与父母同住"),
    ("Married, three generations under one roof", "已婚，三代同堂"),
    ("In a relationship, lives with partner", "有伴侣，同居"),
    ("Single, has a cat", "单身，养了一只猫"),
    ("Divorced, lives with a teenage child", "离异，与读中学的孩子同住"),
)
"""Family statuses."""

EMOTIONAL_EXPRESSIONS: tuple[Bi, ...] = _b(
    ("Impatient, wants things done fast and gets annoyed by delays",
     "急躁，希望事情尽快办完，遇到拖延容易不耐烦"),
    ("Anxious, worries that something will go wrong and needs reassurance",
     "容易焦虑，担心出错，需要对方再三确认"),
    ("Indifferent, answers briefly and shows little emotion", "冷淡，回答简短，情绪起伏小"),
    ("Cheerful and friendly, chats easily", "开朗友好，乐于交流"),
    ("Irritable, complains as soon as something seems off", "脾气急，一有不对就抱怨"),
    ("Calm and patient", "沉着耐心"),
    ("Cold and concise, no patience for small talk", "冷漠简洁，不喜欢寒暄"),
    ("Polite and considerate", "礼貌体贴"),
)  # fmt: skip
"""Emotional expressions (the first half of a personality)."""

INTERACTION_PATTERNS: tuple[Bi, ...] = _b(
    ("detail-oriented: checks every detail and asks follow-up questions",
     "注重细节：会核对每个细节并追问"),
    ("dependent: expects the assistant to decide and make suggestions",
     "依赖型：希望助手替自己拿主意、给建议"),
    ("logical: states requirements in order and expects reasons",
     "逻辑型：按条理说明需求，也希望对方说明理由"),
    ("scattered: mentions requirements out of order and drifts off topic",
     "思维跳跃：需求说得零散，容易跑题"),
    ("decisive: dislikes long lists of options", "果断：不喜欢一长串选项"),
    ("indecisive: hesitates between options", "犹豫不决：在选项之间反复纠结"),
    ("terse: gives information only when asked", "惜字如金：被问到才提供信息"),
)  # fmt: skip
"""Interaction patterns (the second half of a personality)."""


@dataclass(frozen=True)
class Restriction:
    """A dietary restriction and the dish flags it forbids.

    ``profile`` goes into the user profile, ``because`` into the instruction ("you ..."),
    ``avoid`` names what must not be in the food (instructions and rubrics).
    """

    key: str
    forbidden: frozenset[str]
    profile: Bi
    because: Bi
    avoid: Bi


RESTRICTIONS: tuple[Restriction, ...] = (
    Restriction(
        "vegetarian",
        frozenset({"pork", "beef", "chicken", "lamb", "seafood"}),
        Bi("Vegetarian: no meat, poultry or seafood (eggs and dairy are fine)",
           "素食：不吃肉类、禽类和海鲜（可以吃蛋奶）"),
        Bi("you are vegetarian", "你吃素"),
        Bi("meat, poultry or seafood", "肉类、禽类或海鲜"),
    ),
    Restriction(
        "no_pork",
        frozenset({"pork"}),
        Bi("Does not eat pork", "不吃猪肉"),
        Bi("you don't eat pork", "你不吃猪肉"),
        Bi("pork", "猪肉"),
    ),
    Restriction(
        "no_beef_lamb",
        frozenset({"beef", "lamb"}),
        Bi("Does not eat beef or lamb", "不吃牛羊肉"),
        Bi("you don't eat beef or lamb", "你不吃牛羊肉"),
        Bi("beef or lamb", "牛羊肉"),
    ),
    Restriction(
        "no_seafood",
        frozenset({"seafood"}),
        Bi("Allergic to seafood", "海鲜过敏"),
        Bi("you are allergic to seafood", "你对海鲜过敏"),
        Bi("seafood", "海鲜"),
    ),
    Restriction(
        "nut_allergy",
        frozenset({"nuts"}),
        Bi("Allergic to nuts, including peanuts", "坚果过敏（包括花生）"),
        Bi("you are allergic to nuts", "你对坚果过敏"),
        Bi("nuts", "坚果"),
    ),
    Restriction(
        "low_sugar",
        frozenset({"sugar"}),
        Bi("Controls blood sugar, avoids sweet food", "控制血糖，不吃甜食"),
        Bi("you are watching your blood sugar", "你在控制血糖"),
        Bi("anything sweet or sugary", "甜食或含糖的东西"),
    ),
    Restriction(
        "no_spicy",
        frozenset({"spicy"}),
        Bi("Sensitive stomach, no spicy food", "肠胃敏感，不吃辣"),
        Bi("your stomach can't take spicy food", "你的肠胃受不了辣"),
        Bi("spicy food", "辣的食物"),
    ),
    Restriction(
        "no_dairy",
        frozenset({"dairy"}),
        Bi("Lactose intolerant, avoids dairy", "乳糖不耐受，不吃乳制品"),
        Bi("you are lactose intolerant", "你乳糖不耐受"),
        Bi("dairy", "乳制品"),
    ),
)  # fmt: skip
"""Dietary restrictions a generated user may have (the flags are those of food dishes)."""

NO_RESTRICTION: Bi = Bi("None", "无")
"""Profile text of a user without dietary restrictions."""

RESTRICTIONS_BY_KEY: Mapping[str, Restriction] = MappingProxyType({r.key: r for r in RESTRICTIONS})
"""Restrictions by key (read-only)."""

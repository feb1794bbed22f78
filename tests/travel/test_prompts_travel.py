"""Agent and user-simulator prompts: every rule of spec §4–§5 is present, fields filled in."""

from __future__ import annotations

import pytest

from lifebench.travel.prompts import FINISH, UNSOLVED, agent_prompt, user_prompt

CONTEXT = "**用户当前位置坐标**\nlatitude: 30.65\nlongitude: 104.06 {not a placeholder}"
TIME = "2025-10-24 10:00"

# (rule, Chinese phrase, English phrase) — each rule of the official prompts, in our wording
SHARED_RULES = [
    ("only what was asked", "只做用户要求的事", "Do only what the user asked"),
    (
        "no unrequested food/rest/sights/lodging",
        "吃饭、休息、景点、住宿",
        "food, rest, sights or lodging",
    ),
    ("a nearby X: only that place", "只给出这个地点", "give only that place"),
    ("every step makes progress", "都要有推进", "must move forward"),
    ("no extra dimensions", "不要为了“体验更好”而增加新的维度", "do not add dimensions"),
    ("converge", "及时收敛", "Converge in time"),
    ("user cannot act", "用户没有任何使用工具", "The user cannot use any tool"),
    ("never send the user to an app", "打开 App", "open the app"),
    ("tools first", "能用工具就先用工具", "Tools first"),
    ("chain tools", "组合多个工具", "Combine tools"),
    (
        "coordinates from tools",
        "关键信息（如经纬度）必须通过工具获得",
        "coordinates must come from tools",
    ),
    ("no unqueried data, label estimates", "估计/非实时", "estimate / not live"),
    (
        "pin places with POI search",
        "南站、机场、某某店",
        "the south station / the airport / shop X",
    ),
    ("retry on failure, minimal plan", "最小可执行方案", "minimal executable plan"),
    ("concise structured output", "结构清晰", "clear structure"),
    ("current time is the frame", "当前时间", "current time"),
]
MULTI_RULES = [
    ("context before asking", "先看上下文再提问", "Context before questions"),
    ("ask only when needed", "只有同时满足以下三点才可以提问", "Ask only when all three hold"),
    ("one executability question", "只能问一个", "ask a single question"),
    ("never re-ask", "不要再问", "never ask again"),
    ("one thing per turn", "每一轮只能做一件事", "Each turn does exactly one thing"),
    (
        "never ask and call tools together",
        "既提问又调用工具",
        "Never ask a question and call tools in the same turn",
    ),
]
SINGLE_RULES = [
    ("never ask the user", "不能向用户提问", "cannot ask the user anything"),
    ("tool call or final answer", "每一步只能做一件事", "Each step does exactly one thing"),
]
UNSOLVED_RULES = [
    ("stop and output only the tag", "只输出：[Unsolved]", "output only: [Unsolved]"),
    ("at any step", "任何一步", "any later step"),
    (
        "no asking, no guessing",
        "也不允许用猜测来填补关键信息",
        "never fill a key field with a guess",
    ),
]


def _phrases(rules: list[tuple[str, str, str]], language: str) -> list[str]:
    return [zh if language == "zh" else en for _, zh, en in rules]


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize("subset", ["single", "multi", "unsolvable"])
def test_every_rule_is_in_the_prompt(subset: str, language: str) -> None:
    prompt = agent_prompt(subset, CONTEXT, TIME, language)
    wanted = _phrases(SHARED_RULES, language)
    if subset == "multi":
        wanted += _phrases(MULTI_RULES, language)
    else:
        wanted += _phrases(SINGLE_RULES, language)
    if subset == "unsolvable":
        wanted += _phrases(UNSOLVED_RULES, language)
    missing = [p for p in wanted if p not in prompt]
    assert not missing
    assert CONTEXT in prompt and TIME in prompt


@pytest.mark.parametrize("language", ["zh", "en"])
def test_only_the_unsolvable_prompt_offers_the_tag(language: str) -> None:
    assert UNSOLVED in agent_prompt("unsolvable", CONTEXT, TIME, language)
    assert UNSOLVED not in agent_prompt("single", CONTEXT, TIME, language)
    assert UNSOLVED not in agent_prompt("multi", CONTEXT, TIME, language)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_single_turn_prompts_never_allow_questions(language: str) -> None:
    single = agent_prompt("single", CONTEXT, TIME, language)
    for _, zh, en in MULTI_RULES[1:]:
        assert (zh if language == "zh" else en) not in single


def test_languages_differ_and_empty_context_is_marked() -> None:
    zh = agent_prompt("single", "", TIME, "zh")
    en = agent_prompt("single", "", TIME, "en")
    assert "（无）" in zh and "(none)" in en
    assert "旅行助手" in zh and "travel assistant" in en
    assert "简洁的中文" in zh and "concise English" in en


def test_unknown_subset_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown subset"):
        agent_prompt("all", CONTEXT, TIME, "zh")


USER_RULES = [
    ("speak as the user only", "始终以用户的身份说话", "always speak as the user"),
    ("profile is the sole source", "唯一依据", "your only source"),
    ("invent nothing", "不要补充其中没有的设定", "Add nothing that is not there"),
    ("unknown: no preference", "你看着安排吧", "you decide"),
    ("never cite the profile", "根据画像", "according to the profile"),
    ("no tool ability", "你没有工具能力", "You have no tools"),
    ("refuse to look things up", "这些我这边操作不了", "I can't do any of that here"),
    ("brief and colloquial", "简短、口语化", "briefly and colloquially"),
    ("consistent", "不能自相矛盾", "never contradict it later"),
    ("end when satisfied", "立刻结束对话", "end the conversation at once"),
    ("end on repetition or no progress", "连续两轮", "two rounds in a row"),
    ("end when the assistant cannot do it", "明显完成不了任务", "clearly cannot do the task"),
    ("finish signal only", "只输出下面这个固定字符串", "output exactly the fixed string"),
    ("details from the intent", "参考【你当前的意图】回答", "answer from [Your current intent]"),
]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_user_prompt_rules_and_fields(language: str) -> None:
    prompt = user_prompt("### 基本信息\n- 常驻城市：成都市", "查高铁 {x}", CONTEXT, TIME, language)
    missing = [p for p in _phrases(USER_RULES, language) if p not in prompt]
    assert not missing
    assert FINISH in prompt and "常驻城市：成都市" in prompt and "查高铁 {x}" in prompt
    assert CONTEXT in prompt and TIME in prompt
    # the intent closes the prompt ("your current intent")
    assert prompt.rstrip().endswith("查高铁 {x}")

"""The generator's wording in English and Chinese: thoughts, generic replies and user lines,
task-user summaries. Thoughts keep the official ``key=value`` pieces with ASCII separators in
both languages (``last_node=X, … intent=Y, … current_node=Z.``), the shape the official
regexes and our parser read."""

from __future__ import annotations

import json
import re
from typing import Any

from lifebench._util.text import Language, Text
from lifebench.flow.flowchart import Node
from lifebench.flow.generate.values import render_value
from lifebench.flow.kb.models import ParamSpec

HEAD = Text(
    "Previous node last_node={last}, Current intention intent={intent}, "
    "Current node current_node={current}.",
    "上一节点 last_node={last}, 当前意图 intent={intent}, 当前节点 current_node={current}.",
)
NEXT = Text(" Next, I need to: {step}", " 接下来我需要：{step}")
ASK = Text(
    " I need to call {tool}. Mandatory parameters: {required}; optional: {optional}. "
    "Known so far: {known}. Still missing: {missing}, so I ask the user.",
    " 我需要调用 {tool}。必填参数：{required}；可选参数：{optional}。"
    "目前已知：{known}。仍缺少：{missing}，需要向用户询问。",
)
CALL = Text(
    " I have collected the parameters for {tool}: {known}. I can make the call.",
    " 我已收集 {tool} 的参数：{known}，可以发起调用。",
)
PRESENT = Text(
    " The API returned; I present the result and ask the user how to continue.",
    " API 已返回，我需要介绍结果并询问用户如何继续。",
)
UNK = Text(
    " The user's request is outside the workflows, so I apologise and steer back.",
    " 用户的请求超出了工作流范围，我需要致歉并引导回当前业务。",
)
NONE = Text("none", "无")

UNK_REPLY = Text(
    "I'm sorry, I can't help with that here. Let's continue with your request.",
    "抱歉，这个问题我这里无法处理。我们继续办理您的业务吧。",
)
OFF_TOPIC: dict[Language, list[str]] = {
    "en": [
        "By the way, do you know a good place for lunch nearby?",
        "Unrelated, but what's the weather going to be like tomorrow?",
        "Also, can you recommend a good film to watch tonight?",
        "Quick question: how do I reset my email password?",
    ],
    "zh": [
        "顺便问一下，附近有什么好吃的午饭推荐吗？",
        "题外话，明天天气怎么样？",
        "另外，今晚有什么好看的电影推荐吗？",
        "顺便问下，我的邮箱密码怎么重置？",
    ],
}
THEN_ALSO = Text("One more thing: ", "另外，")
OPEN = Text("Hello, I need help with this: {label}.", "你好，我想办理：{label}。")
YES = Text("Yes.", "是的。")
NO = Text("No.", "不用了。")
OK = Text("OK.", "好的。")
GIVE = Text("Here you go: ", "好的，")
PERSONAS: dict[Language, list[str]] = {
    "en": [
        "Lena Fischer, a busy teacher who answers briefly.",
        "Omar Haddad, a polite retiree who likes to double-check details.",
        "Grace Okafor, a student who writes casually.",
        "Daniel Kim, an engineer who gives precise answers.",
    ],
    "zh": [
        "张若溪，忙碌的中学老师，回答简短。",
        "李嘉豪，礼貌的退休人员，喜欢反复确认细节。",
        "王梓涵，大学生，说话随意。",
        "陈思远，工程师，回答准确。",
    ],
}

_YES_WORDS = {"yes", "y", "true", "是", "是的", "需要", "好"}
_NO_WORDS = {"no", "n", "false", "否", "不", "不需要"}


_GREETING = re.compile(
    r"^(?:hello|hi|hey|good (?:morning|afternoon|evening)|你好|您好)[,!.，！。\s]*", re.I
)


def drop_greeting(text: str) -> str:
    """``text`` without a leading greeting (for a request made mid-conversation)."""
    return _GREETING.sub("", text, count=1)


def known_text(values: dict[str, Any]) -> str:
    """``k=v, …`` (lists and objects as compact JSON)."""
    parts = []
    for key, value in values.items():
        shown = json.dumps(value, ensure_ascii=False) if isinstance(value, (list, dict)) else value
        parts.append(f"{key}={shown}")
    return ", ".join(parts)


def listing(names: list[str], language: Language) -> str:
    """Names joined, or "none"."""
    return ", ".join(names) if names else NONE.get(language)


def node_step(node: Node) -> str:
    """The node's instruction in one line (its description, or its text)."""
    body = node.description if node.subgoal is not None else node.text
    return " ".join((body or node.text).split())


def generic_reply(node: Node, context: dict[str, Any], language: Language) -> str:
    """A reply for a node without an authored one: its instruction, first sentence."""
    step = node_step(node)
    first = re.split(r"(?<=[.?!。？！])\s*", step, maxsplit=1)[0]
    return first or step


def short_description(name: str, spec: ParamSpec | None) -> str:
    """The first clause of a parameter's description (its name when there is none)."""
    description = spec.description if spec is not None else ""
    clause = re.split(r"[,.(，。（;；]", description, maxsplit=1)[0].strip()
    return clause or name.replace("_", " ")


def generic_ask(missing: list[tuple[str, ParamSpec | None]], language: Language) -> str:
    """Asking for missing parameters, by their descriptions."""
    items = [short_description(n, s) for n, s in missing]
    if language == "zh":
        return f"请提供以下信息：{'、'.join(items)}。"
    return f"Could you please tell me the following: {'; '.join(items)}?"


def generic_say(label: str | None, language: Language) -> str:
    """The user choosing an edge by its label."""
    if label is None:
        return OK.get(language)
    word = label.strip().lower()
    if word in _YES_WORDS:
        return YES.get(language)
    if word in _NO_WORDS:
        return NO.get(language)
    return f"{label}。" if language == "zh" else f"{label}."


def param_phrase(
    name: str, value: Any, phrase: str | None, spec: ParamSpec | None, language: Language
) -> str:
    """The user giving one value."""
    shown = render_value(value, language)
    if phrase:
        return phrase.replace("{value}", shown)
    sep = "：" if language == "zh" else ": "
    return f"{short_description(name, spec)}{sep}{shown}"


def join_phrases(lead: str, phrases: list[str], language: Language) -> str:
    """The user's line: ``lead`` then the value phrases."""
    if not phrases:
        return lead
    if language == "zh":
        body = "，".join(phrases) + "。"
        return f"{lead}{body}" if lead else body
    body = ", ".join(phrases) + "."
    body = body[0].upper() + body[1:]
    return f"{lead} {body}" if lead else body


def summary_text(
    goals: list[str],
    details: list[str],
    choices: list[str],
    language: Language,
) -> str:
    """The task-user summary (the user simulator's instruction)."""
    if language == "zh":
        lines = [f"你想办理：{'；然后'.join(goals)}。"]
        if details:
            lines.append("被问到时提供这些信息：" + "；".join(details) + "。")
        if choices:
            lines.append("过程中依次做出这些选择：" + "；".join(choices) + "。")
        lines.append("业务办完后礼貌地结束对话。")
        return "".join(lines)
    lines = [f"You want to: {'; then '.join(goals)}."]
    if details:
        lines.append("When asked, give these details: " + "; ".join(details) + ".")
    if choices:
        lines.append("Along the way, make these choices in order: " + "; ".join(choices) + ".")
    lines.append("End the conversation politely once it is done.")
    return " ".join(lines)


def target_text(persona: str, goals: list[str], actions: list[str], language: Language) -> str:
    """The judge's view of the user: profile, goals, expected calls."""
    if language == "zh":
        head = [f"用户画像：{persona}", "用户目标："]
        tail = ["期望的 API 调用："]
    else:
        head = [f"User profile: {persona}", "User goals:"]
        tail = ["Expected API calls:"]
    lines = head + [f"{i}. {g}" for i, g in enumerate(goals, start=1)] + tail
    lines.append("\n\n".join(actions) if actions else NONE.get(language))
    return "\n".join(lines)

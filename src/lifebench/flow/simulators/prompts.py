"""Prompts of the session simulators (spec §4.5–4.6 carry the rules; the wording is ours)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from lifebench._util.text import Language, Text
from lifebench.flow.kb.models import ToolDef
from lifebench.flow.tasks.models import GoldCall
from lifebench.simulation import AGENT_STOP

DONE = AGENT_STOP
"""The token the simulated user sends to end the conversation."""

TOOL_SYSTEM = """\
You play the backend of an API. Given the API's definition, the current time, the calls made \
so far in this session with their results, and a new call, return the result the API would \
plausibly give.
Rules:
- Answer with exactly one JSON object on one line, following the API's output parameters, and \
nothing else (no explanation, no code fence).
- Be complete and concrete: real-looking names, numbers, dates and addresses — no placeholders, \
no masked digits, no ellipses.
- Lists hold at most 3 items.
- Stay consistent with the earlier results of this session.
- If the new call asks for the same thing as one of the recorded reference calls, return that \
call's recorded result unchanged."""


def tool_prompt(
    tool: ToolDef,
    arguments: dict[str, Any],
    now: str,
    log: Sequence[tuple[str, str, str]],
    recorded: Sequence[GoldCall],
) -> str:
    """The user message of the tool simulator for one call."""
    inputs = {k: p.description for k, p in tool.inputs.items()}
    earlier = "\n".join(f"- {name}({args}) -> {result}" for name, args, result in log) or "(none)"
    reference = (
        "\n".join(
            f"- {c.name}({c.arguments_text or json.dumps(c.arguments, ensure_ascii=False)}) -> "
            f"{c.output}"
            for c in recorded
            if c.output is not None
        )
        or "(none)"
    )
    return (
        f"API: {tool.name}\nDescription: {tool.description}\n"
        f"Input parameters: {json.dumps(inputs, ensure_ascii=False)}\n"
        f"Output parameters: {json.dumps(tool.output_schema(), ensure_ascii=False)}\n"
        f"Current time: {now or '(not given)'}\n\n"
        f"Earlier calls in this session:\n{earlier}\n\n"
        f"Recorded reference calls:\n{reference}\n\n"
        f"New call: {tool.name}({json.dumps(arguments, ensure_ascii=False)})\n"
        "Return the result JSON:"
    )


_USER = Text(
    """You play a user who contacts an assistant (a service dialogue system) to get something \
done. Your task:
{summary}
{persona}
Current time: {now}

How to behave:
- Speak like a real person: casual and brief, varying your wording and sentence structure. Give \
mostly one piece of information per message, and only what the assistant asks for or what your \
task needs.
- Behave like real users do at times: cooperate; mention related details the assistant did not \
ask about; change something you said before; question an answer; say you do not know something; \
refer back to earlier messages. Stay consistent with your task and with what you already said.
- Invent realistic specifics when your task leaves them open (names, numbers, addresses; a \
plausible link for a file) — never placeholders such as "XXX".
- Begin with a short greeting and your request. Do not ask for anything outside your task, and \
reach your goals in as few turns as you can.
- When the assistant says goodbye, when your goals are all done, or after the assistant has \
twice in a row been unable to help you, reply with {done} and nothing else.
Write only your next message (about 200 characters at most), without any "User:" prefix.""",
    """你扮演一位联系智能助手（服务型对话系统）办事的用户。你的任务：
{summary}
{persona}
当前时间：{now}

行为要求：
- 像真人一样说话：口语化、简短，措辞和句式要有变化。每条消息大多只提供一条信息，只说助手问到的或任务\
需要的内容。
- 像真实用户那样偶尔：配合回答；提到助手没问的相关细节；修改之前说过的信息；质疑回答；表示不知道某事；\
提及之前的对话。始终与你的任务和已说过的话保持一致。
- 任务未给出的细节要编造得真实可信（姓名、数字、地址；文件可给出合理的链接），不要用 "XXX" 之类的占位符。
- 先简短问候并说明需求。不要提出任务之外的要求，尽量用最少的轮次达成目标。
- 助手道别、你的目标全部完成、或助手连续两次无法帮助你时，只回复 {done}。
只写你的下一条消息（不超过约 200 字），不要加 "User:" 前缀。""",
)
_PERSONA = Text("About you: {persona}", "你的人设：{persona}")


def user_prompt(summary: str, persona: str, now: str, language: Language = "en") -> str:
    """The system prompt of the LLM user simulator (driven by the task-user summary)."""
    persona_line = _PERSONA.get(language).format(persona=persona) if persona.strip() else ""
    return _USER.get(language).format(
        summary=summary.strip(), persona=persona_line, now=now or "-", done=DONE
    )


_TURN = Text(
    "Conversation so far:\n{history}\n\nWrite the user's next message.",
    "目前的对话：\n{history}\n\n请写出用户的下一条消息。",
)
_EMPTY = Text("(nothing yet: you speak first)", "（尚无对话：由你先开口）")
_WHO = {"en": ("User", "Assistant"), "zh": ("用户", "助手")}


def user_turn_prompt(lines: Sequence[tuple[bool, str]], language: Language = "en") -> str:
    """The per-turn message of the user simulator: the conversation as "User:" / "Assistant:"
    lines (``(True, text)`` for the user's own lines) and the request for the next one."""
    user, assistant = _WHO[language]
    body = "\n".join(f"{user if own else assistant}: {text}" for own, text in lines)
    return _TURN.get(language).format(history=body or _EMPTY.get(language))

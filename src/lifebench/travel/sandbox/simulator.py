"""The tool simulator: on a cache miss, a chat model writes the tool's answer from the tool's
definition, the instance time and the most similar cached calls (our own prompt; the official
one does not show the time)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from lifebench._util.hashing import derive_seed
from lifebench._util.text import Language
from lifebench.messages import Message, SystemMessage, Usage, UserMessage
from lifebench.models import ChatModel, GenerateConfig
from lifebench.travel.tools.specs import BY_NAME

EMPTY_ANSWER: dict[Language, str] = {
    "zh": "没有找到相关信息：请检查参数是否正确；若参数无误，可能暂时没有相关数据。",
    "en": "Nothing found: please check the arguments; if they are right, there may be no data "
    "for this request right now.",
}
"""What the agent sees when the simulator answers with nothing (not an error, as official)."""

_SYSTEM = {
    "zh": (
        "你在扮演一个旅行工具的后端服务 {tool}，要替它写出一次调用的真实返回内容。\n\n"
        "工具说明：{description}\n参数定义（JSON Schema）：{schema}\n\n"
        "要求：\n"
        "1. 从下面的真实调用记录学习返回内容的结构、字段和写法，并保持一致；\n"
        "2. 内容必须与本次参数相符（地点、日期、数量、排序、筛选条件），数值合理；\n"
        '3. 当前时间见用户消息，日期、营业状态、"今天/明天"都以它为准；\n'
        "4. 只输出工具本身的返回内容，不要解释，不要 markdown，也不要额外的 JSON 包装。\n"
    ),
    "en": (
        "You play the back-end service of the travel tool {tool} and write what one call "
        "really returns.\n\nTool: {description}\nParameters (JSON Schema): {schema}\n\n"
        "Rules:\n"
        "1. Learn the structure, fields and wording of the answers from the real calls below "
        "and keep to them;\n"
        "2. The content must fit this call's arguments (places, dates, counts, order, filters) "
        "with realistic numbers;\n"
        "3. The current time is in the user message; dates, open/closed status and "
        "'today'/'tomorrow' follow it;\n"
        "4. Output only the tool's own answer: no explanation, no markdown, no extra JSON "
        "wrapper.\n"
    ),
}
_EXAMPLES = {
    "zh": (
        "\n以下是该工具的 {n} 条真实调用记录：\n",
        "\n记录 {i}\n参数：{params}\n返回：{result}\n",
    ),
    "en": (
        "\nHere are {n} real calls of this tool:\n",
        "\nCall {i}\nArguments: {params}\nAnswer: {result}\n",
    ),
}
_NO_EXAMPLES = {
    "zh": "\n没有该工具的真实调用记录，请只根据工具说明和参数写出合理的返回内容。\n",
    "en": "\nThere are no recorded calls of this tool; write a plausible answer from its "
    "definition and the arguments alone.\n",
}
_USER = {
    "zh": (
        "当前时间：{time}\n请写出 {tool} 对以下参数的返回内容：\n{args}\n\n"
        "相似参数的记录可以直接借用其中的信息；列表类结果给出若干条；日期与时间要满足参数中的"
        "约束。只输出返回内容本身。"
    ),
    "en": (
        "Current time: {time}\nWrite what {tool} returns for these arguments:\n{args}\n\n"
        "Reuse information from recorded calls with similar arguments; give several entries "
        "for list results; dates and times must satisfy the arguments. Output the answer only."
    ),
}


def simulation_messages(
    tool: str,
    args: Mapping[str, Any],
    time: str,
    examples: Sequence[tuple[str, str]],
    language: Language,
) -> list[Message]:
    """The prompt of one simulated call."""
    spec = BY_NAME[tool]
    system = _SYSTEM[language].format(
        tool=tool,
        description=spec.description.get(language),
        schema=json.dumps(spec.parameters_schema(language), ensure_ascii=False),
    )
    if examples:
        head, item = _EXAMPLES[language]
        system += head.format(n=len(examples))
        for i, (params, result) in enumerate(examples, start=1):
            system += item.format(i=i, params=params, result=result)
    else:
        system += _NO_EXAMPLES[language]
    user = _USER[language].format(
        time=time, tool=tool, args=json.dumps(dict(args), ensure_ascii=False, indent=2)
    )
    return [SystemMessage(content=system), UserMessage(content=user)]


async def simulate(
    model: ChatModel,
    tool: str,
    args: Mapping[str, Any],
    time: str,
    examples: Sequence[tuple[str, str]],
    language: Language,
    *,
    key: str,
    temperature: float | None,
) -> tuple[str, Usage]:
    """Ask ``model`` for the answer; the seed derives from the call's key, so the same call
    sends the same request (and hits the model-call cache). Model failures propagate (the
    episode ends as an infrastructure error, never as an agent error)."""
    config = GenerateConfig(temperature=temperature, seed=derive_seed("travel-tool", tool, key))
    reply = await model.generate(
        simulation_messages(tool, args, time, examples, language), config=config
    )
    text = reply.content.strip()
    return (text or EMPTY_ANSWER[language]), (reply.usage or Usage())

"""The agent's system prompt: FlowBench's inference rules (paper Listing 1 and the released
template's requirements, in our own words), the knowledge of the chosen format, and the time.

The same prompt serves both evaluation levels. ``react`` asks for Thought / Action /
Action Input / Response text; ``function-calling`` keeps the rules but lets the model call the
APIs natively and answer the user in plain text.
"""

from __future__ import annotations

from lifebench._util.text import Language, Text

OBSERVATION = Text("Observation ({name}): {content}", "Observation（{name}）：{content}")
"""How an API result is shown to a ReAct agent (a user-role message)."""

_OPENING = Text(
    "You are a helpful assistant for the following task. {background}",
    "你是负责以下任务的智能助手。{background}",
)

_READ_FLOWCHART = Text(
    "The workflows are mermaid flowcharts. A node is one step: `ID(Start)` is where a scenario "
    "begins, `ID[...]` asks or tells the user something, `ID>...]` calls an API. An edge "
    "`A--label-->B` moves from A to B when its label holds; a label is either the user's intent "
    "or a condition on the parameters or on what an API returned (`A & B--label-->C` starts from "
    "A or B). Node ids look like `AB001`.",
    "工作流以 mermaid 流程图给出。每个节点是一步：`ID(Start)` 是场景的起点，`ID[...]` 向用户询问或"
    "告知，`ID>...]` 调用 API。边 `A--标签-->B` 表示标签成立时从 A 转到 B；标签是用户意图，或是关于"
    "参数、API 返回值的条件（`A & B--标签-->C` 从 A 或 B 出发）。节点编号形如 `AB001`。",
)
_READ_OTHER = Text(
    "The workflows describe, for each scenario, the steps to take and the conditions (the user's "
    "intent, parameter values, what an API returned) that lead from one step to the next.",
    "工作流描述了每个场景要执行的步骤，以及从一步转到下一步的条件（用户意图、参数取值、API 返回值）。",
)
_READ_NONE = Text(
    "No workflow is given; rely on the API information and common sense.",
    "未提供工作流，请依据 API 信息和常识行事。",
)

_RULES = Text(
    """Requirements:
1. Talk with the user as the assistant, following the workflows and the API information below.
2. {reading}
3. For a complex step (one that states a sub-goal or current goal with a description), do what \
its description says, and collect the parameters an API needs exactly as that API defines them. \
A step whose text mentions a Subgoal, Subtask, Step or Process is carried out one part per turn: \
ask for one thing at a time.
4. Stay within the given workflows. If the user asks for something outside them, apologise and \
explain this in your reply.
5. Before calling an API, check that every value you pass has the required format and is \
complete. Never make values up; if a value does not meet the format, ask the user to correct it.
6. If the user asks for several things at once, take one of them first and tell the user the \
others will follow. If earlier business is unfinished, keep helping until it is done. Call at \
most one API per reply; several calls take several rounds. When the user says goodbye or is \
done, answer politely and close the conversation.""",
    """要求：
1. 以助手身份与用户对话，遵循下面给出的工作流和 API 信息。
2. {reading}
3. 对于复杂步骤（写明子目标或当前目标并附有描述的步骤），按其描述执行，并严格按 API 的定义收集它\
需要的参数。文字中含有 Subgoal、Subtask、Step 或 Process 的步骤要分多轮完成：每轮只询问一件事。
4. 只处理给定工作流范围内的事务；超出范围的请求，在回复中致歉并说明。
5. 调用 API 前检查每个参数值的格式是否正确、内容是否完整。不要编造参数值；不符合格式时请用户更正。
6. 用户同时提出多个请求时，先处理其中一个，并告知其余的随后处理。之前的事务未完成时，继续帮助用户完成。\
每次回复最多调用一个 API，多个调用分多轮进行。用户表示结束或道别时，礼貌回应并结束对话。""",
)

_REACT_FORMAT = Text(
    """7. Every reply has exactly one of these two forms.
   To talk to the user:
   Thought: <your reasoning>
   Response: <what you say to the user>
   To call an API:
   Thought: <your reasoning>
   Action: <the API name, without any "functions." prefix>
   Action Input: <the arguments as one JSON object, strictly valid JSON>
   A reply that calls an API has no Response. The API's result comes back to you in a message \
starting with "Observation"; then you continue.
8. Begin every Thought with where you are in the workflow, in this form: "Previous node \
last_node=<node>, Current intention intent=<intent>, Current node current_node=<node>." \
{node_rule} The intent is the label of the edge the user's message matches, or UNK when none \
does. Then say what you will do next. When an API is involved, also state its required and \
optional parameters, the values you already have, and which are still missing.
9. When several intents or nodes are possible, join them with " OR "; when several hold at once, \
join them with " AND ". Every reply must contain a Thought.
Keep strictly to this format and write real content: never output placeholder dots such as \
"...".""",
    """7. 每次回复只能采用以下两种形式之一。
   与用户交流时：
   Thought: <你的思考>
   Response: <对用户说的话>
   调用 API 时：
   Thought: <你的思考>
   Action: <API 名称，不加 "functions." 前缀>
   Action Input: <参数，一个严格合法的 JSON 对象>
   调用 API 的回复不写 Response。API 的结果会以 "Observation" 开头的消息返回给你，然后你继续。
8. 每个 Thought 先说明你在工作流中的位置，格式为："Previous node last_node=<节点>, Current \
intention intent=<意图>, Current node current_node=<节点>." {node_rule} 意图是用户消息所对应\
的边标签，都不对应时写 UNK。然后说明下一步要做什么。涉及 API 时，还要写出它的必填和可选参数、已知的\
参数值以及仍缺少的参数。
9. 可能有多个意图或节点时用 " OR " 连接；同时成立时用 " AND " 连接。每次回复都必须包含 Thought。
严格遵守该格式，填写真实内容，不要输出 "..." 之类的占位符。""",
)
_NODE_IDS = Text(
    "Nodes are flowchart node ids (UNK when the request is outside every workflow).",
    "节点写流程图的节点编号（请求不属于任何工作流时写 UNK）。",
)
_NODE_NAMES = Text(
    "Nodes name the workflow step (UNK when the request is outside every workflow).",
    "节点写工作流中的步骤名称（请求不属于任何工作流时写 UNK）。",
)

_NATIVE_FORMAT = Text(
    """7. Call APIs through the function-calling interface (one call per reply) and talk to the \
user in plain text. Before each call, make sure you know every required parameter.""",
    """7. 通过函数调用接口调用 API（每次回复最多一个调用），用普通文字与用户交流。每次调用前确认已知\
所有必填参数。""",
)

_KNOWLEDGE = Text(
    "Your capabilities are based on the following workflows and API information:\n\n{knowledge}",
    "你的能力基于以下工作流和 API 信息：\n\n{knowledge}",
)
_TIME = Text("Current time: {now}", "当前时间：{now}")


def agent_prompt(
    *,
    background: str,
    knowledge: str,
    now: str,
    knowledge_format: str,
    mode: str = "react",
    language: Language = "en",
) -> str:
    """The system prompt of a FlowBench agent.

    Args:
        background: The task background (role and domain descriptions).
        knowledge: The workflows and API information of the chosen format.
        now: The conversation's current time.
        knowledge_format: none | none-no-tools | text | code | flowchart | ensemble.
        mode: ``react`` or ``function-calling``.
        language: Prompt language.
    """
    with_chart = knowledge_format in ("flowchart", "ensemble")
    if with_chart:
        reading = _READ_FLOWCHART
    elif knowledge_format in ("none", "none-no-tools"):
        reading = _READ_NONE
    else:
        reading = _READ_OTHER
    parts = [
        _OPENING.get(language).format(background=background.strip()).strip(),
        _RULES.get(language).format(reading=reading.get(language)),
    ]
    if mode == "react":
        node_rule = (_NODE_IDS if with_chart else _NODE_NAMES).get(language)
        parts.append(_REACT_FORMAT.get(language).format(node_rule=node_rule))
    else:
        parts.append(_NATIVE_FORMAT.get(language))
    parts.append(_KNOWLEDGE.get(language).format(knowledge=knowledge.strip()))
    if now:
        parts.append(_TIME.get(language).format(now=now))
    return "\n\n".join(parts)

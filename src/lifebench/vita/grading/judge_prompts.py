"""Judge prompts (English and Chinese), in our own words, carrying every rule of the paper's
sliding-window evaluator prompt (Appendix B):

* context: the task clock and weekday, and the user's complete instruction;
* the transcript is a user ↔ assistant conversation in which the assistant calls tools, whose
  results are marked ``tool``; windows of w messages overlap by δ, and this is window k of N;
* every rubric starts false; set it true when the assistant achieves it in this window; set a
  true rubric back to false only if the assistant overturns an earlier correct outcome in this
  window (a user changing their mind is not that); use the complete instruction to place the
  window in the conversation and avoid needless changes;
* judge the assistant's replies and tool-call requests; tool results are seen by the assistant
  only and are not recommendations made to the user; the assistant must not present results it
  never obtained; an ordering rubric needs a write call that actually succeeded (the assistant
  may believe an order went through when it failed); quantities and delivery times must meet
  the rubric exactly, even if the user accepted a compromise; addresses and notes are judged by
  functional equivalence;
* answer with a JSON list of {rubric_key, rubric, justification, meetExpectation} covering
  every rubric, the justification citing the messages as evidence by their [n] numbers.
"""

from __future__ import annotations

from lifebench._util.text import Language

_SLIDING_EN = """\
# Context
- Current time of the conversation: {time}

# The user's complete instruction
{instruction}

# Background
- Below is part of a conversation between a user and an assistant. The assistant can call tools
  to look things up and to act; tool results are the lines whose role is "tool".
- The conversation is long, so it is judged in windows of {size} messages, consecutive windows
  sharing {overlap} messages. You are judging window {index} of {total}.
- <window_content> holds this window's messages, numbered as in the whole conversation.
- <current_rubrics> holds the current status of every rubric (true = met, false = not met).

# Your task
- Update the status of the rubrics from what happens in this window.
- Every rubric starts as false. Set it to true when the assistant achieves it in this window.
- Set a true rubric back to false only if, in this window, the assistant overturns an outcome
  that was correct (for example cancels the right order or replaces it with a wrong one). The
  user changing their mind is not a reason to set a rubric to false.
- Use the complete instruction to understand where this window sits in the conversation, and
  leave rubrics alone when this window has nothing to do with them.

# Rules
- Judge what the assistant says and which tool calls it makes.
- Tool results are seen by the assistant only; they are not recommendations made to the user.
- The assistant must not present information it never obtained from a tool or the user.
- A rubric that requires an order, booking or other change is met only if the write call
  actually succeeded. The assistant may believe an order went through when the call failed.
- Quantities, items and delivery times must meet the rubric exactly, even if the user accepted
  a compromise.
- Addresses and notes are judged by functional equivalence, not exact wording.

# Answer format
Reply with only a JSON list with one object for every rubric of <current_rubrics> (those
this window leaves alone keep their status):
[
  {{"rubric_key": "<key from current_rubrics>", "rubric": "<the rubric restated>",
    "justification": "<why, citing messages as evidence, e.g. [12] [14]>",
    "meetExpectation": true or false}}
]
"""

_SLIDING_ZH = """\
# 背景信息
- 对话发生的当前时间：{time}

# 用户的完整指令
{instruction}

# 说明
- 下面是用户与助手对话的一部分。助手可以调用工具查询信息和执行操作，角色为 "tool" 的行是工具返回结果。
- 对话较长，因此按窗口评估：每个窗口 {size} 条消息，相邻窗口重叠 {overlap} 条。你正在评估第 {index} 个窗口（共 {total} 个）。
- <window_content> 是本窗口的消息，编号与整段对话一致。
- <current_rubrics> 是所有评分项的当前状态（true 表示已满足，false 表示未满足）。

# 任务
- 根据本窗口发生的内容更新评分项状态。
- 所有评分项初始为 false。助手在本窗口完成某项目标时，将其设为 true。
- 只有当助手在本窗口推翻了之前正确的结果（例如取消了正确的订单或换成了错误的订单）时，才把 true 改回 false。用户改变主意不是改为 false 的理由。
- 参考完整指令判断本窗口在对话中的位置；与本窗口无关的评分项保持不变。

# 规则
- 依据助手的回复和它发起的工具调用进行评判。
- 工具返回结果只有助手能看到，不代表助手向用户推荐的内容。
- 助手不得提供它没有从工具或用户处获得的信息。
- 需要下单、预订或其他变更的评分项，只有在写操作确实成功时才算满足；助手可能误以为下单成功而实际失败。
- 数量、商品和送达时间必须严格符合评分项要求，即使用户接受了妥协。
- 地址和备注按功能等价原则判断，不要求字面一致。

# 回复格式
只回复一个 JSON 列表，<current_rubrics> 中的每个评分项各一个对象（本窗口未涉及的保持原状态）：
[
  {{"rubric_key": "<current_rubrics 中的键>", "rubric": "<复述评分项>",
    "justification": "<理由，用消息编号作为证据，例如 [12] [14]>",
    "meetExpectation": true 或 false}}
]
"""

_FULL_EN = """\
# Context
- Current time of the conversation: {time}

# The user's complete instruction
{instruction}

# Background
- Below is a whole conversation between a user and an assistant. The assistant can call tools
  to look things up and to act; tool results are the lines whose role is "tool".
- <conversation> holds every message, numbered. <rubrics> lists the rubrics to judge.

# Your task
- Decide for every rubric whether the assistant met it by the end of the conversation. A rubric
  met earlier and later overturned by the assistant is not met; the user changing their mind
  does not unmeet it.

# Rules
- Judge what the assistant says and which tool calls it makes.
- Tool results are seen by the assistant only; they are not recommendations made to the user.
- The assistant must not present information it never obtained from a tool or the user.
- A rubric that requires an order, booking or other change is met only if the write call
  actually succeeded.
- Quantities, items and delivery times must meet the rubric exactly, even if the user accepted
  a compromise.
- Addresses and notes are judged by functional equivalence, not exact wording.

# Answer format
Reply with only a JSON list with one object per rubric:
[
  {{"rubric_key": "<key>", "rubric": "<the rubric restated>",
    "justification": "<why, citing messages as evidence, e.g. [12] [14]>",
    "meetExpectation": true or false}}
]
"""

_FULL_ZH = """\
# 背景信息
- 对话发生的当前时间：{time}

# 用户的完整指令
{instruction}

# 说明
- 下面是用户与助手的完整对话。助手可以调用工具查询信息和执行操作，角色为 "tool" 的行是工具返回结果。
- <conversation> 是全部带编号的消息，<rubrics> 是需要评判的评分项。

# 任务
- 判断每个评分项在对话结束时是否被助手满足。先满足、后被助手推翻的不算满足；用户改变主意不影响已满足的项。

# 规则
- 依据助手的回复和它发起的工具调用进行评判。
- 工具返回结果只有助手能看到，不代表助手向用户推荐的内容。
- 助手不得提供它没有从工具或用户处获得的信息。
- 需要下单、预订或其他变更的评分项，只有在写操作确实成功时才算满足。
- 数量、商品和送达时间必须严格符合评分项要求，即使用户接受了妥协。
- 地址和备注按功能等价原则判断。

# 回复格式
只回复一个 JSON 列表，每个评分项一个对象：
[
  {{"rubric_key": "<键>", "rubric": "<复述评分项>",
    "justification": "<理由，用消息编号作为证据，例如 [12] [14]>",
    "meetExpectation": true 或 false}}
]
"""

_NORUBRIC_SLIDING_EN = """\
# Context
- Current time of the conversation: {time}

# The user's complete instruction
{instruction}

# Background
- Below is part of a conversation between a user and an assistant that can call tools (tool
  results are the lines whose role is "tool"). It is judged in windows of {size} messages,
  consecutive windows sharing {overlap}; this is window {index} of {total}.
- <memory> is what you noted in earlier windows; <current_verdict> is your verdict so far.

# Your task
- Decide whether the assistant has, so far, fully and correctly carried out everything the
  instruction asks for. Apply these rules: judge the assistant's replies and tool calls; tool
  results are not recommendations to the user; no invented information; changes count only if
  the write call succeeded; quantities, items and times must match exactly; addresses and notes
  by functional equivalence. Overturn a positive verdict only if the assistant undoes a correct
  outcome.
- Update <memory> with what later windows need to know (what was done, what is still missing).

# Answer format
Reply with only a JSON object:
{{"justification": "<why, citing [n] messages>", "meetExpectation": true or false,
  "memory": "<notes for the next window>"}}
"""

_NORUBRIC_FULL_EN = """\
# Context
- Current time of the conversation: {time}

# The user's complete instruction
{instruction}

# Your task
Below is a whole conversation between a user and an assistant that can call tools (tool results
are the lines whose role is "tool"). Decide whether the assistant fully and correctly carried out
everything the instruction asks for: judge its replies and tool calls; tool results are not
recommendations to the user; no invented information; changes count only if the write call
succeeded; quantities, items and times must match exactly; addresses and notes by functional
equivalence.

# Answer format
Reply with only a JSON object:
{{"justification": "<why, citing [n] messages>", "meetExpectation": true or false}}
"""

_NORUBRIC_SLIDING_ZH = """\
# 背景信息
- 对话发生的当前时间：{time}

# 用户的完整指令
{instruction}

# 说明
- 下面是用户与可调用工具的助手之间对话的一部分（角色为 "tool" 的行是工具结果）。按窗口评估：每个窗口 {size} 条消息，相邻窗口重叠 {overlap} 条；这是第 {index} 个窗口（共 {total} 个）。
- <memory> 是你在之前窗口记下的要点，<current_verdict> 是目前的判断。

# 任务
- 判断到目前为止助手是否完整、正确地完成了指令要求的一切。规则：依据助手的回复和工具调用；工具结果不是对用户的推荐；不得编造信息；变更只有写操作成功才算；数量、商品和时间必须严格一致；地址和备注按功能等价判断。只有助手推翻了正确结果时才把肯定判断改为否定。
- 更新 <memory>，记下后续窗口需要知道的内容（已完成什么、还缺什么）。

# 回复格式
只回复一个 JSON 对象：
{{"justification": "<理由，引用 [n] 消息>", "meetExpectation": true 或 false,
  "memory": "<给下一个窗口的笔记>"}}
"""

_NORUBRIC_FULL_ZH = """\
# 背景信息
- 对话发生的当前时间：{time}

# 用户的完整指令
{instruction}

# 任务
下面是用户与可调用工具的助手之间的完整对话（角色为 "tool" 的行是工具结果）。判断助手是否完整、正确地完成了指令要求的一切：依据助手的回复和工具调用；工具结果不是对用户的推荐；不得编造信息；变更只有写操作成功才算；数量、商品和时间必须严格一致；地址和备注按功能等价判断。

# 回复格式
只回复一个 JSON 对象：
{{"justification": "<理由，引用 [n] 消息>", "meetExpectation": true 或 false}}
"""

_TEMPLATES = {
    ("sliding", "en"): _SLIDING_EN,
    ("sliding", "zh"): _SLIDING_ZH,
    ("full", "en"): _FULL_EN,
    ("full", "zh"): _FULL_ZH,
    ("sliding-norubric", "en"): _NORUBRIC_SLIDING_EN,
    ("sliding-norubric", "zh"): _NORUBRIC_SLIDING_ZH,
    ("full-norubric", "en"): _NORUBRIC_FULL_EN,
    ("full-norubric", "zh"): _NORUBRIC_FULL_ZH,
}


def judge_system_prompt(variant: str, language: Language, **fields: object) -> str:
    """The judge's system prompt for ``variant`` (sliding, full, sliding-norubric, full-norubric)."""
    return _TEMPLATES[(variant, language)].format(**fields)

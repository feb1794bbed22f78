"""Judge prompts (English and Chinese), in our own words, carrying every rule of the official
VitaBench evaluation templates (sliding window, full trajectory, and their no-rubric forms).

Every rule, with the words that carry it in each prompt, is listed in
``tests/vita/test_judge_prompt_rules.py``; the remaining differences from the official wording
are in docs/compat.md ("Rubric judge"). In short, each prompt gives

* the context: the task clock with its weekday, and the user's complete instruction;
* the setting: a user ↔ assistant conversation in which the assistant calls tools, whose
  results are the ``tool`` lines; the instruction is split into rubrics judged one by one (the
  no-rubric forms judge the instruction as a whole); for the sliding forms, windows of w
  messages overlapping by δ, the state carried from window to window, and which window this is;
* how a verdict may change: every rubric starts false; false → true only when the assistant
  achieves the goal (in this window); true → false only when the assistant overturns a correct
  outcome — a change in the user's own needs (cancelling after ordering) does not; the complete
  instruction tells how far the conversation has got (no needless changes);
* the rules: the rubric (or the instruction) is the standard and the user's words only guide
  the assistant; query-tool results are seen by the assistant only and are not
  recommendations; the assistant must not make up tool results; an order counts only if it was
  really placed (not when the call failed or the user says they will order themselves);
  quantities exact and delivery no later than the expected time, whatever compromise the user
  accepts; addresses and notes by functional equivalence;
* what to record: a rubric the window does not touch keeps its status, and facts that cannot
  decide it yet are written down for later windows; each window's justification cites message
  numbers, gives the reason of a change or of keeping the status, and is **appended** to the
  rubric's record by :mod:`~lifebench.vita.grading.rubric` (the no-rubric sliding form keeps a
  memory of sub-requirements instead);
* the answer format: a JSON list of ``{rubric_key, rubric, justification, meetExpectation}``
  (one object per rubric), or one ``{justification, meetExpectation[, memory]}`` object.
"""

from __future__ import annotations

from lifebench._util.text import Language

_CONTEXT_EN = """\
# Context
- Current time of the conversation: {time}

# The user's complete instruction
{instruction}
"""

_CONTEXT_ZH = """\
# 背景信息
- 对话发生的当前时间：{time}

# 用户的完整指令
{instruction}
"""

_TOOLS_EN = (
    "The assistant can call tools to look things up and to act; tool results are the lines "
    'whose role is "tool".'
)
_TOOLS_ZH = '助手可以调用工具查询信息和执行操作，角色为 "tool" 的行是工具返回结果。'

# The rules every variant states; {standard} is "the rubric" or "the instruction".
_RULES_EN = """\
- {Standard} is the standard. Judge the assistant's replies and the tool calls it requests.
  What the user says in the conversation only prompts or guides the assistant; it never changes
  what {standard} requires.
- Results of query tools are seen by the assistant only: they are not recommendations made to
  the user and do not count by themselves. Judge what the assistant tells the user after
  obtaining the information. The assistant must not make up tool results.
- {Ordering} is met only if the assistant really placed the order: check that the call
  succeeded. The assistant may believe it ordered when the call failed; and if the user says
  they will place the order themselves, it is not met either.
- Order details such as item quantities and the delivery time must meet {standard} strictly:
  no deviation in any quantity, and delivery no later than the expected time. A compromise the
  user accepts ("fewer is fine", "no objections to the order", "later delivery is fine") does
  not change this: it is still not met.
- Addresses and order notes are judged by functional equivalence: text that does the same job
  (locates the delivery place well enough, conveys the customer's main request) meets
  {standard} even if it is worded differently or leaves out some details.
"""

_RULES_ZH = """\
- 以{standard}为准。依据助手的回复和它发起的工具调用进行评判；用户在对话中说的话只是对助手的提示和引导，不改变{standard}的要求。
- 查询类工具的返回结果只有助手能看到，不代表助手向用户推荐的内容，本身不计入评判；以助手获取信息后对用户的回复为准。助手不得编造工具返回结果。
- {ordering}只有在助手确实下单成功时才算满足：要核实调用是否成功。助手可能误以为已下单而实际调用失败；用户表示“可以自己下单”等情况也算未满足。
- 商品数量、送达时间等订单细节必须严格符合{standard}：数量不能有任何偏差，送达不得晚于期望时间。用户接受的妥协（如“少一点也行”“对订单没有异议”“晚点送也行”）不改变这一点，仍算未满足。
- 地址和订单备注按功能等价原则判断：只要实际内容能起到同样的作用（大致定位配送地点、传达顾客的主要需求），即使表述不同或缺少部分细节，也算满足{standard}。
"""

_RUBRIC_RULES_EN = _RULES_EN.format(
    Standard="The rubric",
    standard="the rubric",
    Ordering="A rubric about an order (one that needs an order placed with its details)",
)
_RUBRIC_RULES_ZH = _RULES_ZH.format(
    standard="评分项", ordering="涉及订单的评分项（需要生成订单及其细节的）"
)
_INSTRUCTION_RULES_EN = _RULES_EN.format(
    Standard="The user's instruction",
    standard="the instruction",
    Ordering="A request to buy something (one that needs an order placed with its details)",
)
_INSTRUCTION_RULES_ZH = _RULES_ZH.format(
    standard="用户指令", ordering="购买类需求（需要生成订单及其细节的）"
)

_CHANGE_EN = (
    "Set it from true back to false only if, {where}, the assistant overturns an outcome that "
    "was correct. When the user's own needs change (for example the user cancels an order "
    "after it was placed), the earlier verdict on placing that order stands."
)
_CHANGE_ZH = (
    "只有当助手{where}推翻了之前正确的结果时，才把 true 改回 false。如果是用户自己的需求发生了"
    "变化（例如下单后用户主动取消），之前对下单这一需求的判断保持不变。"
)
_PROGRESS_EN = (
    "Use the complete instruction to tell how far the conversation has got, and make no "
    "change this window gives no reason for."
)
_PROGRESS_ZH = "参考完整指令判断对话进行到了哪一步，本窗口没有给出理由的改动不要做。"

_SLIDING_EN = (
    _CONTEXT_EN
    + f"""
# Background
- Below is part of a conversation between a user and an assistant. {_TOOLS_EN}
- Your job is to decide whether the user's instruction was carried out. It has been split into
  rubrics (scoring points); judge each rubric on its own.
- The conversation is long, so it is judged in windows of {{size}} messages, consecutive
  windows sharing {{overlap}} messages; the status of every rubric carries over from one window
  to the next. You are judging window {{index}} of {{total}}.
- <window_content> holds this window's messages, numbered as in the whole conversation.
- <current_rubrics> holds every rubric's status so far (true = met, false = not met) and its
  record: what earlier windows wrote about it. Every rubric starts as false.

# Your task
- Update the status of the rubrics from what happens in this window.
- Set a rubric from false to true only when the assistant achieves its goal in this window.
- {_CHANGE_EN.format(where="in this window")}
- {_PROGRESS_EN}

# Rules
{_RUBRIC_RULES_EN}\
- A rubric this window does not touch keeps its status. If this window touches a rubric but
  does not settle it yet, write the key facts in its justification so that a later window can
  decide.

# Justification
- Your justification is appended to the rubric's record (shown in current_rubrics); do not
  copy the record. Write briefly: this window's key facts for the rubric with their message
  numbers, e.g. [12] [14]; if you change the status, why; if you keep it, why it still holds.

# Answer format
Reply with only a JSON list, with one object for every rubric in current_rubrics:
[
  {{{{"rubric_key": "<key from current_rubrics>", "rubric": "<the rubric restated>",
    "justification": "<this window's note, citing messages, e.g. [12] [14]>",
    "meetExpectation": true or false}}}}
]
"""
)

_SLIDING_ZH = (
    _CONTEXT_ZH
    + f"""
# 说明
- 下面是用户与助手对话的一部分。{_TOOLS_ZH}
- 你要判断用户的指令是否被完成。完整指令已拆分为若干评分项（rubric），逐项判断每一项是否满足。
- 对话较长，因此按窗口评估：每个窗口 {{size}} 条消息，相邻窗口重叠 {{overlap}} 条；评分项的状态会从一个窗口延续到下一个窗口。你正在评估第 {{index}} 个窗口（共 {{total}} 个）。
- <window_content> 是本窗口的消息，编号与整段对话一致。
- <current_rubrics> 是每个评分项目前的状态（true 表示已满足，false 表示未满足）及其记录，即之前的窗口对它写下的内容。所有评分项初始均为 false。

# 任务
- 根据本窗口发生的内容更新评分项状态。
- 只有当助手在本窗口完成了某项目标时，才把它从 false 改为 true。
- {_CHANGE_ZH.format(where="在本窗口")}
- {_PROGRESS_ZH}

# 规则
{_RUBRIC_RULES_ZH}\
- 本窗口未涉及的评分项保持原状态。本窗口涉及某项但还无法确定时，把关键信息写进它的理由中，留待后续窗口判断。

# 理由
- 你写的理由会追加到该评分项的记录之后（即 current_rubrics 中的记录），不要照抄已有记录。简要写出：本窗口与该项相关的关键信息及其消息编号，例如 [12] [14]；若改变了状态，写明原因；若状态不变，写明原有理由为何仍然成立。

# 回复格式
只回复一个 JSON 列表，current_rubrics 中的每个评分项一个对象：
[
  {{{{"rubric_key": "<current_rubrics 中的键>", "rubric": "<复述评分项>",
    "justification": "<本窗口的记录，引用消息编号，例如 [12] [14]>",
    "meetExpectation": true 或 false}}}}
]
"""
)

_FULL_EN = (
    _CONTEXT_EN
    + f"""
# Background
- Below is a whole conversation between a user and an assistant. {_TOOLS_EN}
- Your job is to decide whether the user's instruction was carried out. It has been split into
  rubrics (scoring points); judge each rubric on its own.
- <conversation> holds every message, numbered. <rubrics> lists the rubrics with their status
  (true = met, false = not met); every rubric starts as false.

# Your task
- Update the status of the rubrics from the conversation.
- Set a rubric to true only when the assistant achieves its goal in the conversation.
- A rubric the assistant met and later overturned is not met; a change in the user's own needs
  (for example cancelling an order after it was placed) does not undo the verdict on placing
  it.

# Rules
{_RUBRIC_RULES_EN}
# Justification
- Write briefly the key facts for the rubric with their message numbers, e.g. [12] [14], and
  the reason for its status.

# Answer format
Reply with only a JSON list, with one object for every rubric:
[
  {{{{"rubric_key": "<key>", "rubric": "<the rubric restated>",
    "justification": "<why, citing messages, e.g. [12] [14]>",
    "meetExpectation": true or false}}}}
]
"""
)

_FULL_ZH = (
    _CONTEXT_ZH
    + f"""
# 说明
- 下面是用户与助手的完整对话。{_TOOLS_ZH}
- 你要判断用户的指令是否被完成。完整指令已拆分为若干评分项（rubric），逐项判断每一项是否满足。
- <conversation> 是全部带编号的消息，<rubrics> 是评分项及其状态（true 表示已满足，false 表示未满足），所有评分项初始均为 false。

# 任务
- 根据对话内容更新评分项状态。
- 只有当助手在对话中完成了某项目标时，才把它设为 true。
- 先满足、后被助手推翻的评分项不算满足；用户自己的需求变化（例如下单后主动取消）不影响对下单这一项的判断。

# 规则
{_RUBRIC_RULES_ZH}
# 理由
- 简要写出与该评分项相关的关键信息及其消息编号（例如 [12] [14]），以及状态的原因。

# 回复格式
只回复一个 JSON 列表，每个评分项一个对象：
[
  {{{{"rubric_key": "<键>", "rubric": "<复述评分项>",
    "justification": "<理由，引用消息编号，例如 [12] [14]>",
    "meetExpectation": true 或 false}}}}
]
"""
)

_NORUBRIC_SLIDING_EN = (
    _CONTEXT_EN
    + f"""
# Background
- Below is part of a conversation between a user and an assistant. {_TOOLS_EN}
- Your job is to decide whether the user's complete instruction was carried out.
- The conversation is long, so it is judged in windows of {{size}} messages, consecutive
  windows sharing {{overlap}}; this is window {{index}} of {{total}}.
- <window_content> holds this window's messages, numbered as in the whole conversation.
- <memory> holds your notes on the earlier windows; <current_verdict> is the verdict so far
  (it starts as false).

# Your task
- From this window and the earlier ones (as your memory records them), decide whether every
  requirement of the complete instruction has been met.
- Set the verdict from false to true only when the assistant has carried out the complete
  instruction in this window and the earlier ones.
- {_CHANGE_EN.format(where="in this window")}
- {_PROGRESS_EN}
- Merge this window into your memory and return the new memory, kept as the notes below say.

# Rules
{_INSTRUCTION_RULES_EN}
# Memory
- Break the instruction into its sub-requirements and keep track of each in the memory:
  - a sub-requirement no window has touched yet: note that it is not involved so far;
  - one this window touches but does not settle yet: note the key facts so that a later window
    can decide;
  - for each, the key facts with their message numbers, e.g. [12] [14].

# Answer format
Reply with only a JSON object:
{{{{"justification": "<why, citing [n] messages>", "meetExpectation": true or false,
  "memory": "<the new memory, for the next window>"}}}}
"""
)

_NORUBRIC_SLIDING_ZH = (
    _CONTEXT_ZH
    + f"""
# 说明
- 下面是用户与助手对话的一部分。{_TOOLS_ZH}
- 你要判断用户的完整指令是否被完成。
- 对话较长，因此按窗口评估：每个窗口 {{size}} 条消息，相邻窗口重叠 {{overlap}} 条；这是第 {{index}} 个窗口（共 {{total}} 个）。
- <window_content> 是本窗口的消息，编号与整段对话一致。
- <memory> 是你对之前窗口的记忆总结；<current_verdict> 是目前的判断（初始为 false）。

# 任务
- 结合本窗口和之前的窗口（以记忆为准），判断完整指令中的每一项需求是否都已满足。
- 只有当助手在本窗口及之前的窗口中完成了完整指令时，才把判断从 false 改为 true。
- {_CHANGE_ZH.format(where="在本窗口")}
- {_PROGRESS_ZH}
- 把本窗口的内容合并进记忆，按下面的要求整理后作为新的记忆返回。

# 规则
{_INSTRUCTION_RULES_ZH}
# 记忆
- 把指令拆分为若干子需求，在记忆中逐项跟踪：
  - 还没有窗口涉及的子需求：记下目前尚未涉及；
  - 本窗口涉及但还无法确定的子需求：记下关键信息，留待后续窗口判断；
  - 每个子需求的关键信息及其消息编号，例如 [12] [14]。

# 回复格式
只回复一个 JSON 对象：
{{{{"justification": "<理由，引用 [n] 消息>", "meetExpectation": true 或 false,
  "memory": "<新的记忆，供下一个窗口使用>"}}}}
"""
)

_NORUBRIC_FULL_EN = (
    _CONTEXT_EN
    + f"""
# Background
- Below is a whole conversation between a user and an assistant. {_TOOLS_EN}
- Your job is to decide whether the user's instruction was carried out.
- <conversation> holds every message, numbered.

# Your task
- Decide whether every sub-requirement of the complete instruction has been fully carried out.

# Rules
{_INSTRUCTION_RULES_EN}
# Justification
- Write the key facts for the instruction, what your verdict rests on, and the message
  numbers, e.g. [12] [14].

# Answer format
Reply with only a JSON object:
{{{{"justification": "<why, citing [n] messages>", "meetExpectation": true or false}}}}
"""
)

_NORUBRIC_FULL_ZH = (
    _CONTEXT_ZH
    + f"""
# 说明
- 下面是用户与助手的完整对话。{_TOOLS_ZH}
- 你要判断用户的指令是否被完成。
- <conversation> 是全部带编号的消息。

# 任务
- 判断完整指令中的所有子需求是否都已全部完成。

# 规则
{_INSTRUCTION_RULES_ZH}
# 理由
- 写出与指令有关的关键信息、判断的依据及其消息编号，例如 [12] [14]。

# 回复格式
只回复一个 JSON 对象：
{{{{"justification": "<理由，引用 [n] 消息>", "meetExpectation": true 或 false}}}}
"""
)

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

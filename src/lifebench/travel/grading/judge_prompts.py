"""The judge's and the meta-judge's prompts, in Chinese and English (our own wording).

They carry every rule of the official prompts (spec §6.1, §6.4): the three dimensions (four for
multi-turn), the hard checks applied in every dimension (parameter provenance, parameter
fitness, process consistency, result consistency, error handling, not calling a needed tool;
plus minimal disturbance for multi-turn), the per-dimension focus lists and five-level rubrics,
the travel clause (times, distances, prices, weather, station/flight/train numbers only from tools
or context; a "helpful" guess is a hallucination), the geography clause, the points the
reasoning must cover, the XML answer format and a worked example. The meta-judge audits the
first evaluation (accuracy, evidence chain, strictness of the hard checks, coverage, agreement
between dimensions, a counterfactual re-evaluation) and answers with one level.
"""

from __future__ import annotations

from collections.abc import Sequence

from lifebench._util.text import Language

LEVELS = {
    "zh": "极差 / 较差 / 一般 / 较好 / 优秀",
    "en": "very poor / poor / fair / good / excellent",
}

JUDGE_SYSTEM = {
    "zh": "你负责给旅行助手的工具调用对话轨迹打分：标准严格，每个结论都要有对话中的证据。",
    "en": "You grade tool-using trajectories of a travel assistant: strictly, and with evidence "
    "from the conversation for every conclusion.",
}

META_SYSTEM = {
    "zh": "你是评测质量审核员：判断一次自动评测对对话轨迹给出的各维度评级是否准确、合理、公正，"
    "并给出一个综合评级。",
    "en": "You audit evaluations: decide whether the per-dimension ratings an automatic judge gave "
    "to a conversation are accurate, reasonable and fair, and give one overall rating.",
}

# ---------------------------------------------------------------- dimensions (short definitions)

_DEFINE = {
    "zh": {
        "reasoning_planning": "reasoning_planning（工具使用与规划）：助手是否把用户需求和可用工具对应"
        "起来，调用路线是否清楚、必要、准确，参数是否填得对。",
        "summarization_extraction": "summarization_extraction（总结与提炼）：助手是否从用户问题、"
        "历史和工具返回中挑出关键内容（包括要传给下一个工具的参数）并如实使用，没有捏造事实或数据。",
        "presentation": "presentation（最终回答的呈现）：规划和查询完成后，最终回答是否把与需求相关"
        "的内容清楚、准确、简洁地交给了用户。",
        "user_interaction": "user_interaction（用户交互与追问）：信息不足、有歧义或工具返回异常时，"
        "助手是否以最少打扰的方式提出必要而有价值的问题；能推理或用工具补齐的是否先补齐；问题是否"
        "紧扣用户原本的目标，而不是问无关的偏好。",
    },
    "en": {
        "reasoning_planning": "reasoning_planning (tool use and planning): does the assistant map "
        "the user's need onto the available tools, is its sequence of calls clear, necessary and "
        "accurate, and are the arguments right?",
        "summarization_extraction": "summarization_extraction (summarising and extracting): does "
        "it pick the essential content out of the query, the history and the tool results "
        "(including the arguments it passes on) and use it faithfully, inventing no fact or "
        "figure?",
        "presentation": "presentation (the final answer): once planning and look-ups are done, "
        "does the final answer hand the user what matters for the request clearly, accurately "
        "and concisely?",
        "user_interaction": "user_interaction (interacting and asking): when information is "
        "missing or ambiguous or a tool misbehaves, does the assistant ask only necessary, "
        "high-value questions with the least disturbance, fill gaps by reasoning or tools first, "
        "and keep its questions on the user's original goal rather than on irrelevant "
        "preferences?",
    },
}

# ---------------------------------------------------------------- hard checks

_HARD = {
    "zh": """\
# 贯穿所有维度的硬性检查
下面几项在每个维度里都要优先核查，并在理由中写明结论：
- 参数来源：工具参数中的关键值（中心点坐标、城市或行政区、关键词、半径、时间、站点等）必须来自对话、上下文或先前的工具返回；凭空填写是严重问题。
- 参数是否合适：即使有来源，也要看它是否适合当前任务和用户意图；中心点或城市选错导致搜索失败或结果跑偏，要扣分。
- 过程一致：还没有搜索、定位或确认，就断言距离、方位、是否在范围内、属于哪个行政区等地理结论，或者自己编出坐标、中心点，严重扣分。
- 结果一致：最终回答里的每条事实（距离、范围、位置关系、行政区、坐标、路线等）都要能在工具返回中逐条找到依据；工具没有返回或返回不支持的，视为幻觉或不一致，严重扣分。
- 异常处理：工具返回为空、报错、缺字段或明显不合理（行政区与中心点对不上、坐标与地点不符等）时，助手是否检查、纠错、改参数重试或向用户确认；直接硬编结论的，严重扣分。
- 该用工具却没用：任务明显需要工具，助手一次都没调用就给出具体结论，按高风险幻觉处理（除非上下文已包含回答所需的全部信息）。
""",
    "en": """\
# Hard checks that apply in every dimension
Check these first in every dimension and state your finding in the reasoning:
- Parameter provenance: the key values in tool arguments (centre coordinates, city or district, keywords, radius, time, stations, ...) must come from the conversation, the context or an earlier tool result; a value the assistant simply made up is a serious fault.
- Parameter fitness: even with a source, a value must suit the task and the user's intent; a wrong centre or city that makes a search fail or drift is a fault.
- Process consistency: stating a geographic conclusion (distance, direction, inside or outside a range, which district a place belongs to) before searching, locating or confirming, or inventing coordinates or a centre point, is a serious fault.
- Result consistency: every fact in the final answer (distances, ranges, spatial relations, districts, coordinates, routes, ...) must be traceable, item by item, to a tool result; a fact no tool returned or supports is a hallucination or inconsistency and a serious fault.
- Error handling: when a tool returns nothing, an error, missing fields or something implausible (a district that does not match the centre, coordinates that do not match the place), did the assistant check, correct, retry with changed arguments or ask? Forcing a conclusion anyway is a serious fault.
- Not calling a needed tool: if the task clearly needs tools and the assistant called none yet gave concrete conclusions, treat it as a high-risk hallucination (unless the context already holds everything needed to answer).
""",
}

_HARD_MULTI = {
    "zh": "- 最少打扰：本可从上下文推理或用工具查到的信息却去问用户，要扣分；问与用户原本目标无关的"
    "问题（无关偏好、与任务无关的选择题）也要扣分。\n",
    "en": "- Minimal disturbance: asking the user for something the context or a tool could have "
    "supplied is a fault; so is a question that strays from the user's original goal (an "
    "irrelevant preference, a choice unrelated to the task).\n",
}

# ---------------------------------------------------------------- per-dimension criteria

_CRITERIA = {
    "zh": {
        "reasoning_planning": """\
## reasoning_planning
要点：
- 是否理解需求与工具功能的对应关系，执行中始终围绕用户需求，没有随意偏离；
- 整体调用路线是否清楚：需要哪些工具、先后顺序、关键参数从哪里来、缺了如何补齐（查询、追问或重试）；
- 每次调用是否都有意义，没有多余的思考和调用；
- 参数是否符合工具定义和用户意图；是否先定位或搜索再下结论（例如先用工具拿到坐标或中心点，再做范围、距离或周边搜索）；
- 返回不符合预期时是否有检查与纠错（行政区对不上就换条件或请用户确认，缺坐标就先补齐）。
评级：
- 极差：没有规划或规划完全错误，与需求脱节；或参数填得不合理。
- 较差：规划有明显缺陷（如关键参数来源不明或直接编造），调用偏离目标，没有异常处理。
- 一般：规划大体合理，但有小的逻辑漏洞（如没有交代参数来源、缺少校验）。
- 较好：规划清楚合理，只有轻微不足；能说明参数来源，并有基本的校验或确认。
- 优秀：规划完整精确且严格执行；参数来源明确，校验与纠错完备。
""",
        "summarization_extraction": """\
## summarization_extraction
要点：
- 能否从用户问题和工具返回中抓住核心信息，聚焦关键参数和要点，不堆砌无关内容；
- 是否与既定规划保持一致；
- 是否严格依据工具返回，没有随意编造数据或事实；
- 关键结论能否对应到明确的工具返回（哪个工具、哪个字段或条目）；
- 是否误读字段含义、张冠李戴（例如把行政区当成中心点、把搜索结果当成坐标来源）；
- 工具返回不符合预期、为空或出错时，是否如实反映，而不是略过后照样给结论。
评级：
- 极差：出现幻觉（编造参数、坐标、距离、行政区或结论），或无视工具报错、空结果、关键矛盾；或工具没有返回却给出确定结论。
- 较差：遗漏关键信息，或误读工具字段；关键参数来源含糊其辞。
- 一般：覆盖了主要信息，但夹带不必要的格式文字或组织松散；对参数与证据链交代不足。
- 较好：提取准确、没有幻觉、覆盖全面；能说明关键参数从哪里来。
- 优秀：在事实百分之百准确的前提下，能跨多个工具结果做关联和整合；关键结论都可追溯，证据链完整。

出行类信息的额外规则（问题涉及导航、路线规划、路况、到达时间、交通费用、天气等时适用）：
1. 以下信息只能来自工具或上下文，不能凭常识或记忆估算：精确时间（如“预计 15:47 到达”“耗时 6 分钟”）；距离、里程、拥堵长度；价格和费用（打车费、火车票价、机票价、过路费等）；实时或指定日期的天气、气温、空气质量；具体的站名、航班号、车次号。
2. 工具没有返回某项数据，助手却给出看似贴心的具体数值（例如“打车大约 12–15 元”“今天 22 度、晴”），应认定为幻觉，而不是加分项。
3. 地理与位置类规则（适用于地点、行政区、周边、范围或半径检索）：
   - 中心点坐标、半径、行政区、城市等关键参数必须来自用户明确给出、上下文已给出或工具返回，否则视为编造参数；
   - 没有定位或检索就断言“某地在某地 X 公里以内/以外”之类的结论是不允许的，必须有工具证据；
   - 按行政区检索而中心点坐标明显不在该行政区（或工具返回显示二者不一致）时，助手没有做合理性检查要扣分；做了重试、纠错或确认可以加分。
""",
        "presentation": """\
## presentation
要点：
- 是否准确、直接地回应并完成了用户明确提出的核心需求；
- 内容是否清楚、有逻辑、有结构；
- 是否以清楚、准确、简洁的方式呈现；
- 表达是否以工具结果为依据：工具结果不足以支撑结论时，是否说明限制、请用户补充必要信息或说明下一步要调用的工具，而不是硬给答案；是否避免把猜测或常识包装成确定事实，对不确定之处是否明确标注。
{presentation_extra}评级：
- 极差：表述混乱难以理解，没有完成需求；或给出没有依据的确定结论。
- 较差：表述不够清楚或明显冗余，只完成部分需求；对工具不足或报错没有说明。
- 一般：能看懂但不够简洁，互动有限，只部分完成需求；可信边界的提示不足。
- 较好：表述清楚简练、互动合理，很好地完成了需求；能提示需要更精确的信息或下一步。
- 优秀：表述非常清楚简洁且互动到位，很好地完成了需求，还给出更多互动内容或可以立即执行的下一步；同时严格以工具证据为边界。
""",
        "user_interaction": """\
## user_interaction
要点（参考前三个维度，但聚焦“问得对、问得少、问得值”）：
- 必要性：只在确实缺少关键信息、且无法通过工具或上下文补齐时才提问；
- 最少打扰：问题数量尽量少，把多个缺口合并成一个信息量大的问题，避免连环追问；
- 可替代性：提问前是否应先用工具尝试（检索、定位、解析）；能用工具得到却仍去问，要扣分；
- 问题质量：问题具体、可操作，指向关键参数（地点、时间、范围、对象等），而不是笼统地问“你想要什么”；
- 意图对齐：问题紧扣用户原本的任务目标；问对完成任务不必要的偏好或明显偏题（例如用户要找最近的医院却问喜欢什么风格），要扣分；
- 基于工具返回：工具返回为空、冲突或有歧义时，是否引用返回内容来澄清（例如列出候选请用户选），而不是无依据地发问；
- 闭环：问完之后是否明确说明下一步如何用这条信息调用工具或给出答案，避免问了不用。
评级：
- 极差：大量不必要的追问；能用工具或上下文解决的却频繁打扰用户；问题偏离需求；问完不形成闭环。
- 较差：有明显不必要或偏题的追问；问题过于宽泛；多轮追问没有合并。
- 一般：追问基本合理，但仍略多或不够聚焦；对为什么问、问了做什么交代不足。
- 较好：只在必要时追问，问题清楚聚焦、数量少；先用工具验证，追问建立在返回结果之上。
- 优秀：追问策略成熟：先用工具补齐，只问无法替代的信息；一次问到关键点；给出候选以减少用户输入；形成明确的执行闭环且不打扰用户。
""",
    },
    "en": {
        "reasoning_planning": """\
## reasoning_planning
Focus:
- Does it understand how the need maps onto the tools, and stay centred on the need instead of drifting?
- Is the overall route clear: which tools, in which order, where each key argument comes from, and how a gap is filled (look up, ask or retry)?
- Is every call meaningful, with no redundant thinking or calls?
- Do the arguments fit the tool definitions and the user's intent? Does it locate or search before concluding (e.g. get coordinates or a centre from a tool first, then search by range, distance or surroundings)?
- When a result is not what was expected, does it check and correct (change the query or ask when the district does not match; obtain missing coordinates first)?
Levels:
- very poor: no plan or a wholly wrong one, disconnected from the need; or unreasonable arguments.
- poor: clear flaws in the plan (e.g. key arguments of unknown origin or simply invented), calls that drift from the goal, no error handling.
- fair: a broadly sensible plan with small logical gaps (e.g. argument sources not made clear, no checks).
- good: a clear, sensible plan with only minor shortcomings; argument sources are explained and there is basic checking or confirmation.
- excellent: a complete, precise plan followed to the letter; every argument has a clear source; checks and corrections are thorough.
""",
        "summarization_extraction": """\
## summarization_extraction
Focus:
- Does it take the core information from the query and the tool results, focusing on key arguments and points without piling up irrelevant content?
- Is it consistent with the plan it set out?
- Does it stick strictly to what the tools returned, inventing no data or facts?
- Can each key conclusion be pointed to a specific tool result (which tool, which field or entry)?
- Does it misread fields or mix them up (e.g. take a district for a centre point, or a search result for a source of coordinates)?
- When a result is unexpected, empty or an error, does it say so honestly instead of skipping it and concluding anyway?
Levels:
- very poor: hallucination (invented arguments, coordinates, distances, districts or conclusions), or ignoring tool errors, empty results or key contradictions; or a definite conclusion no tool returned.
- poor: key information missed, or tool fields misread; vague about where key arguments came from.
- fair: the main information is covered but with unnecessary formatting text or loose organisation; arguments and evidence are not explained enough.
- good: accurate extraction, no hallucination, full coverage; it can say where the key arguments came from.
- excellent: with every fact 100% correct, it links and integrates results across several tools; every key conclusion is traceable and the chain of evidence is complete.

Extra rules for travel information (navigation, route planning, traffic, arrival times, fares, weather, ...):
1. The following may only come from tools or the context, never from common sense or memory: exact times (e.g. "arrives 15:47", "takes 6 minutes"); distances, mileage, length of a jam; prices and fees (taxi fares, train and air tickets, tolls, ...); live or date-specific weather, temperature and air quality; specific station names, flight numbers and train numbers.
2. When no tool returned a figure and the assistant still gives a "helpful" concrete value (e.g. "a taxi is about 12–15 yuan", "22 degrees and sunny today"), treat it as a hallucination, not as a plus.
3. Geography and location (place, district, nearby, range or radius searches):
   - centre coordinates, radius, district, city and similar key arguments must come from the user, the context or a tool result; otherwise they are invented arguments;
   - asserting "X is within / beyond N km of Y" without locating or searching is not allowed; it needs tool evidence;
   - searching by district while the centre is clearly outside that district (or the tool result shows they disagree) without a plausibility check is a fault; retrying, correcting or confirming earns credit.
""",
        "presentation": """\
## presentation
Focus:
- Does it answer, accurately and directly, the core need the user stated, and fulfil it?
- Is the content clear, logical and structured?
- Is it presented clearly, accurately and concisely?
- Is what it states backed by tool results? When they do not support a conclusion, does it say so, ask for what is needed or name the next tool call, instead of forcing an answer? Does it avoid dressing guesses or common knowledge up as fact, and mark uncertainty clearly?
{presentation_extra}Levels:
- very poor: confused and hard to understand, the need not met; or definite conclusions without any basis.
- poor: not clear enough or clearly redundant, the need only partly met; no word about missing or failed tool results.
- fair: understandable but not concise, little interaction, the need partly met; too little said about how far the evidence goes.
- good: clear and compact, sensible interaction, the need well met; it points out where more precise information or a next step is needed.
- excellent: very clear and concise with well-judged interaction, the need well met, plus further useful interaction or a next step that can be taken at once; all strictly within what the tools showed.
""",
        "user_interaction": """\
## user_interaction
Focus (use the first three dimensions as background, but judge whether it asks the right things, asks little, and asks what is worth asking):
- Necessity: it asks only when key information is truly missing and neither tools nor the context can supply it.
- Minimal disturbance: as few questions as possible, several gaps merged into one informative question, no chains of questions.
- Replaceability: should it have tried a tool first (search, locate, resolve)? Asking for what a tool could have given is a fault.
- Question quality: specific, answerable questions aimed at key arguments (place, time, range, object, ...), not a vague "what do you want?".
- Intent alignment: questions stay on the user's original task; asking about preferences the task does not need, or going off topic (the user wants the nearest hospital and is asked about a preferred style), is a fault.
- Grounded in tool results: when a result is empty, conflicting or ambiguous, does it cite the result to clarify (e.g. offer candidates to choose from) rather than ask without basis?
- Closure: after asking, does it make clear how the answer will be used for the next call or the answer, rather than asking and never using it?
Levels:
- very poor: many needless questions; disturbing the user for what tools or context could settle; off-need questions; no closure.
- poor: clearly needless or off-topic questions; over-broad questions; several rounds of questions not merged.
- fair: broadly sensible questions, but still a few too many or not focused; little said about why it asks and what it will do with the answer.
- good: asks only when needed, with few, clear, focused questions; verifies with tools first and builds questions on the results.
- excellent: a mature strategy: tools first, questions only for what cannot be replaced; gets to the point in one go; offers candidates to save the user typing; a clear path to execution without disturbing the user.
""",
    },
}

_PRESENTATION_MULTI = {
    "zh": "- 是否适当地与用户互动或反馈（例如提示需要更精确的信息、推荐与问题相关的延伸问题）。\n",
    "en": "- Does it interact with or give feedback to the user where fitting (e.g. note that more "
    "precise information is needed, suggest a related follow-up)?\n",
}

# ---------------------------------------------------------------- materials and output

_LABELS = {
    "zh": {
        "context": "## 上下文信息",
        "query": "## 用户的问题",
        "tools": "## 可用工具",
        "history": "## 对话记录",
        "extra": "## 补充信息（只供评分参考；助手看不到用户意图和画像）",
        "time": "当前时间",
        "intent": "用户的真实意图",
        "profile": "用户画像",
        "none": "（无）",
    },
    "en": {
        "context": "## Context",
        "query": "## The user's question",
        "tools": "## Available tools",
        "history": "## Conversation",
        "extra": "## Additional information (for grading only; the assistant never saw the intent "
        "or the profile)",
        "time": "Current time",
        "intent": "The user's actual intent",
        "profile": "User profile",
        "none": "(none)",
    },
}

_COVER = {
    "zh": (
        "①这个任务是否需要工具、助手是否用了；②参数有没有来源；③工具返回能否支撑结论；"
        "④返回不符合预期时助手是否检查、重试或追问",
        "；⑤追问是否必要、是否最少打扰、能否用工具替代、是否贴合用户意图",
    ),
    "en": (
        "(1) whether the task needed tools and whether the assistant used them; (2) where the "
        "arguments came from; (3) whether the tool results support the conclusions; (4) "
        "whether it checked, retried or asked when a result was unexpected",
        "; (5) whether its questions were necessary, minimally disturbing, irreplaceable by "
        "tools and aligned with the user's intent",
    ),
}

_OUTPUT = {
    "zh": """\
# 输出要求
- 每个维度先写详细理由，再给评级。理由必须明确覆盖：{cover}。
- 只输出下面的 XML，标签正确闭合；理由用纯文本，不要使用任何 HTML 标签（如 <b>、<br>）；<rating> 里只写五个评级词之一：{levels}。
""",
    "en": """\
# Output
- For every dimension write the detailed reasoning first, then the rating. The reasoning must explicitly cover {cover}.
- Output only the XML below with every tag closed; reasoning in plain text without any HTML tags (such as <b> or <br>); <rating> holds exactly one of the five levels: {levels}.
""",
}

_EXAMPLE_REASONING = {
    "zh": {
        "reasoning_planning": "用户要查明天从成都到重庆的高铁。助手没有调用火车查询工具，就在回答里给出了车次"
        "G8601、发车时间 8:05 和票价 96 元，参数和结论都没有任何工具依据……",
        "summarization_extraction": "车次、时间和票价在对话中的任何工具返回里都找不到，属于编造；"
        "助手也没有说明这些信息未经查询……",
        "presentation": "回答排版整齐，但核心内容建立在编造的信息上，整齐反而更容易误导用户；"
        "没有说明信息的来源和局限……",
        "user_interaction": "用户没有说明出发时段，助手既没有先用工具查出全天车次供选择，也没有询问，"
        "而是直接给出一个编造的车次……",
    },
    "en": {
        "reasoning_planning": "The user asks for tomorrow's high-speed trains from Chengdu to "
        "Chongqing. The assistant never called the train search tool yet named train G8601, an "
        "08:05 departure and a 96-yuan fare; neither arguments nor conclusions rest on any tool...",
        "summarization_extraction": "The train number, time and fare appear in no tool result of "
        "the conversation, so they are invented, and the assistant does not say they were never "
        "looked up...",
        "presentation": "The answer is neatly formatted, but its core rests on invented facts, "
        "which makes the neatness misleading; nothing is said about sources or limits...",
        "user_interaction": "The user gave no time of day; the assistant neither listed the day's "
        "trains from a tool nor asked, and simply produced an invented train...",
    },
}

_EXAMPLE_RATINGS = {
    "zh": {
        "reasoning_planning": "极差",
        "summarization_extraction": "极差",
        "presentation": "较差",
        "user_interaction": "极差",
    },
    "en": {
        "reasoning_planning": "very poor",
        "summarization_extraction": "very poor",
        "presentation": "poor",
        "user_interaction": "very poor",
    },
}

_HEAD = {
    "zh": """\
# 任务
下面是一段旅行助手借助工具为用户服务的对话。请从以下 {n} 个维度评价助手的表现，每个维度给出五级评级之一（{levels}）。

# 维度
{definitions}
""",
    "en": """\
# Task
Below is a conversation in which a travel assistant serves a user with the help of tools. Rate the assistant on the {n} dimensions below, giving each one of five levels ({levels}).

# Dimensions
{definitions}
""",
}

_CRITERIA_HEAD = {"zh": "# 各维度要点与评级标准\n", "en": "# Focus and levels of each dimension\n"}
_MATERIALS_HEAD = {"zh": "# 待评对话\n", "en": "# The conversation to grade\n"}
_EXAMPLE_HEAD = {
    "zh": "# 示例（只示范格式与严格程度，不是本次对话）\n",
    "en": "# Example (format and strictness only; not this conversation)\n",
}


def _xml(dimensions: Sequence[str], language: Language, example: bool) -> str:
    placeholder = {"zh": "……", "en": "..."}[language]
    lines = ["<response>"]
    for d in dimensions:
        reasoning = _EXAMPLE_REASONING[language][d] if example else placeholder
        rating = _EXAMPLE_RATINGS[language][d] if example else LEVELS[language]
        lines += [
            f"<{d}>",
            f"<reasoning>{reasoning}</reasoning>",
            f"<rating>{rating}</rating>",
            f"</{d}>",
        ]
    lines.append("</response>")
    return "\n".join(lines)


def materials(
    language: Language,
    *,
    context: str,
    query: str,
    tools: str,
    history: str,
    extra: dict[str, str] | None = None,
) -> str:
    """The conversation block shared by the judge and the meta-judge."""
    lab = _LABELS[language]
    parts = [
        f"{lab['context']}\n{context.strip() or lab['none']}",
        f"{lab['query']}\n{query.strip() or lab['none']}",
    ]
    if extra:
        rows = "\n".join(f"### {lab[k]}\n{v.strip()}" for k, v in extra.items() if v and v.strip())
        if rows:
            parts.append(f"{lab['extra']}\n{rows}")
    parts += [f"{lab['tools']}\n{tools}", f"{lab['history']}\n{history.strip() or lab['none']}"]
    return "\n\n".join(parts) + "\n"


def judge_prompt(dimensions: Sequence[str], language: Language, conversation: str) -> str:
    """The user prompt of the judge for ``dimensions`` (3 single-turn, 4 multi-turn)."""
    multi = "user_interaction" in dimensions
    defs = "\n".join(f"{i}. {_DEFINE[language][d]}" for i, d in enumerate(dimensions, 1))
    head = _HEAD[language].format(n=len(dimensions), levels=LEVELS[language], definitions=defs)
    hard = _HARD[language] + (_HARD_MULTI[language] if multi else "")
    criteria = "\n".join(
        _CRITERIA[language][d].replace(
            "{presentation_extra}", _PRESENTATION_MULTI[language] if multi else ""
        )
        for d in dimensions
    )
    cover, cover_multi = _COVER[language]
    output = _OUTPUT[language].format(
        cover=cover + (cover_multi if multi else ""), levels=LEVELS[language]
    )
    return "\n".join(
        [
            head,
            hard,
            _CRITERIA_HEAD[language] + criteria,
            _MATERIALS_HEAD[language] + conversation,
            output,
            _xml(dimensions, language, example=False),
            "",
            _EXAMPLE_HEAD[language] + _xml(dimensions, language, example=True),
        ]
    )


_META = {
    "zh": """\
# 任务
这是一次元评估：你要评价的是下面这份评测结果本身是否可靠，而不是重新给对话打分。

# 需要判断的方面
1. 评级是否准确：各维度评级是否反映了助手在对话中的真实表现，有没有明显偏高或偏低。
2. 理由与证据：理由是否条理清楚、可以追溯，是否引用了对话、工具调用或工具返回中的关键证据，而不是空泛判断。
3. 标准执行：是否严格执行了硬性检查与各维度标准（尤其是参数来源、结果一致、异常处理），是否过松或过严。
4. 覆盖是否全面：是否检查到所有关键风险和亮点，有没有漏掉严重问题或重要优点。
5. 维度之间是否协调：各维度评级是否彼此一致、互相支撑；如果理由指出了严重幻觉而评级仍是“较好”或“优秀”，要明确指出。

# 原始对话
{materials}
# 第一次评测
## 各维度评级
{scores}

## 各维度理由
{reasoning}

# 逐项核查（每项都要在理由中给出证据）
A. 评级是否合理：是否与对话事实一致（调用轨迹、参数来源、工具返回、最终回答）；有高估或低估就说明应更高还是更低，并给出证据；同一个问题是否在某个维度被重罚、在另一个维度却被忽略。
B. 证据链是否充分：理由是否具体，是否引用了关键语句、调用参数和返回字段；是否区分了可证实的事实与推测；关键错误是否给出明确原因（编造参数、没用工具、误读字段、忽略空结果等）；是否遗漏了重要内容。
C. 硬性检查是否落实：参数来源（关键参数是否来自上下文或工具返回，没有来源是否重罚）、结果一致（最终回答能否被工具返回逐条支撑，不能时是否判为幻觉）、过程一致（未检索未定位就下地理结论是否被识别并惩罚）、异常处理（空结果、报错、矛盾时是否要求模型重试、纠错或追问并据此评分）；如果评测对这些一笔带过或完全没提，判为不严格。
D. 全面性：是否覆盖需求理解 → 规划与工具 → 参数来源 → 结果使用 → 最终呈现 → 交互与追问（如适用）的每个环节；是否漏掉严重风险（编造坐标、距离、费用、时间，忽略空结果等）或模型的优点（合理的重试、清晰的证据表达、恰当的边界说明等）。
E. 复评一致性（反事实检查）：如果你按同一标准重新评，会不会给出同一档的总体判断？不会的话，指出最关键的偏差及其原因（不需要完整重评）。

# 输出要求
- 只给一个综合评级：{levels}（不要写数字或分数）。
- 理由必须说明第一次评测在参数来源、结果一致、异常处理、证据引用四方面是否达标，以及是否存在维度间矛盾和遗漏。
- 只输出下面的 XML，标签正确使用；理由用纯文本，不要使用任何 HTML 标签（如 <b>、<br>）。

<meta_evaluation>
<reasoning>依次说明：1 评级是否准确、有无高估低估（附证据）；2 理由与证据链是否充分；3 标准是否严格落实；4 覆盖是否全面、遗漏了什么；5 结论：你复评会不会给同一档，差在哪里</reasoning>
<rating>{levels} 之一</rating>
</meta_evaluation>
""",
    "en": """\
# Task
This is a meta-evaluation: judge whether the evaluation below is itself reliable. Do not grade the conversation again.

# What to judge
1. Accuracy: do the ratings reflect how the assistant actually performed; is anything clearly over- or under-rated?
2. Reasoning and evidence: is the reasoning clear and traceable, citing key evidence (turns, tool calls, tool results) rather than general impressions?
3. Strictness: were the hard checks and the level definitions applied (above all parameter provenance, result consistency and error handling), neither too loosely nor too harshly?
4. Coverage: were all key risks and strengths examined, or was a serious problem or an important merit missed?
5. Agreement between dimensions: do the ratings agree and support each other? If the reasoning names a serious hallucination but the rating is still good or excellent, say so.

# The original conversation
{materials}
# The first evaluation
## Ratings per dimension
{scores}

## Reasoning per dimension
{reasoning}

# Check each point, with evidence in your reasoning
A. Are the ratings reasonable: consistent with the facts of the conversation (calls, argument sources, tool results, the final answer)? If over- or under-rated, say which way and why, with evidence. Is one problem punished hard in one dimension and ignored in another?
B. Is the chain of evidence sufficient: specific, quoting key sentences, call arguments and result fields; separating verifiable facts from speculation; naming the cause of each key error (invented arguments, no tool used, misread field, ignored empty result, ...); nothing important left out?
C. Were the hard checks enforced: parameter provenance (key arguments from the context or tool results; punished when sourceless), result consistency (the final answer supported item by item by tool results, otherwise judged a hallucination), process consistency (geographic conclusions before searching or locating recognised and punished), error handling (on empty results, errors or contradictions, did the evaluation expect a retry, correction or question and score accordingly)? An evaluation that glosses over these or omits them is not strict.
D. Coverage: does it cover every stage: understanding the need, planning and tools, argument sources, use of results, the final answer, and interaction and questions where relevant? Did it miss serious risks (invented coordinates, distances, fares or times, ignored empty results, ...) or merits (sensible retries, clear evidence, well-stated limits, ...)?
E. Counterfactual: re-evaluating by the same standard, would you reach the same overall level? If not, name the decisive difference and why (no full re-grading needed).

# Output
- Give one overall rating: {levels} (no numbers or scores).
- The reasoning must say whether the first evaluation met the bar on parameter provenance, result consistency, error handling and citing evidence, and whether dimensions contradict each other or something was missed.
- Output only the XML below; reasoning in plain text without any HTML tags (such as <b> or <br>).

<meta_evaluation>
<reasoning>In turn: 1 accuracy, over- or under-rating, with evidence; 2 reasoning and evidence chain; 3 strictness of the checks; 4 coverage and what was missed; 5 conclusion: would you give the same level on re-evaluation, and where it differs</reasoning>
<rating>one of {levels}</rating>
</meta_evaluation>
""",
}


def meta_prompt(language: Language, conversation: str, scores: str, reasoning: str) -> str:
    """The user prompt of the meta-judge."""
    return _META[language].format(
        materials=conversation, scores=scores, reasoning=reasoning, levels=LEVELS[language]
    )

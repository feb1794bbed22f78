"""Every rule of the official VitaBench judge templates is in our judge prompts.

The table below lists each rule of the official templates (``sliding_window_eval_template``,
``full_trajectory_eval_template``, ``sliding_window_eval_no_rubrics_eval_template``,
``full_trajectory_no_rubrics_eval_template``), paraphrased, with the variants whose official
template states it and the words that carry it in our English and Chinese prompts of each
variant. The remaining differences are listed in docs/compat.md ("Rubric judge").

Also here: the record a rubric keeps across windows (each window's justification appended).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from lifebench.messages import AssistantMessage, Message, UserMessage
from lifebench.models import ScriptedModel
from lifebench.simulation import Simulation, TerminationReason
from lifebench.vita.grading.judge_prompts import judge_system_prompt
from lifebench.vita.grading.rubric import NOT_EVALUATED, RubricJudge, _RubricState
from lifebench.vita.task import VitaTask

SLIDING, FULL, NS, NF = "sliding", "full", "sliding-norubric", "full-norubric"
RUBRIC_VARIANTS = (SLIDING, FULL)
ALL = (SLIDING, FULL, NS, NF)
SLIDING_VARIANTS = (SLIDING, NS)

FIELDS: Mapping[str, object] = {
    "time": "2025-06-21 11:20:00 Saturday",
    "instruction": "Order two bowls of mild noodles to the hospital by noon.",
    "size": 10,
    "overlap": 2,
    "index": 2,
    "total": 3,
}


@dataclass(frozen=True)
class Rule:
    """One rule of the official templates.

    Attributes:
        id: Short name.
        official: Our paraphrase of the official rule.
        en: For each variant whose official template states the rule, the phrases that carry it
            in our English prompt (checked with whitespace runs folded to one space).
        zh: The same for the Chinese prompt.
    """

    id: str
    official: str
    en: Mapping[str, Sequence[str]]
    zh: Mapping[str, Sequence[str]]


def _each(variants: Sequence[str], *phrases: str) -> dict[str, tuple[str, ...]]:
    return {v: phrases for v in variants}


RULES: tuple[Rule, ...] = (
    # ---- context ---------------------------------------------------------------------------
    Rule(
        "system-time",
        "The system information gives the current time with its weekday.",
        _each(ALL, "Current time of the conversation: 2025-06-21 11:20:00 Saturday"),
        _each(ALL, "对话发生的当前时间：2025-06-21 11:20:00 Saturday"),
    ),
    Rule(
        "complete-instruction",
        "The user's complete instruction is shown.",
        _each(ALL, "# The user's complete instruction Order two bowls of mild noodles"),
        _each(ALL, "# 用户的完整指令 Order two bowls of mild noodles"),
    ),
    # ---- background ------------------------------------------------------------------------
    Rule(
        "conversation-with-tools",
        "The transcript is a user–assistant conversation; the assistant calls tools to get "
        "information and act; tool results are marked 'tool'.",
        _each(
            ALL,
            "conversation between a user and an assistant",
            "The assistant can call tools to look things up and to act",
            'tool results are the lines whose role is "tool"',
        ),
        _each(
            ALL,
            "用户与助手",
            "助手可以调用工具查询信息和执行操作",
            '角色为 "tool" 的行是工具返回结果',
        ),
    ),
    Rule(
        "judge-completion",
        "Evaluate whether the user instruction has been completed.",
        {
            SLIDING: ["decide whether the user's instruction was carried out"],
            FULL: ["decide whether the user's instruction was carried out"],
            NS: ["decide whether the user's complete instruction was carried out"],
            NF: ["decide whether the user's instruction was carried out"],
        },
        {
            SLIDING: ["你要判断用户的指令是否被完成"],
            FULL: ["你要判断用户的指令是否被完成"],
            NS: ["你要判断用户的完整指令是否被完成"],
            NF: ["你要判断用户的指令是否被完成"],
        },
    ),
    Rule(
        "split-into-rubrics",
        "The instruction has been broken down into scoring points (rubrics); judge whether "
        "each is satisfied.",
        _each(RUBRIC_VARIANTS, "split into rubrics (scoring points); judge each rubric on its own"),
        _each(RUBRIC_VARIANTS, "完整指令已拆分为若干评分项（rubric），逐项判断每一项是否满足"),
    ),
    Rule(
        "windows",
        "Sliding windows of N turns with an overlap; (with rubrics) the rubric status is kept "
        "across windows.",
        {
            SLIDING: [
                "judged in windows of 10 messages, consecutive windows sharing 2 messages",
                "the status of every rubric carries over from one window to the next",
            ],
            NS: ["judged in windows of 10 messages, consecutive windows sharing 2"],
        },
        {
            SLIDING: [
                "每个窗口 10 条消息，相邻窗口重叠 2 条",
                "评分项的状态会从一个窗口延续到下一个窗口",
            ],
            NS: ["每个窗口 10 条消息，相邻窗口重叠 2 条"],
        },
    ),
    Rule(
        "window-index",
        "You are evaluating window k of N.",
        {SLIDING: ["You are judging window 2 of 3."], NS: ["this is window 2 of 3."]},
        {SLIDING: ["你正在评估第 2 个窗口（共 3 个）"], NS: ["这是第 2 个窗口（共 3 个）"]},
    ),
    Rule(
        "window-content",
        "<window_content> holds the current window's conversation.",
        _each(SLIDING_VARIANTS, "<window_content> holds this window's messages"),
        _each(SLIDING_VARIANTS, "<window_content> 是本窗口的消息"),
    ),
    Rule(
        "trajectory-content",
        "<trajectory_content> holds the complete conversation.",
        _each((FULL, NF), "<conversation> holds every message"),
        _each((FULL, NF), "<conversation> 是全部带编号的消息"),
    ),
    Rule(
        "rubric-status",
        "<current_rubrics> holds the status of every scoring point: true satisfied, false not; "
        "all start false.",
        {
            SLIDING: [
                "<current_rubrics> holds every rubric's status so far (true = met, false = not met)",
                "Every rubric starts as false.",
            ],
            FULL: ["(true = met, false = not met); every rubric starts as false."],
        },
        {
            SLIDING: [
                "<current_rubrics> 是每个评分项目前的状态（true 表示已满足，false 表示未满足）",
                "所有评分项初始均为 false。",
            ],
            FULL: ["（true 表示已满足，false 表示未满足），所有评分项初始均为 false。"],
        },
    ),
    Rule(
        "memory-and-evaluation",
        "<memory> summarises the earlier windows; <current_evaluation> holds the earlier "
        "evaluation result.",
        {
            NS: [
                "<memory> holds your notes on the earlier windows",
                "<current_verdict> is the verdict so far (it starts as false)",
            ]
        },
        {
            NS: [
                "<memory> 是你对之前窗口的记忆总结",
                "<current_verdict> 是目前的判断（初始为 false）",
            ]
        },
    ),
    # ---- task ------------------------------------------------------------------------------
    Rule(
        "update-from-content",
        "Update the statuses (or decide whether all requirements are met) from the content.",
        {
            SLIDING: ["Update the status of the rubrics from what happens in this window."],
            FULL: ["Update the status of the rubrics from the conversation."],
            NS: ["decide whether every requirement of the complete instruction has been met"],
            NF: [
                "Decide whether every sub-requirement of the complete instruction has been "
                "fully carried out."
            ],
        },
        {
            SLIDING: ["根据本窗口发生的内容更新评分项状态。"],
            FULL: ["根据对话内容更新评分项状态。"],
            NS: ["判断完整指令中的每一项需求是否都已满足"],
            NF: ["判断完整指令中的所有子需求是否都已全部完成。"],
        },
    ),
    Rule(
        "false-to-true",
        "false → true if and only if the assistant completed the goal (in this window; in the "
        "conversation; in this and the earlier windows).",
        {
            SLIDING: [
                "Set a rubric from false to true only when the assistant achieves its "
                "goal in this window."
            ],
            FULL: [
                "Set a rubric to true only when the assistant achieves its goal in the "
                "conversation."
            ],
            NS: [
                "Set the verdict from false to true only when the assistant has carried out "
                "the complete instruction in this window and the earlier ones."
            ],
        },
        {
            SLIDING: ["只有当助手在本窗口完成了某项目标时，才把它从 false 改为 true。"],
            FULL: ["只有当助手在对话中完成了某项目标时，才把它设为 true。"],
            NS: ["只有当助手在本窗口及之前的窗口中完成了完整指令时，才把判断从 false 改为 true。"],
        },
    ),
    Rule(
        "true-to-false",
        "true → false only if the assistant overturned an earlier correct conclusion in this "
        "window; if the user's needs themselves changed (e.g. cancelling after ordering), the "
        "evaluation of the ordering requirement is not overturned.",
        _each(
            SLIDING_VARIANTS,
            "Set it from true back to false only if, in this window, the assistant overturns "
            "an outcome that was correct.",
            "When the user's own needs change (for example the user cancels an order after it "
            "was placed), the earlier verdict on placing that order stands.",
        ),
        _each(
            SLIDING_VARIANTS,
            "只有当助手在本窗口推翻了之前正确的结果时，才把 true 改回 false。",
            "如果是用户自己的需求发生了变化（例如下单后用户主动取消），之前对下单这一需求的判断保持不变。",
        ),
    ),
    Rule(
        "progress",
        "Refer to the complete instruction for the progress of the window; avoid unnecessary "
        "modifications.",
        _each(
            SLIDING_VARIANTS,
            "Use the complete instruction to tell how far the conversation has got, and make no "
            "change this window gives no reason for.",
        ),
        _each(
            SLIDING_VARIANTS, "参考完整指令判断对话进行到了哪一步，本窗口没有给出理由的改动不要做。"
        ),
    ),
    Rule(
        "merge-memory",
        "Merge the window content and the memory, adjust by the notes, output as the new memory.",
        {
            NS: [
                "Merge this window into your memory and return the new memory, kept as the notes "
                "below say."
            ]
        },
        {NS: ["把本窗口的内容合并进记忆，按下面的要求整理后作为新的记忆返回。"]},
    ),
    # ---- notes -----------------------------------------------------------------------------
    Rule(
        "standard",
        "Judge by whether the assistant's replies and tool-call requests complete the goals; "
        "what the user says is only guidance for the assistant and does not change the "
        "standard; the rubric (the instruction) is the standard.",
        {
            **_each(
                RUBRIC_VARIANTS,
                "The rubric is the standard. Judge the assistant's replies and the tool calls "
                "it requests.",
                "What the user says in the conversation only prompts or guides the assistant; "
                "it never changes what the rubric requires.",
            ),
            **_each(
                (NS, NF),
                "The user's instruction is the standard. Judge the assistant's replies and the "
                "tool calls it requests.",
                "it never changes what the instruction requires.",
            ),
        },
        {
            **_each(
                RUBRIC_VARIANTS,
                "以评分项为准。依据助手的回复和它发起的工具调用进行评判；用户在对话中说的话只是对助手的"
                "提示和引导，不改变评分项的要求。",
            ),
            **_each(
                (NS, NF),
                "以用户指令为准。依据助手的回复和它发起的工具调用进行评判；用户在对话中说的话只是对助手"
                "的提示和引导，不改变用户指令的要求。",
            ),
        },
    ),
    Rule(
        "query-results",
        "Query tool results are visible to the assistant only and are not recommendations to "
        "the user; judge by the assistant's replies after obtaining the information.",
        _each(
            ALL,
            "Results of query tools are seen by the assistant only: they are not "
            "recommendations made to the user and do not count by themselves.",
            "Judge what the assistant tells the user after obtaining the information.",
        ),
        _each(
            ALL,
            "查询类工具的返回结果只有助手能看到，不代表助手向用户推荐的内容，本身不计入评判；"
            "以助手获取信息后对用户的回复为准。",
        ),
    ),
    Rule(
        "no-fabrication",
        "The assistant cannot fabricate tool results.",
        _each(ALL, "The assistant must not make up tool results."),
        _each(ALL, "助手不得编造工具返回结果。"),
    ),
    Rule(
        "order-really-placed",
        "For an order rubric (purchase instruction), confirm the order was really placed: the "
        "assistant may believe it ordered when the call failed; a user saying they can place "
        "the order themselves also means not met.",
        {
            **_each(
                RUBRIC_VARIANTS,
                "A rubric about an order (one that needs an order placed with its details) is "
                "met only if the assistant really placed the order: check that the call "
                "succeeded.",
            ),
            **_each(
                (NS, NF),
                "A request to buy something (one that needs an order placed with its details) "
                "is met only if the assistant really placed the order: check that the call "
                "succeeded.",
            ),
        },
        {
            **_each(
                RUBRIC_VARIANTS,
                "涉及订单的评分项（需要生成订单及其细节的）只有在助手确实下单成功时才算满足：要核实调用"
                "是否成功。",
            ),
            **_each(
                (NS, NF),
                "购买类需求（需要生成订单及其细节的）只有在助手确实下单成功时才算满足：要核实调用是否"
                "成功。",
            ),
        },
    ),
    Rule(
        "order-failure-and-self-ordering",
        "(same rule) the call may have failed although the assistant believes it ordered; the "
        "user offering to order themselves does not meet it.",
        _each(
            ALL,
            "The assistant may believe it ordered when the call failed; and if the user says "
            "they will place the order themselves, it is not met either.",
        ),
        _each(ALL, "助手可能误以为已下单而实际调用失败；用户表示“可以自己下单”等情况也算未满足。"),
    ),
    Rule(
        "strict-order-details",
        "Order details such as quantity and delivery time must strictly meet the requirement: "
        "no quantity deviation, delivery not later than the expected time; user compromises "
        "('fewer is okay', 'no objections to the order', 'later delivery is fine') do not "
        "change that — not met.",
        _each(
            ALL,
            "no deviation in any quantity, and delivery no later than the expected time.",
            'A compromise the user accepts ("fewer is fine", "no objections to the order", '
            '"later delivery is fine") does not change this: it is still not met.',
        ),
        _each(
            ALL,
            "数量不能有任何偏差，送达不得晚于期望时间。",
            "用户接受的妥协（如“少一点也行”“对订单没有异议”“晚点送也行”）不改变这一点，仍算未满足。",
        ),
    ),
    Rule(
        "functional-equivalence",
        "Addresses and order notes: functional equivalence — content that achieves the same "
        "function (roughly locating the delivery place, conveying the main need) meets the "
        "requirement even if worded differently or lacking some details.",
        _each(
            ALL,
            "Addresses and order notes are judged by functional equivalence",
            "(locates the delivery place well enough, conveys the customer's main request)",
            "even if it is worded differently or leaves out some details.",
        ),
        _each(
            ALL,
            "地址和订单备注按功能等价原则判断",
            "（大致定位配送地点、传达顾客的主要需求），即使表述不同或缺少部分细节，也算满足",
        ),
    ),
    Rule(
        "untouched-and-undecided",
        "A rubric the window does not involve keeps its status; one it involves but cannot "
        "fully decide gets its key information recorded in the justification for later.",
        {
            SLIDING: [
                "A rubric this window does not touch keeps its status.",
                "If this window touches a rubric but does not settle it yet, write the key "
                "facts in its justification so that a later window can decide.",
            ]
        },
        {
            SLIDING: [
                "本窗口未涉及的评分项保持原状态。",
                "本窗口涉及某项但还无法确定时，把关键信息写进它的理由中，留待后续窗口判断。",
            ]
        },
    ),
    Rule(
        "append-justification",
        "Record in the justification, by appending, the key information with its turn "
        "numbers [x]; give the reason of a status change, concisely; if unchanged, restate the "
        "previous reason.",
        {
            SLIDING: [
                "Your justification is appended to the rubric's record",
                "this window's key facts for the rubric with their message numbers, e.g. [12] [14]",
                "if you change the status, why; if you keep it, why it still holds.",
            ],
            FULL: [
                "Write briefly the key facts for the rubric with their message numbers, e.g. "
                "[12] [14], and the reason for its status.",
            ],
        },
        {
            SLIDING: [
                "你写的理由会追加到该评分项的记录之后",
                "本窗口与该项相关的关键信息及其消息编号，例如 [12] [14]",
                "若改变了状态，写明原因；若状态不变，写明原有理由为何仍然成立。",
            ],
            FULL: [
                "简要写出与该评分项相关的关键信息及其消息编号（例如 [12] [14]），以及状态的原因。"
            ],
        },
    ),
    Rule(
        "sub-requirements-memory",
        "Decompose the instruction into sub-requirements and evaluate each: not involved → "
        "record that; involved but undecidable → key information in memory for later; record "
        "key information with turn numbers [x] in memory.",
        {
            NS: [
                "Break the instruction into its sub-requirements and keep track of each in the "
                "memory:",
                "note that it is not involved so far;",
                "note the key facts so that a later window can decide;",
                "for each, the key facts with their message numbers, e.g. [12] [14].",
            ]
        },
        {
            NS: [
                "把指令拆分为若干子需求，在记忆中逐项跟踪：",
                "记下目前尚未涉及；",
                "记下关键信息，留待后续窗口判断；",
                "每个子需求的关键信息及其消息编号，例如 [12] [14]。",
            ]
        },
    ),
    Rule(
        "verdict-justification",
        "Record in the justification the key information, the basis of the decision and the "
        "turn numbers [x].",
        {
            NF: [
                "Write the key facts for the instruction, what your verdict rests on, and the "
                "message numbers, e.g. [12] [14]."
            ]
        },
        {NF: ["写出与指令有关的关键信息、判断的依据及其消息编号，例如 [12] [14]。"]},
    ),
    # ---- format ----------------------------------------------------------------------------
    Rule(
        "rubric-answer",
        "Answer with JSON: per rubric its identifier, the rubric restated, the justification "
        "and the updated status.",
        _each(
            RUBRIC_VARIANTS,
            "Reply with only a JSON list",
            '"rubric_key":',
            '"rubric": "<the rubric restated>"',
            '"justification":',
            '"meetExpectation": true or false',
        ),
        _each(
            RUBRIC_VARIANTS,
            "只回复一个 JSON 列表",
            '"rubric_key":',
            '"rubric": "<复述评分项>"',
            '"justification":',
            '"meetExpectation": true 或 false',
        ),
    ),
    Rule(
        "verdict-answer",
        "Answer with a JSON object: justification and the evaluation result (and, for the "
        "sliding form, the memory).",
        {
            NS: ['{"justification":', '"meetExpectation": true or false', '"memory":'],
            NF: ['{"justification":', '"meetExpectation": true or false}'],
        },
        {
            NS: ['{"justification":', '"meetExpectation": true 或 false', '"memory":'],
            NF: ['{"justification":', '"meetExpectation": true 或 false}'],
        },
    ),
)

#: Wordings of our earlier prompts that contradicted an official rule.
CONTRADICTIONS = (
    "must meet the rubric exactly",  # official: delivery not later than the expected time
    "cancels the right order",  # official: a user cancelling after ordering overturns nothing
    "严格符合评分项要求，即使用户接受了妥协",
    "取消了正确的订单",
)


def _prompt(variant: str, language: str) -> str:
    return " ".join(judge_system_prompt(variant, language, **FIELDS).split())  # type: ignore[arg-type]


CASES = [
    (rule.id, variant, language, phrase)
    for rule in RULES
    for language, table in (("en", rule.en), ("zh", rule.zh))
    for variant, phrases in table.items()
    for phrase in phrases
]


@pytest.mark.parametrize(("rule", "variant", "language", "phrase"), CASES)
def test_every_official_rule_is_in_the_prompt(
    rule: str, variant: str, language: str, phrase: str
) -> None:
    assert " ".join(phrase.split()) in _prompt(variant, language), (rule, variant, language)


def test_the_table_covers_every_variant_in_both_languages() -> None:
    for rule in RULES:
        assert set(rule.en) == set(rule.zh), rule.id  # each rule carried in both languages
        assert set(rule.en) <= set(ALL)
    for variant in ALL:
        assert sum(variant in rule.en for rule in RULES) >= 14, variant


@pytest.mark.parametrize("variant", ALL)
@pytest.mark.parametrize("language", ["en", "zh"])
def test_no_wording_contradicts_an_official_rule(variant: str, language: str) -> None:
    prompt = _prompt(variant, language)
    for wrong in CONTRADICTIONS:
        assert wrong not in prompt


@pytest.mark.parametrize("variant", ALL)
@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_field_is_filled(variant: str, language: str) -> None:
    prompt = judge_system_prompt(variant, language, **FIELDS)  # type: ignore[arg-type]
    assert "{" not in prompt.replace('{"', "").replace("{'", "")
    assert "2025-06-21 11:20:00 Saturday" in prompt
    if variant in SLIDING_VARIANTS:
        assert "10" in prompt and "2" in prompt and "3" in prompt


# ---- the record a rubric keeps across windows ----------------------------------------------


def test_the_first_note_replaces_the_placeholder_and_later_ones_are_appended() -> None:
    state = _RubricState("Deliver by noon")
    assert state.justification == NOT_EVALUATED
    state.update(False, "  [3] address given, no order yet ")
    assert (state.met, state.justification) == (False, "[3] address given, no order yet")
    state.update(True, "[12] order placed for 11:50")
    assert (state.met, state.justification) == (
        True,
        "[3] address given, no order yet\n[12] order placed for 11:50",
    )


def test_a_copied_record_adds_only_the_new_part() -> None:
    state = _RubricState("r", justification="[3] a\n[5] b")
    state.update(True, "[3] a\n[5] b\n[12] c")
    assert state.justification == "[3] a\n[5] b\n[12] c"
    state.update(True, "[3] a\n[5] b\n[12] c")  # the whole record again: nothing new
    assert state.justification == "[3] a\n[5] b\n[12] c"


def test_repeating_the_last_entry_adds_nothing_but_an_earlier_one_is_new() -> None:
    single = _RubricState("r", justification="[3] a")
    single.update(False, "[3] a")
    assert single.justification == "[3] a"
    state = _RubricState("r", justification="[3] a\n[5] b")
    state.update(True, "[5] b")
    assert (state.met, state.justification) == (True, "[3] a\n[5] b")
    state.update(True, "[3] a")
    assert state.justification == "[3] a\n[5] b\n[3] a"
    state.update(True, "b")  # a tail of the last entry is not the entry
    assert state.justification == "[3] a\n[5] b\n[3] a\nb"
    state.update(True, "b")  # the last of four entries
    assert state.justification == "[3] a\n[5] b\n[3] a\nb"


def test_an_empty_note_changes_the_status_only() -> None:
    state = _RubricState("r")
    state.update(True, "")
    assert (state.met, state.justification) == (True, "")
    state.update(False, "   ")
    assert (state.met, state.justification) == (False, "")
    state.update(False, "[9] reverted")
    assert state.justification == "[9] reverted"
    state.update(True, "")
    assert (state.met, state.justification) == (True, "[9] reverted")


def _task() -> VitaTask:
    return VitaTask.model_validate(
        {
            "id": "T1",
            "environment": {"time": "2025-06-21 11:20:00", "user_id": "U1"},
            "instructions": "Order noodles.",
            "evaluation_criteria": {
                "expected_states": [{"required_orders": [], "state_rubrics": []}],
                "overall_rubrics": ["A", "B"],
            },
        }
    )


def _sim(n: int) -> Simulation:
    messages: list[Any] = [
        UserMessage(content=f"u{i}") if i % 2 == 0 else AssistantMessage(content=f"a{i}")
        for i in range(n)
    ]
    return Simulation(
        task_id="T1", trial=0, seed=3, messages=messages, termination=TerminationReason.USER_STOP
    )


def _records(prompt: str) -> dict[str, str]:
    block = re.search(r"<current_rubrics>\n(.*)\n</current_rubrics>", prompt, re.S)
    assert block is not None
    return {k: v["justification"] for k, v in json.loads(block.group(1)).items()}


async def test_each_window_sees_the_record_and_the_evidence_keeps_every_window() -> None:
    notes = iter(
        [
            {"rubric_0": (False, "[2] noodles chosen, not ordered yet"), "rubric_1": (False, "")},
            {"rubric_0": (True, "[12] order placed"), "rubric_1": (False, "not involved")},
            {"rubric_0": (True, "[12] order placed"), "rubric_1": (True, "[18] paid")},
        ]
    )

    def judge(messages: Sequence[Message], tools: Any) -> str:
        answer = next(notes)
        return json.dumps(
            [
                {"rubric_key": k, "meetExpectation": met, "justification": why}
                for k, (met, why) in answer.items()
            ]
        )

    model = ScriptedModel([judge], repeat_last=True)
    result = await RubricJudge(model).evaluate(_task(), _sim(19))
    seen = [_records(call.messages[1].content) for call in model.calls]
    assert seen == [
        {"rubric_0": NOT_EVALUATED, "rubric_1": NOT_EVALUATED},
        {"rubric_0": "[2] noodles chosen, not ordered yet", "rubric_1": ""},
        {
            "rubric_0": "[2] noodles chosen, not ordered yet\n[12] order placed",
            "rubric_1": "not involved",
        },
    ]
    assert [(c.met, c.evidence) for c in result.criteria] == [
        (True, "[2] noodles chosen, not ordered yet\n[12] order placed"),
        (True, "not involved\n[18] paid"),
    ]
    assert result.reward == 1.0

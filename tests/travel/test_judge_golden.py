"""Exact outputs of the judge, the meta-judge's view of the first evaluation and the unsolved
rule (every field pinned), and the judge's defaults."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from travel_fakes import Task, judge_xml, meta_xml, simulation, trajectory

from lifebench.evaluation import BasisResult, CriterionVerdict
from lifebench.messages import AssistantMessage, UserMessage
from lifebench.models import ScriptedModel
from lifebench.travel.grading.judge import TravelJudge, task_fields, task_language
from lifebench.travel.grading.unsolved import UnsolvedEvaluator

TOOLS = [{"type": "function", "function": {"name": "web_search", "description": "网页搜索"}}]
RP, SE, PR = "reasoning_planning", "summarization_extraction", "presentation"


async def test_the_judged_result_exactly() -> None:
    reply = (
        "<response><reasoning_planning><reasoning>参数有来源</reasoning><rating>较好</rating>"
        "</reasoning_planning><summarization_extraction><reasoning>编造票价</reasoning>"
        "<rating>极差</rating></summarization_extraction></response>"
    )
    model = ScriptedModel([reply, meta_xml("一般")])
    judge = TravelJudge(model, tool_schemas=TOOLS)
    sim = simulation(trajectory(errors=1))  # 2 calls, 1 error
    result = await judge.evaluate(Task(), sim)
    # mean of 4 and 1 = 2.5 → 37.5; × (1 − 1/2) × 3/5 = 11.25
    assert result == BasisResult(
        basis="judge",
        reward=0.1125,
        score=0.1125,
        criteria=[
            CriterionVerdict(
                id=RP,
                description=f"{RP} rated 4 (较好 / good) or better",
                met=True,
                evidence="较好 (4): 参数有来源",
            ),
            CriterionVerdict(
                id=SE,
                description=f"{SE} rated 4 (较好 / good) or better",
                met=False,
                evidence="极差 (1): 编造票价",
            ),
            CriterionVerdict(
                id=PR,
                description=f"{PR} rated 4 (较好 / good) or better",
                met=False,
                evidence="unrated (None):",
            ),
        ],
        usage=result.usage,
        info={
            "subset": "single",
            "ratings": {RP: 4, SE: 1, PR: None},
            "missing_dimensions": [PR],
            "tool_calls": 2,
            "tool_errors": 1,
            "tool_error_rate": 0.5,
            "w_tool": 0.5,
            "meta_score": 3,
            "w_meta": 0.6,
            "raw": 37.5,
            "penalized": 18.75,
            "final": 11.25,
            "judge_kind": "llm",
            "attempts": 1,
            "judge_replies": [reply],
            "rating_text": {RP: "较好", SE: "极差", PR: ""},
            "judge_context": False,
            "judge_language": "zh",
            "meta_judge": True,
            "meta_failed": False,
            "meta_rating": "一般",
            "meta_reasoning": "复核",
            "meta_attempts": 1,
            "meta_replies": [meta_xml("一般")],
        },
    )
    assert result.usage.calls == 2


@pytest.mark.parametrize(
    ("language", "expected_scores", "expected_reasoning"),
    [
        (
            "zh",
            "- reasoning_planning: 4\n- summarization_extraction: 无\n- presentation: 2\n"
            "- average: 3.00",
            "### reasoning_planning\n**评级**: 较好\n**理由**: 理由0\n\n"
            "### summarization_extraction\n**评级**: （无评级）\n**理由**: （无理由）\n\n"
            "### presentation\n**评级**: 较差\n**理由**: 看得懂\n",
        ),
        (
            "en",
            "- reasoning_planning: 4\n- summarization_extraction: N/A\n- presentation: 2\n"
            "- average: 3.00",
            "### reasoning_planning\n**Rating**: good\n**Reasoning**: 理由0\n\n"
            "### summarization_extraction\n**Rating**: (no rating)\n**Reasoning**: (no reasoning)\n\n"
            "### presentation\n**Rating**: poor\n**Reasoning**: 看得懂\n",
        ),
    ],
)
async def test_the_meta_judge_sees_the_first_evaluation_exactly(
    language: str, expected_scores: str, expected_reasoning: str
) -> None:
    first, second = ("较好", "较差") if language == "zh" else ("good", "poor")
    reply = judge_xml(first).replace(
        "</response>",
        f"<presentation><reasoning>看得懂</reasoning><rating>{second}</rating></presentation>"
        "</response>",
    )
    model = ScriptedModel([reply, meta_xml("优秀")])
    judge = TravelJudge(model, tool_schemas=TOOLS)
    await judge.evaluate(Task(language=language), simulation())
    prompt = model.calls[1].messages[1].content
    assert expected_scores in prompt
    assert expected_reasoning in prompt


@dataclass(frozen=True)
class Bare:
    """A task with only a query (every other field missing)."""

    query: str = "q"


def test_task_fields_and_language_defaults() -> None:
    assert task_fields(Bare()) == {
        "subset": "",
        "query": "q",
        "context": "",
        "time": "",
        "intent": "",
        "user_profile": "",
    }
    assert task_language(Bare()) == "zh" and task_language(Task(language="en")) == "en"


async def test_a_task_without_subset_is_judged_as_single_turn() -> None:
    model = ScriptedModel([judge_xml("较好", "较好", "较好")])
    result = await TravelJudge(model, meta_judge=False).evaluate(Bare(), simulation())
    assert result.info["subset"] == "single" and len(result.info["ratings"]) == 3
    assert "<user_interaction>" not in model.calls[0].messages[1].content


async def test_an_explicit_language_overrides_the_task() -> None:
    model = ScriptedModel([judge_xml("good", "good", "good")])
    judge = TravelJudge(model, language="en", meta_judge=False)
    result = await judge.evaluate(Task(language="zh"), simulation())
    assert result.info["judge_language"] == "en" and result.reward == pytest.approx(0.75)
    assert "You grade" in model.calls[0].messages[0].content


async def test_tool_schemas_per_language_and_unescaped() -> None:
    model = ScriptedModel([judge_xml("较好", "较好", "较好")] * 3)
    shared = TravelJudge(model, tool_schemas=TOOLS, meta_judge=False)
    await shared.evaluate(Task(language="en"), simulation())
    assert '"description": "网页搜索"' in model.calls[0].messages[1].content
    per_language = TravelJudge(model, tool_schemas={"zh": TOOLS}, meta_judge=False)
    await per_language.evaluate(Task(language="zh"), simulation())
    assert '"description": "网页搜索"' in model.calls[1].messages[1].content
    await per_language.evaluate(Task(language="en"), simulation())
    assert "网页搜索" not in model.calls[2].messages[1].content


async def test_default_and_configured_re_asks() -> None:
    garbage = ["nothing"] * 5
    default = ScriptedModel(garbage)
    with pytest.raises(Exception, match="3 attempts"):
        await TravelJudge(default).evaluate(Task(), simulation())
    assert len(default.calls) == 3
    none = ScriptedModel(garbage)
    with pytest.raises(Exception, match="1 attempts"):
        await TravelJudge(none, max_reasks=0).evaluate(Task(), simulation())
    assert len(none.calls) == 1


async def test_re_ask_messages_name_the_problem_exactly() -> None:
    model = ScriptedModel(["nothing", judge_xml("差不多", "差不多", "差不多"), judge_xml("较好")])
    await TravelJudge(model, meta_judge=False).evaluate(Task(), simulation())
    first = model.calls[1].messages[-1].content
    assert first == (
        "Your reply could not be used: no <response> block with the dimension tags "
        "<reasoning_planning>, <summarization_extraction>, <presentation> was found. Answer again "
        "with only the XML in the required format, nothing else."
    )
    second = model.calls[2].messages[-1].content
    assert (
        "no dimension has a readable <rating>; use exactly one of 极差 / 较差 / 一般 / 较好 / 优秀"
        in second
    )


async def test_meta_re_ask_names_the_problem() -> None:
    model = ScriptedModel(
        [judge_xml("较好", "较好", "较好"), "<meta_evaluation>", meta_xml("优秀")]
    )
    result = await TravelJudge(model).evaluate(Task(), simulation())
    assert result.info["meta_attempts"] == 2
    assert (
        "no readable <rating> inside <meta_evaluation>; use exactly one of 极差 / 较差 / 一般 / 较好 / 优秀"
        in model.calls[2].messages[-1].content
    )


@pytest.mark.parametrize(
    ("rule", "evidence"), [("first", "先查一下"), ("final", "[Unsolved]"), ("exact", "[Unsolved]")]
)
async def test_the_unsolved_result_exactly(rule: str, evidence: str) -> None:
    messages = [
        UserMessage(content="放首歌"),
        AssistantMessage(content="先查一下"),
        AssistantMessage(content="[Unsolved]"),
    ]
    sim = simulation(messages)
    result = await UnsolvedEvaluator(rule).evaluate(Task(subset="unsolvable"), sim)  # type: ignore[arg-type]
    met = rule != "first"
    assert result == BasisResult(
        basis="unsolved",
        reward=float(met),
        score=float(met),
        criteria=[
            CriterionVerdict(
                id="unsolved",
                description=f"The agent answers [Unsolved] (rule: {rule})",
                met=met,
                evidence=evidence,
            )
        ],
        info={
            "subset": "unsolvable",
            "rule": rule,
            "by_rule": {"first": False, "final": True, "exact": True},
            "first_reply": "先查一下",
            "final_answer": "[Unsolved]",
            "tool_calls": 0,
            "tool_errors": 0,
        },
    )


async def test_unsolved_without_any_reply_and_without_a_user_message() -> None:
    empty = await UnsolvedEvaluator().evaluate(Bare(), simulation([UserMessage(content="q")]))
    assert empty.criteria[0].evidence == "(no reply)" and empty.info["subset"] == "unsolvable"
    assert empty.info["first_reply"] is None and empty.info["final_answer"] is None
    headless = await UnsolvedEvaluator().evaluate(
        Task(subset="single"), simulation([AssistantMessage(content="[Unsolved]")])
    )
    assert headless.reward == 1.0 and headless.info["subset"] == "single"

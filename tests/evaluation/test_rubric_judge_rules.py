"""Rules of the rubric judge pinned by their effect: what each window sees, the generation
config, the de-duplication mode, window geometry, the no-rubric variants' carried verdict."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import pytest

from lifebench.evaluation import ShapeError
from lifebench.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from lifebench.models import ScriptedModel
from lifebench.simulation import Simulation, TerminationReason
from lifebench.vita.grading.rubric import (
    BASIS_OF_VARIANT,
    JUDGE_VARIANTS,
    NO_RUBRICS,
    JudgeVariant,
    RubricJudge,
    _rubric_updates,
    _verdict_object,
)
from lifebench.vita.task import VitaTask

MARK = re.compile(r"<m(\d+)>")


def _task(
    state: Sequence[str] = (), overall: Sequence[str] = ("A",), time: str = "2025-06-21 11:20:00"
) -> VitaTask:
    return VitaTask.model_validate(
        {
            "id": "T1",
            "environment": {"time": time, "user_id": "U1"},
            "instructions": "Order mild noodles to the hospital.",
            "evaluation_criteria": {
                "expected_states": [{"required_orders": [], "state_rubrics": list(state)}],
                "overall_rubrics": list(overall),
            },
        }
    )


def _sim(n: int, seed: int = 4242) -> Simulation:
    """n messages, each carrying a unique marker <mi> (i = 0-based index)."""
    messages: list[Any] = [
        UserMessage(content=f"<m{i}>") if i % 2 == 0 else AssistantMessage(content=f"<m{i}>")
        for i in range(n)
    ]
    return Simulation(
        task_id="T1", trial=0, seed=seed, messages=messages, termination=TerminationReason.USER_STOP
    )


def _all_met(messages: Sequence[Message], tools: Any) -> str:
    block = re.search(
        r"<(?:current_)?rubrics>\n(.*)\n</(?:current_)?rubrics>", messages[1].content, re.S
    )
    assert block is not None
    return json.dumps(
        [{"rubric_key": k, "meetExpectation": True} for k in json.loads(block.group(1))]
    )


def _seen(prompt: str) -> list[int]:
    return [int(i) for i in MARK.findall(prompt)]


def _rubrics_sent(prompt: str) -> list[str]:
    block = re.search(r"<(?:current_)?rubrics>\n(.*)\n</(?:current_)?rubrics>", prompt, re.S)
    assert block is not None
    return [v["rubric"] for v in json.loads(block.group(1)).values()]


# ---- what each window sees -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "window", "overlap", "expected"),
    [
        (19, 10, 2, [range(0, 10), range(8, 18), range(16, 19)]),
        (9, 4, 1, [range(0, 4), range(3, 7), range(6, 9)]),
        (7, 3, 0, [range(0, 3), range(3, 6), range(6, 7)]),
    ],
)
async def test_each_window_sees_exactly_its_messages(
    n: int, window: int, overlap: int, expected: list[range]
) -> None:
    model = ScriptedModel([_all_met], repeat_last=True)
    result = await RubricJudge(model, window=window, overlap=overlap).evaluate(_task(), _sim(n))
    assert [_seen(call.messages[1].content) for call in model.calls] == [list(w) for w in expected]
    assert [w["messages"] for w in result.info["windows"]] == [[w[0], w[-1]] for w in expected]
    assert [w["window"] for w in result.info["windows"]] == list(range(1, len(expected) + 1))
    assert (result.info["window_size"], result.info["overlap"]) == (window, overlap)
    for k, call in enumerate(model.calls, 1):
        system = call.messages[0].content
        assert f"windows of {window} messages" in system and f"sharing {overlap} messages" in system
        assert f"You are judging window {k} of {len(expected)}." in system
        # global 1-based numbering inside the window
        first = expected[k - 1][0]
        assert f"[{first + 1}] " in call.messages[1].content
        assert f"[{first}] " not in call.messages[1].content


async def test_the_full_variant_sees_every_message_once() -> None:
    model = ScriptedModel([_all_met], repeat_last=True)
    result = await RubricJudge(model, variant="full").evaluate(_task(), _sim(25))
    (call,) = model.calls
    assert _seen(call.messages[1].content) == list(range(25))
    assert call.messages[1].content.startswith("<conversation>\n[1] user: <m0>")
    assert (
        "<rubrics>" in call.messages[1].content
        and "current_rubrics" not in call.messages[1].content
    )
    assert result.info["windows"] == [
        {
            "window": 1,
            "messages": [0, 24],
            "attempts": 1,
            "replies": [_all_met(call.messages, None)],
        }
    ]


async def test_the_judge_sees_tool_calls_and_marked_tool_errors_but_no_system_message() -> None:
    from lifebench.messages import SystemMessage

    messages: list[Any] = [
        SystemMessage(content="SECRET POLICY"),
        UserMessage(content="order please"),
        AssistantMessage(
            content="", tool_calls=[ToolCall(id="c1", name="place", arguments='{"qty": 2}')]
        ),
        ToolResultMessage(tool_call_id="c1", name="place", content="store closed", error=True),
    ]
    sim = Simulation(
        task_id="T1", trial=0, seed=1, messages=messages, termination=TerminationReason.USER_STOP
    )
    model = ScriptedModel([_all_met], repeat_last=True)
    await RubricJudge(model, variant="full").evaluate(_task(), sim)
    body = model.calls[0].messages[1].content
    assert "SECRET POLICY" not in body
    assert "[2] user: order please" in body
    assert "[3] assistant: place(qty=2)" in body
    assert "[4] tool: [error] store closed" in body


# ---- generation config ----------------------------------------------------------------------


@pytest.mark.parametrize("variant", JUDGE_VARIANTS)
async def test_temperature_zero_and_the_simulation_seed_reach_the_model(variant: str) -> None:
    def reply(messages: Sequence[Message], tools: Any) -> str:
        if variant.endswith("norubric"):
            return json.dumps({"meetExpectation": True, "justification": "ok", "memory": ""})
        return _all_met(messages, tools)

    model = ScriptedModel([reply], repeat_last=True)
    await RubricJudge(model, variant=variant).evaluate(_task(), _sim(19, seed=987654))  # type: ignore[arg-type]
    assert model.calls
    for call in model.calls:
        assert call.config is not None
        assert call.config.temperature == 0.0
        assert call.config.seed == 987654
        assert call.tools is None


async def test_reasks_keep_the_config_and_count_attempts() -> None:
    model = ScriptedModel(["no json", '[{"rubric_key": "rubric_0", "meetExpectation": true}]'])
    result = await RubricJudge(model).evaluate(_task(), _sim(4, seed=77))
    assert [c.config.seed for c in model.calls if c.config] == [77, 77]
    assert result.info["windows"][0]["attempts"] == 2
    assert result.usage.calls == 2


async def test_max_reasks_is_configurable() -> None:
    from lifebench.evaluation import JudgeError

    model = ScriptedModel(["no json"], repeat_last=True)
    with pytest.raises(JudgeError, match="after 1 attempts"):
        await RubricJudge(model, max_reasks=0).evaluate(_task(), _sim(4))
    assert len(model.calls) == 1
    model = ScriptedModel(["no json"], repeat_last=True)
    with pytest.raises(JudgeError, match="after 4 attempts"):
        await RubricJudge(model, max_reasks=3).evaluate(_task(), _sim(4))
    assert len(model.calls) == 4


# ---- de-duplication mode ---------------------------------------------------------------------

STATE = ["The noodles must be mild", "Pay with the saved card"]
OVERALL = ["The noodle dish must be mild.", "Deliver to the hospital"]
BY_MODE = {
    # official: union, exact duplicates only
    "exact": ["The noodles must be mild", "Pay with the saved card", *OVERALL],
    # the state paraphrase of an overall rubric is dropped, the new state rubric kept
    "paraphrase": [*OVERALL, "Pay with the saved card"],
    "overall": OVERALL,
}


@pytest.mark.parametrize("mode", ["exact", "paraphrase", "overall"])
async def test_the_configured_dedup_mode_decides_what_the_judge_sees(mode: str) -> None:
    model = ScriptedModel([_all_met], repeat_last=True)
    result = await RubricJudge(model, dedup=mode).evaluate(_task(STATE, OVERALL), _sim(4))  # type: ignore[arg-type]
    assert _rubrics_sent(model.calls[0].messages[1].content) == BY_MODE[mode]
    assert [c.description for c in result.criteria] == BY_MODE[mode]
    assert [c.id for c in result.criteria] == [f"rubric_{i}" for i in range(len(BY_MODE[mode]))]
    assert result.info["dedup"] == mode


async def test_the_default_dedup_mode_is_paraphrase() -> None:
    model = ScriptedModel([_all_met], repeat_last=True)
    judge = RubricJudge(model)
    assert judge.dedup == "paraphrase"
    await judge.evaluate(_task(STATE, OVERALL), _sim(4))
    assert _rubrics_sent(model.calls[0].messages[1].content) == BY_MODE["paraphrase"]


# ---- rubric verdicts -------------------------------------------------------------------------


async def test_reward_needs_every_rubric_and_score_is_the_fraction() -> None:
    def two_of_three(messages: Sequence[Message], tools: Any) -> str:
        return json.dumps(
            [
                {"rubric_key": "rubric_0", "meetExpectation": True, "justification": "[1]"},
                {"rubric_key": "rubric_1", "meetExpectation": False, "justification": "[2]"},
                {"rubric_key": "rubric_2", "meetExpectation": True, "justification": "[3]"},
            ]
        )

    result = await RubricJudge(ScriptedModel([two_of_three])).evaluate(
        _task(overall=["A", "B", "C"]), _sim(4)
    )
    assert (result.reward, result.score) == (0.0, pytest.approx(2 / 3))
    assert [(c.met, c.evidence) for c in result.criteria] == [
        (True, "[1]"),
        (False, "[2]"),
        (True, "[3]"),
    ]


async def test_an_answer_that_skips_a_rubric_is_a_grading_error_not_unmet() -> None:
    from lifebench.evaluation import JudgeError

    # [] for two rubrics, or one of two: re-asked (naming what is missing), then a failure
    partial = json.dumps([{"rubric_key": "rubric_0", "meetExpectation": True}])
    model = ScriptedModel(["[]", partial, partial])
    with pytest.raises(JudgeError) as info:
        await RubricJudge(model).evaluate(_task(overall=["A", "B"]), _sim(4))
    assert "does not address every rubric: 1 of 2 missing (rubric_1)" in str(info.value)
    assert "2 of 2 missing (rubric_0, rubric_1)" in model.calls[1].messages[-1].content
    assert info.value.replies == ("[]", partial, partial)
    (failed,) = info.value.info["windows"]
    assert failed == {"window": 1, "messages": [0, 3], "replies": ["[]", partial, partial]}
    assert info.value.info["rubric_keys"] == ["rubric_0", "rubric_1"]
    # the re-ask that covers every rubric is used
    fixed = json.dumps(
        [{"rubric_key": k, "meetExpectation": True} for k in ("rubric_1", "rubric_0")]
    )
    result = await RubricJudge(ScriptedModel(["[]", fixed])).evaluate(
        _task(overall=["A", "B"]), _sim(4)
    )
    assert result.reward == 1.0 and result.info["windows"][0]["attempts"] == 2


@pytest.mark.parametrize("variant", ["sliding", "full"])
async def test_a_task_without_rubrics_is_ungradable_and_not_sent_to_the_judge(
    variant: JudgeVariant,
) -> None:
    # The official judge scores such a task 1; lifebench never passes what it cannot check.
    model = ScriptedModel([])
    result = await RubricJudge(model, variant=variant).evaluate(_task(overall=[]), _sim(4))
    assert not model.calls
    assert (result.reward, result.score, result.gradable) == (0.0, 0.0, False)
    assert result.note == NO_RUBRICS
    assert result.basis == BASIS_OF_VARIANT[variant]
    assert not result.criteria


async def test_a_task_without_rubrics_is_ungradable_whatever_the_episode_ended_with() -> None:
    # No rubric is a property of the task: an aborted episode of it is not a gradable fail.
    sim = _sim(4).model_copy(update={"termination": TerminationReason.MAX_STEPS})
    result = await RubricJudge(ScriptedModel([])).evaluate(_task(overall=[]), sim)
    assert (result.reward, result.gradable, result.note) == (0.0, False, NO_RUBRICS)


async def test_only_state_rubrics_judged_under_overall_dedup_leave_nothing_to_check() -> None:
    task = _task(state=["Orders noodles"], overall=[])
    model = ScriptedModel([_all_met], repeat_last=True)
    kept = await RubricJudge(model, dedup="paraphrase").evaluate(task, _sim(4))
    assert (kept.reward, kept.gradable, len(kept.criteria)) == (1.0, True, 1)
    dropped = await RubricJudge(model, dedup="overall").evaluate(task, _sim(4))
    assert (dropped.reward, dropped.gradable) == (0.0, False)


@pytest.mark.parametrize("variant", ["sliding-norubric", "full-norubric"])
async def test_the_no_rubric_variants_grade_a_task_without_rubrics(variant: JudgeVariant) -> None:
    reply = json.dumps({"meetExpectation": True, "justification": "done", "memory": ""})
    model = ScriptedModel([reply], repeat_last=True)
    result = await RubricJudge(model, variant=variant).evaluate(_task(overall=[]), _sim(4))
    assert model.calls
    assert (result.reward, result.gradable) == (1.0, True)


async def test_the_prompt_carries_the_task_time_and_instruction() -> None:
    model = ScriptedModel([_all_met], repeat_last=True)
    await RubricJudge(model).evaluate(_task(time="2025-06-21 11:20:00"), _sim(3))
    system = model.calls[0].messages[0].content
    assert "Order mild noodles to the hospital." in system
    assert "2025-06-21 11:20" in system and "Saturday" in system


def test_the_basis_of_each_variant() -> None:
    model = ScriptedModel([])
    assert {v: RubricJudge(model, variant=v).basis for v in JUDGE_VARIANTS} == dict(
        BASIS_OF_VARIANT
    )
    assert BASIS_OF_VARIANT == {
        "sliding": "rubric",
        "full": "rubric_full",
        "sliding-norubric": "judge_sliding",
        "full-norubric": "judge_full",
    }


def test_bad_window_geometry_is_refused_at_construction() -> None:
    with pytest.raises(ValueError, match="overlap"):
        RubricJudge(ScriptedModel([]), window=4, overlap=4)
    with pytest.raises(ValueError, match="size"):
        RubricJudge(ScriptedModel([]), window=0, overlap=0)


# ---- the rubric answer's shape ---------------------------------------------------------------


def test_rubric_answers_in_every_accepted_shape() -> None:
    check = _rubric_updates(frozenset({"rubric_0"}))
    plain = [{"rubric_key": "rubric_0", "meetExpectation": True, "justification": "j"}]
    assert check(plain) == {"rubric_0": (True, "j")}
    # a list wrapped in an object, a single object, and the official key aliases
    assert check({"results": plain}) == {"rubric_0": (True, "j")}
    assert check({"rubric_key": "rubric_0", "meetExpectation": False}) == {"rubric_0": (False, "")}
    assert check([{"rubric_idx": "rubric_0", "meetExpectation": "TRUE "}]) == {
        "rubric_0": (True, "")
    }
    assert check([{"key": "rubric_0", "meetExpectation": " false"}]) == {"rubric_0": (False, "")}
    # unknown keys are ignored when a known one is there
    mixed = [
        {"rubric_key": "zzz", "meetExpectation": True},
        {"key": "rubric_0", "meetExpectation": True},
    ]
    assert check(mixed) == {"rubric_0": (True, "")}
    two = _rubric_updates(frozenset({"rubric_0", "rubric_1", "rubric_10", "rubric_2"}))
    with pytest.raises(
        ShapeError, match=r"4 of 4 missing \(rubric_0, rubric_1, rubric_2, rubric_10\)"
    ):
        two([])


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ("a string", "expected a JSON list of rubric objects"),
        ([1], "every list element must be an object"),
        ([{"rubric_key": "rubric_0"}], "rubric_0 has no meetExpectation"),
        (
            [{"rubric_key": "rubric_0", "meetExpectation": "yes"}],
            "must be true or false, got 'yes'",
        ),
        ([{"rubric_key": "rubric_0", "meetExpectation": 1}], "must be true or false, got 1"),
        (
            [{"rubric_key": "r9", "meetExpectation": True}],
            "no known rubric_key in the answer (got ['r9'])",
        ),
    ],
)
def test_bad_rubric_answers_are_explained(answer: object, problem: str) -> None:
    with pytest.raises(ShapeError) as info:
        _rubric_updates(frozenset({"rubric_0"}))(answer)
    assert problem in str(info.value)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("a string", "expected a JSON list of rubric objects"),
        ([1], "every list element must be an object"),
        (
            [{"key": k, "meetExpectation": True} for k in ("a", "b", "c", "d")],
            "no known rubric_key in the answer (got ['a', 'b', 'c']); use the keys of the rubrics",
        ),
    ],
)
def test_rubric_shape_messages_in_full(answer: object, message: str) -> None:
    with pytest.raises(ShapeError) as info:
        _rubric_updates(frozenset({"rubric_0"}))(answer)
    assert str(info.value) == message


def test_verdict_answers() -> None:
    with_memory = _verdict_object(with_memory=True)
    without = _verdict_object(with_memory=False)
    answer = {"meetExpectation": "true", "justification": "done [4]", "memory": "paid"}
    assert with_memory(answer) == (True, "done [4]", "paid")
    assert without(answer) == (True, "done [4]", "")
    assert with_memory([answer, {"meetExpectation": False}]) == (True, "done [4]", "paid")
    assert with_memory({"meetExpectation": False}) == (False, "", "")
    for bad in ([], {"justification": "x"}, "true", [1]):
        with pytest.raises(ShapeError) as info:
            with_memory(bad)
        assert str(info.value) == "expected a JSON object with meetExpectation"


# ---- no-rubric variants ----------------------------------------------------------------------


def _verdict_block(prompt: str) -> dict[str, Any]:
    block = re.search(r"<current_verdict>\n(.*)\n</current_verdict>", prompt, re.S)
    assert block is not None
    return dict(json.loads(block.group(1)))


@pytest.mark.parametrize(
    ("verdicts", "reward"),
    [([True, True, False], 0.0), ([False, False, True], 1.0), ([True, False, True], 1.0)],
)
async def test_sliding_norubric_carries_the_verdict_and_keeps_the_last_one(
    verdicts: list[bool], reward: float
) -> None:
    replies = [
        json.dumps({"meetExpectation": v, "justification": f"w{k}", "memory": f"mem{k}"})
        for k, v in enumerate(verdicts, 1)
    ]
    model = ScriptedModel(replies)
    result = await RubricJudge(model, variant="sliding-norubric").evaluate(_task(), _sim(19))
    assert len(model.calls) == 3
    carried = [_verdict_block(c.messages[1].content) for c in model.calls]
    assert carried == [
        {"justification": "Not evaluated yet", "meetExpectation": False},
        {"justification": "w1", "meetExpectation": verdicts[0]},
        {"justification": "w2", "meetExpectation": verdicts[1]},
    ]
    for k, call in enumerate(model.calls, 1):
        assert f"this is window {k} of 3" in call.messages[0].content
        assert "windows of 10 messages" in call.messages[0].content
    assert [_seen(c.messages[1].content) for c in model.calls] == [
        list(range(0, 10)),
        list(range(8, 18)),
        list(range(16, 19)),
    ]
    assert (result.reward, result.score) == (reward, reward)
    assert result.criteria[0].evidence == "w3" and result.criteria[0].met is (reward == 1.0)
    assert result.info == {"variant": "sliding-norubric", "windows": 3, "memory": "mem3"}
    assert result.basis == "judge_sliding" and result.usage.calls == 3


async def test_full_norubric_is_one_call_over_everything_without_memory() -> None:
    reply = json.dumps({"meetExpectation": True, "justification": "all done", "memory": "ignored"})
    model = ScriptedModel([reply])
    result = await RubricJudge(model, variant="full-norubric").evaluate(_task(), _sim(23))
    (call,) = model.calls
    assert _seen(call.messages[1].content) == list(range(23))
    assert (
        "<memory>" not in call.messages[1].content
        and "current_verdict" not in call.messages[1].content
    )
    assert (result.reward, result.score, result.basis) == (1.0, 1.0, "judge_full")
    assert result.criteria[0].evidence == "all done"
    assert result.info == {"variant": "full-norubric", "windows": 1, "memory": ""}


@pytest.mark.parametrize("variant", JUDGE_VARIANTS)
async def test_abnormal_endings_are_a_zero_without_a_call(variant: str) -> None:
    model = ScriptedModel([])
    sim = _sim(4).model_copy(update={"termination": TerminationReason.MAX_STEPS})
    result = await RubricJudge(model, variant=variant).evaluate(_task(), sim)  # type: ignore[arg-type]
    assert not model.calls
    assert (result.reward, result.score, result.basis) == (0.0, 0.0, BASIS_OF_VARIANT[variant])
    assert result.note == "episode ended with max_steps; not judged"


# ---- exact prompts and edge cases --------------------------------------------------------------


async def test_the_exact_sliding_prompt() -> None:
    model = ScriptedModel([_all_met], repeat_last=True)
    await RubricJudge(model).evaluate(_task(overall=["A", "送到医院"]), _sim(2))
    assert model.calls[0].messages[1].content == (
        "<window_content>\n[1] user: <m0>\n[2] assistant: <m1>\n</window_content>\n"
        "<current_rubrics>\n"
        "{\n"
        ' "rubric_0": {\n'
        '  "rubric": "A",\n'
        '  "justification": "Not evaluated yet",\n'
        '  "meetExpectation": false\n'
        " },\n"
        ' "rubric_1": {\n'
        '  "rubric": "送到医院",\n'
        '  "justification": "Not evaluated yet",\n'
        '  "meetExpectation": false\n'
        " }\n"
        "}\n</current_rubrics>"
    )


async def test_the_exact_sliding_norubric_prompt() -> None:
    reply = json.dumps({"meetExpectation": True, "justification": "ok", "memory": "m"})
    model = ScriptedModel([reply])
    await RubricJudge(model, variant="sliding-norubric").evaluate(_task(), _sim(2))
    assert model.calls[0].messages[1].content == (
        "<window_content>\n[1] user: <m0>\n[2] assistant: <m1>\n</window_content>\n"
        "<memory>\n\n</memory>\n"
        '<current_verdict>\n{"justification": "Not evaluated yet", "meetExpectation": false}'
        "\n</current_verdict>"
    )
    full = ScriptedModel([reply])
    await RubricJudge(full, variant="full-norubric").evaluate(_task(), _sim(2))
    assert full.calls[0].messages[1].content == (
        "<conversation>\n[1] user: <m0>\n[2] assistant: <m1>\n</conversation>"
    )


async def test_the_verdict_criterion() -> None:
    reply = json.dumps({"meetExpectation": False, "justification": "missing [2]"})
    result = await RubricJudge(ScriptedModel([reply]), variant="full-norubric").evaluate(
        _task(), _sim(2)
    )
    (criterion,) = result.criteria
    assert criterion.model_dump() == {
        "id": "task",
        "description": "The whole instruction is carried out",
        "met": False,
        "evidence": "missing [2]",
    }


async def test_an_empty_trajectory() -> None:
    # sliding: no window, nothing judged, every rubric stays unmet
    sliding = ScriptedModel([])
    result = await RubricJudge(sliding).evaluate(_task(overall=["A"]), _sim(0))
    assert not sliding.calls
    assert (result.reward, result.score, result.info["windows"]) == (0.0, 0.0, [])
    # full: one call over the (empty) conversation
    full = ScriptedModel([_all_met], repeat_last=True)
    result = await RubricJudge(full, variant="full").evaluate(_task(overall=["A"]), _sim(0))
    assert full.calls[0].messages[1].content.startswith("<conversation>\n\n</conversation>")
    assert result.info["windows"] == [
        {
            "window": 1,
            "messages": [],
            "attempts": 1,
            "replies": [_all_met(full.calls[0].messages, None)],
        }
    ]
    assert result.reward == 1.0


async def test_the_default_judge_gives_up_after_three_attempts() -> None:
    from lifebench.evaluation import JudgeError

    model = ScriptedModel(["???"], repeat_last=True)
    with pytest.raises(JudgeError, match="after 3 attempts"):
        await RubricJudge(model).evaluate(_task(), _sim(4))
    assert len(model.calls) == 3


def test_an_answer_without_any_key_is_explained() -> None:
    with pytest.raises(ShapeError) as info:
        _rubric_updates(frozenset({"rubric_0"}))([{"meetExpectation": True}])
    assert "no known rubric_key in the answer (got [''])" in str(info.value)


@pytest.mark.parametrize("variant", ["sliding-norubric", "full-norubric"])
async def test_max_reasks_reaches_the_no_rubric_variants(variant: str) -> None:
    from lifebench.evaluation import JudgeError

    model = ScriptedModel(["no json"], repeat_last=True)
    with pytest.raises(JudgeError, match="after 1 attempts"):
        await RubricJudge(model, variant=variant, max_reasks=0).evaluate(_task(), _sim(4))  # type: ignore[arg-type]
    assert len(model.calls) == 1


@pytest.mark.parametrize("variant", ["sliding", "full"])
async def test_the_rubric_info(variant: str) -> None:
    model = ScriptedModel([_all_met], repeat_last=True)
    judge = RubricJudge(model, variant=variant, window=6, overlap=1, dedup="exact")  # type: ignore[arg-type]
    result = await judge.evaluate(_task(), _sim(4))
    assert result.info == {
        "variant": variant,
        "windows": [
            {
                "window": 1,
                "messages": [0, 3],
                "attempts": 1,
                "replies": [_all_met(model.calls[0].messages, None)],
            }
        ],
        "window_size": 6,
        "overlap": 1,
        "dedup": "exact",
        "total_windows": 1,
        "official_rubrics": 1,
        "rubric_keys": ["rubric_0"],
    }


async def test_a_task_without_a_clock_shows_no_time() -> None:
    task = VitaTask.model_validate(
        {
            "id": "T1",
            "environment": {"user_id": "U1"},
            "instructions": "Order tea.",
            "evaluation_criteria": {"expected_states": [], "overall_rubrics": ["A"]},
        }
    )
    model = ScriptedModel([_all_met], repeat_last=True)
    await RubricJudge(model).evaluate(task, _sim(2))
    assert "- Current time of the conversation: \n" in model.calls[0].messages[0].content

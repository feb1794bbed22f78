"""Turn-level counters, P/R/F1 by hand, parameter policies, node accuracy, the fuzzy judge."""

from __future__ import annotations

import json
from typing import Any

import pytest

from lifebench.evaluation import JudgeError
from lifebench.flow.evaluation.arguments import ArgumentMatcher, FuzzyJudge, ToolDocs
from lifebench.flow.evaluation.counts import PRF
from lifebench.flow.evaluation.prediction import Prediction, normalize_node, prediction_of
from lifebench.flow.evaluation.turn import score_turn
from lifebench.messages import AssistantMessage, ToolCall, Usage
from lifebench.models import ScriptedModel


def _pred(
    action: str | None = None,
    arguments: dict[str, Any] | None = None,
    response: str = "",
    thought: str = "",
    format_error: bool = False,
) -> Prediction:
    return Prediction(action, arguments, response, thought, format_error)


def _matcher(judge: FuzzyJudge | None = None) -> ArgumentMatcher:
    docs = ToolDocs(
        blocks={"book": "API: book"},
        params={"book": {"cabin": "Cabin. Enumeration type, [Economy, Business]"}},
        now="2035-01-01",
    )
    return ArgumentMatcher(docs, judge)


# -- P/R/F1 -----------------------------------------------------------------------------


def test_prf_by_hand() -> None:
    c = PRF(3, 4, 6)
    assert c.precision == pytest.approx(0.75)
    assert c.recall == pytest.approx(0.5)
    assert c.f1 == pytest.approx(2 * 0.75 * 0.5 / 1.25)
    assert (PRF(1, 2, 3) + PRF(2, 2, 3)).as_dict() == {
        "tp": 3,
        "n_pred": 4,
        "n_gold": 6,
        "precision": 0.75,
        "recall": 0.5,
        "f1": pytest.approx(0.6),
    }


def test_prf_zero_denominators_are_undefined_not_negative_zero() -> None:
    assert PRF(0, 0, 3).precision is None and PRF(0, 0, 3).recall == 0.0
    assert PRF(0, 0, 3).f1 == 0.0  # nothing predicted, something expected: F1 0
    assert PRF(0, 0, 0).f1 is None and PRF(0, 0, 0).recall is None
    assert PRF(0, 2, 0).precision == 0.0 and PRF(0, 2, 0).f1 == 0.0


@pytest.mark.parametrize("counts", [(3, 2, 5), (3, 5, 2), (-1, 2, 2), (0, -1, 2), (0, 2, -1)])
def test_prf_refuses_inconsistent_counts(counts: tuple[int, int, int]) -> None:
    with pytest.raises(ValueError, match=r"^inconsistent counts: PRF\(tp="):
        PRF(*counts)


# -- turn counters --------------------------------------------------------------------------

_GOLD = {"plan": "CA1234", "cabin": "Economy", "seats": 2, "note": ""}


async def _score(pred: Prediction, *, gold_action: str | None = "book", **kw: Any) -> Any:
    args = _GOLD if gold_action else None
    return await score_turn(gold_action, args, kw.pop("node", None), pred, _matcher(), **kw)


async def test_correct_call() -> None:
    s = await _score(_pred("book", {"plan": "ca1234", "cabin": "economy", "seats": "2"}))
    assert (s.gold_call, s.pred_call, s.correct_call) == (1, 1, 1)
    assert (s.gold_params, s.pred_params, s.correct_params) == (3, 3, 3)  # "note" is empty
    assert s.correct


async def test_extra_predicted_arguments_do_not_break_a_call() -> None:
    s = await _score(_pred("book", {"plan": "CA1234", "cabin": "Economy", "seats": 2, "x": "y"}))
    assert s.correct_call == 1 and s.pred_params == 4 and s.correct_params == 3


async def test_one_wrong_argument_breaks_the_call_not_the_other_params() -> None:
    s = await _score(_pred("book", {"plan": "CA1234", "cabin": "Economy", "seats": 3}))
    assert s.correct_call == 0
    assert s.correct_params == 2


async def test_missing_argument_breaks_the_call() -> None:
    s = await _score(_pred("book", {"plan": "CA1234", "cabin": "Economy"}))
    assert s.correct_call == 0 and s.correct_params == 2 and s.pred_params == 2


async def test_wrong_name_official_params_still_scored_strict_not() -> None:
    pred = _pred("reserve", dict(_GOLD))
    official = await _score(pred)
    strict = await _score(pred, strict_params=True)
    assert official.correct_call == 0 and strict.correct_call == 0
    assert official.correct_params == 3 and strict.correct_params == 0
    assert official.pred_params == strict.pred_params == 3


async def test_enum_parameter_needs_equality() -> None:
    s = await _score(_pred("book", {"plan": "CA1234", "cabin": "Economy or Business", "seats": 2}))
    assert s.correct_call == 0 and s.correct_params == 2


async def test_no_prediction_on_a_tool_turn() -> None:
    s = await _score(_pred(response="Which flight?"))
    assert (s.gold_call, s.pred_call, s.correct_call) == (1, 0, 0)
    assert (s.gold_params, s.pred_params, s.correct_params) == (3, 0, 0)
    assert not s.correct


async def test_call_on_a_reply_turn_counts_against_precision_only() -> None:
    s = await _score(_pred("book", {"plan": "x"}), gold_action=None)
    assert (s.gold_call, s.pred_call, s.correct_call) == (0, 1, 0)
    assert (s.gold_params, s.pred_params) == (0, 0)  # parameters only on gold tool turns
    assert not s.correct
    reply = await _score(_pred(response="Sure."), gold_action=None)
    assert reply.correct and reply.pred_call == 0


async def test_malformed_arguments_are_a_wrong_call() -> None:
    s = await _score(_pred("book", None))
    assert s.pred_call == 1 and s.correct_call == 0 and s.pred_params == 0


async def test_tool_without_arguments_is_a_gold_call() -> None:
    s = await score_turn("ping", {}, None, _pred("ping", {}), _matcher())
    assert (s.gold_call, s.correct_call, s.gold_params) == (1, 1, 0)


async def test_node_accuracy() -> None:
    thought = "Previous node last_node=SK001, Current intention intent=Yes, Current node current_node=SK002."
    hit = await _score(_pred(response="ok", thought=thought), gold_action=None, node="SK002")
    miss = await _score(_pred(response="ok", thought=thought), gold_action=None, node="SK003")
    none = await _score(_pred(response="ok", thought=thought), gold_action=None, node="")
    assert (hit.node_gold, hit.node_correct) == (1, 1)
    assert (miss.node_gold, miss.node_correct) == (1, 0)
    assert (none.node_gold, none.node_correct) == (0, 0)


def test_node_labels_compare_as_sets() -> None:
    assert normalize_node("SK002 AND SK003") == normalize_node("sk003 and sk002")
    assert normalize_node("SK002 OR SK003") != normalize_node("SK002")
    assert normalize_node("") == frozenset()


async def test_format_error_is_counted_and_never_correct() -> None:
    s = await _score(_pred(format_error=True), gold_action=None)
    assert s.format_error == 1 and s.unusable_replies == 1 and not s.correct
    reasked = Prediction(None, None, "Hi", "", False, unusable_replies=2)
    ok = await _score(reasked, gold_action=None)
    assert ok.format_error == 0 and ok.unusable_replies == 2 and ok.correct


def test_prediction_of_a_message() -> None:
    msg = AssistantMessage(
        content="",
        tool_calls=[
            ToolCall(id="1", name="book", arguments='{"a": 1}'),
            ToolCall(id="2", name="x", arguments="{}"),
        ],
        reasoning="current_node=AB001.",
        raw={"format_error": False},
    )
    p = prediction_of(msg)
    assert (p.action, p.arguments, p.extra_calls, p.current_node) == ("book", {"a": 1}, 1, "AB001")
    bad = prediction_of(AssistantMessage(tool_calls=[ToolCall(id="1", name="b", arguments="x=1")]))
    assert bad.action == "b" and bad.arguments is None
    assert prediction_of(None).format_error


# -- the fuzzy judge ----------------------------------------------------------------------


def _judge(*answers: str) -> tuple[FuzzyJudge, ScriptedModel]:
    model = ScriptedModel(
        [
            AssistantMessage(content=a, usage=Usage(prompt_tokens=10, completion_tokens=2))
            for a in answers
        ]
    )
    return FuzzyJudge(model), model


async def test_judge_is_asked_only_for_unsure_values_and_memoised() -> None:
    judge, model = _judge('{"same": true}')
    matcher = _matcher(judge)
    gold = {"plan": "CA1234", "when": "tomorrow 3pm"}
    pred = {"plan": "CA1234", "when": "2035-01-02 15:00"}
    assert await matcher.call("book", gold, "book", pred)
    assert await matcher.param_hits("book", gold, pred) == 2
    assert len(model.calls) == 1 and matcher.asked == 1
    assert matcher.usage.prompt_tokens == 10
    prompt = model.calls[0].messages[-1].content
    assert "API: book" in prompt and "2035-01-01" in prompt and "tomorrow 3pm" in prompt


async def test_judge_memo_tells_values_apart() -> None:
    judge, model = _judge(*['{"same": true}', '{"same": false}'] + ['{"same": true}'] * 3)
    matcher = _matcher(judge)
    assert await matcher.value("book", "when", "today", "now")
    assert not await matcher.value("book", "when", "tonight", "now")  # other gold: asked again
    assert not await matcher.value("book", "when", "tonight", "now")  # memoised
    assert await matcher.value("book", "where", "tonight", "now")  # other key: asked again
    assert await matcher.value("pay", "where", "tonight", "now")  # other tool: asked again
    assert await matcher.value("pay", "where", "tonight", "later")  # other prediction
    assert matcher.asked == 5 and matcher.unsure == 6 and len(model.calls) == 5


async def test_judge_says_no() -> None:
    judge, _ = _judge('{"same": false}')
    assert not await _matcher(judge).value("book", "when", "tomorrow", "next year")


async def test_without_a_judge_unsure_is_a_mismatch() -> None:
    matcher = _matcher()
    assert not await matcher.value("book", "when", "tomorrow", "next year")
    assert matcher.unsure == 1 and matcher.asked == 0


async def test_judge_is_not_asked_for_enums_or_numbers() -> None:
    judge, model = _judge('{"same": true}')
    matcher = _matcher(judge)
    assert not await matcher.value("book", "cabin", "Economy", "Business")
    assert not await matcher.value("book", "seats", 2, 3)
    assert model.calls == []


async def test_judge_reasks_then_fails_loudly() -> None:
    judge, model = _judge("maybe", "I think so", "yes?")
    with pytest.raises(JudgeError):
        await _matcher(judge).value("book", "when", "tomorrow", "next year")
    assert len(model.calls) == 3


def test_judge_answer_shapes() -> None:
    from lifebench.flow.evaluation.arguments import _same

    assert _same({"same": True}) is True
    assert _same([{"same": "no"}]) is False
    with pytest.raises(ValueError):
        _same({"same": "perhaps"})
    with pytest.raises(ValueError):
        _same(json.loads('{"equal": true}'))

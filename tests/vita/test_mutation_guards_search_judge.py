"""Guards for the mutants of the VitaBench search ranking and the rubric judge's state block
(issue 19's CPU cuts): the ranking a tool answers with and the bytes the judge reads."""

from __future__ import annotations

from lifebench.vita.domains import _match
from lifebench.vita.grading.rubric import _RubricState, _state_json


def test_placeholder_rank_of_nothing() -> None:
    assert _match.rank("beef", [], 3) == []


def test_a_four_letter_document_word_is_a_variant_of_a_longer_query_word() -> None:
    assert _match.search_score("abcde", "abcd xyz") == 100.0  # ratio 88.9
    assert _match.search_score("abcde", "abc xyz") == 0.0  # under 4 letters: equal only


def test_close_lengths_are_not_enough_for_a_variant() -> None:
    assert _match.search_score("abcd", "wxyz") == 0.0
    assert _match.search_score("noodles rice", "noodle") == 100.0 * 7 / 11


def test_every_document_of_the_cut_score_is_ordered_by_title() -> None:
    docs = ["beef rice", "beef", "beef noodle", "fish"]
    titles = ["zzz", "beef", "Beef Noodle", "fish"]
    # "beef": three documents score 100, the titles decide among them
    assert _match.rank("beef", docs, 3, titles=titles) == [1, 2, 0]
    assert _match.rank("beef", docs, 1, titles=titles) == [1]
    assert _match.rank("beef", docs, 4, titles=titles) == [1, 2, 0, 3]
    assert _match.rank("beef", docs, 9, titles=titles) == [1, 2, 0, 3]
    # the best-scoring document first even when a lower one has the closer title
    assert _match.rank("beef noodle", docs, 2, titles=["x", "beef noodle", "y", "z"]) == [2, 1]


def test_a_state_of_several_rubrics_is_separated_by_commas() -> None:
    state = {"a": _RubricState("r1", True, "j1"), "b": _RubricState("r2", False, "j2")}
    assert _state_json(state) == (
        '{\n "a": {\n  "rubric": "r1",\n  "justification": "j1",\n  "meetExpectation": true\n },'
        '\n "b": {\n  "rubric": "r2",\n  "justification": "j2",\n  "meetExpectation": false\n }\n}'
    )


async def test_a_failed_judge_keeps_the_judging_facts_with_its_error() -> None:
    import pytest

    from lifebench.evaluation import JudgeError
    from lifebench.messages import AssistantMessage, UserMessage
    from lifebench.models import ScriptedModel
    from lifebench.simulation import Simulation, TerminationReason
    from lifebench.vita.grading.rubric import RubricJudge
    from lifebench.vita.task import VitaTask

    task = VitaTask.model_validate(
        {
            "id": "T1",
            "environment": {"time": "2025-06-21 11:20:00", "user_id": "U1"},
            "instructions": "Order noodles.",
            "evaluation_criteria": {
                "expected_states": [{"required_orders": [], "state_rubrics": ["A", "C"]}],
                "overall_rubrics": ["A", "B"],
            },
        }
    )
    messages = [
        UserMessage(content=f"m{i}") if i % 2 == 0 else AssistantMessage(content=f"m{i}")
        for i in range(14)
    ]
    sim = Simulation(
        task_id="T1", trial=0, seed=1, messages=messages, termination=TerminationReason.USER_STOP
    )
    with pytest.raises(JudgeError) as info:
        await RubricJudge(ScriptedModel(["no json"], repeat_last=True), max_reasks=0).evaluate(
            task, sim
        )
    facts = info.value.info
    assert (facts["variant"], facts["window_size"], facts["overlap"]) == ("sliding", 10, 2)
    assert facts["total_windows"] == 2  # 14 messages in windows of 10 overlapping by 2
    assert facts["official_rubrics"] == 3  # A, C, B
    assert facts["rubric_keys"] == ["rubric_0", "rubric_1", "rubric_2"]


def test_titles_that_do_not_match_the_documents_are_refused_by_name() -> None:
    import pytest

    with pytest.raises(ValueError) as info:
        _match.rank("beef", ["beef", "rice"], 1, titles=["beef"])
    assert str(info.value) == "rank: one title per document"

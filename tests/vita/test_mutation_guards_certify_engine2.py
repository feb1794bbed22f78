"""Certification of one task (vita/certify/engine.py certify_task, certify_tasks, replay) pinned
by its effect on the certificate: the language the episodes and the generated near misses are
in, the tool errors a trial is charged with (its own refused calls beyond the oracle's), whether
a task is gradable or undecided, what it leaves unchecked, and the evidence of an unsolved
oracle. The episodes are replaced by recorded results where the rule is about the engine, and
run for real where it is about counting refused tool calls."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

import pytest
from test_ota_grading import ROOM, expected, task_with

from lifebench.evaluation import BasisResult, CriterionVerdict
from lifebench.messages import AssistantMessage, Message, ToolCall
from lifebench.simulation import AGENT_STOP
from lifebench.vita.agents.oracle import PlanAgent
from lifebench.vita.certify import engine
from lifebench.vita.certify.generate import Candidate
from lifebench.vita.certify.perturb import PlanContext
from lifebench.vita.task import VitaTask

PASS = BasisResult(basis="state", reward=1.0, score=1.0)
FAIL = BasisResult(basis="state", reward=0.0, score=0.0)


def _closing(agent: Any) -> str:
    """What a plan agent says once its plan is done."""

    async def talk() -> str:
        trajectory: list[Message] = []
        for _ in range(50):
            message = await agent.respond(trajectory)
            if message.content and message.content != AGENT_STOP:
                return str(message.content)
            trajectory.append(message)
        return ""

    return asyncio.run(talk())


class _Recorder:
    """Stands in for the episodes: records each replay's language and agent, answers with the
    oracle's, the noop's and then each trial's recorded (result, refused calls)."""

    def __init__(self, answers: Sequence[tuple[BasisResult, int]]) -> None:
        self.answers = list(answers)
        self.calls: list[tuple[str, Any]] = []
        self.contexts: list[PlanContext] = []

    async def replay(
        self, task: VitaTask, domain: str, language: str, agent: Any
    ) -> tuple[BasisResult, int]:
        self.calls.append((language, agent))
        return self.answers[len(self.calls) - 1]

    def near_misses(self, ctx: PlanContext) -> list[Candidate]:
        self.contexts.append(ctx)
        return [Candidate("store", "other_store", "order", [], False)]

    def variations(self, ctx: PlanContext) -> list[Candidate]:
        return [Candidate("note", "polite", "order", [], True)]


def _certify(
    monkeypatch: pytest.MonkeyPatch,
    answers: Sequence[tuple[BasisResult, int]],
    language: str = "en",
    tasks: int = 1,
) -> tuple[engine.CertifyReport, _Recorder]:
    rec = _Recorder(list(answers) * tasks)
    monkeypatch.setattr(engine, "replay", rec.replay)
    monkeypatch.setattr(engine, "near_misses", rec.near_misses)
    monkeypatch.setattr(engine, "variations", rec.variations)
    task = task_with([expected("hotel", "T01", "H1", ROOM, "paid")])
    report = asyncio.run(engine.certify_tasks([task] * tasks, "ota", language))  # type: ignore[arg-type]
    return report, rec


@pytest.mark.parametrize(
    ("language", "closing"),
    [
        ("zh", "全部办好了。请问还有其他需要吗？"),
        ("en", "Everything is done. Is there anything else I can help you with?"),
    ],
)
def test_every_episode_and_near_miss_of_a_task_is_in_the_certified_language(
    monkeypatch: pytest.MonkeyPatch, language: str, closing: str
) -> None:
    answers = [(PASS, 0), (FAIL, 0), (FAIL, 0), (PASS, 0)]
    report, rec = _certify(monkeypatch, answers, language, tasks=2)
    assert report.language == language
    assert [lang for lang, _ in rec.calls] == [language] * 8
    assert [ctx.language for ctx in rec.contexts] == [language, language]
    plan_agents = [a for _, a in rec.calls if isinstance(a, PlanAgent)]
    assert len(plan_agents) == 6  # oracle, near miss, variation; twice
    assert {_closing(a) for a in plan_agents} == {closing}


def test_a_trial_is_charged_only_the_refused_calls_beyond_the_oracles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    report, _ = _certify(monkeypatch, [(PASS, 1), (FAIL, 0), (FAIL, 3), (PASS, 1)])
    (cert,) = report.tasks
    assert [t.tool_errors for t in cert.near_misses] == [2]
    assert [t.tool_errors for t in cert.variations] == [0]
    assert (cert.solvable, cert.discriminating, cert.oracle_evidence) == (True, True, [])


def test_an_undecided_oracle_keeps_the_task_gradable_and_says_what_is_unchecked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    undecided = BasisResult(
        basis="state",
        reward=0.0,
        score=1.0,
        gradable=False,
        undecided=True,
        unchecked=["date: order T01: 1 expected line(s) without a date"],
        note="cannot decide",
    )
    report, _ = _certify(monkeypatch, [(undecided, 0), (FAIL, 0), (FAIL, 0), (FAIL, 0)])
    (cert,) = report.tasks
    assert (cert.gradable, cert.undecided, cert.solvable) == (True, True, False)
    assert cert.unchecked == ["date: order T01: 1 expected line(s) without a date"]
    assert cert.oracle_evidence == ["cannot decide"]
    ungradable = BasisResult(basis="state", reward=0.0, score=0.0, gradable=False, note="none")
    report, _ = _certify(monkeypatch, [(ungradable, 0), (FAIL, 0), (FAIL, 0), (FAIL, 0)])
    assert (report.tasks[0].gradable, report.tasks[0].undecided) == (False, False)
    assert report.summary.ungradable == 1


def test_an_unsolved_oracle_shows_its_unmet_criteria_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    unsolved = BasisResult(
        basis="state",
        reward=0.0,
        score=0.5,
        note="a note",
        criteria=[
            CriterionVerdict(id="order[0]:T01", description="d", met=False, evidence="no order"),
            CriterionVerdict(id="no_extra_orders", description="d", met=True, evidence="none"),
        ],
    )
    report, _ = _certify(monkeypatch, [(unsolved, 0), (FAIL, 0), (FAIL, 0), (FAIL, 0)])
    assert report.tasks[0].oracle_evidence == ["order[0]:T01: no order"]
    solved = PASS.model_copy(update={"note": "all met"})
    report, _ = _certify(monkeypatch, [(solved, 0), (FAIL, 0), (FAIL, 0), (PASS, 0)])
    assert report.tasks[0].oracle_evidence == []


# ---- replay counts the refused tool calls of a real episode ---------------------------------------


class _Calls:
    def __init__(self, calls: Sequence[tuple[str, dict[str, Any]]]) -> None:
        self.calls = list(calls)

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        if self.calls:
            name, args = self.calls.pop(0)
            return AssistantMessage(
                tool_calls=[
                    ToolCall(id=f"c{len(self.calls)}", name=name, arguments=json.dumps(args))
                ]
            )
        return AssistantMessage(content=AGENT_STOP)


def test_replay_counts_each_refused_tool_call_once() -> None:
    task = task_with([expected("hotel", "T01", "H1", ROOM, "paid")])
    calls = [
        ("create_hotel_order", {"hotel_id": "H1", "room_id": "NO_SUCH_ROOM", "user_id": "U1"}),
        ("create_hotel_order", {"hotel_id": "H1", "room_id": "H1_K_0612", "user_id": "U1"}),
    ]
    result, errors = asyncio.run(engine.replay(task, "ota", "en", _Calls(calls)))
    assert errors == 1
    assert result.reward == 0.0  # booked, not paid
    _, none = asyncio.run(engine.replay(task, "ota", "zh", _Calls(calls[1:])))
    assert none == 0

"""OTA state grading: classification of required orders, the criteria, and acceptance on the
bundled tasks (oracle passes, noop and the distractor fail) through the loop and the CLI."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from test_ota_tools import booked, make_environment_dict
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.messages import AssistantMessage, Message, ToolCall
from lifebench.simulation import (
    AGENT_STOP,
    Agent,
    Episode,
    Limits,
    NoopAgent,
    ScriptedUser,
    run_episode,
)
from lifebench.vita.agents.oracle import OracleAgent, oracle_plan
from lifebench.vita.domains.ota import OTAEnvironment
from lifebench.vita.domains.registry import available_domains
from lifebench.vita.grading.ota import (
    Line,
    OTAStateEvaluator,
    order_lines,
    ota_required_orders,
    ota_state_evaluator,
    same_lines,
)
from lifebench.vita.loader import load_bundled_tasks
from lifebench.vita.suite import VitaSuite
from lifebench.vita.task import VitaTask

UID = "U1"


class Replay:
    """An agent that makes the given calls, one per message, then stops."""

    def __init__(self, calls: Sequence[tuple[str, dict[str, Any]]]) -> None:
        self.calls = list(calls)
        self.i = 0

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        if self.i < len(self.calls):
            name, args = self.calls[self.i]
            self.i += 1
            if args.get("order_id") == "$last":
                args = {**args, "order_id": _last_created(trajectory)}
            return AssistantMessage(
                tool_calls=[ToolCall(id=f"c{self.i}", name=name, arguments=json.dumps(args))]
            )
        return AssistantMessage(content=AGENT_STOP)


def _last_created(trajectory: Sequence[Message]) -> str:
    for m in reversed(trajectory):
        if m.role == "tool" and not m.error:
            value = json.loads(m.content)
            if isinstance(value, dict) and "order_id" in value:
                return str(value["order_id"])
    return ""


def expected(otype: str, oid: str, store: str, product: dict[str, Any], status: str, **kw: Any):
    return booked(oid, otype, store, product, status, **kw)


def task_with(required: list[dict[str, Any]], env: dict[str, Any] | None = None) -> VitaTask:
    return VitaTask(
        id="G1",
        environment=env or make_environment_dict(),
        instructions="Do it.",
        evaluation_criteria={
            "expected_states": [{"required_orders": required, "state_rubrics": ["r"]}],
            "overall_rubrics": ["r"],
        },
    )


def grade(task: VitaTask, agent: Agent, limits: Limits | None = None):  # type: ignore[no-untyped-def]
    async def once():  # type: ignore[no-untyped-def]
        episode = Episode(
            task_id=task.id,
            trial=0,
            seed=0,
            environment=OTAEnvironment(task),
            agent=agent,
            user=ScriptedUser([task.instructions]),
            limits=limits or Limits(),
        )
        sim = await run_episode(episode)
        return ota_state_evaluator().grade(task, sim)

    return asyncio.run(once())


def failed(result: Any) -> dict[str, str]:
    return {c.id: c.evidence for c in result.criteria if not c.met}


ROOM = {
    "product_id": "H1_K_0612",
    "price": 560,
    "date": "2025-06-12",
    "room_type": "Lake View King Room",
}
TWIN = {
    "product_id": "H1_T_0612",
    "price": 520,
    "date": "2025-06-12",
    "room_type": "Lake View Twin Room",
}
SEAT_16 = {
    "product_id": "T1_2C_0616",
    "price": 160,
    "date": "2025-06-16",
    "seat_type": "Second class",
}
SEAT_17 = {
    "product_id": "T1_2C_0617",
    "price": 120,
    "date": "2025-06-17",
    "seat_type": "Second class",
}
BOOK = ("create_hotel_order", {"hotel_id": "H2", "room_id": "H2_K_0612", "user_id": UID})
BOOK_ROOM = ("create_hotel_order", {"hotel_id": "H1", "room_id": "H1_K_0612", "user_id": UID})
PAY_LAST = ("pay_hotel_order", {"order_id": "$last"})


# ---- classification -------------------------------------------------------------------------


def test_required_orders_are_classified_new_unchanged_or_modified() -> None:
    env = make_environment_dict()
    before_train = env["orders"]["O_TRAIN"]
    moved = copy.deepcopy(before_train)
    moved["products"] = [{**SEAT_16, "quantity": 1}]
    hotel_kept = env["orders"]["O_HOTEL"]
    reused = expected("hotel", "O_TRAIN", "H1", ROOM, "paid")  # same id, other provider: new
    new = expected("hotel", "NEW1", "H1", ROOM, "paid")
    reqs = ota_required_orders(task_with([moved, hotel_kept, reused, new, new], env))
    assert [(r.order_id, r.change, r.existing) for r in reqs] == [
        ("O_TRAIN", "modified", True),
        ("O_HOTEL", "unchanged", True),
        ("O_TRAIN", "new", False),
        ("NEW1", "new", False),
    ]
    assert reqs[0].lines == (Line("T1_2C_0616", "2025-06-16", 1),)
    assert [r.index for r in reqs] == [0, 1, 2, 3]


def test_a_later_checkpoint_of_an_existing_order_supersedes_an_earlier_one() -> None:
    env = make_environment_dict()
    first = env["orders"]["O_TRAIN"]
    moved = copy.deepcopy(first)
    moved["products"] = [{**SEAT_16, "quantity": 1}]
    task = VitaTask(
        id="G2",
        environment=env,
        evaluation_criteria={
            "expected_states": [{"required_orders": [first]}, {"required_orders": [moved]}]
        },
    )
    (req,) = ota_required_orders(task)
    assert req.change == "modified" and req.lines[0].date == "2025-06-16"


def test_lines_accept_product_id_aliases_and_undated_expectations() -> None:
    record = {"products": [{"seat_id": "S1", "quantity": 2, "date": "2025-01-01"}, {"x": 1}]}
    assert order_lines(record) == [Line("S1", "2025-01-01", 2)]
    assert same_lines([Line("S1", "2025-01-01", 2)], [Line("S1", "", 2)])
    assert not same_lines([Line("S1", "2025-01-01", 2)], [Line("S1", "2025-01-02", 2)])
    assert not same_lines([Line("S1", "2025-01-01", 2)], [Line("S1", "2025-01-01", 1)])
    assert not same_lines([Line("S1", "", 1)], [])


# ---- new orders -----------------------------------------------------------------------------


def test_new_order_must_match_provider_product_date_quantity_and_status() -> None:
    task = task_with([expected("hotel", "T01", "H1", ROOM, "paid")])
    assert grade(task, Replay([BOOK_ROOM, PAY_LAST])).reward == 1.0
    # another room type of the same hotel on the same date
    twin = ("create_hotel_order", {"hotel_id": "H1", "room_id": "H1_T_0612", "user_id": UID})
    result = grade(task, Replay([twin, PAY_LAST]))
    assert result.reward == 0.0
    assert "H1_T_0612@2025-06-12×1 ≠ H1_K_0612@2025-06-12×1" in failed(result)["order[0]:T01"]
    assert "no_extra_orders" in failed(result)
    # created but not paid
    result = grade(task, Replay([BOOK_ROOM]))
    assert "does not satisfy paid" in failed(result)["order[0]:T01"]
    # the right room, paid, plus an extra booking
    result = grade(task, Replay([BOOK_ROOM, PAY_LAST, BOOK]))
    assert set(failed(result)) == {"no_extra_orders"}
    # an extra booking that was cancelled again does not count
    cancel_last = ("cancel_hotel_order", {"order_id": "$last", "user_id": UID})
    assert grade(task, Replay([BOOK, cancel_last, BOOK_ROOM, PAY_LAST])).reward == 1.0


def test_new_order_date_and_quantity_are_checked() -> None:
    ticket = {
        "product_id": "A1_AD_0612",
        "price": 45,
        "date": "2025-06-12",
        "ticket_type": "Adult ticket",
    }
    task = task_with([expected("attraction", "T01", "A1", ticket, "unpaid", quantity=2)])
    args = {"attraction_id": "A1", "user_id": UID, "quantity": 2}
    right = ("create_attraction_order", {**args, "ticket_id": "A1_AD_0612", "date": "2025-06-12"})
    assert grade(task, Replay([right])).reward == 1.0
    assert (
        grade(task, Replay([right, ("pay_attraction_order", {"order_id": "$last"})])).reward == 1.0
    )
    other_day = (
        "create_attraction_order",
        {**args, "ticket_id": "A1_AD_0613", "date": "2025-06-13"},
    )
    assert "A1_AD_0613@2025-06-13×2" in failed(grade(task, Replay([other_day])))["order[0]:T01"]
    three = (
        "create_attraction_order",
        {**args, "ticket_id": "A1_AD_0612", "date": "2025-06-12", "quantity": 3},
    )
    assert "×3 ≠" in failed(grade(task, Replay([three])))["order[0]:T01"]
    # an expected line without a date matches the product on any date, but the date is then
    # unchecked: the state basis cannot decide (never a pass)
    undated = copy.deepcopy(task.evaluation_criteria.model_dump())  # type: ignore[union-attr]
    del undated["expected_states"][0]["required_orders"][0]["products"][0]["date"]
    loose = VitaTask(id="G3", environment=task.environment, evaluation_criteria=undated)
    result = grade(loose, Replay([right]))
    assert result.reward == 0.0 and result.undecided and not failed(result)
    assert result.unchecked == [
        "date: order T01: 1 expected line(s) without a date (A1_AD_0612@?×2)"
    ]
    # a rubric that states the date makes it checked again
    undated["overall_rubrics"] = ["The attraction tickets must be for 2025-06-12"]
    stated = VitaTask(id="G4", environment=task.environment, evaluation_criteria=undated)
    assert grade(stated, Replay([right])).reward == 1.0
    assert grade(stated, Replay([other_day])).reward == 0.0


# ---- existing orders ------------------------------------------------------------------------


def test_date_change_must_reach_the_expected_date_and_status() -> None:
    env = make_environment_dict()
    moved = copy.deepcopy(env["orders"]["O_TRAIN"])
    moved["products"] = [{**SEAT_16, "quantity": 1}]
    moved["total_price"] = 160
    task = task_with([moved], env)
    modify = (
        "modify_train_order",
        {"order_id": "O_TRAIN", "user_id": UID, "new_date": "2025-06-16"},
    )
    pay = ("pay_train_order", {"order_id": "O_TRAIN"})
    assert grade(task, Replay([modify, pay])).reward == 1.0
    # moved, but the difference was never paid
    assert "status unpaid" in failed(grade(task, Replay([modify])))["order[0]:O_TRAIN"]
    # moved to another date
    wrong = (
        "modify_train_order",
        {"order_id": "O_TRAIN", "user_id": UID, "new_date": "2025-06-17"},
    )
    evidence = failed(grade(task, Replay([wrong])))["order[0]:O_TRAIN"]
    assert "not moved to the expected date" in evidence and "T1_2C_0617@2025-06-17" in evidence
    # cancelled and re-booked as a new order: the required order itself is not moved
    rebook = [
        ("cancel_train_order", {"order_id": "O_TRAIN", "user_id": UID}),
        (
            "create_train_order",
            {
                "train_id": "T1",
                "seat_id": "T1_2C_0616",
                "user_id": UID,
                "date": "2025-06-16",
                "quantity": 1,
            },
        ),
        ("pay_train_order", {"order_id": "$last"}),
    ]
    assert set(failed(grade(task, Replay(rebook)))) == {"order[0]:O_TRAIN", "no_extra_orders"}
    # nothing done
    assert grade(task, NoopAgent()).reward == 0.0


def test_existing_orders_keep_their_lines_and_reach_their_status() -> None:
    env = make_environment_dict()
    cancelled = {**env["orders"]["O_HOTEL"], "status": "cancelled"}
    kept = env["orders"]["O_TRAIN"]
    task = task_with([cancelled, kept], env)
    cancel = ("cancel_hotel_order", {"order_id": "O_HOTEL", "user_id": UID})
    assert grade(task, Replay([cancel])).reward == 1.0
    # the kept order was moved although the task lists it unchanged
    move = ("modify_train_order", {"order_id": "O_TRAIN", "user_id": UID, "new_date": "2025-06-17"})
    result = grade(task, Replay([cancel, move]))
    assert "lines changed" in failed(result)["order[1]:O_TRAIN"]
    # an order the task does not mention was cancelled / moved
    other = ("cancel_train_order", {"order_id": "O_TRAIN_UNPAID", "user_id": UID})
    assert set(failed(grade(task, Replay([cancel, other])))) == {"no_unrequested_cancellations"}
    task_only_hotel = task_with([cancelled], env)
    assert set(failed(grade(task_only_hotel, Replay([cancel, move])))) == {"no_unrequested_changes"}


def test_abnormal_episodes_score_zero() -> None:
    task = task_with([expected("hotel", "T01", "H1", ROOM, "paid")])
    result = grade(task, Replay([BOOK_ROOM, PAY_LAST]), Limits(max_steps=3))
    assert result.reward == 0.0 and "max_steps" in result.note and not result.criteria


def test_evaluator_shape() -> None:
    evaluator = ota_state_evaluator()
    assert isinstance(evaluator, OTAStateEvaluator) and evaluator.basis == "state"
    assert "ota" in available_domains() and "ota" in VitaSuite().domains()


# ---- acceptance on the bundled tasks --------------------------------------------------------

LANGUAGES = ("en", "zh")


@pytest.mark.parametrize("language", LANGUAGES)
def test_oracle_passes_noop_and_distractor_fail_every_bundled_task(language: str) -> None:
    tasks = load_bundled_tasks("ota", language)
    assert len(tasks) == 8
    for task in tasks:
        honest = grade(task, OracleAgent(task, domain="ota", language=language))
        assert honest.reward == 1.0, (task.id, failed(honest))
        assert grade(task, NoopAgent()).reward == 0.0, task.id
        plan = [(c.name, dict(c.args)) for c in oracle_plan(task, domain="ota")]
        near = [(c.name, dict(c.args)) for c in oracle_plan(task, domain="ota", distractor=True)]
        assert plan != near, task.id
        distractor = grade(task, OracleAgent(task, domain="ota", distractor=True))
        assert distractor.reward == 0.0, (task.id, near)


def test_oracle_makes_no_tool_errors_and_covers_every_write_kind() -> None:
    used: set[str] = set()
    for task in load_bundled_tasks("ota", "en"):
        env = OTAEnvironment(task)
        episode = Episode(
            task_id=task.id,
            trial=0,
            seed=0,
            environment=env,
            agent=OracleAgent(task, domain="ota"),
            user=ScriptedUser([task.instructions]),
        )
        sim = asyncio.run(run_episode(episode))
        assert sim.tool_errors == 0, task.id
        used |= {c.name for m in sim.messages if m.role == "assistant" for c in m.tool_calls}
    for prefix in ("create_", "pay_", "modify_", "cancel_"):
        assert any(name.startswith(prefix) for name in used), prefix


def _report(tmp_path: Path, *extra: str) -> dict[str, Any]:
    out = tmp_path / "-".join(extra or ("oracle",))
    result = CliRunner().invoke(
        app, ["run", "--task-set", "demo", "--domain", "ota", "--quiet", "--out", str(out), *extra]
    )
    assert result.exit_code == 0, result.output
    rep = CliRunner().invoke(app, ["report", str(out), "--json"])
    assert rep.exit_code == 0, rep.output
    report: dict[str, Any] = json.loads(rep.stdout)
    return report


def test_cli_runs_the_bundled_ota_tasks(tmp_path: Path) -> None:
    oracle = _report(tmp_path)
    assert (oracle["n_tasks"], oracle["n_simulations"], oracle["n_errors"]) == (8, 8, 0)
    assert oracle["avg_reward"] == 1.0 and oracle["pass_hat_k"]["1"] == 1.0
    noop = _report(tmp_path, "--agent", "noop")
    assert noop["n_simulations"] == 8 and noop["avg_reward"] == 0.0
    zh = _report(tmp_path, "--language", "zh")
    assert zh["config"]["language"] == "zh" and zh["pass_hat_k"]["1"] == 1.0

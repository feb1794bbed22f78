"""Small tasks, trajectories and records for the travel grading tests."""

from __future__ import annotations

from dataclasses import dataclass

from lifebench.evaluation import BasisResult, Evaluation
from lifebench.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from lifebench.simulation import Simulation, TerminationReason

CONTEXT = "**用户当前位置坐标**\nlatitude: 30.65000\nlongitude: 104.06000\n\n**用户当前位置描述**\n四川省成都市"


@dataclass(frozen=True)
class Task:
    """The attributes the travel grading reads from a TravelTask."""

    id: str = "1"
    subset: str = "single"
    query: str = "明天成都到重庆的高铁"
    context: str = CONTEXT
    time: str = "2025-10-24 10:00"
    intent: str = "查询明天成都到重庆的高铁车次"
    user_profile: str = ""
    language: str = "zh"


def trajectory(
    final: str = "G8601 08:05 发车，二等座 96 元。", *, errors: int = 0
) -> list[Message]:
    """Query → one train search (failing ``errors`` times first) → final answer → ###STOP###."""
    msgs: list[Message] = [UserMessage(content="明天成都到重庆的高铁")]
    for i in range(errors):
        msgs.append(
            AssistantMessage(
                content="",
                tool_calls=[
                    ToolCall(
                        id=f"e{i}", name="travel_search_trains", arguments='{"origin": "成都"}'
                    )
                ],
            )
        )
        msgs.append(
            ToolResultMessage(
                tool_call_id=f"e{i}",
                name="travel_search_trains",
                content='{"error": "缺少参数"}',
                error=True,
            )
        )
    msgs.append(
        AssistantMessage(
            content="",
            tool_calls=[
                ToolCall(
                    id="c1",
                    name="travel_search_trains",
                    arguments='{"origin": "成都市", "destination": "重庆市", "date": "2025-10-25"}',
                )
            ],
        )
    )
    msgs.append(
        ToolResultMessage(
            tool_call_id="c1", name="travel_search_trains", content="[G8601 08:05 96元]"
        )
    )
    msgs.append(AssistantMessage(content=final))
    msgs.append(UserMessage(content="###STOP###"))
    return [m.model_copy(update={"turn": i}) for i, m in enumerate(msgs)]


def simulation(
    messages: list[Message] | None = None,
    *,
    task_id: str = "1",
    trial: int = 0,
    seed: int = 7,
    sandbox: dict[str, int] | None = None,
) -> Simulation:
    msgs = trajectory() if messages is None else messages
    tools = [m for m in msgs if m.role == "tool"]
    return Simulation(
        task_id=task_id,
        trial=trial,
        seed=seed,
        messages=msgs,
        termination=TerminationReason.USER_STOP,
        tool_calls=len(tools),
        tool_errors=sum(1 for m in tools if m.error),
        agent_usage=Usage(prompt_tokens=10, completion_tokens=5),
        final_state={"sandbox": sandbox} if sandbox is not None else {},
    )


def judge_xml(*ratings: str, tag: str = "response") -> str:
    dims = ["reasoning_planning", "summarization_extraction", "presentation", "user_interaction"]
    body = "".join(
        f"<{d}><reasoning>理由{i}</reasoning><rating>{r}</rating></{d}>"
        for i, (d, r) in enumerate(zip(dims, ratings, strict=False))
    )
    return f"<{tag}>{body}</{tag}>"


def meta_xml(rating: str) -> str:
    return (
        f"<meta_evaluation><reasoning>复核</reasoning><rating>{rating}</rating></meta_evaluation>"
    )


@dataclass(frozen=True)
class Rec:
    """Satisfies lifebench.metrics.ResultRecord."""

    task_id: str
    trial: int
    status: str
    attempts: int
    simulation: Simulation | None
    evaluation: Evaluation | None


def record(
    result: BasisResult | None,
    sim: Simulation | None = None,
    *,
    error: str | None = None,
    task_id: str = "1",
    trial: int = 0,
) -> Rec:
    sim = sim or simulation(task_id=task_id, trial=trial)
    evaluation = None
    if result is not None or error is not None:
        by_basis = {result.basis: result} if result is not None else {}
        evaluation = Evaluation(
            reward=result.reward if result and not error else 0.0,
            basis="travel",
            by_basis=by_basis,
            error=error,
        )
    return Rec(
        task_id=task_id,
        trial=trial,
        status="done",
        attempts=1,
        simulation=sim,
        evaluation=evaluation,
    )

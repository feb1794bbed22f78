"""The multi-turn user simulator and the offline scripted users."""

from __future__ import annotations

from travel_fakes import Task

from lifebench.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from lifebench.models import ScriptedModel
from lifebench.simulation._stop import AGENT_STOP
from lifebench.travel.prompts import FINISH, NO_PREFERENCE
from lifebench.travel.user import (
    ScriptedTravelUser,
    TravelUser,
    scripted_multi_user,
    single_turn_user,
    user_view,
)

PROFILE = "### 基本信息\n- 常驻城市：成都市\n### 兴趣偏好\n- 偏好高铁二等座"


def _user(script: list[str]) -> tuple[TravelUser, ScriptedModel]:
    model = ScriptedModel(
        [AssistantMessage(content=s, usage=Usage(prompt_tokens=3)) for s in script]
    )
    task = Task(subset="multi", user_profile=PROFILE)
    return TravelUser.for_task(model, task, "zh"), model


async def test_the_query_opens_without_a_model_call() -> None:
    user, model = _user([])
    first = await user.respond([])
    assert first.content == Task().query and not model.calls and first.usage is None


async def test_the_simulator_sees_only_final_texts_and_its_own_lines() -> None:
    user, model = _user(["二等座就行 ", FINISH])
    call = ToolCall(id="c", name="travel_search_trains", arguments="{}")
    trajectory: list[Message] = [
        UserMessage(content=Task().query),
        AssistantMessage(content="我先查一下。", tool_calls=[call]),
        ToolResultMessage(tool_call_id="c", name="travel_search_trains", content="G8601"),
        AssistantMessage(content="有 G8601，要一等座还是二等座？"),
    ]
    reply = await user.respond(trajectory)
    assert reply.content == "二等座就行" and reply.usage == Usage(prompt_tokens=3)
    sent = model.calls[0].messages
    assert [(m.role, m.content) for m in sent[1:]] == [
        ("assistant", Task().query),
        ("user", "有 G8601，要一等座还是二等座？"),
    ]
    assert sent[0].role == "system" and PROFILE in sent[0].content
    assert Task().intent in sent[0].content and Task().context in sent[0].content
    assert model.calls[0].tools is None


async def test_finish_is_returned_verbatim() -> None:
    user, _ = _user([f"好的 {FINISH}"])
    reply = await user.respond([UserMessage(content="q"), AssistantMessage(content="方案如下")])
    assert reply.content == f"好的 {FINISH}" and TravelUser.finished(reply.content)
    assert not TravelUser.finished("好的")


def test_user_view_flips_roles() -> None:
    view = user_view(
        "sys",
        [UserMessage(content="a"), AssistantMessage(content="b"), AssistantMessage(content="  ")],
    )
    assert [(m.role, m.content) for m in view] == [
        ("system", "sys"),
        ("assistant", "a"),
        ("user", "b"),
    ]


async def test_scripted_multi_user_answers_questions_then_finishes() -> None:
    user = scripted_multi_user(Task(subset="multi"))
    q = Task().query
    assert (await user.respond([])).content == q
    asked: list[Message] = [UserMessage(content=q), AssistantMessage(content="你想几点出发？")]
    assert (await user.respond(asked)).content == NO_PREFERENCE["zh"]
    assert (await user.respond(asked)).content == NO_PREFERENCE["zh"]
    assert (await user.respond(asked)).content == FINISH  # at most two answers
    answered: list[Message] = [UserMessage(content=q), AssistantMessage(content="推荐 G8601。")]
    fresh = ScriptedTravelUser(q, "en")
    assert (await fresh.respond(answered)).content == FINISH
    assert (
        await fresh.respond([UserMessage(content=q), AssistantMessage(content="When?")])
    ).content == (NO_PREFERENCE["en"])


async def test_single_turn_user_says_the_query_once() -> None:
    user = single_turn_user("明天的天气")
    assert (await user.respond([])).content == "明天的天气"
    assert (await user.respond([])).content == AGENT_STOP

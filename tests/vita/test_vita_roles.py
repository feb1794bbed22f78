"""VitaBench roles with scripted models: prompts, role flipping, seeds, languages, hidden fields."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from lifebench.messages import AssistantMessage, ToolCall
from lifebench.models import ModelFactory, ScriptedModel
from lifebench.runner import Progress
from lifebench.runner._experiment import run_experiment
from lifebench.simulation import Episode, LLMAgent, ScriptedUser, run_episode
from lifebench.suites import RunOptions
from lifebench.vita import prompts
from lifebench.vita.domains.delivery import DeliveryEnvironment
from lifebench.vita.loader import load_bundled_tasks
from lifebench.vita.suite import VitaSuite


def test_agent_prompt_carries_time_weekday_and_rules() -> None:
    en = prompts.agent_prompt("2025-06-21 11:20:00", "en")
    assert "2025-06-21 11:20:00 Saturday" in en
    for rule in ("ask the user", "preconditions", "postconditions", "Never make", "###STOP###"):
        assert rule in en
    zh = prompts.agent_prompt("2025-06-21 11:20:00", "zh")
    assert "星期六" in zh and "###STOP###" in zh and "前置条件" in zh
    solo = prompts.agent_prompt("2025-06-21 11:20:00", "en", solo=True)
    assert "There is no one to ask" in solo


def test_user_prompt_has_persona_instructions_and_stop_protocol() -> None:
    text = prompts.user_prompt(
        {"occupation": "Doctor", "personality": "Impatient"}, "Order noodles.", "en"
    )
    assert "occupation: Doctor" in text and "Order noodles." in text
    assert "reply with exactly: ###STOP###" in text
    assert "three times" in text and "don't remember or don't know" in text
    zh = prompts.user_prompt({"职业": "医生"}, "点米线", "zh")
    assert "职业: 医生" in zh and "###STOP###" in zh
    dummy = prompts.dummy_user_prompt("Order noodles.", "en")
    assert "all of <instructions> at once" in dummy


def _scripted_run(tmp_path: Path, language: str) -> tuple[ScriptedModel, ScriptedModel, dict]:
    agent = ScriptedModel(
        [
            AssistantMessage(
                tool_calls=[ToolCall(id="1", name="get_user_all_orders", arguments="{}")]
            ),
            "Here are your orders. Anything else?",
        ],
        repeat_last=True,
    )
    user = ScriptedModel(["I need lunch, please check my orders.", "###STOP###"], repeat_last=True)
    factory = ModelFactory()
    factory.register("agent", agent)
    factory.register("user", user)
    options = RunOptions(
        agent="llm",
        user="llm",
        agent_model="agent",
        user_model="user",
        num_tasks=1,
        language=language,
        out=str(tmp_path / language),
        quiet=True,
        concurrency=1,  # type: ignore[arg-type]
    )
    exp, summary = asyncio.run(
        run_experiment(options, models=factory, progress=Progress(quiet=True))
    )
    assert summary.done == 1
    return agent, user, exp.tasks


def test_llm_roles_see_what_they_should(tmp_path: Path) -> None:
    agent, user, tasks = _scripted_run(tmp_path, "en")
    first = agent.calls[0]
    assert first.messages[0].role == "system" and "Current time" in first.messages[0].content
    assert first.tools is not None and len(first.tools) == 20
    assert (
        first.config is not None
        and first.config.seed is not None
        and first.config.temperature == 0.0
    )
    # The user never sees tool calls or results; agent text arrives as the 'user' role.
    second_user_call = user.calls[1]
    roles = [m.role for m in second_user_call.messages]
    assert roles == ["system", "user", "assistant", "user"]
    assert "<persona>" in second_user_call.messages[0].content
    task = next(iter(tasks.values()))
    assert task.instructions in second_user_call.messages[0].content
    assert all("get_user_all_orders" not in m.content for m in second_user_call.messages)


def test_chinese_run_uses_chinese_prompts_and_tools(tmp_path: Path) -> None:
    agent, user, _ = _scripted_run(tmp_path, "zh")
    assert "当前时间" in agent.calls[0].messages[0].content
    assert agent.calls[0].messages[1].content == prompts.GREETING["zh"]
    descriptions = [t["function"]["description"] for t in agent.calls[0].tools or []]
    assert any("前置条件" in d or any("\u4e00" <= ch <= "\u9fff" for ch in d) for d in descriptions)
    assert (
        "<persona>" in user.calls[0].messages[0].content
        and "你的角色" in user.calls[0].messages[0].content
    )


def test_hidden_annotations_never_reach_the_agent() -> None:
    task = load_bundled_tasks("delivery", "en")[0]
    raw = task.model_dump(mode="json")
    for store in raw["environment"]["stores"].values():
        store["shop_type"] = "target"
        store["target_reason"] = "SECRET-REASON"
        for product in store["products"]:
            product["product_type"] = "distraction"
    env = DeliveryEnvironment(type(task).model_validate(raw))
    outputs = []
    for store_id, store in raw["environment"]["stores"].items():
        outputs.append(
            asyncio.run(env.tools.run("get_delivery_store_info", {"store_id": store_id})).content
        )
        for product in store["products"]:
            outputs.append(
                asyncio.run(
                    env.tools.run(
                        "get_delivery_product_info", {"product_id": product["product_id"]}
                    )
                ).content
            )
    outputs.append(
        asyncio.run(
            env.tools.run("delivery_store_search_recommand", {"keywords": ["rice"]})
        ).content
    )
    outputs.append(
        asyncio.run(
            env.tools.run("delivery_product_search_recommand", {"keywords": ["rice"]})
        ).content
    )
    blob = "\n".join(outputs)
    for hidden in ("shop_type", "target_reason", "SECRET-REASON", "product_type", "distraction"):
        assert hidden not in blob


def test_episode_with_llm_agent_and_scripted_user_is_deterministic() -> None:
    task = load_bundled_tasks("delivery", "en")[0]

    async def once() -> str:
        env = DeliveryEnvironment(task)
        model = ScriptedModel(["Sorry, I cannot help. ###STOP###"])
        agent = LLMAgent(
            model, prompts.agent_prompt(task.environment["time"], "en"), env.tools.openai_schemas()
        )
        sim = await run_episode(
            Episode(
                task_id=task.id,
                trial=0,
                seed=3,
                environment=env,
                agent=agent,
                user=ScriptedUser(["hi"]),
            )
        )
        return json.dumps(sim.model_dump(mode="json", exclude={"duration_s"}), sort_keys=True)

    assert asyncio.run(once()) == asyncio.run(once())
    assert "delivery" in VitaSuite().domains()


def test_solo_agent_with_dummy_user(tmp_path: Path) -> None:
    agent = ScriptedModel(
        [
            AssistantMessage(
                tool_calls=[ToolCall(id="1", name="get_user_all_orders", arguments="{}")]
            ),
            "Done: nothing to change. ###STOP###",
        ]
    )
    user = ScriptedModel(["Everything at once: check my orders."])
    factory = ModelFactory()
    factory.register("a", agent)
    factory.register("u", user)
    options = RunOptions(
        agent="solo",
        user="dummy",
        agent_model="a",
        user_model="u",
        num_tasks=1,
        out=str(tmp_path / "solo"),
        quiet=True,
    )
    _exp, summary = asyncio.run(
        run_experiment(options, models=factory, progress=Progress(quiet=True))
    )
    assert summary.done == 1 and len(user.calls) == 1
    assert "There is no one to ask" in agent.calls[0].messages[0].content
    assert "all of <instructions> at once" in user.calls[0].messages[0].content

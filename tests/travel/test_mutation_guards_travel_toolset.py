"""TravelBench's tools as the agent sees them: descriptions and schemas in the row's language,
and the message of arguments that are not a JSON object, in English and in Chinese."""

from __future__ import annotations

import asyncio
import json

import pytest

from lifebench._util.text import Language
from lifebench.tools import ToolOutcome
from lifebench.travel.environment import TravelEnvironment
from lifebench.travel.sandbox.backend import Sandbox, SandboxConfig
from lifebench.travel.tools.specs import TOOLS
from lifebench.travel.tools.toolset import TravelTool

MESSAGES: dict[Language, tuple[str, str]] = {
    "en": ("arguments are not valid JSON (", "arguments must be a JSON object, got list"),
    "zh": ("参数不是合法的 JSON（位置 ", "参数必须是 JSON 对象，实际为 list"),
}


def _tool(language: Language) -> TravelTool:
    env = TravelEnvironment(Sandbox(SandboxConfig()), "2025-10-24 10:00", language)
    tool = env.tools[TOOLS[0].name]
    assert isinstance(tool, TravelTool)
    return tool


def test_descriptions_and_schemas_follow_the_language_english_by_default() -> None:
    tool, spec = _tool("zh"), TOOLS[0]
    assert spec.description.en != spec.description.zh
    assert tool.description() == spec.description.en
    assert tool.description("zh") == spec.description.zh
    assert tool.parameters_schema() == spec.parameters_schema("en")
    assert tool.parameters_schema("zh") == spec.parameters_schema("zh")
    assert tool.parameters_schema("zh") != spec.parameters_schema("en")
    assert tool.openai_schema() == spec.openai_schema("en")
    assert tool.openai_schema("zh") == spec.openai_schema("zh")
    assert tool.openai_schema("zh") != spec.openai_schema("en")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_arguments_that_are_no_json_object_are_told_in_the_rows_language(
    language: Language,
) -> None:
    tool = _tool(language)

    async def run() -> tuple[ToolOutcome, ToolOutcome]:
        return await tool.run("{not json"), await tool.run("[1, 2]")

    malformed, not_object = asyncio.run(run())
    bad_json, bad_type = MESSAGES[language]
    for outcome in (malformed, not_object):
        assert outcome.error and outcome.error_kind == "bad_arguments"
    assert json.loads(malformed.content)["error"].startswith(bad_json)
    assert json.loads(not_object.content)["error"] == bad_type

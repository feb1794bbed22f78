"""The ten tools as core :class:`~lifebench.tools.Tool` objects bound to one episode.

Arguments are checked by :func:`~lifebench.travel.tools.validation.check_call` (the official
rules, not a typed signature: the official harness accepts ``"days": true`` and a ``"a,b"``
coordinate, and rejects ``"days": "3"``), then answered by the run's sandbox.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, create_model

from lifebench._util.text import Language, Text
from lifebench.errors import InfrastructureError
from lifebench.tools import Tool, ToolKind, ToolOutcome, ToolSet, ToolSpec
from lifebench.travel.tools.specs import TOOLS, ToolSpecTB
from lifebench.travel.tools.validation import Problem, check_call

if TYPE_CHECKING:
    from lifebench.travel.environment import TravelEnvironment

_ANY_ARGS: type[BaseModel] = create_model("travel_arguments", __config__=ConfigDict(extra="allow"))


def _not_json(message_en: str, message_zh: str) -> Problem:
    return Problem(Text(message_en, message_zh))


def decode_arguments(arguments: str | Mapping[str, Any]) -> dict[str, Any] | Problem:
    """The JSON object the model sent, or why it is not one (always a validation error:
    officially malformed JSON becomes ``{"raw_arguments": ...}``, which fails validation)."""
    if not isinstance(arguments, str):
        return dict(arguments)
    text = arguments.strip() or "{}"
    try:
        decoded = json.loads(text)
    except json.JSONDecodeError as exc:
        return _not_json(
            f"arguments are not valid JSON ({exc.msg} at position {exc.pos})",
            f"参数不是合法的 JSON（位置 {exc.pos}：{exc.msg}）",
        )
    if not isinstance(decoded, dict):
        return _not_json(
            f"arguments must be a JSON object, got {type(decoded).__name__}",
            f"参数必须是 JSON 对象，实际为 {type(decoded).__name__}",
        )
    return decoded


@dataclass(frozen=True)
class TravelTool(Tool):
    """One of the ten tools, bound to an episode's environment."""

    tb: ToolSpecTB
    env: TravelEnvironment

    def description(self, language: Language = "en") -> str:
        return self.tb.description.get(language)

    def parameters_schema(self, language: Language = "en") -> dict[str, Any]:
        return self.tb.parameters_schema(language)

    def openai_schema(self, language: Language = "en") -> dict[str, Any]:
        return self.tb.openai_schema(language)

    async def run(self, arguments: str | Mapping[str, Any]) -> ToolOutcome:
        """Check the arguments, then ask the sandbox; never raises except for infrastructure
        failures of the tool simulator (the episode then ends as an infrastructure error)."""
        env = self.env
        decoded = decode_arguments(arguments)
        if isinstance(decoded, Problem):
            env.count_invalid()
            return ToolOutcome(decoded.render(env.language), error=True, error_kind="bad_arguments")
        problem = check_call(self.name, decoded, env.now)
        if problem is not None:
            env.count_invalid()
            return ToolOutcome(problem.render(env.language), error=True, error_kind="bad_arguments")
        try:
            answer = await env.sandbox.answer(self.name, decoded, env.time, env.language)
        except InfrastructureError:
            raise
        except Exception as exc:  # a bug in the sandbox must not end the simulation
            return ToolOutcome(
                f"Internal error in tool {self.name}: {type(exc).__name__}: {exc}",
                error=True,
                error_kind="internal",
            )
        env.count_answer(answer.source)
        return ToolOutcome(answer.content, usage=answer.usage)


def _unused(**kwargs: Any) -> None:  # the core Tool needs a function; TravelTool.run replaces it
    return None


def travel_toolset(env: TravelEnvironment) -> ToolSet:
    """The ten tools bound to ``env``, in the official registration order."""
    return ToolSet(
        TravelTool(
            name=spec.name,
            spec=ToolSpec(kind=ToolKind.READ, description=spec.description, name=spec.name),
            fn=_unused,
            args_model=_ANY_ARGS,
            param_docs={},
            tb=spec,
            env=env,
        )
        for spec in TOOLS
    )

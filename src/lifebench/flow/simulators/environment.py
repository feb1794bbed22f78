"""The environment of a simulated FlowBench session: the task's tools, answered by replaying
the gold session's recorded returns or by a tool simulator.

For each call (spec §3.4 and §5.5):

1. an unknown tool, or arguments that are not a JSON object, are tool errors the agent sees;
2. a call that matches a gold call (same name, every non-empty gold argument matching by the
   rules of :mod:`lifebench.flow.evaluation.matching`, no judge) returns that gold call's
   recorded output — an unused gold call first, so repeated calls walk through repeated gold
   calls;
3. otherwise the arguments are validated against the tool's input schema (problems are a
   ``bad_arguments`` tool error), and the tool simulator answers: an LLM (``--tool-model``)
   told the API definition, the current time, the session's earlier calls and results and the
   recorded calls, whose JSON must validate against the output schema (bounded re-asks through
   :func:`~lifebench.evaluation.ask_json`); or, offline, :func:`offline_answer`. An LLM that
   still fails falls back to the offline answer, counted in the snapshot.

The LLM's usage is set on the tool result, so it reaches the run's ``tool`` usage.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import ConfigDict, create_model

from lifebench._util.text import Text
from lifebench.evaluation import JudgeError, ShapeError, ask_json
from lifebench.flow.evaluation.arguments import ArgumentMatcher
from lifebench.flow.evaluation.turn import tool_docs
from lifebench.flow.kb.models import ToolDef
from lifebench.flow.simulators.answerer import offline_answer
from lifebench.flow.simulators.prompts import TOOL_SYSTEM, tool_prompt
from lifebench.flow.tasks.models import GoldCall
from lifebench.messages import ToolCall, ToolResultMessage, Usage
from lifebench.models import ChatModel, GenerateConfig
from lifebench.tools import Tool, ToolSet
from lifebench.tools._spec import ToolKind, ToolSpec
from lifebench.tools._tool import ToolOutcome

_PY_TYPES: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "array": list[Any],
    "object": dict[str, Any],
}


def as_tool(definition: ToolDef) -> Tool:
    """A lifebench :class:`Tool` describing ``definition`` (schema listing; the environment
    answers calls itself)."""
    fields: dict[str, Any] = {}
    for name, param in definition.inputs.items():
        kind = _PY_TYPES.get(param.json_schema()["type"], Any)
        fields[name] = (kind, ...) if param.required else (kind | None, None)
    model = create_model(
        f"{definition.name}_arguments", __config__=ConfigDict(extra="forbid"), **fields
    )

    def unavailable(**_: Any) -> None:
        raise RuntimeError("FlowBench tools are answered by the session environment")

    spec = ToolSpec(kind=ToolKind.GENERAL, description=Text(definition.description))
    return Tool(name=definition.name, spec=spec, fn=unavailable, args_model=model, param_docs={})


class ToolSimulator:
    """The LLM tool simulator (temperature 0, seeded)."""

    def __init__(self, model: ChatModel, *, seed: int | None = None, max_reasks: int = 2) -> None:
        self._model = model
        self._config = GenerateConfig(temperature=0.0, seed=seed)
        self._max_reasks = max_reasks

    async def answer(
        self,
        tool: ToolDef,
        arguments: dict[str, Any],
        now: str,
        log: Sequence[tuple[str, str, str]],
        recorded: Sequence[GoldCall],
    ) -> tuple[str, Usage]:
        """A JSON return value that fits ``tool``'s output schema, and the usage."""

        def check(parsed: Any) -> str:
            if not isinstance(parsed, dict):
                raise ShapeError("the return value must be one JSON object")
            problems = tool.validate_output(parsed)
            if problems:
                raise ShapeError("; ".join(problems[:5]))
            return json.dumps(parsed, ensure_ascii=False)

        answer = await ask_json(
            self._model,
            TOOL_SYSTEM,
            tool_prompt(tool, arguments, now, log, recorded),
            check,
            config=self._config,
            max_reasks=self._max_reasks,
        )
        return answer.value, answer.usage


class SessionTools(ToolSet):
    """The tools of one session; ``execute`` answers calls as described in the module doc."""

    def __init__(
        self,
        definitions: Sequence[ToolDef],
        gold: Sequence[GoldCall],
        now: str,
        simulator: ToolSimulator | None = None,
    ) -> None:
        first: dict[str, list[ToolDef]] = {}
        for d in definitions:
            first.setdefault(d.name, []).append(d)
        super().__init__(as_tool(defs[0]) for defs in first.values())
        self._defs = first
        self._gold = list(gold)
        self._used = [False] * len(self._gold)
        self._now = now
        self._simulator = simulator
        self._matcher = ArgumentMatcher(tool_docs([d[0] for d in first.values()], now))
        self.log: list[tuple[str, str, str]] = []
        self.counts = {"replayed": 0, "simulated": 0, "offline": 0, "fallbacks": 0, "errors": 0}

    async def _gold_output(self, name: str, arguments: dict[str, Any]) -> str | None:
        order = [i for i in range(len(self._gold)) if not self._used[i]]
        order += [i for i in range(len(self._gold)) if self._used[i]]
        for i in order:
            g = self._gold[i]
            if g.output is None:
                continue
            if await self._matcher.call(g.name, g.arguments, name, arguments):
                self._used[i] = True
                return g.output
        return None

    def _definition(self, name: str, arguments: dict[str, Any]) -> tuple[ToolDef, list[str]]:
        """The definition the arguments fit (the first one when none does), and the problems."""
        problems: list[str] = []
        for d in self._defs[name]:
            found = d.validate_arguments(arguments)
            if not found:
                return d, []
            problems = problems or found
        return self._defs[name][0], problems

    async def _answer(self, call: ToolCall) -> tuple[ToolOutcome, Usage | None]:
        if call.name not in self._defs:
            return (
                ToolOutcome(
                    content=f"Tool '{call.name}' does not exist. Available tools: "
                    f"{', '.join(self.names)}.",
                    error=True,
                    error_kind="unknown_tool",
                ),
                None,
            )
        try:
            arguments = json.loads(call.arguments.strip() or "{}")
        except json.JSONDecodeError as exc:
            arguments = exc
        if not isinstance(arguments, dict):
            return (
                ToolOutcome(
                    content=f"Invalid arguments for {call.name}: expected one JSON object, got "
                    f"{call.arguments[:200]!r}.",
                    error=True,
                    error_kind="bad_arguments",
                ),
                None,
            )
        recorded = await self._gold_output(call.name, arguments)
        if recorded is not None:
            self.counts["replayed"] += 1
            return ToolOutcome(content=recorded), None
        definition, problems = self._definition(call.name, arguments)
        if problems:
            return (
                ToolOutcome(
                    content=f"Invalid arguments for {call.name}: {'; '.join(problems)}.",
                    error=True,
                    error_kind="bad_arguments",
                ),
                None,
            )
        if self._simulator is None:
            self.counts["offline"] += 1
            return ToolOutcome(content=offline_answer(definition, arguments)), None
        try:
            text, usage = await self._simulator.answer(
                definition, arguments, self._now, self.log, self._gold
            )
        except JudgeError as exc:
            self.counts["fallbacks"] += 1
            return ToolOutcome(content=offline_answer(definition, arguments)), exc.usage
        self.counts["simulated"] += 1
        return ToolOutcome(content=text), usage

    async def run(self, name: str, arguments: str | dict[str, Any]) -> ToolOutcome:
        """Answer one call (no usage; see :meth:`execute`)."""
        text = arguments if isinstance(arguments, str) else json.dumps(arguments)
        outcome, _ = await self._answer(ToolCall(id="run", name=name, arguments=text))
        return outcome

    async def execute(self, call: ToolCall, turn: int = 0) -> ToolResultMessage:
        """Answer ``call``; the tool simulator's usage rides on the result."""
        outcome, usage = await self._answer(call)
        self.counts["errors"] += int(outcome.error)
        self.log.append((call.name, call.arguments, outcome.content))
        return ToolResultMessage(
            tool_call_id=call.id,
            name=call.name,
            content=outcome.content,
            error=outcome.error,
            error_kind=outcome.error_kind,
            usage=usage,
            turn=turn,
        )


class FlowEnvironment:
    """The :class:`~lifebench.environment.Environment` of one FlowBench unit."""

    def __init__(self, tools: SessionTools) -> None:
        self._tools = tools

    @property
    def tools(self) -> ToolSet:
        """The session's tools."""
        return self._tools

    def snapshot(self) -> dict[str, Any]:
        """How the calls were answered (replayed, simulated, offline, fallbacks, errors)."""
        return {"answers": dict(self._tools.counts), "calls": len(self._tools.log)}

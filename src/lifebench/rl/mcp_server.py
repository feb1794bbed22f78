"""The MCP face: one task's episodes for any MCP client agent (the official ``mcp`` SDK;
extra ``lifebench[mcp]``), over stdio or streamable HTTP.

The client sees the task's tools, ``send_message_to_user`` (the simulated user answers),
``read_conversation`` and ``finish`` (:mod:`lifebench.rl._agent_tools`), the prompt ``task``
(the agent's instructions and the conversation so far) and, in the server's instructions,
the agent's system prompt. One episode is played at a time: the first call starts trial 0
(or the next trial the run directory does not hold), ``finish`` grades it — returning the
reward, each basis and each criterion with its evidence — and the next call starts the next
trial. Every ended episode is stored at once as a unit of the run directory (viewable with
``lifebench show`` / ``view``, re-gradable with ``lifebench eval``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import mcp_types as types
from mcp.server import Server

from lifebench.errors import LifebenchError
from lifebench.rl._agent_tools import FINISH, READ, SEND, call_tool, tool_specs
from lifebench.rl._env import StepEnvironment, StepSession
from lifebench.rl._record import RunRecorder

PROMPT = "task"


class EpisodeServer:
    """An MCP server over the episodes of ``task_id`` in ``env``, stored by ``recorder``."""

    def __init__(
        self, env: StepEnvironment, task_id: str, recorder: RunRecorder | None = None
    ) -> None:
        if task_id not in env.task_ids:
            raise LifebenchError(f"unknown task id {task_id!r}")
        self.env = env
        self.task_id = task_id
        self.recorder = recorder
        self.session: StepSession | None = None
        """The episode being played; None before the first call and after finish."""
        self._recorded = False
        self._next_trial = recorder.next_trial(task_id) if recorder is not None else 0
        self._lock = asyncio.Lock()
        self.server: Server[Any] = Server(
            "lifebench",
            version=_version(),
            instructions=self._instructions(),
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_prompts=self._list_prompts,
            on_get_prompt=self._get_prompt,
        )

    def _instructions(self) -> str:
        exp = self.env.experiment
        task = exp.tasks[self.task_id]
        episode = exp.suite.build_episode(task, 0, 0, exp.options, exp.models)
        system = ""
        agent = episode.agent
        request = getattr(agent, "request", None)
        if callable(request):
            first = request([]).messages[0]
            system = first.content if first.role == "system" else ""
        return (
            f"You are the agent of a lifebench {exp.options.suite} task ({self.task_id}). "
            f"Talk to the user only with {SEND}; {READ} (or the prompt '{PROMPT}') shows the "
            f"conversation so far, starting with the user's first message; call {FINISH} when "
            "the conversation is over to get your grading. Your instructions:\n\n" + system
        )

    async def _current(self) -> StepSession:
        """The episode being played, or a new one (the next trial)."""
        if self.session is None:
            trial = self._next_trial
            self._next_trial += 1
            self.session = await self.env.reset(self.task_id, trial)
            self._recorded = False
            self._store_if_done()
        return self.session

    def _store_if_done(self) -> None:
        session = self.session
        if session is not None and session.done and not self._recorded:
            if self.recorder is not None:
                self.recorder.record(session)
            self._recorded = True

    async def _list_tools(self, ctx: Any, params: Any) -> types.ListToolsResult:
        async with self._lock:
            session = await self._current()
            specs = tool_specs(session)
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=s["name"], description=s["description"], input_schema=s["input_schema"]
                )
                for s in specs
            ]
        )

    async def _call_tool(
        self, ctx: Any, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        async with self._lock:
            try:
                session = await self._current()
                reply = await call_tool(session, params.name, params.arguments or {})
                self._store_if_done()
                if params.name == FINISH:
                    self.session = None
            except LifebenchError as exc:
                return _result(f"error: {exc}", is_error=True)
        return _result(reply.text, is_error=reply.is_error)

    async def _list_prompts(self, ctx: Any, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=PROMPT,
                    description="The agent's instructions and the conversation so far.",
                )
            ]
        )

    async def _get_prompt(
        self, ctx: Any, params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        if params.name != PROMPT:
            raise LifebenchError(f"unknown prompt {params.name!r} (there is '{PROMPT}')")
        async with self._lock:
            session = await self._current()
            messages = [
                types.PromptMessage(
                    role="user", content=types.TextContent(type="text", text=self._instructions())
                )
            ]
            for m in session.messages:
                if m.role in ("user", "assistant") and m.content.strip():
                    messages.append(
                        types.PromptMessage(
                            role=m.role, content=types.TextContent(type="text", text=m.content)
                        )
                    )
        return types.GetPromptResult(description="The task so far.", messages=messages)

    async def run_stdio(self) -> None:
        """Serve one client over this process's stdin / stdout until it closes."""
        from mcp.server.stdio import stdio_server

        async with stdio_server() as (read, write):
            await self.server.run(read, write, self.server.create_initialization_options())

    def http_app(self) -> Any:
        """The streamable-HTTP ASGI app (endpoint ``/mcp``), for 127.0.0.1."""
        return self.server.streamable_http_app()


def _result(text: str, *, is_error: bool) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], is_error=is_error
    )


def _version() -> str:
    from lifebench import __version__

    return __version__

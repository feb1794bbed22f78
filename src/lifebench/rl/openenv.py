"""The OpenEnv face: a suite's episodes behind an OpenEnv server (``openenv-core``; extra
``lifebench[openenv]``).

``create_openenv_app(step_env)`` is a FastAPI app made by OpenEnv's ``create_app``: clients
(``openenv.core.GenericEnvClient``, TRL, SkyRL, verifiers' ``OpenEnvEnv``, …) open a WebSocket
session at ``/ws`` and send ``reset`` / ``step`` / ``state``; every session has its own
episode, any number at once. Actions:

* ``{"type": "message", "content": …, "tool_calls": [...]}`` — the policy's message, an OpenAI
  assistant message (the step protocol's :meth:`~lifebench.rl.StepSession.step`);
* ``{"type": "list_tools"}`` / ``{"type": "call_tool", "tool_name": …, "arguments": {…}}`` —
  the MCP way (OpenEnv RFC 003): the task's tools plus ``send_message_to_user``,
  ``read_conversation`` and ``finish`` (:mod:`lifebench.rl._agent_tools`).

The observation carries the prompt (``messages``, ``tools``), the trajectory messages added
(``new_messages``), and at the end the reward with its components. openenv-core leaves an
observation's ``metadata`` out of what it sends, so the components travel in the
``reward_components`` field (and in ``metadata`` for in-process users). ``reward`` is null
until the end, and at the end unless the episode was graded (never a 0 for a failed judge).

With a :class:`~lifebench.rl._record.RunRecorder`, every episode that ends is stored as a unit
of its run directory (with the model calls of the user simulator, tool simulator and judge,
and the briefing), and resets without a trial continue after the trials it holds.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any, Literal

from openenv.core.env_server.http_server import create_fastapi_app
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import Action, EnvironmentMetadata, State
from openenv.core.env_server.types import Observation as OpenEnvObservation
from pydantic import Field

from lifebench.errors import InputError
from lifebench.rl._agent_tools import call_tool, tool_specs
from lifebench.rl._env import EpisodeOver, StepEnvironment, StepSession
from lifebench.rl._record import RunRecorder
from lifebench.rl._types import Observation


class LifebenchAction(Action):
    """The policy's message (``type: message``), or an MCP-style tool action."""

    type: Literal["message", "list_tools", "call_tool"] = Field(
        "message", description="message | list_tools | call_tool (RFC 003)."
    )
    role: Literal["assistant"] = Field(
        "assistant", description="message: an OpenAI assistant message's role (optional)."
    )
    content: str | None = Field(None, description="message: the text of the message.")
    tool_calls: list[dict[str, Any]] = Field(
        default_factory=list, description="message: OpenAI tool calls."
    )
    reasoning_content: str | None = Field(None, description="message: the model's reasoning.")
    tool_name: str | None = Field(None, description="call_tool: the tool to call.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="call_tool: arguments.")


class LifebenchObservation(OpenEnvObservation):
    """An episode's observation (see :class:`lifebench.rl.Observation`), plus the answers of
    the MCP-style actions."""

    task_id: str = ""
    trial: int = 0
    seed: int = 0
    role: str | None = Field(None, description="assistant | user | None once done.")
    messages: list[dict[str, Any]] = Field(default_factory=list, description="The prompt.")
    tools: list[dict[str, Any]] = Field(default_factory=list, description="Tool schemas offered.")
    new_messages: list[dict[str, Any]] = Field(default_factory=list)
    termination: str | None = None
    status: str | None = Field(None, description="At the end: graded, ungradable, …")
    reward_components: dict[str, Any] | None = Field(
        None, description="At the end: the outcome (every basis and criterion, tool errors…)."
    )
    mcp_tools: list[dict[str, Any]] = Field(
        default_factory=list, description="list_tools: the tools, MCP style."
    )
    tool_result: str | None = Field(None, description="call_tool: what the tool returned.")
    tool_error: bool = Field(False, description="call_tool: the call failed.")


class LifebenchState(State):
    """Where the session's episode stands."""

    task_id: str | None = None
    trial: int | None = None
    seed: int | None = None
    done: bool = False
    termination: str | None = None
    reward: float | None = None


class _Shared:
    """What every session of one server shares: the environment, the order in which resets
    without a task id visit the tasks, the next trial of each task, and the run directory
    the episodes are stored in (if any)."""

    def __init__(self, env: StepEnvironment, recorder: RunRecorder | None = None) -> None:
        self.env = env
        self.turn = itertools.count()
        self.trials: Counter[str] = Counter()
        self.recorder = recorder

    def next_trial(self, task_id: str) -> int:
        """The next trial of ``task_id``: after those played here and those stored."""
        if task_id not in self.trials and self.recorder is not None:
            self.trials[task_id] = self.recorder.next_trial(task_id)
        return self.trials[task_id]


class LifebenchEnvironment(Environment[LifebenchAction, LifebenchObservation, LifebenchState]):
    """One OpenEnv session: one episode at a time of the shared step environment."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, shared: _Shared) -> None:
        super().__init__()
        self._shared = shared
        self._session: StepSession | None = None
        self._episode_id: str | None = None
        self._stored = False

    def get_metadata(self) -> EnvironmentMetadata:
        """Name and description."""
        options = self._shared.env.options
        return EnvironmentMetadata(
            name=f"lifebench-{options.suite}-{options.domain}",
            description=f"lifebench {options.suite} ({options.domain}): "
            f"{len(self._shared.env.task_ids)} tasks, reward = {' × '.join(self._shared.env.bases)}",
            version=_version(),
        )

    def reset(self, seed: int | None = None, episode_id: str | None = None, **kwargs: Any) -> Any:
        """Use the asynchronous API (the server does)."""
        raise RuntimeError("the lifebench environment is asynchronous: use reset_async")

    def step(self, action: Any, timeout_s: float | None = None, **kwargs: Any) -> Any:
        """Use the asynchronous API (the server does)."""
        raise RuntimeError("the lifebench environment is asynchronous: use step_async")

    async def reset_async(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        task_id: str | None = None,
        trial: int | None = None,
        **kwargs: Any,
    ) -> LifebenchObservation:
        """Start an episode of ``task_id`` (default: the server's tasks in turn), trial
        ``trial`` (default: the task's next one on this server), seeded with ``seed`` (default:
        the run's seed of that trial)."""
        shared = self._shared
        ids = shared.env.task_ids
        if task_id is None:
            task_id = ids[next(shared.turn) % len(ids)]
        if trial is None:
            trial = shared.next_trial(task_id)
        shared.trials[task_id] = max(shared.next_trial(task_id), trial + 1)
        self._session = await shared.env.reset(task_id, trial, seed)
        self._episode_id = episode_id or f"{task_id}#{trial}"
        self._stored = False
        return self._observe(self._session.observation())

    def _observe(self, obs: Observation, *, keep_new: bool = True) -> LifebenchObservation:
        """The OpenEnv form of ``obs``; an episode that has ended is stored first (once)."""
        session, recorder = self._session, self._shared.recorder
        if obs.done and not self._stored and session is not None and recorder is not None:
            recorder.record(session)
            self._stored = True
        return _openenv_observation(obs, keep_new=keep_new)

    async def step_async(
        self, action: LifebenchAction, timeout_s: float | None = None, **kwargs: Any
    ) -> LifebenchObservation:
        """Play ``action`` (see the module docstring)."""
        session = self._session
        if session is None:
            raise EpisodeOver("no episode: send reset first")
        if action.type == "list_tools":
            obs = self._observe(session.observation(), keep_new=False)
            obs.mcp_tools = tool_specs(session)
            return obs
        if action.type == "call_tool":
            if not action.tool_name:
                raise InputError("call_tool needs tool_name", field="tool_name")
            reply = await call_tool(session, action.tool_name, action.arguments)
            obs = self._observe(session.observation())
            obs.tool_result, obs.tool_error = reply.text, reply.is_error
            return obs
        message = {
            "role": "assistant",
            "content": action.content,
            "tool_calls": action.tool_calls,
            "reasoning_content": action.reasoning_content,
        }
        return self._observe(await session.step(message))

    @property
    def state(self) -> LifebenchState:
        """The session's episode: task, trial, seed, whether it is done and how it ended."""
        session = self._session
        if session is None:
            return LifebenchState()
        outcome = session.outcome
        return LifebenchState(
            episode_id=self._episode_id,
            step_count=session.episode_steps,
            task_id=session.task_id,
            trial=session.trial,
            seed=session.seed,
            done=session.done,
            termination=outcome.termination.value if outcome is not None else None,
            reward=outcome.reward if outcome is not None else None,
        )


def _version() -> str:
    from lifebench import __version__

    return __version__


def _openenv_observation(obs: Observation, *, keep_new: bool = True) -> LifebenchObservation:
    outcome = obs.outcome.model_dump(mode="json") if obs.outcome is not None else None
    return LifebenchObservation(
        done=obs.done,
        reward=obs.reward,
        metadata={"reward_components": outcome} if outcome is not None else {},
        task_id=obs.task_id,
        trial=obs.trial,
        seed=obs.seed,
        role=obs.role,
        messages=obs.messages,
        tools=obs.tools,
        new_messages=[m.model_dump(mode="json") for m in obs.new_messages] if keep_new else [],
        termination=obs.outcome.termination.value if obs.outcome is not None else None,
        status=obs.outcome.status if obs.outcome is not None else None,
        reward_components=outcome,
    )


def create_openenv_app(
    env: StepEnvironment, *, max_sessions: int = 1024, recorder: RunRecorder | None = None
) -> Any:
    """The OpenEnv FastAPI app serving ``env``'s episodes, ``max_sessions`` sessions at once,
    each ended episode stored by ``recorder`` (its owner closes it). The environment's models
    are closed when the app shuts down."""
    shared = _Shared(env, recorder)
    app = create_fastapi_app(
        lambda: LifebenchEnvironment(shared),
        LifebenchAction,
        LifebenchObservation,
        max_concurrent_envs=max_sessions,
    )

    async def close_models() -> None:
        await env.aclose()

    app.router.on_shutdown.append(close_models)
    return _QuietClose(app)


class _QuietClose:
    """The app, minus one error: openenv-core's WebSocket handler closes a socket the client
    already closed and lets Starlette's ``WebSocketDisconnect`` escape, which the server
    would log as an error after every session that ends normally."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        from starlette.websockets import WebSocketDisconnect

        try:
            await self.app(scope, receive, send)
        except WebSocketDisconnect:
            if scope.get("type") != "websocket":
                raise

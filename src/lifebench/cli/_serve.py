"""``lifebench serve``: a suite's episodes as an OpenEnv server or an MCP tool server."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any

import typer

from lifebench.cli._common import err_console, run_async, user_errors
from lifebench.cli._help import HelpGroup
from lifebench.cli._rollout import (
    Domain,
    EvaluatorKind,
    JudgeModel,
    Language,
    MaxErrors,
    MaxSteps,
    ModelsFile,
    NumTasks,
    RecordRequests,
    Seed,
    Suite,
    TaskIds,
    Tasks,
    TaskSet,
    Temperature,
    ToolModel,
    UserKind,
    UserModel,
    episode_values,
)
from lifebench.errors import LifebenchError

app = typer.Typer(
    cls=HelpGroup,
    help="Serve a suite's episodes to trainers (OpenEnv) or MCP client agents.",
    no_args_is_help=True,
)

MCP_CLIENT = "mcp-client"
"""The agent model named in the configuration of a run played by an MCP client."""


def _need(module: str, extra: str) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise LifebenchError(
            f"lifebench serve {extra} needs the {extra} extra: pip install 'lifebench[{extra}]'"
        )


def openenv(
    ctx: typer.Context,
    suite: Suite = "vita",
    domain: Domain = None,
    tasks: Tasks = None,
    task_set: TaskSet = "auto",
    task_ids: TaskIds = None,
    num_tasks: NumTasks = None,
    user: UserKind = None,
    evaluator: EvaluatorKind = None,
    user_model: UserModel = None,
    judge_model: JudgeModel = None,
    tool_model: ToolModel = None,
    models: ModelsFile = None,
    language: Language = "en",
    max_steps: MaxSteps = None,
    max_errors: MaxErrors = None,
    seed: Seed = 300,
    temperature: Temperature = 0.0,
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port on 127.0.0.1 (0: a free port, printed).")
    ] = 8000,
    max_sessions: Annotated[
        int, typer.Option(min=1, help="WebSocket sessions (episodes) at once.")
    ] = 1024,
    policy_plays_user: Annotated[
        bool,
        typer.Option(help="The policy also plays the user (the user simulator's prompts)."),
    ] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Store every ended episode as a unit of this run directory (show / view / "
            "report / eval work on it; resets without a trial continue after its trials); "
            "default: not stored."
        ),
    ] = None,
    record_requests: RecordRequests = True,
) -> None:
    """Serve the suite's episodes as an OpenEnv environment on 127.0.0.1 (WebSocket /ws;
    needs the openenv extra: pip install lifebench with openenv).

    reset takes task_id (default: the tasks in turn), trial (default: the task's next) and
    seed (default: the run's seed of that trial); a step is the policy's message, an OpenAI
    assistant message ({"type": "message", "content": …, "tool_calls": […]}), or an MCP-style
    action ({"type": "list_tools"}, {"type": "call_tool", "tool_name": …, "arguments": …}).
    The observation is the prompt the suite's agent would send its model (messages, tools);
    at the end it carries the reward and its components (reward_components). The user
    simulator, tool simulator and judge are the run's (offline ones by default). Options of
    the suite itself follow as --name VALUE (see lifebench run --help).
    """
    with user_errors():
        _need("openenv", "openenv")
        from lifebench.rl import StepEnvironment
        from lifebench.rl._serving import serve_forever
        from lifebench.rl.openenv import create_openenv_app

        values = episode_values(ctx, locals())
        env = StepEnvironment.build(values, policy_plays_user=policy_plays_user)
        recorder = None
        if out is not None:
            from lifebench.rl._record import RunRecorder

            recorder = RunRecorder(env, out, "lifebench serve openenv")
        try:
            app_ = create_openenv_app(env, max_sessions=max_sessions, recorder=recorder)
            stored = f"; episodes stored in {out}" if out is not None else ""

            def announce(address: str) -> None:
                typer.echo(
                    f"lifebench serve openenv: ws://{address}/ws (HTTP http://{address}; "
                    f"{len(env.task_ids)} tasks{stored}; Ctrl-C to stop)"
                )

            serve_forever(app_, port, announce)
        finally:
            if recorder is not None:
                recorder.close()


def mcp(
    ctx: typer.Context,
    task: Annotated[str, typer.Option("--task", help="The task to serve (its id).")],
    suite: Suite = "vita",
    domain: Domain = None,
    tasks: Tasks = None,
    task_set: TaskSet = "auto",
    user: UserKind = None,
    evaluator: EvaluatorKind = None,
    user_model: UserModel = None,
    judge_model: JudgeModel = None,
    tool_model: ToolModel = None,
    models: ModelsFile = None,
    language: Language = "en",
    max_steps: MaxSteps = None,
    max_errors: MaxErrors = None,
    seed: Seed = 300,
    temperature: Temperature = 0.0,
    transport: Annotated[
        str, typer.Option(help="stdio (the client starts this command) | http (streamable).")
    ] = "stdio",
    port: Annotated[
        int,
        typer.Option(min=0, max=65535, help="With --transport http: port on 127.0.0.1 (0: free)."),
    ] = 8000,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Run directory the episodes are stored in (default: runs/mcp-<suite>-<task>-"
            "<hash>); an existing one with the same options is continued."
        ),
    ] = None,
    record_requests: RecordRequests = True,
) -> None:
    """Serve one task to an MCP client agent (needs the mcp extra): the task's
    tools, send_message_to_user (the simulated user answers), read_conversation, and finish
    (ends the conversation and returns the reward with the evidence of each criterion); the
    prompt 'task' holds the agent's instructions and the conversation so far.

    One episode at a time: finish (or the conversation ending) stores it as the next trial of
    the run directory — lifebench show / view / report / eval work on it — and the next call
    starts a new one. Over stdio nothing but the protocol is written to stdout.
    """
    with user_errors():
        _need("mcp", "mcp")
        if transport not in ("stdio", "http"):
            raise LifebenchError(f"--transport must be stdio or http, not {transport!r}")
        from lifebench.rl import StepEnvironment
        from lifebench.rl._record import RunRecorder
        from lifebench.rl.mcp_server import EpisodeServer

        task_ids = [task]
        values = episode_values(ctx, locals())
        values["agent_model"] = MCP_CLIENT
        env = StepEnvironment.build(values, policy_name=MCP_CLIENT)
        run_dir = out or _default_dir(env, task)
        recorder = RunRecorder(env, run_dir, "lifebench serve mcp")
        try:
            server = EpisodeServer(env, task, recorder)
            if transport == "stdio":
                err_console().print(
                    f"lifebench serve mcp: task {task} over stdio; episodes stored in {run_dir}",
                    highlight=False,
                )
                run_async(server.run_stdio)
            else:
                from lifebench.rl._serving import serve_forever

                def announce(address: str) -> None:
                    typer.echo(
                        f"lifebench serve mcp: http://{address}/mcp (task {task}; episodes "
                        f"stored in {run_dir}; Ctrl-C to stop)"
                    )

                serve_forever(server.http_app(), port, announce)
        finally:
            recorder.close()


def _default_dir(env: Any, task: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", task)[:60]
    return Path("runs") / f"mcp-{env.options.suite}-{safe}-{env.options.config_hash()[:10]}"

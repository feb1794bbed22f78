"""``lifebench rollout``: a policy model plays a suite's episodes; one JSON line per episode.

The options that choose the tasks and the environment's models are ``lifebench run``'s; they
are declared once here (as annotated types) and shared with ``lifebench serve``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from lifebench.cli._common import EXIT_UNITS_FAILED, fail, run_async, user_errors

Suite = Annotated[str, typer.Option(help="Suite (see the suite options below).")]
Domain = Annotated[
    str | None,
    typer.Option(help="Domain of the suite (default: the one the --tasks file declares)."),
]
Tasks = Annotated[
    Path | None, typer.Option("--tasks", help="Official task file (default: bundled tasks).")
]
TaskSet = Annotated[
    str, typer.Option(help="Without --tasks: generated | demo | auto (generated if shipped).")
]
TaskIds = Annotated[
    list[str] | None,
    typer.Option("--task-ids", help="Only these task ids (repeat, or comma/space separated)."),
]
NumTasks = Annotated[int | None, typer.Option(help="Only the first N selected tasks.")]
Trials = Annotated[int, typer.Option(min=1, help="Episodes per task.")]
UserKind = Annotated[
    str | None,
    typer.Option(
        help="User-simulator kind (default: llm with --user-model, else the suite's offline user)."
    ),
]
EvaluatorKind = Annotated[str | None, typer.Option(help="Evaluator kind (default: the suite's).")]
UserModel = Annotated[str | None, typer.Option(help="User-simulator model.")]
JudgeModel = Annotated[str | None, typer.Option(help="Judge model.")]
ToolModel = Annotated[
    str | None, typer.Option(help="Tool-simulator model (suites whose tools it answers).")
]
ModelsFile = Annotated[
    Path | None, typer.Option("--models", help="Models config file (YAML or JSON).")
]
Language = Annotated[str, typer.Option(help="en | zh: prompts and tool descriptions.")]
MaxSteps = Annotated[
    int | None, typer.Option(min=1, help="Step limit per episode (default: the suite's).")
]
MaxErrors = Annotated[
    int | None, typer.Option(min=1, help="Tool-error limit per episode (default: the suite's).")
]
Seed = Annotated[int, typer.Option(help="Run seed; per-episode seeds derive from it.")]
Temperature = Annotated[float, typer.Option(help="Sampling temperature of every role.")]
RecordRequests = Annotated[
    bool,
    typer.Option(
        help="In the run directory: store every model call's request and response and each "
        "episode's prompts and tools (as lifebench run does; shown by show / view / export)."
    ),
]


def split_ids(values: list[str] | None) -> tuple[str, ...]:
    """Task ids given as repeated, comma- or space-separated values."""
    out: list[str] = []
    for v in values or []:
        out.extend(p for p in v.replace(",", " ").split() if p)
    return tuple(out)


SHARED = (
    "suite",
    "domain",
    "tasks",
    "task_set",
    "task_ids",
    "num_tasks",
    "trials",
    "user",
    "evaluator",
    "user_model",
    "judge_model",
    "tool_model",
    "models",
    "language",
    "concurrency",
    "max_steps",
    "max_errors",
    "seed",
    "temperature",
    "record_requests",
)
"""The command-line parameters, shared with ``lifebench run``, that make the run options."""


def episode_values(ctx: typer.Context, params: Mapping[str, Any]) -> dict[str, Any]:
    """Run options (as ``make_run_options`` takes them) from a command's parameters (its
    ``locals()``: those named in :data:`SHARED` are taken) and the suite's own flags left in
    ``ctx.args``."""
    from lifebench.cli._suite_flags import parse_suite_flags
    from lifebench.suites import options_model

    suite = str(params["suite"])
    values = {name: params[name] for name in SHARED if name in params}
    values["suite_options"] = parse_suite_flags(ctx.args, options_model(suite), suite)
    values["tasks_file"] = str(values.pop("tasks")) if values.get("tasks") else None
    values["task_ids"] = split_ids(values.get("task_ids"))
    models = values.pop("models", None)
    values["models_file"] = str(models) if models else None
    for kind in ("user", "evaluator"):
        values[kind] = values.get(kind) or ""
    return values


def rollout(
    ctx: typer.Context,
    policy_model: Annotated[
        str,
        typer.Option(
            help="The policy: a name from --models or MODEL@BASE_URL (any OpenAI-compatible "
            "endpoint, e.g. the one a trainer serves)."
        ),
    ],
    out: Annotated[
        Path, typer.Option(help="JSONL file: one record per episode (trajectory, reward, …).")
    ],
    suite: Suite = "vita",
    domain: Domain = None,
    tasks: Tasks = None,
    task_set: TaskSet = "auto",
    task_ids: TaskIds = None,
    num_tasks: NumTasks = None,
    trials: Trials = 1,
    user: UserKind = None,
    evaluator: EvaluatorKind = None,
    user_model: UserModel = None,
    judge_model: JudgeModel = None,
    tool_model: ToolModel = None,
    models: ModelsFile = None,
    language: Language = "en",
    concurrency: Annotated[int, typer.Option(min=1, help="Episodes played at once.")] = 8,
    max_steps: MaxSteps = None,
    max_errors: MaxErrors = None,
    seed: Seed = 300,
    temperature: Temperature = 0.0,
    overwrite: Annotated[bool, typer.Option(help="Replace --out if it exists.")] = False,
    run_dir: Annotated[
        Path | None,
        typer.Option(
            help="Also store every episode as a unit of this run directory (show / view / "
            "report / eval work on it); an existing one with the same options is continued."
        ),
    ] = None,
    record_requests: RecordRequests = True,
) -> None:
    """Let a policy model play the episodes of a suite and write one JSON line per episode:
    the trajectory, the reward, every component behind it (each basis, each criterion with its
    evidence, tool errors, steps) and the termination.

    The policy is asked exactly what the suite's agent asks its model (``lifebench run
    --agent-model``): point --policy-model at the endpoint a trainer serves or intercepts.
    The user simulator, tool simulator and judge are the run's (offline ones by default), so
    a record's reward is the one ``lifebench run`` gives the same trajectory. A record whose
    episode could not be graded (a judge failed, the task has nothing to check, a model
    failed) has ``reward: null`` and a ``status`` saying why — never a 0. No model calls are
    cached. Options of the suite itself follow as --name VALUE (see ``lifebench run --help``).

    Exit codes: 0 every episode graded or ungradable; 1 some episodes ended in an
    infrastructure error or their grading failed; 2 bad input; 3 a provider refuses every
    call.
    """
    with user_errors():
        from lifebench.rl import write_rollouts
        from lifebench.suites import make_run_options

        if out.exists() and not overwrite:
            raise fail(f"{out} exists; choose another --out or add --overwrite", 2)
        values = episode_values(ctx, locals())
        values.update(agent="llm", agent_model=policy_model, cache=False)
        options = make_run_options(values)
        records = run_async(lambda: write_rollouts(options, out, run_dir=run_dir))
    statuses = [r.status for r in records]
    rewards = [r.reward for r in records if r.reward is not None]
    mean = f"{sum(rewards) / len(rewards):.4f}" if rewards else "n/a"
    typer.echo(
        f"{len(records)} episodes: {statuses.count('graded')} graded (mean reward {mean}), "
        f"{statuses.count('ungradable')} ungradable, {statuses.count('grading_failed')} "
        f"grading failed, {statuses.count('infrastructure_error')} infrastructure errors, "
        f"{statuses.count('rejected')} rejected; records in {out}"
    )
    if any(s in ("grading_failed", "infrastructure_error", "rejected") for s in statuses):
        raise typer.Exit(code=EXIT_UNITS_FAILED)

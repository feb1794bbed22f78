"""The TravelBench suite: plugs the ten tools, the sandbox, the agents, the users and the judge
into the core."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lifebench._util.text import Language
from lifebench.errors import InputError
from lifebench.evaluation import Evaluator
from lifebench.models import GenerateConfig
from lifebench.simulation import Agent, Episode, Limits, LLMAgent, NoopAgent, UserSimulator
from lifebench.suites import MetricKind, RunOptions, required_model
from lifebench.suites._registry import ModelResolver
from lifebench.suites._tables import Finding, StatsTable
from lifebench.tools import ToolSet
from lifebench.travel.options import TravelOptions
from lifebench.travel.sandbox import Sandbox, SandboxConfig
from lifebench.travel.task import TravelTask, effective_subset

if TYPE_CHECKING:
    from lifebench.metrics import OfficialComparison

DOMAIN = "travel"
DEFAULT_TIME = "2025-10-24 10:00"
_NOOP_REPLY = {"zh": "抱歉，这个我帮不了你。", "en": "Sorry, I can't help with that."}


class TravelSuite:
    """TravelBench: one domain ("travel"); the subset is per row (see ``--subset``)."""

    name = "travel"
    options_model = TravelOptions

    def __init__(self) -> None:
        self._sandboxes: dict[tuple[Any, ...], Sandbox] = {}

    def domains(self) -> Sequence[str]:
        """The only domain."""
        return (DOMAIN,)

    def resolve_domain(self, source: Path | None, requested: str | None) -> str:
        """Always "travel" (the subset, not the domain, varies: ``--subset``)."""
        if requested not in (None, DOMAIN):
            raise InputError(
                f"suite travel has one domain, 'travel' (got '{requested}'); choose the subset "
                "with --subset single|multi|unsolvable",
                field="--domain",
            )
        return DOMAIN

    def load_tasks(
        self, source: Path | None, domain: str, language: Language, task_set: str = "auto"
    ) -> list[Any]:
        """Rows of an official file (``source``), or every bundled row of ``language``."""
        from lifebench.travel.loader import load_bundled, load_tasks

        self.resolve_domain(source, domain)
        if source is not None:
            return list(load_tasks(source))
        return list(load_bundled(language))

    def load_run_tasks(self, source: Path | None, domain: str, options: RunOptions) -> list[Any]:
        """The run's rows: a folder needs ``--subset all`` (its three official files in one
        run); with ``--subset all`` every row's id is keyed by its subset."""
        from lifebench.travel.loader import keyed_by_subset

        subset = options.options_for(TravelOptions).subset
        if source is not None and source.is_dir() and subset != "all":
            raise InputError(
                "--tasks is a folder: run its three official files together with --subset all, "
                "or give one file",
                file=str(source),
                field="--subset",
            )
        tasks = self.load_tasks(source, domain, options.language, options.task_set)
        return [keyed_by_subset(t) for t in tasks] if subset == "all" and source else tasks

    def lint(self, tasks: Sequence[Any]) -> Sequence[Finding]:
        """Data problems of the rows (``tasks validate``)."""
        from lifebench.travel.lint import lint_tasks

        return lint_tasks(tasks)

    def stats(self, sources: Sequence[Path], domain: str | None, language: Language) -> StatsTable:
        """Subset mix, intents, context blocks and sizes per file (bundled sets when none)."""
        from lifebench.travel.loader import load_bundled, load_tasks
        from lifebench.travel.stats import stats_table, task_stats

        if sources:
            sets = [(str(f), load_tasks(f)) for f in sources]
        else:
            sets = [(f"(bundled {language})", load_bundled(language))]
        return stats_table([task_stats(tasks, source) for source, tasks in sets])

    def parse_task(self, data: str) -> TravelTask:
        """A row from its stored JSON."""
        return TravelTask.model_validate_json(data)

    def toolset(self, domain: str, language: Language, task: Any | None = None) -> ToolSet:
        """The ten tools over the offline world (at ``task``'s time, else a fixed date)."""
        from lifebench.travel.environment import TravelEnvironment

        self.resolve_domain(None, domain)
        time = task.time if isinstance(task, TravelTask) else DEFAULT_TIME
        return TravelEnvironment(Sandbox(SandboxConfig()), time, language).tools

    def toolset_at(
        self, domain: str, language: Language, time: str, task: Any | None = None
    ) -> ToolSet:
        """The ten tools over the offline world at instance time ``time`` ("YYYY-MM-DD HH:MM";
        ``lifebench tools call --time``)."""
        from lifebench.travel.environment import TravelEnvironment
        from lifebench.travel.task import parse_time

        self.resolve_domain(None, domain)
        try:
            parse_time(time)
        except ValueError as exc:
            raise InputError(str(exc), field="--time") from None
        return TravelEnvironment(Sandbox(SandboxConfig()), time.strip(), language).tools

    def sandbox(self, options: RunOptions, models: ModelResolver) -> Sandbox:
        """The run's sandbox (one per distinct configuration, shared by the run's episodes)."""
        travel = options.options_for(TravelOptions)
        backend = travel.backend(options)
        memo: Path | None = None
        if backend == "simulate":
            memo = Path(travel.sandbox_memo) if travel.sandbox_memo else run_directory(options)
        config = SandboxConfig(
            backend=backend,
            cache_dir=Path(travel.sandbox_cache) if travel.sandbox_cache else None,
            normalize_keys=travel.normalize_keys,
            memo_dir=memo,
            examples=travel.simulator_examples,
            temperature=options.temperature,
        )
        key = (config, options.tool_model if backend == "simulate" else None)
        if key not in self._sandboxes:
            model = None
            if backend == "simulate":
                model = required_model(models, options.tool_model, "tool")
            self._sandboxes[key] = Sandbox(config, model)
        return self._sandboxes[key]

    def build_episode(
        self, task: Any, trial: int, seed: int, options: RunOptions, models: ModelResolver
    ) -> Episode:
        """Environment, agent and user for one (row, trial)."""
        from lifebench.travel import prompts
        from lifebench.travel.agents import ScriptedTravelAgent
        from lifebench.travel.environment import TravelEnvironment
        from lifebench.travel.user import TravelUser, scripted_multi_user, single_turn_user

        travel = options.options_for(TravelOptions)
        subset = effective_subset(task, options)
        language: Language = task.language
        env = TravelEnvironment(self.sandbox(options, models), task.time, language)
        config = GenerateConfig(temperature=options.temperature, seed=seed)
        agent: Agent
        if options.agent == "scripted":
            agent = ScriptedTravelAgent(task, subset)
        elif options.agent == "noop":
            agent = NoopAgent(_NOOP_REPLY[language])
        else:
            agent = LLMAgent(
                required_model(models, options.agent_model, "agent"),
                prompts.agent_prompt(subset, task.context, task.time, language),
                env.tools.openai_schemas(language),
                config,
            )
        user: UserSimulator
        multi = subset == "multi"
        if not multi:
            user = single_turn_user(task.query)
        elif options.user == "scripted":
            user = scripted_multi_user(task)
        else:
            user = TravelUser.for_task(
                required_model(models, options.user_model, "user"), task, language, config
            )
        return Episode(
            task_id=task.id,
            trial=trial,
            seed=seed,
            environment=env,
            agent=agent,
            user=user,
            limits=Limits(
                max_steps=options.max_steps,
                max_errors=options.max_errors,
                max_turns=travel.max_turns if multi else 1,
                reply_after_last_turn=multi,
                max_agent_calls_per_turn=travel.max_agent_calls,
            ),
            greeting=None,
            user_stop_tokens=(prompts.FINISH,),
        )

    def build_evaluators(self, options: RunOptions, models: ModelResolver) -> dict[str, Evaluator]:
        """The travel evaluator (judge for single/multi rows, the [Unsolved] rule otherwise)."""
        from lifebench.travel import grading

        return grading.build_evaluators(options, models)

    def reward_bases(self, options: RunOptions) -> list[str]:
        """The bases whose product is the reward."""
        from lifebench.travel import grading

        return grading.reward_bases(options)

    def compared_metrics(self, config: Mapping[str, Any]) -> Mapping[str, MetricKind]:
        """:class:`~lifebench.suites.ComparedMetrics`: the TravelBench score (penalised and
        raw, 0-100) and the accuracy on unsolvable rows."""
        return {"score": "score", "raw_score": "score", "unsolved_accuracy": "success"}

    def report_metrics(
        self, records: Sequence[Any], config: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        """Per-subset scores, raw vs penalised, tool-error and cache rates."""
        from lifebench.travel import grading

        return grading.report_metrics(records, config)

    def report_tables(
        self, metrics: Mapping[str, Any], config: Mapping[str, Any]
    ) -> list[StatsTable]:
        """Subset scores with the overall (raw, penalised, tool errors, grading failures), the
        judge's dimensions per subset, and notes (unsolved accuracy, meta-judge, sandbox)."""
        from lifebench.travel.grading.tables import report_tables

        return report_tables(metrics)

    def defines_success(self, config: Mapping[str, Any]) -> bool:
        """No: a trajectory earns a 0–100 score (the unsolvable subset's right/wrong is
        averaged into the same kind of number)."""
        return False

    def official_comparison(
        self, records: Sequence[Any], config: Mapping[str, Any]
    ) -> OfficialComparison:
        """The official TravelBench numbers (subsets and overall) beside lifebench's."""
        from lifebench.travel.grading.report import official_comparison

        return official_comparison(records, config)


def run_directory(options: RunOptions) -> Path:
    """The run directory of ``options`` (``--out``, else the runner's default name)."""
    from lifebench.runner._experiment import default_run_dir

    return Path(options.out) if options.out else default_run_dir(options)

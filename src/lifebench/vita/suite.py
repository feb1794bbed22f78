"""The VitaBench suite: plugs its domains, prompts, oracle and evaluators into the core."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lifebench._util.text import Language
from lifebench.environment import Environment
from lifebench.errors import InputError
from lifebench.evaluation import Evaluator
from lifebench.models import GenerateConfig
from lifebench.simulation import (
    Agent,
    Episode,
    Limits,
    LLMAgent,
    LLMUser,
    NoopAgent,
    ScriptedUser,
    UserSimulator,
)
from lifebench.suites import RunOptions, required_model
from lifebench.suites._registry import ModelResolver
from lifebench.suites._tables import Finding, StatsTable
from lifebench.tools import ToolSet
from lifebench.vita import prompts
from lifebench.vita.agents.oracle import OracleAgent
from lifebench.vita.domains import _calendar
from lifebench.vita.domains.registry import (
    CROSS,
    available_domains,
    domain_spec,
    resolve,
    serves,
    task_domain,
)
from lifebench.vita.grading.rubric import BASIS_OF_VARIANT, RubricJudge
from lifebench.vita.loader import (
    TaskSet,
    available_bundled_tasks,
    load_bundled_tasks,
    load_tasks,
)
from lifebench.vita.options import VitaOptions
from lifebench.vita.task import VitaTask
from lifebench.vita.timefmt import parse_time

if TYPE_CHECKING:
    from lifebench.metrics import OfficialComparison


def _task_clock(task: Any) -> datetime | None:
    environment = getattr(task, "environment", None)
    clock = environment.get("time") if isinstance(environment, Mapping) else None
    return parse_time(clock)


def _empty_task(domain: str) -> VitaTask:
    return VitaTask(
        id="(none)", domain=domain, environment={"time": "2025-01-01 12:00:00", "user_id": ""}
    )


class VitaSuite:
    """VitaBench: each domain plugs an environment, an oracle planner and a state grader."""

    name = "vita"
    options_model = VitaOptions

    def __init__(self) -> None:
        # Per suite instance (one per run): what every episode of a domain shares.
        self._environments: dict[str, Any] = {}
        self._schemas: dict[tuple[Any, ...], tuple[dict[str, Any], ...]] = {}
        self._holidays = _calendar.HolidayCalendar()

    def domains(self) -> Sequence[str]:
        """Domains whose parts are installed."""
        return tuple(available_domains())

    def _check_domain(self, domain: str) -> None:
        domain_spec(domain)

    DEFAULT_DOMAIN = "delivery"
    """The domain of a run without a task file (bundled tasks) and without ``--domain``."""

    def resolve_domain(self, source: Path | None, requested: str | None) -> str:
        """The domain a run uses: ``requested`` if given (checked), else the one the tasks of
        ``source`` declare (their ``domain`` label, or their tables when the label is
        unknown): one domain → it; several → ``cross`` (which serves every domain); none, or
        no file → ``delivery``.

        Raises:
            InputError: ``requested`` is no available domain, the file cannot be loaded, or
                its tasks declare domains no single available environment can run.
        """
        if requested is not None:
            self._check_domain(requested)
            return requested
        if source is None:
            return self.DEFAULT_DOMAIN
        declared = {
            d for t in load_tasks(source) if (d := task_domain(t.domain, t.environment)) is not None
        }
        if not declared:
            return self.DEFAULT_DOMAIN
        domain = declared.pop() if len(declared) == 1 else CROSS
        if domain not in available_domains():
            kinds = ", ".join(sorted(declared | {domain}))
            raise InputError(
                f"the tasks declare domain(s) {kinds}, which no available environment can run "
                f"(available: {', '.join(available_domains())}); choose one with --domain",
                file=str(source),
                field="domain",
            )
        return domain

    def check_domains(self, tasks: Sequence[VitaTask], domain: str, source: str) -> None:
        """Refuse the first task whose domain an environment of ``domain`` cannot run.

        Raises:
            InputError: naming the file, the task and the field ``domain``.
        """
        for task in tasks:
            declared = task_domain(task.domain, task.environment)
            if not serves(domain, declared):
                label = f"label '{task.domain}'" if task.domain.strip() else "by its tables"
                raise InputError(
                    f"the task belongs to the {declared} domain ({label}), which a run with "
                    f"--domain {domain} cannot serve: that environment has no {declared} tools "
                    f"or tables. Use --domain {declared} (or --domain {CROSS}), or leave "
                    "--domain out to use the domain the file declares",
                    file=source,
                    task_id=task.id,
                    field="domain",
                )

    def load_tasks(
        self, source: Path | None, domain: str, language: Language, task_set: str = "auto"
    ) -> list[Any]:
        """Official tasks from ``source``, or a bundled set: ``generated`` (100 certified tasks
        per domain), ``demo`` (a few hand-written ones), ``auto`` (generated where shipped).

        Raises:
            InputError: the tasks cannot be loaded, or one of them belongs to a domain the
                ``domain`` environment cannot run (:meth:`check_domains`).
        """
        self._check_domain(domain)
        if source is not None:
            tasks = list(load_tasks(source))
            self.check_domains(tasks, domain, str(source))
            return tasks
        if task_set == "auto":
            shipped = available_bundled_tasks("generated")
            task_set = "generated" if (domain, language) in shipped else "demo"
        kind: TaskSet = "demo" if task_set == "demo" else "generated"
        bundled = list(load_bundled_tasks(domain, language, kind))
        self.check_domains(bundled, domain, f"(bundled {kind} {domain}/{language} tasks)")
        return bundled

    def lint(self, tasks: Sequence[Any]) -> Sequence[Finding]:
        """Data problems of the tasks (``tasks validate``)."""
        from lifebench.vita.lint import lint_tasks

        return lint_tasks(tasks)

    def stats(self, sources: Sequence[Path], domain: str | None, language: Language) -> StatsTable:
        """Tables 2 and 5 of the paper for each file (every bundled set when none)."""
        from lifebench.vita.loader import TASK_SETS
        from lifebench.vita.stats import infer_domain, stats_table, task_stats

        if sources:
            sets = [(str(f), list(load_tasks(f))) for f in sources]
        else:
            sets = [
                (f"(bundled {kind} {d} {language})", list(load_bundled_tasks(d, language, kind)))
                for kind in TASK_SETS
                for d, lng in available_bundled_tasks(kind)
                if lng == language and d in available_domains()
            ]
        rows = []
        for source, tasks in sets:
            dom = domain or infer_domain(tasks)
            rows.append(task_stats(tasks, dom, self.toolset(dom, language), source))
        return stats_table(rows)

    def parse_task(self, data: str) -> VitaTask:
        """A task from its stored JSON."""
        return VitaTask.model_validate_json(data)

    def environment(self, task: VitaTask, domain: str, language: Language) -> Environment:
        """A fresh environment over ``task``'s database (sharing the suite's holiday tables)."""
        factory = self._environments.get(domain)
        if factory is None:
            factory = self._environments[domain] = resolve(domain_spec(domain).environment)
        env: Environment = factory(task, language=language)
        from lifebench.vita.domains.common import SharedTools  # loaded with the factory

        if isinstance(env, SharedTools):
            env.holiday_calendar = self._holidays
        return env

    def warm_up(self, options: RunOptions, tasks: Sequence[Any]) -> None:
        """:class:`~lifebench.suites.RunWarmer`: with a model choosing the agent's tool calls,
        compute the public-holiday tables of the tasks' years (the first lookup imports the
        ``holidays`` package and builds a year: about 0.1 s). The oracle's calls are planned
        from the task, so its runs skip this."""
        if options.agent not in ("llm", "solo"):
            return
        years = [moment.year for t in tasks if (moment := _task_clock(t)) is not None]
        self._holidays.warm(years, options.language)

    def tool_schemas(self, env: Environment, language: Language) -> tuple[dict[str, Any], ...]:
        """The OpenAI schemas of ``env``'s tools, built once per environment class, language
        and tool list and shared by the episodes of the run: the same tuple each time, which a
        model serialises once (:class:`lifebench.models._wire.WireCache`); models never edit
        tool schemas in place."""
        key = (type(env), language, tuple(env.tools.names))
        schemas = self._schemas.get(key)
        if schemas is None:
            schemas = self._schemas[key] = tuple(env.tools.openai_schemas(language))
        return schemas

    def toolset(self, domain: str, language: Language, task: Any | None = None) -> ToolSet:
        """The domain's tools (over ``task``'s data, or an empty world)."""
        return self.environment(task or _empty_task(domain), domain, language).tools

    def build_episode(
        self, task: Any, trial: int, seed: int, options: RunOptions, models: ModelResolver
    ) -> Episode:
        """Environment, agent and user for one (task, trial)."""
        domain = options.domain_name
        env = self.environment(task, domain, options.language)
        config = GenerateConfig(temperature=options.temperature, seed=seed)
        lang = options.language
        now = str(task.environment.get("time", ""))
        agent: Agent
        if options.agent == "oracle":
            agent = OracleAgent(task, domain=domain, language=lang)
        elif options.agent == "noop":
            agent = NoopAgent()
        else:
            agent = LLMAgent(
                required_model(models, options.agent_model, "agent"),
                prompts.agent_prompt(now, lang, solo=options.agent == "solo"),
                self.tool_schemas(env, lang),
                config,
            )
        user: UserSimulator
        if options.user == "scripted":
            user = ScriptedUser([task.instructions])
        elif options.user == "dummy":
            user = LLMUser(
                required_model(models, options.user_model, "user"),
                prompts.dummy_user_prompt(task.instructions, lang),
                config,
            )
        else:
            user = LLMUser(
                required_model(models, options.user_model, "user"),
                prompts.user_prompt(task.user_scenario.user_profile, task.instructions, lang),
                config,
            )
        return Episode(
            task_id=task.id,
            trial=trial,
            seed=seed,
            environment=env,
            agent=agent,
            user=user,
            limits=Limits(max_steps=options.max_steps, max_errors=options.max_errors),
            greeting=prompts.GREETING[lang],
            solo=options.agent == "solo",
        )

    def build_evaluators(self, options: RunOptions, models: ModelResolver) -> dict[str, Evaluator]:
        """The domain's ``state`` evaluator, always (it is cheap and deterministic), plus the
        LLM judge when the reward basis asks for it."""
        from lifebench.vita._prepared import memoise_prepare  # with the graders

        evaluators: dict[str, Evaluator] = {
            # the task reading of the state grader is computed once per task, not per trial
            "state": memoise_prepare(resolve(domain_spec(options.domain_name).evaluator)()),
        }
        if options.evaluator in ("rubric", "both"):
            judge = self.judge(options, models)
            evaluators[judge.basis] = judge
        return evaluators

    def judge(self, options: RunOptions, models: ModelResolver) -> RubricJudge:
        """The rubric judge the options describe."""
        vita = options.options_for(VitaOptions)
        return RubricJudge(
            required_model(models, options.judge_model, "judge"),
            variant=vita.judge_variant,
            window=vita.window,
            overlap=vita.overlap,
            dedup=vita.rubric_dedup,
            language=options.language,
        )

    def report_metrics(
        self, records: Sequence[Any], config: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        """VitaBench reports only the core metrics."""
        return {}

    def official_comparison(
        self, records: Sequence[Any], config: Mapping[str, Any]
    ) -> OfficialComparison:
        """The official mean reward (the rubric judge's answers replayed officially) beside
        lifebench's."""
        from lifebench.vita.grading.official import official_comparison

        return official_comparison(records, config)

    def reward_bases(self, options: RunOptions) -> list[str]:
        """Bases whose product is the reward: state, the judge's basis, or both."""
        judge = BASIS_OF_VARIANT[options.options_for(VitaOptions).judge_variant]
        return {"state": ["state"], "rubric": [judge], "both": ["state", judge]}[options.evaluator]

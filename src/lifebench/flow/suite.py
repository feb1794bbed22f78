"""The FlowBench suite: plugs the knowledge base, the agents, the simulators and the turn- and
session-level evaluators into the core.

* ``--level turn``: one unit per :class:`TurnSample`; a static episode asks the agent once for
  the turn after the gold history; bases ``turn`` (tool / parameter / node counters, the reward)
  and, when judged, ``response``.
* ``--level session``: one unit per :class:`SessionTask`; the user (scripted or LLM) and the
  agent talk, the environment replays recorded returns or simulates; bases ``completion`` (the
  reward: success, progress) and ``session_tools``.

Domains: ``all`` (default) or one FlowBench domain, by its name in the data or its slug
(``customer-service``, ``travel-transportation``, …).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from lifebench._util.text import Language
from lifebench.errors import InputError
from lifebench.evaluation import Evaluator
from lifebench.flow.options import FlowOptions
from lifebench.suites import RunOptions, required_model
from lifebench.suites._registry import ModelResolver
from lifebench.suites._tables import Finding, StatsTable
from lifebench.tools import ToolSet

ALL = "all"


def slug(domain: str) -> str:
    """``Travel&Transportation`` → ``travel-transportation``."""
    return re.sub(r"[^a-z0-9]+", "-", domain.lower()).strip("-")


class FlowSuite:
    """FlowBench: workflow-guided planning at turn and session level."""

    name = "flow"
    options_model = FlowOptions

    def __init__(self) -> None:
        self._kbs: dict[tuple[str | None, str], Any] = {}

    # -- knowledge and tasks -------------------------------------------------------------

    def knowledge(self, path: str | None, language: Language) -> Any:
        """The knowledge base of ``--knowledge`` (bundled when None), loaded once per suite."""
        from lifebench.flow.kb import load_knowledge

        key = (path, language)
        if key not in self._kbs:
            self._kbs[key] = load_knowledge(path, language)
        return self._kbs[key]

    def domains(self) -> Sequence[str]:
        """``all`` and the slugs of the bundled knowledge base's domains."""
        try:
            kb = self.knowledge(None, "en")
        except InputError:
            return (ALL,)
        return (ALL, *(slug(d) for d in kb.domains()))

    def resolve_domain(self, source: Path | None, requested: str | None) -> str:
        """``requested`` (a domain name or slug; checked when the tasks load), else ``all``."""
        return slug(requested) if requested and slug(requested) != ALL else ALL

    def _filter(self, units: list[Any], domain: str, where: str) -> list[Any]:
        if domain == ALL:
            return units
        chosen = [u for u in units if slug(u.domain) == domain]
        if not chosen:
            known = sorted({slug(u.domain) for u in units if u.domain})
            raise InputError(
                f"no units of domain '{domain}'; the tasks have: {', '.join(known) or 'none'}",
                file=where,
                field="--domain",
            )
        return chosen

    def load_run_tasks(self, source: Path | None, domain: str, options: RunOptions) -> list[Any]:
        """The units of the run: turn samples or session tasks (``--level``), from ``source``
        or the bundled set of ``--setting``, in ``--language``."""
        from lifebench.flow.tasks import (
            bundled_session_tasks,
            bundled_turn_samples,
            detect_task_file,
            load_session_tasks,
            load_turn_samples,
        )

        fo = options.options_for(FlowOptions)
        lang = options.language
        if options.task_set == "demo":
            raise InputError("the flow suite ships no demo set", field="--task-set")
        if source is None:
            units: list[Any] = (
                list(bundled_turn_samples(lang, fo.setting))
                if fo.level == "turn"
                else list(bundled_session_tasks(lang, fo.setting))
            )
            return self._filter(units, domain, f"(bundled {fo.level} {fo.setting} {lang})")
        level = detect_task_file(source)
        if level != fo.level:
            raise InputError(
                f"this is a {level}-level file; run it with --level {level}",
                file=str(source),
                field="--level",
            )
        kb = self.knowledge(fo.knowledge, lang)
        loader = load_turn_samples if level == "turn" else load_session_tasks
        return self._filter(list(loader(source, kb, lang)), domain, str(source))

    def load_tasks(
        self, source: Path | None, domain: str, language: Language, task_set: str = "auto"
    ) -> list[Any]:
        """Units of ``source`` whatever their level (``tasks validate``; no knowledge base, so
        domains the file does not name stay unknown); without a source, the bundled
        single-scenario turn samples."""
        from lifebench.flow.tasks import (
            bundled_turn_samples,
            detect_task_file,
            load_session_tasks,
            load_turn_samples,
        )

        if source is None:
            return self._filter(list(bundled_turn_samples(language, "single")), domain, "(bundled)")
        loader = load_turn_samples if detect_task_file(source) == "turn" else load_session_tasks
        return self._filter(list(loader(source, None, language)), domain, str(source))

    def parse_task(self, data: str) -> Any:
        """A turn sample or a session task from its stored JSON."""
        import json

        from lifebench.flow.tasks import SessionTask, TurnSample

        if "user_summary" in json.loads(data):
            return SessionTask.model_validate_json(data)
        return TurnSample.model_validate_json(data)

    def lint(self, tasks: Sequence[Any]) -> Sequence[Finding]:
        """Data problems of the units (``tasks validate``)."""
        from lifebench.flow.lint import lint_units

        return lint_units(tasks)

    def stats(self, sources: Sequence[Path], domain: str | None, language: Language) -> StatsTable:
        """Nodes / edges / tools per scenario of the knowledge bases ``sources``."""
        from lifebench.flow.stats import suite_stats

        return suite_stats(sources, domain, language)

    def toolset(self, domain: str, language: Language, task: Any | None = None) -> ToolSet:
        """The tools of ``task``, or of every bundled scenario (offline answers)."""
        from lifebench.flow.simulators.environment import SessionTools

        if task is not None:
            return SessionTools(task.tools, getattr(task, "gold_calls", ()), task.datetime)
        kb = self.knowledge(None, language)
        defs = [t for s in kb.scenarios if domain in (ALL, slug(s.domain)) for t in s.tools]
        return SessionTools(defs, [], "")

    # -- episodes and evaluation ---------------------------------------------------------

    def build_episode(
        self, task: Any, trial: int, seed: int, options: RunOptions, models: ModelResolver
    ) -> Any:
        """A static turn episode or a simulated session for one (unit, trial)."""
        from lifebench.flow import episodes
        from lifebench.flow.simulators.environment import ToolSimulator
        from lifebench.flow.tasks import TurnSample
        from lifebench.models import GenerateConfig

        fo = options.options_for(FlowOptions)
        kb = self.knowledge(fo.knowledge, options.language)
        config = GenerateConfig(temperature=options.temperature, seed=seed)
        agent_model = (
            required_model(models, options.agent_model, "agent") if options.agent == "llm" else None
        )
        agent = episodes.build_agent(options.agent, task, kb, fo, options, agent_model, config)
        if isinstance(task, TurnSample):
            return episodes.turn_episode(
                task, trial, seed, agent, episodes.environment_tools(kb, task, fo.setting)
            )
        user_model = (
            required_model(models, options.user_model, "user") if options.user == "llm" else None
        )
        user = episodes.session_user(options.user, task, user_model, config, options.language)
        simulator = (
            ToolSimulator(required_model(models, options.tool_model, "tool"), seed=seed)
            if options.tool_model
            else None
        )
        return episodes.session_episode(
            task,
            trial,
            seed,
            agent,
            user,
            episodes.environment_tools(kb, task, fo.setting),
            simulator,
            options,
            fo.turn_cap,
        )

    def build_evaluators(self, options: RunOptions, models: ModelResolver) -> dict[str, Evaluator]:
        """Turn level: ``turn`` (+ ``response`` when judged). Session level: ``completion``
        (LLM judge or rules) and ``session_tools``."""
        from lifebench.flow.episodes import judge_workflow
        from lifebench.flow.evaluation.arguments import FuzzyJudge
        from lifebench.flow.evaluation.response import ResponseJudge
        from lifebench.flow.evaluation.session import (
            CompletionJudge,
            FailureClassifier,
            RuleCompletion,
            SessionToolsEvaluator,
        )
        from lifebench.flow.evaluation.turn import TurnEvaluator

        fo = options.options_for(FlowOptions)
        kb = self.knowledge(fo.knowledge, options.language)
        judged = options.evaluator == "judge"
        judge = required_model(models, options.judge_model, "judge") if judged else None
        fuzzy = FuzzyJudge(judge) if judge is not None and fo.fuzzy_match else None
        fmt = fo.knowledge_format

        def workflow(unit: Any) -> str:
            return judge_workflow(kb, unit)

        evaluators: dict[str, Evaluator] = {}
        if fo.level == "turn":
            evaluators["turn"] = TurnEvaluator(
                fuzzy, strict_params=fo.strict_params, knowledge_format=fmt
            )
            if judged or fo.response_judge:
                model = judge or required_model(models, options.judge_model, "judge")
                evaluators["response"] = ResponseJudge(model, workflow, knowledge_format=fmt)
            return evaluators
        classifier = (
            FailureClassifier(
                judge or required_model(models, options.judge_model, "judge"), workflow
            )
            if fo.failure_reasons
            else None
        )
        evaluators["session_tools"] = SessionToolsEvaluator(fuzzy, knowledge_format=fmt)
        evaluators["completion"] = (
            CompletionJudge(judge, workflow, knowledge_format=fmt, classifier=classifier)
            if judge is not None
            else RuleCompletion(knowledge_format=fmt, classifier=classifier)
        )
        return evaluators

    def reward_bases(self, options: RunOptions) -> list[str]:
        """``turn`` at turn level, ``completion`` at session level."""
        return ["turn"] if options.options_for(FlowOptions).level == "turn" else ["completion"]

    def report_metrics(
        self, records: Sequence[Any], config: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        """Turn level: tool / parameter P/R/F1, node accuracy, response score; session level:
        success rate, task progress, tool P/R/F1 — overall and per domain, role and format."""
        from lifebench.flow.evaluation.report import flow_report

        return flow_report(records, config)

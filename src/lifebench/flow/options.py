"""FlowBench's own run options (kept light: the CLI imports it to list and check them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import Field

from lifebench.suites._options import ModelRole, RoleChoices, SuiteOptions

if TYPE_CHECKING:
    from lifebench.suites._options import RunOptions

Level = Literal["turn", "session"]
KnowledgeFormat = Literal["none", "text", "code", "flowchart", "ensemble", "none-no-tools"]
Setting = Literal["single", "cross"]
AgentMode = Literal["react", "function-calling"]

KNOWLEDGE_FORMATS: tuple[KnowledgeFormat, ...] = (
    "none",
    "text",
    "code",
    "flowchart",
    "ensemble",
    "none-no-tools",
)

# The paper's session caps (Appendix C.1): 15 agent turns single-scenario, 20 cross-scenario.
DEFAULT_MAX_TURNS: dict[Setting, int] = {"single": 15, "cross": 20}

_NONE: frozenset[ModelRole] = frozenset()


class FlowOptions(SuiteOptions):
    """Evaluation level, knowledge format and setting, agent mode, session caps and judges."""

    roles: ClassVar[RoleChoices] = RoleChoices(
        agents={
            "llm": frozenset({"agent"}),
            "gold": _NONE,
            "noop": _NONE,
        },
        users={"llm": frozenset({"user"}), "scripted": _NONE},
        evaluators={
            "metrics": _NONE,
            "judge": frozenset({"judge"}),
        },
        offline_agent="gold",
        offline_user="scripted",
        model_agent="llm",
        model_user="llm",
        default_evaluator="metrics",
        model_evaluator="judge",
        descriptions={
            "agent": "llm (ReAct text or function calling, see --agent-mode) | gold (replays "
            "the gold turn) | noop",
            "user": "llm (simulator driven by the task-user summary; session level) | scripted",
            "evaluator": "metrics (tool / parameter P/R/F1, node accuracy) | judge (also the "
            "LLM judges: response score, task completion; the default with --judge-model)",
        },
    )

    level: Level = Field(
        "turn",
        description="turn (predict the next turn from the gold history) | session (simulate "
        "whole sessions with a user and an environment simulator).",
    )
    knowledge_format: KnowledgeFormat = Field(
        "flowchart",
        description="Workflow knowledge in the agent prompt: none (tools only) | text | code | "
        "flowchart | ensemble (text + code + flowchart) | none-no-tools (tool and parameter "
        "names only).",
    )
    setting: Setting = Field(
        "single",
        description="single (one scenario's knowledge) | cross (every scenario of the role).",
    )
    agent_mode: AgentMode = Field(
        "react",
        description="react (Thought / Action / Action Input / Response text) | function-calling "
        "(native tool calls).",
    )
    max_turns: int | None = Field(
        None,
        ge=1,
        description="Session cap on agent turns (a reply or a tool call); default 15 single, "
        "20 cross. A session that hits it fails.",
    )
    response_judge: bool = Field(
        False,
        description="Turn level: score each gold reply turn 1-10 with the judge (always on with "
        "--evaluator judge).",
    )
    failure_reasons: bool = Field(
        False,
        description="Session level: classify each failed session's cause with the judge "
        "(missing step, wrong order, wrong transition, tool usage, other).",
    )
    fuzzy_match: bool = Field(
        True,
        description="With the judge evaluator, ask the judge whether a string argument that "
        "fails the rules (normalised equality, then containment) means the same as the gold one.",
    )
    strict_params: bool = Field(
        False,
        description="Parameter P/R count a predicted argument only when the tool name is right "
        "(official: scored whatever the name).",
    )
    format_retries: int = Field(
        2,
        ge=0,
        description="ReAct replies with neither an Action nor a Response are re-asked this many "
        "times; each unusable reply counts as a format error.",
    )
    knowledge: str | None = Field(
        None,
        description="Knowledge-base directory or workflow_final.jsonl (default: the bundled "
        "scenarios).",
    )

    @property
    def turn_cap(self) -> int:
        """The session cap in force: ``max_turns`` or the setting's default."""
        return self.max_turns if self.max_turns is not None else DEFAULT_MAX_TURNS[self.setting]

    def required_models(self, run: RunOptions) -> frozenset[ModelRole]:
        """The response judge and the failure-reason pass need a judge model."""
        needed: set[ModelRole] = set()
        if (self.level == "turn" and self.response_judge) or (
            self.level == "session" and self.failure_reasons
        ):
            needed.add("judge")
        return frozenset(needed)

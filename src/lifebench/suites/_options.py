"""The options of one run, persisted in the run store and hashed to guard resumes.

A run's options have two parts: :class:`RunOptions`, the same for every suite (tasks, trials,
roles, models, limits, seed), and the suite's own typed options, a subclass of
:class:`SuiteOptions` declared by the suite (VitaBench's judge window, TravelBench's subset,
FlowBench's knowledge format, ...). Both are validated together, stored together and hashed
together.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializeAsAny,
    ValidationError,
    field_validator,
    model_validator,
)

from lifebench._util.hashing import stable_hash
from lifebench._util.text import Language

TaskSetKind = Literal["auto", "generated", "demo"]
ModelRole = Literal["agent", "user", "judge", "tool"]
MODEL_ROLES: tuple[ModelRole, ...] = ("agent", "user", "judge", "tool")

# Options that change how fast a run goes but not what it computes: neither stored nor hashed.
_OPERATIONAL = frozenset(
    {"concurrency", "out", "models_file", "cache", "quiet", "workers", "record_requests"}
)
# Options stored with the run but left out of its hash: a resume may change them (with a note).
# The tasks file is identified by the content hashes of its tasks (moving an unchanged file
# resumes); raising ``trials`` extends a run with new units.
# ``user_seeds`` replays the agent of every trial against more user-simulator seeds: new units.
_RESUMABLE = frozenset({"tasks_file", "trials", "user_seeds"})
_MODEL_FIELDS = ("agent_model", "user_model", "judge_model", "tool_model")
_SPEC_SPLIT = re.compile(r"@(?=https?://)", re.IGNORECASE)
_SURROGATE = re.compile("[\ud800-\udfff]")

MAX_TRIALS = 10_000
"""The most trials per task a run takes (``--trials``)."""
MAX_UNITS = 1_000_000
"""The most (task, trial) units one run takes (tasks × trials)."""
MAX_WORKERS = 1024
"""The most worker processes or Ray actors of one run (``--workers``)."""
MAX_CONCURRENCY = 100_000
"""The most units in flight at once (``--concurrency``)."""
MAX_STEPS = 1_000_000
"""The largest ``--max-steps`` and ``--max-errors``."""


def _text_only(value: Any) -> Any:
    """Refuse text no UTF-8 can hold (a lone surrogate: what Python makes of bytes in a
    command line or file name that are not UTF-8), in a string or the strings of a tuple."""
    items = value if isinstance(value, tuple | list) else (value,)
    for item in items:
        if isinstance(item, str) and _SURROGATE.search(item):
            raise ValueError(f"{item!a} is not valid UTF-8 text (bytes of another encoding?)")
    return value


def scrub_model_spec(spec: str | None) -> str | None:
    """A model spec fit to store, hash or print: the base URL of a ``MODEL@BASE_URL`` spec
    loses its user info (``user:KEY@``), query string (``?api-key=KEY``) and fragment.

    Names from a models file are returned unchanged (they hold no URL).
    """
    if spec is None:
        return None
    parts = _SPEC_SPLIT.split(spec.strip(), maxsplit=1)
    if len(parts) != 2:
        return spec
    from lifebench.models._secrets import redact_url

    return f"{parts[0]}@{redact_url(parts[1])}"


def model_identity(spec: str | None) -> str | None:
    """What a model spec contributes to the configuration hash: the model id of a
    ``MODEL@BASE_URL`` spec (another endpoint serving the same model resumes the run, with a
    note), or the name from a models file."""
    if spec is None:
        return None
    return _SPEC_SPLIT.split(spec.strip(), maxsplit=1)[0].strip()


def config_hash_of(config: Mapping[str, Any]) -> str:
    """The configuration hash of a stored or current run configuration.

    Hashed: every :class:`RunOptions` field that determines results, with model specs reduced
    to :func:`model_identity`. Not hashed: operational options (concurrency, workers, run
    directory, cache, quiet, models file), ``tasks_file`` and ``trials`` (see ``_RESUMABLE``),
    and keys that are not options (e.g. the reward ``bases`` the runner stores beside them).
    Applying it to the configuration stored by an older lifebench gives the hash under today's
    rules, so a change of rules never blocks resuming an unchanged run.
    """
    fields = set(RunOptions.model_fields) - _OPERATIONAL - _RESUMABLE
    view = {k: v for k, v in config.items() if k in fields}
    for name in _MODEL_FIELDS:
        if name in view:
            view[name] = model_identity(view[name])
    return stable_hash(view)


@dataclass(frozen=True)
class RoleChoices:
    """The agent, user and evaluator kinds a suite offers, and the models each one needs.

    Attributes:
        agents: agent kind → the model roles it needs (e.g. ``{"llm": {"agent"}, "noop": set()}``).
        users: user kind → the model roles it needs.
        evaluators: evaluator kind → the model roles it needs.
        offline_agent, offline_user: defaults when no agent / user model is given.
        model_agent, model_user: defaults when ``--agent-model`` / ``--user-model`` is given.
        default_evaluator: the evaluator used when none is named.
        model_evaluator: the evaluator used when none is named but ``--judge-model`` is given.
    """

    agents: Mapping[str, frozenset[ModelRole]]
    users: Mapping[str, frozenset[ModelRole]]
    evaluators: Mapping[str, frozenset[ModelRole]]
    offline_agent: str
    offline_user: str
    model_agent: str
    model_user: str
    default_evaluator: str
    model_evaluator: str
    descriptions: Mapping[str, str] = field(default_factory=dict)


class SuiteOptions(BaseModel):
    """Base of a suite's own options: frozen, unknown names refused.

    A suite subclasses it, declares its fields (each with a description: the CLI shows it) and
    sets ``roles``. ``check`` sees the whole :class:`RunOptions` for rules that span both parts
    (e.g. "this sandbox needs --tool-model").
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    roles: ClassVar[RoleChoices]
    common_defaults: ClassVar[Mapping[str, Any]] = {}
    """Defaults of common options for this suite (e.g. no tool-error cap where the official
    harness has none), used when the option is not given."""

    @field_validator("*", mode="after")
    @classmethod
    def _valid_text(cls, value: Any) -> Any:
        return _text_only(value)

    def required_models(self, run: RunOptions) -> frozenset[ModelRole]:
        """Model roles this run needs beyond those of its agent, user and evaluator kinds."""
        return frozenset()

    def check(self, run: RunOptions) -> None:
        """Raise ``ValueError`` when the combination of options is not runnable."""


class _NoSuiteOptions(SuiteOptions):
    """Placeholder used only while a RunOptions is being validated."""


OptionsT = TypeVar("OptionsT", bound=SuiteOptions)


class RunOptions(BaseModel):
    """Everything that defines a run. Same options + same seed + scripted models → same results."""

    model_config = ConfigDict(frozen=True, allow_inf_nan=False)

    suite: str = Field("vita", description="Suite name.")
    domain: str | None = Field(
        None, description="Domain within the suite (None: the suite's default or the file's)."
    )
    tasks_file: str | None = Field(None, description="Task file; None = the bundled tasks.")
    task_set: TaskSetKind = Field(
        "auto",
        description="Bundled set used without a task file: generated, demo, or auto (generated "
        "where shipped, else demo).",
    )
    task_ids: tuple[str, ...] = Field((), description="Only these task ids (empty = all).")
    num_tasks: int | None = Field(
        None, ge=1, description="Only the first N tasks (after task_ids); at least 1."
    )
    trials: int = Field(1, ge=1, le=MAX_TRIALS, description="Trials per task (k of pass^k).")
    user_seeds: int = Field(
        1,
        ge=1,
        le=MAX_TRIALS,
        description="User-simulator seeds per trial: trial t + K*s replays the agent of trial t "
        "(K trials) against user seed s (see lifebench.simulation._replay).",
    )
    agent: str = Field("", description="Agent kind (empty: the suite's default).")
    user: str = Field("", description="User-simulator kind (empty: the suite's default).")
    evaluator: str = Field("", description="Evaluator kind (empty: the suite's default).")
    agent_model: str | None = Field(None, description="Model spec for the agent.")
    user_model: str | None = Field(None, description="Model spec for the user simulator.")
    judge_model: str | None = Field(None, description="Model spec for the judge.")
    tool_model: str | None = Field(None, description="Model spec for the tool simulator.")
    language: Language = Field("en", description="Prompt and tool-description language.")
    max_steps: int = Field(300, ge=1, le=MAX_STEPS, description="Step limit per episode.")
    max_errors: int = Field(10, ge=1, le=MAX_STEPS, description="Tool-error limit per episode.")
    seed: int = Field(
        300, ge=-(2**63), lt=2**63, description="Run seed; per-unit seeds derive from it."
    )
    temperature: float | None = Field(
        0.0, ge=0, description="Sampling temperature of every role (finite, not negative)."
    )
    suite_options: SerializeAsAny[SuiteOptions] = Field(
        default_factory=_NoSuiteOptions, description="The suite's own options."
    )
    concurrency: int = Field(
        8, ge=1, le=MAX_CONCURRENCY, description="Units run at once (not hashed)."
    )
    workers: int = Field(
        1,
        ge=1,
        le=MAX_WORKERS,
        description="Processes (or Ray actors) the units are spread over (not hashed).",
    )
    out: str | None = Field(None, description="Run directory (not hashed).")
    models_file: str | None = Field(None, description="Models config file (not hashed).")
    cache: bool = Field(True, description="Use the on-disk model-call cache (not hashed).")
    quiet: bool = Field(False, description="No progress display (not hashed).")
    record_requests: bool = Field(
        True,
        description="Store every model call's request and response, and the prompts and tools "
        "of each unit (not hashed).",
    )

    @field_validator(
        "domain",
        "tasks_file",
        "task_ids",
        "agent",
        "user",
        "evaluator",
        *_MODEL_FIELDS,
        "out",
        "models_file",
    )
    @classmethod
    def _valid_text(cls, value: Any) -> Any:
        return _text_only(value)

    @model_validator(mode="before")
    @classmethod
    def _suite_defaults(cls, data: Any) -> Any:
        """Validate ``suite_options`` with the suite's model and fill the role defaults."""
        if not isinstance(data, Mapping):
            return data
        from lifebench.suites._registry import options_model

        values = dict(data)
        model = options_model(str(values.get("suite") or "vita"))
        raw = values.get("suite_options")
        if raw is None:
            raw = {}
        if isinstance(raw, SuiteOptions) and not isinstance(raw, _NoSuiteOptions):
            if not isinstance(raw, model):
                raise ValueError(
                    f"suite options of type {type(raw).__name__} given for suite "
                    f"'{values.get('suite')}' (expects {model.__name__})"
                )
        else:
            raw_map = {} if isinstance(raw, _NoSuiteOptions) else dict(raw)
            try:
                values["suite_options"] = model.model_validate(raw_map)
            except ValidationError as exc:
                raise ValueError(_suite_option_message(exc, str(values.get("suite")))) from None
        roles = model.roles
        for name, default in model.common_defaults.items():
            if values.get(name) is None:
                values[name] = default
        for name in ("max_steps", "max_errors"):
            if name in values and values[name] is None:
                del values[name]  # not given: the core default
        if not values.get("agent"):
            values["agent"] = (
                roles.model_agent if values.get("agent_model") else roles.offline_agent
            )
        if not values.get("user"):
            values["user"] = roles.model_user if values.get("user_model") else roles.offline_user
        if not values.get("evaluator"):
            values["evaluator"] = (
                roles.model_evaluator if values.get("judge_model") else roles.default_evaluator
            )
        return values

    @model_validator(mode="after")
    def _runnable(self) -> RunOptions:
        roles = self.suite_options.roles
        for kind, value, offered in (
            ("agent", self.agent, roles.agents),
            ("user", self.user, roles.users),
            ("evaluator", self.evaluator, roles.evaluators),
        ):
            if value not in offered:
                raise ValueError(
                    f"{kind} '{value}' is not offered by suite '{self.suite}'; "
                    f"choose from: {', '.join(offered)}"
                )
        needed = self.roles_needed
        for role in MODEL_ROLES:
            if role in needed and not self.model_for(role):
                raise ValueError(f"this {self.suite} run needs --{role}-model (for its {role})")
        self.suite_options.check(self)
        return self

    @property
    def domain_name(self) -> str:
        """The domain, once the runner has resolved it (see ``Suite.resolve_domain``)."""
        if self.domain is None:
            raise RuntimeError("the run's domain has not been resolved yet")
        return self.domain

    @property
    def roles_needed(self) -> frozenset[ModelRole]:
        """The model roles this run calls: those of its agent, user and evaluator kinds and
        of its suite options (``"judge"`` absent: no grader of the run asks a model)."""
        roles = self.suite_options.roles
        return (
            roles.agents[self.agent]
            | roles.users[self.user]
            | roles.evaluators[self.evaluator]
            | self.suite_options.required_models(self)
        )

    def model_for(self, role: ModelRole) -> str | None:
        """The model spec configured for ``role``."""
        specs = {
            "agent": self.agent_model,
            "user": self.user_model,
            "judge": self.judge_model,
            "tool": self.tool_model,
        }
        return specs[role]

    def options_for(self, model: type[OptionsT]) -> OptionsT:
        """The suite options, typed (a suite calls it with its own options model)."""
        if not isinstance(self.suite_options, model):
            raise TypeError(
                f"run options hold {type(self.suite_options).__name__}, not {model.__name__}"
            )
        return self.suite_options

    def semantic_dict(self) -> dict[str, Any]:
        """The options that describe the run, as stored in the run store and reports: every
        option but the operational ones, model specs scrubbed of credentials
        (:func:`scrub_model_spec`)."""
        out = {k: v for k, v in self.model_dump(mode="json").items() if k not in _OPERATIONAL}
        if out.get("user_seeds") == 1:
            del out["user_seeds"]  # the default: configurations stored before it stay the same
        for name in _MODEL_FIELDS:
            out[name] = scrub_model_spec(out.get(name))
        return out

    def config_hash(self) -> str:
        """The hash that guards resumes: :func:`config_hash_of` of :meth:`semantic_dict`."""
        return config_hash_of(self.semantic_dict())

    def __repr_args__(self) -> Any:
        """Model specs appear scrubbed in reprs (error messages, logs)."""
        for name, value in super().__repr_args__():
            yield name, (scrub_model_spec(value) if name in _MODEL_FIELDS else value)


def _suite_option_message(exc: ValidationError, suite: str) -> str:
    """One line naming the suite option that is wrong (as its CLI flag) and why."""
    first = exc.errors()[0]
    loc = first.get("loc") or ()
    name = str(loc[0]) if loc else ""
    flag = "--" + name.replace("_", "-") if name else "suite options"
    if first.get("type") == "extra_forbidden":
        return f"{flag} is not an option of suite '{suite}'"
    message = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
    return f"{flag}: {message}"


def make_run_options(values: Mapping[str, Any]) -> RunOptions:
    """``RunOptions(**values)``, with a validation failure turned into one clear InputError that
    names the CLI flag at fault (never pydantic's multi-line text)."""
    from lifebench.errors import InputError

    try:
        return RunOptions(**values)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = first.get("loc") or ()
        flag = ("--" + str(loc[0]).replace("_", "-")) if loc else None
        message = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
        raise InputError(message, field=flag) from None

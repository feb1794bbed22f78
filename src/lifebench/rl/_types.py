"""What the step protocol exchanges: observations, the outcome of an episode (its reward and
the components behind it), and the reading of a policy's OpenAI-format message."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from lifebench.errors import InputError
from lifebench.evaluation import BasisResult, Evaluation
from lifebench.messages import AssistantMessage, Message, Usage
from lifebench.models._convert import MalformedResponseError, _text_of, _tool_call_of
from lifebench.simulation import Simulation, TerminationReason

Status = Literal["graded", "ungradable", "grading_failed", "infrastructure_error", "rejected"]
"""How an episode's grading came out. Only ``graded`` carries a reward: a task the grader
cannot check (``ungradable``), a judge that failed (``grading_failed``), an episode cut short
by the infrastructure or a provider's content refusal have none — never a 0."""


class Outcome(BaseModel):
    """How an episode ended and what it earned: the reward and every component behind it."""

    task_id: str
    trial: int
    seed: int
    termination: TerminationReason = Field(description="Why the episode ended.")
    status: Status = Field(description="Whether the reward could be decided (see Status).")
    reward: float | None = Field(
        description="The reward (product of the reward bases); None unless status is graded."
    )
    reward_bases: list[str] = Field(description="The bases whose product is the reward.")
    bases: dict[str, BasisResult] = Field(
        default_factory=dict,
        description="Every basis computed: its reward, score, criteria (each met or not, with "
        "evidence), what it could not check.",
    )
    steps: int = Field(description="Steps of the episode (user message, agent message, tools).")
    tool_calls: int = Field(description="Tool calls the agent made.")
    tool_errors: int = Field(description="Tool calls that returned an error.")
    error: str | None = Field(None, description="Why the reward is missing, when it is.")

    @classmethod
    def of(
        cls, simulation: Simulation, evaluation: Evaluation | None, reward_bases: Sequence[str]
    ) -> Outcome:
        """The outcome of a simulation and its evaluation (None: not graded, because the
        episode ended in an infrastructure error)."""
        status: Status
        error: str | None = None
        reward: float | None = None
        if evaluation is None:
            rejected = bool(simulation.info.get("content_rejected"))
            status = "rejected" if rejected else "infrastructure_error"
            error = simulation.error or status.replace("_", " ")
        elif evaluation.error is not None:
            status, error = "grading_failed", evaluation.error
        elif not evaluation.gradable:
            status = "ungradable"
            error = "; ".join(
                f"{b}: {r.note or 'nothing it can check'}"
                for b, r in evaluation.by_basis.items()
                if b in reward_bases and not r.gradable
            )
        else:
            status, reward = "graded", evaluation.reward
        return cls(
            task_id=simulation.task_id,
            trial=simulation.trial,
            seed=simulation.seed,
            termination=simulation.termination,
            status=status,
            reward=reward,
            reward_bases=list(reward_bases),
            bases=dict(evaluation.by_basis) if evaluation is not None else {},
            steps=simulation.steps,
            tool_calls=simulation.tool_calls,
            tool_errors=simulation.tool_errors,
            error=error,
        )


class Observation(BaseModel):
    """What the policy sees: the prompt it is to answer, or the end of the episode.

    ``messages`` and ``tools`` are exactly the chat request the suite's own agent (or, when
    the policy plays the user, the user simulator) would send its model — system prompt,
    the trajectory as that role sees it, the tool schemas — in the OpenAI chat format. The
    policy answers with one assistant message (:meth:`StepSession.step`).
    """

    task_id: str
    trial: int
    seed: int
    role: Literal["assistant", "user"] | None = Field(
        description="The role the policy answers as; None once the episode is done."
    )
    messages: list[dict[str, Any]] = Field(
        default_factory=list, description="The prompt, OpenAI chat messages (system first)."
    )
    tools: list[dict[str, Any]] = Field(
        default_factory=list, description="OpenAI tool schemas offered (empty: none)."
    )
    new_messages: list[Message] = Field(
        default_factory=list,
        description="Trajectory messages added since the previous observation (tool results, "
        "the user's reply, the policy's own message as recorded).",
    )
    done: bool = False
    reward: float | None = Field(None, description="Set at the end when the episode is graded.")
    outcome: Outcome | None = Field(None, description="At the end: reward and components.")


def assistant_message(value: AssistantMessage | Mapping[str, Any]) -> AssistantMessage:
    """A policy's answer as a lifebench message: an :class:`AssistantMessage` as it is, or an
    OpenAI chat message (``content``, ``tool_calls``, ``reasoning_content``; a chat-completion
    response's ``choices[0].message`` is taken when given a whole response).

    Raises:
        InputError: The value is not an assistant message.
    """
    if isinstance(value, AssistantMessage):
        return value
    if not isinstance(value, Mapping):
        raise InputError(f"an action is an assistant message, not {type(value).__name__}")
    data: Mapping[str, Any] = value
    choices = data.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], Mapping):
        data = choices[0].get("message") or {}
    role = data.get("role", "assistant")
    if role != "assistant":
        raise InputError(f"an action is an assistant message, not a {role!r} message")
    calls = data.get("tool_calls") or []
    if not isinstance(calls, list):
        raise InputError("tool_calls of an action must be a list")
    reasoning = data.get("reasoning_content", data.get("reasoning"))
    try:
        return AssistantMessage(
            content=_text_of(data.get("content")),
            tool_calls=[_tool_call_of(i, c) for i, c in enumerate(calls)],
            reasoning=reasoning if isinstance(reasoning, str) else None,
            usage=_usage_of(data.get("usage")),
        )
    except MalformedResponseError as exc:
        raise InputError(f"the action is not a usable assistant message: {exc}") from None


def _usage_of(value: Any) -> Usage | None:
    if not isinstance(value, Mapping):
        return None
    prompt, completion = value.get("prompt_tokens"), value.get("completion_tokens")
    return Usage(
        prompt_tokens=prompt if isinstance(prompt, int) else 0,
        completion_tokens=completion if isinstance(completion, int) else 0,
    )

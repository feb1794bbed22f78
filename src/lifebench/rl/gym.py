"""A Gymnasium face over the step protocol (extra ``lifebench[gym]``), for frameworks that
expect ``gymnasium.Env``.

Observations and actions stay structured — dicts, not strings: an observation is
:class:`lifebench.rl.Observation` as JSON (the prompt's OpenAI messages, the tool schemas, the
trajectory messages added, and at the end the outcome); an action is the policy's assistant
message (an OpenAI chat message dict or an :class:`~lifebench.messages.AssistantMessage`).
``reset(options={"task_id": …, "trial": …})`` picks the episode (default: the tasks in turn,
each task's next trial, with the run's seed of that trial). ``reset(seed=s)`` makes the
episode a function of ``s``: the episode seed ``s``, task ``s mod n`` and trial 0 unless the
options name them.

The reward is 0.0 until the last step, then the episode's reward — or NaN when the episode
could not be graded (``info["status"]`` says why: a failed judge is never a 0).
``terminated`` / ``truncated``: an episode cut by a step or call limit is truncated.

The environment runs its own event loop in the calling thread (``asyncio.Runner``): no thread
hands control to another, and it cannot be used from inside a running event loop (use
:class:`~lifebench.rl.StepEnvironment` there).
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from collections.abc import Mapping
from typing import Any

import gymnasium
from pydantic import BaseModel, ValidationError

from lifebench.errors import InputError
from lifebench.messages import AssistantMessage
from lifebench.models import ModelFactory
from lifebench.rl._env import StepEnvironment, StepSession
from lifebench.rl._types import Observation, assistant_message
from lifebench.simulation import TerminationReason
from lifebench.suites import RunOptions

_WORDS = ("hello", "sure", "order", "book", "thanks", "which", "time", "###STOP###")

TRUNCATING = frozenset({TerminationReason.MAX_STEPS, TerminationReason.MAX_AGENT_CALLS})
"""Endings by a limit rather than by the episode's own course (gymnasium's truncation)."""


class StructuredSpace(gymnasium.spaces.Space[Any]):
    """The values a pydantic model accepts (JSON dicts; not sampled)."""

    def __init__(self, model: type[BaseModel], *, message: bool = False) -> None:
        super().__init__(shape=None, dtype=None)
        self.model = model
        self._message = message

    def contains(self, x: Any) -> bool:
        """True when ``x`` validates as the model."""
        try:
            if self._message:
                assistant_message(x)
            else:
                self.model.model_validate(x)
        except (ValidationError, ValueError, InputError):
            return False
        return True

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        """A message of random words (actions only: a baseline, and what environment checkers
        need); observations are not sampled."""
        if not self._message:
            raise NotImplementedError(f"{self.model.__name__} values are not sampled")
        words = self.np_random.choice(_WORDS, size=int(self.np_random.integers(1, 6)))
        return {"role": "assistant", "content": " ".join(str(w) for w in words)}

    @property
    def is_np_flattenable(self) -> bool:
        """Never: the values are structured text."""
        return False


class LifebenchGymEnv(gymnasium.Env[dict[str, Any], Any]):
    """One episode at a time of a suite, as a ``gymnasium.Env`` (see the module docstring).

    Args:
        options: Run options (``lifebench run``'s), as for :meth:`StepEnvironment.build`.
        policy_plays_user: The policy also plays the user simulator.
        models: The models of the user, tools and judge (default: from the options).
    """

    metadata = {"render_modes": []}  # noqa: RUF012 (gymnasium declares it on the instance)

    def __init__(
        self,
        options: RunOptions | Mapping[str, Any],
        *,
        policy_plays_user: bool = False,
        models: ModelFactory | None = None,
    ) -> None:
        self._runner = asyncio.Runner()
        self._env = StepEnvironment.build(
            options, models=models, policy_plays_user=policy_plays_user
        )
        self._session: StepSession | None = None
        self._turn = 0
        self._trials: Counter[str] = Counter()
        self.observation_space = StructuredSpace(Observation)
        self.action_space = StructuredSpace(AssistantMessage, message=True)

    @property
    def step_environment(self) -> StepEnvironment:
        """The step environment underneath."""
        return self._env

    @property
    def session(self) -> StepSession | None:
        """The current episode."""
        return self._session

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start an episode; returns its first observation and ``info`` (task, trial, seed)."""
        super().reset(seed=seed)
        chosen = options or {}
        ids = self._env.task_ids
        task_id = chosen.get("task_id")
        trial = chosen.get("trial")
        if seed is not None:  # the seed alone decides the episode
            task_id = ids[seed % len(ids)] if task_id is None else task_id
            trial = 0 if trial is None else trial
        if task_id is None:
            task_id = ids[self._turn % len(ids)]
            self._turn += 1
        if trial is None:
            trial = self._trials[task_id]
        self._trials[task_id] = max(self._trials[task_id], int(trial) + 1)
        self._session = self._runner.run(self._env.reset(str(task_id), int(trial), seed))
        obs = self._session.observation()
        return obs.model_dump(mode="json"), self._info(self._session)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play the policy's message; returns (observation, reward, terminated, truncated,
        info). ``info`` holds ``status`` and, at the end, ``outcome`` (every component)."""
        if self._session is None:
            raise RuntimeError("call reset() first")
        session = self._session
        obs = self._runner.run(session.step(action))
        reward = 0.0
        terminated = truncated = False
        outcome = obs.outcome
        if outcome is not None:
            reward = outcome.reward if outcome.reward is not None else math.nan
            truncated = outcome.termination in TRUNCATING
            terminated = not truncated
        return obs.model_dump(mode="json"), reward, terminated, truncated, self._info(session)

    @staticmethod
    def _info(session: StepSession) -> dict[str, Any]:
        info: dict[str, Any] = {
            "task_id": session.task_id,
            "trial": session.trial,
            "seed": session.seed,
        }
        if session.outcome is not None:
            info["status"] = session.outcome.status
            info["outcome"] = session.outcome.model_dump(mode="json")
        return info

    def close(self) -> None:
        """Close the models and the event loop."""
        try:
            self._runner.run(self._env.aclose())
        finally:
            self._runner.close()

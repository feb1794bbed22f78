"""Training faces of lifebench: every suite as a step-level environment for an outside policy.

* :class:`StepEnvironment` / :class:`StepSession` — the step protocol (``reset`` → the agent's
  prompt and tools; ``step`` the policy's message → tool results, the user's reply, and at the
  end the reward with its components, :class:`Outcome`).
* :func:`rollout` — a policy model plays the episodes; one :class:`RolloutRecord` each.
* ``lifebench.rl.openenv`` — the OpenEnv server (extra ``lifebench[openenv]``).
* ``lifebench.rl.mcp_server`` — the MCP tool server (extra ``lifebench[mcp]``).
* ``lifebench.rl.gym`` — a Gymnasium environment (extra ``lifebench[gym]``).

All of them drive :class:`~lifebench.simulation.EpisodeProcess`, the rules ``lifebench run``
plays by, and grade with the run's evaluators: the same trajectory earns the same reward
through every face.
"""

from lifebench.rl._env import POLICY, EpisodeOver, OutsidePolicy, StepEnvironment, StepSession
from lifebench.rl._rollout import RolloutRecord, play, rollout, write_rollouts
from lifebench.rl._types import Observation, Outcome, Status, assistant_message

__all__ = [
    "POLICY",
    "EpisodeOver",
    "Observation",
    "Outcome",
    "OutsidePolicy",
    "RolloutRecord",
    "Status",
    "StepEnvironment",
    "StepSession",
    "assistant_message",
    "play",
    "rollout",
    "write_rollouts",
]

"""Where a simulation sits in a run with several user-simulator seeds (``--user-seeds S``).

With ``S`` user seeds and ``K`` trials, a task has ``K * S`` units: trial ``t`` replays the
agent of trial ``a = t mod K`` (the same agent seed as trial ``a``) against user-simulator
seed ``s = t div K``. Trials ``0 … K-1`` (``s = 0``) are the run's ordinary trials, so adding
user seeds to a run keeps every unit it has. Such a simulation records its position in
``Simulation.info["replay"]`` as ``{"agent_trial": a, "user_seed": s, "agent_seed": …}`` (the
seed the agent was given; ``Simulation.seed`` is the unit's own seed, which the user simulator
and the judges get); a simulation without it is trial ``a = t`` with the user seed of its own
trial (``s = 0``).
"""

from __future__ import annotations

from typing import Any

from lifebench.simulation._types import Simulation

REPLAY_KEY = "replay"
"""Key of ``Simulation.info`` holding the agent trial and user seed of a replay."""


def split_trial(trial: int, trials: int) -> tuple[int, int]:
    """``(agent_trial, user_seed)`` of unit ``trial`` in a run of ``trials`` trials per seed."""
    if trials < 1 or trial < 0:
        raise ValueError(f"need trials >= 1 and trial >= 0, got {trials} and {trial}")
    user_seed, agent_trial = divmod(trial, trials)
    return agent_trial, user_seed


def replay_info(agent_trial: int, user_seed: int, agent_seed: int | None = None) -> dict[str, Any]:
    """The ``info`` entry recording a replay's position (and the agent's seed)."""
    entry: dict[str, Any] = {"agent_trial": agent_trial, "user_seed": user_seed}
    if agent_seed is not None:
        entry["agent_seed"] = agent_seed
    return {REPLAY_KEY: entry}


def replay_position(simulation: Simulation) -> tuple[int, int]:
    """``(agent_trial, user_seed)`` of ``simulation`` (see the module docstring)."""
    raw = simulation.info.get(REPLAY_KEY)
    if isinstance(raw, dict):
        agent, user = raw.get("agent_trial"), raw.get("user_seed")
        if isinstance(agent, int) and isinstance(user, int):
            return agent, user
    return simulation.trial, 0

"""The environment protocol: tools over one simulation's private state."""

from lifebench.environment._environment import Environment

__all__ = ["Environment"]

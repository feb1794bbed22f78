"""Where tool answers come from: the official response cache, the tool-simulator model (memoised
in the run directory), or the deterministic offline world."""

from lifebench.travel.sandbox.backend import Answer, Sandbox, SandboxConfig

__all__ = ["Answer", "Sandbox", "SandboxConfig"]

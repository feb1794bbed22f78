"""lifebench: an evaluation harness for LLM agents on multi-turn life-service tasks.

The public API lives in the area packages (``lifebench.messages``, ``lifebench.tools``,
``lifebench.models``, ``lifebench.simulation``, ``lifebench.evaluation``, ``lifebench.metrics``,
``lifebench.runner``) and in one package per suite (``lifebench.vita``). Importing this package
has no side effects.
"""

from lifebench._about import version as _version

__version__ = _version()
"""The version: the git tag, written at build / install time by hatch-vcs (see ``_about``)."""

"""The optional extra ``stats`` (scipy): the paired tests of ``lifebench compare`` and the
noncentral t behind a noise floor's minimum detectable difference need it; nothing else does.
The runtime install stays small without it (scipy and numpy weigh about 200 MB)."""

from __future__ import annotations

import importlib.util

STATS_INSTALL = "pip install 'lifebench[stats]'"
"""How to install the extra (the message of everything that needs it)."""


def have_scipy() -> bool:
    """True when scipy can be imported (the ``stats`` extra is installed)."""
    try:
        return importlib.util.find_spec("scipy") is not None
    except ValueError:  # a module object without a spec: not importable as installed
        return False


def needs_stats(what: str) -> str:
    """The message of a feature ``what`` that needs the extra."""
    return f"{what} needs the stats extra (scipy): {STATS_INSTALL}"

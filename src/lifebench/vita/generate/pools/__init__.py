"""Content pools for task generation: parallel English / Chinese text, immutable.

Every pool is a module-level tuple of frozen records (or a read-only mapping over them); nothing
is computed at import time beyond building those constants. Records carry a :class:`Bi` for
every piece of text so that one generated world renders identically in both languages.
"""

from lifebench.vita.generate.pools._bi import Bi

__all__ = ["Bi"]

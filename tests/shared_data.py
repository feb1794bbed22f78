"""Where the official sample data lives (``../shared/data``, read-only), for every test.

A plain module (not a conftest) so tests in any folder can import it:
``from shared_data import shared_file``. The data directory is ``$LIFEBENCH_SHARED_DATA`` when
set, else the first ``shared/data`` found above this directory (``../shared/data`` of a
worktree; also found from the copy of the tests that mutation testing runs in ``mutants/``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED_DATA_ENV = "LIFEBENCH_SHARED_DATA"


def _shared_data() -> Path:
    override = os.environ.get(SHARED_DATA_ENV)
    if override:
        return Path(override)
    here = Path(__file__).resolve().parent
    for ancestor in here.parents:
        candidate = ancestor / "shared" / "data"
        if candidate.is_dir():
            return candidate
    return here.parents[1] / "shared" / "data"


SHARED_DATA = _shared_data()


def in_ci() -> bool:
    """True when the environment says this is a CI run (``CI=true``, ``1`` or ``yes``)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def shared_file(*parts: str) -> Path:
    """A file of the official samples (e.g. ``shared_file("vitabench", "x.json")``).

    Missing: the calling test fails in CI and is skipped (with the path as reason) elsewhere.
    """
    path = SHARED_DATA.joinpath(*parts)
    if not path.is_file():
        reason = (
            f"official sample {path} not available (put the samples in ../shared/data or set "
            f"{SHARED_DATA_ENV})"
        )
        if in_ci():
            pytest.fail(f"{reason}; CI=true requires it", pytrace=False)
        pytest.skip(reason)
    return path

"""Fixtures shared by the runner tests."""

from __future__ import annotations

import gc
import logging
import signal
from collections.abc import Iterator

import pytest


@pytest.fixture
def worker_process_state() -> Iterator[None]:
    """What a worker's entry point changes in its process, put back for the other tests: the
    Ctrl-C handler, the scrubbing log handler, and the frozen heap."""
    handler = signal.getsignal(signal.SIGINT)
    logger = logging.getLogger("lifebench")
    handlers = list(logger.handlers)
    frozen = gc.get_freeze_count()
    yield
    signal.signal(signal.SIGINT, handler)
    logger.handlers[:] = handlers
    if not frozen:
        gc.unfreeze()

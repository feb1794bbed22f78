"""What the metrics need to know about one (task, trial) unit."""

from __future__ import annotations

from typing import Protocol

from lifebench.evaluation._types import Evaluation
from lifebench.simulation._types import Simulation

STATUS_DONE = "done"
STATUS_INFRA_ERROR = "infra_error"
STATUS_PENDING = "pending"
STATUS_REJECTED = "rejected"


class ResultRecord(Protocol):
    """A stored unit (e.g. :class:`lifebench.runner.UnitRecord`).

    ``status`` is ``"done"``, ``"infra_error"``, ``"rejected"`` or ``"pending"``; ``attempts`` counts recorded
    attempts (so ``attempts - 1`` re-runs).
    """

    @property
    def task_id(self) -> str: ...

    @property
    def trial(self) -> int: ...

    @property
    def status(self) -> str: ...

    @property
    def attempts(self) -> int: ...

    @property
    def simulation(self) -> Simulation | None: ...

    @property
    def evaluation(self) -> Evaluation | None: ...

"""An opt-in suite hook: the number the suite's official code would give, beside lifebench's.

A suite that implements :class:`OfficialScoring` gets, in every report (``report.json``
``comparison``, the terminal and HTML reports) and in every pooled group of a sweep, its official
numbers beside lifebench's, each labelled, with the units where they differ counted by class.
The first pair is the suite's own headline aggregate — TravelBench's overall, FlowBench's tool
F1 or success rate, VitaBench's mean reward — which a sweep's ``combine`` uses instead of a
plain mean of rewards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from lifebench.metrics import OfficialComparison


@runtime_checkable
class OfficialScoring(Protocol):
    """The official scoring of a run's records (no model call: from the stored outputs)."""

    def official_comparison(
        self, records: Sequence[Any], config: Mapping[str, Any]
    ) -> OfficialComparison:
        """The official numbers beside lifebench's for ``records`` of a run configured by
        ``config`` (records of several runs of one suite when a sweep pools them)."""
        ...

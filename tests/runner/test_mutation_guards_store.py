"""The survivors of mutation testing in ``runner/_store.py`` (issue 21), pinned by their effect:
what ``grading()`` says of a store without a grading log, ..."""

from __future__ import annotations

from pathlib import Path

from runner_fakes import CONFIG, CONFIG_HASH, TASKS, evaluation, simulation, units

from lifebench.runner import RunStore


def test_a_store_whose_units_were_never_graded_in_a_logged_grading_has_no_grading(
    tmp_path: Path,
) -> None:
    with RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS) as store:
        unit = units()[0]
        store.pending_units([unit])
        store.record(unit, simulation(unit), evaluation(1.0))
        assert store.grading() is None
    with RunStore.read(tmp_path) as store:
        assert store.grading() is None

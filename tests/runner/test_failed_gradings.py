"""RunStore.failed_gradings: the done units whose grading failed or is missing, read in SQL,
agreeing with needs_grading over the parsed records (what the end of a run counts)."""

from __future__ import annotations

from pathlib import Path

from runner_fakes import CONFIG, CONFIG_HASH, TASKS, evaluation, simulation, units

from lifebench.evaluation import Evaluation
from lifebench.runner import RunStore, UnitStatus
from lifebench.runner._regrade import needs_grading


def _failed(error: str) -> Evaluation:
    return evaluation(0.0).model_copy(update={"error": error})


def test_failed_gradings_are_the_done_units_needs_grading_selects(tmp_path: Path) -> None:
    u = units(TASKS, trials=3)
    with RunStore.open(tmp_path, config=CONFIG, config_hash=CONFIG_HASH, tasks=TASKS) as store:
        store.pending_units(u)
        store.record(u[0], simulation(u[0]), evaluation(1.0))  # graded
        store.record(u[1], simulation(u[1]), evaluation(0.0))  # graded, reward 0
        store.record(u[2], simulation(u[2]), _failed("evaluation failed: judge: no JSON"))
        store.record(u[3], simulation(u[3]), None, infra=False)  # done, never graded
        store.record(u[4], simulation(u[4]), _failed(""))  # an empty error is still one
        store.record(u[5], simulation(u[5]), None, "provider down", infra=True)  # not done
        store.record(u[6], simulation(u[6]), _failed("x"), "refused", rejected=True)
        # u[7:] stay pending; a unit graded after a failed grading is graded again
        store.record(u[7], simulation(u[7]), _failed("judge down"))
        store.record(u[7], simulation(u[7]), evaluation(1.0))
        records = store.results()
        want = {
            (r.task_id, r.trial)
            for r in records
            if r.status is UnitStatus.DONE and needs_grading(r)
        }
        got = store.failed_gradings()
    assert got == want
    keys = [(x.task_id, x.trial) for x in u]
    assert got == {keys[2], keys[3], keys[4]}


def test_no_units_no_failed_gradings(tmp_path: Path) -> None:
    with RunStore.open(tmp_path, config=CONFIG, config_hash=CONFIG_HASH, tasks=TASKS) as store:
        assert store.failed_gradings() == set()

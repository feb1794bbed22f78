"""RunStore: create, resume, refusal of changed runs, recording and reading back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from runner_fakes import CONFIG, CONFIG_HASH, TASKS, evaluation, simulation, units

from lifebench.errors import ConfigChangedError
from lifebench.runner import STORE_FILENAME, EventKind, RunStore, UnitStatus, WorkUnit
from lifebench.simulation._types import TerminationReason


def open_store(run_dir: Path, **overrides: object) -> RunStore:
    args: dict[str, object] = {"config": CONFIG, "config_hash": CONFIG_HASH, "tasks": TASKS}
    args.update(overrides)
    return RunStore.open(run_dir, **args)  # type: ignore[arg-type]


def test_create_stores_metadata_and_uses_wal(tmp_path: Path) -> None:
    with open_store(tmp_path / "run") as store:
        assert store.path == tmp_path / "run" / STORE_FILENAME
        assert store.config() == CONFIG
        assert store.meta.config_hash == CONFIG_HASH
        assert store.tasks() == TASKS
        assert store.results() == []
    conn = sqlite3.connect(tmp_path / "run" / STORE_FILENAME)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_pending_units_registers_and_skips_done(tmp_path: Path) -> None:
    all_units = units()
    with open_store(tmp_path) as store:
        assert store.pending_units(all_units) == all_units
        assert {r.status for r in store.results()} == {UnitStatus.PENDING}
        store.record(all_units[0], simulation(all_units[0]), evaluation(1.0))
        store.record(all_units[1], simulation(all_units[1]), None, "provider down", infra=True)
    with open_store(tmp_path) as store:
        pending = store.pending_units(all_units)
        assert pending == all_units[1:]  # the infra error is re-run, the done unit skipped
        statuses = {(r.task_id, r.trial): r.status for r in store.results()}
        assert statuses[("t1", 0)] is UnitStatus.DONE
        assert statuses[("t1", 1)] is UnitStatus.INFRA_ERROR


def test_results_are_ordered_and_round_trip(tmp_path: Path) -> None:
    all_units = units()
    with open_store(tmp_path) as store:
        for unit in reversed(all_units):
            store.record(unit, simulation(unit), evaluation(0.0))
        results = store.results()
    assert [(r.task_id, r.trial) for r in results] == [(u.task_id, u.trial) for u in all_units]
    assert results[0].simulation == simulation(all_units[0])
    assert results[0].evaluation == evaluation(0.0)
    assert results[0].attempts == 1


def test_changed_config_is_refused_naming_the_keys(tmp_path: Path) -> None:
    open_store(tmp_path).close()
    changed = {"agent": {"model": "other", "temperature": 0.0}, "trials": 2, "seed": 3}
    with pytest.raises(ConfigChangedError) as info:
        open_store(tmp_path, config=changed, config_hash="hash-v2")
    message = str(info.value)
    assert 'agent.model: "fake-agent" -> "other"' in message
    assert "max_steps: removed" in message
    assert "seed: added" in message
    assert "temperature" not in message


def test_changed_and_removed_tasks_are_refused_naming_them(tmp_path: Path) -> None:
    open_store(tmp_path).close()
    with pytest.raises(ConfigChangedError) as info:
        open_store(tmp_path, tasks={"t1": "CHANGED", "t2": "h2"})
    message = str(info.value)
    assert "changed: t1" in message
    assert "missing: t3" in message
    assert "t2" not in message


def test_added_tasks_are_accepted(tmp_path: Path) -> None:
    open_store(tmp_path).close()
    with open_store(tmp_path, tasks={**TASKS, "t4": "h4"}) as store:
        assert store.tasks()["t4"] == "h4"
        assert store.pending_units([WorkUnit("t4", 0, 7)]) == [WorkUnit("t4", 0, 7)]


def test_changed_seed_is_refused(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.pending_units([WorkUnit("t1", 0, 1)])
        with pytest.raises(ConfigChangedError, match=r"t1#0"):
            store.pending_units([WorkUnit("t1", 0, 2)])


def test_unknown_task_and_duplicates_rejected(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        with pytest.raises(ValueError, match="nope"):
            store.pending_units([WorkUnit("nope", 0, 1)])
        with pytest.raises(ValueError, match="duplicate"):
            store.pending_units([WorkUnit("t1", 0, 1), WorkUnit("t1", 0, 1)])


def test_record_rejects_mismatched_simulation(tmp_path: Path) -> None:
    a, b = units()[:2]
    with open_store(tmp_path) as store, pytest.raises(ValueError, match="recorded for unit"):
        store.record(a, simulation(b))


def test_attempt_log_keeps_every_attempt(tmp_path: Path) -> None:
    unit = units()[0]
    with open_store(tmp_path) as store:
        store.record(unit, simulation(unit), None, "timeout", infra=True)
        store.record(unit, simulation(unit), None, "timeout again", infra=True)
        store.record(unit, simulation(unit), evaluation(1.0))
        store.record_evaluation(unit.task_id, unit.trial, evaluation(0.0))
        log = store.attempt_log()
        (record,) = store.results()
    assert [(e.kind, e.attempt, e.status) for e in log] == [
        (EventKind.ATTEMPT, 1, UnitStatus.INFRA_ERROR),
        (EventKind.ATTEMPT, 2, UnitStatus.INFRA_ERROR),
        (EventKind.ATTEMPT, 3, UnitStatus.DONE),
        (EventKind.REGRADE, 3, UnitStatus.DONE),
    ]
    assert [e.error for e in log[:2]] == ["timeout", "timeout again"]
    assert log[3].reward == 0.0
    assert record.attempts == 3
    assert record.status is UnitStatus.DONE
    assert record.evaluation == evaluation(0.0)
    assert record.error is None


def test_infrastructure_termination_forces_infra_error(tmp_path: Path) -> None:
    unit = units()[0]
    sim = simulation(unit).model_copy(
        update={"termination": TerminationReason.INFRASTRUCTURE_ERROR}
    )
    with open_store(tmp_path) as store:
        assert store.record(unit, sim, None, None) is UnitStatus.INFRA_ERROR
        assert store.results()[0].error == "infrastructure error"


def test_record_evaluation_requires_done_unit(tmp_path: Path) -> None:
    unit = units()[0]
    with open_store(tmp_path) as store:
        with pytest.raises(KeyError):
            store.record_evaluation("t1", 0, evaluation(1.0))
        store.record(unit, simulation(unit), None, "down", infra=True)
        with pytest.raises(ValueError, match="infra_error"):
            store.record_evaluation("t1", 0, evaluation(1.0))


def test_failed_open_leaves_store_usable(tmp_path: Path) -> None:
    open_store(tmp_path).close()
    with pytest.raises(ConfigChangedError):
        open_store(tmp_path, config_hash="other")
    with open_store(tmp_path) as store:
        assert store.config() == CONFIG


def test_one_writer_per_run_directory(tmp_path: Path) -> None:
    from lifebench.errors import LifebenchError
    from lifebench.runner import RunStore

    first = RunStore.open(tmp_path, {"a": 1}, "h", {"t": "x"})
    try:
        with pytest.raises(LifebenchError, match="in use by another lifebench process"):
            RunStore.open(tmp_path, {"a": 1}, "h", {"t": "x"})
        with pytest.raises(LifebenchError, match="in use"):
            RunStore.read(tmp_path, write=True)
        reader = RunStore.read(tmp_path)  # reports may read while a run writes
        reader.close()
    finally:
        first.close()
    second = RunStore.open(tmp_path, {"a": 1}, "h", {"t": "x"})  # released on close
    second.close()


def test_timestamps_are_utc_iso_with_milliseconds(tmp_path: Path) -> None:
    import re

    unit = units()[0]
    with open_store(tmp_path) as store:
        store.record(unit, simulation(unit), evaluation(1.0))
        stamps = [store.meta.created_at, store.results()[0].updated_at, store.attempt_log()[0].at]
    for stamp in stamps:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", stamp), stamp


def test_a_blob_of_a_rolled_back_unit_is_stored_by_the_next_unit_that_sends_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer scrubs and inserts a blob once however many units resend it — but only once
    it was committed: a blob whose unit's transaction rolled back is written by the next unit
    that carries it, and a credential in it is masked there too."""
    from lifebench.models._record import PackedCalls, encode_blob
    from lifebench.runner import UnitOutcome
    from lifebench.runner._units import PackedOutcome

    tools = encode_blob(b'{"tools": [], "note": "Authorization: Bearer sk-abcdefgh12345"}')
    call = '{"request": {"tools": "' + tools.hash + '"}}'

    def packed(unit: WorkUnit) -> PackedOutcome:
        calls = PackedCalls(
            calls=[(0, "agent", None, None, False, None, call)], blobs=[tools], tools=[]
        )
        out = UnitOutcome(simulation(unit), evaluation(1.0), calls=calls)
        return PackedOutcome.of(unit, out)

    def stored(store: RunStore) -> list[bytes]:
        rows = store._conn.execute("SELECT codec, data FROM blobs").fetchall()
        return [bytes(data) for _, data in rows]

    first, second, third = units()[:3]
    with open_store(tmp_path / "run") as store:
        store.pending_units(units())
        save = store._save_calls

        def fail_after_saving(*args: object) -> None:
            save(*args)  # type: ignore[arg-type]
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(store, "_save_calls", fail_after_saving)
        with pytest.raises(Exception, match="disk I/O error"):
            store.record_packed(packed(first))
        assert stored(store) == []  # rolled back with its unit
        monkeypatch.setattr(store, "_save_calls", save)
        store.record_packed(packed(second))
        store.record_packed(packed(third))
        blobs = stored(store)
        (calls,) = store._conn.execute("SELECT count(*) FROM calls").fetchone()
    assert len(blobs) == 1 and calls == 2
    assert b"abcdefgh12345" not in blobs[0] and b"***" in blobs[0]

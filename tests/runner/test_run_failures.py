"""Failures at the run level: a provider that refuses everything stops the run, a rejected
request is recorded as such (not re-run), and the store explains disk, directory and damage
problems in one message."""

from __future__ import annotations

import asyncio
import errno
import os
import sqlite3
from pathlib import Path

import pytest
from runner_fakes import CONFIG, CONFIG_HASH, TASKS, outcome, simulation, units

from lifebench.errors import ContentRejectedError, FatalProviderError
from lifebench.messages import AssistantMessage
from lifebench.metrics import compute_metrics
from lifebench.models import ModelFactory, ScriptedModel
from lifebench.runner import (
    EventKind,
    Progress,
    RunStore,
    UnitOutcome,
    UnitStatus,
    WorkUnit,
    run_units,
)
from lifebench.runner._errors import StoreDamagedError, StoreError
from lifebench.runner._experiment import run_experiment
from lifebench.suites import make_run_options


def open_store(path: Path) -> RunStore:
    return RunStore.open(path, CONFIG, CONFIG_HASH, TASKS)


async def test_fatal_provider_error_stops_the_run_and_records_nothing_as_done(
    tmp_path: Path,
) -> None:
    tasks = {f"t{i:02d}": f"h{i}" for i in range(40)}
    work = [WorkUnit(t, 0, i) for i, t in enumerate(sorted(tasks))]
    calls = 0
    store = RunStore.open(tmp_path, CONFIG, CONFIG_HASH, tasks)

    async def execute(unit: WorkUnit) -> UnitOutcome:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0)
        if unit.task_id == "t00":
            return outcome(unit)  # one unit finishes before the provider fails
        raise FatalProviderError("401 Unauthorized: invalid API key", status=401)

    with pytest.raises(FatalProviderError, match="invalid API key"):
        await run_units(work, execute, store, concurrency=4)
    records = {r.task_id: r for r in store.results()}
    assert records["t00"].status is UnitStatus.DONE
    assert all(r.status is UnitStatus.PENDING for t, r in records.items() if t != "t00")
    assert calls <= 5  # the in-flight units, not one call per unit of the run
    stopped = [e for e in store.attempt_log() if e.kind is EventKind.CANCELLED]
    assert stopped and any("run stopped: 401" in (e.error or "") for e in stopped)
    store.close()
    with open_store_of(tmp_path, tasks) as again:  # resumable: the pending units run next time
        assert len(again.pending_units(work)) == 39


def open_store_of(path: Path, tasks: dict[str, str]) -> RunStore:
    return RunStore.open(path, CONFIG, CONFIG_HASH, tasks)


async def test_rejected_units_are_recorded_counted_and_not_rerun(tmp_path: Path) -> None:
    work = units()
    store = open_store(tmp_path)
    progress = Progress(quiet=True)

    async def execute(unit: WorkUnit) -> UnitOutcome:
        if unit.trial == 1 and unit.task_id != "t3":
            return UnitOutcome(
                simulation=simulation(unit),
                error="ContentRejectedError: 413 request too large",
                rejected=True,
            )
        return outcome(unit)

    summary = await run_units(work, execute, store, concurrency=2, progress=progress)
    assert (summary.done, summary.rejected, summary.infra_errors) == (4, 2, 0)
    counts = progress.counts
    assert (counts.finished, counts.rejected, counts.failed) == (6, 2, 0)
    rejected = [r for r in store.results() if r.status is UnitStatus.REJECTED]
    assert [(r.task_id, r.trial) for r in rejected] == [("t1", 1), ("t2", 1)]
    assert "413 request too large" in (rejected[0].error or "")
    metrics = compute_metrics(store.results())
    assert (metrics.n_rejected, metrics.n_simulations, metrics.n_errors) == (2, 4, 0)
    assert metrics.n_pending == 0
    assert any("rejected by the provider" in w for w in metrics.warnings)

    ran: list[WorkUnit] = []

    async def again(unit: WorkUnit) -> UnitOutcome:
        ran.append(unit)
        return outcome(unit)

    second = await run_units(work, again, store, concurrency=2)
    assert ran == [] and second.skipped == 6  # rejected units are final
    store.close()


def _run_with(tmp_path: Path, error: Exception) -> tuple[RunStore, BaseException | None]:
    def refuse(messages: object, tools: object) -> AssistantMessage:
        raise error

    factory = ModelFactory()
    factory.register("fake", ScriptedModel([refuse], repeat_last=True, name="fake"))
    options = make_run_options(
        {
            "task_set": "demo",
            "agent_model": "fake",
            "out": str(tmp_path / "run"),
            "concurrency": 2,
            "quiet": True,
        }
    )
    raised: BaseException | None = None
    try:
        asyncio.run(run_experiment(options, models=factory, progress=Progress(quiet=True)))
    except BaseException as exc:
        raised = exc
    return RunStore.read(tmp_path / "run"), raised


def test_experiment_provider_refusing_everything_stops_with_its_message(tmp_path: Path) -> None:
    store, raised = _run_with(tmp_path, FatalProviderError("404 model 'gpt-9' does not exist"))
    try:
        assert isinstance(raised, FatalProviderError) and "gpt-9" in str(raised)
        assert {r.status for r in store.results()} == {UnitStatus.PENDING}
    finally:
        store.close()


def test_experiment_content_rejection_marks_the_unit_rejected(tmp_path: Path) -> None:
    store, raised = _run_with(tmp_path, ContentRejectedError("413 prompt too long"))
    try:
        assert raised is None
        records = store.results()
        assert records and {r.status for r in records} == {UnitStatus.REJECTED}
        assert all("413 prompt too long" in (r.error or "") for r in records)
    finally:
        store.close()


def test_disk_full_while_saving_is_one_store_error(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    unit = units()[0]
    store.pending_units([unit])

    class FullConnection:
        """Stands for a connection whose writes hit a full disk."""

        def __init__(self, real: sqlite3.Connection) -> None:
            self.real = real

        def execute(self, sql: str, *args: object) -> object:
            if sql.startswith("INSERT INTO units"):
                raise OSError(errno.ENOSPC, "No space left on device")
            return self.real.execute(sql, *args)

        def __getattr__(self, name: str) -> object:
            return getattr(self.real, name)

    real = store._conn
    store._conn = FullConnection(real)  # type: ignore[assignment]
    with pytest.raises(StoreError, match="no space left on the device") as info:
        store.record(unit, simulation(unit))
    assert "re-run the same command to resume" in str(info.value)
    store._conn = real
    assert store.results()[0].status is UnitStatus.PENDING  # rolled back, nothing half-written
    store.close()


def test_out_that_is_a_file_or_unwritable_is_one_store_error(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    with pytest.raises(StoreError, match="is a file, not a directory"):
        open_store(a_file)
    with pytest.raises(StoreError, match="a parent of it is a file"):
        open_store(a_file / "below")
    if os.geteuid() == 0:
        return  # root writes through permission bits; the file cases above still hold
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(StoreError, match="cannot"):
            open_store(locked / "run")
    finally:
        locked.chmod(0o700)


def test_damaged_store_says_what_can_be_recovered(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        work = units()
        store.pending_units(work)
        for unit in work[:4]:
            store.record(unit, simulation(unit))
    db = tmp_path / "run.sqlite"
    data = bytearray(db.read_bytes())
    data[:16] = b"garbage garbage!"  # the header: SQLite no longer recognises the file
    db.write_bytes(bytes(data))
    with pytest.raises(StoreDamagedError) as info:
        RunStore.read(tmp_path)
    text = str(info.value)
    assert "is damaged" in text and "nothing can be read" in text
    assert "model_cache.sqlite" in text and ".damaged" in text


def test_damaged_pages_report_readable_units(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        work = [WorkUnit("t1", i, i) for i in range(400)]
        store.pending_units(work)
    conn = sqlite3.connect(tmp_path / "run.sqlite")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    from lifebench.runner._salvage import describe_damage

    text = describe_damage(tmp_path / "run.sqlite", sqlite3.DatabaseError("malformed"))
    assert "400 unit row(s) are readable (400 pending)" in text


def test_version_1_store_is_migrated_on_open(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "run.sqlite")
    conn.executescript(
        """
        CREATE TABLE run_meta (id INTEGER PRIMARY KEY, schema_version INTEGER NOT NULL,
            config_json TEXT NOT NULL, config_hash TEXT NOT NULL,
            lifebench_version TEXT NOT NULL, created_at TEXT NOT NULL);
        CREATE TABLE sessions (id INTEGER PRIMARY KEY AUTOINCREMENT, opened_at TEXT NOT NULL,
            lifebench_version TEXT NOT NULL, resumed INTEGER NOT NULL,
            tasks_added INTEGER NOT NULL);
        CREATE TABLE tasks (task_id TEXT PRIMARY KEY, content_hash TEXT NOT NULL,
            added_at TEXT NOT NULL);
        CREATE TABLE units (task_id TEXT NOT NULL, trial INTEGER NOT NULL,
            seed INTEGER NOT NULL, status TEXT NOT NULL
            CHECK (status IN ('pending', 'done', 'infra_error')),
            attempts INTEGER NOT NULL DEFAULT 0, simulation_json TEXT, evaluation_json TEXT,
            error TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
            PRIMARY KEY (task_id, trial));
        """
    )
    import json

    conn.execute(
        "INSERT INTO run_meta VALUES (1, 1, ?, ?, '0.1.0', '2024-01-01')",
        (json.dumps(CONFIG), CONFIG_HASH),
    )
    conn.executemany("INSERT INTO tasks VALUES (?, ?, '2024-01-01')", sorted(TASKS.items()))
    conn.execute("INSERT INTO units VALUES ('t1', 0, 0, 'pending', 0, NULL, NULL, NULL, 'x', 'x')")
    conn.commit()
    conn.close()
    with open_store(tmp_path) as store:
        unit = WorkUnit("t1", 0, 0)
        status = store.record(unit, simulation(unit), rejected=True, error="413")
        assert status is UnitStatus.REJECTED  # the old status check would refuse this
        assert store.meta.schema_version == 3
    conn = sqlite3.connect(tmp_path / "run.sqlite")
    try:  # every later column and table is there (1 → 2 → 3 in one go)
        columns = {r[1] for r in conn.execute("PRAGMA table_info(sessions)")}
        assert {"notes", "provenance_json"} <= columns
        grading_columns = {r[1] for r in conn.execute("PRAGMA table_info(gradings)")}
        assert "provenance_json" in grading_columns
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert {"gradings", "calls", "blobs", "briefings", "run_tools"} <= tables
    finally:
        conn.close()


class _BrokenConnection:
    """A connection whose every statement fails (an error the store has no advice for)."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real

    def execute(self, sql: str, *args: object) -> object:
        raise sqlite3.OperationalError("interrupted")

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)


@pytest.mark.parametrize(
    ("action", "call"),
    [
        ("reading the attempt log", lambda s, u: s.attempt_log()),
        ("reading the grading log", lambda s, u: s.grading()),
        ("reading task data", lambda s, u: s.task_data()),
        ("reading tasks", lambda s, u: s.tasks()),
        ("logging a cancelled unit", lambda s, u: s.record_cancelled(u)),
        ("saving an evaluation", lambda s, u: s.record_evaluation(u.task_id, u.trial, None)),
        ("logging a grading", lambda s, u: s.finish_grading(1, 0, 0)),
        ("reading the grading log", lambda s, u: s.facts()),
        ("reading the sessions", lambda s, u: s.provenance()),
        ("reading recorded model calls", lambda s, u: s.transcript(u.task_id, u.trial)),
        ("reading recorded tools", lambda s, u: s.run_tools()),
    ],
)
def test_a_failing_store_names_the_file_and_what_it_was_doing(
    tmp_path: Path, action: str, call: object
) -> None:
    store = open_store(tmp_path)
    unit = units()[0]
    store.pending_units([unit])
    real = store._conn
    store._conn = _BrokenConnection(real)  # type: ignore[assignment]
    try:
        with pytest.raises(StoreError) as info:
            call(store, unit)  # type: ignore[operator]
    finally:
        store._conn = real
        store.close()
    assert str(info.value) == (
        f"{tmp_path / 'run.sqlite'}: {action} failed (OperationalError: interrupted)"
    )

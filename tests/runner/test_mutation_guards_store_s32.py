"""Mutation guards for ``runner/_store.py`` (issue 21, session 32), pinned by their effect: the
messages a refused writer reads when the run directory cannot be locked or is locked by a
process that has not written its lease yet."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from runner_fakes import CONFIG, CONFIG_HASH, TASKS, evaluation, simulation, units

from lifebench.messages import UserMessage
from lifebench.runner import STORE_FILENAME, RunStore, _lease, _store
from lifebench.runner._errors import StoreError, StoreInUseError
from lifebench.runner._provenance import Provenance
from lifebench.runner._schema import SCHEMA_VERSION


def test_a_run_directory_that_cannot_be_locked_is_explained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(directory: Path) -> int | None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(_store, "lock_directory", refuse)
    with pytest.raises(StoreError) as info:
        RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS)
    assert str(info.value) == (
        f"cannot write {tmp_path} while locking the run directory ([Errno 13] Permission "
        "denied); check that the run directory is writable, or choose another with --out"
    )
    assert not isinstance(info.value, StoreInUseError)


@pytest.mark.parametrize("existing", [False, True], ids=["new-directory", "closed-run"])
def test_a_directory_locked_by_a_writer_without_a_lease_yet_is_refused_without_a_holder(
    tmp_path: Path, existing: bool
) -> None:
    if existing:  # a finished run: its lease was released on close
        RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS).close()
    fd = _lease.lock_directory(tmp_path)  # another writer that has only taken the lock
    assert fd is not None
    try:
        with pytest.raises(StoreInUseError) as info:
            RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS)
        assert str(info.value) == (
            f"{tmp_path} is in use by another lifebench process; wait for it to finish or use "
            "another run directory"
        )
        assert (tmp_path / STORE_FILENAME).exists() is existing
    finally:
        os.close(fd)
    with RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS) as store:  # released: it opens
        assert store.path == tmp_path / STORE_FILENAME


@pytest.mark.parametrize(
    "said",
    ["my key is {key}, keep it", "我的密钥是{key}，请保密"],
    ids=["english", "chinese"],
)
def test_a_credential_of_the_environment_never_reaches_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, said: str
) -> None:
    key = "q7Zr-plain-value-4815162342"  # shaped like no credential: only the environment knows
    monkeypatch.setenv("LIFEBENCH_S32_API_KEY", key)
    unit = units()[0]
    sim = simulation(unit).model_copy(
        update={"messages": [UserMessage(turn=0, content=said.format(key=key))]}
    )
    with RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS) as store:
        store.pending_units([unit])
        store.record(unit, sim, error=f"provider said: bad key {key}")
        (row,) = store.results()
    assert row.simulation is not None
    assert row.simulation.messages[0].content == said.format(key="***")
    assert row.error == "provider said: bad key ***"
    assert key.encode() not in b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())


def test_a_replaced_store_file_stops_the_writer_with_what_to_do(tmp_path: Path) -> None:
    unit = units()[0]
    store = RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS)
    try:
        store.pending_units([unit])
        copy = tmp_path / "copy.sqlite"
        copy.write_bytes((tmp_path / STORE_FILENAME).read_bytes())
        copy.replace(tmp_path / STORE_FILENAME)
        with pytest.raises(StoreError) as info:
            store.record(unit, simulation(unit), evaluation(1.0))
    finally:
        store.close()
    assert str(info.value) == (
        f"{tmp_path / STORE_FILENAME} was deleted or replaced while this process was writing the "
        "run; it stops so that no unit is written where nobody will read it. Units finished "
        "before are in the file that was replaced (restore it if you can); re-run the same "
        "command to resume from what the run directory holds"
    )


WRITES = {
    "registering units": lambda store, unit: store.pending_units([unit]),
    "saving a finished unit": lambda store, unit: store.record(
        unit, simulation(unit), evaluation(0.5)
    ),
    "logging a cancelled unit": lambda store, unit: store.record_cancelled(unit),
    "saving an evaluation": lambda store, unit: store.record_evaluation(
        unit.task_id, unit.trial, evaluation(0.25)
    ),
    "logging a grading": lambda store, unit: store.begin_grading("eval", {"judge": "j"}, 1),
    "logging the end of a grading": lambda store, unit: store.finish_grading(1, 1, 0),
}


@pytest.mark.parametrize("what", sorted(WRITES), ids=lambda w: w.replace(" ", "-"))
def test_a_write_blocked_by_another_process_names_what_it_was_doing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    monkeypatch.setattr(_store, "BUSY_TIMEOUT_MS", 50)  # a blocked write gives up after 50 ms
    unit = units()[0]
    with RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS) as store:
        store.pending_units([unit])
        store.record(unit, simulation(unit), evaluation(1.0))
        store.begin_grading("eval", {"judge": "j"}, 1)
        other = sqlite3.connect(tmp_path / STORE_FILENAME, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # another process writing (by hand, say)
            with pytest.raises(StoreError) as info:
                WRITES[what](store, unit)
            other.execute("ROLLBACK")
        finally:
            other.close()
        action = "logging a grading" if what.startswith("logging the end") else what
        assert str(info.value) == (
            f"{tmp_path / STORE_FILENAME} stayed locked by another process while {action} "
            "(database is locked); try again"
        )
        assert [r.attempts for r in store.results()] == [1]  # nothing of the refused write


@pytest.mark.parametrize("opening", [True, False], ids=["open", "read"])
def test_a_foreign_database_with_a_run_meta_table_is_refused_naming_the_step(
    tmp_path: Path, opening: bool
) -> None:
    conn = sqlite3.connect(tmp_path / STORE_FILENAME)
    conn.execute("CREATE TABLE run_meta (id INTEGER PRIMARY KEY, name TEXT)")  # not lifebench's
    conn.commit()
    conn.close()
    with pytest.raises(StoreError) as info:
        if opening:
            RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS)
        else:
            RunStore.read(tmp_path)
    action = "opening the run store" if opening else "reading the run store"
    assert str(info.value) == (
        f"{tmp_path / STORE_FILENAME}: {action} failed (OperationalError: no such column: "
        "config_json)"
    )


def test_a_writer_opened_by_read_is_named_lifebench_eval_by_default(tmp_path: Path) -> None:
    RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS).close()
    with RunStore.read(tmp_path, write=True), pytest.raises(StoreInUseError) as info:
        RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS)
    assert f"(pid {os.getpid()} on host " in str(info.value)
    assert "(lifebench eval, since " in str(info.value)


def _session_notes(run_dir: Path) -> list[str | None]:
    conn = sqlite3.connect(run_dir / STORE_FILENAME)
    try:
        return [r[0] for r in conn.execute("SELECT notes FROM sessions ORDER BY id")]
    finally:
        conn.close()


def test_a_resume_lists_the_lease_taken_over_first_and_stores_every_note(tmp_path: Path) -> None:
    store = RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS)
    store._heartbeat.stop()  # type: ignore[union-attr]
    store._lease = None  # killed: its lease row stays behind …
    store._conn.close()
    os.close(store._lock_fd)  # type: ignore[arg-type]
    conn = sqlite3.connect(tmp_path / STORE_FILENAME)
    with conn:  # … as if written by a machine that stopped beating long ago
        conn.execute("UPDATE writer_lease SET host = 'ghost-host', boot_id = '', heartbeat_at = 0")
    (acquired,) = conn.execute("SELECT acquired_at FROM writer_lease").fetchone()
    pid = conn.execute("SELECT pid FROM writer_lease").fetchone()[0]
    conn.close()
    more_trials = {**CONFIG, "trials": 3}  # outside the hash: accepted with a note
    with RunStore.open(tmp_path, more_trials, CONFIG_HASH, {**TASKS, "t4": "h4"}) as resumed:
        notes = resumed.notes
        assert resumed.config() == more_trials and resumed.meta.config == more_trials
    assert notes == [
        f"took over the writer lease of pid {pid} on host ghost-host (lifebench run, since "
        f"{acquired}), which is no longer running",
        "changed without affecting results: trials: 2 -> 3",
        "1 task(s) added to the run: t4",
    ]
    assert _session_notes(tmp_path) == [None, "\n".join(notes)]


def test_a_resume_under_newer_hash_rules_takes_the_new_hash(tmp_path: Path) -> None:
    RunStore.open(tmp_path, CONFIG, "old-rules-hash", TASKS).close()
    with RunStore.open(
        tmp_path, CONFIG, "new-rules-hash", TASKS, rehash=lambda config: "new-rules-hash"
    ) as store:
        assert store.meta.config_hash == "new-rules-hash"
        assert store.notes == []
    with RunStore.read(tmp_path) as reader:
        assert reader.meta.config_hash == "new-rules-hash"
    assert _session_notes(tmp_path) == [None, None]


def test_a_resumed_store_of_an_older_schema_reports_the_current_one(tmp_path: Path) -> None:
    RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS).close()
    conn = sqlite3.connect(tmp_path / STORE_FILENAME)
    with conn:
        conn.execute("UPDATE run_meta SET schema_version = ?", (SCHEMA_VERSION - 1,))
    conn.close()
    with RunStore.read(tmp_path) as reader:
        assert reader.meta.schema_version == SCHEMA_VERSION - 1
    with RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS) as store:
        assert store.meta.schema_version == SCHEMA_VERSION
    with RunStore.read(tmp_path) as reader:
        assert reader.meta.schema_version == SCHEMA_VERSION


# What each read asks of the store, the action its error names, and the table broken under it
# (by hand, from another connection: a table dropped, or replaced by one lacking a column).
READS: dict[str, tuple[str, str, Any]] = {
    "results": ("reading results", "DROP TABLE units", lambda s: s.results()),
    "failed_gradings": ("reading the gradings", "DROP TABLE units", lambda s: s.failed_gradings()),
    "attempt_log": ("reading the attempt log", "DROP TABLE attempts", lambda s: s.attempt_log()),
    "transcript": (
        "reading recorded model calls",
        "DROP TABLE attempts",
        lambda s: s.transcript("t1", 0),
    ),
    "run_tools": (
        "reading recorded tools",
        "DROP TABLE run_tools; CREATE TABLE run_tools (first_task TEXT)",
        lambda s: s.run_tools(),
    ),
    "task_data": ("reading task data", "DROP TABLE task_data", lambda s: s.task_data()),
    "tasks": ("reading tasks", "DROP TABLE tasks", lambda s: s.tasks()),
    "provenance": (
        "reading the sessions",
        "DROP TABLE sessions; CREATE TABLE sessions (provenance_json TEXT)",
        lambda s: s.provenance(),
    ),
    "grading": ("reading the grading log", "DROP TABLE attempts", lambda s: s.grading()),
    "facts": ("reading the grading log", "DROP TABLE attempts", lambda s: s.facts()),
}


@pytest.mark.parametrize("read", sorted(READS))
def test_a_read_of_a_broken_table_names_the_store_and_what_it_was_reading(
    tmp_path: Path, read: str
) -> None:
    action, damage, call = READS[read]
    unit = units()[0]
    with RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS, {"t1": '{"id": "t1"}'}) as store:
        store.begin_grading("run", {"evaluator": "state"}, 1)
        store.pending_units([unit])
        store.record(unit, simulation(unit), evaluation(1.0))
    conn = sqlite3.connect(tmp_path / STORE_FILENAME, isolation_level=None)
    conn.executescript(f"PRAGMA foreign_keys=OFF; {damage};")
    conn.close()
    with RunStore.read(tmp_path) as reader, pytest.raises(StoreError) as info:
        call(reader)
    message = str(info.value)
    assert message.startswith(f"{tmp_path / STORE_FILENAME}: {action} failed (OperationalError: ")
    assert "no such " in message


def test_the_provenance_of_a_run_is_its_latest_sessions(tmp_path: Path) -> None:
    first = Provenance(lifebench_version="1.0", graders={"state": "g:1"})
    second = Provenance(lifebench_version="2.0", graders={"state": "g:2"})
    third = Provenance(lifebench_version="3.0", graders={"state": "g:3"})
    for provenance in (first, None, second, third):
        RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS, provenance=provenance).close()
    with RunStore.read(tmp_path) as reader:
        assert reader.provenance() == third
        assert reader._sessions() == [first, None, second, third]
    RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS).close()  # a session that records none
    with RunStore.read(tmp_path) as reader:
        assert reader.provenance() is None


def _graded_store(run_dir: Path) -> None:
    """t1#0 graded before any grading was logged; t1#1 and t2#0 graded by an unfinished run
    grading (t1#1 the first attempt it logged); t1#1 graded again by a finished re-grade."""
    before, first, second = units()[0], units()[1], units()[2]
    with RunStore.open(run_dir, CONFIG, CONFIG_HASH, TASKS) as store:
        store.pending_units([before, first, second])
        store.record(before, simulation(before), evaluation(1.0))
        store.begin_grading(
            "run",
            {"evaluator": "state", "bases": ["state"]},
            3,
            Provenance(lifebench_version="1.0", graders={"state": "g:1"}),
        )
        store.record(first, simulation(first), evaluation(0.0))
        store.record(second, simulation(second), evaluation(1.0))
        regrade = store.begin_grading(
            "eval",
            {"evaluator": "judge", "bases": ["state"]},
            1,
            Provenance(lifebench_version="1.0", graders={"state": "g:2"}),
        )
        store.record_evaluation(first.task_id, first.trial, evaluation(1.0))
        store.finish_grading(regrade, 1, 0)


def test_each_stored_evaluation_is_attributed_to_the_grading_that_logged_it(
    tmp_path: Path,
) -> None:
    _graded_store(tmp_path)
    with RunStore.read(tmp_path) as reader:
        assert reader.grading() == {
            "parts": [
                {
                    "evaluator": "judge",
                    "bases": ["state"],
                    "source": "eval",
                    "simulations": 1,
                    "to_grade": 1,
                    "interrupted": False,
                },
                {
                    "evaluator": "state",
                    "bases": ["state"],
                    "source": "run",
                    "simulations": 1,
                    "to_grade": 3,
                    "interrupted": False,  # a run's grading is never 'interrupted'
                },
                {"source": "unknown", "simulations": 1, "interrupted": False},
            ],
            "mixed": True,
        }
        facts = reader.facts()
    assert facts.graders == {"state": ["g:1", "g:2"]} and facts.mixed


def test_gradings_of_a_store_without_their_provenance_column_are_still_attributed(
    tmp_path: Path,
) -> None:
    _graded_store(tmp_path)
    conn = sqlite3.connect(tmp_path / STORE_FILENAME)
    conn.execute("ALTER TABLE gradings DROP COLUMN provenance_json")  # as written before it
    conn.commit()
    conn.close()
    with RunStore.read(tmp_path) as reader:
        parts = reader.grading()["parts"]  # type: ignore[index]
        facts = reader.facts()
    assert [(p["source"], p["simulations"]) for p in parts] == [
        ("eval", 1),
        ("run", 1),
        ("unknown", 1),
    ]
    assert facts.graders == {"state": []} and facts.mixed


def test_a_refused_writer_waits_at_most_a_second_to_read_who_holds_the_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS).close()
    connect = sqlite3.connect
    opened: list[tuple[str, dict[str, Any]]] = []

    def spy(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        opened.append((str(database), kwargs))
        return connect(database, *args, **kwargs)

    fd = _lease.lock_directory(tmp_path)
    assert fd is not None
    try:
        monkeypatch.setattr(_store.sqlite3, "connect", spy)
        with pytest.raises(StoreInUseError):
            RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS)
    finally:
        monkeypatch.undo()
        os.close(fd)
    # read-only, so that the refused writer never creates or changes the holder's file
    assert opened == [(f"file:{tmp_path / STORE_FILENAME}?mode=ro", {"uri": True, "timeout": 1})]


def test_a_writer_opened_by_read_holds_the_directory_even_without_its_lease_row(
    tmp_path: Path,
) -> None:
    RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS).close()
    with RunStore.read(tmp_path, write=True):
        conn = sqlite3.connect(tmp_path / STORE_FILENAME)
        with conn:
            conn.execute("DELETE FROM writer_lease")  # removed by hand
        conn.close()
        with pytest.raises(StoreInUseError) as info:
            RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS)
    assert str(info.value) == (
        f"{tmp_path} is in use by another lifebench process; wait for it to finish or use "
        "another run directory"
    )


@pytest.mark.parametrize("opening", [True, False], ids=["open", "read-write"])
def test_a_damaged_store_releases_the_directory_lock(tmp_path: Path, opening: bool) -> None:
    (tmp_path / STORE_FILENAME).write_bytes(b"not a database, not even close " * 40)
    with pytest.raises(StoreError):
        if opening:
            RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS)
        else:
            RunStore.read(tmp_path, write=True)
    fd = _lease.lock_directory(tmp_path)  # free again: nobody holds it
    assert fd is not None
    os.close(fd)


@pytest.mark.parametrize("opening", [True, False], ids=["open", "read-write"])
def test_a_live_lease_of_another_machine_is_refused_naming_the_directory(
    tmp_path: Path, opening: bool
) -> None:
    RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS).close()
    conn = sqlite3.connect(tmp_path / STORE_FILENAME)
    with conn:  # a writer on another machine (no OS lock here), beating just now
        conn.execute(
            "INSERT INTO writer_lease (id, token, pid, host, boot_id, pid_start, command, "
            "acquired_at, heartbeat_at) VALUES (1, 'x', 4242, 'other-host', 'b', '1', "
            "'lifebench run', '2025-01-01T00:00:00+00:00', ?)",
            (time.time() + 3600,),
        )
    conn.close()
    with pytest.raises(StoreInUseError) as info:
        if opening:
            RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS)
        else:
            RunStore.read(tmp_path, write=True)
    assert str(info.value) == (
        f"{tmp_path} is in use by another lifebench process (pid 4242 on host other-host "
        "(lifebench run, since 2025-01-01T00:00:00+00:00)); wait for it to finish or use "
        "another run directory"
    )

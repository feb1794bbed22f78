"""Mutation guards for ``runner/_store.py`` (issue 21, session 32), pinned by their effect: the
messages a refused writer reads when the run directory cannot be locked or is locked by a
process that has not written its lease yet."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from runner_fakes import CONFIG, CONFIG_HASH, TASKS, evaluation, simulation, units

from lifebench.messages import UserMessage
from lifebench.runner import STORE_FILENAME, RunStore, _lease, _store
from lifebench.runner._errors import StoreError, StoreInUseError


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

"""Mutation guards for ``runner/_store.py`` (issue 21, session 32), pinned by their effect: the
messages a refused writer reads when the run directory cannot be locked or is locked by a
process that has not written its lease yet."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from runner_fakes import CONFIG, CONFIG_HASH, TASKS

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

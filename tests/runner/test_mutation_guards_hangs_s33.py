"""Loops that must end, pinned without a clock: each test fails (instead of hanging) when the
code keeps reading, waiting or looping past the point where it should stop (scripts/mutation.sh
counts a mutant whose tests hang as a timeout, never as a kill).

* ``file_info`` hashes a task file block by block and stops at end-of-file: the stream refuses
  a read after it has returned end-of-file once.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from lifebench.runner._provenance import file_info

# ------------------------------------------------------------------ file_info: stop at end-of-file


class _ReadOnceToEnd:
    """A binary stream over the real file that fails a read after end-of-file was returned
    (a loop whose end-of-file test never matches would otherwise read b"" forever)."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.ended, self.reads = inner, False, 0

    def read(self, size: int = -1) -> bytes:
        assert not self.ended, f"read({size}) after end-of-file (read {self.reads} times)"
        self.reads += 1
        block: bytes = self.inner.read(size)
        self.ended = block == b""
        return block

    def __enter__(self) -> _ReadOnceToEnd:
        return self

    def __exit__(self, *exc: object) -> None:
        self.inner.close()


def _strict_open(monkeypatch: pytest.MonkeyPatch, target: Path) -> list[_ReadOnceToEnd]:
    opened: list[_ReadOnceToEnd] = []
    real_open = Path.open

    def open_(self: Path, *args: Any, **kwargs: Any) -> Any:
        stream = real_open(self, *args, **kwargs)
        if self != target:
            return stream
        opened.append(_ReadOnceToEnd(stream))
        return opened[-1]

    monkeypatch.setattr(Path, "open", open_)
    return opened


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("tasks_en.json", b'[{"id": "t1", "instructions": "order a coffee"}]'),
        ("tasks_zh.json", '[{"id": "t1", "instructions": "点一杯咖啡"}]'.encode()),
        ("empty.json", b""),
        ("two_blocks.json", bytes(range(256)) * 4097),  # 1 MiB + 256 bytes: two blocks
    ],
    ids=["english", "chinese", "empty", "two-blocks"],
)
def test_a_task_files_digest_reads_it_to_its_end_and_no_further(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, data: bytes
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    opened = _strict_open(monkeypatch, path)
    info = file_info(str(path))
    assert info is not None
    assert (info.name, info.size, info.sha256) == (
        name,
        len(data),
        hashlib.sha256(data).hexdigest(),
    )
    assert len(opened) == 1 and opened[0].ended  # read up to end-of-file, once

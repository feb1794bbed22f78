"""``lifebench data get``: bring a data set's pinned files into ``DEST/<folder>``, or say
exactly what to put where when they cannot be downloaded."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lifebench.data._catalog import BASE_URL_ENV, DATASETS, DEFAULT_BASE_URL, DataFile, Dataset
from lifebench.data._fetch import (
    DataError,
    FileOutcome,
    ProgressFn,
    digest_file,
    extract_zip,
    fetch_file,
    mismatch,
)
from lifebench.errors import InputError

UNPACKED_STAMP = ".lifebench-unpacked"
"""File inside an unpacked folder naming the archive (git blob id) it came from."""
SUMS_FILE = "SHA256SUMS"
"""Beside the data: ``<sha256>  <path>`` per verified file (``sha256sum -c`` reads it)."""

ProgressFactory = Callable[[DataFile], ProgressFn | None]


def dataset(name: str) -> Dataset:
    """The data set called ``name``.

    Raises:
        InputError: Unknown name (the known ones are listed).
    """
    found = DATASETS.get(name.strip().lower())
    if found is None:
        known = ", ".join(DATASETS)
        raise InputError(f"unknown data set {name!r}; known: {known}", field="NAME")
    return found


def base_url(option: str | None = None) -> str:
    """The download base: the option, else ``$LIFEBENCH_DATA_URL``, else raw GitHub."""
    return option or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL


@dataclass
class GetResult:
    """What ``data get`` did for one data set."""

    dataset: Dataset
    folder: Path
    base_url: str
    files: list[FileOutcome] = field(default_factory=list)
    unpacked: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Every file is in place and verified (manual steps aside)."""
        return not self.problems and all(f.status in ("present", "downloaded") for f in self.files)

    @property
    def missing(self) -> list[FileOutcome]:
        """Files not in place."""
        return [f for f in self.files if f.status not in ("present", "downloaded")]


def _unpacked(folder: Path, item: DataFile) -> bool:
    stamp = folder / UNPACKED_STAMP
    try:
        return stamp.read_text(encoding="utf-8").strip() == item.git_blob
    except OSError:
        return False


def _keep_zip(folder: Path, item: DataFile, archive: Path) -> bool:
    """False when the archive was unpacked earlier and then removed: nothing to fetch."""
    return archive.exists() or not _unpacked(folder, item)


def _check_present(item: DataFile, target: Path) -> FileOutcome:
    if not target.is_file():
        return FileOutcome(item=item, target=target, status="missing", detail="not there")
    digest = digest_file(target)
    wrong = mismatch(digest, item)
    if wrong is not None:
        return FileOutcome(
            item=item,
            target=target,
            status="failed",
            detail=f"{target} is not the pinned file ({wrong})",
        )
    return FileOutcome(item=item, target=target, status="present", digest=digest)


async def get_dataset(
    data: Dataset,
    dest: Path,
    *,
    url: str | None = None,
    offline: bool = False,
    progress: ProgressFactory | None = None,
) -> GetResult:
    """Download (or, ``offline``, only check) every file of ``data`` into ``dest/<folder>``,
    unpack archives, and record the SHA-256 of every verified file in ``SHA256SUMS``."""
    folder = dest / data.folder
    result = GetResult(dataset=data, folder=folder, base_url=base_url(url))
    for item in data.files:
        target = folder / item.dest
        unpack_to = folder / item.extract_to if item.extract_to else None
        if unpack_to is not None and not await asyncio.to_thread(
            _keep_zip, unpack_to, item, target
        ):
            result.files.append(
                FileOutcome(item=item, target=target, status="present", detail="unpacked")
            )
            continue
        if offline:
            outcome = await asyncio.to_thread(_check_present, item, target)
        else:
            outcome = await fetch_file(
                item, target, result.base_url, progress=progress(item) if progress else None
            )
        result.files.append(outcome)
        in_place = outcome.status in ("present", "downloaded")
        if unpack_to is not None and in_place and not _unpacked(unpack_to, item):
            try:
                count = await asyncio.to_thread(_unpack, target, unpack_to, item)
            except DataError as exc:
                result.problems.append(str(exc))
                continue
            result.unpacked[item.extract_to or ""] = count
    await asyncio.to_thread(_write_sums, result)
    return result


def _unpack(archive: Path, folder: Path, item: DataFile) -> int:
    count = extract_zip(archive, folder)
    (folder / UNPACKED_STAMP).write_text(item.git_blob + "\n", encoding="utf-8")
    return count


def _write_sums(result: GetResult) -> None:
    """Record the SHA-256 of the verified files (kept entries of files not checked now)."""
    sums = result.folder / SUMS_FILE
    entries: dict[str, str] = {}
    try:
        for line in sums.read_text(encoding="utf-8").splitlines():
            digest, _, name = line.partition("  ")
            if digest and name:
                entries[name] = digest
    except OSError:
        pass
    for outcome in result.files:
        if outcome.digest is not None:
            entries[outcome.item.dest] = outcome.digest.sha256
    if not entries:
        return
    result.folder.mkdir(parents=True, exist_ok=True)
    text = "".join(f"{entries[name]}  {name}\n" for name in sorted(entries))
    sums.write_text(text, encoding="utf-8")


def by_hand(result: GetResult) -> list[str]:
    """Lines that say exactly what to download and where to put it, for the files that are
    not in place, then the data set's manual steps."""
    data, lines = result.dataset, []
    if result.missing:
        lines.append("To put the missing files in place by hand, download each one to its path:")
        for outcome in result.missing:
            item = outcome.item
            size = f", {item.size:,} bytes" if item.size is not None else ""
            lines.append(f"  {item.url(result.base_url)}")
            lines.append(f"    → {outcome.target}  ({item.pin}{size})")
            if item.extract_to:
                lines.append(f"    then unzip it; its data folder becomes {item.extract_to}/")
        lines.append(
            f"then check them with: lifebench data get {data.name} "
            f"--dest {result.folder.parent} --offline"
        )
    for step in data.manual:
        lines.append(f"By hand (not downloadable by a pinned URL): {step.what}")
        lines.append(f"  from: {step.source}")
        lines.append(f"  put:  {result.folder}/ — {step.put}")
        lines.append(f"  pin:  {step.pin}")
    return lines

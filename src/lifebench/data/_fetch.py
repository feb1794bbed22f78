"""Download pinned files: resume (HTTP Range), verify (SHA-256 and git blob id), unpack.

A file is downloaded to ``<name>.part`` beside its destination; an interrupted download (a cut
connection, Ctrl-C, a lost network) leaves the part, and the next attempt asks only for the
rest (``Range: bytes=N-``). A finished part is verified before it is renamed into place; a part
that fails verification is deleted, so nothing unverified is ever left where the data goes.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

from lifebench.data._catalog import DataFile
from lifebench.errors import LifebenchError

CHUNK = 1 << 16
ATTEMPTS = 3
"""Requests per file in one ``data get``: a cut connection is resumed this many times."""

ProgressFn = Callable[[int, int | None], None]
"""Called with (bytes so far, total bytes or None) while a file downloads."""


class DataError(LifebenchError):
    """A file could not be fetched or verified; the message names the file, URL and reason."""


class VerificationError(DataError):
    """Downloaded content is not the pinned content (the part was deleted)."""


class UnreachableError(DataError):
    """The server could not be reached at all (no network, unknown host, refused)."""


class RefusedError(DataError):
    """The server answered with an error no retry changes (404, 403, …)."""


@dataclass(frozen=True)
class Digest:
    """What a file's bytes hash to."""

    size: int
    sha256: str
    git_blob: str


def digest_file(path: Path) -> Digest:
    """Size, SHA-256 and git blob id (``sha1("blob <size>\\0" + content)``) of ``path``."""
    size = path.stat().st_size
    sha256 = hashlib.sha256()
    blob = hashlib.sha1(f"blob {size}\0".encode(), usedforsecurity=False)
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            sha256.update(chunk)
            blob.update(chunk)
    return Digest(size=size, sha256=sha256.hexdigest(), git_blob=blob.hexdigest())


def mismatch(digest: Digest, item: DataFile) -> str | None:
    """Why ``digest`` is not the pinned content of ``item`` (None when it is)."""
    if item.size is not None and digest.size != item.size:
        return f"size {digest.size} bytes, expected {item.size}"
    if item.sha256 is not None and digest.sha256 != item.sha256:
        return f"sha256 {digest.sha256}, expected {item.sha256}"
    if digest.git_blob != item.git_blob:
        return f"git blob {digest.git_blob}, expected {item.git_blob}"
    return None


@dataclass
class FileOutcome:
    """What happened to one file."""

    item: DataFile
    target: Path
    status: Literal["present", "downloaded", "failed", "missing"]
    digest: Digest | None = None
    detail: str = ""
    resumed_from: int = 0


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


async def _download(
    url: str,
    part: Path,
    *,
    timeout_s: float,
    progress: ProgressFn | None,
) -> None:
    """Bring ``part`` to the whole content of ``url``, resuming from its current size.

    Raises:
        UnreachableError: No connection could be made.
        DataError: The server answered with an error, or the connection broke.
    """
    import aiohttp

    offset = await asyncio.to_thread(_size, part)
    headers = {"Range": f"bytes={offset}-"} if offset else {}
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=timeout_s, sock_read=timeout_s)
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.get(url, headers=headers) as response,
        ):
            if response.status == 416 and offset:
                return  # the part already holds everything: verification decides
            if response.status not in (200, 206):
                reason = f"HTTP {response.status} {response.reason or ''}".rstrip()
                final = 400 <= response.status < 500 and response.status not in (408, 429)
                raise (RefusedError if final else DataError)(f"{reason} from {url}")
            if response.status == 206:
                start = _range_start(response.headers.get("Content-Range", ""))
                if start != offset:
                    raise DataError(
                        f"{url} answered the range request from byte {offset} with bytes "
                        f"from {start}; delete {part} to start again"
                    )
            else:
                offset = 0  # the server ignores Range: start again
            length = response.content_length
            total = offset + length if length is not None else None
            done = offset
            with part.open("ab" if offset else "wb") as handle:
                async for chunk in response.content.iter_chunked(CHUNK):
                    handle.write(chunk)
                    done += len(chunk)
                    if progress is not None:
                        progress(done, total)
            if total is not None and done < total:
                raise DataError(f"connection closed after {done} of {total} bytes of {url}")
    except aiohttp.ClientConnectorError as exc:
        raise UnreachableError(f"cannot reach {url}: {exc.os_error or exc}") from None
    except (aiohttp.ClientError, TimeoutError) as exc:
        kind = "timed out" if isinstance(exc, TimeoutError) else str(exc) or type(exc).__name__
        raise DataError(f"download of {url} broke off ({kind})") from None


def _range_start(content_range: str) -> int | None:
    """The first byte of a ``Content-Range: bytes START-END/TOTAL`` header."""
    unit, _, spec = content_range.strip().partition(" ")
    start, _, _ = spec.partition("-")
    return int(start) if unit == "bytes" and start.isdigit() else None


async def fetch_file(
    item: DataFile,
    target: Path,
    base_url: str,
    *,
    timeout_s: float = 60.0,
    progress: ProgressFn | None = None,
) -> FileOutcome:
    """Make ``target`` hold the pinned content of ``item``: keep a verified file, else download
    (resuming a part), verify, and rename into place. Never raises for the file's own
    problems: they are in the outcome (``failed``, with the reason)."""
    outcome, part = await asyncio.to_thread(_prepare, item, target)
    if outcome.status == "present":
        return outcome
    url = item.url(base_url)
    last: DataError | None = None
    for _ in range(ATTEMPTS):
        try:
            await _download(url, part, timeout_s=timeout_s, progress=progress)
        except UnreachableError as exc:
            outcome.detail = str(exc)
            outcome.status = "missing"
            return outcome
        except RefusedError as exc:
            await asyncio.to_thread(_drop_if_empty, part)
            outcome.detail = str(exc)
            return outcome
        except DataError as exc:
            last = exc
            continue
        last = None
        break
    if last is not None:
        kept = await asyncio.to_thread(_size, part)
        outcome.detail = f"{last}; the {kept} bytes received are kept: run the command again "
        outcome.detail += "to resume"
        return outcome
    return await asyncio.to_thread(_verify_into_place, outcome, part, url)


def _drop_if_empty(part: Path) -> None:
    if _size(part) == 0:
        part.unlink(missing_ok=True)


def _prepare(item: DataFile, target: Path) -> tuple[FileOutcome, Path]:
    """The outcome so far (``present`` when ``target`` is already the pinned file) and the
    part file to download into (dropped when it is longer than the file can be)."""
    outcome = FileOutcome(item=item, target=target, status="failed")
    if target.is_file():
        digest = digest_file(target)
        wrong = mismatch(digest, item)
        if wrong is None:
            outcome.status, outcome.digest = "present", digest
            return outcome, target
        outcome.detail = f"{target} is there but is not the pinned file ({wrong}); replaced"
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    if item.size is not None and _size(part) > item.size:
        part.unlink()
    outcome.resumed_from = _size(part)
    return outcome, part


def _verify_into_place(outcome: FileOutcome, part: Path, url: str) -> FileOutcome:
    """Verify a finished part: rename it into place, or delete it and say why."""
    digest = digest_file(part)
    wrong = mismatch(digest, outcome.item)
    if wrong is not None:
        part.unlink(missing_ok=True)
        outcome.detail = (
            f"{url} is not the pinned file: {wrong}. Nothing was kept; the server or a proxy "
            "changed the file, or the catalogue is wrong"
        )
        return outcome
    os.replace(part, outcome.target)
    outcome.status, outcome.digest, outcome.detail = "downloaded", digest, ""
    return outcome


def extract_zip(archive: Path, folder: Path, marker: str = "_cache.json") -> int:
    """Unpack ``archive`` so that ``folder`` receives its data folder — the folder holding the
    files named ``*marker`` (the archive's top folder when there is one) — through a temporary
    folder and a rename. Returns the number of files. An archive whose entries would land
    outside the folder is refused.

    Raises:
        DataError: Not a zip archive, an unsafe entry, or no file ending with ``marker``.
    """
    tmp = folder.with_name(f".{folder.name}.unpacking")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        with zipfile.ZipFile(archive) as zf:
            names = [n for n in zf.namelist() if not n.startswith("__MACOSX/")]
            for name in names:
                pure = PurePosixPath(name)
                if pure.is_absolute() or ".." in pure.parts:
                    raise DataError(f"{archive}: unsafe entry {name!r} (outside the folder)")
            zf.extractall(tmp, members=names)
        roots = {p.parent for p in tmp.rglob(f"*{marker}") if p.is_file()}
        if not roots:
            raise DataError(f"{archive} holds no *{marker} file; is it the right archive?")
        root = min(roots, key=lambda p: (len(p.parts), str(p)))
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(root, folder)
        return sum(1 for p in folder.rglob("*") if p.is_file())
    except zipfile.BadZipFile as exc:
        raise DataError(f"{archive} is not a zip archive: {exc}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

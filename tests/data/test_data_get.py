"""`lifebench data get`: pinned downloads against a loopback server — verification, resume
after a cut connection, a SHA mismatch leaving nothing behind, unpacking, offline
instructions, licences — and the real catalogue's pins checked against the shared samples."""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import zipfile
from pathlib import Path

import pytest
from loopback import Behaviour, serve
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.data import DATASETS, DataFile, Dataset, Licence, ManualStep, get_dataset
from lifebench.data._fetch import digest_file, extract_zip

REPO, COMMIT = "someone/bench", "0" * 40


def _blob(content: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(content) + content, usedforsecurity=False).hexdigest()


def _item(path: str, content: bytes, *, dest: str | None = None, with_sha: bool = True,
          extract_to: str | None = None) -> DataFile:  # fmt: skip
    return DataFile(
        repo=REPO,
        commit=COMMIT,
        path=path,
        dest=dest or path,
        git_blob=_blob(content),
        sha256=hashlib.sha256(content).hexdigest() if with_sha else None,
        size=len(content) if with_sha else None,
        extract_to=extract_to,
    )


def _url_path(item: DataFile) -> str:
    return f"/{item.repo}/{item.commit}/{item.path}"


BIG = bytes(range(256)) * 4096  # 1 MiB, several chunks
SMALL = "任务 tasks\n".encode() * 50
LICENCE = b"Licence text\n"


def _dataset(*files: DataFile, manual: tuple[ManualStep, ...] = ()) -> Dataset:
    return Dataset(
        name="bench",
        suite="vita",
        title="A test bench",
        folder="bench",
        licence=Licence(name="CC BY-NC 4.0", url="http://example/licence", summary="test"),
        files=files,
        manual=manual,
    )


def _get(data: Dataset, dest: Path, base: str, offline: bool = False):  # type: ignore[no-untyped-def]
    return asyncio.run(get_dataset(data, dest, url=base, offline=offline))


def test_downloads_verify_and_land_where_the_catalogue_says(tmp_path: Path) -> None:
    big = _item("data/big.json", BIG, dest="split/tasks.json")
    small = _item("data/small.jsonl", SMALL, with_sha=False)  # pinned by git blob only
    behaviour = Behaviour(files={_url_path(big): BIG, _url_path(small): SMALL})
    with serve(behaviour) as base:
        result = _get(_dataset(big, small), tmp_path, base)
    assert result.complete
    assert (tmp_path / "bench" / "split" / "tasks.json").read_bytes() == BIG
    assert (tmp_path / "bench" / "data" / "small.jsonl").read_bytes() == SMALL
    assert [o.status for o in result.files] == ["downloaded", "downloaded"]
    # the SHA-256 of every verified file is recorded, also the one pinned by blob id only
    sums = (tmp_path / "bench" / "SHA256SUMS").read_text().splitlines()
    assert sums == sorted(
        [
            f"{hashlib.sha256(SMALL).hexdigest()}  data/small.jsonl",
            f"{hashlib.sha256(BIG).hexdigest()}  split/tasks.json",
        ],
        key=lambda line: line.split("  ")[1],
    )
    assert not list(tmp_path.rglob("*.part"))

    # again: nothing downloaded, everything verified in place
    with serve(behaviour) as base:
        again = _get(_dataset(big, small), tmp_path, base)
    assert [o.status for o in again.files] == ["present", "present"]


def test_a_cut_connection_is_resumed_with_a_range_request(tmp_path: Path) -> None:
    big = _item("data/big.json", BIG)
    path = _url_path(big)
    behaviour = Behaviour(files={path: BIG}, cut_after={path: 300_000})
    with serve(behaviour) as base:
        result = _get(_dataset(big), tmp_path, base)
    assert result.complete and (tmp_path / "bench" / "data" / "big.json").read_bytes() == BIG
    ranges = [r for p, r in behaviour.requests if p == path]
    assert ranges[0] is None
    assert len(ranges) == 2 and ranges[1] is not None
    resumed_at = int(ranges[1].removeprefix("bytes=").rstrip("-"))
    assert 0 < resumed_at <= 300_000  # only the rest was asked for


def test_a_part_left_by_an_earlier_run_is_resumed(tmp_path: Path) -> None:
    big = _item("data/big.json", BIG)
    part = tmp_path / "bench" / "data" / "big.json.part"
    part.parent.mkdir(parents=True)
    part.write_bytes(BIG[:123_456])
    behaviour = Behaviour(files={_url_path(big): BIG})
    with serve(behaviour) as base:
        result = _get(_dataset(big), tmp_path, base)
    assert result.complete and result.files[0].resumed_from == 123_456
    assert behaviour.requests == [(_url_path(big), "bytes=123456-")]
    assert (tmp_path / "bench" / "data" / "big.json").read_bytes() == BIG


def test_a_server_that_ignores_ranges_restarts_the_file(tmp_path: Path) -> None:
    big = _item("data/big.json", BIG)
    part = tmp_path / "bench" / "data" / "big.json.part"
    part.parent.mkdir(parents=True)
    part.write_bytes(b"x" * 1000)  # not even the right bytes: the full answer replaces them
    behaviour = Behaviour(files={_url_path(big): BIG}, ignore_range=True)
    with serve(behaviour) as base:
        result = _get(_dataset(big), tmp_path, base)
    assert result.complete and (tmp_path / "bench" / "data" / "big.json").read_bytes() == BIG


@pytest.mark.parametrize("with_sha", [True, False])
def test_a_hash_mismatch_is_a_clear_error_and_leaves_no_file(
    tmp_path: Path, with_sha: bool
) -> None:
    item = _item("data/big.json", BIG, with_sha=with_sha)
    tampered = BIG[:-1] + b"!"  # same size, other bytes
    behaviour = Behaviour(files={_url_path(item): tampered})
    with serve(behaviour) as base:
        result = _get(_dataset(item), tmp_path, base)
        code, out, err = _cli(tmp_path, base, item)
    assert not result.complete
    detail = result.files[0].detail
    assert f"{base}{_url_path(item)} is not the pinned file" in detail
    assert ("sha256" if with_sha else "git blob") in detail and "Nothing was kept" in detail
    assert not (tmp_path / "bench" / "data" / "big.json").exists()
    assert not list(tmp_path.rglob("*.part"))
    assert code == 1 and "is not the pinned file" in out + err


def test_a_wrong_file_in_place_is_replaced(tmp_path: Path) -> None:
    item = _item("a.json", SMALL)
    target = tmp_path / "bench" / "a.json"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"edited by hand")
    with serve(Behaviour(files={_url_path(item): SMALL})) as base:
        result = _get(_dataset(item), tmp_path, base)
    assert result.complete and target.read_bytes() == SMALL


def test_http_errors_name_the_url_and_keep_nothing(tmp_path: Path) -> None:
    item = _item("gone.json", SMALL)
    behaviour = Behaviour()
    with serve(behaviour) as base:
        result = _get(_dataset(item), tmp_path, base)
    assert not result.complete
    detail = result.files[0].detail
    assert "HTTP 404" in detail and _url_path(item) in detail and "resume" not in detail
    assert len(behaviour.requests) == 1  # a 404 is not retried
    assert not list((tmp_path / "bench").rglob("gone.json*"))


def test_a_connection_cut_every_time_keeps_the_part_to_resume(tmp_path: Path) -> None:
    big = _item("data/big.json", BIG)
    path = _url_path(big)
    behaviour = Behaviour(files={path: BIG}, cut_every={path: 100_000})
    with serve(behaviour) as base:
        result = _get(_dataset(big), tmp_path, base)
    assert not result.complete and len(behaviour.requests) == 3  # bounded attempts
    assert "run the command again to resume" in result.files[0].detail
    part = tmp_path / "bench" / "data" / "big.json.part"
    kept = part.stat().st_size
    assert 200_000 <= kept < len(BIG)  # each attempt added what it received
    assert not (tmp_path / "bench" / "data" / "big.json").exists()
    with serve(Behaviour(files={path: BIG})) as base:
        again = _get(_dataset(big), tmp_path, base)
    assert again.complete and again.files[0].resumed_from == kept
    assert (tmp_path / "bench" / "data" / "big.json").read_bytes() == BIG


def _zip(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def test_an_archive_is_unpacked_into_its_folder_once(tmp_path: Path) -> None:
    archive = _zip(
        {
            "sandbox_cache/web_search_cache.json": b'{"k": "v"}',
            "sandbox_cache/weather_forecast_days_cache.json": b"{}",
            "__MACOSX/sandbox_cache/._web_search_cache.json": b"junk",
        }
    )
    item = _item("sandbox_cache.zip", archive, extract_to="sandbox_cache")
    behaviour = Behaviour(files={_url_path(item): archive})
    with serve(behaviour) as base:
        result = _get(_dataset(item), tmp_path, base)
        assert result.complete and result.unpacked == {"sandbox_cache": 2}
        folder = tmp_path / "bench" / "sandbox_cache"
        assert json.loads((folder / "web_search_cache.json").read_text()) == {"k": "v"}
        assert not (tmp_path / "bench" / "__MACOSX").exists()
        # the archive may be deleted once unpacked: nothing is fetched again
        (tmp_path / "bench" / "sandbox_cache.zip").unlink()
        again = _get(_dataset(item), tmp_path, base)
    assert again.complete and again.files[0].detail == "unpacked"
    assert len(behaviour.requests) == 1


def test_an_archive_without_a_top_folder_or_with_unsafe_entries(tmp_path: Path) -> None:
    flat = tmp_path / "flat.zip"
    flat.write_bytes(_zip({"a_cache.json": b"{}", "b_cache.json": b"{}"}))
    assert extract_zip(flat, tmp_path / "out") == 2
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a_cache.json", "b_cache.json"]
    evil = tmp_path / "evil.zip"
    evil.write_bytes(_zip({"../escape_cache.json": b"{}"}))
    from lifebench.data import DataError

    with pytest.raises(DataError, match="unsafe entry"):
        extract_zip(evil, tmp_path / "evil")
    assert not (tmp_path / "escape_cache.json").exists()
    other = tmp_path / "other.zip"
    other.write_bytes(_zip({"readme.txt": b"hello"}))
    with pytest.raises(DataError, match=r"no \*_cache\.json file"):
        extract_zip(other, tmp_path / "other")


def _cli(dest: Path, base: str, *items: DataFile, offline: bool = False) -> tuple[int, str, str]:
    """`lifebench data get bench` over a catalogue of ``items`` (patched in)."""
    data = _dataset(*items, manual=(ManualStep(what="W", source="S", put="P", pin="N"),))
    DATASETS["bench"] = data
    try:
        args = ["data", "get", "bench", "--dest", str(dest), "--base-url", base, "--quiet"]
        result = CliRunner().invoke(app, [*args, *(["--offline"] if offline else [])])
    finally:
        del DATASETS["bench"]
    return result.exit_code, result.stdout, result.stderr


def test_offline_says_exactly_what_to_put_where(tmp_path: Path) -> None:
    present = _item("LICENSE", LICENCE, dest="LICENSE")
    missing = _item("data/big.json", BIG, dest="split/tasks.json")
    blob_only = _item("cache.zip", SMALL, with_sha=False, extract_to="cache")
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "LICENSE").write_bytes(LICENCE)
    code, out, err = _cli(
        tmp_path, "http://mirror.invalid", present, missing, blob_only, offline=True
    )
    assert code == 1
    text = out + err
    target = tmp_path / "bench" / "split" / "tasks.json"
    assert f"http://mirror.invalid/{REPO}/{COMMIT}/data/big.json" in text
    assert f"→ {target}" in text and hashlib.sha256(BIG).hexdigest() in text
    assert f"{len(BIG):,} bytes" in text
    assert f"git blob {_blob(SMALL)}" in text and "unzip" in text
    assert "--offline" in text  # how to check afterwards
    assert "By hand" in text and "from: S" in text  # the manual steps
    assert f"ok  {tmp_path / 'bench' / 'LICENSE'}" in out
    assert "licence: CC BY-NC 4.0" in err  # shown before


def test_unreachable_server_gives_the_same_instructions(tmp_path: Path) -> None:
    item = _item("data/big.json", BIG)
    with serve(Behaviour()) as base:
        dead = base  # the port is closed once the server stops
    code, out, err = _cli(tmp_path, dead, item)
    assert code == 1
    assert "cannot reach" in out and f"{dead}/{REPO}/{COMMIT}/data/big.json" in err


def test_cli_success_shows_licence_after_and_next_steps(tmp_path: Path) -> None:
    licence = _item("LICENSE", LICENCE, dest="LICENSE")
    with serve(Behaviour(files={_url_path(licence): LICENCE})) as base:
        code, out, err = _cli(tmp_path, base, licence)
    assert code == 0, out + err
    assert "bench: all 1 files" in out
    assert f"licence: CC BY-NC 4.0, saved as {tmp_path / 'bench' / 'LICENSE'}" in err


def test_unknown_data_set_is_refused() -> None:
    result = CliRunner().invoke(app, ["data", "get", "nobench", "--offline"])
    assert result.exit_code == 2
    assert "unknown data set 'nobench'" in result.stderr and "vitabench" in result.stderr


def test_environment_variable_sets_the_base_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    item = _item("x.json", SMALL)
    with serve(Behaviour(files={_url_path(item): SMALL})) as base:
        monkeypatch.setenv("LIFEBENCH_DATA_URL", base)
        result = asyncio.run(get_dataset(_dataset(item), tmp_path))
    assert result.complete and result.base_url == base


# --- the real catalogue ----------------------------------------------------------------------


def test_catalogue_is_well_formed() -> None:
    assert set(DATASETS) == {"vitabench", "travelbench", "flowbench"}
    assert {d.suite for d in DATASETS.values()} == {"vita", "travel", "flow"}
    for data in DATASETS.values():
        dests = [f.dest for f in data.files]
        assert len(dests) == len(set(dests)), data.name
        assert all(not Path(d).is_absolute() and ".." not in Path(d).parts for d in dests)
        assert all(
            f.url("https://x").startswith(f"https://x/{f.repo}/{f.commit}/") for f in data.files
        )
        assert all((f.sha256 is None) == (f.size is None) for f in data.files)
    travel = DATASETS["travelbench"]
    assert travel.licence.name == "CC BY-NC 4.0" and "NON-COMMERCIAL" in travel.licence.summary


def test_catalogue_pins_match_the_shared_copies_of_the_same_files() -> None:
    """Files of the catalogue that the shared samples hold unchanged (FlowSwitch's knowledge
    base, TravelBench's licences) must verify against the catalogue's pins."""
    from shared_data import shared_file

    pairs = [
        ("flowbench", "knowledge/workflow_final.jsonl", "flowbench/workflow_final.jsonl"),
        ("flowbench", "knowledge/workflow_text.json", "flowbench/workflow_text.json"),
        ("flowbench", "knowledge/workflow_code.json", "flowbench/workflow_code.json"),
        ("flowbench", "knowledge/workflow_flowchart.json", "flowbench/workflow_flowchart.json"),
        ("flowbench", "knowledge/workflow_summary.json", "flowbench/workflow_summary.json"),
        ("flowbench", "knowledge/domain_desc.json", "flowbench/domain_desc.json"),
        ("flowbench", "knowledge/role_desc.json", "flowbench/role_desc.json"),
        ("travelbench", "LICENSE", "travelbench/LICENSE_data"),
        ("vitabench", "LICENSE", "vitabench/LICENSE"),
    ]
    for name, dest, shared in pairs:
        item = next(f for f in DATASETS[name].files if f.dest == dest)
        digest = digest_file(shared_file(shared))
        assert (digest.sha256, digest.size, digest.git_blob) == (
            item.sha256,
            item.size,
            item.git_blob,
        ), dest


def test_progress_reports_bytes_and_total_per_file(tmp_path: Path) -> None:
    big = _item("data/big.json", BIG)
    seen: list[tuple[str, int, int | None]] = []

    def factory(item: DataFile):  # type: ignore[no-untyped-def]
        return lambda done, total: seen.append((item.dest, done, total))

    path = _url_path(big)
    with serve(Behaviour(files={path: BIG}, cut_after={path: 400_000})) as base:
        result = asyncio.run(get_dataset(_dataset(big), tmp_path, url=base, progress=factory))
    assert result.complete
    done = [d for _, d, _ in seen]
    assert done == sorted(done) and done[-1] == len(BIG)  # resumed: counts go on, not back
    assert {t for _, _, t in seen} == {len(BIG)} and {n for n, _, _ in seen} == {big.dest}

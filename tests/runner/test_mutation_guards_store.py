"""The survivors of mutation testing in ``runner/_store.py`` (issue 21), pinned by their effect:
what ``grading()`` says of a store without a grading log, how often a blob that every unit
resends is scrubbed, how blobs of every codec are stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from runner_fakes import CONFIG, CONFIG_HASH, TASKS, evaluation, simulation, units

from lifebench.models._record import Blob, PackedCalls, decode_blob, encode_blob
from lifebench.runner import RunStore, UnitOutcome, WorkUnit
from lifebench.runner._units import PackedOutcome


def test_a_store_whose_units_were_never_graded_in_a_logged_grading_has_no_grading(
    tmp_path: Path,
) -> None:
    with RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS) as store:
        unit = units()[0]
        store.pending_units([unit])
        store.record(unit, simulation(unit), evaluation(1.0))
        assert store.grading() is None
    with RunStore.read(tmp_path) as store:
        assert store.grading() is None


def _packed_with_blobs(unit: WorkUnit, blobs: list[Blob]) -> PackedOutcome:
    call = '{"request": {"tools": "' + blobs[0].hash + '"}}'
    calls = PackedCalls(calls=[(0, "agent", None, None, False, None, call)], blobs=blobs, tools=[])
    return PackedOutcome.of(unit, UnitOutcome(simulation(unit), evaluation(1.0), calls=calls))


def _stored_blobs(store: RunStore) -> dict[str, bytes]:
    rows = store._conn.execute("SELECT hash, codec, data FROM blobs").fetchall()
    return {h: decode_blob(codec, data) for h, codec, data in rows}


def test_a_blob_every_unit_resends_is_scrubbed_once_per_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = encode_blob(b'{"tools": [], "note": "Authorization: Bearer sk-abcdefgh12345"}')
    own = [encode_blob(f'{{"prompt": "unit {i}"}}'.encode()) for i in range(3)]
    with RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS) as store:
        cleaned: list[str] = []
        clean = store._clean_blob

        def counting(blob: Blob) -> Blob:
            cleaned.append(blob.hash)
            return clean(blob)

        monkeypatch.setattr(store, "_clean_blob", counting)
        done = units()[:3]
        store.pending_units(done)
        for unit, mine in zip(done, own, strict=True):
            store.record_packed(_packed_with_blobs(unit, [shared, mine]))
        assert sorted(cleaned) == sorted([shared.hash] + [b.hash for b in own])
        blobs = _stored_blobs(store)
    assert set(blobs) == {shared.hash, *(b.hash for b in own)}
    assert b"abcdefgh12345" not in blobs[shared.hash] and b"Bearer ***" in blobs[shared.hash]


def test_blobs_are_stored_scrubbed_whatever_their_codec_and_binary_ones_as_given(
    tmp_path: Path,
) -> None:
    secret = "Authorization: Bearer sk-abcdefgh12345"
    packed = encode_blob(('{"system": "' + "rules " * 200 + secret + '"}').encode())
    assert packed.codec == "zlib"
    binary = encode_blob(b"\xff\xfe" + secret.encode())  # not UTF-8: nothing to read as text
    clean = encode_blob(b'{"prompt": "nothing secret"}')
    with RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS) as store:
        unit = units()[0]
        store.pending_units([unit])
        store.record_packed(_packed_with_blobs(unit, [packed, binary, clean]))
        rows = {
            h: (codec, size, bytes(data))
            for h, codec, size, data in store._conn.execute(
                "SELECT hash, codec, size, data FROM blobs"
            ).fetchall()
        }
    text = decode_blob(rows[packed.hash][0], rows[packed.hash][2])
    assert b"abcdefgh12345" not in text and text.endswith(b'Bearer ***"}')
    assert rows[packed.hash][1] == len(text)  # the size is the scrubbed text's
    assert rows[binary.hash] == (binary.codec, binary.size, binary.data)
    assert rows[clean.hash] == (clean.codec, clean.size, clean.data)

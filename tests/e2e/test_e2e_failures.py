"""Every failure a user meets ends in one message and a documented exit code, no traceback."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.errors import ContentRejectedError, FatalProviderError

CODE = "import sys; from lifebench.cli import main; sys.argv = ['lifebench', *sys.argv[1:]]; main()"


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text


def test_version() -> None:
    code, out, _ = _invoke("--version")
    assert code == 0 and out.startswith("lifebench ")


def _patch_provider(monkeypatch: pytest.MonkeyPatch, error: Exception) -> list[int]:
    from lifebench.models import OpenAICompatibleModel

    calls: list[int] = []

    async def generate(self: object, *args: object, **kwargs: object) -> object:
        calls.append(1)
        raise error

    monkeypatch.setattr(OpenAICompatibleModel, "generate", generate)
    return calls


def test_provider_refusing_every_call_stops_with_its_message_and_code_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _patch_provider(
        monkeypatch, FatalProviderError("401 Unauthorized: Incorrect API key provided", status=401)
    )
    code, out, err = _invoke(
        "run",
        "--task-set", "demo", "--trials", "20", "--concurrency", "4",
        "--agent-model", "gpt-x@http://127.0.0.1:9/v1",
        "--out", str(tmp_path / "run"), "--quiet",
    )  # fmt: skip
    assert code == 3, out + err
    assert "Incorrect API key provided" in err and "stopped" in err
    assert len(calls) <= 4  # the units in flight, not 120 units × retries
    _no_traceback(out, err)
    db = sqlite3.connect(tmp_path / "run" / "run.sqlite")
    statuses = {s for (s,) in db.execute("SELECT DISTINCT status FROM units")}
    assert statuses == {"pending"}


def test_content_rejected_units_give_code_1_and_are_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _patch_provider(monkeypatch, ContentRejectedError("413 Request Entity Too Large", status=413))
    args = [
        "run", "--task-set", "demo", "--agent-model", "gpt-x@http://127.0.0.1:9/v1",
        "--out", str(tmp_path / "run"), "--quiet",
    ]  # fmt: skip
    code, out, err = _invoke(*args)
    assert code == 1, out + err
    assert "0 units done, 0 infrastructure errors, 6 rejected" in out
    assert "6 rejected, 0 pending" in out
    rep = json.loads((tmp_path / "run" / "report.json").read_text())
    assert (rep["n_rejected"], rep["n_errors"], rep["n_pending"]) == (6, 0, 0)
    code, out, err = _invoke(*args)  # resume: rejected units are not retried
    assert code == 1 and "0 units done, 0 infrastructure errors, 0 rejected, 6 already done" in out


def test_every_unit_failing_is_nothing_could_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lifebench.errors import ModelError

    _patch_provider(monkeypatch, ModelError("503 Service Unavailable after 6 attempts"))
    code, out, err = _invoke(
        "run", "--task-set", "demo", "--agent-model", "gpt-x@http://127.0.0.1:9/v1",
        "--out", str(tmp_path / "run"), "--quiet",
    )  # fmt: skip
    assert code == 3, out + err
    assert "nothing could run" in err and "503 Service Unavailable" in err and "(6×)" in err
    _no_traceback(out, err)


def test_corrupted_store_file_out_and_deep_json_are_clear(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert _invoke("run", "--task-set", "demo", "--out", str(run), "--quiet")[0] == 0
    (run / "run.sqlite").write_bytes(b"this is not a database" * 100)
    for args in (("report", str(run)), ("run", "--task-set", "demo", "--out", str(run))):
        code, out, err = _invoke(*args)
        assert code == 4, out + err
        assert "is damaged" in err and "model_cache.sqlite" in err
        _no_traceback(out, err)

    a_file = tmp_path / "plain"
    a_file.write_text("x")
    code, out, err = _invoke("run", "--task-set", "demo", "--out", str(a_file), "--quiet")
    assert code == 4 and "is a file, not a directory" in err
    _no_traceback(out, err)

    deep = tmp_path / "deep.json"
    deep.write_text('[{"id": "x", "extra": ' + '{"a": ' * 1000 + "1" + "}" * 1000 + "}]")
    for args in (("run", "--tasks", str(deep), "--out", str(tmp_path / "d")),
                 ("tasks", "validate", str(deep))):  # fmt: skip
        code, out, err = _invoke(*args)
        assert code == 2, out + err
        assert "nested too deeply" in err
        _no_traceback(out, err)


def test_disk_full_while_writing_the_report_is_clear(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    import lifebench.reporting as reporting

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "run"))

    monkeypatch.setattr(reporting, "write_report", full)
    code, out, err = _invoke("run", "--task-set", "demo", "--out", str(tmp_path / "run"))
    assert code == 4 and "no space left on the device" in err
    _no_traceback(out, err)


def _done(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM units WHERE status='done'").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigterm_saves_finished_units_and_exits_143(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "--task-set", "demo", "--trials", "60", "--concurrency", "4",
            "--out", str(out), "--quiet"]  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-c", CODE, *args], cwd=tmp_path, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 60
    while _done(out / "run.sqlite") < 10 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "terminated (SIGTERM); finished units are saved" in err
    _no_traceback(err)
    saved = _done(out / "run.sqlite")
    assert 0 < saved < 360
    with sqlite3.connect(out / "run.sqlite") as conn:
        lease = conn.execute("SELECT count(*) FROM writer_lease").fetchone()[0]
    assert lease == 0  # released on the way out
    code, stdout, _ = _invoke(*args)
    assert code == 0 and f"{saved} already done" in stdout

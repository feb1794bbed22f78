"""scripts/mutation_report.py: a kill is a test that ran and failed; everything else is
counted apart, and the report says when it is incomplete."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "mutation_report.py"


@pytest.fixture
def report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_report_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(module, "change_of", lambda name: [f"- old {name}", f"+ new {name}"])
    return module


@pytest.mark.parametrize(
    ("code", "category"),
    [
        (1, "killed"), (0, "survived"), (33, "survived"), (36, "timeout"), (-24, "timeout"),
        (24, "timeout"), (152, "timeout"), (-9, "timeout"), (255, "error"), (-1, "error"),
        (2, "error"), (3, "error"), (4, "error"), (5, "error"), (-11, "error"), (35, "error"),
        (34, "not counted"), (37, "not counted"), (None, "not run"),
    ],
)  # fmt: skip
def test_only_a_failed_test_is_a_kill(report: ModuleType, code: int | None, category: str) -> None:
    assert report.category(code) == category


def _meta(path: str, codes: dict[str, int | None]) -> None:
    meta = Path("mutants") / (path + ".meta")
    meta.parent.mkdir(parents=True, exist_ok=True)
    meta.write_text(
        json.dumps({"exit_code_by_key": codes, "estimated_durations_by_key": {}}),
        encoding="utf-8",
    )


PATH = "src/lifebench/x/_m.py"
M = "lifebench.x._m.x_f__mutmut_"


def test_the_report_counts_each_category_apart(
    report: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    _meta(PATH, {f"{M}1": 1, f"{M}2": 1, f"{M}3": 1, f"{M}4": 0, f"{M}5": 255, f"{M}6": 36})
    assert report.main([PATH]) == 1
    out, err = capsys.readouterr()
    assert (
        f"mutation {PATH} killed=3 survived=1 equivalent=0 timeout=1 error=1 not_run=0 score=75.0"
        in out
    )
    assert "mutation TOTAL killed=3 survived=1 equivalent=0 timeout=1 error=1" in out
    assert (
        f"{M}5: worker exception (pytest usage error or a crash in the worker), not re-run" in out
    )
    assert "not re-run in a fresh process" in err


def test_rerun_classifies_by_a_fresh_run(
    report: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _meta(PATH, {f"{M}1": 1, f"{M}2": 255, f"{M}3": -24, f"{M}4": 4})
    fresh = {f"{M}2": 1, f"{M}3": 36, f"{M}4": 0}
    ran: list[str] = []

    def run_fresh(name: str, tests: list[str], limit: float) -> int:
        ran.append(name)
        return fresh[name]

    monkeypatch.setattr(report, "run_fresh", run_fresh)
    monkeypatch.setattr(report, "tests_of", lambda name: ["tests/t.py::test"])
    assert report.main(["--rerun", PATH]) == 0
    out, _ = capsys.readouterr()
    assert sorted(ran) == sorted(fresh)
    assert f"mutation {PATH} killed=2 survived=1 equivalent=0 timeout=1 error=0" in out
    assert "timed out, again in a fresh process (mutmut: timed out)" in out
    # a second report re-runs nothing: the fresh results are remembered
    ran.clear()
    assert report.main(["--rerun", PATH]) == 0
    assert ran == []


def test_a_module_without_results_makes_the_report_incomplete(
    report: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert report.main([PATH]) == 1
    out, err = capsys.readouterr()
    assert "no results: mutmut has not run on it" in out
    assert "no results for 1 module(s)" in err


def test_unrun_mutants_make_the_report_incomplete(
    report: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    _meta(PATH, {f"{M}1": 1, f"{M}2": None})
    assert report.main([PATH]) == 1
    assert "1 mutant(s) not run" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("removed", "added", "equivalent"),
    [
        # the memo's own table and columns, and the run store's, are SQL words
        ('"SELECT COUNT(*) FROM simulated"', '"select count(*) from SIMULATED"', True),
        (
            '"INSERT OR IGNORE INTO simulated (tool, key, params, "',
            '"insert or ignore into SIMULATED (TOOL, KEY, PARAMS, "',
            True,
        ),
        ('"PRAGMA journal_mode = WAL"', '"pragma journal_mode = wal"', True),
        ('"PRAGMA table_info(sessions)"', '"PRAGMA TABLE_INFO(SESSIONS)"', True),
        (
            '"JOIN units u ON u.task_id = a.task_id AND u.trial = a.trial "',
            '"join units u on u.task_id = a.task_id and u.trial = a.trial "',
            True,
        ),
        (
            '"SELECT coalesce(max(id), 0) FROM attempts"',
            '"SELECT COALESCE(MAX(ID), 0) FROM ATTEMPTS"',
            True,
        ),
        (
            "\"WHERE a.kind IN ('attempt', 'regrade') \"",
            "\"where a.kind in ('ATTEMPT', 'regrade') \"",
            False,
        ),
        # a quoted value, a message, a changed word, or code around the literal: not case only
        (
            "\"SELECT 1 FROM units WHERE status = 'pending'\"",
            "\"SELECT 1 FROM units WHERE status = 'PENDING'\"",
            False,
        ),
        ('"the memo is locked"', '"THE MEMO IS LOCKED"', False),
        ('"SELECT COUNT(*) FROM simulated"', '"SELECT COUNT(*) FROM simulate"', False),
        ('x("SELECT COUNT(*) FROM simulated")', 'y("select count(*) from simulated")', False),
    ],
)
def test_a_change_of_sql_letter_case_is_equivalent(
    report: ModuleType, removed: str, added: str, equivalent: bool
) -> None:
    assert report.sql_case_only([f"- {removed}", f"+ {added}"]) is equivalent

"""Acceptance of issue 7: ``tasks certify`` on the shared samples and every bundled set.

The oracle solves every task lint does not flag as a data error, doing nothing solves none, and
no near miss of any kind is accepted.
"""

from __future__ import annotations

import asyncio

import pytest

from conftest import shared_file
from lifebench._util.text import Language
from lifebench.vita.certify import CertifyReport, certify_tasks
from lifebench.vita.loader import available_bundled_tasks, load_bundled_tasks, load_tasks
from lifebench.vita.stats import infer_domain
from lifebench.vita.task import VitaTask

BUNDLED = [
    (kind, d, lang) for kind in ("generated", "demo") for d, lang in available_bundled_tasks(kind)
]


def _certify(tasks: list[VitaTask], language: Language) -> CertifyReport:
    return asyncio.run(certify_tasks(tasks, infer_domain(tasks), language))


def _accept(report: CertifyReport) -> None:
    s = report.summary
    assert s.unsolved_without_data_error == []
    assert s.noop_accepted == []
    assert s.false_accepts == dict.fromkeys(s.false_accepts, 0)
    assert s.invalid == {}  # every near miss passed the tools: the grader rejected it
    assert s.ungradable == 0


def test_official_delivery_sample() -> None:
    report = _certify(load_tasks(shared_file("vitabench", "delivery_tasks_en.json")), "en")
    _accept(report)
    s = report.summary
    assert (s.tasks, s.solvable, s.with_data_errors) == (60, 58, 2)
    unsolved = {c.id for c in report.tasks if not c.solvable}
    assert unsolved == {"80715001", "C0715001"}
    # every near-miss kind of the delivery domain is exercised on the sample
    for kind in ("attribute", "time", "address", "note_omitted", "note_negated"):
        assert s.rejected[kind] >= 10, kind


def test_official_instore_sample() -> None:
    report = _certify(load_tasks(shared_file("vitabench", "instore_tasks_en.json")), "en")
    _accept(report)
    s = report.summary
    assert (s.tasks, s.solvable, s.discriminating) == (60, 60, 60)
    for kind in ("party_size", "date", "time", "store", "change_skipped"):
        assert s.rejected[kind] >= 8, kind


@pytest.mark.parametrize(
    ("kind", "domain", "language"), BUNDLED, ids=["-".join(b) for b in BUNDLED]
)
def test_bundled_set(kind: str, domain: str, language: str) -> None:
    lang: Language = "zh" if language == "zh" else "en"
    tasks = load_bundled_tasks(domain, lang, "demo" if kind == "demo" else "generated")
    report = _certify(tasks, lang)
    _accept(report)
    assert report.summary.solvable == report.summary.tasks == report.summary.discriminating


def test_every_bundled_set_is_covered() -> None:
    assert len(BUNDLED) == 14  # 4 generated + 3 demo domains, in English and Chinese

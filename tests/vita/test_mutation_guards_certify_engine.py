"""Certification verdicts and counts (vita/certify/engine.py, render.py), pinned by their
effect: a trial's outcome, every count of the summary, every rendered line.

The certificates are synthetic: one solvable task with a false accept, a false reject and a
tool-stopped variation; one unsolvable, undecided task with a data error whose noop passes; one
unsolvable task without a data error (a lint gap)."""

from __future__ import annotations

import io

from rich.console import Console

from lifebench.evaluation import BasisResult
from lifebench.vita.certify.engine import (
    CertifyReport,
    FieldCounts,
    TaskCertificate,
    Trial,
    VariationCounts,
    _outcome,
    summarise,
)
from lifebench.vita.certify.render import field_table, render, task_table, variation_table
from lifebench.vita.grading.constraints import FIELD_CLASSES


def test_only_a_full_reward_on_a_gradable_result_is_accepted() -> None:
    assert _outcome(BasisResult(basis="state", reward=1.0, score=1.0)) == "accepted"
    assert _outcome(BasisResult(basis="state", reward=0.0, score=0.5)) == "rejected"
    assert _outcome(BasisResult(basis="state", reward=1.0, score=1.0, gradable=False)) != "accepted"
    assert _outcome(BasisResult(basis="state", reward=0.5, score=0.5)) == "rejected"
    undecided = BasisResult(basis="state", reward=0.0, score=1.0, undecided=True)
    assert _outcome(undecided) == "undecided"


def _trial(field: str, kind: str, target: str, outcome: str, errors: int = 0) -> Trial:
    return Trial.model_validate(
        {"field": field, "kind": kind, "target": target, "outcome": outcome, "tool_errors": errors}
    )


def _certificates() -> list[TaskCertificate]:
    solved = TaskCertificate(
        id="T1",
        solvable=True,
        discriminating=True,
        noop="rejected",
        near_misses=[
            _trial("store", "other_store", "create#1", "rejected"),
            _trial("store", "quantity", "create#2", "accepted"),
            _trial("time", "window", "create#3", "undecided", errors=1),
        ],
        variations=[
            _trial("order", "recreate", "v#1", "accepted"),
            _trial("order", "recreate", "v#2", "rejected"),
            _trial("order", "extra_reads", "v#3", "rejected", errors=2),
        ],
    )
    broken = TaskCertificate(
        id="T2",
        solvable=False,
        discriminating=False,
        gradable=False,
        undecided=True,
        noop="accepted",
        data_errors=["store: [red]S9[/] sells nothing"],
        near_misses=[_trial("store", "quantity", "create#1", "accepted")],
        variations=[_trial("order", "recreate", "v#1", "rejected")],
    )
    gap = TaskCertificate(id="T3", solvable=False, discriminating=False, noop="rejected")
    return [solved, broken, gap]


def test_false_accepts_and_rejects_count_on_solvable_tasks_only() -> None:
    solved, broken, gap = _certificates()
    assert [t.target for t in solved.false_accepts] == ["create#2"]
    assert [t.target for t in solved.false_rejects] == ["v#2"]
    assert broken.false_accepts == [] and broken.false_rejects == []
    assert gap.false_accepts == [] and gap.false_rejects == []


def test_the_summary_counts_every_outcome() -> None:
    s = summarise(_certificates())
    assert (s.tasks, s.solvable, s.discriminating, s.ungradable, s.undecided) == (3, 1, 1, 1, 1)
    assert s.with_data_errors == 1
    assert s.unsolved_without_data_error == ["T3"]
    assert s.noop_accepted == ["T2"]
    assert list(s.by_field) == list(FIELD_CLASSES)
    assert s.by_field["store"] == FieldCounts(
        generated=3, rejected=1, accepted=1, undecided=0, tool_stopped=0, tasks=2
    )
    assert s.by_field["time"] == FieldCounts(
        generated=1, rejected=0, accepted=0, undecided=1, tool_stopped=1, tasks=1
    )
    assert all(s.by_field[f] == FieldCounts() for f in FIELD_CLASSES if f not in ("store", "time"))
    assert s.false_accepts == {f: int(f == "store") for f in FIELD_CLASSES}
    assert s.false_rejects == {"extra_reads": 0, "recreate": 1}
    assert list(s.variations) == ["extra_reads", "recreate"]
    assert s.variations["recreate"] == VariationCounts(
        generated=3, accepted=1, false_rejects=1, tool_stopped=0
    )
    assert s.variations["extra_reads"] == VariationCounts(
        generated=1, accepted=0, false_rejects=0, tool_stopped=1
    )


def test_a_near_miss_of_an_unknown_field_class_is_counted_too() -> None:
    cert = TaskCertificate(
        id="T1",
        solvable=True,
        discriminating=True,
        noop="rejected",
        near_misses=[_trial("shoe_size", "k", "t", "rejected")],
    )
    s = summarise([cert])
    assert s.by_field["shoe_size"] == FieldCounts(generated=1, rejected=1, tasks=1)
    assert s.false_accepts["shoe_size"] == 0
    assert summarise([]).tasks == 0


def _rendered() -> list[str]:
    certs = _certificates()
    report = CertifyReport(domain="delivery", language="en", tasks=certs, summary=summarise(certs))
    console = Console(file=io.StringIO(), record=True, width=200, color_system=None)
    render(report, console)
    return [line.rstrip() for line in console.export_text().splitlines()]


#: What ``lifebench tasks certify`` prints for the three certificates (right-aligned counts,
#: "undecided" / "NO" for unsolved tasks, empty cells for zero errors and accepts, the data
#: error printed as written, markup included).
RENDERED = [
    "                                                            Tasks",
    "",
    " task   solvable    discriminating   data errors   near misses rejected   false accepts   variations accepted   false rejects",
    " ────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────",
    " T1     yes         yes                            1/3                    1               1/3                   1",
    " T2     undecided   no               1             0/1                                    0/1",
    " T3     NO          no                             0/0                                    0/0",
    "",
    "                              Near misses by field class",
    "",
    " field         tasks   generated   rejected   false accepts   undecided   tool-stopped",
    " ─────────────────────────────────────────────────────────────────────────────────────",
    " store             2           3          1               1           0              0",
    " products          0           0          0               0           0              0",
    " attribute         0           0          0               0           0              0",
    " status            0           0          0               0           0              0",
    " note              0           0          0               0           0              0",
    " address           0           0          0               0           0              0",
    " time              1           1          0               0           1              1",
    " date              0           0          0               0           0              0",
    " party_size        0           0          0               0           0              0",
    " unrequested       0           0          0               0           0              0",
    "",
    "                  Correct-but-unusual variations",
    "",
    " variation     generated   accepted   false rejects   tool-stopped",
    " ─────────────────────────────────────────────────────────────────",
    " extra_reads           1          0               0              1",
    " recreate              3          1               1              0",
    "",
    "3 tasks (delivery, en): solvable 1, discriminating 1, with data errors 1, ungradable 1, undecided 1; noop accepted 1; false accepts 1; false rejects 1",
    "unsolved without a data error (a lint gap): T3",
    "false accept T1: store/quantity at create#2",
    "false reject T1: recreate at v#2",
    "data error T2: store: [red]S9[/] sells nothing",
]


def test_the_report_renders_every_count_and_every_finding() -> None:
    assert _rendered() == RENDERED


def test_a_narrow_terminal_shortens_the_task_table_cells_instead_of_wrapping_them() -> None:
    certs = _certificates()
    report = CertifyReport(domain="delivery", language="en", tasks=certs, summary=summarise(certs))
    console = Console(file=io.StringIO(), record=True, width=60, color_system=None)
    console.print(task_table(report))
    lines = [line.rstrip() for line in console.export_text().splitlines()]
    # title, blank, one header line, rule, one line per task, blank
    assert len(lines) == 4 + len(certs) + 1
    assert "near misses…" in lines[2]


def test_a_narrow_terminal_shortens_the_count_tables_cells_too() -> None:
    certs = _certificates()
    report = CertifyReport(domain="delivery", language="en", tasks=certs, summary=summarise(certs))
    for table, rows in ((field_table(report), len(FIELD_CLASSES)), (variation_table(report), 2)):
        console = Console(file=io.StringIO(), record=True, width=40, color_system=None)
        console.print(table)
        lines = [line.rstrip() for line in console.export_text().splitlines()]
        assert len(lines) == 4 + rows + 1
        assert "…" in lines[2]


def test_the_headline_is_printed_unhighlighted_and_every_lint_gap_listed() -> None:
    certs = [
        *_certificates(),
        TaskCertificate(id="30711009", solvable=False, discriminating=False, noop="rejected"),
    ]
    report = CertifyReport(domain="delivery", language="en", tasks=certs, summary=summarise(certs))
    out = io.StringIO()
    render(report, Console(file=out, force_terminal=True, color_system="standard", width=200))
    lines = out.getvalue().splitlines()
    (headline,) = [line for line in lines if "tasks (delivery, en)" in line]
    assert "\x1b" not in headline
    (gaps,) = [line for line in lines if "a lint gap" in line]
    assert gaps.endswith("T3, 30711009")


def test_findings_are_printed_unhighlighted_after_their_red_label() -> None:
    certs = _certificates()
    certs[1] = certs[1].model_copy(update={"data_errors": ["store: 1001 sells nothing"]})
    report = CertifyReport(domain="delivery", language="en", tasks=certs, summary=summarise(certs))
    out = io.StringIO()
    render(report, Console(file=out, force_terminal=True, color_system="standard", width=200))
    lines = out.getvalue().splitlines()
    for label in ("false accept", "false reject"):
        (line,) = [x for x in lines if f"{label}\x1b" in x]
        assert "\x1b" not in line.split(label, 1)[1].split("\x1b[0m", 1)[1]
    (error,) = [x for x in lines if x.startswith("data error ")]
    assert error == "data error T2: store: 1001 sells nothing"


def test_every_count_adds_up_over_the_tasks() -> None:
    one = summarise(_certificates())
    copies = [c.model_copy(update={"id": f"{c.id}b"}) for c in _certificates()]
    twice = summarise(_certificates() + copies)
    for field in FIELD_CLASSES:
        doubled = {k: 2 * v for k, v in one.by_field[field].model_dump().items()}
        assert twice.by_field[field] == FieldCounts(**doubled), field
    for kind, counts in one.variations.items():
        doubled = {k: 2 * v for k, v in counts.model_dump().items()}
        assert twice.variations[kind] == VariationCounts(**doubled), kind
    assert twice.false_accepts == {f: 2 * n for f, n in one.false_accepts.items()}
    assert twice.false_rejects == {k: 2 * n for k, n in one.false_rejects.items()}

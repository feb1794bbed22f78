"""A TravelBench report designed for the suite: subset scores, the overall, raw / penalised,
tool errors and unsolved accuracy as compact tables; scores, never pass/fail; the whole report
of a 200-unit run fits 60 rows of an 80-column terminal."""

from __future__ import annotations

import io

from rich.console import Console
from travel_fakes import Task, judge_xml, meta_xml, record, simulation, trajectory

from lifebench.messages import AssistantMessage, Message, UserMessage
from lifebench.models import ScriptedModel
from lifebench.reporting import build_report, render_report
from lifebench.reporting._outcomes import unit_summaries
from lifebench.reporting._render import headline, task_lines
from lifebench.travel.grading.evaluator import TravelEvaluator
from lifebench.travel.grading.judge import TravelJudge
from lifebench.travel.grading.unsolved import UnsolvedEvaluator

RATINGS = ("优秀", "较好", "一般", "较差")


async def _records() -> list[object]:
    """200 units: 90 single, 90 multi (varied ratings, some tool errors, two judge failures),
    20 unsolvable (half refused right)."""
    out: list[object] = []
    for i in range(200):
        subset = "single" if i < 90 else "multi" if i < 180 else "unsolvable"
        task_id = f"{subset}-{i}"
        if subset == "unsolvable":
            msgs: list[Message] = [
                UserMessage(content="q"),
                AssistantMessage(content="[Unsolved]" if i % 2 else "好的"),
            ]
            sim = simulation(msgs, task_id=task_id)
            script = ["unused"]
        else:
            sim = simulation(trajectory(errors=i % 3), task_id=task_id, sandbox={"calls": 2})
            r = [RATINGS[(i + k) % 4] for k in range(4 if subset == "multi" else 3)]
            script = [judge_xml(*r), meta_xml(RATINGS[i % 2])]
        if i in (5, 100):  # the judge failed: counted, never a score
            out.append(
                record(None, sim, error="evaluation failed: judge gave no answer", task_id=task_id)
            )
            continue
        evaluator = TravelEvaluator(
            TravelJudge(ScriptedModel(script)), UnsolvedEvaluator(), lambda t: t.subset
        )
        result = await evaluator.evaluate(Task(id=task_id, subset=subset), sim)
        out.append(record(result, sim, task_id=task_id))
    return out


def _screen(report: object) -> list[str]:
    out = io.StringIO()
    render_report(report, Console(file=out, width=80))  # type: ignore[arg-type]
    return out.getvalue().splitlines()


async def test_a_200_unit_report_fits_60_rows_of_80_columns() -> None:
    report = build_report(await _records(), {"suite": "travel"})
    assert report.n_simulations == 200 and not report.defines_success
    lines = _screen(report)
    assert len(lines) <= 60, "\n".join(lines)
    assert max(len(line) for line in lines) <= 80
    text = "\n".join(lines)
    # the suite's own numbers, as tables: every subset, the overall, raw and penalised scores
    (table,) = [t for t in report.suite_tables if t.title.startswith("TravelBench scores")]
    assert [row[0] for row in table.rows] == ["single", "multi", "unsolvable", "overall"]
    assert table.columns == [
        "subset",
        "units",
        "score",
        "raw",
        "penalised",
        "tool err",
        "not graded",
    ]
    single = table.rows[0]
    assert single[1] == "89" and single[6] == "1"  # one judge failure, counted
    assert single[2] != single[3]  # tool errors penalise: score below raw
    assert table.rows[2][2] == "50.00"  # unsolvable: 100 × accuracy
    assert "unsolved accuracy" in text and "overall" in text
    # a score suite: mean scores, never Pass@k / Pass^k
    assert "pass@" not in text.lower() and "pass^" not in text.lower()
    assert "mean score" in text and "mean reward" not in text.split("Reward by basis")[0]
    assert "pass@" not in headline(report) and "overall" in headline(report)
    # no dump of metric keys
    assert "travel.subsets" not in text


async def test_task_lines_show_scores_not_pass_or_fail() -> None:
    records = await _records()
    report = build_report(records, {"suite": "travel"})
    lines = [line.plain for line in task_lines(report, unit_summaries(records))]
    assert lines[0].startswith("Tasks — trials: • scored,") and "✗ fail" not in lines[0]
    rows = [line for line in lines[1:] if not line.startswith(" ")]
    assert all("✓" not in row and "✗" not in row for row in rows)
    failed = next(row for row in rows if row.startswith("single-5 "))
    assert "G" in failed  # a grading error keeps its mark
    assert any("•  mean score " in row for row in rows)


def test_show_says_scored_for_a_score_suite() -> None:
    from lifebench.reporting._show import _header

    view = type("V", (), {})()
    summary = type("S", (), {"outcome": "fail", "turns": None})()
    for name, value in {
        "outcome": summary,
        "task_id": "multi-1",
        "trial": 0,
        "seed": 1,
        "attempts": 1,
        "reward": 0.81,
        "reward_basis": "travel",
        "termination": None,
        "duration_s": None,
        "error": None,
    }.items():
        setattr(view, name, value)
    assert "outcome scored (reward 0.81" in _header(view, scored=True).plain  # type: ignore[arg-type]
    assert "outcome fail (reward 0.81" in _header(view).plain  # type: ignore[arg-type]

"""What the models saw, through a whole run: recorded per unit and role, stored in the run
store (schema 3), read back exactly; re-grades; opting out; a version-2 store migrated."""

from __future__ import annotations

import asyncio
import gzip
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from runner_fakes import orders_agent, rubric_judge, simulation
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.messages import AssistantMessage
from lifebench.models import ModelFactory, ScriptedModel
from lifebench.runner import Progress, RunStore
from lifebench.runner._experiment import run_experiment
from lifebench.runner._regrade import regrade
from lifebench.runner._schema import SCHEMA_VERSION
from lifebench.suites import make_run_options
from lifebench.suites._options import config_hash_of
from lifebench.vita.grading.state import GRADER_VERSION as STATE_VERSION

V2_DUMP = Path(__file__).parent / "data" / "store_v2_offline.sql.gz"
"""A version-2 run store written by lifebench before call recording existed (an offline vita
run: 2 bundled generated delivery tasks × 1 trial, oracle agent, scripted user), as SQL."""


def _factory(judge: str = "judge") -> ModelFactory:
    factory = ModelFactory()
    factory.register("agent", ScriptedModel([orders_agent], repeat_last=True, name="agent"))
    factory.register("user", ScriptedModel(["Show my orders."], repeat_last=True, name="user"))
    factory.register(judge, ScriptedModel([rubric_judge], repeat_last=True, name=judge))
    return factory


def _options(out: Path, **extra: Any) -> Any:
    return make_run_options(
        {
            "task_set": "demo",
            "num_tasks": 2,
            "agent_model": "agent",
            "user_model": "user",
            "judge_model": "judge",
            "evaluator": "both",
            "out": str(out),
            "concurrency": 2,
            "quiet": True,
            **extra,
        }
    )


def _run(out: Path, **extra: Any) -> None:
    asyncio.run(
        run_experiment(_options(out, **extra), models=_factory(), progress=Progress(quiet=True))
    )


def test_a_run_stores_every_call_of_every_role_and_reads_it_back_exactly(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out)
    with RunStore.read(out) as store:
        records = store.results()
        assert len(records) == 2
        tools = store.run_tools()
        for record in records:
            t = store.transcript(record.task_id, record.trial)
            assert t.recorded and t.briefing is not None
            roles = [(c.call.role, c.call.basis) for c in t.calls]
            assert roles == [
                ("user", None),
                ("agent", None),
                ("agent", None),
                ("judge", "rubric"),
            ]
            agent_calls = [c for c in t.calls if c.call.role == "agent"]
            first = json.loads(agent_calls[0].request)
            # the briefing is exactly what the first request carried
            assert first["messages"][0] == {
                "role": "system",
                "content": t.briefing.agent.system_prompt,  # type: ignore[union-attr]
            }
            assert first["tools"] == t.briefing.agent.tools  # type: ignore[union-attr]
            user_first = json.loads(t.calls[0].request)
            assert user_first["messages"][0]["content"] == t.briefing.user.system_prompt  # type: ignore[union-attr]
            # the second agent request is the first plus the tool call and its result
            second = json.loads(agent_calls[1].request)
            assert second["messages"][: len(first["messages"])] == first["messages"]
            assert [m["role"] for m in second["messages"][len(first["messages"]) :]] == [
                "assistant",
                "tool",
            ]
            judge = t.calls[-1]
            assert judge.call.label == "window 1/1" and judge.source == "attempt"
            assert json.loads(judge.response or "{}")["content"].startswith("[")
            # the seed of the unit is in every request
            assert all(json.loads(c.request).get("seed") == record.seed for c in t.calls)
        # one tool list for the run (the two tasks share it)
        assert len(tools) == 1 and tools[0][1] == json.loads(agent_calls[0].request)["tools"]
    db = sqlite3.connect(out / "run.sqlite")
    try:
        (tool_blobs,) = db.execute(
            "SELECT count(*) FROM blobs WHERE hash IN (SELECT hash FROM run_tools)"
        ).fetchone()
        (calls,) = db.execute("SELECT count(*) FROM calls").fetchone()
    finally:
        db.close()
    assert tool_blobs == 1 and calls == 8


def test_no_record_requests_stores_nothing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out, record_requests=False)
    with RunStore.read(out) as store:
        record = store.results()[0]
        assert record.status == "done"
        transcript = store.transcript(record.task_id, record.trial)
        assert not transcript.recorded and transcript.calls == [] and transcript.briefing is None
    db = sqlite3.connect(out / "run.sqlite")
    try:
        counts = [db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("calls", "blobs")]
    finally:
        db.close()
    assert counts == [0, 0]


def test_a_regrade_replaces_the_judge_calls_of_its_basis_only(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out)
    asyncio.run(regrade(out, {"evaluator": "rubric", "judge_model": "judge"}, models=_factory()))
    with RunStore.read(out) as store:
        record = store.results()[0]
        t = store.transcript(record.task_id, record.trial)
    judged = [c for c in t.calls if c.call.basis == "rubric"]
    assert len(judged) == 1 and judged[0].source == "regrade"
    assert [c.source for c in t.calls if c.call.basis is None] == ["attempt"] * 3
    # without recording, a re-grade leaves the earlier judge calls as they were
    asyncio.run(
        regrade(
            out,
            {"evaluator": "rubric", "judge_model": "judge"},
            models=_factory(),
            record_requests=False,
        )
    )
    with RunStore.read(out) as store:
        again = store.transcript(record.task_id, record.trial)
    assert [c.log_id for c in again.calls] == [c.log_id for c in t.calls]


def test_a_failed_unit_keeps_the_call_that_failed(tmp_path: Path) -> None:
    factory = ModelFactory()
    factory.register("agent", ScriptedModel([], name="agent"))  # exhausted at once
    factory.register("user", ScriptedModel(["hi"], repeat_last=True, name="user"))
    factory.register("judge", ScriptedModel([rubric_judge], repeat_last=True, name="judge"))
    out = tmp_path / "run"
    asyncio.run(run_experiment(_options(out), models=factory, progress=Progress(quiet=True)))
    with RunStore.read(out) as store:
        record = store.results()[0]
        assert record.status == "infra_error"
        t = store.transcript(record.task_id, record.trial)
    failed = [c for c in t.calls if c.call.error]
    assert len(failed) == 1 and failed[0].call.role == "agent"
    assert "script exhausted" in (failed[0].call.error or "")
    assert failed[0].response is None


def _v2_store(root: Path) -> Path:
    out = root / "v2"
    out.mkdir()
    db = sqlite3.connect(out / "run.sqlite")
    try:
        db.executescript(gzip.decompress(V2_DUMP.read_bytes()).decode("utf-8"))
        db.commit()
    finally:
        db.close()
    return out


def test_a_version_2_store_reads_as_it_is_and_migrates_on_write(tmp_path: Path) -> None:
    out = _v2_store(tmp_path)
    with RunStore.read(out) as store:  # read-only: left at version 2
        assert store.meta.schema_version == 2
        records = store.results()
        assert [r.status for r in records] == ["done", "done"]
        assert not store.transcript(records[0].task_id, records[0].trial).recorded
        assert store.provenance() is None and store.run_tools() == []
        facts = store.facts()
        assert facts.session is None and facts.graders == {"state": []}
        config, tasks = store.config(), store.tasks()
        rewards = [r.evaluation.reward for r in records if r.evaluation]
    db = sqlite3.connect(out / "run.sqlite")
    (version,) = db.execute("SELECT schema_version FROM run_meta").fetchone()
    db.close()
    assert version == 2
    # a writer resuming it (same configuration under today's hash rules) migrates it
    with RunStore.open(out, config, config_hash_of(config), tasks, rehash=config_hash_of) as store:
        assert store.meta.schema_version == SCHEMA_VERSION == 3
        assert [r.evaluation.reward for r in store.results() if r.evaluation] == rewards
        record = store.results()[0]
        from lifebench.models import CallLog, recording
        from lifebench.runner import WorkUnit

        log = CallLog()
        with recording(log):
            asyncio.run(ScriptedModel(["ok"]).generate([AssistantMessage(content="x")]))
        unit = WorkUnit(record.task_id, record.trial, record.seed)
        store.record(unit, simulation(unit), calls=log.pack())
        transcript = store.transcript(record.task_id, record.trial)
        assert transcript.recorded and [c.call.response_kind for c in transcript.calls] == [
            "scripted"
        ]
        assert not store.transcript(records[1].task_id, records[1].trial).recorded
    db = sqlite3.connect(out / "run.sqlite")
    try:
        assert db.execute("SELECT schema_version FROM run_meta").fetchone() == (3,)
        columns = {r[1] for r in db.execute("PRAGMA table_info(gradings)")}
        assert "provenance_json" in columns
        sessions = db.execute("SELECT count(*) FROM sessions").fetchone()
    finally:
        db.close()
    assert sessions == (2,)


def test_eval_migrates_a_version_2_store_and_records_its_provenance(tmp_path: Path) -> None:
    out = _v2_store(tmp_path)
    shown = CliRunner().invoke(app, ["show", str(out), "GEN-delivery-0-1"])
    assert shown.exit_code == 0, shown.stderr
    assert "not recorded" in shown.stdout
    result = CliRunner().invoke(app, ["eval", str(out), "--evaluator", "state", "--quiet"])
    assert result.exit_code == 0, result.stderr + result.stdout
    with RunStore.read(out) as store:
        assert store.meta.schema_version == 3
        facts = store.facts()
    assert facts.graders == {"state": [f"vita.grading.state:{STATE_VERSION}"]}
    assert facts.session is None  # no run session was opened since


@pytest.mark.parametrize("record", [True, False])
def test_provenance_of_a_run_names_versions_tasks_graders_and_models(
    tmp_path: Path, record: bool
) -> None:
    out = tmp_path / "run"
    _run(out, record_requests=record)
    with RunStore.read(out) as store:
        p = store.provenance()
        tasks = store.tasks()
    assert p is not None
    from lifebench import __version__
    from lifebench.runner._provenance import tasks_hash

    assert p.lifebench_version == __version__
    assert p.tasks == 2 and p.tasks_hash == tasks_hash(tasks)
    assert p.graders == {
        "rubric": "vita.grading.rubric:2",
        "state": f"vita.grading.state:{STATE_VERSION}",
    }
    assert {role: m.model for role, m in p.models.items()} == {
        "agent": "agent",
        "user": "user",
        "judge": "judge",
    }
    assert p.kinds == {"agent": "llm", "user": "llm", "evaluator": "both"}
    assert p.packages["pydantic"] and p.packages["python"]
    assert p.task_file is None  # bundled tasks


def test_facts_follow_the_gradings_behind_the_stored_evaluations(tmp_path: Path) -> None:
    """Grader versions come from the gradings that produced the current evaluations: a unit
    graded before any grading was logged adds none (not recorded, and mixed with the others),
    an interrupted re-grade makes the evaluations mixed, and the latest session's provenance
    is the run's."""
    from runner_fakes import evaluation, units

    from lifebench.runner._provenance import Provenance

    config = {"suite": "vita", "bases": ["state"], "evaluator": "state"}
    tasks = {"t1": "h1", "t2": "h2"}
    first = Provenance(lifebench_version="1", graders={"state": "g:1"})
    second = Provenance(lifebench_version="2", graders={"state": "g:2"})
    u1, u2 = units(tasks, trials=1)
    with RunStore.open(tmp_path, config, "h", tasks, provenance=first) as store:
        store.record(u1, simulation(u1), evaluation(1.0))  # before any grading was logged
        facts = store.facts()
        assert facts.graders == {"state": []} and not facts.mixed
        store.begin_grading("run", {"evaluator": "state", "bases": ["state"]}, 1, first)
        store.record(u2, simulation(u2), evaluation(1.0))
        facts = store.facts()  # t1's evaluation predates the log: the two are mixed
        assert facts.graders == {"state": ["g:1"]} and facts.mixed
        assert facts.session == first and facts.versions == ["1"]
    with RunStore.open(tmp_path, config, "h", tasks, provenance=second) as store:
        grading = store.begin_grading("eval", {"evaluator": "state", "bases": ["state"]}, 2, second)
        store.record_evaluation(u2.task_id, u2.trial, evaluation(0.0))
        facts = store.facts()  # the re-grade never finished: mixed
        assert facts.graders == {"state": ["g:2"]} and facts.mixed
        assert facts.session == second and facts.versions == ["1", "2"]
        store.record_evaluation(u1.task_id, u1.trial, evaluation(0.0))
        store.finish_grading(grading, 2, 0)
        facts = store.facts()
        assert facts.graders == {"state": ["g:2"]} and not facts.mixed
        assert store.provenance() == second


def test_a_trajectory_too_deep_to_grade_names_its_unit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lifebench.errors import LifebenchError
    from lifebench.runner import _regrade

    out = tmp_path / "run"
    _run(out)
    with RunStore.read(out) as store:
        record = store.results()[0]

    async def too_deep(*args: object, **kwargs: object) -> object:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(_regrade, "evaluate", too_deep)
    with pytest.raises(
        LifebenchError, match=rf"unit {record.task_id}#{record.trial}: .*too deeply"
    ):
        asyncio.run(
            regrade(out, {"evaluator": "rubric", "judge_model": "judge"}, models=_factory())
        )

"""``eval --rejudge K`` on a run no grader of which asks a judge: nothing is re-graded, and the
variance split reports the judge's variance as 0 by construction (not "inside the agent
estimate, run --rejudge to separate it")."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.metrics._noise import noise_floor
from lifebench.metrics._trials import ScoredTrial
from lifebench.metrics._variance import variance_split
from lifebench.reporting._noise import sources_table
from lifebench.reporting._report import asks_judge, describe_grading
from lifebench.runner import RunStore

BY_CONSTRUCTION = (
    "no grader of this run asks a judge (deterministic grading): judge variance is 0 by "
    "construction"
)


def _invoke(args: list[str]) -> Any:
    return CliRunner().invoke(app, args)


def _counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts of the ordinary gradings and of the extra ones (``--rejudge``)."""
    import lifebench.runner._regrade as regrade
    import lifebench.runner._rejudge as rejudge

    calls = {"ordinary": 0, "extra": 0}

    def counted(module: Any, key: str) -> None:
        original = module.evaluate

        async def evaluate(*args: Any, **kwargs: Any) -> Any:
            calls[key] += 1
            return await original(*args, **kwargs)

        monkeypatch.setattr(module, "evaluate", evaluate)

    counted(regrade, "ordinary")
    counted(rejudge, "extra")
    return calls


@pytest.mark.parametrize(
    "suite_args",
    [
        [],  # VitaBench, state evaluator only
        ["--suite", "flow", "--level", "turn"],
        ["--suite", "flow", "--level", "session"],
        ["--suite", "travel"],  # the offline stand-in judge
    ],
    ids=["vita-state", "flow-turn", "flow-session", "travel-offline"],
)
def test_a_run_without_a_judge_is_not_regraded(
    suite_args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    args = ["run", *suite_args, "--num-tasks", "2", "--trials", "2", "--out", str(out)]
    result = _invoke([*args, "--quiet"])
    assert result.exit_code == 0, result.stdout
    calls = _counting(monkeypatch)
    result = _invoke(["eval", str(out), "--rejudge", "3", "--quiet"])
    assert result.exit_code == 0, result.stdout
    assert (
        "--rejudge 3: no grader of this run asks a judge (deterministic grading), so there is "
        "no judge to re-ask and no extra grading was made: judge variance is 0 by construction"
    ) in result.stdout
    assert "each graded 3 times" not in result.stdout
    assert calls == {"ordinary": 4, "extra": 0}  # the ordinary grading only
    store = RunStore.read(out)
    try:
        for record in store.results():
            assert record.evaluation is not None
            assert all("rejudge" not in b.info for b in record.evaluation.by_basis.values())
    finally:
        store.close()
    rep = json.loads(_invoke(["report", str(out), "--json"]).stdout)
    sources = rep["noise"]["sources"]
    judge = next(c for c in sources["components"] if c["name"] == "judge")
    assert judge["variance"] == 0.0 and judge["groups"] == 0
    assert sources["gradings"] == 1.0
    assert BY_CONSTRUCTION in sources["notes"]
    assert not any("--rejudge" in n for n in sources["notes"])
    agent = next(c for c in sources["components"] if c["name"] == "agent")
    assert agent["includes"] == ["user"]


def test_a_rejudge_of_one_is_the_ordinary_grading_without_a_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    assert _invoke(["run", "--num-tasks", "2", "--out", str(out), "--quiet"]).exit_code == 0
    calls = _counting(monkeypatch)
    result = _invoke(["eval", str(out), "--rejudge", "1", "--quiet"])
    assert result.exit_code == 0, result.stdout
    assert "no judge to re-ask" not in result.stdout
    assert calls == {"ordinary": 2, "extra": 0}


def _config(tmp_path: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "cfg"
    result = _invoke(["run", *args, "--num-tasks", "1", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.stdout
    store = RunStore.read(out)
    try:
        return dict(store.config())
    finally:
        store.close()


def test_whether_a_grading_asks_a_judge(tmp_path: Path) -> None:
    config = _config(tmp_path)
    state = describe_grading(config, None, 1)
    assert asks_judge(config, state) is False
    rubric = {**state, "evaluator": "rubric", "judge_model": "j@http://127.0.0.1:9/v1"}
    assert asks_judge(config, {"parts": [rubric]}) is True
    # a mixed grading: one of its parts asked a judge
    assert asks_judge(config, {"parts": [state, rubric]}) is True
    assert asks_judge(config, {"parts": [rubric, state]}) is True
    assert asks_judge(config, {"parts": [state, state]}) is False
    # a grading these options no longer accept: it may have asked one
    assert asks_judge(config, {"parts": [{**state, "evaluator": "no-such"}]}) is True
    # a description without parts is its own part
    assert asks_judge(config, {k: v for k, v in rubric.items() if k != "parts"}) is True
    # FlowBench's response judge is a judge even with the rule evaluator
    flow = _config(tmp_path / "flow", "--suite", "flow", "--level", "turn")
    plain = describe_grading(flow, None, 1)
    assert asks_judge(flow, plain) is False
    part = plain["parts"][0]
    judged = {**part, "suite_options": {**part["suite_options"], "response_judge": True}}
    judged["judge_model"] = "j@http://127.0.0.1:9/v1"
    assert asks_judge(flow, {"parts": [judged]}) is True


def _trial(task: str, trial: int, reward: float, *extra: float) -> ScoredTrial:
    return ScoredTrial(task, trial, reward, trial, 0, tuple(extra))


def test_the_split_of_an_unjudged_run_has_a_zero_judge() -> None:
    # a: 1, 0 (mean 0.5, SS 0.5, df 1); b: 1, 1 (SS 0, df 1): pooled agent variance 0.25
    trials = {
        "a": [_trial("a", 0, 1.0), _trial("a", 1, 0.0)],
        "b": [_trial("b", 0, 1.0), _trial("b", 1, 1.0)],
    }
    split = variance_split(trials, judged=False)
    judge = split.component("judge")
    assert (judge.variance, judge.share, judge.groups, judge.includes) == (0.0, 0.0, 0, [])
    agent = split.component("agent")
    assert (agent.variance, agent.share, agent.includes) == (0.25, 1.0, ["user"])
    assert split.within_task == 0.25
    # task means 0.5 and 1: spread 0.125, less the agent noise each carries (0.25 / 2)
    assert split.component("task").variance == 0.0
    assert split.notes == [
        BY_CONSTRUCTION,
        "one user-simulator seed per agent trial: user-simulator variance is inside the agent "
        "estimate (run with --user-seeds S to separate it)",
    ]
    judged = variance_split(trials)
    assert judged.component("judge").variance is None
    assert judged.component("agent").includes == ["user", "judge"]
    assert BY_CONSTRUCTION not in judged.notes
    # extra gradings stored all the same are measured, not overruled
    measured = {"a": [_trial("a", 0, 1.0, 0.0), _trial("a", 1, 0.0, 0.0)]}
    split = variance_split(measured, judged=False)
    assert split.component("judge").variance == pytest.approx(0.25)
    assert split.component("judge").groups == 2
    assert BY_CONSTRUCTION not in split.notes
    # the noise floor passes it on
    assert noise_floor(trials, judged=False).sources == variance_split(trials, judged=False)
    assert noise_floor(trials).sources == variance_split(trials)


def _table_text(split_of: dict[str, list[ScoredTrial]], *, judged: bool) -> str:
    table = sources_table(noise_floor(split_of, judged=judged))
    assert table is not None
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(table)
    return out.getvalue()


def test_the_terminal_split_of_an_unjudged_run() -> None:
    trials = {
        "a": [_trial("a", 0, 1.0), _trial("a", 1, 0.0)],
        "b": [_trial("b", 0, 1.0), _trial("b", 1, 1.0)],
    }
    text = _table_text(trials, judged=False)
    assert "agent (incl. user simulator)" in text and "100.0%" in text
    assert "(--user-seeds S: separate user simulator; no judge: judge 0)" in text
    assert "--rejudge" not in text and "judge  " not in text  # no judge row of its own
    text = _table_text(trials, judged=True)
    assert "agent (incl. user simulator, judge)" in text
    assert "(--user-seeds S, eval --rejudge K: separate user simulator, judge)" in text
    # with user seeds the full split shows the judge's 0 and says why
    seeded = {
        "a": [ScoredTrial("a", i, float(i % 2), i // 2, i % 2) for i in range(4)],
        "b": [ScoredTrial("b", i, 1.0, i // 2, i % 2) for i in range(4)],
    }
    text = _table_text(seeded, judged=False)
    assert "user simulator" in text and "0.0000" in text
    rows = [line.split() for line in text.splitlines() if line.startswith("judge  ")]
    assert rows == [["judge", "0.0000", "0.0%"]]
    assert "judge variance is 0 by construction" in " ".join(text.split())  # caption


def test_compare_gives_each_run_the_same_judge_rule_as_its_report() -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from compare_fakes import config, records, run_data

    from lifebench.compare import compare_runs

    rewards = {f"t{i}": [1.0, float(i % 2)] for i in range(10)}
    unjudged = run_data(records(rewards), name="a")
    judged_cfg = config(evaluator="rubric", judge_model="j@http://127.0.0.1:9/v1")
    judged_cfg["bases"] = ["rubric"]
    judged = run_data(records(rewards), name="b", cfg=judged_cfg)
    result = compare_runs([unjudged, judged], ["a", "b"], allow_mismatch=True, bootstrap_samples=50)
    sources = [side.noise.sources for side in result.runs]
    assert sources[0] is not None and sources[1] is not None
    assert sources[0].component("judge").variance == 0.0 and BY_CONSTRUCTION in sources[0].notes
    assert sources[1].component("judge").variance is None
    assert BY_CONSTRUCTION not in sources[1].notes

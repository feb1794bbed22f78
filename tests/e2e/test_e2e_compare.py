"""``lifebench compare``, ``eval --rejudge`` and ``run --user-seeds`` end to end through the CLI,
offline: a seeded flaky oracle served by the loopback mock server is the agent (it fails a
planted set of tasks on demand), a seeded noisy rubric judge grades, a seeded noisy LLM user
hurries it."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "compare"))

import flaky_oracle
import noisy_judge

from lifebench.cli import app
from lifebench.runner import RunStore
from lifebench.testing import MockOpenAIServer
from lifebench.testing.mock_openai import MockServerThread

TASKS = 20
PLANTED = [
    "GEN-delivery-0-3",
    "GEN-delivery-0-7",
    "GEN-delivery-0-11",
    "GEN-delivery-0-15",
    "GEN-delivery-0-16",
    "GEN-delivery-0-19",
]


@pytest.fixture(scope="module")
def agent_url() -> Iterator[str]:
    with MockServerThread(
        MockOpenAIServer(responder=flaky_oracle.respond, keep_requests=False)
    ) as s:
        yield s.base_url


def _invoke(args: list[str], **kw: Any) -> Any:
    return CliRunner().invoke(app, args, **kw)


def _run(out: Path, url: str, *, model: str = "flaky/rate=0.2", extra: list[str] = ()) -> Path:
    result = _invoke(
        [
            "run",
            "--agent-model",
            f"{model}@{url}",
            "--num-tasks",
            str(TASKS),
            "--trials",
            "2",
            "--out",
            str(out),
            "--quiet",
            "--concurrency",
            "8",
            *extra,
        ]
    )
    assert result.exit_code == 0, result.stderr + result.stdout
    return out


def _compare(*args: str) -> dict[str, Any]:
    result = _invoke(["compare", *args, "--json"])
    assert result.exit_code == 0, result.stderr + result.stdout
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, agent_url: str) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("compare")
    return {
        "base": _run(root / "base", agent_url),
        "planted": _run(
            root / "planted", agent_url, model="flaky/rate=0.2/fail=" + ",".join(PLANTED)
        ),
        "reseeded": _run(root / "reseeded", agent_url, extra=["--seed", "301"]),
    }


def _scored(run_dir: Path) -> dict[str, list[float]]:
    store = RunStore.read(run_dir)
    try:
        out: dict[str, list[float]] = {}
        for r in store.results():
            assert r.evaluation is not None
            out.setdefault(r.task_id, []).append(r.evaluation.reward)
        return out
    finally:
        store.close()


def test_a_planted_effect_is_reported_with_its_interval_and_tasks(runs: dict[str, Path]) -> None:
    result = _compare(str(runs["base"]), str(runs["planted"]))
    assert result["comparable"] and result["shared_tasks"] == TASKS and result["k"] == 2
    pair = result["pairs"][0]
    metrics = {m["metric"]: m for m in pair["metrics"]}
    base = _scored(runs["base"])
    effect = sum(sum(base[t]) / 2 for t in PLANTED) / TASKS
    avg = metrics["avg@k"]
    assert avg["difference"] == pytest.approx(effect)
    assert 0 < avg["ci"][0] <= effect <= avg["ci"][1]
    assert avg["significant"] and avg["b_better"] == 0
    solved = {t for t in PLANTED if sum(base[t]) > 0}
    assert {d["task_id"] for d in pair["discordant"]} == solved
    assert all(d["better"] == "a" for d in pair["discordant"])
    first = pair["discordant"][0]
    assert first["viewer"].startswith(f"/compare?task={first['task_id']}&a=0&b=1&ta=")


def test_runs_that_differ_only_by_seed_show_no_significant_difference(
    runs: dict[str, Path],
) -> None:
    result = _compare(str(runs["base"]), str(runs["reseeded"]))
    assert result["comparable"]
    pair = result["pairs"][0]
    assert pair["discordant_total"] > 0  # the flaky agent does differ from seed to seed…
    assert not any(m["significant"] for m in pair["metrics"])  # …but not significantly
    flips = [r["noise"]["flip_rate"] for r in result["runs"]]
    assert all(f is not None and f > 0 for f in flips)


def test_three_runs_are_holm_corrected(runs: dict[str, Path]) -> None:
    result = _compare(str(runs["base"]), str(runs["planted"]), str(runs["reseeded"]))
    assert [(p["a"], p["b"]) for p in result["pairs"]] == [(0, 1), (0, 2), (1, 2)]
    for p in result["pairs"]:
        for m in p["metrics"]:
            assert m["p_holm"] >= m["p_value"]


def test_the_terminal_table_fits_80_columns(runs: dict[str, Path]) -> None:
    result = _invoke(["compare", str(runs["base"]), str(runs["planted"])], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    text = result.stdout
    assert "avg@k" in text and "pass^2" in text and "Discordant tasks" in text
    assert "McNemar" in text or "perm." in text
    assert PLANTED[0] in text or PLANTED[1] in text


def test_incomparable_runs_are_refused_and_marked_when_allowed(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    other = tmp_path / "oracle"
    assert (
        _invoke(
            [
                "run",
                "--num-tasks",
                str(TASKS),
                "--trials",
                "2",
                "--max-steps",
                "100",
                "--out",
                str(other),
                "--quiet",
            ]
        ).exit_code
        == 0
    )
    result = _invoke(["compare", str(runs["base"]), str(other)])
    assert result.exit_code == 2
    assert "not comparable" in result.stderr
    assert "  - base vs oracle: --max-steps: 300 vs 100\n" in result.stderr
    assert "--allow-mismatch" in result.stderr
    allowed = _invoke(["compare", str(runs["base"]), str(other), "--allow-mismatch", "--json"])
    assert allowed.exit_code == 0
    data = json.loads(allowed.stdout)
    assert data["comparable"] is False
    assert [(m["aspect"], m["detail"]) for m in data["mismatches"]] == [
        ("option", "--max-steps: 300 vs 100")
    ]
    assert data["warnings"][0].startswith("NOT COMPARABLE")
    shown = _invoke(["compare", str(runs["base"]), str(other), "--allow-mismatch"])
    assert shown.exit_code == 0
    assert shown.stdout.startswith("NOT COMPARABLE (--allow-mismatch):")


def test_too_few_shared_tasks_and_bad_arguments(runs: dict[str, Path], tmp_path: Path) -> None:
    result = _invoke(["compare", str(runs["base"]), str(runs["planted"]), "--min-shared", "50"])
    assert result.exit_code == 2
    assert "share 20 scored task(s)" in result.stderr and "--min-shared" in result.stderr
    result = _invoke(["compare", str(runs["base"])])
    assert result.exit_code == 2 and "at least two" in result.stderr
    result = _invoke(["compare", str(runs["base"]), str(tmp_path / "nothing")])
    assert result.exit_code == 2 and "not a run directory" in result.stderr


def test_the_report_shows_the_noise_floor(runs: dict[str, Path]) -> None:
    result = _invoke(["report", str(runs["base"]), "--json"])
    noise = json.loads(result.stdout)["noise"]
    assert noise["tasks"] == TASKS and noise["trials_per_task"] == 2.0
    assert 0 < noise["flip_rate"] < 1 and noise["mdd"] > 0
    assert set(noise["trials_needed"]) == {"0.02", "0.05", "0.1"}
    detect = _invoke(["report", str(runs["base"]), "--json", "--detect", "0.03", "--detect", "0.2"])
    assert set(json.loads(detect.stdout)["noise"]["trials_needed"]) == {"0.03", "0.2"}
    assert _invoke(["report", str(runs["base"]), "--detect", "0"]).exit_code == 2
    text = _invoke(["report", str(runs["base"])], env={"COLUMNS": "100"}).stdout
    assert "verdict flip rate" in text and "min. detectable Avg@k difference" in text
    assert "Where the variance comes from" in text


def test_without_scipy_compare_names_the_extra_and_report_says_what_it_leaves_out(
    runs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "scipy", None)  # import scipy fails, as without the extra
    result = _invoke(["compare", str(runs["base"]), str(runs["planted"])])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == (
        "error: lifebench compare needs the stats extra (scipy): pip install 'lifebench[stats]'"
    )
    report = _invoke(["report", str(runs["base"]), "--json"])
    assert report.exit_code == 0, report.stderr
    noise = json.loads(report.stdout)["noise"]
    assert noise["mdd"] is None and 0 < noise["flip_rate"] < 1
    assert noise["notes"][-1].endswith(
        "are left out: they need the stats extra (scipy): pip install 'lifebench[stats]'"
    )
    text = _invoke(["report", str(runs["base"])], env={"COLUMNS": "100"})
    assert text.exit_code == 0 and "pip install 'lifebench[stats]'" in " ".join(text.stdout.split())


def _models(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "models.json"
    path.write_text(
        json.dumps(
            {
                "models": {
                    "noisy": {"model": "noisy/rate=0.15", "base_url": url, "api_key_env": None}
                }
            }
        )
    )
    return path


def _cached_calls(run_dir: Path) -> int:
    import sqlite3

    conn = sqlite3.connect(run_dir / "model_cache.sqlite")
    try:
        return int(conn.execute("SELECT count(*) FROM model_calls").fetchone()[0])
    finally:
        conn.close()


def test_rejudge_splits_off_the_judge_share(tmp_path: Path) -> None:
    server = MockOpenAIServer(responder=noisy_judge.respond, keep_requests=False)
    with MockServerThread(server) as judge:
        models = _models(tmp_path, judge.base_url)
        out = tmp_path / "judged"
        args = ["--evaluator", "rubric", "--judge-model", "noisy", "--models", str(models)]
        result = _invoke(
            ["run", "--num-tasks", "12", "--trials", "2", "--out", str(out), "--quiet", *args]
        )
        assert result.exit_code == 0, result.stderr
        before = json.loads(_invoke(["report", str(out), "--json"]).stdout)
        assert before["noise"]["sources"]["gradings"] == 1.0
        judge_calls = server.count
        cached = _cached_calls(out)
        result = _invoke(["eval", str(out), "--rejudge", "3", "--quiet", *args])
        assert result.exit_code == 0, result.stderr
        assert "each graded 3 times" in result.stdout
        fresh = server.count - judge_calls
        assert fresh > 0  # the extra gradings are new calls, the ordinary one is cached
        assert _cached_calls(out) == cached + fresh  # …and every new call is recorded
        rep = json.loads(_invoke(["report", str(out), "--json"]).stdout)
        sources = rep["noise"]["sources"]
        assert sources["gradings"] == 3.0
        judge_part = next(c for c in sources["components"] if c["name"] == "judge")
        assert judge_part["variance"] > 0 and 0 < judge_part["share"] <= 1
        assert judge_part["groups"] == 24
        text = _invoke(["report", str(out)], env={"COLUMNS": "100"}).stdout
        assert "judge" in text and "Where the variance comes from" in text
        # again: the extra gradings are kept, the ordinary grading comes from the cache
        n = server.count
        assert _invoke(["eval", str(out), "--rejudge", "3", "--quiet", *args]).exit_code == 0
        assert server.count == n
        assert json.loads(_invoke(["report", str(out), "--json"]).stdout)["noise"] == rep["noise"]
        # the reward is still the ordinary grading's
        assert rep["avg_reward"] == before["avg_reward"]
        assert rep["pass_hat_k"] == before["pass_hat_k"]
        store = RunStore.read(out)
        try:
            record = store.results()[0]
            assert record.evaluation is not None
            entries = record.evaluation.by_basis["rubric"].info["rejudge"]
            assert [e["replicate"] for e in entries] == [1, 2]
        finally:
            store.close()


def test_rejudge_must_be_positive(tmp_path: Path) -> None:
    out = tmp_path / "o"
    assert _invoke(["run", "--num-tasks", "2", "--out", str(out), "--quiet"]).exit_code == 0
    result = _invoke(["eval", str(out), "--rejudge", "0"])
    assert result.exit_code == 2


def test_user_seeds_replay_each_agent_trial(tmp_path: Path) -> None:
    out = tmp_path / "seeds"
    base = ["run", "--num-tasks", "3", "--trials", "2", "--out", str(out), "--quiet"]
    assert _invoke(base).exit_code == 0
    result = _invoke([*base, "--user-seeds", "2"])
    assert result.exit_code == 0, result.stderr
    assert "user_seeds: added (2)" in result.stderr
    assert "6 units done" in result.stdout and "6 already done" in result.stdout
    store = RunStore.read(out)
    try:
        rows = store.results()
        assert store.config()["user_seeds"] == 2
    finally:
        store.close()
    by_task: dict[str, list[Any]] = {}
    for r in rows:
        by_task.setdefault(r.task_id, []).append(r)
    for units in by_task.values():
        assert [u.trial for u in units] == [0, 1, 2, 3]
        assert units[0].simulation.info.get("replay") is None  # the ordinary trials stay
        replay = units[2].simulation.info["replay"]
        assert (replay["agent_trial"], replay["user_seed"]) == (0, 1)
        assert replay["agent_seed"] == units[0].seed  # the agent of trial 0
        assert units[3].simulation.info["replay"]["agent_seed"] == units[1].seed
        assert units[2].simulation.seed == units[2].seed != units[0].seed  # its own seed
    rep = json.loads(_invoke(["report", str(out), "--json"]).stdout)
    assert rep["noise"]["sources"]["user_seeds"] == 2.0
    user = next(c for c in rep["noise"]["sources"]["components"] if c["name"] == "user")
    assert user["variance"] == 0.0 and user["groups"] == 6  # a scripted user: no variance
    # the layout depends on --trials: changing it is refused
    changed = _invoke(
        [
            "run",
            "--num-tasks",
            "3",
            "--trials",
            "3",
            "--user-seeds",
            "2",
            "--out",
            str(out),
            "--quiet",
        ]
    )
    assert changed.exit_code == 2
    assert "seed of" in changed.stderr


def test_a_score_suite_planted_effect_and_seed_only_difference(tmp_path: Path) -> None:
    """TravelBench: the scripted travel agent served by the mock server, giving up on every
    fifth row of the single-turn subset in the planted run."""
    import flaky_travel

    server = MockOpenAIServer(responder=flaky_travel.respond, keep_requests=False)
    with MockServerThread(server) as agent:
        planted = [f"single-{i}" for i in range(1, 61, 5)]

        def travel(name: str, model: str, *extra: str) -> Path:
            out = tmp_path / name
            args = ["run", "--suite", "travel", "--agent-model", f"{model}@{agent.base_url}"]
            args += ["--out", str(out), "--quiet", "--trials", "2", "--num-tasks", "60", *extra]
            result = _invoke(args)
            assert result.exit_code == 0, result.stderr + result.stdout
            return out

        base = travel("base", "flaky/rate=0.1")
        weaker = travel("planted", "flaky/rate=0.1/fail=" + ",".join(planted))
        reseeded = travel("reseeded", "flaky/rate=0.1", "--seed", "301")
    result = _compare(str(base), str(weaker))
    metrics = {m["metric"]: m for m in result["pairs"][0]["metrics"]}
    assert {"score", "raw_score"} <= set(metrics)
    score = metrics["score"]
    assert (score["kind"], score["scale"]) == ("score", "raw")
    assert score["significant"] and score["ci"][0] > 0 and score["b_better"] == 0
    # the same seeds: every planted row scores lower, every other row the same
    assert (score["a_better"], score["ties"]) == (len(planted), 60 - len(planted))
    assert metrics["avg@k"]["difference"] == pytest.approx(score["difference"] / 100)
    again = _compare(str(base), str(reseeded))
    assert not any(m["significant"] for m in again["pairs"][0]["metrics"])


def test_user_seeds_split_off_the_user_simulator_share(agent_url: str, tmp_path: Path) -> None:
    """An LLM user that is hurried on a seeded coin per (task, user seed), which makes the
    flaky oracle give up: replaying each agent trial against three user seeds measures it."""
    import noisy_user

    server = MockOpenAIServer(responder=noisy_user.respond, keep_requests=False)
    with MockServerThread(server) as user:
        out = tmp_path / "users"
        args = ["run", "--num-tasks", "12", "--trials", "2", "--user-seeds", "3"]
        args += ["--agent-model", f"flaky/rate=0.2@{agent_url}"]
        args += ["--user-model", f"noisyuser/rate=0.3@{user.base_url}"]
        result = _invoke([*args, "--out", str(out), "--quiet"])
        assert result.exit_code == 0, result.stderr
    sources = json.loads(_invoke(["report", str(out), "--json"]).stdout)["noise"]["sources"]
    assert sources["user_seeds"] == 3.0
    parts = {c["name"]: c for c in sources["components"]}
    assert parts["user"]["groups"] == 24  # 12 tasks x 2 agent trials
    # graded by the state evaluator alone: no judge, whose variance is 0 by construction
    assert parts["user"]["variance"] > 0 and parts["user"]["includes"] == []
    assert parts["agent"]["variance"] is not None
    assert (parts["judge"]["variance"], parts["judge"]["groups"]) == (0.0, 0)
    assert parts["user"]["share"] + parts["agent"]["share"] == pytest.approx(1.0)
    # a hurried user is often met: the user simulator is most of the trial noise here
    assert parts["user"]["share"] > 0.5

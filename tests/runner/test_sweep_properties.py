"""Sweeps, as properties: cells, names, precedence, reserved keys and pooling.

* the cells are the cross product of the axes in file order, each with the base options
  overridden by its grid values (the grid wins);
* each cell has one name, made of its axis labels; two cells with one name are refused;
* ``out``, ``concurrency`` and ``quiet`` belong to the sweep: a file that sets them is refused;
* the pooled report of a group is computed over the union of its cells' units, with every task
  id prefixed by its cell (the same task in two cells is two tasks).
"""

from __future__ import annotations

import itertools
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from runner_fakes import CONFIG, CONFIG_HASH, evaluation, simulation

from lifebench.errors import InputError
from lifebench.metrics import compute_metrics
from lifebench.runner import RunStore, WorkUnit
from lifebench.runner._sweep import (
    Cell,
    SweepSpec,
    cell_options,
    combined_report,
    expand,
    load_sweep,
    sweep_json,
)

# Options of `run` whose values are free enough to be drawn.
_AXES = ("seed", "trials", "num_tasks", "max_steps", "temperature")
_VALUE = st.integers(1, 4)


@st.composite
def specs(draw: st.DrawFn) -> SweepSpec:
    axes = draw(st.lists(st.sampled_from(_AXES), max_size=3, unique=True))
    grid = {a: draw(st.lists(_VALUE, min_size=1, max_size=3, unique=True)) for a in axes}
    base = draw(st.dictionaries(st.sampled_from(_AXES), _VALUE, max_size=3))
    combine = draw(st.lists(st.sampled_from(axes), unique=True)) if axes else []
    return SweepSpec(name="s", base=base, grid=grid, combine=combine)


@settings(max_examples=80)
@given(spec=specs())
def test_cells_are_the_cross_product_with_the_grid_over_the_base(spec: SweepSpec) -> None:
    cells = expand(spec)
    axes = list(spec.grid)
    combos = list(itertools.product(*spec.grid.values()))
    assert len(cells) == len(combos)
    for cell, combo in zip(cells, combos, strict=True):
        assert cell.values == {**spec.base, **dict(zip(axes, combo, strict=True))}
        assert cell.labels == {a: str(v) for a, v in zip(axes, combo, strict=True)}
        expected = "__".join(f"{a}-{v}" for a, v in zip(axes, combo, strict=True)) or "all"
        assert cell.name == expected
    assert len({c.name for c in cells}) == len(cells)


def test_mapping_values_set_several_options_and_name_the_cell() -> None:
    spec = SweepSpec(
        base={"trials": 1, "seed": 5, "agent_model": "base@http://h/v1"},
        grid={
            "model": [
                {"name": "small", "agent_model": "gpt-small@http://h/v1", "seed": 9},
                {"agent_model": "gpt-big@http://h/v1", "temperature": 0.5},
            ],
            "trials": [2],
        },
    )
    small, big = expand(spec)
    assert small.values == {"trials": 2, "seed": 9, "agent_model": "gpt-small@http://h/v1"}
    assert small.labels == {"model": "small", "trials": "2"}
    assert small.name == "model-small__trials-2"
    assert big.values == {
        "trials": 2, "seed": 5, "agent_model": "gpt-big@http://h/v1", "temperature": 0.5,
    }  # fmt: skip
    # no name: the labels of its values, sorted by option name; a model spec as its model id
    assert big.labels == {"model": "gpt-big+0.5", "trials": "2"}
    assert big.name == "model-gpt-big-0.5__trials-2"


def test_a_model_spec_is_labelled_by_its_model_id_without_the_endpoint() -> None:
    spec = SweepSpec(grid={"agent_model": ["m1@https://user:KEY@h/v1", "plain"]})
    first, second = expand(spec)
    assert first.labels == {"agent_model": "m1"} and first.name == "agent_model-m1"
    assert second.name == "agent_model-plain"
    assert "KEY" not in json.dumps([first.labels, first.name])


def test_names_are_slugs_of_safe_characters() -> None:
    spec = SweepSpec(grid={"domain": ["a b/c", "..", "!!"]})
    assert [c.name for c in expand(spec)] == ["domain-a-b-c", "domain-..", "domain"]


def test_no_axes_is_one_cell_named_all() -> None:
    (cell,) = expand(SweepSpec(base={"trials": 3}))
    assert (cell.name, cell.labels, cell.values) == ("all", {}, {"trials": 3})


@pytest.mark.parametrize(
    "grid",
    [
        {"model": [{"name": "x", "seed": 1}, {"name": "x", "seed": 2}]},
        {"domain": ["a b", "a-b"]},
        {"m": ["gpt@http://a/v1", "gpt@http://b/v1"]},
    ],
    ids=["same-name", "same-slug", "same-model-two-endpoints"],
)
def test_two_cells_with_one_name_are_refused(grid: dict[str, list[Any]]) -> None:
    with pytest.raises(InputError, match=r"two cells are both named '.*'; label them") as caught:
        expand(SweepSpec(grid=grid), source="grid.yaml")
    assert caught.value.file == "grid.yaml"


@settings(max_examples=40)
@given(
    key=st.sampled_from(["out", "concurrency", "quiet"]),
    where=st.sampled_from(["base", "axis", "mapping"]),
)
def test_the_sweeps_own_keys_are_refused_wherever_they_are_set(key: str, where: str) -> None:
    if where == "base":
        spec = SweepSpec(base={key: 1}, grid={"seed": [1]})
    elif where == "axis":
        spec = SweepSpec(grid={key: [1]})
    else:
        spec = SweepSpec(grid={"m": [{"name": "a", key: 1}]})
    with pytest.raises(InputError) as caught:
        expand(spec, source="f.yaml")
    assert str(caught.value) == (
        f"file f.yaml: ['{key}'] are set by the sweep itself (out, concurrency, quiet)"
    )


def test_combine_must_name_grid_axes() -> None:
    with pytest.raises(InputError) as caught:
        expand(SweepSpec(grid={"seed": [1]}, combine=["domain", "seed", "alpha"]), source="f")
    assert str(caught.value) == "file f: combine names axes not in the grid: ['alpha', 'domain']"


@pytest.mark.parametrize(
    ("text", "message", "field"),
    [
        ("grid: {seed: []}", "axis 'seed' has no values", "grid"),
        ("name: x\nbogus: 1", "line 2, field bogus: unknown key 'bogus'", "bogus"),
        ("workers: 0", "greater than or equal to 1", "workers"),
        ("- a\n- b", "a sweep file holds a mapping (name, base, grid, …)", None),
        ("grid: [unclosed", "invalid YAML", None),
    ],
    ids=["empty-axis", "unknown-key", "bad-workers", "a-list", "bad-yaml"],
)
def test_bad_sweep_files_name_file_and_field(
    tmp_path: Path, text: str, message: str, field: str | None
) -> None:
    path = tmp_path / "sweep.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_sweep(path)
    assert message in str(caught.value)
    where = (caught.value.file or "").split(", line ")[0]  # unknown keys also name their line
    assert where == str(path) and caught.value.field == field
    assert "Value error" not in str(caught.value)


def test_an_unreadable_sweep_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such sweep file") as caught:
        load_sweep(tmp_path / "missing.yaml")
    assert caught.value.file == str(tmp_path / "missing.yaml")


def test_a_sweep_file_reads_every_field(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(
        json.dumps({"name": "n", "backend": "ray", "workers": 3, "concurrency": 5,
                    "models": "m.yaml", "base": {"trials": 2}, "grid": {"seed": [1, 2]},
                    "combine": ["seed"], "ray_address": "ray://h:1", "out": "o"}),
        encoding="utf-8",
    )  # fmt: skip
    spec = load_sweep(path)
    assert spec == SweepSpec(
        name="n", backend="ray", workers=3, concurrency=5, models="m.yaml", out="o",
        base={"trials": 2}, grid={"seed": [1, 2]}, combine=["seed"], ray_address="ray://h:1",
    )  # fmt: skip
    assert SweepSpec() == SweepSpec(
        name="sweep", backend="local", workers=1, concurrency=8, base={}, grid={}, combine=[]
    )


def test_cell_options_put_the_cell_in_its_directory(tmp_path: Path) -> None:
    spec = SweepSpec(concurrency=3, models="models.yaml", grid={"trials": [2, 3]})
    first, second = expand(spec)
    options = cell_options(spec, first, tmp_path, quiet=True)
    assert options.out == str(tmp_path / first.name)
    assert (options.concurrency, options.quiet, options.trials) == (3, True, 2)
    assert options.models_file == "models.yaml"
    loud = cell_options(spec, second, tmp_path, quiet=False)
    assert (loud.quiet, loud.trials, loud.out) == (False, 3, str(tmp_path / second.name))
    own = Cell(name="c", labels={}, values={"models_file": "own.yaml"})
    assert cell_options(spec, own, tmp_path, quiet=True).models_file == "own.yaml"
    none = SweepSpec()
    assert cell_options(none, own, tmp_path, quiet=True).models_file == "own.yaml"
    assert cell_options(none, Cell("d", {}, {}), tmp_path, quiet=True).models_file is None


def test_a_bad_cell_option_names_the_cell() -> None:
    spec = SweepSpec(grid={"trials": [0]})
    (cell,) = expand(spec)
    with pytest.raises(InputError) as caught:
        cell_options(spec, cell, Path("out"), quiet=True, source="s.yaml")
    assert str(caught.value).startswith("file s.yaml: cell trials-0: ")
    assert "--trials" in str(caught.value)


# ------------------------------------------------------------------------------- pooling


def _fill(out: Path, cell: Cell, rewards: dict[str, list[float]]) -> None:
    tasks = {t: f"h-{t}" for t in rewards}
    with RunStore.open(out / cell.name, CONFIG, CONFIG_HASH, tasks) as store:
        units = [WorkUnit(t, k, k) for t, rs in rewards.items() for k in range(len(rs))]
        store.pending_units(units)
        for unit in units:
            store.record(unit, simulation(unit), evaluation(rewards[unit.task_id][unit.trial]))


@settings(max_examples=15)
@given(
    rewards=st.lists(
        st.dictionaries(
            st.sampled_from(["t1", "t2", "t3"]),
            st.lists(st.sampled_from([0.0, 1.0]), min_size=2, max_size=2),
            min_size=1,
        ),
        min_size=2,
        max_size=2,
    ),
    pool_domain=st.booleans(),
)
def test_pooled_groups_take_the_union_of_their_cells_with_task_ids_prefixed(
    rewards: list[dict[str, list[float]]], pool_domain: bool
) -> None:
    spec = SweepSpec(
        grid={"domain": ["d1", "d2"], "seed": [1]},
        combine=["domain"] if pool_domain else ["seed"],
    )
    cells = expand(spec)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        for cell, per_task in zip(cells, rewards, strict=True):
            _fill(out, cell, per_task)
        report = combined_report(spec, cells, out)
    assert report["name"] == "sweep"
    assert [row["cell"] for row in report["cells"]] == [c.name for c in cells]
    for row, per_task in zip(report["cells"], rewards, strict=True):
        assert row["n_tasks"] == len(per_task)
        assert row["n_simulations"] == 2 * len(per_task)
    if pool_domain:
        (group,) = report["combined"]
        assert group["group"] == "seed=1" and group["labels"] == {"seed": "1"}
        assert group["pooled"] == ["domain"]
        every = [r for per_task in rewards for rs in per_task.values() for r in rs]
        assert group["n_tasks"] == sum(len(p) for p in rewards), "tasks of two cells are two"
        assert group["n_simulations"] == len(every)
        assert group["avg_reward"] == pytest.approx(sum(every) / len(every))
        pass_hat = [float(all(rs)) for per_task in rewards for rs in per_task.values()]
        assert group["pass_hat_k"]["2"] == pytest.approx(sum(pass_hat) / len(pass_hat))
    else:
        assert [g["group"] for g in report["combined"]] == ["domain=d1", "domain=d2"]
        for group, per_task in zip(report["combined"], rewards, strict=True):
            assert group["n_tasks"] == len(per_task)
    json.loads(sweep_json(report))


def test_the_pooled_records_carry_the_cell_in_their_task_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = SweepSpec(grid={"domain": ["d1", "d2"]}, combine=["domain"])
    cells = expand(spec)
    for cell in cells:
        _fill(tmp_path, cell, {"t1": [1.0, 0.0]})
    seen: list[list[str]] = []
    import lifebench.metrics as metrics

    def spy(records: Any, **kwargs: Any) -> Any:
        records = list(records)
        seen.append(sorted({r.task_id for r in records}))
        return compute_metrics(records, **kwargs)

    monkeypatch.setattr(metrics, "compute_metrics", spy)
    report = combined_report(spec, cells, tmp_path)
    assert seen == [["domain-d1/t1", "domain-d2/t1"]]
    assert report["combined"][0]["n_tasks"] == 2
    assert "ci95" in report["combined"][0] and "warnings" in report["cells"][0]


def test_no_combine_no_groups(tmp_path: Path) -> None:
    spec = SweepSpec(grid={"domain": ["d1"]})
    cells = expand(spec)
    _fill(tmp_path, cells[0], {"t1": [1.0, 1.0]})
    report = combined_report(spec, cells, tmp_path)
    assert report["combined"] == []
    assert report["cells"][0]["labels"] == {"domain": "d1"}
    assert report["cells"][0]["avg_reward"] == 1.0


def test_sweep_json_is_deterministic_text() -> None:
    assert sweep_json({"b": 1, "a": "名"}) == '{\n  "a": "名",\n  "b": 1\n}\n'

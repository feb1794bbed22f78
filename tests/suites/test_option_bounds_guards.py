"""Every numeric bound of the options a user types, pinned by its effect: the lowest value
accepted works, the one below it is refused with a message naming the flag (never a run that
cannot progress, a k of 0, or a retry policy that never calls)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from lifebench.errors import InputError
from lifebench.flow.options import FlowOptions
from lifebench.models._config import ModelConfig
from lifebench.models._price import Price
from lifebench.models._retry import RetryPolicy
from lifebench.runner._sweep import SweepSpec
from lifebench.suites import make_run_options
from lifebench.travel.options import TravelOptions
from lifebench.vita.options import VitaOptions

# (run option, lowest accepted value)
RUN_BOUNDS = [
    ("trials", 1),
    ("max_steps", 1),
    ("max_errors", 1),
    ("concurrency", 1),
    ("workers", 1),
]


@pytest.mark.parametrize(("name", "lowest"), RUN_BOUNDS, ids=[n for n, _ in RUN_BOUNDS])
def test_run_option_bounds_name_the_flag(name: str, lowest: int) -> None:
    assert getattr(make_run_options({"suite": "vita", name: lowest}), name) == lowest
    with pytest.raises(InputError) as caught:
        make_run_options({"suite": "vita", name: lowest - 1})
    assert caught.value.field == "--" + name.replace("_", "-")
    assert str(lowest) in str(caught.value)


_MODEL = {"model": "m", "base_url": "http://127.0.0.1:9/v1"}

# (model, fixed fields, field, lowest accepted, refused just below)
MODEL_BOUNDS: list[tuple[type[BaseModel], dict[str, Any], str, float, float]] = [
    (RetryPolicy, {}, "max_attempts", 1, 0),
    (RetryPolicy, {}, "base_delay_s", 0.0, -0.001),
    (RetryPolicy, {}, "max_delay_s", 0.0, -0.001),
    (RetryPolicy, {}, "multiplier", 1.0, 0.999),
    (ModelConfig, _MODEL, "max_concurrency", 1, 0),
    (ModelConfig, _MODEL, "max_tokens", 1, 0),
    (ModelConfig, _MODEL, "timeout_s", 0.001, 0.0),
    (Price, {}, "input_per_mtok", 0.0, -0.01),
    (Price, {}, "output_per_mtok", 0.0, -0.01),
    (SweepSpec, {}, "workers", 1, 0),
    (SweepSpec, {}, "concurrency", 1, 0),
    (VitaOptions, {"overlap": 0}, "window", 1, 0),
    (VitaOptions, {}, "overlap", 0, -1),
    (TravelOptions, {}, "simulator_examples", 0, -1),
    (TravelOptions, {}, "max_agent_calls", 1, 0),
    (TravelOptions, {}, "max_turns", 1, 0),
    (TravelOptions, {}, "judge_reasks", 0, -1),
    (FlowOptions, {}, "max_turns", 1, 0),
    (FlowOptions, {}, "format_retries", 0, -1),
]


@pytest.mark.parametrize(
    ("model", "fixed", "name", "lowest", "below"),
    MODEL_BOUNDS,
    ids=[f"{m.__name__}.{n}" for m, _, n, _, _ in MODEL_BOUNDS],
)
def test_model_bounds(
    model: type[BaseModel], fixed: dict[str, Any], name: str, lowest: float, below: float
) -> None:
    assert getattr(model(**fixed, **{name: lowest}), name) == lowest
    with pytest.raises(ValidationError) as caught:
        model(**fixed, **{name: below})
    assert [e["loc"] for e in caught.value.errors()] == [(name,)]

"""The models config file and MODEL@BASE_URL specs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lifebench.errors import InputError
from lifebench.models import GenerateConfig, ModelSpec, load_models_config, parse_model_spec

YAML_CONFIG = """
models:
  gpt:
    model: gpt-4o-mini
    base_url: https://api.openai.com/v1
    price: {input_per_mtok: 0.15, output_per_mtok: 0.6}
    max_concurrency: 8
    timeout_s: 30
    max_tokens: 512
    reasoning_effort: low
    extra_body: {top_k: 20}
    retry: {max_attempts: 3}
  local:
    model: qwen3-8b
    base_url: http://localhost:8000/v1
    api_key_env: null
"""


def test_yaml_config(tmp_path: Path) -> None:
    path = tmp_path / "models.yaml"
    path.write_text(YAML_CONFIG)
    config = load_models_config(path)

    gpt, local = config.models["gpt"], config.models["local"]
    assert gpt.model == "gpt-4o-mini" and gpt.api_key_env == "OPENAI_API_KEY"
    assert gpt.price.cost(1_000_000, 1_000_000) == pytest.approx(0.75)
    assert (gpt.max_concurrency, gpt.timeout_s, gpt.retry.max_attempts) == (8, 30.0, 3)
    assert gpt.generate_config() == GenerateConfig(
        temperature=0.0, max_tokens=512, reasoning_effort="low", extra_body={"top_k": 20}
    )
    assert local.api_key_env is None and local.max_concurrency is None and local.cache


def test_json_config(tmp_path: Path) -> None:
    path = tmp_path / "models.json"
    path.write_text(json.dumps({"models": {"m": {"model": "x", "base_url": "http://h/v1"}}}))
    assert load_models_config(path).models["m"].timeout_s == 120.0


def test_every_field_is_described() -> None:
    from lifebench.models import ModelConfig, Price, RetryPolicy

    for cls in (ModelConfig, Price, RetryPolicy):
        for name, info in cls.model_fields.items():
            assert info.description, f"{cls.__name__}.{name}"


@pytest.mark.parametrize(
    ("content", "field", "message"),
    [
        ("models:\n  gpt:\n    model: x\n", "models.gpt.base_url", "Field required"),
        (
            "models:\n  gpt: {model: x, base_url: 'http://h', timeout_s: soon}\n",
            "models.gpt.timeout_s",
            "valid number",
        ),
        (
            "models:\n  gpt: {model: x, base_url: 'http://h', max_concurency: 4}\n",
            "models.gpt.max_concurency",
            "unknown key 'max_concurency' in models.gpt; did you mean 'max_concurrency'?",
        ),
        (
            "models:\n  gpt: {model: x, base_url: 'http://h', max_concurrency: 0}\n",
            "models.gpt.max_concurrency",
            "greater than or equal to 1",
        ),
        (
            "models:\n  gpt: {model: x, base_url: 'http://h', price: {input_per_mtok: -1}}\n",
            "models.gpt.price.input_per_mtok",
            "greater than or equal to 0",
        ),
    ],
)
def test_invalid_field_names_file_and_field(
    tmp_path: Path, content: str, field: str, message: str
) -> None:
    path = tmp_path / "models.yaml"
    path.write_text(content)
    with pytest.raises(InputError) as info:
        load_models_config(path)
    assert info.value.file in (str(path), f"{path}, line 2") and info.value.field == field
    assert str(path) in str(info.value) and field in str(info.value)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("models.yaml", "models: [unclosed\n", "invalid YAML"),
        ("models.json", '{"models": ', "invalid JSON at line 1"),
        ("models.yaml", "- a\n- b\n", "expected a mapping"),
    ],
)
def test_unparsable_file(tmp_path: Path, name: str, content: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(InputError, match=message) as info:
        load_models_config(path)
    assert info.value.file == str(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such models config file") as info:
        load_models_config(tmp_path / "nope.yaml")
    assert info.value.file is not None and info.value.file.endswith("nope.yaml")


def test_empty_file_has_no_models(tmp_path: Path) -> None:
    path = tmp_path / "models.yaml"
    path.write_text("")
    assert load_models_config(path).models == {}


@pytest.mark.parametrize(
    ("spec", "model", "base_url"),
    [
        ("gpt-4o@https://api.openai.com/v1", "gpt-4o", "https://api.openai.com/v1"),
        ("qwen3-8b@http://localhost:8000/v1", "qwen3-8b", "http://localhost:8000/v1"),
        ("org/model@v2@HTTP://10.0.0.1:30000/v1", "org/model@v2", "HTTP://10.0.0.1:30000/v1"),
        ("  m@http://h  ", "m", "http://h"),
    ],
)
def test_parse_model_spec(spec: str, model: str, base_url: str) -> None:
    assert parse_model_spec(spec) == ModelSpec(model=model, base_url=base_url)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gpt-4o", "MODEL@BASE_URL"),
        ("gpt-4o@localhost:8000/v1", "http:// or https://"),
        ("@http://localhost:8000/v1", "empty model id"),
        ("m@http:///v1", "without a host"),
    ],
)
def test_parse_model_spec_errors(spec: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_model_spec(spec)

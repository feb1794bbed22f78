"""``lifebench.metrics`` exports its names lazily: each submodule is imported on first use."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import lifebench.metrics as metrics


def test_every_exported_name_is_the_submodules_own() -> None:
    assert sorted(metrics._MODULES) == sorted(metrics.__all__)
    for name, module in metrics._MODULES.items():
        own = getattr(importlib.import_module(f"lifebench.metrics.{module}"), name)
        assert getattr(metrics, name) is own, name


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'no_such_metric'"):
        metrics.no_such_metric  # noqa: B018
    with pytest.raises(ImportError):
        exec("from lifebench.metrics import no_such_metric", {})


def test_one_name_imports_only_its_submodule() -> None:
    code = (
        "import sys\n"
        "from lifebench.metrics import HEADLINES\n"
        "assert HEADLINES == ('lifebench', 'official'), HEADLINES\n"
        "print(sorted(m for m in sys.modules if m.startswith('lifebench.metrics')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = out.stdout.strip()
    # the check of --headline imports no metric (nor pydantic)
    assert loaded == "['lifebench.metrics', 'lifebench.metrics._headline']"


def test_a_name_read_twice_is_the_same_value_once_remembered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, module in metrics._MODULES.items():
        monkeypatch.delitem(vars(metrics), name, raising=False)
        own = getattr(importlib.import_module(f"lifebench.metrics.{module}"), name)
        assert getattr(metrics, name) is own, name  # through __getattr__
        assert vars(metrics)[name] is own, name  # remembered in the package
        assert getattr(metrics, name) is own, name  # read from the package itself

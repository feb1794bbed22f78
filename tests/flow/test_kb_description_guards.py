"""FlowBench's description files (domain_desc.json, role_desc.json) must hold an object of name →
description strings; anything else is one clear message naming the file, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lifebench.errors import InputError
from lifebench.flow.kb import load_knowledge

_LINE = {
    "uuid": "u-1",
    "domain": "Test Domain",
    "role": "doer",
    "scenario": "Alpha",
    "workflow": {"text": "Alpha text"},
}


def _folder(tmp_path: Path, name: str, content: Any) -> Path:
    (tmp_path / "workflow_final.jsonl").write_text(json.dumps(_LINE) + "\n", encoding="utf-8")
    (tmp_path / name).write_text(json.dumps(content), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("name", ["domain_desc.json", "role_desc.json"])
@pytest.mark.parametrize(
    "content",
    [["doer", "Does things."], {"doer": 3}, {"doer": ["Does things."]}, "Does things."],
    ids=["list", "number-value", "list-value", "string"],
)
def test_a_description_file_of_another_shape_is_named(
    tmp_path: Path, name: str, content: Any
) -> None:
    with pytest.raises(InputError) as caught:
        load_knowledge(_folder(tmp_path, name, content))
    assert "name → description strings" in str(caught.value)
    assert name in str(caught.value)


@pytest.mark.parametrize("name", ["domain_desc.json", "role_desc.json"])
def test_a_description_file_of_strings_is_read(tmp_path: Path, name: str) -> None:
    kb = load_knowledge(_folder(tmp_path, name, {"Test Domain": "Tests.", "doer": "Does."}))
    described = kb.domain_descriptions if name == "domain_desc.json" else kb.role_descriptions
    assert described == {"Test Domain": "Tests.", "doer": "Does."}

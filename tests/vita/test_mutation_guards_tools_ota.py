"""The OTA tools (vita/domains/ota.py) pinned by what the agent reads and what their calls do.

The texts of the hotel / attraction / flight / train order tools are built per kind by helper
functions (not written in the ``@tool`` decorator), so they are pinned here, in both languages,
against ``ota_tool_texts.json`` (the exact schemas the model is given, and the dependency edges).
After an intended change of a text, rewrite the file with
``python tests/vita/test_mutation_guards_tools_ota.py`` and review the diff."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_ota_tools import make_environment_dict

from lifebench._util.text import Text
from lifebench.vita.domains import ota
from lifebench.vita.domains._ota_tables import ATTRACTION, FLIGHT, HOTEL, TRAIN
from lifebench.vita.domains.ota import OTAEnvironment
from lifebench.vita.task import VitaTask

TEXTS = Path(__file__).with_name("ota_tool_texts.json")
KINDS = (HOTEL, ATTRACTION, FLIGHT, TRAIN)


def environment() -> OTAEnvironment:
    return OTAEnvironment(VitaTask(id="T1", environment=make_environment_dict()))


def plain(value: Any) -> Any:
    """A helper's texts as JSON data (a Text as [en, zh])."""
    if isinstance(value, Text):
        return [value.en, value.zh]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def helper_texts() -> dict[str, Any]:
    """What each per-kind text helper gives the ``@tool`` decorator, called now (the tool
    classes call them once, at import)."""
    texts: dict[str, Any] = {}
    for kind in KINDS:
        t = kind.order_type
        texts[f"pay_{t}"] = plain(ota._pay_text(kind))
        texts[f"cancel_{t}"] = plain(ota._cancel_text(kind))
        texts[f"search_{t}"] = plain(ota._search_order_text(kind))
        texts[f"detail_{t}"] = plain(ota._detail_text(kind))
        texts[f"create_{t}"] = plain(ota._create_text(kind, "what", "什么", [f"get_{t}_x"]))
    for kind, search in ((FLIGHT, "flight_search_recommend"), (TRAIN, "train_ticket_search")):
        texts[f"modify_{kind.order_type}"] = plain(ota._modify_text(kind, search))
    return texts


def tool_texts() -> dict[str, Any]:
    env = environment()
    return {
        "en": env.tools.openai_schemas("en"),
        "zh": env.tools.openai_schemas("zh"),
        "edges": sorted([list(edge) for edge in env.tools.edges()]),
        "helpers": helper_texts(),
    }


def test_the_ota_tools_read_exactly_as_reviewed() -> None:
    expected = json.loads(TEXTS.read_text(encoding="utf-8"))
    actual = json.loads(json.dumps(tool_texts(), ensure_ascii=False))
    for language in ("en", "zh"):
        by_name = {s["function"]["name"]: s for s in expected[language]}
        assert [s["function"]["name"] for s in actual[language]] == list(by_name)
        for schema in actual[language]:
            assert schema == by_name[schema["function"]["name"]], schema["function"]["name"]
    assert actual["edges"] == expected["edges"]


def test_the_per_kind_text_helpers_give_exactly_the_reviewed_texts() -> None:
    expected = json.loads(TEXTS.read_text(encoding="utf-8"))["helpers"]
    actual = helper_texts()
    assert list(actual) == list(expected)
    for name, texts in actual.items():
        assert texts == expected[name], name


if __name__ == "__main__":
    TEXTS.write_text(
        json.dumps(tool_texts(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )

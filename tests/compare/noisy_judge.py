"""A noisy VitaBench rubric judge served by the mock OpenAI server: each rubric is judged met
unless a seeded coin per (request seed, rubric) says otherwise. The model name configures it:
``noisy/rate=0.1`` (the chance that a rubric is judged unmet; default 0.1)."""

from __future__ import annotations

import json
import re
from typing import Any

from lifebench._util.hashing import derive_seed
from lifebench.testing.mock_openai import completion_response

_RUBRICS = re.compile(r"<current_rubrics>\n(.*)\n</current_rubrics>", re.S)


def _rate(model: str) -> float:
    for part in model.split("/")[1:]:
        key, _, value = part.partition("=")
        if key == "rate":
            return float(value)
    return 0.1


def respond(body: dict[str, Any]) -> dict[str, Any]:
    """Verdicts for the rubrics of the request."""
    block = _RUBRICS.search(body["messages"][-1]["content"])
    keys = list(json.loads(block.group(1))) if block else []
    seed = int(body.get("seed") or 0)
    rate = _rate(str(body.get("model") or ""))
    verdicts = [
        {
            "rubric_key": k,
            "meetExpectation": derive_seed("judge", seed, k) / (2**31 - 1) >= rate,
            "justification": "[1]",
        }
        for k in keys
    ]
    return completion_response(json.dumps(verdicts))

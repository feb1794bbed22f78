"""The official FlowBench scoring of the same stored outputs (AlibabaResearch/DAMO-ConvAI 483554e,
``FlowBench/``), rebuilt in our own words: its parsing, its counters and its known defects.

**Turn level** (``turn_level/turn_metric_display.py``), per predicted turn (the agent's text as
the official inference stores it, :func:`official_prediction`):

* a prediction containing ``api call error`` is skipped; the others are stripped first;
* a gold tool turn needs an ``Action`` key whose value and ``Action Input`` are both non-empty
  (a tool without arguments is no gold call);
* the predicted call counts when ``Action: …`` is followed by a newline; its name is that line
  (a ``functions.`` prefix and everything from the first ``.`` removed; nothing trimmed); on a
  non-tool gold turn it counts only when the text holds ``Action: `` or ``Action Input: ``;
* the predicted arguments: the text from ``Action Input: `` to the first ``}`` on that line
  when it holds one ``{``, the first balanced ``{…}`` after an ``Action Input: `` when it holds
  more, else nothing; then JSON (anything unreadable: no arguments);
* parameters (gold tool turns only, whatever tool was predicted): gold = every key of the gold
  arguments (empty values included), predicted = every predicted key, right = gold keys
  predicted with a value of the same type that is equal — strings after stripping and deleting
  ASCII punctuation and spaces, equal or the gold one contained, else the fuzzy matcher;
* a call is right when the name equals the gold one and every gold key whose value is neither
  ``""`` nor ``[]`` matches in the *lower-cased* JSON of both sides (types strict, strings as
  above else the fuzzy matcher, other values equal); any failure to read counts it wrong;
* P and R are micro over turns; a zero denominator divides by −1 (−0.0). The script prints no
  F1; the paper's is 2PR / (P + R).

**Session level** (``session_level/session_simulate.py`` ``session_eval`` and
``session_metric_display.py``): the gold calls are ``gt_actions_string`` split at blank lines
and the predicted ones the ``Action:`` / ``Action Input:`` pairs of the dialogue text, split
the same way (so no call at all still counts one empty entry on each side); a gold call is
right when *any* predicted call equals it (``utils/eval_utils.equal_actions``: names equal
ignoring case, arguments read by a recursive pattern that matches only flat objects, else
``{}``; a string value can never match, because the released function fails on it and counts
the pair unequal). Success is the judge's verdict (not failed by a session that hit a cap) and
progress achieved / total goals; a judge that gives no usable verdict counts 0 and 0.

The fuzzy matcher is an LLM; official mode never calls one. Its answer for a pair of values is
lifebench's verdict on the same pair: the rules (normalisation, containment, enumerations),
then the verdict lifebench's judge gave for that pair when it was asked, else "no".
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

REFERENCE = (
    "AlibabaResearch/DAMO-ConvAI 483554e FlowBench (turn_level/turn_metric_display.py, "
    "session_level/session_simulate.py, session_level/session_metric_display.py, "
    "utils/eval_utils.py)"
)

Same = Callable[[str, str, str], bool]
"""The fuzzy matcher: (parameter, gold text, predicted text) → the values mean the same."""

_PUNCTUATION = str.maketrans("", "", string.punctuation + " ")
_ACTION_LINE = re.compile(r"Action: (.*)\n")
_INPUT_LINE = re.compile(r"Action Input: (.*?)}")
_ACTION_NAME = re.compile(r"Action: (?:functions\.)?(\w+)")
_DIALOG_ACTIONS = re.compile(r"(Action: [^\n]+)\n(Action Input: [\s\S]+?)(?=\n\n|\nAction: |\Z)")
_RESPONSE_LINE = re.compile(r"Response:.*?(\n|$)", re.DOTALL)
_THOUGHT_LINE = re.compile(r"Thought:.*?(\n|$)", re.DOTALL)
INPUT_PREFIX = "Action Input: "


def _cleaned(text: str) -> str:
    """The official model wrapper's clean-up of a reply holding both ``Action:`` and
    ``Action Input:``: every ``Response:`` up to its line end is removed, and so is one
    ``Thought:`` line after the first."""
    if "Action:" in text and "Action Input:" in text:
        cut = _RESPONSE_LINE.sub("", text)
        start = cut.find("Thought:")
        end = start + cut[start:].find("\n") + 1
        text = cut[:end] + _THOUGHT_LINE.sub("", cut[end:], count=1)
    return text


def official_prediction(text: str) -> str:
    """The prediction as the official turn inference stores it: cleaned up, and a reply
    without ``Thought:`` gets the prefix the inference gives it after its re-samples."""
    text = _cleaned(text)
    return text if "Thought:" in text else "Thought: None\n" + text


def official_session_content(text: str) -> str:
    """An agent message as the official session loop keeps it: cleaned up, and ``Thought:``
    put in front of a reply still without one after its re-samples."""
    text = _cleaned(text)
    return text if "Thought:" in text else "Thought:" + text


def _squeeze(value: str) -> str:
    return value.strip().translate(_PUNCTUATION)


def _balanced(text: str, start: int) -> int | None:
    """End of the balanced ``{…}`` opening at ``start`` (None when it never closes)."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def predicted_arguments_text(pred: str) -> str:
    """The argument text the official turn metric reads from a prediction ("" when none)."""
    lazy = _INPUT_LINE.search(pred)
    if lazy is None:
        return ""
    braces = lazy.group(0).count("{")
    if braces == 1:
        return lazy.group(0)[len(INPUT_PREFIX) :]
    if braces > 1:
        for found in re.finditer(re.escape(INPUT_PREFIX), pred):
            start = found.end()
            if pred.startswith("{", start):
                end = _balanced(pred, start)
                if end is not None:
                    return pred[start:end]
    return ""


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, TypeError):
        return None


def _strings_match(gold: str, pred: str, key: str, same: Same) -> bool:
    g, p = gold.strip(), pred.strip()
    if _squeeze(g) == _squeeze(p) or _squeeze(g) in _squeeze(p):
        return True
    return same(key, g, p)


def _param_hits(gold: dict[str, Any], pred: dict[str, Any], same: Same) -> int:
    hits = 0
    for key, value in gold.items():
        if key not in pred or type(value) is not type(pred[key]):
            continue
        if isinstance(value, str):
            hits += int(_strings_match(value, pred[key], key, same))
        else:
            hits += int(value == pred[key])
    return hits


def _filtered(args: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in args.items() if v != "" and v != []}


def _call_right(gold_text: str, pred_text: str, same: Same) -> bool:
    """The official call check on the lower-cased argument JSON of both sides."""
    pred = json.loads(pred_text.lower()) if pred_text.lower() != "" else {}
    gold = json.loads(gold_text.lower()) if gold_text.lower() != "" else {}
    gold, pred = _filtered(gold), _filtered(pred)
    every = True
    for key, value in gold.items():
        if key not in pred or type(value) is not type(pred[key]):
            return False
        if isinstance(value, str):
            every = every and _strings_match(value, pred[key], key, same)
        elif value != pred[key]:
            return False
    return every


@dataclass(frozen=True)
class OfficialTurn:
    """The official counters of one predicted turn."""

    skipped: int = 0
    gold_call: int = 0
    pred_call: int = 0
    correct_call: int = 0
    gold_params: int = 0
    pred_params: int = 0
    correct_params: int = 0

    def as_info(self) -> dict[str, int]:
        """JSON-ready counters."""
        return asdict(self)


def official_turn(
    pred: str,
    gold_action: str | None,
    gold_input: str | None,
    same: Same,
) -> OfficialTurn:
    """The official counters of prediction ``pred`` against the gold thought (``gold_action``
    None: no ``Action`` key; ``gold_input`` None: no ``Action Input`` key)."""
    if "api call error" in pred:
        return OfficialTurn(skipped=1)
    pred = pred.strip()
    name_line = _ACTION_LINE.search(pred)
    if gold_action is None or gold_input is None or gold_action == "" or gold_input == "":
        called = ("Action: " in pred or INPUT_PREFIX in pred) and name_line is not None
        return OfficialTurn(pred_call=int(called))
    action = ""
    if name_line is not None:
        action = name_line.group(1).removeprefix("functions.").split(".")[0]
    args_text = predicted_arguments_text(pred)
    predicted = _loads(args_text) if args_text.strip() else {}
    if not isinstance(predicted, dict):
        predicted = {}
    gold = _loads(gold_input)
    if not isinstance(gold, dict):
        gold = {}
    right = False
    if action == gold_action:
        try:
            right = _call_right(gold_input, args_text, same)
        except (ValueError, TypeError, AttributeError):
            right = False
    return OfficialTurn(
        gold_call=1,
        pred_call=int(name_line is not None),
        correct_call=int(right),
        gold_params=len(gold),
        pred_params=len(predicted),
        correct_params=_param_hits(gold, predicted, same),
    )


def official_ratio(right: int, total: int) -> float:
    """right / total, or right / −1 when total is 0 (the official −0.0)."""
    return right / (total if total > 0 else -1)


def official_f1(precision: float, recall: float) -> float:
    """The paper's F1 of the official P and R (0 when both are 0)."""
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


# ---------------------------------------------------------------------------------------------
# Session level


def dialog_text(turns: Sequence[tuple[str, str]]) -> str:
    """The dialogue as ``session_simulate`` writes it: ``role:`` and the content, blocks
    separated by a blank line (roles ``user``, ``assistant``, ``function``)."""
    text = ""
    for role, content in turns:
        text = text + "\n\n" + role + ":\n" + content
    return text.strip()


def dialog_actions(dialog: str) -> list[str]:
    """The predicted calls of a dialogue text, as ``session_eval`` splits them."""
    pairs = _DIALOG_ACTIONS.findall(dialog)
    joined = "\n\n".join("\n".join(pair) for pair in pairs)
    return joined.strip().split("\n\n")


def _flat_input(text: str, start: int) -> int | None:
    """End of the official recursive argument pattern at ``start`` (``Action Input: {…}``
    whose inner braces must themselves follow ``Action Input: ``), or None."""
    if not text.startswith(INPUT_PREFIX + "{", start):
        return None
    i = start + len(INPUT_PREFIX) + 1
    while i < len(text):
        if text[i] == "}":
            return i + 1
        if text[i] == "{":
            inner = i - len(INPUT_PREFIX)
            end = _flat_input(text, inner) if inner >= 0 else None
            if end is None:
                return None
            i = end
            continue
        i += 1
    return None


def _action_parts(block: str) -> tuple[str, str]:
    name = _ACTION_NAME.search(block)
    found = name.group(1).strip() if name else ""
    for match in re.finditer(re.escape(INPUT_PREFIX), block):
        end = _flat_input(block, match.start())
        if end is not None:
            return found, block[match.end() : end].strip()
    return found, "{}"


def equal_actions(gold: str, pred: str) -> bool:
    """The released session-level call comparison (``utils/eval_utils.equal_actions``)."""
    gold_name, gold_text = _action_parts(gold)
    pred_name, pred_text = _action_parts(pred)
    if gold_name.lower() != pred_name.lower():
        return False
    try:
        gold_args = json.loads(gold_text.lower()) if gold_text.lower() != "" else {}
        pred_args = json.loads(pred_text.lower()) if pred_text.lower() != "" else {}
        gold_kept, pred_kept = _filtered(dict(gold_args)), _filtered(dict(pred_args))
    except (ValueError, TypeError):
        return False
    for key, value in gold_kept.items():
        if key not in pred_kept or type(value) is not type(pred_kept[key]):
            return False
        if isinstance(value, str):
            return False  # the released function fails here (a name it never imports)
        if value != pred_kept[key]:
            return False
    return True


@dataclass(frozen=True)
class OfficialSessionCalls:
    """The official tool counters of one session."""

    right: int
    n_gold: int
    n_pred: int

    def as_info(self) -> dict[str, int]:
        """JSON-ready counters."""
        return asdict(self)


def official_session_calls(gold_actions: str, predicted: Sequence[str]) -> OfficialSessionCalls:
    """Right, gold and predicted calls of a session as ``session_eval`` counts them."""
    gold = gold_actions.strip().split("\n\n")
    right = sum(1 for g in gold if any(equal_actions(g, p) for p in predicted))
    return OfficialSessionCalls(right=right, n_gold=len(gold), n_pred=len(predicted))

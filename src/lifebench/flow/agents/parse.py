"""One tolerant parser for the ReAct text of FlowBench agents (both evaluation levels).

A FlowBench agent answers in one of two shapes::

    Thought: …                      Thought: …
    Response: <text for the user>   Action: <tool name>
                                    Action Input: {<JSON object>}

Models deviate from it in many ways; the parser accepts, and records as notes:

* keys in any case, wrapped in markdown (``**Action:**``, ``### Response``), with a full-width
  colon, or written ``Action_Input`` / ``ActionInput``; keys that follow the previous segment on
  the same line (no newline) when they are written in their canonical capitalisation;
* code fences around the whole reply or around the JSON;
* arguments that span lines, nest objects or lists, contain ``}`` inside strings, use single
  quotes or trailing commas (a string-aware balanced-brace scan, then ``json``, then a lenient
  repair), or are followed by prose;
* a ``functions.`` prefix or quotes / backticks around the tool name;
* several Action blocks (the first one counts: one call per round), a Response next to an
  Action (the call counts, the Response is dropped), prose with no keys at all (taken as the
  response).

A reply with neither a tool name nor a response is *unusable*: the agent re-asks or reports it
(see :mod:`lifebench.flow.agents.react`). Malformed arguments are kept verbatim so that the tool
layer reports them to the agent as a ``bad_arguments`` tool error.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import json_repair

# Key names as written by models; mapped to the four canonical keys.
_KEY_NAMES = {
    "thought": "thought",
    "thoughts": "thought",
    "action input": "input",
    "action_input": "input",
    "actioninput": "input",
    "action-input": "input",
    "action": "action",
    "response": "response",
    "final answer": "response",
}
_KEY_ALTERNATION = "|".join(
    re.escape(k).replace(r"\ ", r"[ \t]+") for k in sorted(_KEY_NAMES, key=len, reverse=True)
)
# A key at the start of a line, in any case, possibly decorated with markdown.
_LINE_KEY = re.compile(
    rf"^[ \t>*_#`-]*(?P<key>{_KEY_ALTERNATION})[ \t*_`]*[:：]",
    re.IGNORECASE | re.MULTILINE,
)
# A key in the middle of a line (missing newline): canonical capitalisation only, so that prose
# such as "the next action: …" is not cut.
_INLINE_KEY = re.compile(
    r"(?<=[\s.!?。，,;:)\]}\"'])[*_`]*(?P<key>Thought|Action Input|Action_Input|Action|Response)"
    r"[*_`]*[:：]"
)
_FENCE = re.compile(r"^[ \t]*```[\w-]*[ \t]*$", re.MULTILINE)
_NAME = re.compile(r"[A-Za-z_][\w\-]*(?:\.[A-Za-z_][\w\-]*)*")


@dataclass(frozen=True)
class ReactThought:
    """The workflow fields an agent's Thought states (empty when absent)."""

    last_node: str = ""
    intent: str = ""
    current_node: str = ""


@dataclass(frozen=True)
class ParsedReply:
    """What a ReAct reply says.

    Attributes:
        thought: The Thought text ("" when missing).
        action: The tool name (without ``functions.``), or None when the reply calls no tool.
        arguments_text: The JSON text of the arguments as found (re-serialised when it needed
            repair); "{}" when the Action has no input.
        arguments: The parsed arguments, or None when they are not a JSON object.
        response: The text for the user, or None (always None next to an Action).
        notes: Format deviations that were tolerated or that made the reply unusable.
    """

    thought: str = ""
    action: str | None = None
    arguments_text: str = "{}"
    arguments: dict[str, Any] | None = None
    response: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def usable(self) -> bool:
        """True when the reply calls a tool or says something to the user."""
        return self.action is not None or bool(self.response)

    @property
    def fields(self) -> ReactThought:
        """``last_node``, ``intent`` and ``current_node`` from the Thought."""
        return thought_fields(self.thought)


def _next_key(text: str, pos: int) -> tuple[str, int, int] | None:
    """The earliest key at or after ``pos``: (canonical key, match start, value start)."""
    best: tuple[str, int, int] | None = None
    for pattern in (_LINE_KEY, _INLINE_KEY):
        m = pattern.search(text, pos)
        if m is not None and (best is None or m.start() < best[1]):
            key = _KEY_NAMES[re.sub(r"[ \t]+", " ", m.group("key").lower())]
            best = (key, m.start(), m.end())
    return best


_JSON_LEAD = re.compile(r"\s*(?:```[\w-]*\s*)?`?")


def _json_end(text: str, start: int) -> int | None:
    """End of the JSON value that opens ``text[start:]`` (after blanks or a fence), if any."""
    lead = _JSON_LEAD.match(text, start)
    at = lead.end() if lead else start
    if at >= len(text) or text[at] not in "{[":
        return None
    found = scan_json(text[at:])
    return at + found[1] if found else None


def _segments(text: str) -> list[tuple[str, int, int]]:
    """(canonical key, start of its value, end of its value) in order of appearance.

    Keys are searched left to right; the JSON after an ``Action Input`` key is skipped as a
    whole, so words like "Response:" inside argument strings never start a segment.
    """
    out: list[tuple[str, int, int]] = []
    pos = 0
    pending: tuple[str, int] | None = None
    while True:
        found = _next_key(text, pos)
        if found is None:
            break
        key, key_start, value_start = found
        if pending is not None:
            out.append((pending[0], pending[1], key_start))
        pending = (key, value_start)
        pos = value_start
        if key == "input":
            end = _json_end(text, value_start)
            if end is not None:
                pos = end
    if pending is not None:
        out.append((pending[0], pending[1], len(text)))
    return out


def _clean_value(text: str) -> str:
    value = _FENCE.sub("", text)
    value = value.strip().strip("*_").strip()
    return value


def scan_json(text: str) -> tuple[str, int] | None:
    """The first balanced ``{…}`` (or ``[…]``) in ``text``, string-aware; (json text, end).

    Returns None when no opening bracket is found, or when the brackets never balance or close
    in the wrong order.
    """
    start = next((i for i, ch in enumerate(text) if ch in "{["), None)
    if start is None:
        return None
    closers: list[str] = []
    quote: str | None = None
    escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if quote is not None:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
        elif ch == '"' or (ch == "'" and _opens_single_quote(text, i)):
            quote = ch
        elif ch in "{[":
            closers.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if ch != closers.pop():
                return None
            if not closers:
                return text[start : i + 1], i + 1
    return None


def _opens_single_quote(text: str, i: int) -> bool:
    """A single quote opens a string only where a JSON value or key could start."""
    j = i - 1
    while j >= 0 and text[j] in " \t\r\n":
        j -= 1
    return j >= 0 and text[j] in "{[,:"


def parse_arguments(text: str) -> tuple[dict[str, Any] | None, str, tuple[str, ...]]:
    """Arguments from the value of an ``Action Input`` key.

    Returns (arguments or None, the JSON text to send, notes).
    """
    value = _FENCE.sub("", text).strip()
    if not value or value.lower() in ("none", "null", "{}", "n/a"):
        return {}, "{}", (() if value in ("{}",) else ("empty Action Input",))
    found = scan_json(value)
    notes: list[str] = []
    if found is None:
        return None, value, ("Action Input is not a JSON object",)
    raw, end = found
    if value[end:].strip():
        notes.append("text after the Action Input JSON ignored")
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError:
        parsed = json_repair.loads(raw)
        if isinstance(parsed, dict):
            notes.append("Action Input JSON repaired")
            raw = json.dumps(parsed, ensure_ascii=False)
    if not isinstance(parsed, dict):
        return None, raw, (*notes, "Action Input is not a JSON object")
    return parsed, raw, tuple(notes)


def _tool_name(value: str) -> tuple[str | None, tuple[str, ...]]:
    text = value.strip().strip("`'\"*").strip()
    m = _NAME.search(text)
    if m is None:
        return None, ("Action has no tool name",)
    name = m.group(0)
    notes: tuple[str, ...] = ()
    if name.lower().startswith("functions."):
        name = name[len("functions.") :]
        notes = ("'functions.' prefix removed",)
    return name, notes


def parse_react(text: str) -> ParsedReply:
    """Parse one ReAct reply (never raises)."""
    body = text.replace("\r\n", "\n")
    segments = _segments(body)
    notes: list[str] = []
    if not segments:
        prose = _clean_value(body)
        if not prose:
            return ParsedReply(notes=("empty reply",))
        return ParsedReply(response=prose, notes=("no Thought/Action/Response keys",))
    first = _next_key(body, 0)
    if first is not None and _clean_value(body[: first[1]]):
        notes.append("text before the first key ignored")
    values: dict[str, list[str]] = {}
    for key, start, end in segments:
        values.setdefault(key, []).append(body[start:end])
    thought = _clean_value(values["thought"][0]) if "thought" in values else ""
    if "thought" not in values:
        notes.append("no Thought")
    action: str | None = None
    arguments: dict[str, Any] | None = None
    arguments_text = "{}"
    if "action" in values:
        action, name_notes = _tool_name(values["action"][0])
        notes.extend(name_notes)
        if len(values["action"]) > 1:
            notes.append("several Actions; the first one counts")
        if action is None:
            pass
        elif "input" in values:
            arguments, arguments_text, arg_notes = parse_arguments(values["input"][0])
            notes.extend(arg_notes)
        else:
            arguments, arguments_text = {}, "{}"
            notes.append("Action without Action Input")
    elif "input" in values:
        notes.append("Action Input without Action ignored")
    response: str | None = None
    if "response" in values:
        said = _clean_value(values["response"][0])
        if action is not None:
            notes.append("Response next to an Action dropped")
        elif said:
            response = said
    if action is None and response is None:
        notes.append("neither Action nor Response")
    return ParsedReply(
        thought=thought,
        action=action,
        arguments_text=arguments_text,
        arguments=arguments,
        response=response,
        notes=tuple(notes),
    )


_FIELD = {
    "last_node": re.compile(r"last_node\s*[=:]\s*([^,，;。\n]+?)\s*(?=[,，;。\n]|\.\s|\.$|$)"),
    "intent": re.compile(r"intent\s*[=:]\s*([^,，;。\n]+?)\s*(?=[,，;。\n]|\.\s|\.$|$)"),
    "current_node": re.compile(
        r"current_node\s*[=:]\s*([^,，;。\n]+?)\s*(?=[,，;。\n]|\.\s|\.$|$)"
    ),
}


def thought_fields(thought: str) -> ReactThought:
    """``last_node=…``, ``intent=…`` and ``current_node=…`` from a Thought (first of each)."""
    found: dict[str, str] = {}
    for name, pattern in _FIELD.items():
        m = pattern.search(thought)
        found[name] = m.group(1).strip().strip("'\"`*") if m else ""
    return ReactThought(**found)

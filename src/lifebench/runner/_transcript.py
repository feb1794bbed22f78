"""What a unit's models saw: recording it while the unit runs, reading it back from the store.

Writing: :class:`UnitRecorder` opens one :class:`~lifebench.models.CallLog` per unit (or per
re-grading of a unit) and notes the unit's *briefing* — the system prompts of its agent and
user simulator, the tools offered to the agent, a scripted user's lines — from the episode
the suite built (the prompts as the parts of the episode expose them: ``system_prompt``,
``tools``, ``lines``). The model calls themselves are recorded by the models
(:mod:`lifebench.models._record`).

Reading: :func:`read_transcript` rebuilds, from the calls and blobs of the store, the exact
body of every request and response of a unit's latest attempt (and of the re-gradings after
it), with the briefing resolved to text.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from lifebench.models._record import (
    BlobCoder,
    CallLog,
    CallRecord,
    decode_blob,
    request_bodies,
)
from lifebench.models._wire import WireCache

BRIEFING_FORMAT = 1


class UnitRecorder:
    """Call logs and briefings of a run's units (one per run and process; the blobs of the
    prompts and tool lists shared by the units are encoded once)."""

    def __init__(self) -> None:
        self._coder = BlobCoder()
        self._wire = WireCache(messages=16, tool_lists=64)

    def log(self) -> CallLog:
        """A new, empty call log."""
        return CallLog(self._coder)

    def brief(self, log: CallLog, episode: Any) -> None:
        """Note in ``log`` what the episode's agent and user simulator are told."""
        briefing: dict[str, Any] = {"format": BRIEFING_FORMAT}
        for role in ("agent", "user"):
            part = getattr(episode, role, None)
            if part is not None:
                briefing[role] = self._part(log, part)
        greeting = getattr(episode, "greeting", None)
        if isinstance(greeting, str):
            briefing["greeting"] = greeting
        history = getattr(episode, "history", ())
        if history:
            briefing["history"] = len(history)
        log.briefing = briefing

    def _part(self, log: CallLog, part: Any) -> dict[str, Any]:
        entry: dict[str, Any] = {"kind": type(part).__name__}
        prompt = getattr(part, "system_prompt", None)
        if isinstance(prompt, str) and prompt:
            entry["system_prompt"] = log.text(prompt)
        tools = getattr(part, "tools", None)
        if isinstance(tools, Sequence) and tools and all(isinstance(t, Mapping) for t in tools):
            data, sha = self._wire.tools(tools)
            digest = log.add(self._coder.blob(data, sha))
            log.tools[digest] = None
            entry["tools"] = digest
        lines = getattr(part, "lines", None)
        if isinstance(lines, Sequence) and not isinstance(lines, str):
            entry["script"] = [log.text(str(line)) for line in lines]
        return entry


# ---------------------------------------------------------------------------- reading


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class BriefingPart(_Frozen):
    """What one side of the conversation (agent or user simulator) was told."""

    kind: str = Field(description="Class of the agent or user simulator.")
    system_prompt: str | None = Field(None, description="Its system prompt, exactly.")
    tools: list[dict[str, Any]] | None = Field(
        None, description="The tool schemas offered (agent), as sent."
    )
    tools_hash: str | None = Field(None, description="sha256 of the tool list as sent.")
    script: list[str] | None = Field(None, description="A scripted user's lines, in order.")


class Briefing(_Frozen):
    """What a unit's agent and user simulator were told before the first message."""

    agent: BriefingPart | None = None
    user: BriefingPart | None = None
    greeting: str | None = Field(None, description="The agent's fixed opening line, if any.")
    history: int = Field(0, description="Messages the episode started from (replayed).")


class FailedAttempt(_Frozen):
    """A failed attempt of a call: status, what went wrong, the body received."""

    status: int | None
    detail: str
    response: str | None = None


class StoredCall(_Frozen):
    """One recorded model call with its request and response bodies rebuilt."""

    log_id: int = Field(description="Attempt-log entry the call belongs to.")
    source: str = Field(description="attempt (the run) or regrade (lifebench eval).")
    call: CallRecord
    request: str = Field(description="The request body exactly as sent (UTF-8 JSON).")
    response: str | None = Field(
        None, description="The response body as received (or the cached answer)."
    )
    original_response: str | None = Field(
        None,
        description="For a cache hit: the response of the call that filled the cache, when it "
        "was recorded in this run.",
    )
    attempts: list[FailedAttempt] = Field(default_factory=list)


class Transcript(_Frozen):
    """Everything a unit's models saw and said, as stored."""

    recorded: bool = Field(
        description="False when nothing was recorded for the unit (a run made with "
        "--no-record-requests, or by a lifebench before recording existed)."
    )
    briefing: Briefing | None = None
    calls: list[StoredCall] = Field(default_factory=list)


def _blobs(conn: sqlite3.Connection, hashes: Iterable[str]) -> dict[str, bytes]:
    wanted = sorted(set(hashes))
    out: dict[str, bytes] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for digest, codec, data in conn.execute(
            f"SELECT hash, codec, data FROM blobs WHERE hash IN ({marks})", chunk
        ):
            out[digest] = decode_blob(codec, data)
    return out


def _text(data: bytes | None) -> str | None:
    return None if data is None else data.decode("utf-8", errors="replace")


def _referenced(call: CallRecord) -> list[str]:
    request = call.request
    out = [str(h) for h in request.get("messages", [None, None, []])[2]]
    out += [str(request[k]) for k in ("options", "tools", "body") if request.get(k)]
    if call.response:
        out.append(call.response)
    out += [a.response for a in call.attempts if a.response]
    return out


def _briefing(raw: str, blobs: Mapping[str, bytes]) -> Briefing:
    data = json.loads(raw)

    def part(entry: Mapping[str, Any] | None) -> BriefingPart | None:
        if not isinstance(entry, Mapping):
            return None
        tools_hash = entry.get("tools")
        tools = None
        if tools_hash and tools_hash in blobs:
            tools = json.loads(blobs[tools_hash])
        prompt = entry.get("system_prompt")
        script = entry.get("script")
        return BriefingPart(
            kind=str(entry.get("kind", "?")),
            system_prompt=_text(blobs.get(prompt)) if prompt else None,
            tools=tools,
            tools_hash=tools_hash,
            script=None if script is None else [_text(blobs.get(h)) or "" for h in script],
        )

    return Briefing(
        agent=part(data.get("agent")),
        user=part(data.get("user")),
        greeting=data.get("greeting"),
        history=int(data.get("history") or 0),
    )


def _briefing_hashes(raw: str) -> list[str]:
    data = json.loads(raw)
    out: list[str] = []
    for role in ("agent", "user"):
        entry = data.get(role)
        if isinstance(entry, Mapping):
            out += [str(entry[k]) for k in ("system_prompt", "tools") if entry.get(k)]
            out += [str(h) for h in entry.get("script") or []]
    return out


def has_table(conn: sqlite3.Connection, name: str) -> bool:
    """True when the store has table ``name`` (an older store lacks the newer ones)."""
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
    ).fetchone()
    return row is not None


def read_transcript(conn: sqlite3.Connection, task_id: str, trial: int) -> Transcript:
    """The recorded briefing and calls of unit ``task_id``#``trial``: those of its latest
    attempt, with each graded basis's judge calls taken from the latest log entry (the
    attempt or a later re-grade) that graded it."""
    if not has_table(conn, "calls"):
        return Transcript(recorded=False)
    row = conn.execute(
        "SELECT max(id) FROM attempts WHERE task_id = ? AND trial = ? AND kind = 'attempt'",
        (task_id, trial),
    ).fetchone()
    first = row[0] if row else None
    if first is None:
        return Transcript(recorded=False)
    kinds = dict(
        conn.execute(
            "SELECT id, kind FROM attempts WHERE task_id = ? AND trial = ? AND id >= ?",
            (task_id, trial, first),
        ).fetchall()
    )
    rows = conn.execute(
        "SELECT log_id, call_json FROM calls WHERE task_id = ? AND trial = ? AND log_id >= ? "
        "ORDER BY log_id, seq",
        (task_id, trial, first),
    ).fetchall()
    by_log: dict[int, list[CallRecord]] = {}
    for log_id, text in rows:
        by_log.setdefault(int(log_id), []).append(CallRecord.model_validate_json(text))
    brief_row = conn.execute(
        "SELECT briefing_json FROM briefings WHERE log_id = ?", (first,)
    ).fetchone()
    if not by_log and brief_row is None:
        return Transcript(recorded=False)
    # each basis: the judge calls of the latest log entry that graded it
    latest_basis: dict[str, int] = {}
    for log_id, calls in by_log.items():
        for call in calls:
            if call.basis is not None:
                latest_basis[call.basis] = max(latest_basis.get(call.basis, -1), log_id)
    hashes: list[str] = []
    for calls in by_log.values():
        for call in calls:
            hashes += _referenced(call)
    if brief_row is not None:
        hashes += _briefing_hashes(brief_row[0])
    blobs = _blobs(conn, hashes)
    originals = _originals(conn, by_log)
    stored: list[StoredCall] = []
    for log_id, calls in sorted(by_log.items()):
        bodies = request_bodies(calls, blobs)
        for call in calls:
            if call.basis is None and log_id != first:
                continue  # (a re-grade makes no episode calls)
            if call.basis is not None and latest_basis[call.basis] != log_id:
                continue  # superseded by a later grading of the same basis
            stored.append(
                StoredCall(
                    log_id=log_id,
                    source=str(kinds.get(log_id, "attempt")),
                    call=call,
                    request=_text(bodies.get(call.seq)) or "",
                    response=_text(blobs.get(call.response)) if call.response else None,
                    original_response=originals.get(call.cache_key or "") if call.cached else None,
                    attempts=[
                        FailedAttempt(
                            status=a.status,
                            detail=a.detail,
                            response=_text(blobs.get(a.response)) if a.response else None,
                        )
                        for a in call.attempts
                    ],
                )
            )
    briefing = None if brief_row is None else _briefing(brief_row[0], blobs)
    return Transcript(recorded=True, briefing=briefing, calls=stored)


def _originals(
    conn: sqlite3.Connection, by_log: Mapping[int, Sequence[CallRecord]]
) -> dict[str, str]:
    """Cache key → the response of the recorded call that filled the cache (this run)."""
    keys = sorted(
        {c.cache_key for calls in by_log.values() for c in calls if c.cached and c.cache_key}
    )
    out: dict[str, str] = {}
    for key in keys:
        row = conn.execute(
            "SELECT call_json FROM calls WHERE cache_key = ? AND cached = 0 "
            "ORDER BY log_id, seq LIMIT 1",
            (key,),
        ).fetchone()
        if row is None:
            continue
        original = CallRecord.model_validate_json(row[0])
        if original.response:
            data = _blobs(conn, [original.response]).get(original.response)
            text = _text(data)
            if text is not None:
                out[key] = text
    return out


def run_tools(conn: sqlite3.Connection) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every tool list offered in the run (hash, schemas), in the order first seen."""
    if not has_table(conn, "run_tools"):
        return []
    rows = conn.execute("SELECT hash FROM run_tools ORDER BY rowid").fetchall()
    blobs = _blobs(conn, [r[0] for r in rows])
    return [(r[0], json.loads(blobs[r[0]])) for r in rows if r[0] in blobs]

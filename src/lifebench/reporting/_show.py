"""Terminal rendering of one unit (``lifebench show``): trajectory, evaluation, state changes.

Every piece of stored text goes through :func:`safe_text` into a :class:`rich.text.Text`, so
markup or escape sequences in model, user or tool output are shown, never obeyed.
"""

from __future__ import annotations

import json

from rich.console import Console, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from lifebench.messages import Usage
from lifebench.reporting._format import money
from lifebench.reporting._safe import safe_text
from lifebench.reporting._trajectory import BasisView, MessageView, StateChange, TrajectoryView
from lifebench.reporting._transcript import BriefingView, CallView, TranscriptView, WireMessage

DEFAULT_LIMIT = 800
_NOT_RECORDED = (
    "(not recorded: the run was made with --no-record-requests, or by a lifebench that did not "
    "record requests)"
)
_ROLE_STYLE = {
    "user": "bold cyan",
    "assistant": "bold green",
    "tool": "bold magenta",
    "agent": "bold green",
    "judge": "bold yellow",
    "system": "bold blue",
}


def _clip(text: str, limit: int | None) -> Text:
    text = safe_text(text)
    if limit is not None and len(text) > limit:
        more = len(text) - limit
        return Text(text[:limit]) + Text(f" … ({more} more characters; --full)", style="dim")
    return Text(text)


def _indent(text: Text, spaces: int = 4) -> Padding:
    return Padding(text, (0, 0, 0, spaces))


def _header(view: TrajectoryView) -> Text:
    o = view.outcome
    style = {"pass": "bold green", "fail": "bold red"}.get(o.outcome, "bold yellow")
    head = Text("task ", style="bold") + Text(safe_text(view.task_id), style="bold")
    head.append(f" · trial {view.trial} · seed {view.seed} · attempts {view.attempts}\n")
    head.append("outcome ")
    head.append(o.outcome, style=style)
    if view.reward is not None:
        head.append(f" (reward {view.reward:g}, basis {safe_text(view.reward_basis or '')})")
    if view.termination:
        head.append(f" · ended by {view.termination}")
    if o.turns is not None:
        head.append(f" · {o.turns} turns · {o.tool_calls} tool calls ({o.tool_errors} errors)")
    if view.duration_s is not None:
        head.append(f" · {view.duration_s:.1f} s")
    if view.error:
        head.append("\nerror: ", style="bold red")
        head.append(safe_text(view.error))
    return head


def _message(m: MessageView, limit: int | None) -> list[RenderableType]:
    role = Text(f"#{m.index} ", style="dim") + Text(m.role, style=_ROLE_STYLE.get(m.role, "bold"))
    if m.role == "tool":
        role.append(" " + safe_text(m.name or ""), style="magenta")
        role.append(f" [{safe_text(m.tool_call_id or '')}]", style="dim")
        if m.error:
            role.append(f" ERROR ({safe_text(m.error_kind or 'unspecified')})", style="bold red")
        else:
            role.append(" ok", style="green")
    if m.windows:
        role.append(f"  judge window {', '.join(map(str, m.windows))}", style="dim")
    out: list[RenderableType] = [role]
    if m.reasoning:
        out.append(_indent(Text("reasoning: ", style="italic dim") + _clip(m.reasoning, limit)))
    if m.content:
        out.append(_indent(_clip(m.content, limit)))
    for call in m.tool_calls:
        line = Text("→ ", style="green") + Text(safe_text(call.name), style="bold green")
        line.append(f" [{safe_text(call.id)}]", style="dim")
        if not call.valid_json:
            line.append(" (arguments are not valid JSON)", style="bold red")
        out.append(_indent(line))
        out.append(_indent(_clip(call.arguments, limit), 6))
    return out


def _criteria_table(basis: BasisView) -> Table:
    table = Table(show_header=True, box=None, padding=(0, 1), show_lines=False)
    table.add_column("")
    table.add_column("criterion", overflow="fold", ratio=2)
    table.add_column("evidence", overflow="fold", ratio=3)
    for c in basis.criteria:
        mark = Text("✓", style="green") if c.met else Text("✗", style="bold red")
        what = Text(safe_text(c.id), style="bold") + Text("\n" + safe_text(c.description))
        table.add_row(mark, what, Text(safe_text(c.evidence)))
    return table


def _windows_table(basis: BasisView) -> Table:
    keys: list[str] = []
    for window in basis.windows:
        keys.extend(k for k in window if k not in keys)
    table = Table(title=f"{safe_text(basis.name)}: judge windows", title_justify="left")
    for key in keys:
        table.add_column(safe_text(key), overflow="fold")
    for window in basis.windows:
        table.add_row(*(Text(safe_text(_cell(window.get(k)))) for k in keys))
    return table


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"{value[0]}–{value[1]}"
    return str(value)


def _section(title: str, text: str | None, limit: int | None) -> list[RenderableType]:
    if not text:
        return []
    return [Text(title, style="bold"), _indent(_clip(text, limit))]


def _briefing(b: BriefingView, limit: int | None, full: bool) -> list[RenderableType]:
    out: list[RenderableType] = []
    if b.agent_kind:
        out += _section(
            f"agent ({safe_text(b.agent_kind)}) — system prompt:", b.agent_prompt, limit
        )
        if not b.agent_prompt:
            out.append(Text(f"agent ({safe_text(b.agent_kind)}): no system prompt", style="dim"))
    if b.tools:
        head = Text(f"tools offered to the agent: {len(b.tools)}", style="bold")
        head.append(f" (sha256 {safe_text(b.tools_hash or '?')[:16]}…)", style="dim")
        out.append(head)
        if full and b.tools_json:
            out.append(_indent(Text(safe_text(b.tools_json))))
        else:
            for tool in b.tools:
                line = Text(safe_text(tool.name), style="bold green")
                if tool.description:
                    line.append(" — ")
                    line.append_text(_clip(tool.description.split("\n", 1)[0], 120))
                out.append(_indent(line))
    if b.user_kind:
        if b.user_prompt:
            title = (
                f"user simulator ({safe_text(b.user_kind)}) — system prompt (its instruction "
                "and persona):"
            )
            out += _section(title, b.user_prompt, limit)
        if b.user_script:
            out.append(Text(f"user ({safe_text(b.user_kind)}) — scripted lines:", style="bold"))
            for said in b.user_script:
                out.append(_indent(_clip(said, limit)))
        if not b.user_prompt and not b.user_script:
            out.append(Text(f"user ({safe_text(b.user_kind)}): no prompt", style="dim"))
    if b.greeting:
        out.append(Text("greeting: ", style="bold") + _clip(b.greeting, limit))
    if b.history:
        out.append(Text(f"started from {b.history} recorded messages", style="dim"))
    return out


def _wire(
    m: WireMessage, limit: int | None, known: dict[str, str], mark: str
) -> list[RenderableType]:
    head = Text(mark, style="dim") + Text(safe_text(m.role), style=_ROLE_STYLE.get(m.role, "bold"))
    if m.tool_call_id:
        head.append(f" [{safe_text(m.tool_call_id)}]", style="dim")
    if m.role == "system" and m.content in known:
        head.append(f": ({known[m.content]}, above)", style="dim")
        return [head]
    out: list[RenderableType] = [head]
    if m.reasoning:
        out.append(_indent(Text("reasoning: ", style="italic dim") + _clip(m.reasoning, limit), 6))
    if m.content:
        out.append(_indent(_clip(m.content, limit), 6))
    for call in m.tool_calls:
        line = Text("→ ", style="green") + Text(safe_text(call.name), style="bold green")
        line.append(f" [{safe_text(call.id)}]", style="dim")
        out.append(_indent(line, 6))
        out.append(_indent(_clip(call.arguments, limit), 8))
    return out


def _call_head(c: CallView) -> Text:
    head = Text(f"call {c.number} ", style="bold") + Text(
        safe_text(c.title), style=_ROLE_STYLE.get(c.role, "bold")
    )
    head.append(f" · {safe_text(c.model)}")
    if c.model_id != c.model:
        head.append(f" ({safe_text(c.model_id)})", style="dim")
    if c.usage:
        head.append(f" · {c.usage.get('prompt_tokens', 0)}+{c.usage.get('completion_tokens', 0)}")
        head.append(" tokens")
    head.append(f" · {c.latency_s:.3f} s")
    if c.cached:
        head.append(" · from the model cache", style="yellow")
    if c.response_kind == "scripted":
        head.append(" · scripted", style="dim")
    if c.source != "attempt":
        head.append(f" · {safe_text(c.source)}", style="dim")
    if c.error:
        head.append(" · FAILED", style="bold red")
    return head


class _Raw(str):
    """A request or response body: printed as it is — no wrapping, no indentation, nothing
    added — so that what is printed is the body (control characters made visible)."""

    __slots__ = ()


def _print(out: Console, part: RenderableType) -> None:
    if isinstance(part, _Raw):
        out.print(Text(safe_text(str(part))), soft_wrap=True)
    else:
        out.print(part)


def _call(c: CallView, limit: int | None, raw: bool, known: dict[str, str]) -> list[RenderableType]:
    out: list[RenderableType] = [_call_head(c)]
    facts = f"request: {c.total_messages} messages"
    if c.kept:
        facts += f" ({c.kept} as in the previous {c.role} call, {len(c.new_messages)} new)"
    if c.tool_names:
        facts += f" · {len(c.tool_names)} tools (sha256 {safe_text(c.tools_hash or '?')[:12]}…)"
    if c.options:
        facts += " · " + ", ".join(
            f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in c.options.items()
        )
    facts += f" · {c.request_bytes:,} bytes"
    out.append(_indent(Text(safe_text(facts), style="dim")))
    for m in c.new_messages:
        out += [_indent(x) if isinstance(x, Text) else x for x in _wire(m, limit, known, "+ ")]
    for a in c.attempts:
        line = Text("attempt failed: ", style="bold red")
        line.append(f"HTTP {a.status}: " if a.status is not None else "")
        line.append_text(_clip(a.detail, limit))
        out.append(_indent(line))
    if c.error:
        out.append(_indent(Text("error: ", style="bold red") + _clip(c.error, limit)))
    if c.reply is not None:
        out.append(_indent(Text("reply:", style="bold")))
        out += [_indent(x) if isinstance(x, Text) else x for x in _wire(c.reply, limit, {}, "")]
    elif c.raw_response is not None and not raw:
        out.append(_indent(Text("response: ", style="bold") + _clip(c.raw_response, limit)))
    if raw:
        out.append(
            _indent(
                Text(f"request body ({c.request_bytes:,} bytes, exactly as sent):", style="bold")
            )
        )
        out.append(_Raw(c.raw_request))
        what = {
            "http": "as received",
            "cache": "the answer stored in the model cache",
            "scripted": "the scripted answer",
        }.get(c.response_kind, c.response_kind)
        out.append(_indent(Text(f"response body ({what}):", style="bold")))
        out.append(_Raw(c.raw_response or "(none)"))
        if c.original_response:
            out.append(_indent(Text("response that filled the cache (as received):", style="bold")))
            out.append(_Raw(c.original_response))
        for a in c.attempts:
            if a.response:
                out.append(_indent(Text(f"failed attempt's body (HTTP {a.status}):", style="bold")))
                out.append(_Raw(a.response))
    return out


def _calls(
    t: TranscriptView, limit: int | None, raw: bool, only: int | None
) -> list[RenderableType]:
    known: dict[str, str] = {}
    if t.briefing is not None and only is None:  # (alone, a call shows its prompts in full)
        if t.briefing.agent_prompt:
            known[t.briefing.agent_prompt] = "the agent's system prompt"
        if t.briefing.user_prompt:
            known[t.briefing.user_prompt] = "the user simulator's system prompt"
    out: list[RenderableType] = []
    for c in t.calls:
        if only is None or c.number == only:
            out += _call(c, limit, raw or only is not None, known)
    return out


def _basis(basis: BasisView) -> list[Text | Table]:
    head = Text("basis ", style="bold") + Text(safe_text(basis.name), style="bold")
    head.append(" (part of the reward)" if basis.counts else " (shown, not in the reward)")
    met = sum(c.met for c in basis.criteria)
    head.append(f" · reward {basis.reward:g} · {met}/{len(basis.criteria)} criteria met")
    if basis.usage.calls:
        head.append(
            f" · judge {basis.usage.calls} calls, "
            f"{basis.usage.prompt_tokens + basis.usage.completion_tokens} tokens"
        )
    out: list[Text | Table] = [head]
    if basis.note:
        out.append(Text("  note: ", style="yellow") + Text(safe_text(basis.note)))
    if basis.criteria:
        out.append(_criteria_table(basis))
    if basis.windows:
        out.append(_windows_table(basis))
    return out


def _change(change: StateChange, limit: int | None) -> Text:
    sign = {"added": ("+", "green"), "removed": ("-", "red"), "changed": ("~", "yellow")}
    mark, style = sign.get(change.kind, ("?", ""))
    line = Text(f"  {mark} ", style=style) + Text(safe_text(change.path), style="bold")
    if change.kind == "changed":
        line.append(": ")
        line.append_text(_clip(change.before or "", limit))
        line.append(" → ")
        line.append_text(_clip(change.after or "", limit))
    else:
        line.append(": ")
        line.append_text(_clip(change.after or change.before or "", limit))
    return line


def _usage_table(usage: dict[str, Usage]) -> Table:
    table = Table(title="usage", title_justify="left")
    for col in ("role", "calls", "prompt tokens", "completion tokens", "cost", "retries"):
        table.add_column(col, justify="left" if col == "role" else "right")
    for role, u in usage.items():
        table.add_row(
            role,
            str(u.calls),
            f"{u.prompt_tokens:,}",
            f"{u.completion_tokens:,}",
            money(u.cost, u.unpriced > 0),
            str(u.retries),
        )
    return table


def render_trajectory(
    view: TrajectoryView,
    console: Console | None = None,
    *,
    limit: int | None = DEFAULT_LIMIT,
    raw: bool = False,
    call: int | None = None,
) -> None:
    """Print ``view``: header, briefing (system prompts, tools, the user's instruction),
    messages, model calls, evaluation per basis (with the judge's calls), state differences,
    usage.

    Long texts are cut to ``limit`` characters (None: never). ``raw`` adds every call's
    request and response bodies exactly as sent and received; ``call`` (1-based) shows only
    that call, with its bodies.
    """
    out = console or Console()
    transcript = view.transcript
    if call is not None:
        if transcript is None or not any(c.number == call for c in transcript.calls):
            count = 0 if transcript is None else len(transcript.calls)
            out.print(Text(f"no call {call}: the unit has {count} recorded call(s)", style="red"))
            return
        for part in _calls(transcript, None, True, call):
            _print(out, part)
        return
    out.print(_header(view))
    if transcript is not None:
        out.print(Rule("briefing"))
        if transcript.briefing is None:
            out.print(Text(_NOT_RECORDED, style="dim"))
        else:
            for part in _briefing(transcript.briefing, limit, full=limit is None):
                out.print(part)
    out.print(Rule("trajectory"))
    if not view.messages:
        out.print(Text("(no messages stored)", style="dim"))
    for message in view.messages:
        for part in _message(message, limit):
            out.print(part)
    if transcript is not None:
        out.print(Rule(f"model calls ({len(transcript.calls)})"))
        if not transcript.recorded:
            out.print(Text(_NOT_RECORDED, style="dim"))
        elif not transcript.calls:
            out.print(Text("(no model was called)", style="dim"))
        for part in _calls(transcript, limit, raw, None):
            _print(out, part)
        if transcript.calls and not raw:
            out.print(
                Text(
                    "(--raw: every request and response body exactly as sent and received; "
                    "--call N: one call)",
                    style="dim",
                )
            )
    out.print(Rule("evaluation"))
    if view.evaluation_error:
        out.print(
            Text("grading failed: ", style="bold red") + Text(safe_text(view.evaluation_error))
        )
    if not view.bases:
        out.print(Text("(no evaluation stored)", style="dim"))
    for basis in view.bases:
        for part in _basis(basis):
            out.print(part)
        judged = transcript.judge_calls(basis.name) if transcript is not None else []
        if judged:
            numbers = ", ".join(str(c.number) for c in judged)
            out.print(Text(f"  judge prompts and replies: model calls {numbers}", style="dim"))
    out.print(Rule("state differences"))
    if view.state_changes is not None:
        if not view.state_changes:
            out.print(Text("(the final state equals the initial state)", style="dim"))
        for change in view.state_changes:
            out.print(_change(change, limit))
    if view.state_note:
        out.print(Text(safe_text(view.state_note), style="dim"))
    out.print(_usage_table(view.usage))

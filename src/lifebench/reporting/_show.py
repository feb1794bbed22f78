"""Terminal rendering of one unit (``lifebench show``): trajectory, evaluation, state changes.

Every piece of stored text goes through :func:`safe_text` into a :class:`rich.text.Text`, so
markup or escape sequences in model, user or tool output are shown, never obeyed.
"""

from __future__ import annotations

from rich.console import Console, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from lifebench.messages import Usage
from lifebench.reporting._format import money
from lifebench.reporting._safe import safe_text
from lifebench.reporting._trajectory import BasisView, MessageView, StateChange, TrajectoryView

DEFAULT_LIMIT = 800
_ROLE_STYLE = {"user": "bold cyan", "assistant": "bold green", "tool": "bold magenta"}


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
    view: TrajectoryView, console: Console | None = None, *, limit: int | None = DEFAULT_LIMIT
) -> None:
    """Print ``view``: header, messages, evaluation per basis, state differences, usage.

    Long texts are cut to ``limit`` characters (None: never).
    """
    out = console or Console()
    out.print(_header(view))
    out.print(Rule("trajectory"))
    if not view.messages:
        out.print(Text("(no messages stored)", style="dim"))
    for message in view.messages:
        for part in _message(message, limit):
            out.print(part)
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
    out.print(Rule("state differences"))
    if view.state_changes is not None:
        if not view.state_changes:
            out.print(Text("(the final state equals the initial state)", style="dim"))
        for change in view.state_changes:
            out.print(_change(change, limit))
    if view.state_note:
        out.print(Text(safe_text(view.state_note), style="dim"))
    out.print(_usage_table(view.usage))

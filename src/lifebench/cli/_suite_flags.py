"""Suite options on the command line: ``--name VALUE`` flags checked against the suite's model.

The core commands (`run`, `eval`) declare only the options every suite shares. Whatever else
is on the command line is read here against the chosen suite's :class:`SuiteOptions` model:
``--name VALUE`` or ``--name=VALUE``; ``--name`` / ``--no-name`` for yes/no options; repeat a
flag for a list. ``--help`` lists every suite's options, read from the models themselves.
"""

from __future__ import annotations

import json
import types
from collections.abc import Sequence
from typing import Any, Union, get_args, get_origin

from typer.core import TyperCommand

from lifebench.errors import InputError


def _is_bool(annotation: Any) -> bool:
    return annotation is bool or (
        get_origin(annotation) in (Union, types.UnionType)
        and bool in get_args(annotation)
        and all(a in (bool, type(None)) for a in get_args(annotation))
    )


def _is_list(annotation: Any) -> bool:
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        return any(_is_list(a) for a in get_args(annotation))
    return origin in (list, tuple, set, frozenset)


def _value(raw: str, annotation: Any) -> Any:
    if annotation is not str and raw[:1] in ("[", "{"):
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            return raw
    return raw


def parse_suite_flags(args: Sequence[str], model: type[Any], suite: str) -> dict[str, Any]:
    """The suite options named in ``args`` (the words the core command did not consume).

    Raises:
        InputError: an option the suite does not have, a missing value, a flag given twice,
            or a stray word; the message lists the suite's options.
    """
    fields = model.model_fields
    known = ", ".join("--" + name.replace("_", "-") for name in fields) or "(none)"
    out: dict[str, Any] = {}
    words = list(args)
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if not word.startswith("--") or word == "--":
            raise InputError(
                f"unexpected argument {word!r}; options of suite '{suite}': {known}",
                field=word,
            )
        flag, has_value, inline = word[2:].partition("=")
        name = flag.replace("-", "_")
        negated = False
        if name not in fields and name.startswith("no_") and name[3:] in fields:
            name, negated = name[3:], True
        info = fields.get(name)
        if info is None:
            raise InputError(
                f"no such option (neither a common option nor one of suite '{suite}': {known})",
                field=f"--{flag}",
            )
        annotation = info.annotation
        if _is_bool(annotation):
            if negated and has_value:
                raise InputError("takes no value", field=f"--{flag}")
            value: Any = (not negated) if not has_value else inline
        elif negated:
            raise InputError(f"--{flag[3:]} is not a yes/no option", field=f"--{flag}")
        else:
            if has_value:
                raw = inline
            elif i < len(words):
                raw = words[i]
                i += 1
            else:
                raise InputError("needs a value", field=f"--{flag}")
            value = _value(raw, annotation)
        if _is_list(annotation):
            if isinstance(value, list):
                out.setdefault(name, []).extend(value)
            else:
                out.setdefault(name, []).append(value)
        elif name in out:
            raise InputError("given twice", field=f"--{flag.removeprefix('no-')}")
        else:
            out[name] = value
    return out


def _default_text(info: Any) -> str:
    if info.is_required():
        return "required"
    default = info.get_default(call_default_factory=True)
    if isinstance(default, bool):
        return "yes" if default else "no"
    if isinstance(default, str):
        return default or '""'
    return json.dumps(default, ensure_ascii=False, default=str)


def suite_option_rows(name: str) -> list[tuple[str, str]]:
    """(flag, help) rows of suite ``name``: its role kinds, then its own options."""
    from lifebench.suites import options_model

    model = options_model(name)
    roles = model.roles
    rows: list[tuple[str, str]] = []
    for kind, choices in (
        ("agent", roles.agents),
        ("user", roles.users),
        ("evaluator", roles.evaluators),
    ):
        rows.append((f"--{kind}", roles.descriptions.get(kind) or " | ".join(choices)))
    for field_name, info in model.model_fields.items():
        flag = "--" + field_name.replace("_", "-")
        if _is_bool(info.annotation):
            flag = f"{flag} / --no-{field_name.replace('_', '-')}"
        description = (info.description or "").rstrip(".")
        rows.append((flag, f"{description} [default: {_default_text(info)}]"))
    return rows


def print_suite_options() -> None:
    """Print every suite's options as help panels (after the command's own help)."""
    from rich import box
    from rich.console import Console
    from rich.markup import escape
    from rich.panel import Panel
    from rich.table import Table

    from lifebench.suites import suite_names

    console = Console()
    for name in suite_names():
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        try:
            for flag, text in suite_option_rows(name):
                table.add_row(flag, escape(text))
        except Exception as exc:  # an installed suite that fails to import: say so, go on
            table.add_row("(error)", f"cannot load its options: {exc}")
        console.print(
            Panel(
                table,
                title=f"Suite options: {name} (with --suite {name})",
                title_align="left",
                border_style="dim",
                box=box.ROUNDED,
            )
        )


class SuiteCommand(TyperCommand):
    """A typer command that passes unknown ``--flags`` on as suite options and lists every
    suite's options in its help (computed only when help is shown)."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        super().format_help(ctx, formatter)
        print_suite_options()


SUITE_FLAGS_SETTINGS: dict[str, Any] = {
    "allow_extra_args": True,
    "ignore_unknown_options": True,
}

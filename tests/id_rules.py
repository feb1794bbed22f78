"""The rule for test ids (see ``tests/test_ids.py``), shared by ``tests/conftest.py``."""

from __future__ import annotations

_NAMED = {"\n": "<nl>", "\r": "<cr>", "\t": "<tab>", "\\": "<bs>"}


def readable_id(text: str) -> str:
    """``text`` as a test id: printable ASCII kept, line breaks, tabs and backslashes named,
    any other character written as its code point (``<U+4E0D>``)."""
    out: list[str] = []
    for ch in text:
        if ch in _NAMED:
            out.append(_NAMED[ch])
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            out.append(f"<U+{ord(ch):04X}>")
    return "".join(out)


def unselectable_reason(nodeid: str, name: str) -> str | None:
    """Why a test with this node id and name could not be selected again by its id (None when
    it can): its id must be printable ASCII without backslashes, and pytest's reading of a
    command-line id (path, ``::`` parts, then the parameters from the first ``[``) must give
    back the test's own name."""
    for ch in nodeid:
        if ch == "\\":
            return (
                "its id contains a backslash (pytest's escape of a control or non-ASCII character)"
            )
        if not " " <= ch <= "~":
            return f"its id contains U+{ord(ch):04X} (not printable ASCII)"
    base, bracket, rest = nodeid.partition("[")
    parts = base.split("::")
    selected = parts[-1] + bracket + rest if len(parts) > 1 else None
    if selected != name:
        return f"pytest reading its id selects {selected or parts[0]}, not {name}"
    return None

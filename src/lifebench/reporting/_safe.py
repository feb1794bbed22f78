"""Untrusted text (model, user and tool output) made safe for a terminal.

Rich interprets ``[markup]`` in plain strings, and a terminal obeys escape sequences, so text a
model produced is passed as :class:`rich.text.Text` (never parsed as markup) after
:func:`safe_text` has made control characters visible.
"""

from __future__ import annotations

import re

# C0 and C1 controls except tab and newline, DEL, and the Unicode bidirectional overrides and
# isolates that can make a line display differently from what it contains.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_text(text: str) -> str:
    """``text`` with control characters (escape sequences, carriage returns, bidi overrides)
    shown as ``\\xNN`` / ``\\uNNNN`` escapes; tabs and newlines are kept."""
    return _CONTROL.sub(_visible, text)

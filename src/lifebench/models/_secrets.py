"""Keeping credentials out of messages, names and reprs."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit, urlunsplit

REDACTED = "***"


def scrub(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every occurrence of each secret replaced by ``***``.

    Args:
        text: Any text that may contain a credential (an error message, a response body).
        secrets: The credentials to remove; empty strings and ``"EMPTY"`` are ignored.

    Returns:
        The scrubbed text.
    """
    for secret in secrets:
        if secret and secret != "EMPTY":
            text = text.replace(secret, REDACTED)
    return text


def redact_url(url: str) -> str:
    """``url`` without user info, query string or fragment (they may carry credentials)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return REDACTED
    host = parts.hostname or ""
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = f"{host}:{port}" if port is not None else host
    if parts.username is not None or parts.password is not None:
        netloc = f"{REDACTED}@{netloc}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def truncate(text: str, limit: int = 500) -> str:
    """``text`` cut to ``limit`` characters, with a marker when something was cut."""
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"

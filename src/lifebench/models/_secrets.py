"""Keeping credentials out of messages, names and reprs."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

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


def url_secrets(url: str) -> tuple[str, ...]:
    """The credentials a URL may carry, to scrub from every message: the password of its user
    info (the user name too when there is no password: ``http://KEY@host``), and the values of
    its query parameters of 8 characters or more (``?api-key=KEY``), raw and percent-decoded."""
    try:
        parts = urlsplit(url.strip())
        username, password = parts.username, parts.password
    except ValueError:
        return ()
    found: list[str] = []
    if password:
        found.append(password)
    elif username:
        found.append(username)
    try:
        pairs = parse_qsl(parts.query, keep_blank_values=False)
    except ValueError:
        pairs = []
    found += [value for _, value in pairs if len(value) >= 8]
    raw_values = [pair.partition("=")[2] for pair in parts.query.split("&")]
    found += [raw for raw in raw_values if len(raw) >= 8]
    out: list[str] = []
    for secret in found:
        for form in (secret, unquote(secret)):
            if form and form not in out:
                out.append(form)
    return tuple(sorted(out, key=len, reverse=True))


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

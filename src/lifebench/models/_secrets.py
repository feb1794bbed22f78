"""Keeping credentials out of messages, names, reprs and everything lifebench writes.

:class:`Scrubber` is the one scrubber: the model client scrubs its errors with one that knows
its key, and the run store, the CLI's error messages and the log handler pass every text
through one that knows the keys of the environment and masks every credential-shaped text
(``Bearer …``, ``Basic …``, ``Authorization:``/``x-api-key:`` headers, ``?api_key=…``, the
user info of a URL) even when the key itself is unknown.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, quote, quote_plus, unquote, urlsplit, urlunsplit

REDACTED = "***"
MIN_SECRET = 8
"""Shorter values are not taken for secrets (they would mask ordinary words)."""

_ENV_SECRET = re.compile(r"(?i)(key|token|secret|password|passwd|credential|auth)")
_BEARER = re.compile(r"(?i)\b(bearer)(\s+|%20|\+)([A-Za-z0-9._~+/=-]{8,})")
_BASIC = re.compile(r"(?i)\b(basic)(\s+|%20|\+)([A-Za-z0-9+/_-]{6,}={0,2})")
_HEADER = re.compile(
    r"(?i)\b((?:proxy-)?authorization|x-api-key|api[-_]?key|apikey|x-goog-api-key|"
    r"access[-_]token|client[-_]secret|auth[-_]token)"
    r"(\\?[\"']?\s*[:=]\s*\\?[\"']?)([^\s\"'&,;}<>\\]{8,})"
)
_QUERY = re.compile(
    r"(?i)([?&](?:api[-_]?key|key|access[-_]?token|token|sig|signature|client[-_]secret|"
    r"password|auth)=)([^&\s\"'<>#\\]{8,})"
)
_USER_INFO_CHARS = r"[^/\s@\"'<>\\?#]"
"""What the user info of a URL may hold here (up to its ``@``)."""
_USER_INFO = re.compile(rf"(?i)\b([a-z][a-z0-9+.-]*://)({_USER_INFO_CHARS}+)@")
_URL_AT = re.compile(rf"://{_USER_INFO_CHARS}+@")
"""What every match of :data:`_USER_INFO` holds, found far quicker (a literal start)."""
_B64 = "[A-Za-z0-9+/_-]"
"""A character of base64 text, standard or URL-safe."""


def _looks_like_token(value: str) -> bool:
    return any(c.isdigit() or c in "-_.~+/=" for c in value)


def _basic(match: re.Match[str]) -> str:
    value = match.group(3)
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), altchars=b"-_")
    except (binascii.Error, ValueError):
        return match.group(0)
    if b":" not in decoded:
        return match.group(0)
    return f"{match.group(1)}{match.group(2)}{REDACTED}"


def _bearer(match: re.Match[str]) -> str:
    if not _looks_like_token(match.group(3)):
        return match.group(0)
    return f"{match.group(1)}{match.group(2)}{REDACTED}"


def _base64_cores(secret: str) -> list[str]:
    """The parts of the base64 text of any bytes that contain ``secret`` which depend on
    ``secret`` alone, for each of the three alignments (standard and URL-safe alphabets)."""
    raw = secret.encode()
    cores: list[str] = []
    for shift in range(3):
        encoded = base64.b64encode(b"\0" * shift + raw).decode("ascii")
        start = 4 if shift else 0
        end = 4 * ((shift + len(raw)) // 3)
        core = encoded[start:end]
        if len(core) >= MIN_SECRET:
            cores += [core, core.replace("+", "-").replace("/", "_")]
    return cores


def secret_forms(secret: str) -> tuple[str, ...]:
    """The texts ``secret`` may appear as: as given, percent-encoded (``quote``,
    ``quote_plus``) and JSON-escaped; its base64 forms are :func:`_base64_cores`."""
    if len(secret) < MIN_SECRET or secret == "EMPTY":
        return ()
    escaped = [json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]]
    return tuple(dict.fromkeys([secret, quote(secret, safe=""), quote_plus(secret), *escaped]))


def environment_secrets(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Values of environment variables named like credentials (``*_API_KEY``, ``*TOKEN*``,
    ``*SECRET*``, ``*PASSWORD*``, ``*AUTH*``) of :data:`MIN_SECRET` characters or more."""
    env = os.environ if environ is None else environ
    return tuple(
        value
        for name, value in env.items()
        if _ENV_SECRET.search(name) and len(value) >= MIN_SECRET and not value.isdigit()
    )


@dataclass(frozen=True)
class Scrubber:
    """Masks credentials in text: every form of each known secret (see :func:`secret_forms`)
    and every credential-shaped text, known or not (bearer and basic credentials, credential
    headers and query parameters, the user info of URLs).

    Masking keeps JSON text valid (values never span a quote or backslash), so a JSON
    document can be scrubbed as text.
    """

    forms: tuple[str, ...] = field(default=(), repr=False)
    """Every form of each known secret, longest first (not in the repr: they are secrets)."""
    cores: tuple[str, ...] = field(default=(), repr=False)
    """The base64 texts of which any base64 text holding a known secret contains one (see
    :func:`_base64_cores`), longest first."""
    encoded: re.Pattern[str] | None = field(init=False, repr=False)
    """Any base64 text holding a known secret (masked whole): a run of base64 characters
    around one of :attr:`cores`; None when there are none."""

    def __post_init__(self) -> None:
        alternatives = "|".join(map(re.escape, self.cores))
        encoded = re.compile(f"{_B64}*(?:{alternatives}){_B64}*=*") if self.cores else None
        object.__setattr__(self, "encoded", encoded)

    @classmethod
    def of(cls, secrets: Iterable[str] = (), *, environment: bool = False) -> Scrubber:
        """A scrubber of ``secrets`` (and of the environment's credentials when
        ``environment``); longer forms are masked first."""
        found = [s for s in list(secrets) + (list(environment_secrets()) if environment else [])]
        found = [s for s in found if s and len(s) >= MIN_SECRET and s != "EMPTY"]
        forms = {form for secret in found for form in secret_forms(secret)}
        cores = {c for secret in found for c in _base64_cores(secret)}
        return cls(
            tuple(sorted(forms, key=lambda f: (-len(f), f))),
            tuple(sorted(cores, key=lambda c: (-len(c), c))),
        )

    def __call__(self, text: str) -> str:
        """``text`` with every credential masked."""
        for form in self.forms:
            if form in text:
                text = text.replace(form, REDACTED)
        if self.encoded is not None and any(core in text for core in self.cores):
            # (every match of the pattern holds a core: a text without one has nothing to mask,
            # and the pattern, which tries a run of base64 characters at every position, is
            # the slowest part of scrubbing by far)
            text = self.encoded.sub(REDACTED, text)
        # Each pattern runs only where the words it needs occur (a plain substring search of
        # the text folded as the patterns' case-insensitive matching folds it, in any mix of
        # cases): masking only ever replaces text by "***", so no later pattern can gain a
        # word it lacked before.
        folded = text.isascii() or not any(c in text for c in _FOLDED)
        low = (text if folded else text.translate(_FOLD)).lower()
        if "bearer" in low:
            text = _BEARER.sub(_bearer, text)
        if "basic" in low:
            text = _BASIC.sub(_basic, text)
        if any(word in low for word in _HEADER_WORDS):
            text = _HEADER.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", text)
        if "=" in text and any(word in low for word in _QUERY_WORDS):
            text = _QUERY.sub(lambda m: f"{m.group(1)}{REDACTED}", text)
        if _URL_AT.search(text):
            text = _USER_INFO.sub(_user_info, text)
        return text

    def optional(self, text: str | None) -> str | None:
        """:meth:`__call__` of a text that may be None."""
        return None if text is None else self(text)


_FOLD = str.maketrans({"\u212a": "k", "\u0130": "i", "\u0131": "i", "\u017f": "s"})
"""The characters other than A-Z that case-insensitive ``re`` matches to an ASCII letter (the
Kelvin sign, dotted and dotless i, long s): folded before the words below are looked for."""
_FOLDED = ("\u212a", "\u0130", "\u0131", "\u017f")
_HEADER_WORDS = (
    "authorization", "apikey", "api-key", "api_key", "access-token", "access_token",
    "client-secret", "client_secret", "auth-token", "auth_token",
)  # fmt: skip
"""One of them occurs in any text :data:`_HEADER` matches (lower case)."""
_QUERY_WORDS = ("key=", "token=", "sig=", "signature=", "secret=", "password=", "auth=")
"""One of them occurs in any text :data:`_QUERY` matches (lower case); each holds ``=``."""


def _user_info(match: re.Match[str]) -> str:
    return f"{match.group(1)}{REDACTED}@"


def scrub(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every occurrence of each secret replaced by ``***`` (exact forms only;
    :class:`Scrubber` masks every encoding and credential-shaped text).

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


class ScrubbingFilter(logging.Filter):
    """A log filter that masks credentials in each record's message (see :class:`Scrubber`)."""

    def __init__(self, scrubber: Scrubber) -> None:
        super().__init__()
        self._scrub = scrubber

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self._scrub(record.getMessage())
        record.args = None
        return True


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to the ``sys.stderr`` of the moment (not the one at creation: a test runner or
    a redirection may replace it), as :data:`logging.lastResort` does."""

    def __init__(self) -> None:
        super().__init__()

    @property
    def stream(self) -> Any:
        import sys

        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def scrub_logs(logger_name: str = "lifebench") -> None:
    """Send the warnings of ``logger_name`` to stderr through a :class:`ScrubbingFilter` (once
    per process: the CLI and every worker process call it). The handler runs before those of
    the root logger, so they see the masked message too."""
    logger = logging.getLogger(logger_name)
    if any(isinstance(f, ScrubbingFilter) for h in logger.handlers for f in h.filters):
        return
    handler = _StderrHandler()
    handler.setLevel(logging.WARNING)
    handler.addFilter(ScrubbingFilter(Scrubber.of(environment=True)))
    logger.addHandler(handler)

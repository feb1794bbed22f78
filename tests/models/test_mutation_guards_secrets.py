"""Survivors of mutation testing in ``models/_secrets.py``, pinned by their effect: the exact
text a secret leaves behind once scrubbed, in every form and encoding it can take, the secrets
found in an environment and a URL, and the log lines written to stderr.

Every expected text is written out here (never computed with the module's own helpers), so a
change to a helper cannot change the expectation with it.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import sys
from collections.abc import Iterator
from urllib.parse import quote, quote_plus

import pytest

from lifebench.models._secrets import (
    REDACTED,
    Scrubber,
    ScrubbingFilter,
    environment_secrets,
    redact_url,
    scrub,
    scrub_logs,
    secret_forms,
    url_secrets,
)

KEY = 'sk-p@ss/w rd+"é'
"""A key with every character an encoding changes: ``@ / + space`` (percent-encoding),
``"`` (JSON) and a non-ASCII letter (JSON with ``ensure_ascii``)."""


# ------------------------------------------------------------------------- secret forms


def test_the_forms_of_a_secret_are_each_encoding_once() -> None:
    assert secret_forms(KEY) == (
        KEY,
        "sk-p%40ss%2Fw%20rd%2B%22%C3%A9",
        "sk-p%40ss%2Fw+rd%2B%22%C3%A9",
        'sk-p@ss/w rd+\\"\\u00e9',
        'sk-p@ss/w rd+\\"é',
    )
    # a key no encoding changes has one form
    assert secret_forms("abcdefgh") == ("abcdefgh",)


def test_a_secret_needs_eight_characters() -> None:
    assert secret_forms("abcdefg") == ()
    assert secret_forms("abcdefgh") != ()
    assert Scrubber.of(["abcdefg"])("abcdefg") == "abcdefg"
    short = base64.b64encode(b"abcdefg").decode()
    assert Scrubber.of(["abcdefg"])(short) == short  # nor its base64
    assert Scrubber.of(["abcdefgh"])("abcdefgh") == REDACTED
    assert Scrubber.of(["", "EMPTY"]).forms == ()
    assert Scrubber.of(["", "EMPTY"]).encoded is None
    # only the placeholder itself is no key: a key that contains the word is one
    assert secret_forms("XXEMPTYXX") == ("XXEMPTYXX",)
    assert Scrubber.of(["XXEMPTYXX"])("key XXEMPTYXX") == "key ***"


def test_every_form_of_a_known_secret_is_masked() -> None:
    scrubber = Scrubber.of([KEY])
    for form in (
        KEY,
        quote(KEY, safe=""),
        quote_plus(KEY),
        json.dumps(KEY)[1:-1],
        json.dumps(KEY, ensure_ascii=False)[1:-1],
    ):
        assert scrubber(f"<{form}>") == f"<{REDACTED}>", form


def test_a_secret_inside_a_longer_one_never_leaves_the_longer_ones_tail() -> None:
    scrubber = Scrubber.of(["abcdefgh", "abcdefgh12345"])
    assert scrubber("x abcdefgh12345 y abcdefgh") == "x *** y ***"
    assert Scrubber.of(["abcdefgh12345", "abcdefgh"])("x abcdefgh12345 y") == "x *** y"


@pytest.mark.parametrize("prefix", [b"", b"a", b"ab", b"abc"], ids=["0", "1", "2", "3"])
@pytest.mark.parametrize("secret", ["abcdefgh", "sk-\u00ff\u00fe?>~~~12345"], ids=["8", "long"])
def test_base64_of_any_text_holding_a_secret_is_masked_whole(prefix: bytes, secret: str) -> None:
    scrubber = Scrubber.of([secret])
    payload = prefix + b'{"key": "' + secret.encode() + b'"} tail'
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        encoded = encode(payload).decode()
        assert scrubber(f"header {encoded} end") == f"header {REDACTED} end", encoded
        assert scrubber(f"header {encoded.rstrip('=')} end") == f"header {REDACTED} end"


def test_base64_of_text_without_the_secret_is_kept() -> None:
    scrubber = Scrubber.of(["abcdefgh"])
    encoded = base64.b64encode(b"nothing to hide here at all").decode()
    assert scrubber(f"x {encoded}") == f"x {encoded}"


def test_a_scrubber_of_the_environment_knows_its_credentials(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LB_GUARD_API_KEY", "env-secret-123")
    assert Scrubber.of(environment=True)("got env-secret-123") == "got ***"
    assert Scrubber.of()("got env-secret-123") == "got env-secret-123"
    assert (
        Scrubber.of(["given-secret-1"], environment=True)("given-secret-1 env-secret-123")
        == "*** ***"
    )


def test_optional_text() -> None:
    scrubber = Scrubber.of(["abcdefgh1"])
    assert scrubber.optional(None) is None
    assert scrubber.optional("k=abcdefgh1") == "k=***"


# --------------------------------------------------------------- credential-shaped text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Bearer abcdefgh12345", "Bearer ***"),
        ("bearer\tabc.defgh", "bearer\t***"),
        ("BEARER%20abc-defgh", "BEARER%20***"),
        ("Bearer+abc_defgh~", "Bearer+***"),
        ("Bearer abcdefghijkl", "Bearer abcdefghijkl"),  # a word, not a token
        ("Bearer abc1", "Bearer abc1"),  # too short
        ("Basic dXNlcjpwYXNzd29yZA==", "Basic ***"),  # user:password
        ("basic dXNlcjpwYXNzd29yZA", "basic ***"),  # padding left out
        ("Basic%20dXNlcjpwYXNzd29yZA==", "Basic%20***"),
        ("Basic " + base64.urlsafe_b64encode(b"\xfb\xff:\xfb\xff?>").decode(), "Basic ***"),
        ("Basic aGVsbG8gd29ybGQ=", "Basic aGVsbG8gd29ybGQ="),  # no colon: not a credential
        ("Basic dXNlcjpwYXNzMQ", "Basic ***"),  # two padding characters left out
        ("Basic dXNlcjpwd2Q", "Basic ***"),  # one left out
        ("Basic abcdefghi", "Basic abcdefghi"),  # not base64 at all
        ("Bearer Xylophones", "Bearer Xylophones"),  # letters only: a word
        ("basic research", "basic research"),
        ("Authorization: abcdefgh12345", "Authorization: ***"),
        ('{"x-api-key": "abcdefgh12345"}', '{"x-api-key": "***"}'),
        ("client_secret=abcdefgh12345&x=1", "client_secret=***&x=1"),
        ("https://h/v1?token=abcdefgh12345&x=1", "https://h/v1?token=***&x=1"),
        ("https://h/v1?sig=abcdefgh12345", "https://h/v1?sig=***"),
        ("https://h/v1?password=abcdefgh12345#f", "https://h/v1?password=***#f"),
        ("see https://alice:abcdefgh12345@host/v1", "see https://***@host/v1"),
        ("see https://host/v1 and mail me@host", "see https://host/v1 and mail me@host"),
        ("plain words, nothing else", "plain words, nothing else"),
        ("a=b: c@d", "a=b: c@d"),
        # a text holding every marker the pre-check looks for is still scrubbed
        ("BEARER BASIC basic: Bearer abcdefgh12345 = @", "BEARER BASIC basic: Bearer *** = @"),
        # ... or every word of one pattern
        (
            "authorization apikey api-key api_key access-token access_token client-secret "
            "client_secret auth-token auth_token, x-api-key: abcdefgh12345",
            "authorization apikey api-key api_key access-token access_token client-secret "
            "client_secret auth-token auth_token, x-api-key: ***",
        ),
        (
            "key= token= sig= signature= secret= password= auth= https://h/v1?token=abcdefgh12345",
            "key= token= sig= signature= secret= password= auth= https://h/v1?token=***",
        ),
    ],
)
def test_credential_shapes_leave_exactly_this_text(text: str, expected: str) -> None:
    assert Scrubber.of()(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("BA\u017fIC dXNlcjpwYXNzd29yZA==", "BA\u017fIC ***"),
        ("é Bearer abcdefgh12345", "é Bearer ***"),
        ("é x-api-\u212aey: abcdefgh12345", "é x-api-\u212aey: ***"),
        ("é https://h/v1?\u017fig=abcdefgh12345", "é https://h/v1?\u017fig=***"),
        # every letter that folds at once
        ("\u212a\u0130\u0131 ba\u017fic dXNlcjpwYXNzd29yZA==", "\u212a\u0130\u0131 ba\u017fic ***"),
    ],
    ids=["long-s", "accent", "kelvin", "long-s-query", "all-folds"],
)
def test_non_ascii_text_is_folded_before_the_words_are_looked_for(text: str, expected: str) -> None:
    assert Scrubber.of()(text) == expected


# ---------------------------------------------------------------------- environment


def test_the_environment_names_its_credentials() -> None:
    environ = {
        "OPENAI_API_KEY": "sk-12345678",
        "MY_TOKEN": "abcdefgh",
        "db_password": "hunter2hunter2",
        "X_PASSWD": "passwd-value",
        "AWS_CREDENTIALS": "cred-value-1",
        "PROXY_AUTH": "user:pw-123",
        "APP_SECRET": "the-secret-9",
        "HOME": "/home/someone-long",
        "SHORT_KEY": "1234567",
        "PORT_TOKEN": "123456789",
    }
    assert environment_secrets(environ) == (
        "sk-12345678",
        "abcdefgh",
        "hunter2hunter2",
        "passwd-value",
        "cred-value-1",
        "user:pw-123",
        "the-secret-9",
    )


def test_the_process_environment_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LB_GUARD_TOKEN", "process-token-1")
    assert "process-token-1" in environment_secrets()


# ----------------------------------------------------------------------------- URLs


def test_the_secrets_of_a_url_longest_first_raw_and_decoded() -> None:
    url = "https://me:pa%40ss-word@h/v1?api-key=k%2By-12345&n=1&sig=abc"
    assert url_secrets(url) == ("pa%40ss-word", "k%2By-12345", "pa@ss-word", "k+y-12345")
    assert url_secrets("https://only-user-1@h/v1") == ("only-user-1",)
    assert url_secrets("https://h/v1?flag&token=12345678") == ("12345678",)
    # a value holding "=" is one secret: everything after the first "="
    assert url_secrets("https://h/v1?token=abc=defghijkl&x=1") == ("abc=defghijkl",)
    # 8 characters as written count, however short the decoded value
    assert url_secrets("https://h/v1?key=%41%42cd") == ("%41%42cd", "ABcd")


def test_a_redacted_url_keeps_what_locates_the_server() -> None:
    assert redact_url("https://u@h:8443/p?q=1#f") == "https://***@h:8443/p"
    assert redact_url("https://:pw@h/p") == "https://***@h/p"
    assert redact_url("https://h:0/p") == "https://h:0/p"
    assert redact_url("https://[fe80::1]:9/p") == "https://[fe80::1]:9/p"
    assert redact_url("file:///tmp/x?q=1#f") == "file:///tmp/x"


def test_scrub_replaces_each_given_secret() -> None:
    assert scrub("one abcdefgh two ijklmnop", ["abcdefgh", "ijklmnop"]) == "one *** two ***"


# --------------------------------------------------------------------------------- logs


def test_a_log_filter_masks_the_formatted_message() -> None:
    record = logging.LogRecord(
        "x", logging.WARNING, __file__, 1, "key %s at %d", ("abcdefgh1", 3), None
    )
    assert ScrubbingFilter(Scrubber.of(["abcdefgh1"])).filter(record) is True
    assert record.msg == "key *** at 3"
    assert record.args is None
    assert record.getMessage() == "key *** at 3"


def scrubbing(logger: logging.Logger) -> list[logging.Handler]:
    """The handlers of ``logger`` with a scrubbing filter (pytest adds capture handlers)."""
    return [h for h in logger.handlers if any(isinstance(f, ScrubbingFilter) for f in h.filters)]


@pytest.fixture
def guard_logger() -> Iterator[logging.Logger]:
    logger = logging.getLogger("lifebench.mutation_guard_secrets")
    saved = list(logger.handlers)
    logger.handlers.clear()
    logger.propagate = False
    try:
        yield logger
    finally:
        logger.handlers[:] = saved
        logger.propagate = True


def test_warnings_reach_the_stderr_of_the_moment_scrubbed(
    guard_logger: logging.Logger, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LB_GUARD_API_KEY", "log-secret-123")
    scrub_logs(guard_logger.name)
    scrub_logs(guard_logger.name)  # once per process
    ours = scrubbing(guard_logger)
    assert len(ours) == 1
    handler = ours[0]
    assert handler.level == logging.WARNING
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    handler.stream = io.StringIO()  # setting a stream is ignored: stderr of the moment wins
    assert handler.stream is stderr
    guard_logger.setLevel(logging.DEBUG)
    guard_logger.info("info %s", "log-secret-123")
    guard_logger.warning("refused %s", "log-secret-123")
    assert stderr.getvalue() == "refused ***\n"


def test_a_logger_without_the_filter_gets_one(guard_logger: logging.Logger) -> None:
    guard_logger.addHandler(logging.NullHandler())
    scrub_logs(guard_logger.name)
    assert len(scrubbing(guard_logger)) == 1


def test_the_lifebench_logger_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    logger = logging.getLogger("lifebench")
    monkeypatch.setattr(logger, "handlers", [h for h in logger.handlers if not scrubbing_only(h)])
    scrub_logs()
    assert len(scrubbing(logger)) == 1


def scrubbing_only(handler: logging.Handler) -> bool:
    return any(isinstance(f, ScrubbingFilter) for f in handler.filters)

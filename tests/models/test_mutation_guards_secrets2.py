"""The scrubber's pre-checks change no output (issue 19: scrubbing was ~7 % of a worker's CPU,
and five times that with a key in the environment), and a credential in any mix of cases is
masked.

Before a pattern runs, the scrubber now looks for a literal text every match of it must hold:
one of the base64 *cores* of the known secrets before the base64 pattern, ``=`` before the
query pattern, ``://…@`` before the user-info pattern. Each test compares the scrubber with a
reference kept here that runs every form and every pattern on every text, unconditionally —
on Hypothesis texts and on the bundled task files of every domain, English and Chinese, with
secrets planted in every form and encoding.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifebench.models import _secrets as s
from lifebench.models._secrets import REDACTED, Scrubber, _base64_cores, secret_forms
from lifebench.vita.loader import available_bundled_tasks, load_bundled_tasks

SECRETS = ["sk-test-0123456789abcdef", "pässwörd-密钥-2024", "abcdefgh"]


def _reference(secrets: list[str], text: str) -> str:
    """Every form, the base64 pattern (as built before the pre-check) and every
    credential-shaped pattern, each on the whole text, in the scrubber's order."""
    forms = sorted({f for x in secrets for f in secret_forms(x)}, key=lambda f: (-len(f), f))
    for form in forms:
        text = text.replace(form, REDACTED)
    cores = sorted({c for x in secrets for c in _base64_cores(x)}, key=len)[::-1]
    if cores:
        alternatives = "|".join(map(re.escape, cores))
        pattern = re.compile(f"[A-Za-z0-9+/_-]*(?:{alternatives})[A-Za-z0-9+/_-]*=*")
        text = pattern.sub(REDACTED, text)
    text = s._BEARER.sub(s._bearer, text)
    text = s._BASIC.sub(s._basic, text)
    text = s._HEADER.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", text)
    text = s._QUERY.sub(lambda m: f"{m.group(1)}{REDACTED}", text)
    return s._USER_INFO.sub(s._user_info, text)


def _planted(secret: str) -> list[str]:
    """``secret`` in every way it can reach a stored text."""
    raw = secret.encode()
    out = list(secret_forms(secret))
    for prefix in (b"", b"a", b"ab"):
        payload = prefix + b'{"key": "' + raw + b'"}'
        out += [base64.b64encode(payload).decode(), base64.urlsafe_b64encode(payload).decode()]
        out.append(base64.b64encode(payload).decode().rstrip("="))
    out += [
        f"Bearer {secret}",
        f"Authorization: {secret}",
        f"https://h/v1?api_key={secret}&x=1",
        f"https://user:{secret}@host/v1",
    ]
    return out


# --------------------------------------------------------------- cases the pre-check needs


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("BeArEr abcdefgh12345", "BeArEr ***"),
        ("bEaReR abcdefgh12345 then", "bEaReR *** then"),
        ("BaSiC dXNlcjpwYXNz", "BaSiC ***"),  # base64 of "user:pass", no padding
        ("bAsIc dXNlcjpwYXNz.", "bAsIc ***."),
    ],
)
def test_bearer_and_basic_in_any_mix_of_cases_are_masked_without_other_marks(
    text: str, expected: str
) -> None:
    """No ``=``, ``:`` or ``@`` in the text: the credential is masked all the same (before,
    only ``Bearer``/``BEARER``-like spellings were looked for there, and these were left)."""
    assert Scrubber.of()(text) == expected


def test_a_text_without_a_core_keeps_its_base64_and_one_with_a_core_loses_it() -> None:
    scrubber = Scrubber.of(["abcdefgh12"])
    assert scrubber.cores == ("YWJjZGVmZ2gx", "YmNkZWZnaDEy", "Y2RlZmdo")
    plain = base64.b64encode(b"nothing to hide here at all").decode()
    assert scrubber(f"x {plain} y") == f"x {plain} y"
    held = base64.b64encode(b"xyabcdefgh12 tail").decode()
    assert "Y2RlZmdo" not in held and "YmNkZWZnaDEy" in held
    assert scrubber(f"x {held} y") == f"x {REDACTED} y"
    for core in scrubber.cores:  # each core alone is found, whichever of them it is
        assert scrubber(f"[{core}]") == f"[{REDACTED}]"


def test_a_text_holding_every_core_loses_each_base64_text() -> None:
    """The pre-check asks whether any core occurs, not whether one is missing: a text with the
    secret's base64 at every alignment (so every core in it) is masked too."""
    scrubber = Scrubber.of(["abcdefgh12"])
    texts = [
        base64.b64encode(prefix + b"abcdefgh12 tail").decode() for prefix in (b"", b"a", b"ab")
    ]
    joined = " | ".join(texts)
    assert all(any(core in t for t in texts) for core in scrubber.cores)
    assert scrubber(joined) == " | ".join([REDACTED] * 3)


def test_the_base64_pattern_is_built_from_the_cores() -> None:
    scrubber = Scrubber.of(["abcdefgh12"])
    assert scrubber.encoded is not None
    assert scrubber.encoded.pattern == (
        "[A-Za-z0-9+/_-]*(?:YWJjZGVmZ2gx|YmNkZWZnaDEy|Y2RlZmdo)[A-Za-z0-9+/_-]*=*"
    )
    assert Scrubber.of().encoded is None and Scrubber.of().cores == ()
    assert Scrubber(cores=("YWJjZGVmZ2gx",)).encoded is not None
    assert Scrubber.of(["abcdefgh12"]) == Scrubber.of(["abcdefgh12"])


def test_a_scrubber_shows_no_secret_in_its_repr() -> None:
    """Its forms and cores are the secrets themselves: its repr (a log line, a traceback's
    locals) names none of them."""
    scrubber = Scrubber.of(["sk-abcdefgh12345"])
    shown = repr(scrubber)
    assert shown == "Scrubber()"
    assert "abcdefgh" not in str(scrubber)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see https://alice:abcdefgh12345@host/v1", "see https://***@host/v1"),
        ('{"url": "HTTP://k3y-abcdefgh@h"}', '{"url": "HTTP://***@h"}'),
        ("mock@http://127.0.0.1:8000/v1 and a@b", "mock@http://127.0.0.1:8000/v1 and a@b"),
        ("https://host/v1?x=1 user@example.com", "https://host/v1?x=1 user@example.com"),
        ("no url: a@b", "no url: a@b"),
        ("https://h/v1?api_key=abcdefgh12345", "https://h/v1?api_key=***"),
        ("https://h/v1?token=abcdefgh12345&", "https://h/v1?token=***&"),
    ],
)
def test_user_info_and_query_credentials_are_masked_exactly(text: str, expected: str) -> None:
    assert Scrubber.of()(text) == expected


# ------------------------------------------------------- the same output as the reference

_PIECES = st.sampled_from(
    [
        *SECRETS, *(p for x in SECRETS for p in _planted(x)),
        "YWJj", "ZGVm", "c2st", "dGVzdC0", "Bearer ", "BeArEr ", "bAsIc ", "dXNlcjpwYXNz",
        "Authorization", "x-api-\u212aey", "api_key", "?", "&", "=", ": ", '"', "\\", "://",
        "https", "@", "key", "token", "/", " ", "中文", "+", "-", "_", "==",
    ]
)  # fmt: skip


@settings(max_examples=100, deadline=None)
@given(st.lists(_PIECES, max_size=10).map("".join), st.sets(st.sampled_from(SECRETS)))
def test_the_pre_checks_mask_exactly_what_every_pattern_masks(text: str, secrets: set[str]) -> None:
    chosen = sorted(secrets)
    assert Scrubber.of(chosen)(text) == _reference(chosen, text)


def _task_texts() -> Iterator[tuple[str, str]]:
    """The bundled demo tasks (every domain, English and Chinese) as the store keeps them."""
    for domain, language in available_bundled_tasks("demo"):
        for task in load_bundled_tasks(domain, language, "demo")[:1]:
            label = f"{domain}/{language}/{task.id}"
            yield label, json.dumps(task.model_dump(mode="json"), ensure_ascii=False)


def test_the_bundled_tasks_cover_every_domain_in_both_languages() -> None:
    seen = {tuple(label.split("/")[:2]) for label, _ in _task_texts()}
    assert {language for _, language in seen} == {"en", "zh"}
    assert {domain for domain, _ in seen} >= {"delivery", "instore", "ota"}


def test_bundled_tasks_scrub_as_the_reference_with_every_secret_planted() -> None:
    """Every bundled task (English and Chinese, every domain) as stored JSON: unchanged when it
    holds no secret, and the same text as the reference with each secret planted at its start,
    middle and end in each of its forms and encodings (in a window of the task's text around
    the planted secret: the patterns only ever match within a few hundred characters)."""
    scrubber = Scrubber.of(SECRETS)
    checked = 0
    for label, text in _task_texts():
        assert scrubber(text) == _reference(SECRETS, text) == text, label
        for spot in (0, len(text) // 2, len(text)):
            before, after = text[max(0, spot - 600) : spot], text[spot : spot + 600]
            for secret in SECRETS:
                for planted in _planted(secret):
                    dirty = f"{before}{planted}{after}"
                    clean = scrubber(dirty)
                    assert clean == _reference(SECRETS, dirty), (label, planted, spot)
                    assert secret not in clean
                    checked += 1
    assert checked > 500

"""Every form of a credential is kept out of what leaves the process.

A key can reach a message in the form it was given (``sk-…``), percent-encoded (as it sits
in a URL: ``p%40ss``) or decoded; it can sit in the user info of a model URL
(``http://user:KEY@host``, ``http://KEY@host``) or in its query (``?api-key=KEY``). As
properties: for any such key, every form is scrubbed from error messages and names, and the
URL shown or stored keeps no user info, query or fragment.
"""

from __future__ import annotations

import traceback
from typing import Any
from urllib.parse import quote, quote_plus

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lifebench.errors import ModelError
from lifebench.models import OpenAICompatibleModel, RetryPolicy
from lifebench.models._secrets import REDACTED, redact_url, scrub, truncate, url_secrets
from lifebench.suites._options import make_run_options, scrub_model_spec
from lifebench.testing import MockOpenAIServer

# Keys: 8+ characters, including those a URL must escape.
_KEY = st.text(
    st.sampled_from("abcXYZ019-_.~!$&'()*+,;=:@/?#[]% é密"), min_size=8, max_size=24
).filter(lambda k: k.strip() == k and k != "EMPTY")


def _forms(secret: str) -> set[str]:
    return {secret, quote(secret, safe=""), quote_plus(secret)}


@settings(max_examples=150)
@given(password=_KEY, user=st.sampled_from(["u", "user.name"]))
@example(password="p@ss:w/rd?#12", user="u")
def test_the_password_of_a_url_is_a_secret_in_every_form(password: str, user: str) -> None:
    url = f"https://{user}:{quote(password, safe='')}@api.example.com:8443/v1"
    secrets = url_secrets(url)
    assert password in secrets and quote(password, safe="") in secrets
    assert user not in secrets, "the user name is not secret when there is a password"
    for form in (password, quote(password, safe="")):
        text = f"error at {url}: key {form} refused"
        cleaned = scrub(text, secrets)
        assert form not in cleaned and REDACTED in cleaned
    assert redact_url(url) == "https://***@api.example.com:8443/v1"
    assert list(secrets) == sorted(secrets, key=len, reverse=True), "longest first"


@settings(max_examples=100)
@given(key=_KEY)
@example(key="sk-only-user-name")
def test_a_user_name_without_password_is_the_key(key: str) -> None:
    url = f"http://{quote(key, safe='')}@127.0.0.1:9/v1"
    secrets = url_secrets(url)
    assert key in secrets
    assert key not in scrub(f"GET {url} failed for {key}", secrets)
    assert redact_url(url) == "http://***@127.0.0.1:9/v1"


@settings(max_examples=150)
@given(
    key=_KEY,
    name=st.sampled_from(["api-key", "key", "token", "x"]),
    encode=st.sampled_from([quote, quote_plus]),
)
@example(key="abc+def/ghi=", name="api-key", encode=quote)
def test_query_values_of_eight_characters_or_more_are_secrets(
    key: str, name: str, encode: Any
) -> None:
    sent = encode(key, safe="") if encode is quote else encode(key)
    url = f"https://h.example/v1?other=1&{name}={sent}#frag"
    secrets = url_secrets(url)
    for form in {key, sent}:
        assert form in secrets
        assert form not in scrub(f"refused {form} at {url}", secrets)
    assert "1" not in secrets, "short values are not taken for keys"
    assert redact_url(url) == "https://h.example/v1"


def test_short_values_and_plain_urls_carry_no_secret() -> None:
    assert url_secrets("http://localhost:8000/v1") == ()
    assert url_secrets("http://h/v1?mode=fast&n=1234567") == ()
    assert url_secrets("http://h/v1?mode=12345678") == ("12345678",)
    assert url_secrets("not a url at all") == ()
    assert url_secrets("http://[bad/v1") == ()
    assert url_secrets("  http://u:secretpw@h/v1  ") == ("secretpw",)


def test_one_secret_inside_another_is_scrubbed_whole() -> None:
    secrets = url_secrets("http://u:abcdefgh@h/v1?k=xxabcdefghxx")
    assert secrets == ("xxabcdefghxx", "abcdefgh")
    assert scrub("xxabcdefghxx and abcdefgh", secrets) == "*** and ***"


def test_scrub_ignores_empty_and_placeholder_keys() -> None:
    assert scrub("EMPTY key, nothing else", ["", "EMPTY"]) == "EMPTY key, nothing else"
    assert scrub("a-b-a", ["a"]) == "***-b-***"


def test_redact_url_keeps_scheme_host_port_and_path_only() -> None:
    assert redact_url("https://u:p@[::1]:8443/v1/chat?k=v#f") == "https://***@[::1]:8443/v1/chat"
    assert redact_url("https://[::1]/v1") == "https://[::1]/v1"
    assert redact_url("http://h:99999/v1") == "http://h/v1"
    assert redact_url("http://@h/v1") == "http://***@h/v1"
    assert redact_url("http://[bad/v1") == REDACTED


def test_truncate_marks_what_it_cut() -> None:
    assert truncate("abcdef", 6) == "abcdef"
    assert truncate("abcdefg", 6) == "abcdef... [1 more chars]"
    assert truncate("x" * 501) == "x" * 500 + "... [1 more chars]"


@pytest.mark.parametrize(
    "url_form",
    [
        "http://user:{k}@127.0.0.1:{port}/v1",
        "http://{k}@127.0.0.1:{port}/v1",
        "http://127.0.0.1:{port}/v1?api-key={k}",
        "http://127.0.0.1:{port}/v1?api-version=1&key={k}#frag",
    ],
    ids=["password", "user-info", "api-key-query", "key-query-fragment"],
)
@pytest.mark.parametrize(
    "key",
    ["s3cr3t-K3Y-0123", "p@ss/w:rd?&=+%K", "密钥-secret-ключ"],
    ids=["plain", "url-special", "non-ascii"],
)
async def test_an_endpoint_that_echoes_the_key_leaks_no_form_of_it(url_form: str, key: str) -> None:
    """A provider's error text that repeats the key (raw, percent-encoded, decoded) and the
    whole URL reaches the user scrubbed, in the error, its traceback and the model's name."""
    encoded = quote(key, safe="")

    def leaky(body: dict[str, Any]) -> dict[str, Any]:
        raise RuntimeError(f"bad key {key} ({encoded}, {quote_plus(key)}) for {url}")

    async with MockOpenAIServer() as server:
        url = url_form.format(k=encoded, port=server.port)
        model = OpenAICompatibleModel(
            name=f"agent@{url}",
            model="mock-model",
            base_url=url,
            api_key="EMPTY",
            timeout_s=30.0,
            retry=RetryPolicy(max_attempts=2, base_delay_s=0.0, max_delay_s=0.0),
        )
        try:
            server.responder = leaky
            with pytest.raises(ModelError) as caught:
                await model.generate([_hello()])
        finally:
            await model.aclose()
    shown = "\n".join(
        [str(caught.value), "".join(traceback.format_exception(caught.value)), model.name,
         repr(model)]
    )  # fmt: skip
    assert "responder failed: RuntimeError: bad key ***" in str(caught.value)
    for form in _forms(key):
        assert form not in shown, f"{form!r} leaked"


def _hello() -> Any:
    from lifebench.messages import UserMessage

    return UserMessage(content="hello")


@settings(max_examples=60)
@given(key=_KEY, form=st.sampled_from(["user", "password", "query"]))
def test_model_specs_are_scrubbed_before_they_are_stored_or_shown(key: str, form: str) -> None:
    encoded = quote(key, safe="")
    url = {
        "user": f"http://{encoded}@h.example/v1",
        "password": f"http://me:{encoded}@h.example/v1",
        "query": f"http://h.example/v1?api-key={encoded}",
    }[form]
    spec = f"gpt-x@{url}"
    scrubbed = scrub_model_spec(spec)
    assert scrubbed is not None and scrubbed.startswith("gpt-x@http")
    options = make_run_options({"agent_model": spec, "judge_model": spec})
    shown = "\n".join(
        [scrubbed, repr(options), str(options.semantic_dict()), options.config_hash()]
    )
    for secret in _forms(key):
        assert secret not in shown


@pytest.mark.parametrize(
    "text",
    [
        "Authorization: Bearer abcdefgh12345",
        "Authorization: Ba\u017fic " + "dXNlcjpwYXNzd29yZA==",  # long s: re matches it to s
        "authorization: ba\u017fic dXNlcjpwYXNzd29yZA==",
        "author\u0130zation: abcdefgh12345",  # dotted capital I
        "author\u0131zation: abcdefgh12345",  # dotless i
        "x-api-\u212aey: abcdefgh12345",  # Kelvin sign
        '{"url": "https://h/v1?access_to\u212aen=abcdefgh12345"}',
        "https://h/v1?\u017fig=abcdefgh12345&x=1",
        "see HTTPS://alice:abcdefgh12345@host/v1 — 中文",
        "客服说：Bearer abcdefgh12345",
    ],
)
def test_credential_shapes_are_masked_whatever_the_case_folding(text: str) -> None:
    """The scrubber looks for the words a pattern needs before running it; a credential that
    the case-insensitive pattern matches through a non-ASCII letter is still masked."""
    from lifebench.models._secrets import Scrubber

    masked = Scrubber.of()(text)
    assert "abcdefgh12345" not in masked and "dXNlcjpwYXNzd29yZA" not in masked
    assert REDACTED in masked


_PIECES = st.sampled_from(
    [
        "Bearer ", "bAsIc ", "ba\u017fic ", "BeArEr ", "BaSiC ", "dXNlcjpwYXNz", "Authorization",
        "author\u0130zation", "x-api-\u212aey",
        "api_key", "access-token", "client_secret", "auth_token", "?", "&", "=", ": ", '"', "\\",
        "://", "https", "@", "key", "token", "sig", "pass", "word", "dXNlcjpwYXNzd29yZA==",
        "abcdefgh12345", "/", " ", "中文", "%20", "+",
    ]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=14).map("".join))
def test_looking_for_the_words_first_masks_exactly_what_every_pattern_masks(text: str) -> None:
    """The word pre-check changes nothing: the same text as running every pattern."""
    from lifebench.models import _secrets as s

    expected = s._BEARER.sub(s._bearer, text)
    expected = s._BASIC.sub(s._basic, expected)
    expected = s._HEADER.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", expected)
    expected = s._QUERY.sub(lambda m: f"{m.group(1)}{REDACTED}", expected)
    expected = s._USER_INFO.sub(s._user_info, expected)
    assert s.Scrubber.of()(text) == expected

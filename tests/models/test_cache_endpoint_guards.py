"""The model-call cache never holds a credential: the endpoint enters keys and rows without user
info or query string, and two URLs differing only in their key share their cached answers."""

from __future__ import annotations

from lifebench.models._cache import cache_endpoint


def test_credentials_of_the_url_never_enter_the_cache() -> None:
    url = " https://user:s3cretPass@API.example.com/v1/?api-key=QUERYKEY123&x=1#frag "
    endpoint = cache_endpoint(url)
    for secret in ("s3cretPass", "QUERYKEY123", "user", "api-key", "frag"):
        assert secret not in endpoint
    assert endpoint.endswith("api.example.com/v1")


def test_the_key_does_not_split_the_cache() -> None:
    assert cache_endpoint("https://KEY-ONE@api.example.com/v1?api-key=AAAAAAAAAA") == (
        cache_endpoint("https://KEY-TWO@api.example.com/v1/?api-key=BBBBBBBBBB")
    )
    assert cache_endpoint("https://api.example.com/v1") != cache_endpoint(
        "https://api.example.com/v2"
    )

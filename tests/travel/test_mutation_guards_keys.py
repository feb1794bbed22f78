"""Survivors of mutation testing in ``travel/sandbox/keys.py``, pinned by the key string: the
normalised key normalises inside lists and objects too (every element, every value, keys kept)
and keeps non-ASCII text as written, like the official key."""

from __future__ import annotations

from lifebench.travel.sandbox.keys import normalized_key, normalized_params


def test_values_inside_lists_and_objects_are_normalised() -> None:
    params = normalized_params(
        "map_compute_routes",
        {"origin": "39.9,116.4", "intermediates": [" 39.90 , 116.40 ", 2.0, {"at": 3.0}]},
    )
    assert params == ('{"intermediates":["39.9,116.4",2,{"at":3}],"origin":"39.9,116.4"}')


def test_the_normalised_key_keeps_non_ascii_text() -> None:
    assert normalized_params("web_search", {"query": " 北京 美食 "}) == '{"query":"北京 美食"}'
    key = normalized_key("web_search", {"query": "北京"}, " 2025-10-24 10:00 ")
    assert key == '[["params","{\\"query\\":\\"北京\\"}"],["time","2025-10-24 10:00"]]'

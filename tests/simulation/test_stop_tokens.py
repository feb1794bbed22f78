"""The stop tokens of the conversation protocol."""

from __future__ import annotations

import pytest

from lifebench.simulation._stop import AGENT_STOP, USER_STOP_TOKENS, agent_stopped, user_stopped


def test_the_tokens() -> None:
    assert AGENT_STOP == "###STOP###"
    assert USER_STOP_TOKENS == ("###STOP###", "###TRANSFER###", "###OUT-OF-SCOPE###")


@pytest.mark.parametrize(
    ("text", "agent", "user"),
    [
        ("done ###STOP###", True, True),
        ("###TRANSFER###", False, True),
        ("bye ###OUT-OF-SCOPE### now", False, True),
        ("###stop###", False, False),
        ("## STOP ##", False, False),
        ("", False, False),
    ],
    ids=["stop", "transfer", "out-of-scope", "lower-case", "spaced", "empty"],
)
def test_who_stops(text: str, agent: bool, user: bool) -> None:
    assert agent_stopped(text) is agent
    assert user_stopped(text) is user

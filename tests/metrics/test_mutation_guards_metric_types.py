"""Mutation guards for ``metrics/_types.py`` (issue 21): which cost figures a report shows as
"unknown" — a role with an unpriced call, and every total (``total``, ``sum``,
``per_success``) as soon as any role has one."""

from __future__ import annotations

from lifebench.metrics._types import CostStats

_TOTALS = ("total", "sum", "per_success")
_ROLES = ("agent", "user", "judge", "tool")


def test_nothing_is_unknown_when_every_call_is_priced() -> None:
    cost = CostStats(agent=0.5, total=0.5, sum=1.0, per_success=1.0)
    assert [cost.unknown(name) for name in (*_ROLES, *_TOTALS)] == [False] * 7


def test_an_unpriced_role_makes_itself_and_every_total_unknown_but_no_other_role() -> None:
    cost = CostStats(agent=0.5, judge=None, total=None, sum=None, unpriced={"judge": 2})
    assert {name: cost.unknown(name) for name in (*_ROLES, *_TOTALS)} == {
        "agent": False,
        "user": False,
        "judge": True,
        "tool": False,
        "total": True,
        "sum": True,
        "per_success": True,
    }
    # a plain bool, as the templates pass it on to the money filter
    assert cost.unknown("judge") is True and cost.unknown("agent") is False
    assert cost.unknown("total") is True and cost.unknown("tool") is False


def test_a_total_is_only_unknown_through_the_roles_not_through_its_own_name() -> None:
    """``unpriced`` is keyed by role; a total is unknown because some role is, so an entry
    for one role makes all three totals unknown (none of them is looked up by name)."""
    cost = CostStats(unpriced={"tool": 1})
    for name in _TOTALS:
        assert cost.unknown(name) is True, name
    assert cost.unknown("TOTAL") is False  # not a total: looked up as a role, which it is not

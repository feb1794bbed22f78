"""What resuming says changed: one line per differing key (dotted path, sorted), and the tasks
that changed, disappeared or appeared."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lifebench.runner._diff import config_differences, task_differences

_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=4))
_CONFIG = st.recursive(
    _LEAF, lambda inner: st.dictionaries(st.sampled_from("abc"), inner, max_size=3), max_leaves=8
).filter(lambda v: isinstance(v, dict))


def test_changed_added_and_removed_keys_in_dotted_paths() -> None:
    stored = {"agent": {"model": "a", "temperature": 0.0}, "seed": 1, "gone": [1, 2], "empty": {}}
    current = {"agent": {"model": "b", "temperature": 0.0, "top_p": 0.9}, "seed": 1, "new": "x"}
    assert config_differences(stored, current) == [
        'agent.model: "a" -> "b"',
        "agent.top_p: added (0.9)",
        "empty: removed (was {})",
        "gone: removed (was [1,2])",
        'new: added ("x")',
    ]


def test_long_values_keep_both_ends_in_eighty_characters() -> None:
    path = "/tmp/" + "d" * 100 + "/moved.json"
    (line,) = config_differences({"tasks_file": "/a/tasks.json"}, {"tasks_file": path})
    shown = line.split(" -> ")[1]
    assert len(shown) == 80 and shown == f'"/tmp/{"d" * 33}…{"d" * 28}/moved.json"'
    (fits,) = config_differences({"k": "x" * 78}, {"k": "y"})
    assert fits == f'k: "{"x" * 78}" -> "y"'
    (cut,) = config_differences({"k": "x" * 79}, {"k": "y"})
    assert cut == f'k: "{"x" * 38}…{"x" * 39}" -> "y"'


def test_values_are_compared_as_canonical_json() -> None:
    assert config_differences({"k": {"b": 1, "a": 2}}, {"k": {"a": 2, "b": 1}}) == []
    assert config_differences({"k": [1, 2]}, {"k": [2, 1]}) == ["k: [1,2] -> [2,1]"]
    assert config_differences({"k": 1}, {"k": "1"}) == ['k: 1 -> "1"']
    assert config_differences({"k": {}}, {"k": {"a": 1}}) == [
        "k: removed (was {})",
        "k.a: added (1)",
    ]


@settings(max_examples=100)
@given(old=_CONFIG, new=_CONFIG)
def test_no_difference_iff_equal_and_lines_sorted(old: dict, new: dict) -> None:
    lines = config_differences(old, new)
    assert (lines == []) == (config_differences(new, old) == [])
    assert lines == sorted(lines, key=lambda line: line.split(": ", 1)[0])
    assert config_differences(old, old) == []


def test_task_differences() -> None:
    stored = {"a": "h1", "b": "h2", "c": "h3"}
    current = {"c": "h3", "b": "changed", "d": "h4", "e": "h5"}
    assert task_differences(stored, current) == (["b"], ["a"], ["d", "e"])
    assert task_differences(stored, stored) == ([], [], [])

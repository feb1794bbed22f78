"""The rubric state the judge reads is written exactly as ``json.dumps(..., indent=1)`` did.

:func:`lifebench.vita.grading.rubric._state_json` writes the ``<current_rubrics>`` block line
by line (json's pure-Python encoder, which ``indent`` forces, was most of the judge's own CPU).
The judge's prompt must not change by a byte: compared here with ``json.dumps`` on the rubrics
of every bundled task (English and Chinese), in every verdict state, and on arbitrary text.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from lifebench.vita.grading.rubric import NOT_EVALUATED, _RubricState, _state_json
from lifebench.vita.grading.rubrics import task_rubrics
from lifebench.vita.loader import available_bundled_tasks, load_bundled_tasks


def _reference(state: dict[str, _RubricState]) -> str:
    current = {
        key: {"rubric": s.rubric, "justification": s.justification, "meetExpectation": s.met}
        for key, s in state.items()
    }
    return json.dumps(current, ensure_ascii=False, indent=1)


def test_the_state_of_every_bundled_task_is_written_as_json_dumps() -> None:
    languages = set()
    checked = 0
    for task_set in ("demo", "generated"):
        for domain, language in available_bundled_tasks(task_set):
            for task in load_bundled_tasks(domain, language, task_set):
                rubrics = task_rubrics(task, "paraphrase")
                state = {f"rubric_{i}": _RubricState(r) for i, r in enumerate(rubrics)}
                assert _state_json(state) == _reference(state)
                for i, s in enumerate(state.values()):  # judged: verdicts and records
                    s.update(i % 2 == 0, f'window 1: {s.rubric[:20]} "quoted"\tdone')
                    s.update(i % 3 == 0, "window 2: 已确认 \\ ok")
                assert _state_json(state) == _reference(state)
                checked += 1
                languages.add(language)
    assert checked > 100 and languages == {"en", "zh"}


def test_an_empty_state_and_a_fresh_one() -> None:
    assert _state_json({}) == _reference({}) == "{}"
    state = {"rubric_0": _RubricState("Order the noodles")}
    assert _state_json(state) == (
        '{\n "rubric_0": {\n  "rubric": "Order the noodles",\n'
        f'  "justification": "{NOT_EVALUATED}",\n  "meetExpectation": false\n }}\n}}'
    )
    state["rubric_0"].update(True, "done")
    assert '"meetExpectation": true\n' in _state_json(state)


@given(
    st.lists(
        st.tuples(st.text(), st.booleans(), st.text()),
        max_size=6,
    ),
    st.lists(st.text(max_size=8), max_size=6),
)
def test_any_text_is_written_as_json_dumps(
    items: list[tuple[str, bool, str]], keys: list[str]
) -> None:
    state = {}
    for i, (rubric, met, note) in enumerate(items):
        key = keys[i] if i < len(keys) else f"rubric_{i}"
        state[key] = _RubricState(rubric, met, note)
    assert _state_json(state) == _reference(state)


def test_a_verdict_that_is_not_a_bool_is_written_as_json_writes_it() -> None:
    state = {"rubric_0": _RubricState("x", met=1)}  # type: ignore[arg-type]
    assert _state_json(state) == _reference(state)
    assert '"meetExpectation": 1\n' in _state_json(state)

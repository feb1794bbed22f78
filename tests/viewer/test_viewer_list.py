"""The viewer's simulation list: sort, filters (not passed, tag, evaluator result), search and
pages, through Starlette's test client over a 517-unit run."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reporting"))

from reporting_fakes import build_large_run, build_run
from starlette.testclient import TestClient

from lifebench._util.text import natural_key
from lifebench.viewer import create_app
from lifebench.viewer._data import DEFAULT_PAGE_SIZE, task_tags

TASKS, TRIALS = 47, 11


def _passes(i: int, trial: int) -> bool:  # the rule of build_large_run
    return (i + trial) % 3 != 0


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_large_run(tmp_path_factory.mktemp("large") / "run", tasks=TASKS, trials=TRIALS)


@pytest.fixture(scope="module")
def client(large: Path) -> TestClient:
    return TestClient(create_app([large], min_interval=0.0), base_url="http://127.0.0.1")


def _status(client: TestClient, **params: str) -> dict[str, Any]:
    response = client.get("/api/status", params=params)
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    return data


def _ids(data: dict[str, Any]) -> list[tuple[str, int]]:
    return [(r["task_id"], r["trial"]) for r in data["rows"]]


def test_tags_come_from_the_tasks_own_fields() -> None:
    tasks = {
        f"t{i}": json.dumps(
            {
                "id": f"t{i}",  # names each task: no tag
                "subset": ["single", "multi"][i % 2],
                "language": "en",  # the same everywhere: no tag
                "missing_tool": i == 1,  # a boolean: the name, when true
                "类别": "外卖" if i < 2 else "到店",
                "turn": i % 2 + 1,
                "query": "a long request text that no one would filter the list by, really",
                "environment": {"subset": "nested"},  # not top-level: no tag
            },
            ensure_ascii=False,
        )
        for i in range(4)
    }
    assert task_tags(tasks) == {
        "t0": ("subset=single", "turn=1", "类别=外卖"),
        "t1": ("missing_tool", "subset=multi", "turn=2", "类别=外卖"),
        "t2": ("subset=single", "turn=1", "类别=到店"),
        "t3": ("subset=multi", "turn=2", "类别=到店"),
    }
    assert task_tags({"a": "not json", "b": "[1]"}) == {"a": (), "b": ()}


def test_the_list_is_paged_and_every_unit_is_on_exactly_one_page(client: TestClient) -> None:
    first = _status(client)
    total = TASKS * TRIALS
    assert (first["total"], first["per"], first["page"]) == (total, DEFAULT_PAGE_SIZE, 1)
    assert first["pages"] == -(-total // DEFAULT_PAGE_SIZE) == 11
    assert len(first["rows"]) == DEFAULT_PAGE_SIZE and (first["first"], first["last"]) == (1, 50)
    seen = [u for n in range(1, first["pages"] + 1) for u in _ids(_status(client, page=str(n)))]
    assert len(seen) == total and len(set(seen)) == total
    # past the end: the last page; nonsense: the first; another page size
    assert (
        _status(client, page="99")["page"] == 11 and len(_status(client, page="99")["rows"]) == 17
    )
    assert _status(client, page="x")["page"] == 1
    assert len(_status(client, per="500")["rows"]) == 500
    assert _status(client, per="7")["per"] == DEFAULT_PAGE_SIZE  # not an offered size
    # the page shows one page of rows, with links to the others
    html = client.get("/", params={"page": "2"}).text
    assert html.count('<tr class="o-') == DEFAULT_PAGE_SIZE
    assert '<strong class="current" aria-current="page">2</strong>' in html
    assert 'rel="next" href="/?page=3"' in html and 'rel="prev" href="/?page=1"' in html
    assert '<span class="range">51–100</span> of <span class="matched">517</span>' in html


def test_task_ids_are_in_natural_order_by_default(client: TestClient) -> None:
    rows = [r for n in ("1", "2") for r in _status(client, per="500", page=n)["rows"]]
    tasks = list(dict.fromkeys(r["task_id"] for r in rows))
    assert tasks[:3] == ["L1", "L2", "L3"] and tasks[-1] == f"L{TASKS}"  # not L1, L10, L11
    assert sorted(tasks, key=natural_key) == tasks
    assert [r["trial"] for r in rows[:TRIALS]] == list(range(TRIALS))


def test_any_column_sorts_both_ways(client: TestClient) -> None:
    up = _status(client, sort="reward", per="500", q="")
    rewards = [r["reward"] for r in up["rows"]]
    assert rewards == sorted(rewards) and rewards[0] == 0.0
    down = [r["reward"] for r in _status(client, sort="-reward", per="500")["rows"]]
    assert down == sorted(down, reverse=True) and down[0] == 1.0
    by_task = [r["task_id"] for r in _status(client, sort="-task", per="500")["rows"]]
    assert by_task[0] == f"L{TASKS}" and by_task[-1] == "L2"  # L1 is on page 2
    trials = [r["trial"] for r in _status(client, sort="-trial")["rows"]]
    assert trials == [TRIALS - 1] * TASKS + [TRIALS - 2] * (DEFAULT_PAGE_SIZE - TASKS)
    # an unknown column keeps the default order
    assert _ids(_status(client, sort="nope")) == _ids(_status(client))
    # the header links sort, and a second click reverses
    html = client.get("/").text
    assert 'data-sort="reward" href="/?sort=reward"' in html
    html = client.get("/", params={"sort": "reward"}).text
    assert 'data-sort="reward" href="/?sort=-reward"' in html and "reward ▲" in html


def test_filters_not_passed_tag_and_evaluator_result(client: TestClient) -> None:
    failing = {
        (f"L{i}", k) for i in range(1, TASKS + 1) for k in range(TRIALS) if not _passes(i, k)
    }
    data = _status(client, failed="1", per="500")
    assert set(_ids(data)) == failing and data["total"] == len(failing)
    assert {r["outcome"] for r in data["rows"]} == {"fail"}
    # the evaluator's own result per basis: rubric failed exactly where the state failed here
    assert set(_ids(_status(client, result="rubric:fail", per="500"))) == failing
    assert _status(client, result="state:pass")["total"] == TASKS * TRIALS - len(failing)
    # tags
    multi = _status(client, tag="subset=multi", per="500")
    assert {r["task_id"] for r in multi["rows"]} == {f"L{i}" for i in range(1, TASKS + 1, 2)}
    assert all("subset=multi" in r["tags"] for r in multi["rows"])
    takeout = _status(client, tag="类别=外卖", per="500")
    assert {r["task_id"] for r in takeout["rows"]} == {f"L{i}" for i in range(3, TASKS + 1, 3)}
    both = _status(client, tag="missing_tool", failed="1", per="500")
    assert set(_ids(both)) == {(t, k) for t, k in failing if int(t[1:]) % 5 == 0}
    # the menus offer what the run has
    html = client.get("/").text
    for option in ("subset=multi", "missing_tool", "类别=到店", "rubric:fail", "state:pass"):
        assert f'<option value="{option}">' in html
    assert 'name="failed" value="1">' in html


def test_search_looks_in_ids_errors_criteria_and_tags(client: TestClient) -> None:
    assert {r["task_id"] for r in _status(client, q="l47")["rows"]} == {"L47"}
    # every word must match: a failed criterion's evidence and a tag
    hits = _status(client, q="expected paid 类别=外卖", per="500")
    assert hits["total"] > 0
    assert all(r["outcome"] == "fail" and "类别=外卖" in r["tags"] for r in hits["rows"])
    assert _status(client, q="no such words")["total"] == 0
    html = client.get("/", params={"q": "no such words"}).text
    assert "no simulation matches" in html and "0 matching" in html


def test_a_page_link_keeps_the_filters_and_a_new_filter_starts_at_page_one(
    client: TestClient,
) -> None:
    html = client.get("/", params={"failed": "1", "sort": "-turns", "page": "2"}).text
    links = re.findall(r'rel="next" href="([^"]+)"', html)
    assert links == ["/?failed=1&amp;sort=-turns&amp;page=3"] * 2  # top and bottom pagers
    # the form carries the order but not the page
    assert '<input type="hidden" name="sort" value="-turns">' in html
    assert 'name="page"' not in html


def test_a_small_run_has_one_page_and_no_pager_links(tmp_path: Path) -> None:
    run = build_run(tmp_path / "a")
    client = TestClient(create_app([run], min_interval=0.0), base_url="http://127.0.0.1")
    html = client.get("/").text
    assert 'rel="next"' not in html and "page-link" not in html
    assert _status(client)["pages"] == 1

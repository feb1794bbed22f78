"""Loading never refuses what the official harness tolerates: whitespace variants and unpadded
dates/times in time fields are normalised (with a lint warning naming file, task and field),
invisible characters are shown escaped in messages, and a task is refused only for a domain the
run's environment cannot serve."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lifebench._util.text import escape_invisible, normalise_spaces, space_variants
from lifebench.cli import app
from lifebench.errors import InputError
from lifebench.vita.lint import lint_tasks
from lifebench.vita.loader import load_bundled_tasks, load_tasks
from lifebench.vita.suite import VitaSuite
from lifebench.vita.timefmt import normalise_time, parse_time
from shared_data import shared_file

NBSP, IDEOGRAPHIC, NARROW_NBSP, THIN, ZWSP = "\u00a0", "\u3000", "\u202f", "\u2009", "\u200b"


def order(order_id: str, **times: str) -> dict[str, Any]:
    """An order record in the official shape (synthetic)."""
    return {
        "order_id": order_id,
        "order_type": "delivery",
        "user_id": "U1",
        "store_id": "S1",
        "note": "",
        "total_price": 12.0,
        "status": "paid",
        "products": [{"product_id": "P1", "price": 12.0, "quantity": 1, "attributes": ""}],
        "create_time": "2025-06-20 12:00:00",
        "update_time": "2025-06-20 12:00:00",
        **times,
    }


def task(task_id: str = "T1", time: str = "2025-06-21 11:20:00", **extra: Any) -> dict[str, Any]:
    """A small delivery task in the official format (synthetic)."""
    location = {"address": "10 Example Lane, Testville", "longitude": 120.1, "latitude": 30.2}
    store = {
        "store_id": "S1",
        "name": "Noodle House",
        "score": 4.5,
        "location": location,
        "tags": ["noodles"],
        "products": [
            {
                "product_id": "P1",
                "name": "Beef noodles",
                "store_id": "S1",
                "store_name": "Noodle House",
                "price": 12.0,
                "quantity": 5,
                "attributes": [],
                "tags": [],
            }
        ],
    }
    raw: dict[str, Any] = {
        "id": task_id,
        "domain": "delivery",
        "environment": {
            "time": time,
            "user_id": "U1",
            "location": [location],
            "weather": [
                {
                    "city": "Testville",
                    "category": "sunny",
                    "datetime": "2025-06-21",
                    "temperature": [20, 28],
                    "humidity": 60,
                }
            ],
            "stores": {"S1": store},
            "orders": {},
        },
        "user_scenario": {"user_profile": {"user id": "U1"}},
        "instructions": "Order one bowl of beef noodles to my home.",
        "evaluation_criteria": {
            "expected_states": [
                {
                    "required_orders": [order("NEW", dispatch_time="2025-06-21 11:30:00")],
                    "state_rubrics": ["one bowl of beef noodles is ordered"],
                }
            ],
            "overall_rubrics": ["one bowl of beef noodles is ordered"],
        },
    }
    raw.update(extra)
    return raw


def write(tmp_path: Path, tasks: list[dict[str, Any]], name: str = "tasks.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(tasks, ensure_ascii=False), encoding="utf-8")
    return path


# ---- the text helpers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (f"2025-06-21{NBSP}12:00:00", "2025-06-21\\u00a012:00:00"),
        (f"a{IDEOGRAPHIC}b{NARROW_NBSP}c{THIN}d", "a\\u3000b\\u202fc\\u2009d"),
        (f"x{ZWSP}y\ufeff", "x\\u200by\\ufeff"),
        ("tab\there\r", "tab\\there\\r"),
        ("plain text, two\nlines", "plain text, two\nlines"),
        ("中文　全角", "中文\\u3000全角"),
    ],
)
def test_escape_invisible(text: str, shown: str) -> None:
    assert escape_invisible(text) == shown


def test_normalise_spaces_and_their_names() -> None:
    text = f"  a{NBSP}b\t c{IDEOGRAPHIC}{ZWSP}d  "
    assert normalise_spaces(text) == "a b c d"
    assert space_variants(text) == [
        "U+00A0 NO-BREAK SPACE",
        "U+0009 CONTROL CHARACTER",
        "U+3000 IDEOGRAPHIC SPACE",
        "U+200B ZERO WIDTH SPACE",
        "repeated spaces",
        "leading or trailing spaces",
    ]
    assert space_variants("a b") == []


def test_input_error_shows_invisible_characters_escaped() -> None:
    error = InputError(f"got '12{NBSP}00'", file="f.json", task_id=f"T{NBSP}1", field="time")
    assert str(error) == "file f.json, task T\\u00a01, field time: got '12\\u00a000'"
    assert error.task_id == f"T{NBSP}1"  # the attribute keeps the raw value


# ---- one normalisation function ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical", "fix"),
    [
        (f"2025-06-21{NBSP}12:00:00", "2025-06-21 12:00:00", "U+00A0 NO-BREAK SPACE"),
        (f"2025-06-21{IDEOGRAPHIC}12:00:00", "2025-06-21 12:00:00", "U+3000 IDEOGRAPHIC SPACE"),
        (f"2025-06-21{NARROW_NBSP}12:00:00", "2025-06-21 12:00:00", "U+202F"),
        ("2025-06-21\t12:00:00", "2025-06-21 12:00:00", "U+0009"),
        ("2025-06-21  12:00:00", "2025-06-21 12:00:00", "repeated spaces"),
        (" 2025-06-21 12:00:00 ", "2025-06-21 12:00:00", "leading or trailing spaces"),
        ("2025-11-7 18:00:00", "2025-11-07 18:00:00", "unpadded date or time fields"),
        ("2025-6-21 9:05", "2025-06-21 09:05:00", "seconds missing"),
        ("2025-6-21", "2025-06-21", "unpadded date or time fields"),
    ],
)
def test_normalise_time(text: str, canonical: str, fix: str) -> None:
    read = normalise_time(text)
    assert read is not None and read.text == canonical
    assert any(fix in f for f in read.fixes), read.fixes
    assert parse_time(text) == read.value


@pytest.mark.parametrize(
    "text", ["2025-13-01 12:00:00", "2025-02-30", "25-06-21", "2025/06/21 12:00:00", "noon", ""]
)
def test_normalise_time_refuses_non_times(text: str) -> None:
    assert normalise_time(text) is None and parse_time(text) is None


def test_canonical_time_needs_no_fix() -> None:
    read = normalise_time("2025-06-21 12:00:00")
    assert read is not None and read.fixes == () and read.has_seconds


# ---- loading -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "time",
    [
        f"2025-06-21{NBSP}11:20:00",
        f"2025-06-21{IDEOGRAPHIC}11:20:00",
        f"2025-06-21{THIN}11:20:00",
        "2025-06-21\t11:20:00",
        "2025-06-21  11:20:00",
        "2025-6-21 11:20:00",
        "2025-6-21 11:20",
    ],
)
def test_clock_variants_load_with_a_warning(tmp_path: Path, time: str) -> None:
    path = write(tmp_path, [task(time=time), task("T2")])
    tasks = load_tasks(path)
    assert [t.id for t in tasks] == ["T1", "T2"]
    assert tasks[0].environment["time"] == "2025-06-21 11:20:00"
    warnings = [i for i in lint_tasks(tasks) if i.field == "environment.time"]
    assert len(warnings) == 1
    (warning,) = warnings
    assert warning.severity == "warning" and warning.task_id == "T1"
    assert str(path) in warning.message and "2025-06-21 11:20:00" in warning.message
    assert escape_invisible(warning.message) == warning.message  # odd spaces shown escaped
    assert not tasks[1].load_notes


def test_every_time_field_is_normalised(tmp_path: Path) -> None:
    raw = task()
    env = raw["environment"]
    env["orders"] = {"O1": order("O1", create_time=f"2025-6-20{NBSP}12:00:00")}
    env["weather"][0]["datetime"] = "2025-6-21"
    state = raw["evaluation_criteria"]["expected_states"][0]
    state["required_orders"][0]["dispatch_time"] = "2025-6-21 11:30"
    state["required_orders"].append(
        {"book_id": "B1", "shop_id": "S9", "book_time": "2025-6-22 9:5:0", "status": "paid"}
    )
    (loaded,) = load_tasks(write(tmp_path, [raw]))
    assert loaded.environment["orders"]["O1"]["create_time"] == "2025-06-20 12:00:00"
    assert loaded.environment["weather"][0]["datetime"] == "2025-06-21"
    assert loaded.evaluation_criteria is not None
    records = loaded.evaluation_criteria.expected_states[0].required_orders
    assert records[0]["dispatch_time"] == "2025-06-21 11:30:00"
    assert records[1]["book_time"] == "2025-06-22 09:05:00"
    fields = {n.field for n in loaded.load_notes}
    assert fields == {
        "environment.orders.O1.create_time",
        "environment.weather[0].datetime",
        "evaluation_criteria.expected_states[0].required_orders[0].dispatch_time",
        "evaluation_criteria.expected_states[0].required_orders[1].book_time",
    }


def test_ota_product_dates_are_normalised(tmp_path: Path) -> None:
    raw = task(domain="ota")
    raw["environment"]["hotels"] = {
        "H1": {"hotel_id": "H1", "products": [{"product_id": "R1", "date": "2025-6-22"}]}
    }
    (loaded,) = load_tasks(write(tmp_path, [raw]))
    assert loaded.environment["hotels"]["H1"]["products"][0]["date"] == "2025-06-22"
    assert [n.field for n in loaded.load_notes] == ["environment.hotels.H1.products[0].date"]


def test_time_in_a_field_of_the_other_kind_is_left_as_written(tmp_path: Path) -> None:
    raw = task()
    raw["environment"]["weather"][0]["datetime"] = "2025-06-21 00:00:00"  # a moment, not a day
    (loaded,) = load_tasks(write(tmp_path, [raw]))
    assert loaded.environment["weather"][0]["datetime"] == "2025-06-21 00:00:00"
    assert not loaded.load_notes


def test_a_bad_clock_is_still_refused_and_shown_escaped(tmp_path: Path) -> None:
    path = write(tmp_path, [task(time=f"2025-13-21{NBSP}11:20:00")])
    with pytest.raises(InputError) as info:
        load_tasks(path)
    message = str(info.value)
    assert "task T1, field environment.time" in message and str(path) in message
    assert "2025-13-21\\u00a011:20:00" in message and NBSP not in message


def test_a_bare_day_is_no_clock(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="a date and a time"):
        load_tasks(write(tmp_path, [task(time="2025-06-21")]))


def test_validate_cli_reports_the_normalisation(tmp_path: Path) -> None:
    path = write(tmp_path, [task(time=f"2025-06-21{NBSP}11:20:00")])
    result = CliRunner().invoke(app, ["tasks", "validate", str(path), "--json"])
    assert result.exit_code == 0, result.output
    issues = json.loads(result.stdout)
    (issue,) = [i for i in issues if i["field"] == "environment.time"]
    assert issue["severity"] == "warning" and issue["task_id"] == "T1"
    assert "\\u00a0" in issue["message"] and str(path) in issue["message"]


# ---- the official samples --------------------------------------------------------------------


@pytest.mark.parametrize("name", ["delivery_tasks_en.json", "instore_tasks_en.json"])
def test_official_samples_load_with_the_same_tasks(name: str) -> None:
    path = shared_file("vitabench", name)
    raw = json.loads(path.read_text(encoding="utf-8"))
    tasks = load_tasks(path)
    assert [t.id for t in tasks] == [r["id"] for r in raw]
    for t in tasks:
        assert parse_time(t.environment["time"]) is not None
        for note in t.load_notes:
            assert name in note.message


def test_official_instore_sample_unpadded_book_time_is_fixed() -> None:
    tasks = {t.id: t for t in load_tasks(shared_file("vitabench", "instore_tasks_en.json"))}
    notes = {n.field: n.message for n in tasks["10826033"].load_notes}
    field = "evaluation_criteria.expected_states[0].required_orders[3].book_time"
    assert "'2024-12-2 18:00:00' normalised to '2024-12-02 18:00:00'" in notes[field]


# ---- the task's domain ---------------------------------------------------------------------------


def instore_tasks(tmp_path: Path, label: str = "in-store consumption") -> Path:
    bundled = [t.model_dump(mode="json") for t in load_bundled_tasks("instore", "en", "demo")]
    for t in bundled:
        t["domain"] = label
    return write(tmp_path, bundled, "instore.json")


def test_wrong_domain_is_refused_naming_file_task_and_field(tmp_path: Path) -> None:
    path = instore_tasks(tmp_path)
    with pytest.raises(InputError) as info:
        VitaSuite().load_tasks(path, "delivery", "en")
    error = info.value
    first = json.loads(path.read_text())[0]["id"]
    assert (error.file, error.task_id, error.field) == (str(path), first, "domain")
    assert "instore" in str(error) and "--domain delivery" in str(error)


@pytest.mark.parametrize("domain", ["instore", "cross"])
def test_the_same_file_loads_where_it_can_be_served(tmp_path: Path, domain: str) -> None:
    assert len(VitaSuite().load_tasks(instore_tasks(tmp_path), domain, "en")) >= 1


def test_a_task_without_label_is_placed_by_its_tables(tmp_path: Path) -> None:
    path = instore_tasks(tmp_path, label="")
    with pytest.raises(InputError, match="by its tables"):
        VitaSuite().load_tasks(path, "ota", "en")
    assert VitaSuite().resolve_domain(path, None) == "instore"


@pytest.mark.parametrize(
    ("labels", "expected"),
    [
        (["instore", "in-store", "in-store consumption"], "instore"),
        (["delivery"], "delivery"),
        (["OTA"], "ota"),
        (["delivery", "instore"], "cross"),
        (["delivery,instore,ota"], "cross"),
        (["cross_domain"], "cross"),
    ],
)
def test_resolve_domain_from_the_file(tmp_path: Path, labels: list[str], expected: str) -> None:
    tasks = []
    for i, label in enumerate(labels):
        t = task(f"T{i}")
        t["domain"] = label
        t["environment"].pop("stores")  # no provider table: the label alone decides
        tasks.append(t)
    assert VitaSuite().resolve_domain(write(tmp_path, tasks), None) == expected


@pytest.mark.parametrize(
    ("label", "words"),
    [
        ("moon", "is not a VitaBench domain"),
        ("instore", "the label says instore, but the task fills the provider tables of the "
                    "delivery domain"),
        ("OTA", "the label says ota"),
    ],
)  # fmt: skip
def test_a_label_naming_no_domain_or_another_than_the_tables_is_refused(
    tmp_path: Path, label: str, words: str
) -> None:
    t = task("T1")
    t["domain"] = label
    with pytest.raises(InputError) as info:
        VitaSuite().load_tasks(write(tmp_path, [t]), "cross", "en")
    assert (info.value.task_id, info.value.field) == ("T1", "domain")
    assert words in str(info.value)


def test_resolve_domain_defaults_and_overrides(tmp_path: Path) -> None:
    suite = VitaSuite()
    assert suite.resolve_domain(None, None) == "delivery"
    assert suite.resolve_domain(instore_tasks(tmp_path), "cross") == "cross"
    with pytest.raises(InputError, match="moon"):
        suite.resolve_domain(None, "moon")


def test_run_refuses_the_wrong_domain_before_any_unit(tmp_path: Path) -> None:
    path, out = instore_tasks(tmp_path), tmp_path / "run"
    args = ["run", "--tasks", str(path), "--domain", "delivery", "--out", str(out), "--quiet"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "field domain" in result.stderr and str(path) in result.stderr
    assert not out.exists()


def test_run_uses_the_domain_the_file_declares(tmp_path: Path) -> None:
    path, out = instore_tasks(tmp_path), tmp_path / "run"
    args = ["run", "--tasks", str(path), "--num-tasks", "1", "--out", str(out), "--quiet"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    report = json.loads((out / "report.json").read_text())
    assert report["config"]["domain"] == "instore"
    assert report["pass_hat_k"]["1"] == 1.0  # the oracle solves it in the right environment


def test_tools_call_uses_the_domain_the_file_declares(tmp_path: Path) -> None:
    path = instore_tasks(tmp_path)
    first = json.loads(path.read_text())[0]
    user = first["environment"]["user_id"]
    args = ["tools", "call", "get_instore_orders", json.dumps({"user_id": user})]
    result = CliRunner().invoke(app, [*args, "--tasks", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["error"] is None


def test_official_instore_sample_resolves_to_instore() -> None:
    path = shared_file("vitabench", "instore_tasks_en.json")
    assert VitaSuite().resolve_domain(path, None) == "instore"
    raw = copy.deepcopy(json.loads(path.read_text(encoding="utf-8")))
    assert {r["domain"] for r in raw} == {"instore", "in-store", "in-store consumption"}


def test_official_sample_with_nbsp_clocks_loads_every_task(tmp_path: Path) -> None:
    """As in the official Chinese delivery file: NBSP between date and time in two clocks."""
    raw = json.loads(shared_file("vitabench", "delivery_tasks_en.json").read_text("utf-8"))
    for task_raw in raw[:2]:
        task_raw["environment"]["time"] = task_raw["environment"]["time"].replace(" ", NBSP)
    path = write(tmp_path, raw, "delivery_nbsp.json")
    result = CliRunner().invoke(app, ["tasks", "validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "60 tasks OK" in result.stdout
    clock_lines = [ln for ln in result.stderr.splitlines() if "environment.time" in ln]
    assert len(clock_lines) == 2 and all("\\u00a0" in ln for ln in clock_lines)
    assert NBSP not in result.stderr

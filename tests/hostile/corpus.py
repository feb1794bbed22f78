"""The hostile-input corpus: one table of cases, generated where possible from the files' own
structure (for each field of a valid task of each suite: a wrong type, a non-finite number, an
empty value, a lone surrogate), plus whole-file cases (BOM, empty, not UTF-8, FIFO, devices,
oversized, deep nesting, duplicate keys, ...) for every suite, models and sweep files, and
options. Each case says the exact exit code and what the message must name.

A case is accepted (exit 0) only where the behaviour is documented: ``ACCEPTED`` says why.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

Build = Callable[[Path], list[str]]
"""Writes the case's files under a directory and returns the CLI arguments."""


@dataclass(frozen=True)
class Case:
    id: str
    build: Build
    exit_code: int
    names: tuple[str, ...] = ()
    """Texts the message must contain (file name, field, line...)."""
    file: str | None = None
    """The file the message must name (its base name), if any."""
    input: str | None = field(default=None)


def _packaged(suite: str, *parts: str) -> str:
    return resources.files(f"lifebench.{suite}").joinpath("data", *parts).read_text("utf-8")


def valid_records() -> dict[str, tuple[dict[str, Any], str]]:
    """One valid record of each suite's task files, and the file name it is written to."""
    vita = json.loads(_packaged("vita", "delivery_en.json"))[0]
    travel_single = json.loads(_packaged("travel", "single.en.jsonl").splitlines()[0])
    travel_multi = json.loads(_packaged("travel", "multi.en.jsonl").splitlines()[0])
    flow = json.loads(_packaged("flow", "session", "en", "single.jsonl").splitlines()[0])
    return {
        "vita": (vita, "tasks.json"),
        "travel-single": (travel_single, "single.en.jsonl"),
        "travel-multi": (travel_multi, "multi.en.jsonl"),
        "flow": (flow, "session.jsonl"),
    }


_SUITE = {"vita": "vita", "travel-single": "travel", "travel-multi": "travel", "flow": "flow"}


def _write_records(directory: Path, name: str, record: Any, raw: str | None = None) -> Path:
    path = directory / name
    text = raw if raw is not None else json.dumps(record, ensure_ascii=False)
    if name.endswith(".json"):
        text = f"[{text}]"
    path.write_text(text + "\n", encoding="utf-8")
    return path


def _validate(kind: str, name: str, record: Any, raw: str | None = None) -> Build:
    def build(directory: Path) -> list[str]:
        path = _write_records(directory, name, record, raw)
        return ["tasks", "validate", str(path), "--suite", _SUITE[kind]]

    return build


def _wrong_type(value: Any) -> Any:
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, str):
        return {"not": "a string"}
    if isinstance(value, (int, float)):
        return "twelve"
    if isinstance(value, list):
        return "not a list"
    if isinstance(value, dict):
        return [1, 2]
    return {"x": 1}


def _empty(value: Any) -> Any:
    if isinstance(value, str):
        return ""
    if isinstance(value, list):
        return []
    if isinstance(value, dict):
        return {}
    return None


_OPTIONAL = "optional in the official format"
ACCEPTED: dict[str, tuple[str, str]] = {
    # case id: (why it is accepted, the finding the output must show: '' for none)
    "vita:domain:empty": ("the task's provider tables decide the domain", ""),
    "vita:domain:missing": ("the task's provider tables decide the domain", ""),
    "vita:message_history:empty": (f"{_OPTIONAL}: no earlier messages", ""),
    "vita:message_history:missing": (f"{_OPTIONAL}: no earlier messages", ""),
    "vita:user_scenario:empty": (f"{_OPTIONAL}: the user simulator has no persona", ""),
    "vita:user_scenario:missing": (f"{_OPTIONAL}: the user simulator has no persona", ""),
    "vita:instructions:empty": ("a lint error (--strict exits 1)", "instructions are empty"),
    "vita:instructions:missing": ("a lint error (--strict exits 1)", "instructions are empty"),
    "vita:evaluation_criteria:empty": ("a lint error: ungradable", "no rubrics at all"),
    "vita:evaluation_criteria:missing": ("a lint error: ungradable", "no evaluation criteria"),
    "flow:apis:empty": ("function_agent.functions_with_response gives the tools", ""),
    "flow:apis:missing": ("function_agent.functions_with_response gives the tools", ""),
    "flow:datetime:empty": (f"{_OPTIONAL}: the session has no date", ""),
    "flow:datetime:missing": (f"{_OPTIONAL}: the session has no date", ""),
    "flow:assistant_agent:empty": (f"{_OPTIONAL}: the scenario's own prompt is built", ""),
    "flow:assistant_agent:missing": (f"{_OPTIONAL}: the scenario's own prompt is built", ""),
    "flow:assistant_prompt:empty": (f"{_OPTIONAL}: the judge's copy of the prompt", ""),
    "flow:assistant_prompt:missing": (f"{_OPTIONAL}: the judge's copy of the prompt", ""),
    "flow:function_agent:empty": (
        "apis give the tools; the simulator answers",
        "no recorded output",
    ),
    "flow:function_agent:missing": (
        "apis give the tools; the simulator answers",
        "no recorded output",
    ),
    "flow:user_target:empty": (f"{_OPTIONAL}: the user follows the gold session", ""),
    "flow:user_target:missing": (f"{_OPTIONAL}: the user follows the gold session", ""),
    "flow:gt_actions_string:empty": ("a lint warning: ungradable offline", "no gold calls"),
    "flow:gt_actions_string:missing": ("a lint warning: ungradable offline", "no gold calls"),
    "flow:lifebench:empty": ("lifebench's own metadata, optional", ""),
    "flow:lifebench:missing": ("lifebench's own metadata, optional", ""),
}
for _kind in ("travel-single", "travel-multi"):
    for _field, _why, _finding in (
        ("trace_id", "an empty trace id is the row's position", ""),
        ("primary_intent", f"{_OPTIONAL}: a label of the row", ""),
        ("missing_tool", f"{_OPTIONAL}: a label of unsolvable rows", ""),
        ("missing_info", f"{_OPTIONAL}: a label of unsolvable rows", ""),
        ("no_actionable", f"{_OPTIONAL}: a label of unsolvable rows", ""),
        ("avg_tool_calls", f"{_OPTIONAL}: a statistic of the row", ""),
        ("context", "a lint warning: no start location", "no context"),
    ):
        for _label in ("empty", "missing"):
            ACCEPTED[f"{_kind}:{_field}:{_label}"] = (_why, _finding)
ACCEPTED["travel-single:intent:empty"] = (f"{_OPTIONAL} in single-turn rows", "")
ACCEPTED["travel-single:intent:missing"] = (f"{_OPTIONAL} in single-turn rows", "")
ACCEPTED["travel-multi:intent:empty"] = ("a lint warning: the profile alone", "without intent")
ACCEPTED["travel-multi:intent:missing"] = ("a lint warning: the profile alone", "without intent")
for _kind in ("travel-single", "travel-multi"):
    ACCEPTED.pop(f"{_kind}:trace_id:missing")  # refused: a row needs its id
    for _field in ("missing_tool", "missing_info", "no_actionable"):
        ACCEPTED.pop(f"{_kind}:{_field}:empty")  # refused: a label is true or false


def field_cases() -> list[Case]:
    """For each top-level field of a valid record of each suite: a wrong type, NaN, Infinity,
    a lone surrogate and an empty value."""
    cases: list[Case] = []
    for kind, (record, name) in valid_records().items():
        for key in record:

            def variant(new: Any, _key: str = key, _record: dict[str, Any] = record) -> Any:
                return {**_record, _key: new}

            marker = "__HOSTILE__"
            raw_nan = json.dumps(variant(marker), ensure_ascii=False).replace(f'"{marker}"', "NaN")
            raw_inf = json.dumps(variant(marker), ensure_ascii=False).replace(
                f'"{marker}"', "-Infinity"
            )
            raw_sur = json.dumps(variant(marker), ensure_ascii=False).replace(
                f'"{marker}"', '"a\\ud800b"'
            )
            for label, build, code in (
                ("wrong-type", _validate(kind, name, variant(_wrong_type(record[key]))), 2),
                ("nan", _validate(kind, name, None, raw_nan), 2),
                ("-infinity", _validate(kind, name, None, raw_inf), 2),
                ("surrogate", _validate(kind, name, None, raw_sur), 2),
                ("empty", _validate(kind, name, variant(_empty(record[key]))), 2),
                (
                    "missing",
                    _validate(kind, name, {k: v for k, v in record.items() if k != key}),
                    2,
                ),
            ):
                case_id = f"{kind}:{key}:{label}"
                names: tuple[str, ...] = (key,)
                if case_id in ACCEPTED:
                    code, finding = 0, ACCEPTED[case_id][1]
                    names = (finding,) if finding else ()
                cases.append(Case(case_id, build, code, names, name))
    return cases


def _file(name: str, content: bytes) -> Callable[[Path], Path]:
    def write(directory: Path) -> Path:
        path = directory / name
        path.write_bytes(content)
        return path

    return write


def _fifo(name: str) -> Callable[[Path], Path]:
    def make(directory: Path) -> Path:
        path = directory / name
        os.mkfifo(path)
        return path

    return make


def _sparse(name: str, size: int) -> Callable[[Path], Path]:
    def make(directory: Path) -> Path:
        path = directory / name
        with path.open("wb") as handle:
            handle.truncate(size)
        return path

    return make


def _device(path: str) -> Callable[[Path], Path]:
    return lambda directory: Path(path)


def _directory(name: str) -> Callable[[Path], Path]:
    def make(directory: Path) -> Path:
        path = directory / name
        path.mkdir()
        return path

    return make


def whole_file_cases() -> list[Case]:
    """File-level faults, the same for every suite (one reader in the core)."""
    from lifebench._util.inputs import MAX_TASK_FILE_BYTES

    records = valid_records()
    cases: list[Case] = []
    for kind, (record, name) in records.items():
        suite = _SUITE[kind]
        valid = json.dumps(record, ensure_ascii=False)
        text = f"[{valid}]" if name.endswith(".json") else valid
        faults: dict[str, tuple[Callable[[Path], Path], int, tuple[str, ...]]] = {
            "bom": (_file(name, b"\xef\xbb\xbf" + text.encode()), 0, ()),
            "empty": (_file(name, b""), 2, ("empty",)),
            "blank": (_file(name, b" \n\t\n"), 2, ("empty",)),
            "empty-array": (_file(name, b"[]"), 2, ()),
            "not-json": (_file(name, b"hello world"), 2, ("line 1",)),
            "truncated": (_file(name, text[: len(text) // 2].encode()), 2, ("line",)),
            "latin-1": (_file(name, text.encode() + "\ncafé".encode("latin-1")), 2, ("UTF-8",)),
            "utf-16": (_file(name, text.encode("utf-16")), 2, ("UTF-16",)),
            "nul-bytes": (_file(name, b"\x00" * 64), 2, ()),
            "deep-nesting": (_file(name, b"[" * 100_000 + b"]" * 100_000), 2, ()),
            "duplicate-key": (
                _file(name, (text.replace("{", '{"zz_dup": 1, "zz_dup": 2, ', 1)).encode()),
                2,
                ("zz_dup",),
            ),
            "huge-number": (
                _file(name, text.replace("{", '{"zz_big": 1e999, ', 1).encode()),
                2,
                ("zz_big",),
            ),
            "raw-surrogate-bytes": (
                _file(name, text.encode()[:-2] + b"\xed\xa0\x80" + text.encode()[-2:]),
                2,
                ("UTF-8",),
            ),
            "fifo": (_fifo(name), 2, ("FIFO",)),
            "directory": (_directory(name), 2, ()),
            "oversized": (_sparse(name, MAX_TASK_FILE_BYTES + 1), 2, ("MiB",)),
            "dev-zero": (_device("/dev/zero"), 2, ("character device",)),
            "dev-urandom": (_device("/dev/urandom"), 2, ("character device",)),
            "missing": (lambda d, _n=name: d / ("absent-" + _n), 2, ("absent-",)),
            "scalar": (_file(name, b"42"), 2, ()),
        }
        for label, (make, code, names) in faults.items():

            def build(directory: Path, _make: Any = make, _suite: str = suite) -> list[str]:
                return ["tasks", "validate", str(_make(directory)), "--suite", _suite]

            file = None if label in ("dev-zero", "dev-urandom") else name
            cases.append(Case(f"{kind}:file:{label}", build, code, names, file))
    return cases


VALID_MODEL = {
    "model": "m",
    "base_url": "http://127.0.0.1:9/v1",
    "api_key_env": None,
}


def _models_run(content: str, name: str = "models.yaml") -> Build:
    def build(directory: Path) -> list[str]:
        path = directory / name
        path.write_text(content, encoding="utf-8")
        return ["run", "--task-set", "demo", "--models", str(path), "--agent-model", "a",
                "--out", str(directory / "run"), "--quiet"]  # fmt: skip

    return build


def _yaml_entry(**changes: str) -> str:
    lines = {"model": "m", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "null", **changes}
    return "models:\n  a:\n" + "".join(f"    {k}: {v}\n" for k, v in lines.items())


def models_cases() -> list[Case]:
    laughs = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    )
    table: dict[str, tuple[str, tuple[str, ...], str]] = {
        "billion-laughs": (laughs, ("alias",), "models.yaml"),
        "alias-simple": (
            "x: &k http://h/v1\nmodels:\n  a:\n    model: m\n    base_url: *k\n",
            ("alias",),
            "models.yaml",
        ),
        "duplicate-key": (_yaml_entry() + "    model: n\n", ("model",), "models.yaml"),
        "duplicate-top": (_yaml_entry() + _yaml_entry(), ("models",), "models.yaml"),
        "timeout-inf": (_yaml_entry(timeout_s=".inf"), ("line 6", "finite"), "models.yaml"),
        "timeout-nan": (_yaml_entry(timeout_s=".nan"), ("line 6", "finite"), "models.yaml"),
        "timeout-negative": (_yaml_entry(timeout_s="-1"), ("timeout_s",), "models.yaml"),
        "timeout-zero": (_yaml_entry(timeout_s="0"), ("timeout_s",), "models.yaml"),
        "price-nan": (
            _yaml_entry(price="{input_per_mtok: .nan, output_per_mtok: 1}"),
            ("price",),
            "models.yaml",
        ),
        "price-inf": (
            _yaml_entry(price="{input_per_mtok: .inf, output_per_mtok: 1}"),
            ("price",),
            "models.yaml",
        ),
        "price-negative": (
            _yaml_entry(price="{input_per_mtok: -1, output_per_mtok: 1}"),
            ("price",),
            "models.yaml",
        ),
        "base-url-ftp": (_yaml_entry(base_url="ftp://h/v1"), ("base_url",), "models.yaml"),
        "base-url-words": (_yaml_entry(base_url="'not a url'"), ("base_url",), "models.yaml"),
        "base-url-empty": (_yaml_entry(base_url="''"), ("base_url",), "models.yaml"),
        "base-url-no-host": (_yaml_entry(base_url="'http:///v1'"), ("base_url",), "models.yaml"),
        "base-url-list": (_yaml_entry(base_url="[a, b]"), ("base_url",), "models.yaml"),
        "retries-huge": (
            _yaml_entry(retry="{max_attempts: 1000000000}"),
            ("max_attempts",),
            "models.yaml",
        ),
        "retries-zero": (_yaml_entry(retry="{max_attempts: 0}"), ("max_attempts",), "models.yaml"),
        "model-number": (_yaml_entry(model="12"), ("model",), "models.yaml"),
        "model-empty": (_yaml_entry(model="''"), ("model",), "models.yaml"),
        "empty-file": ("", ("empty",), "models.yaml"),
        "list": ("- a\n- b\n", ("models.yaml",), "models.yaml"),
        "models-list": ("models: [a, b]\n", ("models",), "models.yaml"),
        "surrogate": (_yaml_entry(model='"a\\ud800"'), ("surrogate",), "models.yaml"),
        "tab-indent": ("models:\n\ta: 1\n", ("line",), "models.yaml"),
        "json-nan": (
            '{"models": {"a": {"model": "m", "base_url": "http://h/v1", "timeout_s": NaN}}}',
            ("timeout_s",),
            "models.json",
        ),
        "json-duplicate": (
            '{"models": {"a": {"model": "m", "model": "n", "base_url": "http://h/v1"}}}',
            ("model",),
            "models.json",
        ),
        "yaml-tag": ("models: !!python/object:os.system {}\n", ("line",), "models.yaml"),
        "unknown-model-name": (_yaml_entry().replace("  a:", "  b:"), ("a",), "models.yaml"),
    }
    return [
        Case(f"models:{label}", _models_run(content, name), 2, names, name)
        for label, (content, names, name) in table.items()
    ]


def _sweep(content: str, name: str = "sweep.yaml") -> Build:
    def build(directory: Path) -> list[str]:
        path = directory / name
        path.write_text(content, encoding="utf-8")
        return ["sweep", str(path), "--dry-run", "--out", str(directory / "sweep")]

    return build


def sweep_cases() -> list[Case]:
    # six real options of ten values each: 10^6 cells, refused before any cell is built
    names = ("seed", "trials", "num_tasks", "max_steps", "max_errors", "user_seeds")
    axes = "".join(f"  {n}: [{', '.join(str(j) for j in range(1, 11))}]\n" for n in names)
    table: dict[str, tuple[str, tuple[str, ...]]] = {
        "million-cells": ("grid:\n" + axes, ("cells",)),
        "billion-laughs": (
            "a: &a [1, 1, 1, 1, 1, 1, 1, 1]\nb: &b [*a, *a, *a, *a, *a, *a, *a]\ngrid:\n  seed: *b\n",
            ("alias",),
        ),
        "duplicate-key": ("name: a\nname: b\n", ("name",)),
        "workers-huge": ("workers: 1000000000\n", ("workers",)),
        "workers-zero": ("workers: 0\n", ("workers",)),
        "concurrency-huge": ("concurrency: 1000000000000\n", ("concurrency",)),
        "grid-nan": ("grid:\n  temperature: [.nan]\n", ("line 2", "finite")),
        "grid-inf": ("grid:\n  temperature: [.inf]\n", ("line 2", "finite")),
        "base-trials-huge": ("base:\n  trials: 1000000000000\n", ("trials",)),
        "base-num-tasks-negative": ("base:\n  num_tasks: -1\n", ("num-tasks",)),
        "empty": ("", ("empty",)),
        "list": ("- 1\n", ("sweep.yaml",)),
        "grid-not-mapping": ("grid: [1, 2]\n", ("grid",)),
        "grid-axis-empty": ("grid:\n  seed: []\n", ("seed",)),
        "backend-unknown": ("backend: moon\n", ("backend",)),
        "surrogate": ('name: "a\\ud800"\n', ("surrogate",)),
    }
    return [
        Case(f"sweep:{label}", _sweep(content), 2, names, "sweep.yaml")
        for label, (content, names) in table.items()
    ]


def _run(*args: str) -> Build:
    def build(directory: Path) -> list[str]:
        return ["run", "--task-set", "demo", "--out", str(directory / "run"), "--quiet", *args]

    return build


def _run_tasks(make: Callable[[Path], Path]) -> Build:
    def build(directory: Path) -> list[str]:
        return ["run", "--tasks", str(make(directory)), "--out", str(directory / "run"), "--quiet"]

    return build


def option_cases() -> list[Case]:
    table: dict[str, tuple[tuple[str, ...], int, tuple[str, ...]]] = {
        "num-tasks-negative": (("--num-tasks", "-1"), 2, ("num-tasks",)),
        "num-tasks-zero": (("--num-tasks", "0"), 2, ("num-tasks",)),
        "trials-huge": (("--trials", str(10**12)), 2, ("trials",)),
        "trials-zero": (("--trials", "0"), 2, ("trials",)),
        "temperature-nan": (("--temperature", "nan"), 2, ("temperature",)),
        "temperature-inf": (("--temperature", "inf"), 2, ("temperature",)),
        "temperature-negative": (("--temperature", "-1"), 2, ("temperature",)),
        "max-steps-zero": (("--max-steps", "0"), 2, ("max-steps",)),
        "max-steps-huge": (("--max-steps", str(10**12)), 2, ("max-steps",)),
        "max-errors-zero": (("--max-errors", "0"), 2, ("max-errors",)),
        "workers-zero": (("--workers", "0"), 2, ("workers",)),
        "workers-huge": (("--workers", "100000"), 2, ("workers",)),
        "concurrency-zero": (("--concurrency", "0"), 2, ("concurrency",)),
        "concurrency-huge": (("--concurrency", str(10**12)), 2, ("concurrency",)),
        "seed-huge": (("--seed", str(2**70)), 2, ("seed",)),
        "task-ids-unknown": (("--task-ids", "no-such-task"), 2, ("no-such-task",)),
        "task-ids-surrogate": (("--task-ids", "a\udcff"), 2, ("UTF-8",)),
        "agent-model-surrogate": (
            ("--agent-model", "m\udcff@http://127.0.0.1:9/v1"),
            2,
            ("UTF-8",),
        ),
        "agent-model-ftp": (("--agent-model", "m@ftp://127.0.0.1:9/v1"), 2, ("agent",)),
        "language-unknown": (("--language", "xx"), 2, ("language",)),
        "backend-unknown": (("--backend", "moon"), 2, ("backend",)),
        "suite-unknown": (("--suite", "moon"), 2, ("moon",)),
        "models-missing": (("--models", "/nonexistent/models.yaml"), 2, ("models.yaml",)),
    }
    cases = [
        Case(f"option:{label}", _run(*args), code, names)
        for label, (args, code, names) in table.items()
    ]
    for label, make in {
        "tasks-dev-zero": _device("/dev/zero"),
        "tasks-dev-urandom": _device("/dev/urandom"),
        "tasks-fifo": _fifo("tasks.json"),
        "tasks-directory-empty": _directory("tasks.d"),
        "tasks-empty-array": _file("tasks.json", b"[]"),
        "tasks-oversized": _sparse("tasks.json", 512 * 2**20 + 1),
    }.items():
        cases.append(Case(f"option:{label}", _run_tasks(make), 2, ()))
    cases.append(Case("option:out-is-a-file", _run("--out", "/dev/null"), 4, ("/dev/null",)))
    return cases


def all_cases() -> list[Case]:
    return field_cases() + whole_file_cases() + models_cases() + sweep_cases() + option_cases()

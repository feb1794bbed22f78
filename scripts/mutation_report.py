"""Summarise a mutmut run per module, honestly, with the equivalent mutants annotated.

Usage (from the repository root, after ``mutmut run``; ``scripts/mutation.sh`` does both)::

    python scripts/mutation_report.py [--rerun] MODULE_PATH...

Reads the results mutmut keeps next to the mutated copies (``mutants/<path>.meta``), asks
``mutmut show`` for the change each surviving mutant makes, and looks the change up in
``scripts/mutation-equivalent.toml``.

A mutant is *killed* only when its tests ran and one failed (pytest exit status 1). What else
can happen is counted apart, never as a kill:

* *timeout*: the tests did not finish in mutmut's time limit (CPU or wall clock);
* *error*: the worker could not tell: pytest could not select the tests (usage error, e.g. a
  test id it cannot re-select, or nothing collected), pytest crashed or was interrupted, or the
  worker process itself failed (mutmut's fork-server workers exit 255 on any exception);
* *not run*: no result yet.

With ``--rerun`` every timeout and error is run once more in a fresh process (``python -m
pytest`` in ``mutants/`` with the mutant active and a generous wall-clock limit) and then
classified by that run: failed → killed, passed → survived, still no answer → timeout or
error. Re-runs are remembered in ``mutants/mutation-reruns.json`` (a mutant is re-run again only
when mutmut has tested it again since).

Prints, per module, the counts, every surviving mutant with its change and key (the key to
annotate it with if it is equivalent), every equivalent one with its reason, every timeout and
error with what happened, annotations that no longer match a survivor, and ends with one line
per module and a total::

    mutation PATH killed=K survived=S equivalent=E timeout=T error=R not_run=N score=P
    mutation TOTAL killed=K survived=S equivalent=E timeout=T error=R not_run=N score=P

where P = K / (K + S) in percent (mutants no test covers count as survived; timeouts and
errors are not in the score). Exit status 0 when every mutant was classified; 1 when errors or
unrun mutants remain, or timeouts and errors were not re-run (the report is then not complete).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

EQUIVALENT_FILE = Path("scripts/mutation-equivalent.toml")
MUTANTS = Path("mutants")
RERUNS_FILE = MUTANTS / "mutation-reruns.json"
KILLED = "killed"
SURVIVED = "survived"
TIMEOUT = "timeout"
ERROR = "error"
NOT_RUN = "not run"
NOT_COUNTED = "not counted"
KILLED_CODES = frozenset({1})  # pytest: tests ran and at least one failed
SURVIVED_CODES = frozenset({0, 33})  # passed; no test covers the mutant (mutmut's 33)
TIMEOUT_CODES = frozenset({36, 24, -24, 152, -9})  # mutmut's limits: SIGXCPU, then SIGKILL
NOT_COUNTED_CODES = frozenset({34, 37})  # skipped, caught by a type check (not configured)
RERUN_TIMEOUT_CODE = 36
SEPARATOR = "ǁ"

MEANING = {
    2: "pytest interrupted (a collection error?)",
    3: "pytest internal error",
    4: "pytest usage error: a test id it could not select",
    5: "pytest collected no test",
    255: "worker exception (pytest usage error or a crash in the worker)",
    -1: "worker exception",
    -11: "segmentation fault",
    35: "suspicious",
}


def category(code: int | None) -> str:
    """What an exit status says about a mutant (see the module docstring)."""
    if code is None:
        return NOT_RUN
    if code in KILLED_CODES:
        return KILLED
    if code in SURVIVED_CODES:
        return SURVIVED
    if code in TIMEOUT_CODES:
        return TIMEOUT
    if code in NOT_COUNTED_CODES:
        return NOT_COUNTED
    return ERROR


def meaning(code: int | None) -> str:
    if code in TIMEOUT_CODES:
        return "timed out"
    if code is not None and code in MEANING:
        return MEANING[code]
    return f"exit status {code}"


@dataclass
class Mutant:
    """One mutant of a module and what became of it."""

    name: str
    code: int | None
    function: str = ""
    change: list[str] = field(default_factory=list)
    key: str = ""
    rerun_from: int | None = None
    """The status mutmut recorded, when this one comes from a re-run in a fresh process."""


def module_name(path: str) -> str:
    """``src/lifebench/metrics/_compute.py`` → ``lifebench.metrics._compute``."""
    dotted = path.removesuffix(".py").replace("/", ".")
    dotted = dotted.removeprefix("src.")
    return dotted.removesuffix(".__init__")


def function_of(mutant: str, module: str) -> str:
    """The function or ``Class.method`` a mutant name belongs to."""
    mangled = mutant.removeprefix(module + ".").partition("__mutmut_")[0]
    if mangled.startswith("x" + SEPARATOR):
        parts = mangled[2:].split(SEPARATOR)
        return ".".join(p for p in parts if p)
    return mangled.removeprefix("x_")


def load_results(path: str) -> dict[str, int | None]:
    meta = Path("mutants") / (path + ".meta")
    if not meta.is_file():
        return {}
    data = json.loads(meta.read_text(encoding="utf-8"))
    return dict(data.get("exit_code_by_key", {}))


def change_of(name: str, tries: int = 3) -> list[str]:
    """The removed and added lines of a mutant (``-``/``+`` prefixed, stripped)."""
    for _ in range(tries):  # `mutmut show` can come back empty while mutmut writes its files
        shown = subprocess.run(
            [sys.executable, "-m", "mutmut", "show", name],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        lines = [
            line[0] + " " + line[1:].strip()
            for line in shown.splitlines()
            if line.startswith(("-", "+")) and not line.startswith(("---", "+++"))
        ]
        if lines:
            return lines
    return ["? (mutmut show gave no diff)"]


SQL_KEYWORDS = frozenset(
    [
        "select",
        "insert",
        "or",
        "ignore",
        "into",
        "values",
        "update",
        "set",
        "where",
        "and",
        "from",
        "order",
        "by",
        "on",
        "conflict",
        "do",
        "excluded",
        "null",
        "pragma",
        "begin",
        "immediate",
        "commit",
        "rollback",
        "count",
        "as",
        "is",
        "not",
        "in",
        "limit",
        "desc",
        "asc",
        "journal_mode",
        "wal",
        "synchronous",
        "normal",
        "busy_timeout",
        "foreign_keys",
        "table_info",  # a pragma: its rows name the columns as the schema declares them
        "join",
        "group",
        "max",
        "coalesce",
        "a",  # the run store's table aliases (attempts a JOIN units u)
        "u",
        "sqlite_master",  # SQLite's catalogue table and its columns
        "type",
        "name",
    ]
)


def sql_vocabulary() -> frozenset[str]:
    """SQL keywords plus every word of the schemas the rule's modules write (tables, columns,
    types): the run store's, the TravelBench sandbox memo's and the model-call cache's."""
    from lifebench.models._cache import _CREATE as CACHE_DDL
    from lifebench.runner._schema import DDL
    from lifebench.travel.sandbox.memo import _CREATE as MEMO_DDL

    schemas = DDL + MEMO_DDL + CACHE_DDL
    return SQL_KEYWORDS | {w.lower() for w in re.findall(r"[A-Za-z_]+", schemas)}


def _is_sql(text: str, vocabulary: frozenset[str]) -> bool:
    words = [w.lower() for w in re.findall(r"[A-Za-z_]+", re.sub(r"'[^']*'", "", text))]
    return bool(words) and all(w in vocabulary for w in words)


LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def sql_case_only(change: list[str]) -> bool:
    """True for a mutant that only changes the letter case of an SQL string literal.

    SQLite keywords and table and column names are case-insensitive, so such a change cannot
    alter behaviour. The code around the literal must be unchanged; a literal counts as SQL when
    every word in it is an SQL keyword or a word of the schema (a message to the user has other
    words); quoted values inside it ('pending') must be unchanged, since their case matters.
    """
    vocabulary = sql_vocabulary()
    removed = [line[2:] for line in change if line.startswith("-")]
    added = [line[2:] for line in change if line.startswith("+")]
    if not removed or len(removed) != len(added):
        return False
    changed = False
    for r, a in zip(removed, added, strict=True):
        if LITERAL.sub('""', r) != LITERAL.sub('""', a):
            return False
        old, new = LITERAL.findall(r), LITERAL.findall(a)
        if len(old) != len(new):
            return False
        for lo, la in zip(old, new, strict=True):
            if lo == la:
                continue
            if lo.lower() != la.lower() or not _is_sql(lo, vocabulary):
                return False
            if re.findall(r"'[^']*'", lo) != re.findall(r"'[^']*'", la):
                return False
            changed = True
    return changed


RULES = {"sql-case": sql_case_only}


def rule_of(
    module: str, change: list[str], rules: list[dict[str, object]]
) -> dict[str, object] | None:
    """The first equivalence rule of ``rules`` that covers this change in this module."""
    for rule in rules:
        modules = rule.get("modules", [])
        check = RULES.get(str(rule.get("name")))
        if check is not None and isinstance(modules, list) and module in modules and check(change):
            return rule
    return None


def key_of(module: str, function: str, change: list[str], seen: Counter[str]) -> str:
    digest = hashlib.sha1("\n".join(change).encode("utf-8")).hexdigest()[:10]
    base = f"{module}:{function}:{digest}"
    seen[base] += 1
    return base if seen[base] == 1 else f"{base}#{seen[base]}"


def mutant_number(name: str) -> int:
    match = re.search(r"__mutmut_(\d+)$", name)
    return int(match.group(1)) if match else 0


# ---------------------------------------------------------------- re-running in a fresh process


def tests_of(name: str) -> list[str]:
    """The tests mutmut runs for a mutant (those that called its function), fastest first."""
    stats = json.loads((MUTANTS / "mutmut-stats.json").read_text(encoding="utf-8"))
    function = name.partition("__mutmut_")[0]
    durations = stats.get("duration_by_test", {})
    tests = stats.get("tests_by_mangled_function_name", {}).get(function, [])
    return sorted(tests, key=lambda t: (durations.get(t, 0.0), t))


def rerun_limit(path: str, name: str) -> float:
    """Wall-clock seconds allowed to a re-run: generous, so that only a mutant that hangs its
    tests (an endless loop) times out, not one slowed down by a busy machine (at least
    ``$MUTATION_RERUN_MIN_S``, default 300, and 20 times the tests' measured duration)."""
    meta = MUTANTS / (path + ".meta")
    estimate = 0.0
    if meta.is_file():
        data = json.loads(meta.read_text(encoding="utf-8"))
        estimate = float(data.get("estimated_durations_by_key", {}).get(name, 0.0))
    floor = float(os.environ.get("MUTATION_RERUN_MIN_S", "300"))
    return max(floor, 20 * estimate)


def run_fresh(name: str, tests: list[str], limit: float) -> int:
    """Run ``tests`` against mutant ``name`` in a new Python process; its pytest exit status
    (``RERUN_TIMEOUT_CODE`` when it had to be stopped)."""
    if not tests:
        return 33
    env = dict(os.environ, MUTANT_UNDER_TEST=name)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in ("src", env.get("PYTHONPATH", "")) if p
    )  # the mutated copies in mutants/src, before the installed package
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
    command += ["--rootdir=.", "--tb=no", "-o", "addopts=", *tests]
    with subprocess.Popen(
        command,
        cwd=MUTANTS,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    ) as process:
        try:
            return process.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return RERUN_TIMEOUT_CODE


def load_reruns() -> dict[str, dict[str, int | None]]:
    if RERUNS_FILE.is_file():
        return dict(json.loads(RERUNS_FILE.read_text(encoding="utf-8")))
    return {}


def rerun_unclear(paths: list[str], log: bool = True) -> int:
    """Re-run every timeout and error of ``paths`` once in a fresh process (see the module
    docstring) and record the new status in mutmut's results; the number re-run."""
    reruns = load_reruns()
    count = 0
    for path in paths:
        meta_path = MUTANTS / (path + ".meta")
        if not meta_path.is_file():
            continue
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        codes: dict[str, int | None] = meta.get("exit_code_by_key", {})
        unclear = [
            name
            for name, code in sorted(codes.items())
            if category(code) in (TIMEOUT, ERROR) and reruns.get(name, {}).get("after") != code
        ]
        for name in unclear:
            before = codes[name]
            after = run_fresh(name, tests_of(name), rerun_limit(path, name))
            count += 1
            if log:
                print(
                    f"re-run {name}: {meaning(before)} -> {category(after)} ({meaning(after)})",
                    file=sys.stderr,
                )
            reruns[name] = {"before": before, "after": after}
            # mutmut may rewrite the file while it runs; read it again just before writing
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            meta["exit_code_by_key"][name] = after
            meta_path.write_text(json.dumps(meta, indent=4), encoding="utf-8")
            RERUNS_FILE.write_text(json.dumps(reruns, indent=2, sort_keys=True), encoding="utf-8")
    return count


# ---------------------------------------------------------------- the report


@dataclass
class Row:
    """The figures of one module."""

    path: str
    killed: int = 0
    survived: int = 0
    equivalent: int = 0
    timeout: int = 0
    error: int = 0
    not_run: int = 0
    unconfirmed: int = 0
    """Timeouts and errors not re-run in a fresh process."""
    missing: bool = False
    """mutmut has no results for the module (never run on it)."""

    @property
    def score(self) -> str:
        scored = self.killed + self.survived
        return f"{100 * self.killed / scored:.1f}" if scored else "n/a"

    def line(self) -> str:
        return (
            f"mutation {self.path} killed={self.killed} survived={self.survived} "
            f"equivalent={self.equivalent} timeout={self.timeout} error={self.error} "
            f"not_run={self.not_run} score={self.score}" + (" (no results)" if self.missing else "")
        )


def report(path: str, equivalent: dict[str, dict[str, str]], rules: list[dict[str, object]]) -> Row:
    module = module_name(path)
    results = load_results(path)
    if not (MUTANTS / (path + ".meta")).is_file():
        print(f"\n## {path}\n  no results: mutmut has not run on it (scripts/mutation.sh {path})")
        return Row(path=path, missing=True)
    reruns = load_reruns()
    mutants = [Mutant(name, code) for name, code in results.items()]
    for m in mutants:
        if m.name in reruns and reruns[m.name].get("after") == m.code:
            m.rerun_from = reruns[m.name].get("before")
    mutants.sort(key=lambda m: (function_of(m.name, module), mutant_number(m.name)))
    by: dict[str, list[Mutant]] = {}
    for m in mutants:
        m.function = function_of(m.name, module)
        by.setdefault(category(m.code), []).append(m)
    survivors = by.get(SURVIVED, [])
    seen: Counter[str] = Counter()
    for m in survivors:
        m.change = change_of(m.name)
        m.key = key_of(module, m.function, m.change, seen)
    reasons: dict[str, str] = {}
    for m in survivors:
        if m.key in equivalent:
            reasons[m.name] = equivalent[m.key].get("reason", "(no reason given)")
        elif (rule := rule_of(module, m.change, rules)) is not None:
            reasons[m.name] = f"[rule {rule['name']}] {rule.get('reason', '')}"
    equivalents = [m for m in survivors if m.name in reasons]
    survived = [m for m in survivors if m.name not in reasons]
    timeouts, errors = by.get(TIMEOUT, []), by.get(ERROR, [])
    prefix = f"{module}:"
    matched = {m.key for m in equivalents}
    stale = sorted(k for k in equivalent if k.startswith(prefix) and k not in matched)
    row = Row(
        path=path,
        killed=len(by.get(KILLED, [])),
        survived=len(survived),
        equivalent=len(equivalents),
        timeout=len(timeouts),
        error=len(errors),
        not_run=len(by.get(NOT_RUN, [])),
        unconfirmed=sum(1 for m in timeouts + errors if m.rerun_from is None),
    )

    print(f"\n## {path}")
    header = ("killed", "survived", "equivalent", "timeout", "error", "not run", "total")
    print("  " + " ".join(f"{h:>10}" for h in header))
    figures = (row.killed, row.survived, row.equivalent, row.timeout, row.error, row.not_run)
    print("  " + " ".join(f"{n:>10}" for n in (*figures, len(mutants))))
    if by.get(NOT_COUNTED):
        print(f"  ({len(by[NOT_COUNTED])} skipped or caught by a type check, not counted)")
    if survived:
        print("  survived:")
        for m in survived:
            note = "  (no test runs it)" if m.code == 33 else ""
            print(f"    {m.name}  [{m.key}]{note}")
            for line in m.change:
                print(f"        {line}")
    if equivalents:
        print("  equivalent:")
        for m in equivalents:
            print(f"    {m.name}: {reasons[m.name]}")
            for line in m.change:
                print(f"        {line}")
    for title, group in (("timeouts", timeouts), ("errors", errors)):
        if group:
            print(f"  {title} (not counted as killed):")
            for m in group:
                how = meaning(m.code)
                if m.rerun_from is not None:
                    how += f", again in a fresh process (mutmut: {meaning(m.rerun_from)})"
                else:
                    how += ", not re-run (scripts/mutation_report.py --rerun)"
                print(f"    {m.name}: {how}")
    if stale:
        print("  annotations that match no surviving mutant (killed now, or the code changed):")
        for key in stale:
            print(f"    {key}")
    return row


def total(rows: list[Row]) -> Row:
    out = Row(path="TOTAL")
    for r in rows:
        out.killed += r.killed
        out.survived += r.survived
        out.equivalent += r.equivalent
        out.timeout += r.timeout
        out.error += r.error
        out.not_run += r.not_run
        out.unconfirmed += r.unconfirmed
        out.missing = out.missing or r.missing
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rerun", action="store_true", help="re-run timeouts and errors once")
    parser.add_argument("paths", nargs="*", metavar="MODULE_PATH")
    args = parser.parse_args(argv)
    if args.rerun:
        rerun_unclear(args.paths)
    equivalent: dict[str, dict[str, str]] = {}
    if EQUIVALENT_FILE.is_file():
        equivalent = tomllib.loads(EQUIVALENT_FILE.read_text(encoding="utf-8"))
    rules: list[dict[str, object]] = list(equivalent.pop("rule", []))  # type: ignore[arg-type]
    rows = [report(p, equivalent, rules) for p in args.paths]
    print()
    for row in rows:
        print(row.line())
    summed = total(rows)
    print(summed.line())
    problems = []
    missing = [r.path for r in rows if r.missing]
    if missing:
        problems.append(f"no results for {len(missing)} module(s)")
    if summed.not_run:
        problems.append(f"{summed.not_run} mutant(s) not run")
    if summed.unconfirmed:
        problems.append(
            f"{summed.unconfirmed} timeout(s) or error(s) not re-run in a fresh process (--rerun)"
        )
    if summed.error:
        problems.append(f"{summed.error} mutant(s) the tests could not judge (errors)")
    if problems:
        print("mutation report incomplete: " + "; ".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

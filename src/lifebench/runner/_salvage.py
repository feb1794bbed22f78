"""What can still be read from a damaged ``run.sqlite``, said in one message."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

_MAX_ROWIDS = 1_000_000


def _readable_units(conn: sqlite3.Connection) -> tuple[Counter[str], int]:
    """Unit statuses readable row by row (a damaged page loses only its own rows), and the
    number of rows that could not be read."""
    statuses: Counter[str] = Counter()
    lost = 0
    try:
        (high,) = conn.execute("SELECT max(rowid) FROM units").fetchone()
    except sqlite3.DatabaseError:
        return statuses, -1
    for rowid in range(1, min(int(high or 0), _MAX_ROWIDS) + 1):
        try:
            row = conn.execute(
                "SELECT status, length(simulation_json) FROM units WHERE rowid = ?", (rowid,)
            ).fetchone()
        except sqlite3.DatabaseError:
            lost += 1
            continue
        if row is not None:
            statuses[str(row[0])] += 1
    return statuses, lost


def describe_damage(path: Path, error: BaseException) -> str:
    """A message for a store SQLite cannot use: the error, what is still readable, what to do."""
    head = f"{path} is damaged ({error})"
    advice = (
        f"Move it aside (mv {path} {path}.damaged) and re-run the same command to start the run "
        f"again in {path.parent}: calls kept in {path.parent / 'model_cache.sqlite'} are "
        "answered from the cache, so units already run cost no API call. The sqlite3 shell's "
        f"`.recover` command can extract the readable rows of {path.name}."
    )
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1)
    except sqlite3.Error:
        return f"{head}; it cannot be opened at all. {advice}"
    try:
        try:
            checks = [r[0] for r in conn.execute("PRAGMA quick_check(3)").fetchall()]
        except sqlite3.DatabaseError:
            return f"{head}; it is not a readable SQLite database (nothing can be read). {advice}"
        statuses, lost = _readable_units(conn)
    finally:
        conn.close()
    if lost < 0:
        readable = "its table of units cannot be read"
    else:
        total = sum(statuses.values())
        by_status = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())) or "none"
        readable = f"{total} unit row(s) are readable ({by_status})" + (
            f", {lost} are lost" if lost else ""
        )
    problems = "; ".join(c for c in checks if c != "ok") or "integrity check passes"
    return f"{head}; {readable}; SQLite reports: {problems}. {advice}"

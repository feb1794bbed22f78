"""``lifebench tasks stats --suite flow``: nodes, edges and tools per scenario and in total."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lifebench._util.text import Language
from lifebench.errors import InputError
from lifebench.flow.kb import KnowledgeBase, load_knowledge
from lifebench.suites._tables import StatsTable

COLUMNS = ["scenario", "role", "nodes", "edges", "calls", "tools"]
_WIDTH = 30


def scenario_rows(kb: KnowledgeBase, domain: str | None = None) -> list[dict[str, Any]]:
    """One JSON-ready row per scenario (of ``domain`` when given).

    ``nodes`` counts distinct node ids (a reused id once), ``node_definitions`` every node of
    the graph; ``edges`` counts one edge per source (``A & B--x-->C`` is two),
    ``edge_statements`` the statements as written."""
    rows = []
    for s in kb.scenarios:
        if domain is not None and s.domain != domain:
            continue
        chart = s.flowchart
        rows.append(
            {
                "source": kb.source,
                "domain": s.domain,
                "role": s.role,
                "scenario": s.name,
                "uuid": s.uuid,
                "nodes": len(chart.node_ids),
                "node_definitions": len(chart.nodes),
                "edges": len(chart.expanded_edges),
                "edge_statements": len(chart.edges),
                "unlabelled_edges": sum(1 for e in chart.expanded_edges if e.label is None),
                "tool_nodes": len(chart.tool_nodes()),
                "tools": len(s.tools),
                "duplicate_ids": list(chart.duplicate_ids),
            }
        )
    return rows


def _total(rows: list[dict[str, Any]], source: str) -> dict[str, Any]:
    keys = (
        "nodes",
        "node_definitions",
        "edges",
        "edge_statements",
        "unlabelled_edges",
        "tool_nodes",
        "tools",
    )
    total: dict[str, Any] = {
        "source": source,
        "domain": "(total)",
        "role": str(len({r["role"] for r in rows})),
        "scenario": str(len(rows)),
    }
    total.update({k: sum(r[k] for r in rows) for k in keys})
    total["duplicate_ids"] = [d for r in rows for d in r["duplicate_ids"]]
    return total


def _short(text: str, width: int = _WIDTH) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _cells(row: dict[str, Any]) -> list[str]:
    return [
        _short(row["scenario"]),
        _short(row["role"], 24),
        str(row["nodes"]),
        str(row["edges"]),
        str(row["tool_nodes"]),
        str(row["tools"]),
    ]


def stats_table(kbs: Sequence[KnowledgeBase], domain: str | None = None) -> StatsTable:
    """The statistics of each knowledge base: its scenarios, then a total row."""
    rows: list[list[str]] = []
    data: list[dict[str, Any]] = []
    notes = [
        "nodes: distinct node ids; edges: one per source ('A & B--x-->C' counts 2); "
        "calls: tool-call nodes ('ID>…]'); tools: API definitions of the scenario "
        "(per-row domain and more counts: --json).",
    ]
    for kb in kbs:
        scen = scenario_rows(kb, domain)
        if not scen:
            continue
        total = _total(scen, kb.source)
        for row in scen:
            rows.append(_cells(row))
            data.append(row)
        total_cells = _cells(total)
        total_cells[0] = f"(total: {total['scenario']} scenarios)"
        total_cells[1] = f"{total['role']} roles"
        rows.append(total_cells)
        data.append(total)
        notes.append(
            f"total of {kb.source}: {total['scenario']} scenarios, {total['role']} roles, "
            f"{total['nodes']} nodes ({total['node_definitions']} node definitions), "
            f"{total['edges']} edges ({total['edge_statements']} edge statements, "
            f"{total['unlabelled_edges']} unlabelled), {total['tool_nodes']} call nodes, "
            f"{total['tools']} tools."
        )
        for row in scen:
            for dup in row["duplicate_ids"]:
                chart = kb.scenario(row["uuid"]).flowchart
                texts = [n.text.split("\n", 1)[0].strip() for n in chart.nodes if n.id == dup]
                listed = "; ".join(f"{t[:50]!r}" for t in texts)
                notes.append(
                    f"{row['scenario']}: node id {dup} is defined {len(texts)} times with "
                    f"different text ({listed}); it counts once in 'nodes' and the graph keeps "
                    f"each definition ({dup}, {dup}#2, …): {total['node_definitions']} node "
                    f"definitions in {kb.source}."
                )
    if not data:
        raise InputError(f"no scenarios{' of domain ' + repr(domain) if domain else ''}")
    return StatsTable(
        title="FlowBench workflows: nodes, edges and tools per scenario",
        columns=COLUMNS,
        left_columns=[0, 1],
        rows=rows,
        data=data,
        notes=notes,
    )


def suite_stats(sources: Sequence[Path], domain: str | None, language: Language) -> StatsTable:
    """``FlowSuite.stats``: the knowledge bases ``sources`` (directories or knowledge files),
    or the bundled one of ``language`` when empty."""
    for path in sources:
        _refuse_task_file(Path(path))
    kbs = (
        [load_knowledge(p, language) for p in sources]
        if sources
        else [load_knowledge(None, language)]
    )
    return stats_table(kbs, domain)


def _refuse_task_file(path: Path) -> None:
    """A turn- or session-level file given instead of a knowledge base: say so."""
    if not (path.is_file() and path.suffix == ".jsonl"):
        return
    from lifebench.flow.tasks import detect_task_file

    try:
        level = detect_task_file(path)
    except InputError:
        return
    raise InputError(
        f"a {level}-level task file; tasks stats --suite flow reads knowledge bases "
        "(a directory with workflow_final.jsonl or the pools, or the file itself)",
        file=str(path),
    )

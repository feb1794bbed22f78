"""Complexity statistics of VitaBench task sets: the analogue of the paper's Tables 2 and 5.

* search space = service providers + products + pre-existing transactions over the tasks (the
  paper's Table 5 figures are exactly these sums over Table 2's columns);
* reasoning points = rubrics per task (``overall_rubrics``; the distinct union of state and
  overall rubrics is reported too, since the English files paraphrase them);
* tool complexity = the domain's tool graph: |V|, |E|, density |E| / (|V|(|V|−1)).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from pydantic import BaseModel, Field

from lifebench.suites._tables import StatsTable
from lifebench.tools import ToolSet
from lifebench.vita.task import VitaTask

#: Tables holding service providers, by domain.
PROVIDER_TABLES: Mapping[str, tuple[str, ...]] = {
    "delivery": ("stores",),
    "instore": ("shops",),
    "ota": ("hotels", "attractions", "flights", "trains"),
}


class DomainStats(BaseModel):
    """Complexity of one task set."""

    domain: str = Field(description="Domain the tasks belong to (or 'cross').")
    source: str = Field(description="Where the tasks came from.")
    n_tasks: int = Field(description="Number of tasks.")
    providers: int = Field(description="Service providers summed over tasks (Table 2).")
    products: int = Field(description="Products summed over tasks (Table 2).")
    transactions: int = Field(description="Pre-existing orders summed over tasks (Table 2).")
    search_space: int = Field(description="providers + products + transactions (Table 5).")
    search_space_per_task: float = Field(description="Mean search space of one task.")
    reasoning_points: float = Field(description="Mean overall rubrics per task (Table 5).")
    distinct_rubrics: float = Field(description="Mean distinct state ∪ overall rubrics per task.")
    instruction_chars: float = Field(description="Mean instruction length in characters.")
    tools: int = Field(description="|V| of the domain's tool graph.")
    edges: int = Field(description="|E| of the tool graph.")
    density: float = Field(description="|E| / (|V|(|V|−1)).")
    tools_by_kind: dict[str, int] = Field(description="write / read / general tool counts.")


def infer_domain(tasks: Sequence[VitaTask]) -> str:
    """delivery / instore / ota from the provider tables present, 'cross' when several."""
    found = {
        domain
        for task in tasks
        for domain, tables in PROVIDER_TABLES.items()
        if any(task.environment.get(t) for t in tables)
    }
    if len(found) == 1:
        return found.pop()
    return "cross" if found else "delivery"


def _providers(task: VitaTask) -> list[Mapping[str, Any]]:
    out: list[Mapping[str, Any]] = []
    for tables in PROVIDER_TABLES.values():
        for table in tables:
            records = task.environment.get(table) or {}
            out.extend(r for r in records.values() if isinstance(r, Mapping))
    return out


def _rubrics(task: VitaTask) -> tuple[int, int]:
    criteria = task.evaluation_criteria
    if criteria is None:
        return 0, 0
    distinct = {r for s in criteria.expected_states for r in s.state_rubrics}
    distinct.update(criteria.overall_rubrics)
    return len(criteria.overall_rubrics), len(distinct)


def task_stats(
    tasks: Sequence[VitaTask], domain: str, toolset: ToolSet, source: str
) -> DomainStats:
    """Compute :class:`DomainStats` for ``tasks`` whose agent sees ``toolset``."""
    per_task_space: list[int] = []
    providers = products = transactions = 0
    overall: list[int] = []
    distinct: list[int] = []
    for task in tasks:
        provs = _providers(task)
        prods = sum(len(p.get("products") or []) for p in provs)
        orders = len(task.environment.get("orders") or {})
        providers += len(provs)
        products += prods
        transactions += orders
        per_task_space.append(len(provs) + prods + orders)
        o, d = _rubrics(task)
        overall.append(o)
        distinct.append(d)
    graph = toolset.graph_stats()
    return DomainStats(
        domain=domain,
        source=source,
        n_tasks=len(tasks),
        providers=providers,
        products=products,
        transactions=transactions,
        search_space=providers + products + transactions,
        search_space_per_task=fmean(per_task_space) if tasks else 0.0,
        reasoning_points=fmean(overall) if tasks else 0.0,
        distinct_rubrics=fmean(distinct) if tasks else 0.0,
        instruction_chars=fmean(len(t.instructions) for t in tasks) if tasks else 0.0,
        tools=graph.nodes,
        edges=graph.edges,
        density=graph.density,
        tools_by_kind=toolset.count_by_kind(),
    )


def stats_table(rows: Sequence[DomainStats]) -> StatsTable:
    """The rows as the ``tasks stats`` table (columns of the paper's Tables 2 and 5)."""
    columns = ["#", "domain", "tasks", "prov", "prod", "trans", "space", "reas"]
    columns += ["instr", "tools", "edges", "dens"]
    cells = []
    for i, r in enumerate(rows, 1):
        line = [str(i), r.domain, str(r.n_tasks), str(r.providers), str(r.products)]
        line += [str(r.transactions), str(r.search_space), f"{r.reasoning_points:.1f}"]
        line += [f"{r.instruction_chars:.0f}", str(r.tools), str(r.edges), f"{r.density:.1%}"]
        cells.append(line)
    notes = [
        "prov/prod/trans = providers, products, pre-existing transactions; space = their sum; "
        "reas = rubrics per task; instr = mean instruction characters; dens = edge density"
    ]
    for i, r in enumerate(rows, 1):
        k = r.tools_by_kind
        kinds = (
            f"{k.get('write', 0)} write / {k.get('read', 0)} read / {k.get('general', 0)} general"
        )
        notes.append(f"  #{i}: {r.source} — tools: {kinds}")
    return StatsTable(
        title="Task-set complexity (VitaBench Tables 2 and 5)",
        columns=columns,
        left_columns=[1],
        rows=cells,
        data=[r.model_dump(mode="json") for r in rows],
        notes=notes,
    )

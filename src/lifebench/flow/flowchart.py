"""Mermaid flowcharts of workflows: parse into nodes and labelled edges, render back.

FlowBench writes each scenario's workflow as a mermaid ``flowchart``. The conventions (spec §1.7):

* ``ID(Start)`` is the start node, ``ID>text]`` (mermaid's flag shape) a tool-call node,
  ``ID[text]`` a response / ask node; ``ID{text}`` (a decision) is accepted too. Node text may run
  over several lines and may be quoted (``ID["text"]``).
* Edges: ``A--label-->B``, ``A-->B`` (unlabelled), ``A-->|label|B``, ``A & B--label-->C`` (one
  edge from several sources), spaces around the dashes, chains ``A-->B-->C``.
* Data quirks handled: a stray leading colon (``：``) before the header, the trailing section of
  auxiliary parameters (``"name": "format"`` lines collected in dialogue), and an id defined twice
  with different text (``File printing`` defines BY004 twice). Such a reused id becomes two nodes:
  the first keeps the id as its ``key``, the second gets ``BY004#2``; a bare reference means the
  most recent definition of the id, as in a left-to-right reading of the chart.

``render_flowchart`` writes a chart back so that ``parse_flowchart(render_flowchart(g)) == g``.
Charts are kept in one canonical order (:meth:`Flowchart.build`): nodes by first appearance in
the edges, then isolated nodes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

NodeKind = Literal["start", "tool", "response", "decision"]
Direction = Literal["TD", "TB", "LR", "RL", "BT"]

# Node shape of each kind: (opening, closing) after the id.
SHAPES: dict[NodeKind, tuple[str, str]] = {
    "start": ("(", ")"),
    "tool": (">", "]"),
    "response": ("[", "]"),
    "decision": ("{", "}"),
}
_KIND_OF_OPENER: dict[str, NodeKind] = {opener: kind for kind, (opener, _) in SHAPES.items()}

AUX_HEADERS: tuple[str, ...] = (
    "The auxiliary parameter information in the workflow is as follows:",
    "工作流中的辅助参数信息如下：",
)

_ID = re.compile(r"[A-Za-z0-9_]+")
_HEADER = re.compile(r"(?:flowchart|graph)[ \t]+(TD|TB|LR|RL|BT)\b")
_SUBGOAL = re.compile(r"^\s*(?:sub-?goal|current goal|sub-?task|子目标|当前目标)\s*[:：]\s*", re.I)
_DESCRIPTION = re.compile(r"(?:^|\n)\s*(?:description|描述)\s*[:：]\s*", re.I)
_COLLECT = re.compile(
    r"(?:collect(?:s|ed)?\s+(?:the\s+)?param(?:eter)?s?|收集参数)\s*[:：]\s*([A-Za-z0-9_,、 \t]+)",
    re.I,
)


class FlowchartError(ValueError):
    """A flowchart that cannot be read: says where (line) and what."""


class Node(BaseModel):
    """One node: its id as written, a key unique within the chart, its kind and its text."""

    model_config = ConfigDict(frozen=True)

    key: str = Field(description="Unique within the chart: the id, or 'ID#n' for a reused id.")
    id: str = Field(description="The id as written in the chart (e.g. SK001).")
    kind: NodeKind
    text: str = Field(description="The text inside the shape's brackets, exactly.")
    quoted: bool = Field(False, description='Written as ID["text"].')

    @model_validator(mode="after")
    def _renderable(self) -> Node:
        if not _ID.fullmatch(self.id):
            raise ValueError(f"node id {self.id!r} is not a mermaid id")
        close = SHAPES[self.kind][1]
        if self.quoted and f'"{close}' in self.text:
            raise ValueError(f"node {self.id}: quoted text contains '\"{close}'")
        if not self.quoted and close in self.text:
            raise ValueError(f"node {self.id}: text contains '{close}' (quote it)")
        return self

    @property
    def subgoal(self) -> str | None:
        """The "Subgoal:" / "Current goal:" line of a complex node, else None."""
        match = _SUBGOAL.match(self.text)
        if match is None:
            return None
        rest = self.text[match.end() :]
        return rest.split("\n", 1)[0].strip() or None

    @property
    def description(self) -> str | None:
        """The text after "Description:"; for a complex node without that label, the lines
        after its goal line; None for a plain node."""
        match = _DESCRIPTION.search(self.text)
        if match is not None:
            return self.text[match.end() :].strip() or None
        if self.subgoal is not None:
            parts = self.text.strip().split("\n", 1)
            return parts[1].strip() if len(parts) > 1 and parts[1].strip() else None
        return None

    @property
    def collected_params(self) -> tuple[str, ...]:
        """Parameters the node collects in dialogue ("collect the parameters: a, b")."""
        names: list[str] = []
        for match in _COLLECT.finditer(self.text):
            for part in re.split(r"[,、]|\band\b", match.group(1)):
                name = part.strip()
                if name and _ID.fullmatch(name) and name not in names:
                    names.append(name)
        return tuple(names)

    def mentions(self, name: str) -> bool:
        """Whether the text names ``name`` (case-insensitive, as a whole word)."""
        return (
            re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", self.text, re.I)
            is not None
        )

    def shape(self) -> str:
        """The node as written: id plus shaped text."""
        opener, closer = SHAPES[self.kind]
        if self.quoted:
            return f'{self.id}{opener}"{self.text}"{closer}'
        return f"{self.id}{opener}{self.text}{closer}"


class Edge(BaseModel):
    """One edge statement: ``A & B--label-->C`` has sources (A, B); label None if unlabelled."""

    model_config = ConfigDict(frozen=True)

    sources: tuple[str, ...] = Field(min_length=1, description="Node keys.")
    target: str = Field(description="Node key.")
    label: str | None = Field(None, description="Transition condition (user intent, result).")

    @model_validator(mode="after")
    def _renderable(self) -> Edge:
        if self.label is not None:
            bad = ("\n", "-->", "|")
            if self.label != self.label.strip() or not self.label:
                raise ValueError(f"edge label {self.label!r} has surrounding spaces or is empty")
            if any(b in self.label for b in bad) or self.label.startswith("-"):
                raise ValueError(f"edge label {self.label!r} cannot be written in mermaid")
        return self

    def expanded(self) -> tuple[Edge, ...]:
        """One edge per source (how spec §1.7 counts: 509 edges)."""
        return tuple(Edge(sources=(s,), target=self.target, label=self.label) for s in self.sources)


class AuxParam(BaseModel):
    """A parameter collected in dialogue, from the chart's auxiliary-parameter section."""

    model_config = ConfigDict(frozen=True)

    name: str
    description: str


class Flowchart(BaseModel):
    """A parsed workflow chart in canonical order (see :meth:`build`)."""

    model_config = ConfigDict(frozen=True)

    direction: Direction = "TD"
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    aux_params: tuple[AuxParam, ...] = ()
    aux_header: str | None = Field(
        None, description="The auxiliary section's header line as written (None: English)."
    )

    @model_validator(mode="after")
    def _consistent(self) -> Flowchart:
        keys = [n.key for n in self.nodes]
        if len(set(keys)) != len(keys):
            raise ValueError("node keys are not unique")
        known = set(keys)
        for edge in self.edges:
            for key in (*edge.sources, edge.target):
                if key not in known:
                    raise ValueError(f"edge refers to unknown node {key!r}")
        seen: dict[str, list[Node]] = {}
        for node in self.nodes:
            same = seen.setdefault(node.id, [])
            expected = node.id if not same else f"{node.id}#{len(same) + 1}"
            if node.key != expected:
                raise ValueError(f"node key {node.key!r} should be {expected!r}")
            if any((n.kind, n.text) == (node.kind, node.text) for n in same):
                raise ValueError(f"node {node.id} is defined twice with the same text")
            same.append(node)
        if self.nodes != _canonical_order(self.nodes, self.edges):
            raise ValueError("nodes are not in canonical order (use Flowchart.build)")
        return self

    @classmethod
    def build(
        cls,
        nodes: Sequence[Node],
        edges: Sequence[Edge],
        *,
        direction: Direction = "TD",
        aux_params: Sequence[AuxParam] = (),
        aux_header: str | None = None,
    ) -> Flowchart:
        """A chart in canonical form: nodes ordered by first appearance in ``edges`` (then the
        isolated ones, in the given order) and keys renumbered in that order (``ID``, ``ID#2``…).
        ``nodes`` and ``edges`` may use any unique keys."""
        ordered = _canonical_order(tuple(nodes), tuple(edges))
        rename: dict[str, str] = {}
        count: dict[str, int] = {}
        renamed: list[Node] = []
        for node in ordered:
            n = count[node.id] = count.get(node.id, 0) + 1
            key = node.id if n == 1 else f"{node.id}#{n}"
            rename[node.key] = key
            renamed.append(node.model_copy(update={"key": key}))
        new_edges = tuple(
            Edge(
                sources=tuple(rename[s] for s in e.sources),
                target=rename[e.target],
                label=e.label,
            )
            for e in edges
        )
        return cls(
            direction=direction,
            nodes=tuple(renamed),
            edges=new_edges,
            aux_params=tuple(aux_params),
            aux_header=aux_header,
        )

    @cached_property
    def _by_key(self) -> dict[str, Node]:
        return {n.key: n for n in self.nodes}

    def node(self, key: str) -> Node:
        """The node with ``key`` (an id names its first definition)."""
        try:
            return self._by_key[key]
        except KeyError:
            raise KeyError(f"no node {key!r} in the flowchart") from None

    @property
    def node_ids(self) -> tuple[str, ...]:
        """Distinct node ids, in order (a reused id counts once: how spec §1.7 counts)."""
        return tuple(dict.fromkeys(n.id for n in self.nodes))

    @property
    def duplicate_ids(self) -> tuple[str, ...]:
        """Ids defined more than once with different text."""
        return tuple(n.id for n in self.nodes if n.key != n.id)

    @property
    def expanded_edges(self) -> tuple[Edge, ...]:
        """Every edge with one source."""
        return tuple(x for e in self.edges for x in e.expanded())

    @property
    def labels(self) -> tuple[str, ...]:
        """Distinct edge labels, in order."""
        return tuple(dict.fromkeys(e.label for e in self.edges if e.label is not None))

    @property
    def start(self) -> Node | None:
        """The start node (the first ``(…)`` node)."""
        return next((n for n in self.nodes if n.kind == "start"), None)

    def successors(self, key: str) -> list[tuple[str | None, str]]:
        """(label, target key) of the edges leaving ``key``, in chart order."""
        return [(e.label, e.target) for e in self.edges if key in e.sources]

    def tool_nodes(self) -> list[Node]:
        """The tool-call nodes."""
        return [n for n in self.nodes if n.kind == "tool"]


def _canonical_order(nodes: tuple[Node, ...], edges: Iterable[Edge]) -> tuple[Node, ...]:
    by_key = {n.key: n for n in nodes}
    order: dict[str, None] = {}
    for edge in edges:
        for key in (*edge.sources, edge.target):
            if key in by_key:
                order.setdefault(key, None)
    for node in nodes:
        order.setdefault(node.key, None)
    return tuple(by_key[k] for k in order)


# ----------------------------------------------------------------------------------------------
# Parsing


class _Parser:
    """A character-level reader of one chart (statements may span lines inside node text)."""

    def __init__(self, source: str, name: str) -> None:
        self.src = source
        self.name = name
        self.pos = 0
        # handle -> [id, kind | None, text, quoted]; handles are first-appearance order
        self.defs: list[tuple[str, NodeKind | None, str, bool]] = []
        self.current: dict[str, int] = {}
        self.first_line: dict[int, int] = {}
        self.edges: list[tuple[tuple[int, ...], int, str | None]] = []

    # -- helpers
    def line(self, pos: int | None = None) -> int:
        return self.src.count("\n", 0, self.pos if pos is None else pos) + 1

    def fail(self, message: str, pos: int | None = None) -> FlowchartError:
        where = f"{self.name}, line {self.line(pos)}" if self.name else f"line {self.line(pos)}"
        return FlowchartError(f"{where}: {message}")

    def peek(self, text: str) -> bool:
        return self.src.startswith(text, self.pos)

    def skip_blanks(self) -> None:
        while self.pos < len(self.src) and self.src[self.pos] in " \t":
            self.pos += 1

    def skip_space_and_comments(self) -> None:
        while self.pos < len(self.src):
            ch = self.src[self.pos]
            if ch in " \t\r\n;":
                self.pos += 1
            elif self.peek("%%"):
                end = self.src.find("\n", self.pos)
                self.pos = len(self.src) if end < 0 else end
            else:
                return

    def snippet(self) -> str:
        return self.src[self.pos : self.pos + 30].split("\n", 1)[0]

    # -- grammar
    def header(self) -> Direction:
        stripped = self.src.lstrip()
        lead = len(self.src) - len(stripped)
        while stripped[:1] in (":", "："):
            stripped = stripped[1:].lstrip()
        self.pos = len(self.src) - len(stripped)
        match = _HEADER.match(self.src, self.pos)
        if match is None:
            raise self.fail(
                f"expected 'flowchart TD' (or LR, …) at the start, found {self.snippet()!r}",
                lead,
            )
        self.pos = match.end()
        direction: Direction = match.group(1)  # type: ignore[assignment]
        return direction

    def node_ref(self) -> int:
        match = _ID.match(self.src, self.pos)
        if match is None:
            raise self.fail(f"expected a node id, found {self.snippet()!r}")
        start = self.pos
        node_id = match.group(0)
        self.pos = match.end()
        opener = self.src[self.pos : self.pos + 1]
        kind = _KIND_OF_OPENER.get(opener)
        if kind is None:
            return self.bare(node_id, start)
        closer = SHAPES[kind][1]
        self.pos += 1
        quoted = self.peek('"')
        if quoted:
            end = self.src.find(f'"{closer}', self.pos + 1)
            text_start = self.pos + 1
        else:
            end = self.src.find(closer, self.pos)
            text_start = self.pos
        if end < 0:
            raise self.fail(f"node {node_id}: no closing '{closer}'", start)
        text = self.src[text_start:end]
        self.pos = end + (2 if quoted else 1)
        return self.define(node_id, kind, text, quoted, start)

    def bare(self, node_id: str, pos: int) -> int:
        if node_id in self.current:
            return self.current[node_id]
        handle = len(self.defs)
        self.defs.append((node_id, None, "", False))
        self.first_line[handle] = self.line(pos)
        self.current[node_id] = handle
        return handle

    def define(self, node_id: str, kind: NodeKind, text: str, quoted: bool, pos: int) -> int:
        handle: int | None = None
        for h, (nid, k, t, _) in enumerate(self.defs):
            if nid == node_id and (k is None or (k, t) == (kind, text)):
                handle = h
                break
        if handle is None:
            handle = len(self.defs)
            self.defs.append((node_id, kind, text, quoted))
            self.first_line[handle] = self.line(pos)
        elif self.defs[handle][1] is None:
            self.defs[handle] = (node_id, kind, text, quoted)
        self.current[node_id] = handle
        return handle

    def group(self) -> list[int]:
        refs = [self.node_ref()]
        while True:
            save = self.pos
            self.skip_blanks()
            if self.peek("&"):
                self.pos += 1
                self.skip_blanks()
                refs.append(self.node_ref())
            else:
                self.pos = save
                return refs

    def arrow(self) -> tuple[bool, str | None]:
        """An edge operator at the cursor: (found, label)."""
        self.skip_blanks()
        if self.peek("-->"):
            self.pos += 3
            if self.peek("|"):
                end = self.src.find("|", self.pos + 1)
                if end < 0 or "\n" in self.src[self.pos : end]:
                    raise self.fail("unterminated '|label|'")
                label = self.src[self.pos + 1 : end].strip()
                self.pos = end + 1
                return True, label or None
            return True, None
        if self.peek("--"):
            start = self.pos
            end = self.src.find("-->", self.pos + 2)
            newline = self.src.find("\n", self.pos)
            if end < 0 or (0 <= newline < end):
                raise self.fail("edge label without a closing '-->'", start)
            label = self.src[self.pos + 2 : end].strip()
            self.pos = end + 3
            return True, label or None
        for op in ("==>", "-.->", "---", "-.-"):
            if self.peek(op):
                raise self.fail(f"unsupported edge operator {op!r}")
        return False, None

    def statement(self) -> None:
        sources = self.group()
        while True:
            found, label = self.arrow()
            if not found:
                break
            self.skip_blanks()
            targets = self.group()
            for target in targets:
                self.edges.append((tuple(sources), target, label))
            sources = targets
        self.skip_blanks()
        if self.pos < len(self.src) and self.src[self.pos] not in "\r\n;":
            raise self.fail(f"unexpected text {self.snippet()!r}")

    def aux_section(self) -> tuple[str, list[AuxParam]] | None:
        for header in AUX_HEADERS:
            if self.peek(header):
                self.pos += len(header)
                params: list[AuxParam] = []
                for raw in self.src[self.pos :].split("\n"):
                    line = raw.strip()
                    if not line:
                        continue
                    params.append(self.aux_line(line))
                self.pos = len(self.src)
                return header, params
        return None

    def aux_line(self, line: str) -> AuxParam:
        try:
            value = json.loads("{" + line.rstrip(",") + "}")
        except json.JSONDecodeError:
            value = None
        if not isinstance(value, dict) or len(value) != 1:
            raise self.fail(f'auxiliary parameter line is not \'"name": "format"\': {line!r}')
        ((name, description),) = value.items()
        return AuxParam(name=str(name), description=str(description))

    def parse(self) -> Flowchart:
        direction = self.header()
        aux: tuple[str, list[AuxParam]] | None = None
        while True:
            self.skip_space_and_comments()
            if self.pos >= len(self.src):
                break
            aux = self.aux_section()
            if aux is not None:
                break
            self.statement()
        for handle, (node_id, kind, _, _) in enumerate(self.defs):
            if kind is None:
                raise FlowchartError(
                    f"{self.name + ', ' if self.name else ''}line {self.first_line[handle]}: "
                    f"node {node_id} is used but never given a shape"
                )
        nodes = [
            Node(key=f"#{h}", id=nid, kind=kind or "response", text=text, quoted=quoted)
            for h, (nid, kind, text, quoted) in enumerate(self.defs)
        ]
        edges = [
            Edge(sources=tuple(f"#{s}" for s in srcs), target=f"#{t}", label=label)
            for srcs, t, label in self.edges
        ]
        try:
            return Flowchart.build(
                nodes,
                edges,
                direction=direction,
                aux_params=aux[1] if aux else (),
                aux_header=aux[0] if aux and aux[0] != AUX_HEADERS[0] else None,
            )
        except ValueError as exc:
            raise FlowchartError(f"{self.name + ': ' if self.name else ''}{exc}") from None


def parse_flowchart(source: str, name: str = "") -> Flowchart:
    """Parse one mermaid flowchart; ``name`` (e.g. the scenario) prefixes error messages.

    Raises:
        FlowchartError: naming the line and what is wrong.
    """
    try:
        return _Parser(source, name).parse()
    except FlowchartError:
        raise
    except ValueError as exc:  # a node or edge the model refuses
        raise FlowchartError(f"{name + ': ' if name else ''}{exc}") from None


def strip_stray_colon(source: str) -> str:
    """The chart text without the stray leading colon of the public data (spec §1.7)."""
    stripped = source.lstrip()
    while stripped[:1] in (":", "："):
        stripped = stripped[1:].lstrip()
    return stripped if stripped.startswith(("flowchart", "graph")) else source


def render_flowchart(chart: Flowchart) -> str:
    """Mermaid text of ``chart``: one edge statement per line, each node's shape at its first
    appearance (and again where a bare id would mean another definition of a reused id)."""
    lines = [f"flowchart {chart.direction}"]
    current: dict[str, str] = {}

    def ref(key: str) -> str:
        node = chart.node(key)
        if current.get(node.id) == key:
            return node.id
        current[node.id] = key
        return node.shape()

    for edge in chart.edges:
        sources = " & ".join(ref(s) for s in edge.sources)
        arrow = f"--{edge.label}-->" if edge.label is not None else "-->"
        lines.append(f"{sources}{arrow}{ref(edge.target)}")
    used = {k for e in chart.edges for k in (*e.sources, e.target)}
    for node in chart.nodes:
        if node.key not in used:
            lines.append(ref(node.key))
    if chart.aux_params:
        lines.append("")
        lines.append(chart.aux_header or AUX_HEADERS[0])
        for param in chart.aux_params:
            name = json.dumps(param.name, ensure_ascii=False)
            lines.append(f"{name}: {json.dumps(param.description, ensure_ascii=False)}")
    return "\n".join(lines)

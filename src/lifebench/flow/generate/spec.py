"""Our own scenarios, written once in both languages (``scenarios/*.yaml``).

A scenario spec holds the graph (nodes with their instructions, labelled edges), the tools, and
what the gold-session generator needs to play it: the agent's reply at each node, the user's
words on each edge, the tool output that leads along each edge out of a tool node, and pools of
parameter values. :mod:`lifebench.flow.generate.build` turns the specs into the bundled knowledge
base (workflows in text, code, flowchart and summary, tool definitions) per language.
"""

from __future__ import annotations

from importlib import resources
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from lifebench._util.text import Language
from lifebench.errors import InputError


class Bi(BaseModel):
    """A text in English and Chinese."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    en: str
    zh: str

    def get(self, language: Language) -> str:
        """The text in ``language``."""
        return self.zh if language == "zh" else self.en


class BiList(BaseModel):
    """Values in English and Chinese (e.g. a pool of names)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    en: list[Any]
    zh: list[Any]

    def get(self, language: Language) -> list[Any]:
        """The values of ``language``."""
        return self.zh if language == "zh" else self.en


class ParamSpecDef(BaseModel):
    """A tool parameter: type, description, required, nested items / properties, values."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    type: Literal["string", "integer", "list", "object"]
    description: Bi
    required: bool = False
    items: ParamSpecDef | None = None
    properties: list[ParamSpecDef] = Field(default_factory=list)
    values: BiList | list[Any] | None = Field(
        None, description="Pool the generator draws from (language-neutral list or per language)."
    )
    phrase: Bi | None = Field(None, description="How the user gives it: '... {value} ...'.")
    from_output: str | None = Field(
        None,
        description="Taken from an earlier tool output instead of asked: 'book.book_id', or "
        "'loans[].book_id' (a list param: a non-empty subset of those values).",
    )

    when: dict[str, Any] | None = Field(
        None,
        description="Optional parameters: given exactly when these parameters have these values "
        "(e.g. card details only for method = card).",
    )

    def pool(self, language: Language) -> list[Any]:
        """The value pool of ``language`` (empty when none)."""
        if self.values is None:
            return []
        if isinstance(self.values, BiList):
            return self.values.get(language)
        return list(self.values)


class ToolSpecDef(BaseModel):
    """A tool of the scenario."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    description: Bi
    inputs: list[ParamSpecDef] = Field(default_factory=list)
    outputs: list[ParamSpecDef] = Field(default_factory=list)


class NodeSpec(BaseModel):
    """A node: kind, instruction (with an optional subgoal), the agent's reply there."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    kind: Literal["start", "tool", "response"]
    subgoal: Bi | None = None
    text: Bi | None = Field(None, description="The instruction (the description of a subgoal).")
    tool: str | None = Field(None, description="The tool a tool node calls.")
    reply: Bi | None = Field(
        None, description="What the agent says here ({param} / {output} placeholders)."
    )
    ask: Bi | None = Field(
        None, description="Tool nodes: how the agent asks for missing parameters ({params})."
    )

    @model_validator(mode="after")
    def _complete(self) -> NodeSpec:
        if self.kind == "tool" and not self.tool:
            raise ValueError(f"tool node {self.id} names no tool")
        if self.kind != "start" and self.text is None:
            raise ValueError(f"node {self.id} has no text")
        if self.kind == "response" and self.reply is None:
            raise ValueError(f"response node {self.id} has no reply")
        return self


class EdgeSpec(BaseModel):
    """An edge: sources, target, label; the user's words or the tool output that takes it."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    sources: list[str] = Field(alias="from")
    target: str = Field(alias="to")
    label: Bi | None = None
    say: Bi | None = Field(None, description="The user's words choosing this edge.")
    output: dict[str, Any] | None = Field(
        None, description="Tool-node sources: output values that lead along this edge."
    )
    change: list[str] = Field(
        default_factory=list,
        description="Parameters the user gives new values for when taking this edge (a retry).",
    )


class AuxSpec(BaseModel):
    """A parameter collected in dialogue (the flowchart's auxiliary section)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    description: Bi
    values: BiList | list[Any]
    phrase: Bi | None = None

    def pool(self, language: Language) -> list[Any]:
        """The value pool of ``language``."""
        return self.values.get(language) if isinstance(self.values, BiList) else list(self.values)


class ScenarioSpec(BaseModel):
    """One scenario of ours."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    uuid: str
    domain: str
    role: str
    name: Bi
    direction: Literal["TD", "LR"] = "TD"
    tools: list[ToolSpecDef]
    nodes: list[NodeSpec]
    edges: list[EdgeSpec]
    aux: list[AuxSpec] = Field(
        default_factory=list, description="Auxiliary parameters collected in dialogue."
    )

    @model_validator(mode="after")
    def _consistent(self) -> ScenarioSpec:
        ids = [n.id for n in self.nodes]
        if len(set(ids)) != len(ids):
            raise ValueError("node ids repeat")
        tools = {t.name for t in self.tools}
        for node in self.nodes:
            if node.tool is not None and node.tool not in tools:
                raise ValueError(f"node {node.id} calls unknown tool {node.tool}")
        for edge in self.edges:
            for key in (*edge.sources, edge.target):
                if key not in ids:
                    raise ValueError(f"edge refers to unknown node {key}")
            if edge.label is not None and ("," in edge.label.en or "," in edge.label.zh):
                raise ValueError(f"edge label {edge.label.en!r} has a comma (thoughts split on it)")
        return self

    def node(self, node_id: str) -> NodeSpec:
        """The node ``node_id``."""
        return next(n for n in self.nodes if n.id == node_id)

    def tool(self, name: str) -> ToolSpecDef:
        """The tool ``name``."""
        return next(t for t in self.tools if t.name == name)


class DomainSpec(BaseModel):
    """A domain's description."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    description: Bi


class RoleSpec(BaseModel):
    """A role: its domain and description."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    domain: str
    description: Bi


class Catalogue(BaseModel):
    """Every domain, role and scenario of ours."""

    model_config = ConfigDict(frozen=True)

    domains: dict[str, DomainSpec]
    roles: dict[str, RoleSpec]
    scenarios: list[ScenarioSpec]


def _read(name: str) -> Any:
    file = resources.files("lifebench.flow.generate").joinpath("scenarios").joinpath(name)
    try:
        return yaml.safe_load(file.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {exc}", file=f"scenarios/{name}") from None


def load_catalogue() -> Catalogue:
    """Our scenarios (``scenarios/*.yaml``, in name order) with the domains and roles."""
    folder = resources.files("lifebench.flow.generate").joinpath("scenarios")
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".yaml"))
    meta = _read("_catalogue.yaml")
    scenarios = []
    for name in names:
        if name.startswith("_"):
            continue
        try:
            scenarios.append(ScenarioSpec.model_validate(_read(name)))
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(x) for x in first.get("loc", ()))
            raise InputError(str(first.get("msg")), file=f"scenarios/{name}", field=loc) from None
    try:
        catalogue = Catalogue(
            domains=meta.get("domains", {}), roles=meta.get("roles", {}), scenarios=scenarios
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(x) for x in first.get("loc", ()))
        raise InputError(
            str(first.get("msg")), file="scenarios/_catalogue.yaml", field=loc
        ) from None
    for s in catalogue.scenarios:
        role = catalogue.roles.get(s.role)
        if role is None or role.domain != s.domain or s.domain not in catalogue.domains:
            raise InputError(
                f"role {s.role!r} / domain {s.domain!r} not declared in _catalogue.yaml",
                file=f"scenarios (uuid {s.uuid})",
            )
    return catalogue

"""The knowledge base: domain → role → scenario → workflows (text / code / flowchart / summary)
and the scenario's tools (FlowBench's API definitions)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from lifebench._util.text import Language
from lifebench.flow.flowchart import Flowchart, parse_flowchart

WorkflowFormat = Literal["text", "code", "flowchart", "summary"]
WORKFLOW_FORMATS: tuple[WorkflowFormat, ...] = ("text", "code", "flowchart", "summary")

# Parameter types of the data → JSON-schema types.
JSON_TYPES: dict[str, str] = {
    "string": "string",
    "str": "string",
    "integer": "integer",
    "int": "integer",
    "number": "number",
    "float": "number",
    "boolean": "boolean",
    "bool": "boolean",
    "list": "array",
    "array": "array",
    "object": "object",
    "dict": "object",
}


class ParamSpec(BaseModel):
    """One input or output parameter as the data writes it: ``{type, description, required?,
    items?, properties?}`` (enumerations and formats live in the description)."""

    model_config = ConfigDict(frozen=True, extra="allow")

    # Field order = the data's key order, so that the API blocks print as the data does.
    type: str
    description: str = ""
    items: ParamSpec | None = None
    properties: dict[str, ParamSpec] | None = None
    required: bool | None = None

    def json_schema(self) -> dict[str, Any]:
        """The JSON schema of a value of this parameter."""
        kind = JSON_TYPES[self.type]
        schema: dict[str, Any] = {"type": kind}
        if self.description:
            schema["description"] = self.description
        enum = (self.model_extra or {}).get("enum")
        if isinstance(enum, list):
            schema["enum"] = enum
        if kind == "array" and self.items is not None:
            schema["items"] = self.items.json_schema()
        if kind == "object" and self.properties:
            schema["properties"] = {k: v.json_schema() for k, v in self.properties.items()}
            required = [k for k, v in self.properties.items() if v.required]
            if required:
                schema["required"] = required
        return schema

    def data(self) -> dict[str, Any]:
        """The parameter in the data's shape (what the API blocks print)."""
        return self.model_dump(exclude_none=True)


class ToolDef(BaseModel):
    """A scenario's API: name, description, input and output parameters."""

    model_config = ConfigDict(frozen=True)

    name: str
    description: str = ""
    inputs: dict[str, ParamSpec] = Field(default_factory=dict)
    outputs: dict[str, ParamSpec] = Field(default_factory=dict)

    def input_schema(self) -> dict[str, Any]:
        """JSON schema of the arguments (required from each parameter's ``required``; extra
        arguments refused)."""
        return {
            "type": "object",
            "properties": {k: v.json_schema() for k, v in self.inputs.items()},
            "required": [k for k, v in self.inputs.items() if v.required],
            "additionalProperties": False,
        }

    def output_schema(self) -> dict[str, Any]:
        """JSON schema of a return value (every declared output; nothing required)."""
        return {
            "type": "object",
            "properties": {k: v.json_schema() for k, v in self.outputs.items()},
        }

    def validate_arguments(self, arguments: Mapping[str, Any]) -> list[str]:
        """Problems of ``arguments`` against :meth:`input_schema` (empty when valid)."""
        return _validate(self.input_schema(), dict(arguments), f"{self.name} arguments")

    def validate_output(self, output: Any) -> list[str]:
        """Problems of a return value against :meth:`output_schema` (empty when valid)."""
        return _validate(self.output_schema(), output, f"{self.name} output")

    def api_block(self) -> str:
        """The four-line API block of FlowBench's prompts (its "Desciption" spelling kept:
        the official metric searches the prompt for "API: <name>")."""
        inputs = json.dumps({k: v.data() for k, v in self.inputs.items()}, ensure_ascii=False)
        outputs = json.dumps({k: v.data() for k, v in self.outputs.items()}, ensure_ascii=False)
        return (
            f"API: {self.name}\nAPI Desciption: {self.description}\n"
            f"Input parameters: {inputs}\nOutput parameters: {outputs}"
        )

    def signature(self) -> str:
        """Name and parameter names only (the paper's "None w/o tool" variant)."""
        return f"{self.name}({', '.join(self.inputs)})"

    def openai_schema(self) -> dict[str, Any]:
        """An OpenAI function-calling schema of this tool."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.input_schema(),
            },
        }

    def data(self) -> dict[str, Any]:
        """The tool in the shape of ``workflow_final.jsonl``'s ``apis`` entries."""
        return {
            "api_name": self.name,
            "api_description": self.description,
            "input_parameters": {k: v.data() for k, v in self.inputs.items()},
            "output_parameters": {k: v.data() for k, v in self.outputs.items()},
            "raw_block": self.api_block(),
        }


def _validate(schema: dict[str, Any], value: Any, what: str) -> list[str]:
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema)
    problems = []
    for err in sorted(validator.iter_errors(value), key=lambda e: list(e.path)):
        where = ".".join(str(p) for p in err.path)
        problems.append(f"{what}{'.' + where if where else ''}: {err.message}")
    return problems


class Scenario(BaseModel):
    """One scenario of one role: its workflow in each format and its tools."""

    model_config = ConfigDict(frozen=True)

    uuid: str
    domain: str
    role: str
    name: str
    workflows: dict[WorkflowFormat, str] = Field(default_factory=dict)
    tools: tuple[ToolDef, ...] = ()

    @cached_property
    def flowchart(self) -> Flowchart:
        """The parsed flowchart; empty when the source has none (the loader parses every chart
        up front, so this cannot fail for a loaded knowledge base)."""
        if "flowchart" not in self.workflows:
            return Flowchart(nodes=(), edges=())
        return parse_flowchart(self.workflows["flowchart"], self.name)

    def tool(self, name: str) -> ToolDef:
        """The tool called ``name``."""
        for t in self.tools:
            if t.name == name:
                return t
        raise KeyError(f"scenario {self.name!r} has no tool {name!r}")

    def tool_names(self) -> tuple[str, ...]:
        """Names of the scenario's tools."""
        return tuple(t.name for t in self.tools)


class KnowledgeBase(BaseModel):
    """Every scenario of a knowledge source, with the domain and role descriptions."""

    model_config = ConfigDict(frozen=True)

    scenarios: tuple[Scenario, ...]
    domain_descriptions: dict[str, str] = Field(default_factory=dict)
    role_descriptions: dict[str, str] = Field(default_factory=dict)
    language: Language = "en"
    source: str = Field("", description="Where it was loaded from.")

    @cached_property
    def _index(self) -> dict[str, Scenario]:
        index: dict[str, Scenario] = {}
        for s in self.scenarios:
            index.setdefault(s.name, s)
        for s in self.scenarios:
            index[s.uuid] = s
        return index

    def scenario(self, key: str | Scenario) -> Scenario:
        """The scenario with uuid or name ``key``."""
        if isinstance(key, Scenario):
            return key
        try:
            return self._index[key]
        except KeyError:
            raise KeyError(f"no scenario {key!r} in the knowledge base {self.source}") from None

    def has(self, key: str) -> bool:
        """Whether ``key`` names a scenario (uuid or name)."""
        return key in self._index

    def domains(self) -> list[str]:
        """Domains, in order of first appearance."""
        return list(dict.fromkeys(s.domain for s in self.scenarios))

    def roles(self, domain: str | None = None) -> list[str]:
        """Roles (of ``domain``), in order of first appearance."""
        return list(
            dict.fromkeys(s.role for s in self.scenarios if domain is None or s.domain == domain)
        )

    def role_scenarios(self, role: str) -> list[Scenario]:
        """Every scenario of ``role`` (the cross-scenario knowledge)."""
        return [s for s in self.scenarios if s.role == role]

    def domain_description(self, domain: str) -> str:
        """The domain's description, or "" when the source has none."""
        return self.domain_descriptions.get(domain, "")

    def role_description(self, role: str) -> str:
        """The role's description, or "" when the source has none."""
        return self.role_descriptions.get(role, "")

    def setting_scenarios(
        self, scenarios: tuple[str, ...] | list[str], role: str, setting: Literal["single", "cross"]
    ) -> list[Scenario]:
        """The scenarios whose knowledge an agent gets: the given ones (single setting) or every
        scenario of ``role`` (cross setting)."""
        if setting == "cross":
            return self.role_scenarios(role)
        return [self.scenario(s) for s in scenarios]

    def find_tool(self, name: str, scenarios: list[Scenario] | None = None) -> ToolDef | None:
        """The first tool called ``name`` among ``scenarios`` (all when None)."""
        for s in scenarios if scenarios is not None else self.scenarios:
            for t in s.tools:
                if t.name == name:
                    return t
        return None

"""Read a knowledge base: FlowSwitch's ``workflow_final.jsonl`` (workflows + tools per scenario),
the pools ``workflow_{text,code,flowchart,summary}.json``, ``domain_desc.json`` and
``role_desc.json`` — or the bundled knowledge of our own scenarios.

Every problem is reported through one :class:`~lifebench.errors.InputError` naming the file, the
line or scenario and the field; all problems of a source are collected before raising.
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from lifebench._util.inputs import parse_json, parse_json_records, read_text
from lifebench._util.text import Language
from lifebench.errors import InputError
from lifebench.flow._problems import Problems
from lifebench.flow.flowchart import FlowchartError, parse_flowchart
from lifebench.flow.kb.models import (
    JSON_TYPES,
    WORKFLOW_FORMATS,
    KnowledgeBase,
    ParamSpec,
    Scenario,
    ToolDef,
    WorkflowFormat,
)

FINAL_FILE = "workflow_final.jsonl"
POOL_FILES: dict[WorkflowFormat, str] = {f: f"workflow_{f}.json" for f in WORKFLOW_FORMATS}
DOMAIN_FILE = "domain_desc.json"
ROLE_FILE = "role_desc.json"


def bundled_knowledge_dir(language: Language) -> Traversable:
    """The bundled knowledge of ``language`` (our own scenarios)."""
    return (
        resources.files("lifebench.flow").joinpath("data").joinpath("knowledge").joinpath(language)
    )


def load_knowledge(path: Path | str | None = None, language: Language = "en") -> KnowledgeBase:
    """The knowledge base at ``path`` (a directory, a ``workflow_final.jsonl`` or a pool file
    ``workflow_<format>.json``), or the bundled one of ``language`` when None.

    A directory may hold ``workflow_final.jsonl`` and/or the four pools; pools fill the formats
    the jsonl lacks (and supply the workflows when it is absent: then the scenarios have no
    tools). ``domain_desc.json`` and ``role_desc.json`` are read when present.

    Raises:
        InputError: naming the file, line or scenario and field of every problem.
    """
    if path is None:
        root = bundled_knowledge_dir(language)
        return _load_dir(root, f"(bundled {language} knowledge)", language)
    p = Path(path)
    if p.is_dir():
        return _load_dir(p, str(p), language)
    if not p.is_file():
        raise InputError("no such knowledge file or directory", file=str(p))
    if p.suffix == ".jsonl":
        return _load(p.parent, str(p), language, final=p, pools={})
    for fmt, name in POOL_FILES.items():
        if p.name == name:
            return _load(p.parent, str(p), language, final=None, pools={fmt: p})
    raise InputError(
        f"not a knowledge file (expected a directory, {FINAL_FILE} or workflow_<format>.json)",
        file=str(p),
    )


def _load_dir(root: Path | Traversable, label: str, language: Language) -> KnowledgeBase:
    final = root.joinpath(FINAL_FILE)
    pools = {f: root.joinpath(n) for f, n in POOL_FILES.items() if root.joinpath(n).is_file()}
    if not final.is_file() and not pools:
        raise InputError(
            f"no knowledge files here (expected {FINAL_FILE} or workflow_<format>.json)",
            file=label,
        )
    return _load(root, label, language, final=final if final.is_file() else None, pools=pools)


def _load(
    root: Path | Traversable,
    label: str,
    language: Language,
    *,
    final: Path | Traversable | None,
    pools: dict[WorkflowFormat, Path | Traversable],
) -> KnowledgeBase:
    order: list[str] = []
    records: dict[str, dict[str, Any]] = {}
    if final is not None:
        _read_final(final, _name(final, root, label), order, records)
    for fmt, pool in pools.items():
        _read_pool(pool, _name(pool, root, label), fmt, order, records)
    domain_desc = _read_desc(root, DOMAIN_FILE, label)
    role_desc = _read_desc(root, ROLE_FILE, label)
    problems = Problems(label, "knowledge base")
    scenarios: list[Scenario] = []
    for uuid in order:
        rec = records[uuid]
        where = f"scenario {rec['name']!r} ({uuid})"
        if "flowchart" in rec["workflows"]:
            try:
                parse_flowchart(rec["workflows"]["flowchart"])
            except FlowchartError as exc:
                problems.add(where, "workflow.flowchart", str(exc))
                continue
        scenarios.append(
            Scenario(
                uuid=uuid,
                domain=rec["domain"],
                role=rec["role"],
                name=rec["name"],
                workflows=rec["workflows"],
                tools=tuple(rec["tools"]),
            )
        )
    problems.raise_if_any()
    return KnowledgeBase(
        scenarios=tuple(scenarios),
        domain_descriptions=domain_desc,
        role_descriptions=role_desc,
        language=language,
        source=label,
    )


def _name(file: Path | Traversable, root: Path | Traversable, label: str) -> str:
    return str(file) if isinstance(file, Path) else f"{label}/{file.name}"


def _read_json(file: Path | Traversable, name: str) -> Any:
    return parse_json(read_text(file, what="knowledge file"), name)


def _read_desc(root: Path | Traversable, filename: str, label: str) -> dict[str, str]:
    file = root.joinpath(filename)
    if not file.is_file():
        return {}
    name = _name(file, root, label)
    data = _read_json(file, name)
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise InputError("expected an object of name → description strings", file=name)
    return dict(data)


def _read_final(
    file: Path | Traversable, name: str, order: list[str], records: dict[str, dict[str, Any]]
) -> None:
    problems = Problems(name, "knowledge base")
    text = read_text(file, what="knowledge file")
    for record in parse_json_records(text, name, what="scenario"):
        number, data = record.line, record.value
        where = f"line {number}"
        if not isinstance(data, dict):
            problems.add(where, "", "expected a JSON object")
            continue
        rec = _scenario_fields(data, where, problems, name_key="scenario")
        if rec is None:
            continue
        where = f"line {number} (scenario {rec['name']!r})"
        workflow = data.get("workflow", {})
        if not isinstance(workflow, dict):
            problems.add(where, "workflow", "expected an object of format → text")
            workflow = {}
        for fmt, text in workflow.items():
            if fmt not in WORKFLOW_FORMATS:
                problems.add(
                    where, f"workflow.{fmt}", f"unknown format (one of {WORKFLOW_FORMATS})"
                )
            elif not isinstance(text, str):
                problems.add(where, f"workflow.{fmt}", "expected a string")
            else:
                rec["workflows"][fmt] = text
        apis = data.get("apis", [])
        if not isinstance(apis, list):
            problems.add(where, "apis", "expected a list")
            apis = []
        seen: set[str] = set()
        for i, api in enumerate(apis):
            tool = parse_tool(api, where, f"apis[{i}]", problems)
            if tool is None:
                continue
            if tool.name in seen:
                problems.add(where, f"apis[{i}].api_name", f"tool {tool.name!r} listed twice")
                continue
            seen.add(tool.name)
            rec["tools"].append(tool)
        uuid = rec["uuid"]
        if uuid in records:
            problems.add(where, "uuid", f"{uuid} appears twice")
            continue
        order.append(uuid)
        records[uuid] = rec
    problems.raise_if_any()


def _scenario_fields(
    data: dict[str, Any], where: str, problems: Problems, name_key: str
) -> dict[str, Any] | None:
    rec: dict[str, Any] = {"workflows": {}, "tools": []}
    ok = True
    for key, field in (
        ("uuid", "uuid"),
        ("domain", "domain"),
        ("role", "role"),
        ("name", name_key),
    ):
        value = data.get(field)
        if not isinstance(value, str) or not value.strip():
            problems.add(where, field, "missing or not a non-empty string")
            ok = False
        else:
            rec[key] = value
    return rec if ok else None


def _read_pool(
    file: Path | Traversable,
    name: str,
    fmt: WorkflowFormat,
    order: list[str],
    records: dict[str, dict[str, Any]],
) -> None:
    problems = Problems(name, "knowledge base")
    data = _read_json(file, name)
    if not isinstance(data, dict):
        raise InputError("expected an object of uuid → scenario", file=name)
    for uuid, entry in data.items():
        where = f"scenario {uuid}"
        if not isinstance(entry, dict):
            problems.add(where, "", "expected an object")
            continue
        rec = _scenario_fields({**entry, "uuid": uuid}, where, problems, "scenario_name")
        text = entry.get("workflow")
        if not isinstance(text, str):
            problems.add(where, "workflow", "missing or not a string")
            continue
        if rec is None:
            continue
        known = records.get(uuid)
        if known is None:
            order.append(uuid)
            records[uuid] = rec
            known = rec
        else:
            for key in ("domain", "role", "name"):
                if known[key] != rec[key]:
                    problems.add(
                        where,
                        "scenario_name" if key == "name" else key,
                        f"{rec[key]!r} here but {known[key]!r} in another file",
                    )
        known["workflows"].setdefault(fmt, text)
    problems.raise_if_any()


def parse_tool(api: Any, where: str, field: str, problems: Problems) -> ToolDef | None:
    """A :class:`ToolDef` from one ``apis`` entry of the data (``api_name``,
    ``api_description``, ``input_parameters``, ``output_parameters``); problems are recorded."""
    if not isinstance(api, dict):
        problems.add(where, field, "expected an object")
        return None
    name = api.get("api_name", api.get("name"))
    if not isinstance(name, str) or not name.strip():
        problems.add(where, f"{field}.api_name", "missing or not a non-empty string")
        return None
    description = api.get("api_description", api.get("description", ""))
    if not isinstance(description, str):
        problems.add(where, f"{field}.api_description", "expected a string")
        description = ""
    inputs = _params(api.get("input_parameters", {}), where, f"{field}.input_parameters", problems)
    outputs = _params(
        api.get("output_parameters", {}), where, f"{field}.output_parameters", problems
    )
    if inputs is None or outputs is None:
        return None
    return ToolDef(name=name, description=description, inputs=inputs, outputs=outputs)


def _params(raw: Any, where: str, field: str, problems: Problems) -> dict[str, ParamSpec] | None:
    if not isinstance(raw, dict):
        problems.add(where, field, "expected an object of parameter name → definition")
        return None
    out: dict[str, ParamSpec] = {}
    ok = True
    for pname, spec in raw.items():
        pfield = f"{field}.{pname}"
        try:
            param = ParamSpec.model_validate(spec)
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(x) for x in first.get("loc", ()))
            problems.add(where, f"{pfield}{'.' + loc if loc else ''}", str(first.get("msg")))
            ok = False
            continue
        bad = _unknown_type(param)
        if bad is not None:
            problems.add(
                where, f"{pfield}.type", f"unknown type {bad!r} (one of {', '.join(JSON_TYPES)})"
            )
            ok = False
            continue
        out[pname] = param
    return out if ok else None


def _unknown_type(param: ParamSpec) -> str | None:
    if param.type not in JSON_TYPES:
        return param.type
    for sub in [param.items] if param.items is not None else []:
        found = _unknown_type(sub)
        if found is not None:
            return found
    for sub in (param.properties or {}).values():
        found = _unknown_type(sub)
        if found is not None:
            return found
    return None


def parse_function_tool(fn: Any, where: str, field: str, problems: Problems) -> ToolDef | None:
    """A :class:`ToolDef` from a function-schema entry (official session files'
    ``functions_with_response``: ``{name, description?, parameters: {properties, required},
    response: {properties} | <one type>}``); problems are recorded."""
    if not isinstance(fn, dict):
        problems.add(where, field, "expected an object")
        return None
    if "api_name" in fn:
        return parse_tool(fn, where, field, problems)
    name = fn.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.add(where, f"{field}.name", "missing or not a non-empty string")
        return None
    description = fn.get("description", "")
    parameters = fn.get("parameters", {}) or {}
    if not isinstance(parameters, dict):
        problems.add(where, f"{field}.parameters", "expected an object")
        return None
    properties = parameters.get("properties", {}) or {}
    required = parameters.get("required", []) or []
    if not isinstance(properties, dict) or not isinstance(required, list):
        problems.add(where, f"{field}.parameters", "expected properties (object), required (list)")
        return None
    raw_inputs = {
        p: {**spec, "required": p in required} if isinstance(spec, dict) else spec
        for p, spec in properties.items()
    }
    inputs = _params(raw_inputs, where, f"{field}.parameters.properties", problems)
    response = fn.get("response", {})
    if isinstance(response, dict) and isinstance(response.get("properties"), dict):
        raw_outputs: Any = response["properties"]
    elif isinstance(response, dict) and "type" in response:
        raw_outputs = {"result": response}
    elif isinstance(response, str):
        raw_outputs = {"result": {"type": response}}
    else:
        raw_outputs = {}
    outputs = _params(raw_outputs, where, f"{field}.response", problems)
    if inputs is None or outputs is None:
        return None
    text = description if isinstance(description, str) else ""
    return ToolDef(name=name, description=text, inputs=inputs, outputs=outputs)


def function_tool_data(tool: ToolDef) -> dict[str, Any]:
    """``tool`` as a ``functions_with_response`` entry (the inverse of parse_function_tool)."""
    return {
        "name": tool.name,
        "description": tool.description,
        "parameters": {
            "type": "object",
            "properties": {
                k: {x: y for x, y in v.data().items() if x != "required"}
                for k, v in tool.inputs.items()
            },
            "required": [k for k, v in tool.inputs.items() if v.required],
        },
        "response": {"properties": {k: v.data() for k, v in tool.outputs.items()}},
    }

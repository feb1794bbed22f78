"""A :class:`Tool` is built from one typed Python function."""

from __future__ import annotations

import collections.abc
import copy
import inspect
import json
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from lifebench._util.text import Language, Text
from lifebench.messages import Usage
from lifebench.tools._errors import ToolError, ToolErrorKind
from lifebench.tools._spec import TOOL_SPEC_ATTR, Param, ToolKind, ToolSpec

_PRE = Text("Preconditions:", "前置条件：")
_POST = Text("Postconditions:", "后置条件：")


@dataclass(frozen=True)
class ToolOutcome:
    """What running a tool produced: a rendered result or an error the agent will see."""

    content: str
    error: bool = False
    error_kind: ToolErrorKind | None = None
    value: Any = None
    usage: Usage | None = None
    """Usage of the model call that produced the content (a simulated tool), if any."""


def _strip_param(annotation: Any) -> tuple[Any, Param | None]:
    """Split ``Annotated[T, Param(...), ...]`` into ``T`` (keeping other metadata) and the Param."""
    if typing.get_origin(annotation) is typing.Annotated:
        base, *meta = typing.get_args(annotation)
        params = [m for m in meta if isinstance(m, Param)]
        rest = [m for m in meta if not isinstance(m, Param)]
        stripped = typing.Annotated[(base, *rest)] if rest else base
        return stripped, (params[0] if params else None)
    return annotation, None


def _inline(schema: Any, defs: Mapping[str, Any]) -> Any:
    """Inline ``$ref``s, drop titles, and collapse ``Optional[X]`` to ``X``."""
    if isinstance(schema, list):
        return [_inline(s, defs) for s in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        target = defs[schema["$ref"].rsplit("/", 1)[-1]]
        merged = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        return _inline(merged, defs)
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("title", "$defs"):
            continue
        out[key] = _inline(value, defs)
    any_of = out.get("anyOf")
    if isinstance(any_of, list):
        non_null = [s for s in any_of if s != {"type": "null"}]
        if len(non_null) == 1 and len(non_null) < len(any_of):
            out.pop("anyOf")
            out = {**non_null[0], **out}
    if out.get("default", 0) is None:
        out.pop("default")
    return out


def _build_arguments(
    name: str, fn: Callable[..., Any]
) -> tuple[type[BaseModel], Mapping[str, Text]]:
    """The strict argument model of ``fn`` and the per-parameter documentation."""
    hints = typing.get_type_hints(fn, include_extras=True)
    fields: dict[str, Any] = {}
    docs: dict[str, Text] = {}
    for pname, param in inspect.signature(fn).parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise TypeError(f"tool {name}: *args/**kwargs are not allowed")
        if pname not in hints:
            raise TypeError(f"tool {name}: parameter '{pname}' has no type annotation")
        annotation, doc = _strip_param(hints[pname])
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[pname] = (annotation, default)
        if doc is not None:
            docs[pname] = doc.description
    model = create_model(
        f"{name}_arguments",
        __config__=ConfigDict(extra="forbid", strict=True),
        **fields,
    )
    return model, docs


_SEQUENCES = (list, tuple, collections.abc.Sequence)
_UNIONS = (typing.Union, types.UnionType)


def _integral(value: Any, annotation: Any) -> Any:
    """``value`` with integral floats (``2.0``) turned into ints where ``annotation`` expects an
    int (also inside ``list[int]``, ``Sequence[int]``, ``tuple[int, ...]`` and optionals);
    everything else unchanged."""
    if typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if isinstance(value, float):
        wants_int = annotation is int or (origin in _UNIONS and int in args and float not in args)
        return int(value) if wants_int and value.is_integer() else value
    if not isinstance(value, list):
        return value
    if origin in _UNIONS:  # e.g. list[int] | None: the first sequence member
        member = next((a for a in args if typing.get_origin(a) in _SEQUENCES), None)
        return value if member is None else _integral(value, member)
    if origin in _SEQUENCES and args and (origin is not tuple or args[-1] is Ellipsis):
        return [_integral(v, args[0]) for v in value]
    return value


def _admits_none(annotation: Any) -> bool:
    if annotation is None or annotation is type(None) or annotation is Any:
        return True
    if typing.get_origin(annotation) is typing.Annotated:
        return _admits_none(typing.get_args(annotation)[0])
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return any(_admits_none(m) for m in typing.get_args(annotation))
    return False


def _lenient(decoded: dict[str, Any], model: type[BaseModel]) -> dict[str, Any]:
    """What the official tools accept although the strict model would not, when the meaning is
    unambiguous: ``null`` for an optional argument means "not given" (its default), and an
    integral float (``2.0``, ``[1.0]``) is the integer where an integer is expected. A
    non-integral float (``2.5``) is left for the model to refuse."""
    out = dict(decoded)
    for name, field in model.model_fields.items():
        if name not in out:
            continue
        if out[name] is None:
            if not field.is_required() and not _admits_none(field.annotation):
                del out[name]
            continue
        out[name] = _integral(out[name], field.annotation)
    return out


def _describe_error(err: dict[str, Any]) -> str:
    loc = ".".join(str(p) for p in err.get("loc", ()))
    kind = err.get("type", "")
    if kind == "missing":
        return f"missing required argument '{loc}'"
    if kind == "extra_forbidden":
        return f"unexpected argument '{loc}'"
    return f"argument '{loc}': {err.get('msg', 'invalid value')}"


@dataclass(frozen=True)
class Tool:
    """One tool: its metadata, its argument model, and the function that runs it."""

    name: str
    spec: ToolSpec
    fn: Callable[..., Any]
    args_model: type[BaseModel]
    param_docs: Mapping[str, Text]

    @classmethod
    def from_function(cls, fn: Callable[..., Any], spec: ToolSpec | None = None) -> Tool:
        """Build a tool from a function (or bound method) carrying a ``@tool`` spec."""
        spec = spec or getattr(fn, TOOL_SPEC_ATTR, None)
        if spec is None:
            raise TypeError(f"{fn!r} is not decorated with @tool")
        name = spec.name or fn.__name__
        underlying = getattr(fn, "__func__", fn)
        cacheable = getattr(underlying, TOOL_SPEC_ATTR, None) is spec
        cached = spec.memo.get("definition") if cacheable else None
        if cached is None:
            cached = _build_arguments(name, fn)
            if cacheable:
                spec.memo["definition"] = cached
        model, docs = cached
        return cls(name=name, spec=spec, fn=fn, args_model=model, param_docs=docs)

    @property
    def kind(self) -> ToolKind:
        """read / write / general."""
        return self.spec.kind

    def description(self, language: Language = "en") -> str:
        """The description the agent sees, with preconditions and postconditions appended."""
        parts = [self.spec.description.get(language)]
        if self.spec.preconditions:
            lines = "\n".join(f"- {p.get(language)}" for p in self.spec.preconditions)
            parts.append(f"{_PRE.get(language)}\n{lines}")
        if self.spec.postconditions:
            lines = "\n".join(f"- {p.get(language)}" for p in self.spec.postconditions)
            parts.append(f"{_POST.get(language)}\n{lines}")
        return "\n\n".join(parts)

    def parameters_schema(self, language: Language = "en") -> dict[str, Any]:
        """JSON schema of the arguments, derived from the signature (no hand-written copy)."""
        raw = self.args_model.model_json_schema()
        schema = _inline(raw, raw.get("$defs", {}))
        props: dict[str, Any] = schema.get("properties", {})
        for pname, doc in self.param_docs.items():
            if pname in props:
                props[pname] = {"description": doc.get(language), **props[pname]}
        return {
            "type": "object",
            "properties": props,
            "required": list(schema.get("required", [])),
            "additionalProperties": False,
        }

    def openai_schema(self, language: Language = "en") -> dict[str, Any]:
        """The OpenAI function-calling schema of this tool (a fresh copy; computed once)."""
        key = ("openai_schema", language, self.name, self.args_model)
        if key not in self.spec.memo:
            self.spec.memo[key] = self._openai_schema(language)
        schema: dict[str, Any] = copy.deepcopy(self.spec.memo[key])
        return schema

    def _openai_schema(self, language: Language) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description(language),
                "parameters": self.parameters_schema(language),
            },
        }

    def parse_arguments(self, arguments: str | Mapping[str, Any]) -> BaseModel:
        """Decode and validate arguments; raise :class:`ToolError` (``bad_arguments``) if bad.

        Validation is strict (no strings for numbers, no numbers for strings) except where the
        meaning is unambiguous: ``null`` for an optional argument takes its default, and an
        integral float (``2.0``) is accepted for an integer (``2.5`` is still refused).
        """
        if isinstance(arguments, str):
            text = arguments.strip() or "{}"
            try:
                decoded = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ToolError(
                    f"Invalid arguments for {self.name}: not valid JSON ({exc.msg} at "
                    f"position {exc.pos}).",
                    "bad_arguments",
                ) from None
        else:
            decoded = dict(arguments)
        if not isinstance(decoded, dict):
            raise ToolError(
                f"Invalid arguments for {self.name}: expected a JSON object, got "
                f"{type(decoded).__name__}.",
                "bad_arguments",
            )
        try:
            return self.args_model.model_validate(_lenient(decoded, self.args_model))
        except ValidationError as exc:
            problems = "; ".join(_describe_error(dict(e)) for e in exc.errors())
            raise ToolError(
                f"Invalid arguments for {self.name}: {problems}.", "bad_arguments"
            ) from None

    async def run(self, arguments: str | Mapping[str, Any]) -> ToolOutcome:
        """Validate the arguments, run the function, and render its result; never raises."""
        try:
            parsed = self.parse_arguments(arguments)
            kwargs = {k: getattr(parsed, k) for k in type(parsed).model_fields}
            result = self.fn(**kwargs)
            if inspect.isawaitable(result):
                result = await result
        except ToolError as exc:
            return ToolOutcome(content=exc.message, error=True, error_kind=exc.kind)
        except Exception as exc:  # a bug in a tool must not end the simulation
            return ToolOutcome(
                content=f"Internal error in tool {self.name}: {type(exc).__name__}: {exc}",
                error=True,
                error_kind="internal",
            )
        return ToolOutcome(content=render_result(result), value=result)


def render_result(value: Any) -> str:
    """Render a tool's return value as stable text: strings as is, the rest as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, BaseModel):
        return value.model_dump_json(exclude_none=False)
    # plain JSON data (the usual result) is encoded as it is: converting it first would
    # rebuild the same structure (about three times the encoding's own cost)
    return json.dumps(value if _plain(value) else _jsonable(value), ensure_ascii=False)


def _plain(value: Any) -> bool:
    """Whether ``value`` is JSON data of the exact built-in types (dicts with ``str`` keys,
    lists, tuples, str, int, float, bool, None), which :func:`_jsonable` would return
    unchanged but for tuples becoming lists (encoded alike)."""
    kind = type(value)
    if kind is dict:
        return all(type(key) is str and _plain(item) for key, item in value.items())
    if kind is list or kind is tuple:
        return all(_plain(item) for item in value)
    return kind is str or kind is int or kind is float or kind is bool or value is None


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def tools_of(obj: object) -> list[Tool]:
    """Every ``@tool`` method of ``obj`` (bound to it), in class definition order.

    A method a subclass overrides keeps its base-class position but uses the override's
    ``@tool`` spec when it has one.
    """
    seen: set[str] = set()
    found: list[Tool] = []
    for klass in reversed(type(obj).__mro__):
        for attr, member in vars(klass).items():
            spec = getattr(member, TOOL_SPEC_ATTR, None)
            if spec is None or attr in seen:
                continue
            seen.add(attr)
            final = getattr(getattr(type(obj), attr), TOOL_SPEC_ATTR, spec)
            found.append(Tool.from_function(getattr(obj, attr), final))
    return found


__all__ = ["Tool", "ToolKind", "ToolOutcome", "render_result", "tools_of"]

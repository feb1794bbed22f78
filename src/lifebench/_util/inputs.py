"""The one reader of every input file: task files of every suite, models and sweep files.

Every rule is applied the same way wherever a user's file is read, so the three suites and the
configuration files accept and refuse the same things:

* **Regular files only**, at most ``max_bytes`` (a FIFO, ``/dev/zero``, ``/dev/urandom``, a
  socket or a directory is refused before anything is read: opening never blocks).
* **UTF-8 text.** One leading byte-order mark is dropped; UTF-16 / UTF-32 text and bytes that
  are not UTF-8 are refused with their line and column; a file with nothing but white space is
  refused as empty.
* **JSON** (:func:`parse_json`, :func:`parse_json_records`): ``NaN``, ``Infinity`` and numbers
  too large for a double are refused (a ``-Infinity`` latitude would silently change a grade),
  and so are strings holding a lone surrogate (``"\\ud800"``: no UTF-8 text can hold one) and
  objects with a duplicate key (JSON says nothing of which one wins). Each refusal names the
  line and the field (``[3].environment.stores[0].latitude``).
* **YAML** (:func:`parse_yaml`): PyYAML's safe constructors without aliases (``*name``: a
  "billion laughs" file expands to gigabytes), duplicate keys, non-finite numbers (``.inf``,
  ``.nan``) or lone surrogates, each named with its line.

Records of a task file (:func:`parse_json_records`) are the items of one JSON array or the
non-blank lines of a JSON Lines file, each with the line where it starts.
"""

from __future__ import annotations

import codecs
import json
import math
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from lifebench.errors import InputError

MAX_TASK_FILE_BYTES = 512 * 2**20
"""Largest task file read (512 MiB; the official files are a few MB)."""
MAX_CONFIG_FILE_BYTES = 2**20
"""Largest models or sweep file read (1 MiB; they are a few KB)."""

FieldPath = tuple[str | int, ...]

_UTF8_BOM = codecs.BOM_UTF8
_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def format_path(path: FieldPath) -> str:
    """``("environment", "stores", 0, "lat")`` → ``environment.stores[0].lat``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def size_text(count: int) -> str:
    """``1536`` → ``1.5 KiB``."""
    size = float(count)
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{count} bytes" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")  # pragma: no cover


# --------------------------------------------------------------------------------------------
# Files and text
# --------------------------------------------------------------------------------------------


def read_bytes(
    path: Path | str, *, what: str = "file", max_bytes: int = MAX_TASK_FILE_BYTES
) -> bytes:
    """The bytes of the regular file at ``path`` (see the module docstring).

    Raises:
        InputError: missing, not a regular file, unreadable or larger than ``max_bytes``;
            the message names the file.
    """
    name = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(f"no such {what}", file=name) from None
    except IsADirectoryError:
        raise InputError(f"is a directory, expected a {what}", file=name) from None
    except OSError as exc:
        raise InputError(f"cannot open the {what}: {exc.strerror or exc}", file=name) from None
    try:
        info = os.fstat(fd)
        for test, kind in _KINDS:
            if test(info.st_mode):
                raise InputError(f"is {kind}, not a regular file; give a {what}", file=name)
        if info.st_size > max_bytes:
            raise InputError(
                f"the {what} is {size_text(info.st_size)}, more than the {size_text(max_bytes)} "
                "lifebench reads",
                file=name,
            )
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise InputError(
                    f"the {what} is more than the {size_text(max_bytes)} lifebench reads",
                    file=name,
                )
    except OSError as exc:
        raise InputError(f"cannot read the {what}: {exc.strerror or exc}", file=name) from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def decode_text(data: bytes, source: str, *, what: str = "file", allow_empty: bool = False) -> str:
    """``data`` as text: UTF-8, one leading byte-order mark dropped, not empty (unless
    ``allow_empty``).

    Raises:
        InputError: UTF-16 / UTF-32 text, bytes that are not UTF-8 (with their line and
            column), or nothing but white space.
    """
    for bom, encoding in _WIDE_BOMS:
        if data.startswith(bom):
            raise InputError(
                f"the {what} is {encoding} text (it starts with a {encoding} byte-order mark); "
                "save it as UTF-8",
                file=source,
            )
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            f"not UTF-8 text: byte {column} of the line is 0x{data[exc.start]:02x} "
            f"({exc.reason}); save the {what} as UTF-8",
            file=source,
            line=line,
        ) from None
    if not allow_empty and not text.strip():
        raise InputError(f"the {what} is empty", file=source)
    return text


def read_text(
    path: Path | str | Traversable,
    *,
    what: str = "file",
    max_bytes: int = MAX_TASK_FILE_BYTES,
    allow_empty: bool = False,
) -> str:
    """The text of a user's file (:func:`read_bytes` then :func:`decode_text`); package data
    (an :class:`~importlib.abc.Traversable` that is not a path) is decoded the same way."""
    if isinstance(path, Path | str):
        data = read_bytes(path, what=what, max_bytes=max_bytes)
    else:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror or exc}", file=str(path)) from None
    return decode_text(data, str(path), what=what, allow_empty=allow_empty)


# --------------------------------------------------------------------------------------------
# JSON
# --------------------------------------------------------------------------------------------


class _NonFinite:
    """What a ``NaN`` / ``Infinity`` literal or an overflowing number parses to (found by
    :func:`_find`, then refused)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class _Duplicates(dict[str, Any]):
    """An object that had a duplicate key (the key is kept in ``duplicate``)."""

    duplicate: str = ""


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)|(-?\d[\d.eE+-]*)')


class _Decoder:
    """A JSON decoder whose hooks mark what must be refused; ``marked`` tells whether the
    last value decoded holds a mark (only then is it walked)."""

    def __init__(self, *, duplicate_keys: bool = False) -> None:
        self.marked = False
        self.json = json.JSONDecoder(
            object_pairs_hook=None if duplicate_keys else self._pairs,
            parse_constant=self._constant,
            parse_float=self._float,
        )

    def _pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) == len(pairs):
            return out
        self.marked = True
        seen: set[str] = set()
        marked = _Duplicates(pairs)
        for key, _ in pairs:
            if key in seen:
                marked.duplicate = key
                break
            seen.add(key)
        return marked

    def _constant(self, text: str) -> _NonFinite:
        self.marked = True
        return _NonFinite(text)

    def _float(self, text: str) -> float | _NonFinite:
        value = float(text)
        if math.isfinite(value):
            return value
        self.marked = True
        return _NonFinite(text)

    def decode(self, text: str) -> Any:
        self.marked = False
        return self.json.decode(text)

    def raw_decode(self, text: str, pos: int) -> tuple[Any, int]:
        self.marked = False
        return self.json.raw_decode(text, pos)


def _problem_at(value: Any) -> str | None:
    """What is wrong with one parsed value itself (None: nothing)."""
    if isinstance(value, _NonFinite):
        return f"{value.text} is not a finite number (NaN and infinities are refused)"
    if isinstance(value, str) and _LONE_SURROGATE.search(value):
        return f"the text {_quote(value)} holds a lone surrogate (not valid Unicode)"
    if isinstance(value, _Duplicates):
        return f"the key {value.duplicate!r} appears twice in one object"
    return None


def _quote(text: str) -> str:
    shown = text if len(text) <= 40 else text[:40] + "…"
    return ascii(shown)


def _find(value: Any, path: FieldPath = ()) -> tuple[FieldPath, str] | None:
    """The first value under ``value`` that :func:`_problem_at` refuses, with its path
    (iterative: a deeply nested document does not exhaust the stack)."""
    stack: list[tuple[FieldPath, Any]] = [(path, value)]
    while stack:
        where, item = stack.pop()
        problem = _problem_at(item)
        if problem is not None:
            if isinstance(item, _Duplicates):
                return (*where, item.duplicate), problem
            return where, problem
        if isinstance(item, dict):
            children: list[tuple[FieldPath, Any]] = []
            for key, child in item.items():
                key_problem = _problem_at(key)
                if key_problem is not None:
                    return (*where, key), f"a key: {key_problem}"
                children.append(((*where, key), child))
            stack.extend(reversed(children))
        elif isinstance(item, list):
            stack.extend(((*where, i), child) for i, child in reversed(list(enumerate(item))))
    return None


def _line_of_token(text: str, start: int, end: int, problem: str) -> int | None:
    """The line (1-based) of the first token in ``text[start:end]`` that explains
    ``problem`` (a non-finite number or a lone surrogate escape); None if not found."""
    if "surrogate" in problem:
        for match in _SURROGATE_ESCAPE.finditer(text, start, end):
            return text.count("\n", 0, match.start()) + 1
        return None
    if "appears twice" in problem:
        key = problem.split("'")[1] if problem.count("'") >= 2 else ""
        pattern = re.compile(re.escape(json.dumps(key)) + r"\s*:")
        found = list(pattern.finditer(text, start, end))
        if len(found) >= 2:
            return text.count("\n", 0, found[1].start()) + 1
        return None
    if "finite" not in problem:
        return None
    for match in _TOKEN.finditer(text, start, end):
        literal, number = match.group(1), match.group(2)
        if literal or (number and (len(number) >= 300 or not _finite(number))):
            return text.count("\n", 0, match.start()) + 1
    return None


def _finite(number: str) -> bool:
    try:
        return math.isfinite(float(number))
    except ValueError:
        return True


def _decode_error(exc: json.JSONDecodeError, source: str, line_offset: int = 0) -> InputError:
    return InputError(
        f"invalid JSON at line {exc.lineno + line_offset}, column {exc.colno}: {exc.msg}",
        file=source,
    )


def _digits(source: str, line: int | None = None) -> InputError:
    return InputError(
        "a number has more digits than can be read (over 4300)", file=source, line=line
    )


def _deep(source: str, line: int | None = None) -> InputError:
    return InputError(
        "nested too deeply to read (hundreds of levels of arrays or objects)",
        file=source,
        line=line,
    )


def _check(
    decoder: _Decoder,
    value: Any,
    text: str,
    span: tuple[int, int],
    source: str,
    line: int,
    prefix: FieldPath = (),
) -> None:
    """Refuse ``value`` (parsed from ``text[span]``, starting at ``line``) when it holds a
    non-finite number, a duplicate key or a lone surrogate."""
    if not decoder.marked and _SURROGATE_ESCAPE.search(text, span[0], span[1]) is None:
        return
    found = _find(value, prefix)
    if found is None:
        return
    path, problem = found
    exact = _line_of_token(text, span[0], span[1], problem)
    raise InputError(problem, file=source, line=exact or line, field=format_path(path) or None)


def parse_json(text: str, source: str, *, duplicate_keys: bool = False) -> Any:
    """One JSON document (see the module docstring for what is refused; ``duplicate_keys``:
    a repeated key keeps its last value, as the official harnesses read their own files).

    Raises:
        InputError: invalid JSON or a refused value, with the file, line and field.
    """
    decoder = _Decoder(duplicate_keys=duplicate_keys)
    try:
        value = decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise _decode_error(exc, source) from None
    except ValueError:
        raise _digits(source) from None
    except RecursionError:
        raise _deep(source) from None
    _check(decoder, value, text, (0, len(text)), source, 1)
    return value


@dataclass(frozen=True, slots=True)
class Record:
    """One item of a JSON array, or one line of a JSON Lines file."""

    index: int
    """0-based position among the records."""
    line: int
    """1-based line where the record starts."""
    value: Any


_SPACE = re.compile(r"[ \t\n\r]*")


def _array_records(text: str, source: str, decoder: _Decoder) -> Iterator[Record]:
    """The items of the JSON array that is the whole of ``text``, each with its line."""
    pos = _SPACE.match(text, 0).end()  # type: ignore[union-attr]
    assert text[pos] == "["
    pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
    index = 0
    line = 1
    counted = 0
    if pos < len(text) and text[pos] == "]":
        pos += 1
    else:
        while True:
            try:
                value, end = decoder.raw_decode(text, pos)
            except json.JSONDecodeError as exc:
                raise _decode_error(exc, source) from None
            except (ValueError, RecursionError) as exc:
                line += text.count("\n", counted, pos)
                if isinstance(exc, RecursionError):
                    raise _deep(source, line) from None
                raise _digits(source, line) from None
            line += text.count("\n", counted, pos)
            counted = pos
            _check(decoder, value, text, (pos, end), source, line, (index,))
            yield Record(index, line, value)
            index += 1
            pos = _SPACE.match(text, end).end()  # type: ignore[union-attr]
            if pos < len(text) and text[pos] == ",":
                pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
                continue
            if pos < len(text) and text[pos] == "]":
                pos += 1
                break
            raise _decode_error(
                json.JSONDecodeError("Expecting ',' delimiter", text, pos), source
            ) from None
    rest = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
    if rest < len(text):
        raise _decode_error(json.JSONDecodeError("Extra data", text, rest), source) from None


def parse_json_records(text: str, source: str, *, what: str = "record") -> list[Record]:
    """The records of a JSON array document or of a JSON Lines file (non-blank lines).

    A file whose first character is ``[`` is one JSON array; any other is JSON Lines, one
    value per line. A document that is a single value written over several lines (a
    pretty-printed object) is refused with that explanation.

    Raises:
        InputError: invalid JSON or a refused value (module docstring), with file, line and
            field.
    """
    decoder = _Decoder()
    if text.lstrip().startswith("["):
        return list(_array_records(text, source, decoder))
    records: list[Record] = []
    offset = 0
    for number, raw in enumerate(text.split("\n"), start=1):
        raw += "\n"
        start, offset = offset, offset + len(raw)
        if not raw.strip():
            continue
        try:
            value = decoder.decode(raw[:-1].removesuffix("\r"))
        except json.JSONDecodeError as exc:
            if not records and exc.msg != "Extra data":
                _refuse_single_document(text, source, decoder, what)
            raise _decode_error(exc, source, number - 1) from None
        except ValueError:
            raise _digits(source, number) from None
        except RecursionError:
            raise _deep(source, number) from None
        _check(decoder, value, text, (start, offset), source, number, (len(records),))
        records.append(Record(len(records), number, value))
    return records


def _refuse_single_document(text: str, source: str, decoder: _Decoder, what: str) -> None:
    """The first line is no JSON value: when the whole text is one (pretty-printed) value,
    say so; when it is one broken value (its error lies past the first line), report that
    error instead of the first line's."""
    try:
        value = decoder.decode(text)
    except json.JSONDecodeError as exc:
        if exc.lineno > 1:
            raise _decode_error(exc, source) from None
        return
    except (ValueError, RecursionError):
        return
    raise InputError(
        f"expected a JSON array of {what}s or JSON Lines (one {what} per line), got a single "
        f"JSON {json_kind(value)} written over several lines",
        file=source,
    )


def json_kind(value: Any) -> str:
    """The JSON name of a parsed value's type: object, array, string, number, boolean, null."""
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if value is None:
        return "null"
    return "number"


def load_json(
    path: Path | str,
    *,
    what: str = "file",
    max_bytes: int = MAX_CONFIG_FILE_BYTES,
    duplicate_keys: bool = False,
) -> Any:
    """:func:`parse_json` of the file at ``path`` (read by :func:`read_text`)."""
    text = read_text(path, what=what, max_bytes=max_bytes)
    return parse_json(text, str(path), duplicate_keys=duplicate_keys)


# --------------------------------------------------------------------------------------------
# YAML
# --------------------------------------------------------------------------------------------


def _yaml_loader() -> type[Any]:
    """PyYAML's safe loader without aliases, duplicate keys, non-finite numbers or lone
    surrogates (built on first use: PyYAML is imported only for YAML files)."""
    import yaml
    from yaml.nodes import MappingNode, ScalarNode

    class Refused(yaml.YAMLError):
        def __init__(self, line: int, message: str) -> None:
            super().__init__(message)
            self.line = line
            self.message = message

    class Loader(yaml.SafeLoader):
        refused = Refused

        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()  # type: ignore[no-untyped-call]
                raise Refused(
                    event.start_mark.line + 1,
                    f"YAML aliases (*{event.anchor}) are not allowed: write the value out "
                    "(an alias can expand a small file to gigabytes)",
                )
            return super().compose_node(parent, index)

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            if isinstance(node, MappingNode):
                self.flatten_mapping(node)
                seen: dict[Any, int] = {}
                for key_node, _ in node.value:
                    if not isinstance(key_node, ScalarNode):
                        continue
                    key = self.construct_object(key_node, deep=True)
                    line = key_node.start_mark.line + 1
                    try:
                        first = seen.get(key)
                    except TypeError:
                        continue
                    if first is not None:
                        raise Refused(
                            line, f"the key {key!r} appears twice (first at line {first})"
                        )
                    seen[key] = line
            return super().construct_mapping(node, deep=deep)

        def construct_yaml_float(self, node: Any) -> Any:
            value = super().construct_yaml_float(node)
            if not math.isfinite(value):
                raise Refused(
                    node.start_mark.line + 1,
                    f"{node.value} is not a finite number (NaN and infinities are refused)",
                )
            return value

        def construct_yaml_str(self, node: Any) -> Any:
            value = super().construct_yaml_str(node)
            if _LONE_SURROGATE.search(value):
                raise Refused(
                    node.start_mark.line + 1,
                    f"the text {_quote(value)} holds a lone surrogate (not valid Unicode)",
                )
            return value

    Loader.add_constructor("tag:yaml.org,2002:float", Loader.construct_yaml_float)
    Loader.add_constructor("tag:yaml.org,2002:str", Loader.construct_yaml_str)
    return Loader


def parse_yaml(text: str, source: str) -> Any:
    """One YAML document, loaded safely (see the module docstring for what is refused).

    Raises:
        InputError: invalid YAML or a refused construct, with the file and line.
    """
    import yaml

    loader_class = _yaml_loader()
    loader = loader_class(text)
    try:
        return loader.get_single_data()
    except loader_class.refused as exc:
        raise InputError(exc.message, file=source, line=exc.line) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise InputError(f"invalid YAML: {problem}", file=source, line=line) from None
    except yaml.YAMLError as exc:
        raise InputError(f"invalid YAML: {exc}", file=source) from None
    except RecursionError:
        raise _deep(source) from None
    finally:
        loader.dispose()


def load_config(path: Path | str, *, what: str = "file") -> tuple[Any, str]:
    """A models or sweep file: JSON when its name ends in ``.json``, else YAML (a superset);
    returns the data (None for an empty file) and the text (for the lines of later messages).

    Raises:
        InputError: see :func:`read_text`, :func:`parse_json` and :func:`parse_yaml`.
    """
    text = read_text(path, what=what, max_bytes=MAX_CONFIG_FILE_BYTES, allow_empty=True)
    if str(path).lower().endswith(".json"):
        return parse_json(text, str(path)), text
    return parse_yaml(text, str(path)), text

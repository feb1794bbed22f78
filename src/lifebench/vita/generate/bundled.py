"""Generated task sets shipped as package data (``lifebench/vita/data/generated``)."""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable

from lifebench.errors import InputError
from lifebench.vita.loader import parse_tasks
from lifebench.vita.task import VitaTask

_PACKAGE = "lifebench.vita.data"
_FOLDER = "generated"


def _folder() -> Traversable:
    return resources.files(_PACKAGE).joinpath(_FOLDER)


def available_generated_tasks() -> list[tuple[str, str]]:
    """``(domain, language)`` pairs of the bundled generated sets, sorted."""
    folder = _folder()
    if not folder.is_dir():
        return []
    pairs = []
    for entry in folder.iterdir():
        name = entry.name
        if entry.is_file() and name.endswith(".json") and "_" in name:
            domain, _, language = name[: -len(".json")].rpartition("_")
            pairs.append((domain, language))
    return sorted(pairs)


def bundled_generated_tasks(domain: str, language: str) -> list[VitaTask]:
    """The bundled generated tasks of ``domain`` in ``language`` (100 per set, seed 0).

    Raises:
        InputError: no such set (the message lists the sets that exist).
    """
    name = f"{domain}_{language}.json"
    resource = _folder().joinpath(name)
    if not resource.is_file():
        known = ", ".join(f"{d}/{lang}" for d, lang in available_generated_tasks()) or "none"
        raise InputError(
            f"no generated tasks for domain {domain!r} and language {language!r} "
            f"(available: {known})"
        )
    return parse_tasks(resource.read_text(encoding="utf-8"), f"{_PACKAGE}/{_FOLDER}/{name}")

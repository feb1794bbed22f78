"""The official ``sandbox_cache`` folder: ``<tool>_cache.json`` (one JSON object, key → result
string), loaded lazily per tool, read-only."""

from __future__ import annotations

import json
from pathlib import Path

from lifebench._util.inputs import MAX_TASK_FILE_BYTES, load_json
from lifebench.errors import InputError
from lifebench.travel.sandbox.keys import params_of_key, renormalize_key


class OfficialCache:
    """Read access to an official cache folder (or an empty one when ``folder`` is None)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._exact: dict[str, dict[str, str]] = {}
        self._normal: dict[str, dict[str, str]] = {}

    def file_of(self, tool: str) -> Path | None:
        """``<folder>/<tool>_cache.json``."""
        return None if self.folder is None else self.folder / f"{tool}_cache.json"

    def entries(self, tool: str) -> dict[str, str]:
        """Every cached key → result of ``tool`` (empty when the file does not exist)."""
        if tool not in self._exact:
            self._exact[tool] = self._load(tool)
        return self._exact[tool]

    def _load(self, tool: str) -> dict[str, str]:
        path = self.file_of(tool)
        if path is None or not path.is_file():
            return {}
        # (written by the official harness: a repeated key keeps its last value, as there)
        data = load_json(
            path, what="sandbox cache file", max_bytes=MAX_TASK_FILE_BYTES, duplicate_keys=True
        )
        if not isinstance(data, dict):
            raise InputError("expected one JSON object (key → result)", file=str(path))
        return {
            str(k): v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
            for k, v in data.items()
        }

    def normalized(self, tool: str) -> dict[str, str]:
        """Normalised key → result (the first entry wins when two keys normalise alike)."""
        if tool not in self._normal:
            index: dict[str, str] = {}
            for key, result in self.entries(tool).items():
                nkey = renormalize_key(tool, key)
                if nkey is not None:
                    index.setdefault(nkey, result)
            self._normal[tool] = index
        return self._normal[tool]

    def get(self, tool: str, key: str, *, normalized: bool = False) -> str | None:
        """The cached result of a key (exact official key, or normalised key)."""
        table = self.normalized(tool) if normalized else self.entries(tool)
        return table.get(key)

    def examples(self, tool: str) -> list[tuple[str, str]]:
        """(params string, result) of every entry, in file order (for the simulator)."""
        out = []
        for key, result in self.entries(tool).items():
            params = params_of_key(key)
            out.append((params if params is not None else key, result))
        return out

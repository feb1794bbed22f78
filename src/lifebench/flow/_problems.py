"""Problems of one input source, collected and raised together as one InputError."""

from __future__ import annotations

from lifebench.errors import InputError

MAX_LISTED = 20


class Problems:
    """Collects "where, field: message" lines; :meth:`raise_if_any` raises them as one
    :class:`~lifebench.errors.InputError` naming the file."""

    def __init__(self, source: str, what: str = "file") -> None:
        self.source = source
        self.what = what
        self.items: list[str] = []

    def add(self, where: str, field: str, message: str) -> None:
        """Record one problem at ``where`` (a line, scenario or task) in ``field``."""
        self.items.append(f"{where}, field {field}: {message}" if field else f"{where}: {message}")

    def raise_if_any(self) -> None:
        """Raise every recorded problem (the first ``MAX_LISTED`` spelled out)."""
        if not self.items:
            return
        if len(self.items) == 1:
            raise InputError(self.items[0], file=self.source)
        shown = self.items[:MAX_LISTED]
        more = len(self.items) - len(shown)
        text = "\n  ".join(shown) + (f"\n  … and {more} more" if more else "")
        raise InputError(
            f"{len(self.items)} problems in the {self.what}:\n  {text}", file=self.source
        )

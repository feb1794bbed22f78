"""Exception types with enough context for a user to act on them."""

from __future__ import annotations

from lifebench._util.text import escape_invisible


class LifebenchError(Exception):
    """Base class of every error lifebench raises on purpose."""


class InputError(LifebenchError):
    """Bad user input: a task file, a config file, a CLI value. The message names what and where.

    The rendered message shows invisible characters escaped (a non-breaking space as
    ``\\u00a0``, see :func:`lifebench._util.text.escape_invisible`), so a value that looks
    right on screen but is not can be told apart; the attributes keep the raw values.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        task_id: str | None = None,
        field: str | None = None,
        line: int | None = None,
    ) -> None:
        self.file, self.task_id, self.field, self.line = file, task_id, field, line
        where = []
        if file:
            where.append(f"file {file}")
        if line:
            where.append(f"line {line}")
        if task_id:
            where.append(f"task {task_id}")
        if field:
            where.append(f"field {field}")
        prefix = (", ".join(where) + ": ") if where else ""
        super().__init__(escape_invisible(prefix + message))


class InfrastructureError(LifebenchError):
    """A failure outside the agent's control (provider down, retries exhausted, judge broken).

    A simulation that ends with one is recorded as an infrastructure error and re-run on resume;
    it never counts as a task failure.
    """


class ModelError(InfrastructureError):
    """A model call failed after its bounded retries.

    ``retries`` is how many of its attempts failed and were retried before it gave up: they
    count in the run's retry figures like the retries of calls that succeeded.
    """

    def __init__(self, message: str, *, retries: int = 0) -> None:
        super().__init__(message)
        self.retries = retries


class ConfigChangedError(LifebenchError):
    """Resuming a run directory whose tasks or configuration differ from the stored ones."""


class FatalProviderError(ModelError):
    """The provider refuses every call of this run (bad key, unknown model, endpoint down, …).

    Retrying or running more units cannot help: the run stops at once with the provider's own
    message. ``status`` is the HTTP status when there was one.
    """

    def __init__(self, message: str, *, status: int | None = None, retries: int = 0) -> None:
        super().__init__(message, retries=retries)
        self.status = status


class ContentRejectedError(ModelError):
    """The provider refused this request for its content (e.g. 413 too large, a content
    filter): the unit is recorded as rejected, with the provider's message, and is not retried
    on resume; other units go on."""

    def __init__(self, message: str, *, status: int | None = None, retries: int = 0) -> None:
        super().__init__(message, retries=retries)
        self.status = status

"""What an HTTP error answer means for the run: retry it, stop the run, or reject one request.

======================  ==========================================  ==========================
status                  body says                                   outcome
======================  ==========================================  ==========================
408, 409, 425, 429,     —                                           retry (backoff, honouring
500–599                                                             ``Retry-After``)
429                     ``insufficient_quota`` / billing             fatal: stop the run
401, 402, 403           —                                           fatal (bad key, no credit,
                                                                    no access)
403                     a content filter / moderation               rejected (this request)
404, 405, 410           —                                           fatal (unknown model,
                                                                    wrong base URL)
413                     —                                           rejected (request too
                                                                    large)
400, 422, other 4xx     context length exceeded, or a content       rejected (this request)
                        filter / moderation / safety refusal
400, 422, other 4xx     a request parameter (``param`` other than   fatal (every call sends
                        ``messages``; "unrecognized / unsupported   the same parameters)
                        / invalid parameter / argument", "does not
                        support")
400, 422, other 4xx     anything else, before this model has        fatal (nothing has worked,
                        answered once in this run                   so the set-up is wrong)
400, 422, other 4xx     anything else, once it has answered         rejected (this request)
======================  ==========================================  ==========================

*Fatal* raises :class:`~lifebench.errors.FatalProviderError` (the runner stops the run, exit
code 3); *rejected* raises :class:`~lifebench.errors.ContentRejectedError` (the unit is recorded
as rejected and not re-run). A 200 answer whose only choice was stopped by a content filter
(``finish_reason: content_filter`` with no text and no tool call) is rejected too.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from lifebench.models._retry import is_retryable_status

Outcome = Literal["retry", "fatal", "rejected", "malformed"]

_CONTEXT = re.compile(
    r"context[_ ]length|context window|maximum context|too many tokens|prompt is too long|"
    r"input is too long|reduce the length|token limit|exceeds? the (model's )?(maximum|max)|"
    r"maximum (number of )?tokens|string too long",
    re.IGNORECASE,
)
_CONTENT = re.compile(
    r"content[_ ]?(filter|policy|management)|moderation|safety|inappropriate|"
    r"data_inspection_failed|sensitive|flagged|responsibleaipolicyviolation|prohibited content|"
    r"policy[_ ]violation|unsafe",
    re.IGNORECASE,
)
_PARAMETER = re.compile(
    r"(unrecognized|unknown|unsupported|invalid|unexpected|extra)\b.{0,30}"
    r"\b(argument|parameter|field|value|key|input)s?\b|does not support|not supported|"
    r"extra inputs are not permitted",
    re.IGNORECASE,
)
_QUOTA = re.compile(r"insufficient_quota|quota|billing|credit", re.IGNORECASE)
_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class ErrorBody:
    """The parts of an error answer that say what went wrong."""

    message: str
    code: str = ""
    type: str = ""
    param: str = ""

    @property
    def words(self) -> str:
        """Code, type and message together (what the markers are searched in)."""
        return f"{self.code} {self.type} {self.message}"


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def read_error(text: str) -> ErrorBody:
    """The provider's message from an error body: OpenAI's ``{"error": {...}}``, vLLM's and
    others' ``{"message": ...}`` / ``{"detail": ...}``, or the text of an HTML page."""
    stripped = text.strip()
    try:
        data = json.loads(stripped) if stripped.startswith(("{", "[")) else None
    except ValueError:
        data = None
    if isinstance(data, dict):
        error = data.get("error", data)
        if isinstance(error, dict):
            message = error.get("message") or error.get("detail") or error.get("msg")
            if isinstance(message, list | dict):
                message = json.dumps(message, ensure_ascii=False)
            return ErrorBody(
                message=_text(message) or json.dumps(error, ensure_ascii=False),
                code=_text(error.get("code")),
                type=_text(error.get("type")),
                param=_text(error.get("param")),
            )
        if isinstance(error, str):
            return ErrorBody(message=error, code=_text(data.get("code")))
    if "<" in stripped and ">" in stripped:  # an HTML page from a proxy
        title = re.search(r"<title>(.*?)</title>", stripped, re.IGNORECASE | re.DOTALL)
        stripped = title.group(1) if title else _TAG.sub(" ", stripped)
    return ErrorBody(message=_SPACE.sub(" ", stripped).strip()[:300] or "(empty body)")


def _about_messages(body: ErrorBody) -> bool:
    return body.param.startswith("messages") or "messages[" in body.message


def classify(status: int, body: ErrorBody, *, answered_before: bool) -> Outcome:
    """The outcome of an error answer (see the module docstring for the table).

    Args:
        status: The HTTP status (4xx or 5xx).
        body: The parsed error body.
        answered_before: Whether this model at this endpoint has answered a request in this
            run (an unexplained 4xx is then about this request, not the set-up).
    """
    if status == 429 and _QUOTA.search(f"{body.code} {body.type}"):
        return "fatal"
    if is_retryable_status(status) or status == 425:
        return "retry"
    if status == 413:
        return "rejected"
    words = body.words
    if status == 403:
        return "rejected" if _CONTENT.search(words) else "fatal"
    if status in (401, 402, 404, 405, 410):
        return "fatal"
    if _CONTEXT.search(words) or _CONTENT.search(words):
        return "rejected"
    if _about_messages(body):
        return "rejected"
    if body.param or _PARAMETER.search(words):
        return "fatal"
    return "rejected" if answered_before else "fatal"

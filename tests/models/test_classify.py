"""What an error answer means: retry, stop the run (fatal) or reject one request."""

from __future__ import annotations

import json

import pytest

from lifebench.models._classify import ErrorBody, classify, read_error


def _openai(message: str, code: str | None = None, param: str | None = None) -> str:
    return json.dumps(
        {
            "error": {
                "message": message,
                "type": "invalid_request_error",
                "param": param,
                "code": code,
            }
        }
    )


@pytest.mark.parametrize(
    ("status", "body", "answered_before", "outcome"),
    [
        # transient
        (429, _openai("Rate limit reached", "rate_limit_exceeded"), False, "retry"),
        (500, "oops", True, "retry"),
        (503, "<html><title>503</title></html>", False, "retry"),
        (408, "", True, "retry"),
        # no quota left is not a rate limit: every call will fail
        (429, _openai("You exceeded your current quota", "insufficient_quota"), True, "fatal"),
        # the set-up is wrong
        (401, _openai("Incorrect API key provided: sk-...abcd", "invalid_api_key"), True, "fatal"),
        (402, "Payment Required", False, "fatal"),
        (403, _openai("Project does not have access to model x"), True, "fatal"),
        (404, _openai("The model `x` does not exist", "model_not_found"), True, "fatal"),
        (405, "Method Not Allowed", False, "fatal"),
        # this request
        (413, "<html><title>413 Request Entity Too Large</title></html>", False, "rejected"),
        (403, _openai("Request blocked by content moderation"), False, "rejected"),
        (400, _openai("This model's maximum context length is 8192 tokens"), False, "rejected"),
        (400, _openai("prompt filtered", "content_filter"), False, "rejected"),
        (
            400,
            _openai("Input may contain inappropriate content", "data_inspection_failed"),
            False,
            "rejected",
        ),
        (400, _openai("Invalid 'messages[3].content': string too long"), False, "rejected"),
        (
            422,
            json.dumps({"object": "error", "message": "context length exceeded"}),
            True,
            "rejected",
        ),
        # a parameter sent with every call
        (400, _openai("Unrecognized request argument supplied: seed", param="seed"), True, "fatal"),
        (400, _openai("Unsupported parameter: 'reasoning_effort'"), True, "fatal"),
        (400, _openai("this model does not support tools"), True, "fatal"),
        (422, json.dumps({"detail": [{"msg": "Extra inputs are not permitted"}]}), True, "fatal"),
        # unexplained: fatal before the model ever answered, this request's problem after
        (400, _openai("Something is wrong with this request"), False, "fatal"),
        (400, _openai("Something is wrong with this request"), True, "rejected"),
        (418, "I'm a teapot", False, "fatal"),
        (418, "I'm a teapot", True, "rejected"),
    ],
)
def test_classification_table(status: int, body: str, answered_before: bool, outcome: str) -> None:
    assert classify(status, read_error(body), answered_before=answered_before) == outcome


def test_read_error_finds_the_providers_message() -> None:
    assert read_error(_openai("bad key", "invalid_api_key")) == ErrorBody(
        message="bad key", code="invalid_api_key", type="invalid_request_error"
    )
    assert read_error('{"error": "model not loaded", "code": 404}').message == "model not loaded"
    assert (
        read_error('{"object": "error", "message": "too long", "code": 400}').message == "too long"
    )
    html = "<html>\n<head><title>413 Request Entity Too Large</title></head><body>x</body></html>"
    assert read_error(html).message == "413 Request Entity Too Large"
    assert read_error("<p>Bad   <b>gateway</b></p>").message == "Bad gateway"
    assert read_error("").message == "(empty body)"
    assert read_error("plain text\n\nerror").message == "plain text error"
    detail = read_error('{"detail": [{"loc": ["body", "seed"], "msg": "bad"}]}')
    assert "seed" in detail.message and "bad" in detail.message

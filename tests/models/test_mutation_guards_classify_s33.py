"""Guards of what an HTTP error answer means (issue 21): each case is a near miss of one rule of
``lifebench.models._classify`` (retry / fatal / rejected, and the message the user sees)."""

from __future__ import annotations

import json

import pytest

from lifebench.models._classify import ErrorBody, classify, read_error

from .test_classify import _openai


@pytest.mark.parametrize(
    ("status", "body", "answered_before", "outcome"),
    [
        # 425 Too Early is transient even though the retry policy does not list it
        (425, _openai("Too early"), False, "retry"),
        (425, _openai("Too early"), True, "retry"),
        # a 429 about quota in the message only (not code/type) is a rate limit: retried
        (429, _openai("quota exceeded, slow down"), True, "retry"),
        # a billing 429 in the type is fatal too
        (429, json.dumps({"error": {"message": "x", "type": "billing_hard_limit"}}), True, "fatal"),
        # a quota code on another status is not the quota rule
        (400, _openai("no more", "insufficient_quota"), True, "rejected"),
        # 413 is this request even before the model ever answered
        (413, "Payload too big", False, "rejected"),
        (413, "Payload too big", True, "rejected"),
        # the set-up is wrong even after the model has answered
        (401, "Unauthorized", True, "fatal"),
        (402, "Payment Required", True, "fatal"),
        (404, "Not Found", True, "fatal"),
        (405, "Method Not Allowed", True, "fatal"),
        (410, "Gone", True, "fatal"),
        (403, "Forbidden", True, "fatal"),
        (403, "Forbidden", False, "fatal"),
        # 403 by a content filter, in the code / the message (Chinese providers: English code)
        (403, _openai("请求被拒绝", "data_inspection_failed"), False, "rejected"),
        (403, _openai("Output blocked: unsafe"), True, "rejected"),
        # a content or context marker is this request even before any answer
        (400, _openai("Your prompt was flagged"), False, "rejected"),
        (400, _openai("too many tokens in the prompt"), False, "rejected"),
        # a 401 mentioning the content policy is still a bad key
        (401, _openai("content policy"), False, "fatal"),
        # about the messages (param) is this request; a parameter is every request
        (400, _openai("bad value", param="messages[2].content"), False, "rejected"),
        (400, _openai("bad value", param="messages"), False, "rejected"),
        (400, _openai("bad value in messages[0]"), False, "rejected"),
        (400, _openai("bad value", param="temperature"), True, "fatal"),
        (400, _openai("bad value", param="tool_choice"), True, "fatal"),
        (422, _openai("Unknown field: top_k"), True, "fatal"),
        (400, _openai("logprobs not supported"), True, "fatal"),
        # unexplained, once answered: this request
        (400, _openai("internal validation failed"), True, "rejected"),
        (400, _openai("internal validation failed"), False, "fatal"),
    ],
)
def test_classification_near_misses(
    status: int, body: str, answered_before: bool, outcome: str
) -> None:
    assert classify(status, read_error(body), answered_before=answered_before) == outcome


def test_message_param_and_codes_are_read_exactly() -> None:
    body = read_error(
        json.dumps(
            {
                "error": {
                    "message": "模型不支持该参数 (model does not accept it)",
                    "type": "invalid_request_error",
                    "param": "seed",
                    "code": "unsupported_parameter",
                }
            },
            ensure_ascii=False,
        )
    )
    assert body == ErrorBody(
        message="模型不支持该参数 (model does not accept it)",
        code="unsupported_parameter",
        type="invalid_request_error",
        param="seed",
    )
    assert body.words == (
        "unsupported_parameter invalid_request_error 模型不支持该参数 (model does not accept it)"
    )


def test_missing_fields_are_empty_not_none() -> None:
    body = read_error('{"error": {"message": "boom", "code": null, "type": null, "param": null}}')
    assert body == ErrorBody(message="boom", code="", type="", param="")
    assert body.words == "  boom"
    assert ErrorBody(message="m").words == "  m"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"message": "only message"}', "only message"),
        ('{"detail": "only detail"}', "only detail"),
        ('{"msg": "only msg"}', "only msg"),
        (
            '{"message": "", "detail": "detail wins when message empty"}',
            "detail wins when message empty",
        ),
        ('{"detail": "", "msg": "msg wins when detail empty"}', "msg wins when detail empty"),
        ('  {"error": {"message": "padded"}}  ', "padded"),
        ('{"error": "plain string error", "code": 503}', "plain string error"),
        ('{"detail": {"reason": "上下文过长"}}', '{"reason": "上下文过长"}'),
        ('{"detail": ["a", "b"]}', '["a", "b"]'),
    ],
    ids=[
        "message",
        "detail",
        "msg",
        "detail-after-empty",
        "msg-after-empty",
        "padded",
        "string-error",
        "dict-detail-chinese",
        "list-detail",
    ],
)
def test_where_the_message_is_found(text: str, message: str) -> None:
    assert read_error(text).message == message


def test_string_error_keeps_code_and_no_message_falls_back_to_the_error() -> None:
    assert read_error('{"error": "gone", "code": 410}') == ErrorBody(message="gone", code="410")
    body = read_error('{"error": {"code": "context_length_exceeded", "note": "长"}}')
    assert body.message == '{"code": "context_length_exceeded", "note": "长"}'
    assert body.code == "context_length_exceeded"


def test_a_json_list_or_broken_json_is_kept_as_text() -> None:
    assert read_error('["not", "an", "object"]').message == '["not", "an", "object"]'
    assert read_error("{broken json").message == "{broken json"
    assert read_error("[1, 2").message == "[1, 2"


def test_html_pages_and_plain_text() -> None:
    page = "<HTML><HEAD><TITLE>502 Bad\nGateway</TITLE></HEAD><BODY>nginx</BODY></HTML>"
    assert read_error(page).message == "502 Bad Gateway"
    assert read_error("a < b is not markup").message == "a < b is not markup"
    assert read_error("x > y is not markup").message == "x > y is not markup"
    assert read_error("<b>only</b> tags").message == "only tags"
    assert read_error("   \n\t ").message == "(empty body)"
    long = "错" * 150 + "e" * 200
    assert read_error(long).message == long[:300]
    assert len(read_error("a" * 301).message) == 300
    assert read_error("  spaced  out  ").message == "spaced out"

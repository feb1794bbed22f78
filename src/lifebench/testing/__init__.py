"""Test helpers: a loopback mock OpenAI-compatible server (``python -m lifebench.testing`` runs
it as a process of its own)."""

from lifebench.testing.mock_openai import (
    RANDOM_FAULTS,
    MockOpenAIServer,
    MockServerThread,
    ReceivedRequest,
    Responder,
    completion_response,
    echo_responder,
    tool_call,
)

__all__ = [
    "RANDOM_FAULTS",
    "MockOpenAIServer",
    "MockServerThread",
    "ReceivedRequest",
    "Responder",
    "completion_response",
    "echo_responder",
    "tool_call",
]

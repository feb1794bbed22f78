"""Prompts of FlowBench's LLM judges, written for lifebench (the paper's Listings 2 and 3 and
the official fuzzy matcher carry the rules; the wording is ours). Every judge answers in JSON
and is called through :func:`lifebench.evaluation.ask_json`."""

from __future__ import annotations

import json
from typing import Any

FUZZY_SYSTEM = """\
You compare two values of one API parameter: the value a reference solution passed (A) and the \
value an assistant passed (B). Decide whether B means the same thing as A for this parameter, \
using the API documentation and the current time to interpret relative dates, units, formats \
and wording (for example "tomorrow at 3pm" and "2035-06-02 15:00" can be the same time). \
Differences in spelling, order of words or format do not matter; a different place, person, \
date, quantity or option does.
Answer with JSON only: {"same": true} or {"same": false}."""


def fuzzy_prompt(api_block: str | None, now: str, key: str, gold: Any, pred: Any) -> str:
    """The user message of the fuzzy parameter matcher."""
    return (
        f"API documentation:\n{api_block or '(not available)'}\n\n"
        f"Current time: {now or '(not given)'}\n\n"
        f"Parameter: {key}\n"
        f"A (reference): {json.dumps(gold, ensure_ascii=False)}\n"
        f"B (assistant): {json.dumps(pred, ensure_ascii=False)}"
    )


RESPONSE_SYSTEM = """\
You are a neutral grader of an assistant's reply in a workflow-guided conversation. You get a \
reference reply, the assistant's reply and the workflow the assistant must follow.
Judge the assistant's reply on three things:
1. Correctness: nothing in it contradicts the workflow knowledge.
2. Helpfulness: it understands what the user asked and meets that need as far as the workflow \
allows.
3. Humanness: it is coherent, clear and complete, and it acknowledges the user like a person \
would.
Compare it with the reference reply on these points and combine them into one overall score \
from 1 to 10 (10 is best):
- 9-10: as good as the reference, almost the same content;
- 7-8: close to the reference;
- 6-7: of moderate quality;
- 4-5: clearly worse than the reference;
- 2-3: contains significant errors;
- 1: no usable reply at all.
Answer with JSON only: {"score": <integer 1-10>, "reason": "<one sentence>"}."""


def response_prompt(reference: str, predicted: str, workflow: str, history: str) -> str:
    """The user message of the response scorer (paper Listing 2)."""
    return (
        f"Conversation so far:\n{history or '(empty)'}\n\n"
        f"Reference reply:\n{reference}\n\n"
        f"Assistant's reply:\n{predicted}\n\n"
        f"Workflow knowledge:\n{workflow or '(not available)'}"
    )


COMPLETION_SYSTEM = """\
You decide whether a conversation between a user and an assistant (a dialogue system that \
follows a workflow and may call APIs) achieved the user's goals. You get the user's profile \
and goals, including the API calls the user expects with their parameter values; the workflow \
and API documentation of the task; and the conversation.
In the conversation, lines "assistant called <API> with <arguments>" are the assistant's API \
calls and "API <name> returned ..." lines are what the API answered.
Rules:
- For every goal, check whether the conversation achieved it: the needed information was asked \
for and given, the right APIs were called, and the call parameters were collected and passed \
correctly. Parameters whose expected value is an empty string or an empty list need not match; \
strings may differ in wording if they mean the same.
- Check only goals that lie within the given workflow and APIs. A goal outside that scope, or a \
goal the user never raised, counts as achieved. Requests the user makes beyond the goals do \
not count against the assistant.
- Judge how parameters were collected and passed, not whether the API's answers are plausible.
- Look at what the assistant did: intent recognition, replies, and above all collecting \
parameters and calling APIs.
- Be strict: the conversation succeeds only if every goal is achieved (or out of scope).
- Count the goals (at least 1) and the achieved goals; achieved can never exceed the total.
Answer with JSON only:
{"success": true|false, "total_goals": <int>, "achieved_goals": <int>, \
"reason": "<why a goal is not achieved; empty when all are>"}"""


def completion_prompt(user_target: str, workflow: str, dialogue: str) -> str:
    """The user message of the task-completion judge (paper Listing 3)."""
    return (
        "----- User profile and goals: start -----\n"
        f"{user_target or '(not given)'}\n"
        "----- User profile and goals: end -----\n\n"
        "----- Workflow and API information: start -----\n"
        f"{workflow or '(not available)'}\n"
        "----- Workflow and API information: end -----\n\n"
        "----- Conversation: start -----\n"
        f"{dialogue}\n"
        "----- Conversation: end -----"
    )


FAILURE_CATEGORIES: dict[int, str] = {
    1: "missing step",
    2: "incorrect sequence",
    3: "incorrect transition",
    4: "tool usage",
    5: "other",
}

FAILURE_SYSTEM = """\
A workflow-guided assistant failed to achieve a user's goals. Classify the main cause of the \
failure into exactly one category:
1. missing step: the assistant skipped a step the task needed;
2. incorrect sequence: it did the steps in the wrong order;
3. incorrect transition: it misread the user's intent or a transition condition of the workflow \
and went to the wrong step;
4. tool usage: it called the wrong API, or collected or passed the parameters wrongly;
5. other: any other cause.
Answer with JSON only: {"category": <1-5>, "explanation": "<one sentence>"}."""


def failure_prompt(user_target: str, workflow: str, dialogue: str, verdict: str) -> str:
    """The user message of the failure-reason classifier (paper Table 7)."""
    return (
        f"{completion_prompt(user_target, workflow, dialogue)}\n\n"
        f"Why the conversation was judged a failure: {verdict or '(no reason given)'}"
    )

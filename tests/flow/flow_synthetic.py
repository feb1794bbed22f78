"""A tiny synthetic FlowBench world for suite-level tests: one knowledge base with two scenarios
of one role, one gold session, its turn samples and its session task, written as files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lifebench.flow.kb import ParamSpec, ToolDef
from lifebench.flow.tasks import (
    FlowMessage,
    GoldCall,
    GoldThought,
    GoldTurn,
    SessionTask,
    TurnSample,
    session_line,
    turn_line,
)

PAY_UUID = "00000000-0000-4000-8000-000000000001"
LOOK_UUID = "00000000-0000-4000-8000-000000000002"
NOW = "2035-03-05 10:00:00 Monday"

PAY = ToolDef(
    name="payBill",
    description="Pay a bill.",
    inputs={
        "bill_id": ParamSpec(type="string", description='Bill id, such as "B-12"', required=True),
        "amount": ParamSpec(type="integer", description="Amount in yuan", required=True),
        "method": ParamSpec(
            type="string", description="Enumeration type, [card, cash]", required=False
        ),
    },
    outputs={"ok": ParamSpec(type="string", description="Enumeration type, [yes, no]")},
)
LOOK = ToolDef(
    name="lookupBill",
    description="Look a bill up.",
    inputs={"bill_id": ParamSpec(type="string", description="Bill id", required=True)},
    outputs={"amount": ParamSpec(type="integer", description='Amount, such as "120"')},
)

PAY_CHART = """：
flowchart TD
PB000(Start)--Pay a bill-->PB001[Ask for the bill id and the amount]
PB001--Details given-->PB002>Call payBill with the bill id and amount, check ok]
PB002--Paid-->PB003[Tell the user the bill is paid and ask if anything else is needed]
PB003--Nothing else-->PB004[Say goodbye]"""
LOOK_CHART = """：
flowchart TD
LB000(Start)--Look up a bill-->LB001>Ask for the bill id, call lookupBill]
LB001--Found-->LB002[Tell the user the amount]"""


def _scenario(uuid: str, name: str, chart: str, tool: ToolDef) -> dict[str, Any]:
    return {
        "uuid": uuid,
        "domain": "Customer Service",
        "role": "bill_clerk",
        "scenario": name,
        "workflow": {
            "text": f"TEXT WORKFLOW OF {name}.",
            "code": f"# code of {name}",
            "flowchart": chart,
            "summary": f"summary of {name}",
        },
        "apis": [tool.data()],
    }


def _thought(last: str, intent: str, node: str, rest: str) -> str:
    return (
        f"Thought: Previous node last_node={last}, Current intention intent={intent}, "
        f"Current node current_node={node}. {rest}"
    )


GOLD_SESSION: tuple[FlowMessage, ...] = (
    FlowMessage(role="user", content="Hi, I'd like to pay my bill."),
    FlowMessage(
        role="assistant",
        content=_thought("PB000", "Pay a bill", "PB001", "I need the bill id.")
        + "\nResponse: Sure. What is the bill id and the amount?",
    ),
    FlowMessage(role="user", content="It's B-77, 120 yuan."),
    FlowMessage(
        role="assistant",
        content=_thought("PB001", "Details given", "PB002", "I can call payBill.")
        + '\nAction: payBill\nAction Input: {"bill_id": "B-77", "amount": 120, "method": ""}',
    ),
    FlowMessage(role="function", name="payBill", content='{"ok": "yes"}'),
    FlowMessage(
        role="assistant",
        content=_thought("PB002", "Paid", "PB003", "Tell the user.")
        + "\nResponse: Your bill B-77 is paid. Anything else?",
    ),
    FlowMessage(role="user", content="No, that's all. Bye!"),
    FlowMessage(
        role="assistant",
        content=_thought("PB003", "Nothing else", "PB004", "Close.") + "\nResponse: Goodbye!",
    ),
)
SESSION_ID = "20350305100000123456789"


def turn_samples() -> list[TurnSample]:
    """One sample per gold assistant turn of the session."""
    from lifebench.flow.agents.parse import parse_react

    out = []
    k = 0
    for i, m in enumerate(GOLD_SESSION):
        if m.role != "assistant":
            continue
        k += 1
        parsed = parse_react(m.content)
        fields = parsed.fields
        thought = GoldThought(
            last_node=fields.last_node,
            intent=fields.intent,
            current_node=fields.current_node,
            action=parsed.action,
            action_input=parsed.arguments_text if parsed.action else None,
        )
        out.append(
            TurnSample(
                id=f"{SESSION_ID}_agent_turn-{k}",
                session_id=SESSION_ID,
                turn=k,
                domain="Customer Service",
                role="bill_clerk",
                scenarios=(PAY_UUID,),
                datetime=NOW,
                history=GOLD_SESSION[:i],
                tools=(PAY,),
                gold=GoldTurn(
                    thought=thought,
                    response=parsed.response or m.content.split("\n", 1)[1],
                    content=m.content,
                ),
            )
        )
    return out


def session_task(*, gold_outputs: bool = True) -> SessionTask:
    """The session-level task of the gold session."""
    return SessionTask(
        id=SESSION_ID,
        domain="Customer Service",
        role="bill_clerk",
        scenarios=(PAY_UUID,),
        datetime=NOW,
        user_summary="You want to pay bill B-77 of 120 yuan, then leave.",
        user_target="Goal: pay bill B-77 (payBill with bill_id B-77, amount 120).",
        gold_calls=(
            GoldCall(
                name="payBill",
                arguments={"bill_id": "B-77", "amount": 120, "method": ""},
                arguments_text='{"bill_id": "B-77", "amount": 120, "method": ""}',
                output='{"ok": "yes"}' if gold_outputs else None,
            ),
        ),
        tools=(PAY,),
        messages=GOLD_SESSION,
    )


def write_world(root: Path) -> dict[str, Path]:
    """Knowledge base directory, turn file and session file under ``root``."""
    kb = root / "kb"
    kb.mkdir(parents=True, exist_ok=True)
    lines = [
        _scenario(PAY_UUID, "Pay a bill", PAY_CHART, PAY),
        _scenario(LOOK_UUID, "Look up a bill", LOOK_CHART, LOOK),
    ]
    (kb / "workflow_final.jsonl").write_text(
        "\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n", encoding="utf-8"
    )
    (kb / "role_desc.json").write_text(json.dumps({"bill_clerk": "ROLE DESCRIPTION."}))
    (kb / "domain_desc.json").write_text(json.dumps({"Customer Service": "DOMAIN DESCRIPTION."}))
    turns = root / "turns.jsonl"
    turns.write_text(
        "\n".join(json.dumps(turn_line(s), ensure_ascii=False) for s in turn_samples()) + "\n",
        encoding="utf-8",
    )
    sessions = root / "sessions.jsonl"
    line = session_line(session_task(), "TEXT WORKFLOW OF Pay a bill.")
    sessions.write_text(json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")
    return {"kb": kb, "turns": turns, "sessions": sessions}

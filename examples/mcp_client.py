#!/usr/bin/env python3
"""An MCP client session with ``lifebench serve mcp`` (started here over stdio).

    python examples/mcp_client.py [TASK_ID] [RUN_DIR]

The client reads the conversation, asks the user a question, ends the conversation with
``finish`` and prints the grading. The episode is stored in RUN_DIR: ``lifebench show RUN_DIR
TASK_ID`` shows it, ``lifebench eval RUN_DIR`` re-grades it.
"""

from __future__ import annotations

import asyncio
import json
import sys

from mcp import Client
from mcp.client.stdio import StdioServerParameters


async def main(task_id: str, run_dir: str) -> None:
    server = StdioServerParameters(
        command=sys.executable,
        args=[
            "-c",
            "from lifebench.cli import main; main()",
            "serve",
            "mcp",
            "--suite",
            "vita",
            "--task",
            task_id,
            "--out",
            run_dir,
        ],
    )
    async with Client(server) as client:
        print("instructions:", (client.instructions or "")[:160], "…")
        tools = await client.list_tools()
        print("tools:", ", ".join(t.name for t in tools.tools))
        conversation = json.loads((await client.call_tool("read_conversation", {})).content[0].text)
        print("user:", conversation[-1]["content"][:160], "…")
        reply = await client.call_tool(
            "send_message_to_user", {"message": "Which store would you like to order from?"}
        )
        print("user:", reply.content[0].text[:160])
        grading = json.loads((await client.call_tool("finish", {})).content[0].text)
        print(f"reward {grading['reward']} ({grading['status']}, {grading['termination']})")
        for name, basis in grading["bases"].items():
            for criterion in basis["criteria"]:
                print(f"  {name} {criterion['id']}: {'met' if criterion['met'] else 'not met'}")


if __name__ == "__main__":
    task = sys.argv[1] if len(sys.argv) > 1 else "GEN-delivery-0-0"
    asyncio.run(main(task, sys.argv[2] if len(sys.argv) > 2 else "runs/mcp-example"))

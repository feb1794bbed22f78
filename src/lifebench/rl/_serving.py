"""Serving an ASGI app on the loopback interface (the OpenEnv and MCP servers)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from lifebench.viewer._serve import HOST, bind


def _server(app: Any) -> Any:
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", ws="auto")
    return uvicorn.Server(config)


def serve_forever(app: Any, port: int, announce: Callable[[str], None]) -> None:
    """Serve ``app`` on 127.0.0.1:``port`` (0: a free port) until Ctrl-C / SIGTERM;
    ``announce`` gets ``host:port`` once the socket is bound."""
    sock = bind(port)
    announce(f"{HOST}:{sock.getsockname()[1]}")
    try:
        _server(app).run(sockets=[sock])
    finally:
        sock.close()


@asynccontextmanager
async def serving(app: Any, port: int = 0) -> AsyncIterator[str]:
    """Serve ``app`` on 127.0.0.1 in this event loop while the block runs; yields
    ``host:port`` once the server accepts connections."""
    sock: socket.socket = bind(port)
    server = _server(app)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if task.done():
                task.result()
                raise RuntimeError("the server stopped before it started")
            await asyncio.sleep(0.01)
        yield f"{HOST}:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        await task
        sock.close()

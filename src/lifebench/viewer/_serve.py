"""Serving the viewer on the loopback interface with uvicorn."""

from __future__ import annotations

import socket
from collections.abc import Callable, Sequence
from pathlib import Path

from lifebench.errors import LifebenchError

HOST = "127.0.0.1"


def bind(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1:``port`` (0: a free port chosen by the system).

    Raises:
        LifebenchError: the port cannot be bound (in use, or privileged).
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        raise LifebenchError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve(
    run_dirs: Sequence[str | Path],
    *,
    port: int = 0,
    min_interval: float = 1.0,
    poll_ms: int = 2000,
    announce: Callable[[str], None] = print,
) -> None:
    """Serve the viewer of ``run_dirs`` on 127.0.0.1 until interrupted (Ctrl-C / SIGTERM).

    ``announce`` receives the URL once the socket is bound.
    """
    import uvicorn

    from lifebench.viewer._app import create_app

    app = create_app(run_dirs, min_interval=min_interval, poll_ms=poll_ms)
    sock = bind(port)
    url = f"http://{HOST}:{sock.getsockname()[1]}/"
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    announce(url)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()

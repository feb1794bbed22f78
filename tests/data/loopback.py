"""A loopback HTTP server for download tests: serves byte strings by path, honours
``Range: bytes=N-``, records every request, and can misbehave on purpose (cut the connection
part-way, ignore ranges, serve other bytes)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Behaviour:
    """What the server does, per path."""

    files: dict[str, bytes] = field(default_factory=dict)
    cut_after: dict[str, int] = field(default_factory=dict)
    """path → bytes sent before the connection is dropped (once per path)."""
    cut_every: dict[str, int] = field(default_factory=dict)
    """path → bytes sent before the connection is dropped, on every request."""
    ignore_range: bool = False
    requests: list[tuple[str, str | None]] = field(default_factory=list)
    """(path, Range header) of every request, in order."""


class _Handler(BaseHTTPRequestHandler):
    behaviour: Behaviour

    def log_message(self, format: str, *args: object) -> None:  # silence
        return

    def do_GET(self) -> None:
        b = self.behaviour
        ranged = self.headers.get("Range")
        b.requests.append((self.path, ranged))
        body = b.files.get(self.path)
        if body is None:
            self.send_error(404, "Not Found")
            return
        start = 0
        if ranged and not b.ignore_range:
            start = int(ranged.removeprefix("bytes=").split("-")[0])
            if start >= len(body):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(body)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        else:
            self.send_response(200)
        payload = body[start:]
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        cut = b.cut_after.pop(self.path, b.cut_every.get(self.path))
        if cut is not None:
            self.wfile.write(payload[:cut])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(payload)


@contextmanager
def serve(behaviour: Behaviour) -> Iterator[str]:
    """Serve ``behaviour`` on 127.0.0.1 (a free port); yields the base URL."""
    handler = type("Handler", (_Handler,), {"behaviour": behaviour})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()

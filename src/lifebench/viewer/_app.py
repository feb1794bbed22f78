"""The ``lifebench view`` web application (Starlette).

Pages are rendered on the server with Jinja2 (autoescape on); the only script is a static file
served by the app (``/static/viewer.js``) that polls ``/api/status`` and writes what it gets
with ``textContent``. Every response carries a strict Content-Security-Policy (no inline
script, nothing from another origin), and only ``127.0.0.1`` / ``localhost`` are accepted as
Host (no DNS rebinding).
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader, StrictUndefined
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lifebench import __version__
from lifebench.errors import LifebenchError
from lifebench.reporting._bundle import run_labels
from lifebench.reporting._load import load_transcript
from lifebench.reporting._trajectory import TrajectoryView, pretty_json, trajectory_view
from lifebench.runner._provenance import RunFacts, compare_facts
from lifebench.viewer._data import Filters, RunSource, choices, rows

MAX_ROWS = 1000
PAGE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]


class SecurityHeaders:
    """ASGI middleware: CSP (unless the response set its own), no sniffing, no referrer, no
    framing, no caching."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                extra = [
                    (b"content-security-policy", PAGE_CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                    (b"cache-control", b"no-store"),
                ]
                headers.extend((n, v) for n, v in extra if n not in names)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _keys_of(items: Sequence[dict[str, Any]]) -> list[str]:
    """Keys of several dicts, in first-seen order."""
    return list(dict.fromkeys(k for item in items for k in item))


def _pretty(text: str | None) -> str:
    """Compact JSON text pretty-printed (other text unchanged)."""
    return "" if text is None else pretty_json(text)[0]


def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("lifebench.viewer", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    from lifebench.reporting._format import money, num, pct

    env.filters.update(pct=pct, num=num, money=money, keys_of=_keys_of, pretty=_pretty)
    env.globals["query"] = lambda **kw: urlencode({k: v for k, v in kw.items() if v is not None})
    return env


class Viewer:
    """The runs being viewed and the page handlers."""

    def __init__(self, run_dirs: Sequence[Path], *, min_interval: float, poll_ms: int) -> None:
        labels = run_labels(run_dirs)
        self.sources = [
            RunSource(i, label, Path(d), min_interval=min_interval)
            for i, (d, label) in enumerate(zip(run_dirs, labels, strict=True))
        ]
        self.poll_ms = poll_ms
        self.env = _environment()

    def _page(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = self.env.get_template(name).render(
            version=__version__, sources=self.sources, poll_ms=self.poll_ms, **context
        )
        return HTMLResponse(html, status_code=status)

    def _source(self, value: str | None) -> RunSource | None:
        try:
            index = int(value or "0")
        except ValueError:
            return None
        return self.sources[index] if 0 <= index < len(self.sources) else None

    def _runs(self) -> list[dict[str, Any]]:
        out = []
        for s in self.sources:
            snap = s.snapshot()
            out.append(
                {
                    "index": s.index,
                    "label": s.label,
                    "run_dir": str(s.run_dir),
                    "suite": str(s.config.get("suite") or "?"),
                    "domain": str(s.config.get("domain") or "?"),
                    "model": s.model,
                    "progress": snap.progress if snap else None,
                    "last_update": snap.last_update if snap else "",
                    "version": snap.version if snap else 0,
                    "error": s.error,
                }
            )
        return out

    def _comparability(self) -> list[dict[str, Any]]:
        """Each run compared with the first run of its suite/domain (see
        :func:`lifebench.runner.comparability`): one entry per run that differs."""
        groups: dict[str, list[tuple[RunSource, RunFacts]]] = {}
        for s in self.sources:
            snap = s.snapshot()
            if snap is None or snap.data.facts is None:
                continue
            group = f"{s.config.get('suite') or '?'}/{s.config.get('domain') or '?'}"
            groups.setdefault(group, []).append((s, snap.data.facts))
        out = []
        for group, members in sorted(groups.items()):
            (reference, ref_facts), rest = members[0], members[1:]
            for source, facts in rest:
                diffs = compare_facts(ref_facts, facts)
                if diffs:
                    out.append(
                        {
                            "group": group,
                            "reference": reference.label,
                            "run": source.index,
                            "label": source.label,
                            "comparable": all(d.comparable for d in diffs),
                            "reasons": [d.detail for d in diffs if not d.comparable],
                            "notes": [d.detail for d in diffs if d.comparable],
                        }
                    )
        return out

    def _listing(self, filters: Filters) -> dict[str, Any]:
        matched = rows(self.sources, filters)
        return {
            "runs": self._runs(),
            "rows": matched[:MAX_ROWS],
            "total": len(matched),
            "limit": MAX_ROWS,
        }

    async def index(self, request: Request) -> Response:
        filters = Filters.from_query(request.query_params)
        listing = await run_in_threadpool(self._listing, filters)
        menus = await run_in_threadpool(choices, self.sources)
        compared = await run_in_threadpool(self._comparability)
        return self._page(
            "index.html.j2", filters=filters, menus=menus, comparability=compared, **listing
        )

    async def status(self, request: Request) -> Response:
        filters = Filters.from_query(request.query_params)
        listing = await run_in_threadpool(self._listing, filters)
        return JSONResponse(
            {
                "runs": listing["runs"],
                "rows": [r.as_json() for r in listing["rows"]],
                "total": listing["total"],
                "limit": listing["limit"],
            }
        )

    def _view(
        self, source: RunSource, task: str, trial: int | None, *, calls: bool = True
    ) -> TrajectoryView:
        snap = source.snapshot()
        if snap is None:
            raise LifebenchError(source.error or f"{source.run_dir} cannot be read")
        record = snap.data.record(task, trial)
        transcript = (
            load_transcript(source.run_dir, record.task_id, record.trial) if calls else None
        )
        return trajectory_view(record, snap.data.task_data.get(record.task_id), transcript)

    def _trials(self, source: RunSource, task: str) -> list[int]:
        snap = source.snapshot()
        return [r.trial for r in snap.data.records if r.task_id == task] if snap else []

    def _others(self, task: str, exclude: int) -> list[RunSource]:
        out = []
        for s in self.sources:
            snap = s.snapshot()
            if s.index != exclude and snap and any(r.task_id == task for r in snap.data.records):
                out.append(s)
        return out

    async def simulation(self, request: Request) -> Response:
        q = request.query_params
        source = self._source(q.get("run"))
        task = q.get("task", "")
        if source is None:
            return self._page("error.html.j2", 404, message="no such run")
        try:
            trial = int(q["trial"]) if q.get("trial") else None
            view = await run_in_threadpool(self._view, source, task, trial)
        except (LifebenchError, ValueError) as exc:
            return self._page("error.html.j2", 404, message=str(exc))
        trials = await run_in_threadpool(self._trials, source, view.task_id)
        others = await run_in_threadpool(self._others, view.task_id, source.index)
        return self._page(
            "simulation.html.j2", source=source, view=view, trials=trials, others=others
        )

    async def compare(self, request: Request) -> Response:
        q = request.query_params
        task = q.get("task", "")
        left, right = self._source(q.get("a", "0")), self._source(q.get("b", "1"))
        if left is None or right is None:
            return self._page("error.html.j2", 404, message="compare needs two runs: a=…&b=…")
        try:
            ta = int(q["ta"]) if q.get("ta") else None
            tb = int(q["tb"]) if q.get("tb") else None
            views = [
                await run_in_threadpool(lambda: self._view(left, task, ta, calls=False)),
                await run_in_threadpool(lambda: self._view(right, task, tb, calls=False)),
            ]
        except (LifebenchError, ValueError) as exc:
            return self._page("error.html.j2", 404, message=str(exc))
        facts = [left.snapshot(), right.snapshot()]
        differences = (
            compare_facts(facts[0].data.facts, facts[1].data.facts)
            if facts[0] and facts[1] and facts[0].data.facts and facts[1].data.facts
            else []
        )
        return self._page(
            "compare.html.j2",
            task=task,
            differences=differences,
            pairs=[(left, views[0]), (right, views[1])],
            trials=[
                await run_in_threadpool(self._trials, left, task),
                await run_in_threadpool(self._trials, right, task),
            ],
        )

    def _raw(self, source: RunSource, task: str, trial: int, number: int, part: str) -> str:
        view = self._view(source, task, trial)
        calls = view.transcript.calls if view.transcript is not None else []
        call = next((c for c in calls if c.number == number), None)
        if call is None:
            raise LifebenchError(f"no call {number} recorded for {task}#{trial}")
        texts = {
            "request": call.raw_request,
            "response": call.raw_response,
            "original": call.original_response,
        }
        text = texts.get(part)
        if text is None:
            raise LifebenchError(f"call {number} has no {part} body")
        return text

    async def raw(self, request: Request) -> Response:
        """The exact body of one recorded request or response (text/plain)."""
        q = request.query_params
        source = self._source(q.get("run"))
        if source is None:
            return Response("no such run", status_code=404, media_type="text/plain")
        try:
            trial, number = int(q.get("trial", "")), int(q.get("call", ""))
            text = await run_in_threadpool(
                self._raw, source, q.get("task", ""), trial, number, q.get("part", "request")
            )
        except (LifebenchError, ValueError) as exc:
            return Response(str(exc), status_code=404, media_type="text/plain")
        return Response(text, media_type="text/plain; charset=utf-8")

    def _report_html(self) -> tuple[str, str] | None:
        from lifebench.reporting._html import csp_for_style, render_html
        from lifebench.reporting._templates import static_text

        reports = [r for r in (s.report() for s in self.sources) if r is not None]
        if not reports:
            return None
        return render_html(reports), csp_for_style(static_text("report.css"))

    async def report(self, request: Request) -> Response:
        rendered = await run_in_threadpool(self._report_html)
        if rendered is None:
            return self._page("error.html.j2", 404, message="no run could be read")
        html, csp = rendered
        return HTMLResponse(html, headers={"content-security-policy": csp})


def create_app(
    run_dirs: Sequence[str | Path], *, min_interval: float = 1.0, poll_ms: int = 2000
) -> Starlette:
    """The viewer application over ``run_dirs``.

    ``min_interval``: seconds between checks of a store for changes; ``poll_ms``: how often
    open pages ask for new units.
    """
    viewer = Viewer([Path(d) for d in run_dirs], min_interval=min_interval, poll_ms=poll_ms)
    static = StaticFiles(directory=str(files("lifebench.viewer").joinpath("static")))
    app = Starlette(
        routes=[
            Route("/", viewer.index),
            Route("/sim", viewer.simulation),
            Route("/compare", viewer.compare),
            Route("/report", viewer.report),
            Route("/api/status", viewer.status),
            Route("/api/raw", viewer.raw),
            Route("/favicon.ico", lambda request: Response(status_code=204)),
            Mount("/static", app=static, name="static"),
        ],
        middleware=[
            Middleware(TrustedHostMiddleware, allowed_hosts=ALLOWED_HOSTS),
            Middleware(SecurityHeaders),
        ],
    )
    app.state.viewer = viewer
    return app

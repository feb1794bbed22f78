"""``lifebench view``: a local web viewer of run directories (Starlette + uvicorn, optional
extra ``lifebench[view]``). Import :func:`create_app` / :func:`serve` only when needed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lifebench.viewer._app import create_app
    from lifebench.viewer._serve import serve

__all__ = ["create_app", "serve"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from lifebench.viewer._app import create_app

        return create_app
    if name == "serve":
        from lifebench.viewer._serve import serve

        return serve
    raise AttributeError(name)

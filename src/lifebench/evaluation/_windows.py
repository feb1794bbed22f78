"""Cutting a trajectory into overlapping windows (VitaBench's sliding-window judge)."""

from __future__ import annotations


def sliding_windows(n_messages: int, size: int = 10, overlap: int = 2) -> list[range]:
    """Index ranges of windows of ``size`` messages, consecutive ones sharing ``overlap``.

    Windows start at 0, size − overlap, 2(size − overlap), …; the first window that reaches
    the last message is the final one (it may be shorter). A trajectory of at most ``size``
    messages is one window; an empty one has none. Example: 19 messages with the defaults →
    [0–9], [8–17], [16–18].
    """
    if size < 1:
        raise ValueError(f"window size must be at least 1, got {size}")
    if not 0 <= overlap < size:
        raise ValueError(f"overlap must be in [0, size), got {overlap} with size {size}")
    windows: list[range] = []
    step = size - overlap
    start = 0
    while start < n_messages:
        end = min(start + size, n_messages)
        windows.append(range(start, end))
        if end == n_messages:
            break
        start += step
    return windows

#!/usr/bin/env python3
"""What the run store's secret scrubbing costs per unit, on the texts a real run stores.

Every unit's texts pass through :class:`lifebench.models._secrets.Scrubber` at the store's
boundary: the simulation and evaluation JSON, each recorded call, each new blob (a request or
response body), the briefing. This script runs the real CLI once on ``bench_e2e.py``'s
command line (the mock endpoint in its own process, latency 0, the bundled generated delivery
tasks, 9 requests per unit, every request recorded), reads those texts back from the run store
(no secret was in them, so they are what the scrubber saw) and times scrubbing all of them
in this process, per unit and per request, with the scrubber the store builds
(``Scrubber.of(environment=True)``) in two environments:

* ``no key``: no credential in the environment (only the credential-shaped patterns run:
  ``Bearer …``, headers, query parameters, URL user info);
* ``one key``: one API key known (``OPENAI_API_KEY`` set, as on a user's machine): every form
  of the key and its base64 texts are looked for too.

``--against SRC`` times another checkout's scrubber (its ``src`` directory) on the same texts,
alternately with this one's, and checks that both give the same output for every text.

    python benchmarks/bench_scrub.py                       # N 100, 5 rounds
    python benchmarks/bench_scrub.py --n 300 --against /tmp/main/src

Figures only (CPU time of this process, best of the rounds); nothing here asserts a timing.
"""

from __future__ import annotations

import argparse
import importlib.util
import sqlite3
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_e2e import Cell, MockProcess, cli_args, cli_command, cli_env, load_average

KEY = "sk-bench-0123456789abcdefABCDEF"


def stored_texts(out: Path) -> list[str]:
    """Every text the run store scrubbed for the units of the run in ``out``."""
    conn = sqlite3.connect(out / "run.sqlite")
    try:
        texts: list[str] = []
        for simulation, evaluation, error in conn.execute(
            "SELECT simulation_json, evaluation_json, error FROM units"
        ):
            texts += [t for t in (simulation, evaluation, error) if t is not None]
        texts += [row[0] for row in conn.execute("SELECT call_json FROM calls")]
        texts += [row[0] for row in conn.execute("SELECT briefing_json FROM briefings")]
        for codec, data in conn.execute("SELECT codec, data FROM blobs"):
            raw = zlib.decompress(data) if codec == "zlib" else bytes(data)
            try:
                texts.append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                continue
        return texts
    finally:
        conn.close()


def load_secrets(src: Path) -> ModuleType:
    """``lifebench/models/_secrets.py`` of the checkout whose ``src`` is ``src``."""
    path = src / "lifebench" / "models" / "_secrets.py"
    spec = importlib.util.spec_from_file_location(f"secrets_{abs(hash(src))}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def cpu_of(scrub: Callable[[str], str], texts: list[str]) -> float:
    started = time.process_time()
    for text in texts:
        scrub(text)
    return time.process_time() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=100, help="units (100 tasks × trials)")
    parser.add_argument("--rounds", type=int, default=5, help="timing rounds (best is shown)")
    parser.add_argument("--against", type=Path, help="another checkout's src directory")
    args = parser.parse_args()
    print(f"load average before: {load_average()}")
    with tempfile.TemporaryDirectory(prefix="lifebench-scrub-") as tmp:
        out = Path(tmp) / "run"
        mock = MockProcess(0.0)
        try:
            command = [*cli_command(), *cli_args(Cell(0.0, 64, args.n), mock.base_url, out)]
            subprocess.run(
                command,
                check=True,
                env=cli_env(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
        finally:
            mock.stop()
        texts = stored_texts(out)
    units, requests = args.n, args.n * 9
    chars = sum(map(len, texts))
    print(f"{len(texts)} texts, {chars / 1e6:.2f} M characters, {units} units, {requests} requests")
    here = Path(__file__).resolve().parent.parent / "src"
    versions = [("this checkout", load_secrets(here))]
    if args.against:
        versions.append((f"against {args.against}", load_secrets(args.against)))
    for label, secrets in (("no key", []), ("one key", [KEY])):
        scrubbers = [(name, module.Scrubber.of(secrets)) for name, module in versions]
        if len(scrubbers) == 2:
            same = all(scrubbers[0][1](t) == scrubbers[1][1](t) for t in texts)
            print(f"{label}: the same output for every text: {same}")
        best = {name: float("inf") for name, _ in scrubbers}
        for _ in range(max(1, args.rounds)):  # alternately
            for name, scrubber in scrubbers:
                best[name] = min(best[name], cpu_of(scrubber, texts))
        for name, _ in scrubbers:
            cpu = best[name]
            print(
                f"  {label:<8} {name:<40} {cpu * 1e3:8.1f} ms  {cpu / units * 1e3:6.3f} ms/unit"
                f"  {cpu / requests * 1e3:6.3f} ms/request"
            )
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

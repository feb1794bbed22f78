"""``python -m lifebench.flow.generate``: rebuild the bundled data, or write gold sessions for
another knowledge base (e.g. the public FlowBench workflows)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lifebench.errors import LifebenchError


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code (0 written, 2 bad input)."""
    from lifebench.flow.generate.pipeline import (
        GenerateConfig,
        build_bundle,
        build_for_knowledge,
        bundled_data_dir,
    )
    from lifebench.flow.kb import load_knowledge

    parser = argparse.ArgumentParser(
        prog="python -m lifebench.flow.generate",
        description="Without --knowledge: rebuild the bundled FlowBench-style data (our "
        "scenarios, en and zh) into --out (default: the package's data folder). With "
        "--knowledge: write gold turn-level and session-level files for that knowledge base.",
    )
    parser.add_argument("--out", type=Path, default=None, help="Output folder.")
    parser.add_argument(
        "--knowledge", type=Path, default=None, help="Knowledge-base folder or file."
    )
    parser.add_argument("--language", choices=["en", "zh"], default="en", help="With --knowledge.")
    parser.add_argument("--sessions", type=int, default=5, help="Sessions per scenario.")
    parser.add_argument("--cross", type=int, default=4, help="Cross-scenario sessions per role.")
    parser.add_argument("--seed", type=int, default=0, help="Master seed.")
    args = parser.parse_args(argv)
    config = GenerateConfig(
        sessions_per_scenario=args.sessions, cross_sessions_per_role=args.cross, seed=args.seed
    )
    try:
        if args.knowledge is None:
            written = build_bundle(args.out or bundled_data_dir(), config)
        else:
            if args.out is None:
                parser.error("--out is required with --knowledge")
            kb = load_knowledge(args.knowledge, args.language)
            written = build_for_knowledge(kb, args.out, args.language, config)
    except LifebenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

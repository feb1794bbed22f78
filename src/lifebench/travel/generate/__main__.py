"""``python -m lifebench.travel.generate [--out DIR] [--n N] [--seed S]``: (re)write the bundled rows."""

from __future__ import annotations

import argparse
from pathlib import Path

from lifebench.travel.generate import DEFAULT_ROWS, DEFAULT_SEED, write_bundled


def main() -> None:
    """Write the six files (default: into the package's data folder)."""
    parser = argparse.ArgumentParser(prog="python -m lifebench.travel.generate")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "data")
    parser.add_argument("--n", type=int, default=DEFAULT_ROWS, help="Rows per subset and language.")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="Master seed.")
    args = parser.parse_args()
    for path in write_bundled(args.out, args.n, args.seed):
        print(path)


if __name__ == "__main__":
    main()

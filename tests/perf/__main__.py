"""Run one benchmark and print its table (or, with --json, one JSON object)."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from pathlib import Path


def available() -> list[str]:
    folder = Path(__file__).parent
    return sorted(
        info.name.removeprefix("bench_")
        for info in pkgutil.iter_modules([str(folder)])
        if info.name.startswith("bench_")
    )


def main(argv: list[str] | None = None) -> int:
    names = available()
    parser = argparse.ArgumentParser(prog="python -m tests.perf", description=__doc__)
    parser.add_argument("name", choices=names, help="which benchmark to run")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (smoke test)")
    args = parser.parse_args(argv)
    module = importlib.import_module(f"tests.perf.bench_{args.name}")
    report = module.measure(quick=args.quick)
    print(report.to_json() if args.json else report.to_table())
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Run one benchmark and print its table (or, with --json, one JSON object).

A benchmark module may add flags of its own: ``add_arguments(parser)`` adds them and
returns their names, which are passed to its ``measure`` as keywords
(``python -m tests.perf ladder --help`` lists the ladder's).
"""

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
    # The benchmark named decides which flags exist, so find it before parsing the rest.
    named = next((arg for arg in (sys.argv[1:] if argv is None else argv) if arg in names), None)
    extra: list[str] = []
    if named is not None:
        module = importlib.import_module(f"tests.perf.bench_{named}")
        adder = getattr(module, "add_arguments", None)
        extra = adder(parser) if adder is not None else []
    args = parser.parse_args(argv)
    module = importlib.import_module(f"tests.perf.bench_{args.name}")
    report = module.measure(quick=args.quick, **{name: getattr(args, name) for name in extra})
    print(report.to_json() if args.json else report.to_table())
    return 0


if __name__ == "__main__":
    sys.exit(main())

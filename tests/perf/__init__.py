"""Benchmarks: ``python -m tests.perf NAME [--json] [--quick]``.

Each benchmark is a module ``tests/perf/bench_NAME.py`` with a function
``measure(quick: bool) -> Report`` (see :mod:`tests.perf.report`).
"""

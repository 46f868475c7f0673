"""The boardgame.io comparison's own parts: reading the node clients' records, reducing the
two sides the same way, and saying clearly what is missing. No timing is checked here.

The one test that runs node is skipped where node or the installed boardgame.io is
missing (CI has neither): it plays a few actions to show the scripts and the stamps work.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from pathlib import Path

import pytest

from tests.needs import lacking
from tests.perf import bench_bgio
from tests.perf.bench_bgio import (
    BGIO_VERSION,
    TABLE,
    SetupError,
    Side,
    goal_notes,
    installed_version,
    pair,
    parse_record,
    process_cpu_s,
    row,
    stamps_of,
)
from tests.perf.bench_latency import Run, Samples, fan_out


def test_only_marked_json_lines_are_records() -> None:
    assert parse_record('BENCH {"event": "ready", "state": 0}') == {"event": "ready", "state": 0}
    assert parse_record("INFO: App serving on 4242...") is None
    assert parse_record("BENCH not json") is None
    assert parse_record('BENCH ["event"]') is None
    assert parse_record('BENCH {"no": "event"}') is None


def test_the_clients_stamps_become_fan_out_s_maps() -> None:
    """Stamps come as text keyed by _stateID as text (JSON); the acting seats' sends merge."""
    big = 9_007_199_254_740_993  # above 2**53: a double would have rounded it
    player0 = {"sent": {"1": str(big)}, "received": {"0": "5", "1": str(big + 40), "2": "900"}}
    player1 = {"sent": {"2": "800"}, "received": {"0": "6", "1": str(big + 30), "2": "905"}}
    spectator = {"sent": {}, "received": {"0": "7", "1": str(big + 70)}}
    sent, received = stamps_of([player0, player1, spectator])
    assert sent == {(TABLE, 1): big, (TABLE, 2): 800}
    assert received[2] == {(TABLE, 0): 7, (TABLE, 1): big + 70}
    samples = fan_out(sent, received)
    assert samples.latencies_ns == [70]  # the last client's stamp minus the send stamp
    assert samples.incomplete == 1  # the spectator never had state 2


def test_process_cpu_is_read_from_proc() -> None:
    first = process_cpu_s(os.getpid())
    assert first >= 0.0
    assert process_cpu_s(os.getpid()) >= first


def test_the_installed_version_is_read_from_its_package_json(tmp_path: Path) -> None:
    assert installed_version(tmp_path) is None
    package = tmp_path / "node_modules" / "boardgame.io"
    package.mkdir(parents=True)
    (package / "package.json").write_text(json.dumps({"version": BGIO_VERSION}))
    assert installed_version(tmp_path) == BGIO_VERSION
    (package / "package.json").write_text("{not json")
    assert installed_version(tmp_path) is None


def test_without_the_install_the_benchmark_says_what_to_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench_bgio, "cache_dir", lambda: tmp_path)
    with pytest.raises(SystemExit) as raised:
        bench_bgio.measure(quick=True)
    message = str(raised.value.code)  # SystemExit with text: printed, exit status 1
    assert message.startswith("bench_bgio: ")
    assert "bench_bgio --install" in message or "node is not installed" in message


def test_install_without_npm_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    monkeypatch.setattr(bench_bgio, "cache_dir", lambda: tmp_path / "cache")
    with pytest.raises(SetupError, match="npm"):
        bench_bgio.install(tmp_path / "cache")
    assert bench_bgio.main(["--install"]) == 1
    assert not (tmp_path / "cache").exists()  # nothing half-made


def _run(latencies_ms: list[float], host_cpu_ms: float, views: tuple[float, ...]) -> Run:
    samples = Samples([round(ms * 1e6) for ms in latencies_ms], overlapped=0, incomplete=0)
    return Run(samples, host_cpu_ms, 0.0, sum(views) / len(views), views)


def test_both_sides_are_cut_to_the_same_count_and_compared() -> None:
    clowder = _run([1.0, 2.0, 3.0], host_cpu_ms=0.5, views=(0.2, 0.3, 0.1))
    bgio = _run([4.0, 8.0, 6.0, 100.0], host_cpu_ms=2.0, views=(0.4, 0.5, 0.6))
    keep = pair(clowder, bgio)
    assert keep == 3
    ours, theirs = Side(), Side()
    ours.add(clowder, keep)
    theirs.add(bgio, keep)
    assert theirs.latencies_ms == [4.0, 8.0, 6.0]  # the first three sent, not the best three
    figures = row(10, [0.02, 0.01, 0.03], ours, theirs)
    assert figures["samples"] == 3
    assert figures["clowder_p99_ms"] == 3.0 and figures["bgio_p99_ms"] == 8.0
    assert figures["p99_ratio"] == pytest.approx(8 / 3)
    assert figures["host_cpu_ratio"] == pytest.approx(4.0)
    assert figures["clowder_view_cpu_ms"] == pytest.approx(0.2)  # the median client
    assert figures["loopback_rtt_p50_ms"] == pytest.approx(0.02)
    notes = goal_notes([figures])
    assert "2.67x, met" in notes[0] and "4.00x (10 clients), met" in notes[1]


def require_bgio() -> None:
    """Skips the calling test where node or the installed boardgame.io is missing (a
    newcomer's machine: the install needs the npm registry and ~40 MB), with the reason.
    Under CI (``CI=true``) it fails instead: .ci/run installs both, so there it must run."""
    if shutil.which("node") is not None and (
        installed_version(bench_bgio.cache_dir()) == BGIO_VERSION
    ):
        return
    reason = "needs node and `python -m tests.perf.bench_bgio --install`"
    lacking(reason, f"the boardgame.io test must run under CI, but it {reason}")


@pytest.mark.timeout(15)
def test_a_few_actions_on_boardgame_io() -> None:
    """Server and three client processes on 127.0.0.1: every state reaches every client."""
    require_bgio()
    folder = bench_bgio.cache_dir()
    run = asyncio.run(bench_bgio.run_bgio(3, 6, bench_bgio.node_ready(folder), folder))
    assert len(run.samples.latencies_ns) == 6
    assert run.samples.incomplete == 0
    assert all(ns > 0 for ns in run.samples.latencies_ns)
    assert len(run.view_cpu_ms_each) == 3

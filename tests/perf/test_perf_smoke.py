"""The benchmarks import and run (briefly); their figures are not checked here."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import registry
from tests import toy_game
from tests.perf.__main__ import available
from tests.perf.report import Report

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def toy() -> Iterator[None]:
    with toy_game.registered():
        yield


def test_the_engine_benchmark_is_found() -> None:
    assert "engine" in available()


@pytest.mark.parametrize("name", available())
def test_every_benchmark_module_imports_and_has_measure(name: str) -> None:
    module = importlib.import_module(f"tests.perf.bench_{name}")
    assert callable(module.measure)


def test_the_runner_help_works() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tests.perf", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "engine" in result.stdout
    assert "--json" in result.stdout


def test_engine_benchmark_quick_run_has_the_figures(
    toy: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.perf import bench_engine, bench_ladder

    # Smaller than --quick: this checks that every figure is there, not what it is (each
    # level timed at the fewest players only: Kitten Me!'s ten were half the test's time).
    monkeypatch.setattr(bench_engine, "QUICK", {"runs": 1, "games": 3, "ref_ops": 500})
    monkeypatch.setattr(bench_ladder, "table_sizes", lambda game: [game.min_players])
    report = bench_engine.measure(quick=True)
    assert [row["game"] for row in report.rows] == registry.names()
    for row in report.rows:
        for key in ("game", "actions_per_s", "games_per_s", "ref_ops_per_s", "apply_per_s"):
            assert key in row
        assert row["actions_per_s"] > 0
        assert row["games_per_s"] > 0
    data = json.loads(report.to_json())
    assert data["benchmark"] == "engine"
    assert data["rows"][0]["game"] == registry.names()[0]
    assert "actions_per_s" in report.to_table()


def test_report_table_lines_up_its_columns() -> None:
    report = Report("demo", ["game", "rate"], [{"game": "a", "rate": 1234.5}, {"game": "bb"}])
    lines = report.to_table().splitlines()
    assert lines[0] == "demo"
    assert len({len(line) for line in lines[1:]}) == 1
    assert "1,234" in lines[3]


def test_ladder_quick_run_plays_every_game_s_levels() -> None:
    """The ladder at its smallest: every game, both table sizes, each level against the one
    below and easy against random, all legal (a refused move raises); rates in 0..1."""
    from tests.perf import bench_ladder

    report = bench_ladder.measure(quick=True)
    for name in registry.names():
        game = registry.get(name)
        rows = [row for row in report.rows if row["game"] == name]
        assert {row["players"] for row in rows} == {game.min_players, game.max_players}
        matchups = {row["matchup"] for row in rows}
        assert matchups == {"hard>normal", "normal>easy", "easy>random"}, matchups
        for row in rows:
            assert 0.0 <= row["win_rate"] <= 1.0
    assert "win_rate" in report.to_table()


def test_the_ladder_s_interval_and_seating() -> None:
    from tests.perf.bench_ladder import seating, wilson

    low, high = wilson(30, 40)
    assert 0.59 < low < 0.6 and 0.85 < high < 0.87  # Wilson 95% for 30/40
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert seating("h", "l", 4, 0) == ["h", "l", "h", "l"]
    assert seating("h", "l", 4, 1) == ["l", "h", "l", "h"]
    seats = [seating("h", "l", 3, index) for index in range(6)]
    assert all(sum(names.count("h") for names in seats[i : i + 2]) == 3 for i in (0, 2, 4))


def test_web_bench_quick_run_measures_both_gateways() -> None:
    """``python -m tests.perf web`` at its smallest: a browser's lobby and memory next to an
    SSH session's, every figure measured (a real client process behind each)."""
    from tests.perf import bench_web

    report = bench_web.measure(quick=True)
    rows = {row["measure"]: row for row in report.rows}
    assert rows["web_connect_lobby"]["p50_ms"] > 0 and rows["web_connect_lobby"]["n"] == 2
    assert rows["web_session_rss_mb"]["p50"] > 5 and rows["web_session_rss_mb"]["baseline_p50"] > 5

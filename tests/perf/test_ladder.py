"""The ladder's flags pick its rows and games (issue 34), cheaply: one quick game, a row or two.

The ladder's figures are not checked here (a few games tell nothing about strength); what is
checked is that ``--game``, ``--players``, ``--matchup``, ``--games`` and ``--seed`` select
what they say, that the same seed gives the same row, and the goal's verdict.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.perf import bench_ladder
from tests.perf.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_flags_pick_game_table_size_matchup_and_games() -> None:
    report = bench_ladder.measure(
        quick=True,
        games=3,
        games_named=["catchy"],
        players=[2],
        matchup=["normal>easy"],
        no_mirror=True,
    )
    assert [(row["game"], row["players"], row["matchup"]) for row in report.rows] == [
        ("catchy", 2, "normal>easy")
    ]
    row = report.rows[0]
    assert row["games"] == 3 and row["mirror_rate"] == ""
    assert (row["ci_low"], row["ci_high"]) == bench_ladder.wilson(row["win_rate"] * 3, 3)
    assert "3 games a matchup at every table size" in report.to_table()


def test_the_same_seed_gives_the_same_rows() -> None:
    def rows(seed: int) -> list[float]:
        report = bench_ladder.measure(
            quick=True,
            games=4,
            games_named=["kitten"],
            players=[2],
            matchup=["easy>random", "normal>easy"],
            seed=seed,
            no_mirror=True,
        )
        return [row["win_rate"] for row in report.rows]

    assert rows(22) == rows(22)
    assert len(rows(22)) == 2


def test_profiles_give_every_matchup_its_games() -> None:
    assert bench_ladder.PROFILES["quick"] is bench_ladder.QUICK
    long = bench_ladder.PROFILES["long"]
    assert min(long["games_2p"], long["games_max"]) >= 200


def test_the_verdict_needs_the_rate_and_an_interval_clear_of_a_coin_flip() -> None:
    assert bench_ladder.verdict(0.65, 0.58) == "ok"
    assert bench_ladder.verdict(0.65, 0.45) == "UNSURE"
    assert bench_ladder.verdict(0.55, 0.52) == "BELOW"


def test_the_command_line_passes_the_ladder_s_flags(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["ladder", "--game", "catchy", "--games", "2", "--matchup", "easy>random"]
    assert main([*argv, "--no-mirror", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"matchup": "easy>random"' in out and '"games": 2' in out


def test_the_ladder_s_help_lists_its_flags() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tests.perf", "ladder", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    for flag in ("--games", "--game", "--profile", "--players", "--matchup", "--seed"):
        assert flag in result.stdout

"""``clowder scores`` (tui/commands/scores.py): the local host's ratings and wins per game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import registry
from net.store.scoreboard import Scoreboard
from tests import toy_game
from tests.net.store.test_scoreboard import played_toy
from tui.cli import main


@pytest.fixture
def toy() -> Iterator[None]:
    with toy_game.registered():
        yield


def scores(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["scores", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_typo_in_the_game_is_one_clear_line_that_lists_the_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = scores(capsys, "--game", "catchyy", "--state-dir", str(tmp_path))
    assert status == 2 and out == ""
    assert err.strip() == (
        "clowder scores: there is no game 'catchyy' "
        f"(games: {', '.join(registry.names())}); did you mean 'catchy'?"
    )
    status, _, err = scores(capsys, "--game", "poker", "--state-dir", str(tmp_path))
    assert status == 2 and "did you mean" not in err
    assert all(name in err for name in registry.names())


def test_no_scores_yet_is_said_plainly(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = scores(capsys, "--state-dir", str(tmp_path))
    assert (status, err) == (0, "") and out.startswith("No scores kept in")


def test_the_table_shows_ratings_best_first_and_bots_by_level(
    toy: None, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("openskill")
    board = Scoreboard(tmp_path)
    for number in range(3):
        board.record(played_toy(f"t{number}", ("Ann", "Bea"), bots=1))
    board.data["games"]["toy"]["name:Old"] = {"name": "Old", "played": 2, "wins": 1, "bot": False}
    board._save()  # a player counted before ratings existed: listed, unrated, last
    standings = board.standings("toy")
    status, out, err = scores(capsys, "--state-dir", str(tmp_path), "--game", "toy")
    assert (status, err) == (0, "")
    assert "Toy" in out and "Bot (normal)" in out and "Bot Tom" not in out
    lines = [line for line in out.splitlines() if "│" in line]  # the rows (not the header's ┃)
    names = [line.split("│")[2].strip() for line in lines]
    assert names == [row["name"] for row in standings] and names[-1] == "Old"
    ratings = [row["rating"] for row in standings[:-1]]
    assert ratings == sorted(ratings, reverse=True) and standings[-1]["rating"] is None
    assert f"{ratings[0]:,}" in lines[0]
    bots = next(row for row in standings if row["bot"])
    assert (bots["played"], bots["rated"]) == (3, 3)


def test_a_damaged_file_is_reported_and_left_where_it_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "scores.json").write_text("{oops")
    status, out, err = scores(capsys, "--state-dir", str(tmp_path))
    assert status == 0 and "is damaged" in err and "No games of any game" in out
    assert (tmp_path / "scores.json").read_text() == "{oops"


def test_help_lists_the_scores_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = scores(capsys, "--help")
    assert status == 0 and "--game" in out and "--state-dir" in out


def test_tonight_shows_the_night_s_games_wins_and_rating_changes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``clowder scores --tonight`` (issue 31): tonight's standings, read from the state
    folder a host keeps them in, survive the host; before any game, said plainly."""
    from types import SimpleNamespace

    from engine.core import Outcome
    from net.store.night import Night

    status, out, _ = scores(capsys, "--tonight", "--state-dir", str(tmp_path))
    assert status == 0 and out.startswith("No game finished tonight")
    night = Night.open(tmp_path, now=1000.0)
    for index, winner in enumerate((0, 0)):
        seats = [
            SimpleNamespace(name="Ann", human=True, gave_up=False, player=None),
            SimpleNamespace(name="Bot Tom", human=False, gave_up=False, player=None),
        ]
        table = SimpleNamespace(
            id=f"t{index}",
            seats=seats,
            outcome=Outcome((1, 0), (winner,)),
            game=SimpleNamespace(name="catchy", title="Catchy!"),
        )
        night.record(table, [0.0, 0.0], [{"rating": 1510, "change": 10}, None], 1000.0 + index)
    status, out, _ = scores(capsys, "--tonight", "--state-dir", str(tmp_path))
    assert status == 0 and "Tonight: 2 games" in out
    ann = next(line for line in out.splitlines() if "Ann" in line)
    assert ann.split("│")[2].strip() == "2" and "+10 +10" in ann
    assert "Bot Tom (bot)" in out

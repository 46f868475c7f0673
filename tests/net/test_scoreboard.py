"""The host's scoreboard (net.scoreboard): results across games, counted once, reset."""

from __future__ import annotations

import asyncio
import json
import stat
from pathlib import Path
from typing import Any

import pytest

from net.client import Client
from net.scoreboard import Scoreboard, player_id, reset, wins_line
from net.tables import create
from tests import toy_game
from tests.net.hosting import running_host

pytestmark = pytest.mark.timeout(30)


def finished_toy(table_id: str, name: str = "Ann", player: str | None = None) -> Any:
    """A finished two-seat toy table: ``name`` (with player hash ``player``) and a bot."""
    table = create(table_id, "toy", {"mode": "tie"}, 1, lambda record: None, seats=2)
    table.sit(name, player=player)
    table.add_bot()
    table.start_if_full()
    seat = next(s for s in range(2) if table.game.legal_actions(table.state, s))
    table.act(seat, table.game.legal_actions(table.state, seat)[0], 1.0)
    assert table.outcome is not None
    return table


def test_a_finished_table_counts_once_for_every_seat(tmp_path: Path) -> None:
    with toy_game.registered():
        board = Scoreboard(tmp_path)
        table = finished_toy("t1")
        assert board.record(table) and not board.record(table)
        rows = {row["name"]: row for row in board.summary()["toy"]}
        assert rows["Ann"]["played"] == 1 and rows["Bot Tom"]["bot"]
        winners = table.outcome.winners
        assert sum(row["wins"] for row in rows.values()) == len(winners)
        again = Scoreboard(tmp_path)  # read back, as after a restart
        assert not again.record(table)
        assert again.summary() == board.summary()
        text = (tmp_path / "scores.json").read_text()
        assert table.seats[0].token not in text  # seat tokens are never kept
        assert stat.S_IMODE((tmp_path / "scores.json").stat().st_mode) == 0o600


def test_a_player_known_by_key_keeps_results_across_a_rename(tmp_path: Path) -> None:
    ann = player_id("ann's own secret key")
    with toy_game.registered():
        board = Scoreboard(tmp_path)
        board.record(finished_toy("t1", "Ann", ann))
        board.record(finished_toy("t2", "Annie", ann))  # the same player, renamed
        board.record(finished_toy("t3", "Ann"))  # another Ann, with no key: another row
    rows = [(row["name"], row["played"]) for row in board.summary()["toy"] if not row["bot"]]
    assert sorted(rows) == [("Ann", 1), ("Annie", 2)]
    text = (tmp_path / "scores.json").read_text()
    assert "ann's own secret key" not in text and ann in text


def test_two_people_of_one_name_are_two_rows_when_their_keys_differ(tmp_path: Path) -> None:
    with toy_game.registered():
        board = Scoreboard(tmp_path)
        board.record(finished_toy("t1", "you", player_id("first")))
        board.record(finished_toy("t2", "you", player_id("second")))
    people = [row for row in board.summary()["toy"] if not row["bot"]]
    assert [(row["name"], row["played"]) for row in people] == [("you", 1), ("you", 1)]


def test_a_file_of_the_first_format_is_read_as_names(tmp_path: Path) -> None:
    old = {
        "games": {"toy": {"Ann": {"played": 3, "wins": 2, "bot": False, "tokens": ["ab"]}}},
        "tables": ["t1"],
    }
    (tmp_path / "scores.json").write_text(json.dumps(old))
    with toy_game.registered():
        board = Scoreboard(tmp_path)
        assert not board.record(finished_toy("t1"))  # counted before the upgrade
        board.record(finished_toy("t2"))
    ann = next(row for row in board.summary()["toy"] if row["name"] == "Ann")
    assert ann["played"] == 4


def test_reset_forgets_everything(tmp_path: Path) -> None:
    with toy_game.registered():
        Scoreboard(tmp_path).record(finished_toy("t1"))
        assert reset(tmp_path) and not reset(tmp_path)
        assert Scoreboard(tmp_path).summary() == {}


def test_the_lobby_line_names_the_winners_per_game() -> None:
    summary = {"catchy": [{"name": "Ann", "wins": 3, "played": 4, "bot": False}]}
    assert wins_line(summary, {"catchy": "Catchy!"}) == ["Catchy!: Ann 3 (wins; most played 4)"]
    assert wins_line({"catchy": [{"name": "Bo", "wins": 0, "played": 1}]}, {}) == []


async def test_a_host_counts_finished_games_and_answers_get_scores(tmp_path: Path) -> None:
    with toy_game.registered():
        async with running_host(tmp_path) as host:
            runner = host.create_table("toy", {"mode": "tie"}, seats=2, bots=2)
            for _ in range(200):
                if runner.table.outcome is not None:
                    break
                await asyncio.sleep(0.01)
            ann = Client("127.0.0.1", host.port, "Ann", reconnect=False)
            await ann.connect()
            scores = await ann.get_scores()
            assert sum(row["played"] for row in scores["toy"]) == 2
            await ann.close()


async def test_a_player_key_reaches_the_scoreboard_only_as_its_hash(tmp_path: Path) -> None:
    from net.journal import read_records

    with toy_game.registered():
        async with running_host(tmp_path) as host:
            runner = host.create_table("toy", {"mode": "tie"}, seats=2, bots=1)
            ann = Client("127.0.0.1", host.port, "Ann", reconnect=False, player_key="k" * 24)
            await ann.connect()
            joined = await ann.join(runner.table.id)
            assert joined.seat is not None
            assert runner.table.seats[joined.seat].player == player_id("k" * 24)
            await ann.close()
        journal = (tmp_path / "tables" / f"{runner.table.id}.log").read_text(errors="replace")
        assert "k" * 24 not in journal
        records = read_records(tmp_path / "tables" / f"{runner.table.id}.log")
        seat = next(record for record in records if record["r"] == "seat")
        assert seat["player"] == player_id("k" * 24)


@pytest.mark.parametrize(
    "stored",
    [
        {"games": []},
        {"format": 2, "games": {"toy": {"key:ab": {"played": "x", "wins": 0, "name": "Ann"}}}},
        {"format": 2, "games": {"toy": {"key:ab": {"played": 1, "wins": 0}}}},  # no name
        {"format": 2, "games": {"toy": {"odd": {"played": 1, "wins": 0, "name": "Ann"}}}},
        {"format": "2", "games": {"toy": 5}, "tables": [1, None]},
        {"games": {"toy": {"Ann": {"played": -1}}}, "tables": "t1"},
    ],
)
def test_a_damaged_score_file_costs_its_bad_rows_never_the_hosts_start(
    tmp_path: Path, stored: dict[str, Any]
) -> None:
    (tmp_path / "scores.json").write_text(json.dumps(stored))
    board = Scoreboard(tmp_path)
    assert all(not rows for rows in board.summary().values())
    with toy_game.registered():
        assert board.record(finished_toy("t1"))
    assert {row["name"] for row in board.summary()["toy"]} == {"Ann", "Bot Tom"}


def test_a_newer_format_is_neither_read_nor_overwritten(tmp_path: Path) -> None:
    newer = json.dumps({"format": 3, "players": {"whatever": 1}})
    (tmp_path / "scores.json").write_text(newer)
    board = Scoreboard(tmp_path)
    with toy_game.registered():
        board.record(finished_toy("t1"))
    assert (tmp_path / "scores.json").read_text() == newer


def test_a_persons_row_is_not_marked_a_bot_when_a_bot_covered_their_seat(tmp_path: Path) -> None:
    ann = player_id("ann")
    with toy_game.registered():
        table = finished_toy("t1", "Ann", ann)
        table.seats[0].bot = "random"  # Ann dropped and a bot finished for her
        board = Scoreboard(tmp_path)
        board.record(table)
        board.record(finished_toy("t2", "Ann", ann))
    rows = {row["name"]: row for row in board.summary()["toy"]}
    assert not rows["Ann"]["bot"] and rows["Bot Tom"]["bot"]

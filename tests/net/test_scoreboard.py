"""The host's scoreboard (net.scoreboard): results across games, counted once, reset."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path

import pytest

from net.client import Client
from net.scoreboard import Scoreboard, reset, token_id, wins_line
from net.tables import create
from tests import toy_game
from tests.net.hosting import running_host

pytestmark = pytest.mark.timeout(30)


def finished_toy(table_id: str, winner_first: bool = True) -> object:
    table = create(table_id, "toy", {"mode": "tie"}, 1, lambda record: None, seats=2)
    table.sit("Ann")
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
        winners = table.outcome.winners  # type: ignore[attr-defined]
        assert sum(row["wins"] for row in rows.values()) == len(winners)
        again = Scoreboard(tmp_path)  # read back, as after a restart
        assert not again.record(table)
        assert again.summary() == board.summary()
        text = (tmp_path / "scores.json").read_text()
        token = table.seats[0].token  # type: ignore[attr-defined]
        assert token not in text and token_id(token) in text
        assert stat.S_IMODE((tmp_path / "scores.json").stat().st_mode) == 0o600


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

"""A table's bots play at a level; the seat carries it, the journal keeps it, ratings use it."""

from __future__ import annotations

from typing import Any

import pytest

from net.core.host import HostCore
from net.core.tables import Table, TableError, create, restore
from net.store import ratings
from net.store.scoreboard import Scoreboard


def catchy_table(records: list[dict[str, Any]] | None = None) -> Table:
    sink = records.append if records is not None else (lambda record: None)
    return create("t1", "catchy", {}, 1, sink, seats=2)


def test_a_bot_seat_carries_its_level_and_the_ratings_key_it() -> None:
    table = catchy_table()
    seat = table.add_bot(level="hard")
    info = table.seats[seat]
    assert (info.bot, info.level) == ("hard", "hard")
    assert ratings.bot_key("catchy", ratings.seat_level(info)) == "bot:catchy:hard"
    assert not info.public().get("level")  # nothing new on the wire about seats


def test_a_bot_without_a_level_is_normal_and_an_alias_counts_as_normal() -> None:
    table = catchy_table()
    assert table.seats[table.add_bot()].level == "normal"
    assert table.seats[table.add_bot("catchy")].level == "normal"


def test_an_unknown_level_is_refused_with_the_levels() -> None:
    with pytest.raises(TableError, match=r"no bot level 'hardd'.*easy, normal, hard") as caught:
        catchy_table().add_bot(level="hardd")
    assert caught.value.code == "invalid_options"


def test_the_journal_keeps_a_bot_s_level_and_an_old_journal_reads_as_normal() -> None:
    records: list[dict[str, Any]] = []
    table = catchy_table(records)
    table.add_bot(level="easy")
    assert restore(records, lambda record: None).seats[0].level == "easy"
    old = [{k: v for k, v in record.items() if k != "level"} for record in records]
    restored = restore(old, lambda record: None).seats[0]
    assert restored.level is None and ratings.seat_level(restored) == "normal"


def test_the_host_seats_bots_at_the_level_asked_for_or_its_own_default() -> None:
    core = HostCore(name="virtual", log=lambda line: None)
    runner = core.create_table("catchy", {}, seats=2, bots=1, bot_level="hard")
    assert runner.table.seats[0].level == "hard"
    default = HostCore(name="virtual", log=lambda line: None, bot_level="easy")
    assert default.create_table("catchy", {}, seats=2, bots=1).table.seats[0].level == "easy"
    assert core.create_table("catchy", {}, seats=2, bots=1).table.seats[0].level == "normal"
    with pytest.raises(TableError, match="levels: easy, normal, hard"):
        core.create_table("catchy", {}, seats=2, bots=1, bot_level="hardd")


def test_a_finished_game_rates_the_bot_under_its_level(tmp_path: Any) -> None:
    pytest.importorskip("openskill")
    board = Scoreboard(tmp_path)
    table = catchy_table()
    table.sit("Ann")
    table.add_bot(level="hard")
    table.start_if_full()
    while table.outcome is None:
        seat = next(s for s in range(2) if table.game.legal_actions(table.state, s))
        table.act(seat, table.game.legal_actions(table.state, seat)[0], 1.0)
        state = table.state
        if table.game.deadline(state) is not None:
            table.tick(1.0)
    board.record(table)
    assert "bot:catchy:hard" in board.data["ratings"]["catchy"]

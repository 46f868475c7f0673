"""Ratings (net.store.ratings): the rating update, bots by level, and who a game does not rate.

Pure tests: no host, no file. The scoreboard's file and the host's use of
these are tested in tests/net/store/test_scoreboard.py.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import pytest

from net.core.tables import Table, create
from net.store import ratings
from net.store.ratings import Entrant, bot_key, rate, shown
from net.store.scoreboard import Scoreboard, row_key
from tests import toy_game

pytest.importorskip("openskill")


def people(count: int, winners: set[int]) -> list[Entrant]:
    return [Entrant(f"name:P{i}", f"P{i}", i in winners) for i in range(count)]


def test_a_newcomer_is_shown_1500_as_openskill_s_ordinal_on_the_shown_scale() -> None:
    from openskill.models import PlackettLuce

    assert shown(ratings.MU, ratings.SIGMA) == 1500
    rating = PlackettLuce().rating(mu=31.2, sigma=2.7)
    expected = rating.ordinal(3.0, ratings.SCALE, ratings.START)
    assert shown(31.2, 2.7) == round(expected)
    assert 29 < ratings.SCALE < 30
    assert ratings.as_text(1512, 24) == "1,512 (+24)" and ratings.as_text(1488, -7) == "1,488 (-7)"


def test_two_players_the_winner_rises_and_the_loser_falls() -> None:
    rows, changes = rate({}, people(2, {0}))
    assert changes[0] is not None and changes[1] is not None
    assert changes[0].change > 0 > changes[1].change
    assert changes[0].rating == 1500 + changes[0].change
    assert rows["name:P0"]["games"] == rows["name:P1"]["games"] == 1
    # A second game starts from the first one's ratings.
    again, more = rate(rows, people(2, {0}))
    assert more[0] is not None and more[0].rating > changes[0].rating
    assert again["name:P0"]["games"] == 2 and again["name:P0"]["sigma"] < rows["name:P0"]["sigma"]


def test_ten_players_one_winner_and_nine_sharing_second_place() -> None:
    rows, changes = rate({}, people(10, {3}))
    assert len(rows) == 10
    moves = [change.change for change in changes if change is not None]
    assert len(moves) == 10
    assert moves[3] > 0
    assert len({move for seat, move in enumerate(moves) if seat != 3}) == 1  # a shared place
    assert all(move <= 0 for seat, move in enumerate(moves) if seat != 3)


def test_a_shared_win_moves_the_winners_alike_and_a_game_all_won_moves_nobody_apart() -> None:
    _, changes = rate({}, people(4, {0, 2}))
    moved = [change.change for change in changes if change is not None]
    assert moved[0] == moved[2] > 0 and moved[1] == moved[3] < 0
    rows, tie = rate({}, people(3, {0, 1, 2}))
    assert len({change.rating for change in tie if change is not None}) == 1
    assert len({row["mu"] for row in rows.values()}) == 1


def test_a_stronger_player_gains_less_from_beating_a_weaker_one() -> None:
    known = {
        "name:P0": {"name": "P0", "mu": 32.0, "sigma": 3.0, "games": 20, "bot": False},
        "name:P1": {"name": "P1", "mu": 20.0, "sigma": 3.0, "games": 20, "bot": False},
    }
    _, expected = rate(known, people(2, {0}))
    _, upset = rate(known, people(2, {1}))
    assert expected[0] is not None and upset[1] is not None
    assert 0 < expected[0].change < upset[1].change


@dataclass
class FakeSeat:
    level: Any = None


def test_bots_are_rated_by_game_and_level_and_one_level_moves_by_its_seats_mean() -> None:
    assert bot_key("catchy") == "bot:catchy:normal"
    assert bot_key("kitten", "hard") == "bot:kitten:hard"
    assert ratings.seat_level(FakeSeat()) == "normal"
    assert ratings.seat_level(FakeSeat("easy")) == "easy"
    assert ratings.seat_level(object()) == "normal"  # today's seats say nothing
    normal = bot_key("kitten")
    entrants = [
        Entrant("name:Ann", "Ann", False),
        Entrant(normal, "Bot (normal)", True, bot=True),
        Entrant(normal, "Bot (normal)", False, bot=True),
    ]
    rows, changes = rate({}, entrants)
    assert set(rows) == {"name:Ann", normal} and rows[normal]["bot"]
    assert rows[normal]["games"] == 1  # one game, though two seats
    assert changes[1] == changes[2]  # both seats show the level's one rating
    mirror, _ = rate({}, [entrants[1], entrants[2]])
    assert mirror[normal]["mu"] == pytest.approx(ratings.MU)  # beating itself: no skill gained


def test_a_seat_that_is_not_rated_still_counts_for_the_others_but_moves_nobody() -> None:
    bot = bot_key("catchy")
    covered = [Entrant("name:Ann", "Ann", True), Entrant(bot, "Bot (normal)", False, rated=False)]
    rows, changes = rate({}, covered)
    assert set(rows) == {"name:Ann"} and changes[1] is None
    assert changes[0] is not None and changes[0].change > 0
    nobody, none = rate({}, [Entrant("name:Ann", "Ann", True, rated=False)] * 2)
    assert nobody == {} and none == [None, None]


def test_stored_rows_and_changes_are_checked() -> None:
    good = {"name": "Ann", "mu": 25.0, "sigma": 8.0, "games": 1, "bot": False}
    assert ratings.checked_row(good) == good
    for bad in (
        {**good, "mu": "x"},
        {**good, "sigma": 0},
        {**good, "sigma": float("nan")},
        {**good, "games": -1},
        {**good, "name": ""},
        {**good, "mu": 1e300},
        [1, 2],
    ):
        assert ratings.checked_row(bad) is None
    assert ratings.checked_changes([{"rating": 1500, "change": 3}, None], 2) is not None
    assert ratings.checked_changes([{"rating": 1500, "change": 3}], 2) is None
    assert ratings.checked_changes([{"rating": "1500", "change": 3}]) is None
    assert ratings.checked_changes([{"rating": True, "change": 3}]) is None
    assert ratings.checked_changes("no") is None


def toy_table(table_id: str = "t1", seats: int = 2) -> Table:
    table = create(table_id, "toy", {"mode": "turns"}, 1, lambda record: None, seats=seats)
    return table


def finish(table: Table, now: float) -> None:
    """Play the toy table to its end, the first legal action of whoever may act."""
    while table.outcome is None:
        seat = next(s for s in range(len(table.seats)) if table.game.legal_actions(table.state, s))
        table.act(seat, table.game.legal_actions(table.state, seat)[0], now)


def test_a_bot_s_spells_at_a_person_s_seat_are_timed_in_table_time() -> None:
    with toy_game.registered():
        table = toy_table()
        table.sit("Ann")
        table.sit("Bea")
        table.start_if_full()
        table.disconnect(0, 1.0)
        table.cover(0, 2.0)  # a bot plays for Ann from 2 s...
        table.connect(0, 5.0)  # ...until she is back at 5 s
        table.cover(0, 8.0)  # and again from 8 s to the end
        assert table.covered_shares(10.0) == pytest.approx([0.5, 0.0])
        assert table.covered_shares(0.0) == [0.0, 0.0]
        table.give_up(1, 9.0)
        assert table.seats[1].gave_up
        assert table.covered_shares(10.0) == pytest.approx([0.5, 0.1])


def test_a_person_a_bot_covered_for_more_than_half_of_the_game_is_not_rated(
    tmp_path: Any,
) -> None:
    with toy_game.registered():
        board = Scoreboard(tmp_path)
        table = toy_table()
        table.sit("Ann")
        table.sit("Bea")
        table.start_if_full()
        finish(table, 1.0)
        assert board.record(table, [0.6, 0.5])  # Ann covered 60%, Bea exactly half
        seats = board.table_ratings("t1")
        assert seats is not None and seats[0] is None and seats[1] is not None
        rated = board.data["ratings"]["toy"]
        assert row_key("Bea", None) in rated and row_key("Ann", None) not in rated
        assert "bot:toy:normal" not in rated  # the bot that covered Ann is not moved either
        # Her wins row still counts the game.
        assert {row["name"]: row["played"] for row in board.summary()["toy"]}["Ann"] == 1


def test_a_bot_seat_is_rated_under_its_level_and_a_given_up_seat_stays_the_person_s(
    tmp_path: Any,
) -> None:
    with toy_game.registered():
        board = Scoreboard(tmp_path)
        table = toy_table(seats=3)
        table.sit("Ann")
        table.add_bot()
        table.sit("Cy")
        table.start_if_full()
        table.give_up(2, 0.5)
        finish(table, 1.0)
        board.record(table, table.covered_shares(1.0))
        rated = board.data["ratings"]["toy"]
        # Cy gave up at 0.5 s of a 1 s game: half, so still rated, as a person.
        assert set(rated) == {"name:Ann", "bot:toy:normal", "name:Cy"}
        assert rated["bot:toy:normal"]["bot"] and not rated["name:Cy"]["bot"]
        summary = {row["name"]: row for row in board.summary()["toy"]}
        assert summary["Bot Tom"]["rating"] == ratings.row_rating(rated["bot:toy:normal"])


def test_without_openskill_the_scoreboard_counts_wins_and_keeps_stored_ratings(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    with toy_game.registered():
        board = Scoreboard(tmp_path)
        table = toy_table()
        table.sit("Ann")
        table.add_bot()
        table.start_if_full()
        finish(table, 1.0)
        board.record(table)
        stored = board.data["ratings"]
        assert stored["toy"]
        # The import fails from now on, as on a machine without the extra.
        monkeypatch.setitem(sys.modules, "openskill", None)
        monkeypatch.setitem(sys.modules, "openskill.models", None)
        assert not ratings.available()
        later = Scoreboard(tmp_path)
        assert not later.ratings_on and later.take_notices() == [ratings.UNAVAILABLE]
        again = toy_table("t2")
        again.sit("Ann")
        again.add_bot()
        again.start_if_full()
        finish(again, 1.0)
        assert later.record(again)
        assert later.table_ratings("t2") is None and later.table_ratings("t1") is None
        assert all("rating" not in row for row in later.summary()["toy"])
        assert sum(row["played"] for row in later.summary()["toy"]) == 4
        assert Scoreboard(tmp_path).data["ratings"] == stored  # kept for a host that rates

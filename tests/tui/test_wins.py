"""The lobby shows the selected host's wins and ratings per game (its scoreboard), and only that
host's; the results of a game show each seat's rating and its change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from engine.bots import make_bot
from engine.games.catchy.rules import GAME
from net.client.client import Client
from net.store.scoreboard import wins_line
from tests.net.hosting import running_host
from tests.tui.harness import DECK, LobbyHarness, TableHarness, catchy_view
from tui.screens.results import ResultsScreen
from tui.widgets.wins import HostWins, fetch_wins

pytestmark = pytest.mark.timeout(30)


async def test_the_selected_hosts_wins_show_under_its_tables() -> None:
    app = LobbyHarness()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        wins = app.lobby.query_one(HostWins)
        shown = [wins.display]
        app.lobby.set_wins("yours", ["Catchy!: Ann 3 wins · Bea 1 win"])
        app.lobby.set_wins("lan:bea", ["Kiitos: Cy 2 wins"])
        await pilot.pause()
        shown.append(wins.display)
        assert shown == [False, True] and "Ann 3" in str(wins.render())
        await pilot.press("down")  # Bea's laptop
        await pilot.pause()
        assert "Cy 2" in str(wins.render()) and "Ann 3" not in str(wins.render())


async def test_wins_are_fetched_from_a_host_and_none_without_scores(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        client = Client("127.0.0.1", host.port, "Ann", reconnect=False)
        await client.connect()
        assert await fetch_wins(client) == []
        await client.close()


def finished_catchy_view(seat: int = 0) -> dict[str, Any]:
    """A Catchy! game between Ann and Bot Tom played to its end by bots: seat's last view."""
    state = GAME.new_game(["Ann", "Bot Tom"], 7, {"deck": DECK, "target": 1})
    bots = [make_bot("catchy", "catchy", 1), make_bot("catchy", "catchy", 2)]
    for _ in range(500):
        if GAME.outcome(state) is not None:
            break
        mover = next(s for s in (0, 1) if GAME.legal_actions(state, s))
        action = bots[mover].choose(GAME.view(state, mover))
        assert action is not None
        state, _ = GAME.apply(state, mover, action, 0.0)
    view: dict[str, Any] = GAME.view(state, seat)
    assert view["outcome"] is not None
    return view


async def test_the_results_show_each_seat_s_rating_and_its_change() -> None:
    app = TableHarness(catchy_view(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # What the app hands the screen from the `view` message's `ratings`, then the view.
        app.table.rated([{"rating": 1601, "change": 101}, {"rating": 1446, "change": -54}])
        app.table.view = finished_catchy_view()
        await pilot.pause()
        results = app.screen
        assert isinstance(results, ResultsScreen)
        body = str(results.query_one("#results-body", Static).render())
        assert "Ann (you): 1,601 (+101)" in body and "Bot Tom: 1,446 (-54)" in body


async def test_a_seat_not_rated_says_so_and_bad_figures_from_a_host_are_not_drawn() -> None:
    app = TableHarness(catchy_view(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.table.rated([None, {"rating": 1446, "change": -54}])
        lines = app.table.rating_lines(finished_catchy_view())
        assert "  Ann (you): not rated (a bot played most of the game)" in lines
        for hostile in ([{"rating": "1,601\x1b[2J", "change": 1}, None], [1, 2], "x", [None]):
            app.table.rated(hostile)
            assert app.table.rating_lines(finished_catchy_view()) == []
        app.table.rated(None)  # a host that does not rate: the results as before
        assert app.table.rating_lines(finished_catchy_view()) == []


async def test_the_lobby_shows_ratings_next_to_the_winners_names() -> None:
    summary = {
        "catchy": [
            {"name": "Ann", "wins": 3, "played": 4, "bot": False, "rating": 1612},
            {"name": "Bot Tom", "wins": 1, "played": 4, "bot": True, "rating": 1488},
            {"name": "Cy", "wins": 1, "played": 1, "bot": False},  # not rated yet
        ]
    }
    lines = wins_line(summary, {"catchy": "Catchy!"})
    assert lines == ["Catchy!: Ann 3 wins (rated 1,612) · Bot Tom 1 win (rated 1,488) · Cy 1 win"]
    app = LobbyHarness()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.lobby.set_wins("yours", lines)
        await pilot.pause()
        assert "Ann 3 wins (rated 1,612)" in str(app.lobby.query_one(HostWins).render())


async def test_ten_seats_ratings_go_two_to_a_line_near_the_top() -> None:
    app = TableHarness(catchy_view(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        names = ["Ann", "Bea", "Cy", "Mathilda-Rose", *[f"Bot {n}" for n in range(6)]]
        view = {**finished_catchy_view(), "players": names}
        app.table.rated([None if s == 3 else {"rating": 1500 + s, "change": s} for s in range(10)])
        lines = app.table.rating_lines(view)
        assert lines[2] == "  " + "you: 1,500 (+0)".ljust(27) + "Bea: 1,501 (+1)"
        assert lines[3] == "  " + "Cy: 1,502 (+2)".ljust(27) + "Mathilda-R…: not rated"
        assert len(lines) == 2 + 5 + 1 and all(len(line) <= 54 for line in lines)


async def test_a_game_over_the_network_ends_on_results_that_show_the_hosts_ratings(
    tmp_path: Path,
) -> None:
    """The whole path: a host that keeps scores rates the game, the `view` message carries
    the ratings, the app hands them to the table screen, the results show them."""
    pytest.importorskip("openskill")
    from net.doors.host import Host
    from tests.tui.test_seats import at_table, join_app, until

    host = Host(
        name="Bea",
        bind="127.0.0.1",
        port=0,
        state_dir=tmp_path / "host",
        bot_delay_s=0.01,
        log=lambda _: None,
    )
    await host.start()
    try:
        table_id = host.create_table("catchy", {"target": 1}, bots=1).table.id
        app = join_app(tmp_path, host.port)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.lobby and app.lobby.tables, "the tables")
            await pilot.press("enter")
            screen = await at_table(pilot, app)
            bot = make_bot("catchy", "catchy", 5)
            for _ in range(400):
                if isinstance(app.screen, ResultsScreen):
                    break
                view = screen.view
                assert app.at_table is not None
                if view is not None and view["legal"] and view["outcome"] is None:
                    action = bot.choose(dict(view))
                    if action is not None:
                        await app.at_table.client.act(table_id, action)
                await pilot.pause(0.02)
            results = app.screen
            assert isinstance(results, ResultsScreen)
            rated = [line for line in results.lines if "Ann (you): " in line and "(" in line]
            assert rated and rated[-1].startswith("  Ann (you): 1,"), results.lines
            assert any(line.startswith("  Bot Tom: 1,") for line in results.lines)
    finally:
        await host.close()


def test_the_lobby_says_tonight_s_standings_in_one_line_above_the_wins() -> None:
    """Issue 31: tonight's standings for the selected host, people only, in the lobby."""
    from tui.widgets.wins import tonight_line

    assert tonight_line(None) == [] and tonight_line({"games": 0, "standings": []}) == []
    data = {
        "games": 3,
        "standings": [
            {"name": "Ann", "bot": False, "wins": 2, "games": 3},
            {"name": "Bea", "bot": False, "wins": 1, "games": 3},
            {"name": "Bot Tom", "bot": True, "wins": 0, "games": 3},
        ],
    }
    assert tonight_line(data) == ["Tonight, 3 games: Ann 2 wins, Bea 1"]


def test_tonight_s_line_says_1_win_and_1_game() -> None:
    """Issue 36, item 10: the lobby said ``Tonight, 3 games: ann 1 wins``; one win (and one
    game) is said in the singular, any other count in the plural."""
    from tui.widgets.wins import tonight_line

    def line(games: int, *wins: int) -> str:
        standings = [
            {"name": name, "bot": False, "wins": won, "games": games}
            for name, won in zip(("ann", "bea", "cy"), wins, strict=False)
        ]
        return tonight_line({"games": games, "standings": standings})[0]

    assert line(3, 1, 1, 1) == "Tonight, 3 games: ann 1 win, bea 1, cy 1"
    assert line(1, 1, 0) == "Tonight, 1 game: ann 1 win, bea 0"
    assert line(2, 2, 0) == "Tonight, 2 games: ann 2 wins, bea 0"
    assert line(2, 0, 0) == "Tonight, 2 games: ann 0 wins, bea 0"
    assert " 1 wins" not in line(3, 1, 1, 1)


def test_a_hosts_line_says_what_its_advertisement_counts() -> None:
    """Tables not over, and which wait for players (issue 36, item 11: "4 tables, 4 open"
    beside a list with a finished table in it read as a miscount)."""
    from types import SimpleNamespace

    from tui.app import host_summary

    def advertised(count: int, free: int, more: int = 0) -> SimpleNamespace:
        return SimpleNamespace(
            table_count=count, open_tables=[object()] * free, open_tables_omitted=more
        )

    assert host_summary(advertised(0, 0)) == "no tables yet"
    assert host_summary(advertised(3, 1)) == "1 waiting · 2 playing"
    assert host_summary(advertised(4, 2, more=2)) == "4 waiting"
    assert host_summary(advertised(2, 0)) == "2 playing"

"""One evening, many games (issue 31): after a whole game, ``a`` on the results plays the
same game again with the same people, seats and bots, without a trip to the lobby; the
second results screen shows tonight's standings with both games. Every registered game,
at 80x24, through the real app, host and client (``clowder play``). The player's moves go
through the app's own client (the first legal move each time): the keys of every game are
the coached games' business (tests/tui/games/*/test_coach.py); here it is the evening.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from engine import registry
from engine.games.katootsie import rules as katootsie
from tests.tui.solo import drawn_screen, solo_app, table_of
from tui.app import ClowderApp
from tui.screens.next_game import NextGameDialog, games_for
from tui.screens.results import ResultsScreen
from tui.screens.table import TableScreen

pytestmark = pytest.mark.timeout(60)

FAST: dict[str, dict[str, Any]] = {
    "catchy": {"target": 1},
    "blackcat": {"stall": 0},
    "kiitos": {"mode": "simple", "rounds": 1},
    "katootsie": {"rounds": 1, "no_answer_seconds": 10, "vote_seconds": 2},
    "kitten": {},
}
"""The shortest whole game of each (Black Cat: the end may be called at once)."""

MAX_STEPS = 4000


@pytest.fixture
def short_katootsie(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(katootsie, "FULL_LETTERS", ("B", "S"))
    monkeypatch.setattr(katootsie, "CATEGORY_PAUSE_S", 0.2)
    monkeypatch.setattr(katootsie, "LETTER_PAUSE_S", 0.2)


PREFERRED = {
    "blackcat": ("call",),
    "kitten": ("challenge",),
    "kiitos": ("pickup", "lead", "play", "say"),
}
"""Per game, the moves that end it soonest: Black Cat's call, Kitten Me!'s challenge, and
Kiitos' pick-up (everyone draws back to 8 after it: the round ends when the deck cannot
fill the hands; never a challenge)."""


def my_move(game: str, view: dict[str, Any]) -> dict[str, Any] | None:
    """The legal move that ends the game soonest and needs nothing typed."""
    legal = [
        dict(action)
        for action in view["legal"]
        if not (action["type"] == "answer" and not action.get("text"))  # Katootsie!: a word
    ]
    for kind in PREFERRED.get(game, ()):
        for action in legal:
            if action["type"] == kind:
                return action
    if game == "kiitos":
        legal = [action for action in legal if action["type"] != "challenge"]
    return legal[0] if legal else None


async def finish(pilot: Pilot[Any], app: ClowderApp, table: TableScreen[Any]) -> ResultsScreen:
    """Play ``table``'s game to its results screen."""
    sent: object = None
    for _ in range(MAX_STEPS):
        await pilot.pause(0.02)
        if isinstance(app.screen, ResultsScreen):
            return await drawn_screen(pilot, ResultsScreen)
        if not isinstance(app.screen, TableScreen):
            await pilot.press("space")  # a game's own box over the table (Kitten Me!'s reveal)
            continue
        seat, view = app.at_table, table.view
        if seat is None or view is None or view is sent or table.starting:
            continue
        move = my_move(table.game, dict(view))
        if move is None:
            continue
        sent = view
        reveal = view.get("reveal")
        if reveal is not None and table.game and registry.get(table.game).is_claim(move):
            import time

            now = time.monotonic_ns()
            await seat.client.act(
                seat.table, move, reveal=reveal, drawn_ns=now - 200_000_000, acted_ns=now
            )
        else:
            await seat.client.act(seat.table, move)
    raise AssertionError(f"{table.game} did not end")


async def next_table(pilot: Pilot[Any], app: ClowderApp, old: str) -> TableScreen[Any]:
    for _ in range(500):
        await pilot.pause(0.02)
        seat = app.at_table
        if seat is not None and seat.table != old and isinstance(app.screen, TableScreen):
            return app.screen
    raise AssertionError("the new game never came")


@pytest.mark.parametrize("game", registry.names())
async def test_play_again_after_a_whole_game_keeps_the_people_and_tonight_counts_both(
    tmp_path: Path, game: str, short_katootsie: None
) -> None:
    bots = 1 if registry.get(game).min_players <= 2 else registry.get(game).min_players - 1
    app = solo_app(tmp_path, game, FAST[game], bots=bots, bot_reaction_scale=0.05)
    async with app.run_test(size=(80, 24)) as pilot:
        first = await table_of(pilot, TableScreen)
        assert first.view is not None
        players = list(first.view["players"])
        me = first.view["seat"]
        results = await finish(pilot, app, first)
        assert results.my_seat == me
        old = first.table_id
        await pilot.press("a")
        second = await next_table(pilot, app, old)
        assert second.view is not None
        assert list(second.view["players"]) == players  # the same people in the same seats
        assert second.view["seat"] == me
        results = await finish(pilot, app, second)
        await pilot.pause(0.05)  # the results screen draws what it was given once mounted
        assert results.tonight is not None and results.tonight["games"] == 2
        shown = str(results.query_one("#results-tonight").render())
        assert "Tonight: 2 games" in shown
        assert "you" not in shown.split("\n", 1)[0]
        await pilot.press("enter")
        for _ in range(100):
            await pilot.pause(0.02)
            if app.return_code is not None:
                break
    assert app.return_code == 0


async def test_next_game_takes_the_table_from_catchy_to_kitten_with_a_bot_added(
    tmp_path: Path,
) -> None:
    app = solo_app(tmp_path, "catchy", FAST["catchy"], bots=1)
    async with app.run_test(size=(80, 24)) as pilot:
        first = await table_of(pilot, TableScreen)
        await finish(pilot, app, first)
        await pilot.press("n")
        await drawn_screen(pilot, NextGameDialog)
        offered = [choice.label for choice in games_for(2)]
        assert "Kitten Me! (+1 bot)" in [label.replace("You Gotta Be ", "") for label in offered]
        index = next(i for i, c in enumerate(games_for(2)) if c.key == "kitten+1")
        for _ in range(index):
            await pilot.press("down")
        await pilot.press("enter")
        second = await next_table(pilot, app, first.table_id)
        assert second.game == "kitten" and second.view is not None
        assert first.view is not None
        assert second.view["players"][:2] == first.view["players"]  # seats carry over
        assert len(second.view["players"]) == 3  # with a bot added

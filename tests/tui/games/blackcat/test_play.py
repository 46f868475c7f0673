"""Black Cat against an in-host bot through the real app, host and client, by keys.

The player waits a human-plausible moment after each card is drawn (the
host refuses reactions under 80 ms), presses 1 or 2, and the host's arbiter
decides each grab against the bot's claims. Then c twice calls the end.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from engine.games.blackcat.rules import BlackCatView
from net.core.table import BOT_DELAY_S
from tests.tui.solo import drawn_screen, solo_app, table_of
from tui.commands.reaction import reaction_scale
from tui.games.blackcat.screen import BlackCatTable
from tui.screens.results import ResultsScreen

pytestmark = pytest.mark.timeout(60)

REACTION_S = 0.15
GRABS = 4


def in_play(table: BlackCatTable) -> bool:
    """The first card is up (after the host's start countdown)."""
    return table.view is not None and table.view["phase"] == "play"


async def next_card(pilot: Pilot[Any], table: BlackCatTable, after: int) -> BlackCatView:
    """Wait until the host shows a top card newer than reveal ``after``.

    The first card comes after the host's start countdown (3 s).
    """
    for _ in range(900):
        view = table.view
        assert view is not None
        if view["phase"] == "over" or (view["reveal"] or 0) > after:
            return view
        await pilot.pause(0.01)
    raise AssertionError(f"no card after reveal {after}")


async def test_grabs_by_keys_are_ruled_by_the_host_then_calling_ends_the_game(
    tmp_path: Path,
) -> None:
    app = solo_app(tmp_path, "blackcat", {"stall": 0}, bots=1, bot_delay_s=BOT_DELAY_S)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await table_of(pilot, BlackCatTable, in_play)
        seen = 0
        for turn in range(GRABS):
            view = await next_card(pilot, table, seen)
            assert view["phase"] == "play", "the bot called the end before Ann could"
            seen = view["reveal"] or 0
            await pilot.pause(REACTION_S)
            if table.view is not None and table.view["reveal"] == seen:
                await pilot.press(str(turn % 2 + 1))
        view = await next_card(pilot, table, seen)
        seat = view["seat"]
        assert seat is not None
        mine = sum(len(pile["cards"]) for pile in view["piles"][seat])
        assert mine >= 1, "every grab was refused or lost"
        assert table.history.awards, "no ruling reached the screen"
        assert all(award.ruling is not None for award in table.history.awards)
        won = [award for award in table.history.awards if award.seat == view["seat"]]
        assert len(won) == mine
        assert sum("→ you" in line for line in table.history.lines) == mine
        await pilot.press("c", "c")
        for _ in range(200):
            await pilot.pause()
            if isinstance(app.screen, ResultsScreen):
                break
        results = app.screen
        assert isinstance(results, ResultsScreen)
        assert "You called the end." in results.lines
        await drawn_screen(pilot, ResultsScreen)  # its Enter counts once it is drawn
        await pilot.press("enter")
        for _ in range(50):
            await pilot.pause()
            if app.return_code is not None:
                break
    assert app.return_code == 0


async def test_bot_reaction_reaches_the_embedded_host(tmp_path: Path) -> None:
    app = solo_app(
        tmp_path,
        "blackcat",
        {"stall": 0},
        bots=1,
        bot_delay_s=BOT_DELAY_S,
        bot_reaction_scale=reaction_scale(1.6),
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await table_of(pilot, BlackCatTable, in_play)
        assert app.embedded is not None
        assert app.embedded.host.core.bot_reaction_scale == 2.0

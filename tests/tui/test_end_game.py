"""``q`` in ``clowder play`` / ``clowder learn`` asks before a game under way is thrown away.

Issue 36, item 10: a solo game's host lives in the player's own process, so quitting ends
the game for good; one stray ``q`` (a phone's keyboard, a key meant for a closed dialog)
used to do it without a word.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.screen import Screen

from tests.tui.solo import drawn_screen, solo_app, table_of
from tui.screens.end_game import EndGameDialog
from tui.screens.table import TableScreen


def on_show(app: App[Any]) -> Screen[Any]:
    """The screen on show (not narrowed by an earlier isinstance check)."""
    return app.screen


async def test_q_in_a_solo_game_asks_and_n_goes_back_to_the_game(tmp_path: Path) -> None:
    app = solo_app(tmp_path, "catchy", bot_delay_s=5.0)  # the bot waits: the game stays on
    async with app.run_test(size=(80, 24)) as pilot:
        table = await table_of(pilot, TableScreen)
        await pilot.press("q")
        await drawn_screen(pilot, EndGameDialog)
        assert app.return_code is None  # still running: nothing ended
        await pilot.press("q")  # a second q is not a yes
        await pilot.pause(0.05)
        assert on_show(app) is table and app.return_code is None
        await pilot.press("q")
        await drawn_screen(pilot, EndGameDialog)
        await pilot.press("n")
        await pilot.pause(0.05)
        assert on_show(app) is table and app.return_code is None
        assert table.view is not None and table.view["outcome"] is None


async def test_q_then_y_ends_the_solo_game_and_quits(tmp_path: Path) -> None:
    app = solo_app(tmp_path, "catchy", bot_delay_s=5.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await table_of(pilot, TableScreen)
        await pilot.press("q")
        await drawn_screen(pilot, EndGameDialog)
        await pilot.press("y")
        for _ in range(200):
            await pilot.pause(0.02)
            if app.return_code is not None:
                break
        assert app.return_code == 0

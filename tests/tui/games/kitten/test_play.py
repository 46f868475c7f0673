"""A whole Kitten Me! game against two bots, by keys, through the real app, host and client.

``clowder play kitten --bots 2`` on loopback, bots acting at once. On its turn
the player challenges when it may (c) and otherwise makes the lowest bid the
bar offers (b, enter); every reveal is read and closed with a key; the game
ends on the results screen, which says who won and who went out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.games.kitten.rules import CHALLENGE
from tests.tui.solo import answered, solo_app, table_of
from tui.games.kitten.screen import KittenTable, RevealScreen
from tui.screens.results import ResultsScreen

pytestmark = pytest.mark.timeout(120)

MAX_STEPS = 2000


async def test_a_whole_game_against_two_bots_by_keys_ends_at_the_results(tmp_path: Path) -> None:
    app = solo_app(tmp_path, "kitten", bots=2)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await table_of(pilot, KittenTable)
        reveals = 0
        for _ in range(MAX_STEPS):
            await pilot.pause()
            if isinstance(app.screen, ResultsScreen):
                break
            if isinstance(app.screen, RevealScreen):
                reveals += 1
                await pilot.press("space")
                continue
            view = table.view
            assert view is not None
            if app.screen is table and view["turn"] == view["seat"] and view["outcome"] is None:
                if {"type": CHALLENGE} in view["legal"]:
                    await pilot.press("c")
                else:
                    await pilot.press("b", "enter")
                await answered(pilot, table, view)
        else:
            raise AssertionError("the game did not end")
        view = table.view
        assert view is not None and view["outcome"] is not None
        assert reveals >= 9  # 3 players of 5 cards: at least 10 cards lost, the last before
        results = app.screen
        assert isinstance(results, ResultsScreen)
        assert any("last player with cards" in line for line in results.lines)
        assert any(line.startswith("  2.") for line in results.lines)  # two went out, in order
        await pilot.press("enter")  # leave: `clowder play` ends
        for _ in range(50):
            await pilot.pause()
            if app.return_code is not None:
                break
    assert app.return_code == 0

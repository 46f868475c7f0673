"""Catchy! against a bot, driven by keys through the real app, host and client: a card the
rules refuse is explained and nothing is sent.

The host runs in the test's event loop on 127.0.0.1 (any free port), the bot
acts at once (``bot_delay_s=0``), and every move the player makes is a key
press: number keys to pick a card or a course card, enter to play. (A whole game by keys
is ``tests/tui/games/catchy/test_coach.py``'s coached first game.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from engine.games.catchy.rules import STARTING
from tests.tui.solo import answered, solo_app, table_of
from tui.games.catchy.screen import CatchyTable

MAX_KEYS = 600


async def play_one_key_turn(pilot: Pilot[Any], table: CatchyTable) -> None:
    """Make the next move with keys: a course card to swap, or the first playable card."""
    view = table.view
    assert view is not None
    if view["phase"] == "swap":
        await pilot.press("s", "1")
        return
    hand = view["hand"]
    assert hand is not None
    playable = [card for card in hand if card not in view["unplayable"] and card != STARTING]
    await pilot.press(str(hand.index(playable[0]) + 1), "enter")


async def test_an_illegal_card_is_refused_with_the_reason(tmp_path: Path) -> None:
    """Press the cards one by one when following: a refused one shows the engine's reason."""
    app = solo_app(tmp_path, "catchy")
    async with app.run_test(size=(80, 24)) as pilot:
        table = await table_of(pilot, CatchyTable)
        for _ in range(MAX_KEYS):
            await pilot.pause()
            view = table.view
            assert view is not None
            if view["turn"] == view["seat"] and view["unplayable"]:
                break
            if view["turn"] == view["seat"]:
                await play_one_key_turn(pilot, table)
                await answered(pilot, table, view)
        else:
            raise AssertionError("never had to follow a colour with a card that may not")
        card, reason = next(iter(view["unplayable"].items()))
        assert view["hand"] is not None
        await pilot.press(str(view["hand"].index(card) + 1), "enter")
        await pilot.pause()
        prompt = table.query_one("#prompt")
        assert reason in str(prompt.render())
        assert table.view is view  # nothing was sent, nothing changed

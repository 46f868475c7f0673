"""A whole Kiitos game against a bot, by keys, through the real app, host and client.

``clowder play kiitos --bots 1`` on loopback, a short game (the simple game,
one round) with the bot's thinking times scaled down. On its turn the player
presses Enter to play the letter it must play, otherwise Tab (an idea from the
legal words) and Enter to say a word, or ctrl+p to pick up; once, it
challenges a word with ``!`` (a claim with reaction stamps, ruled by the
host). The game ends on the results screen.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.games.kiitos.rules import KiitosView
from tests.tui.solo import answered, solo_app, table_of
from tui.games.kiitos.screen import KiitosTable
from tui.screens.results import ResultsScreen

pytestmark = pytest.mark.timeout(120)

MAX_STEPS = 3000
REACTION_S = 0.15
"""How long the player waits before challenging (the host refuses reactions under 80 ms)."""


def kinds(view: KiitosView) -> set[str]:
    return {str(action["type"]) for action in view["legal"]}


async def test_a_whole_game_against_a_bot_by_keys_ends_at_the_results(tmp_path: Path) -> None:
    app = solo_app(
        tmp_path, "kiitos", {"mode": "simple", "rounds": 1}, bots=1, bot_reaction_scale=0.05
    )
    async with app.run_test(size=(80, 24)) as pilot:
        table = await table_of(pilot, KiitosTable, lambda screen: screen.playing is not None, 200)
        said = challenged = 0
        for _ in range(MAX_STEPS):
            await pilot.pause()
            if isinstance(app.screen, ResultsScreen):
                break
            view = table.view
            assert view is not None
            legal = kinds(view)
            if table.starting:
                assert not legal  # the host counts down before a real-time game begins
                continue
            if "challenge" in legal and not challenged:
                await pilot.pause(REACTION_S)
                if table.view is view:
                    await pilot.press("exclamation_mark")
                    challenged += 1
                    await answered(pilot, table, view)
                continue
            if view["turn"] != view["seat"] or view["outcome"] is not None:
                continue
            if "play" in legal:
                await pilot.press("enter")
            elif legal & {"lead", "say"}:
                await pilot.press("tab", "enter")
                if table.choices:
                    await pilot.press("1")
                said += 1
            elif "pickup" in legal:
                await pilot.press("ctrl+p")
            elif "forfeit" in legal:
                hand = view["hand"]
                assert hand
                await pilot.press(hand[0].lower(), "enter")
            else:
                raise AssertionError(f"no key for {legal}: {dict(view, log=view['log'][-6:])}")
            await answered(pilot, table, view)
        else:
            raise AssertionError("the game did not end")
        view = table.view
        assert view is not None and view["outcome"] is not None
        assert said >= 3 and challenged == 1
        award = table.history.last
        assert award is not None and award.ruling is not None, "the challenge was not ruled"
        assert award.label.startswith("the challenge of ")
        results = app.screen
        assert isinstance(results, ResultsScreen)
        assert results.lines[2].split() == ["R1", "total"]
        assert any("(you)" in line for line in results.lines)
        assert len(app._notifications) == 0  # no round-end toast covers the results
        await pilot.press("enter")  # leave: `clowder play` ends
        for _ in range(50):
            await pilot.pause()
            if app.return_code is not None:
                break
    assert app.return_code == 0

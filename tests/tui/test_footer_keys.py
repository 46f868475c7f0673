"""Every key a game's footer shows can be used at that moment (issue 36, item 7).

Catchy!'s footer offered ``s swap`` and ``1-7 card`` after the swap, and ``s`` then said
"There is nothing to swap now". The kind of mistake: a key in the footer whose action, at
that moment, only says it cannot be done. For every registered game, views from a seeded
random game (seat 0) are fed to its table screen; for each distinct set of keys the footer
shows, each key's action is run on a fresh screen with that view, and none may be refused.
"""

from __future__ import annotations

from typing import Any, ClassVar
from unittest.mock import patch

import pytest
from textual.app import App

from engine import registry
from tests.contract import play, players_for
from tui.games import screen_class
from tui.screens.table import TableScreen
from tui.styles import TCSS_DIR

pytestmark = pytest.mark.timeout(60)

SEED = 3
MAX_VIEWS = 120
"""Seat 0's views looked at per game (the first of a random game: every phase comes early)."""


class Tables(App[None]):
    """Shows one table screen at a time, each fed one view."""

    CSS_PATH: ClassVar[list[Any]] = [TCSS_DIR / "app.tcss"]
    ENABLE_COMMAND_PALETTE = False

    def on_table_screen_act(self, message: TableScreen.Act) -> None:
        message.stop()

    def on_table_screen_leave(self, message: TableScreen.Leave) -> None:
        message.stop()


def shown(screen: TableScreen[Any]) -> dict[str, str]:
    """The screen's own keys the footer shows now: action -> key."""
    return {
        active.binding.action: key
        for key, active in screen.active_bindings.items()
        if active.node is screen and active.binding.show and active.enabled
    }


ALWAYS = frozenset({"rules", "leave", "chat", "show_keys", "leave_line"})
"""Keys that open a screen or a line, whatever the game's moment: usable at any time."""


def views_of(game: str) -> list[dict[str, Any]]:
    engine = registry.get(game)
    players = players_for(max(engine.min_players, 2))
    playout = play(engine, players, SEED, max_steps=MAX_VIEWS)
    states = [playout.first, *(step.state for step in playout.steps)]
    return [engine.view(state, 0) for state in states[:MAX_VIEWS]]


async def refusals_of(
    app: Tables, screen: TableScreen[Any], view: dict[str, Any], action: str
) -> list[str] | None:
    """What ``screen``, showing ``view``, says when the footer's ``action`` is run (``None``: the
    footer does not show it there)."""
    screen.received(view)
    await app.workers.wait_for_complete()
    await screen.wait_for_refresh()
    if action not in shown(screen):
        return None
    said: list[str] = []
    try:
        with patch.object(screen, "refused", said.append):
            await app.run_action(action, screen)
            await screen.wait_for_refresh()
    finally:
        while len(app.screen_stack) > 2:
            app.pop_screen()
    return said


@pytest.mark.parametrize("game", registry.names())
async def test_every_key_the_footer_shows_is_usable_then(game: str) -> None:
    """One screen takes each view and each key in turn (a screen per key would take minutes);
    a key refused there is tried again on a screen of its own, which only that view has seen,
    so a mode an earlier key left open cannot pass for a refusal."""
    kind = screen_class(game)
    app = Tables()
    refusals: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        table = kind(table_id="t1")
        await app.push_screen(table)
        await pilot.pause()
        first: dict[tuple[str, str], dict[str, Any]] = {}
        """(phase, action) -> the first view whose footer shows the action's key."""
        for view in views_of(game):
            table.received(view)
            for action in shown(table):
                if action not in ALWAYS:
                    first.setdefault((str(view["phase"]), action), view)
        assert first, "not one game key over a whole game"  # (Katootsie!'s votes need time)
        while len(app.screen_stack) > 2:  # the results of a finished game
            app.pop_screen()
        for (phase, action), view in sorted(first.items(), key=lambda item: item[0]):
            said = await refusals_of(app, table, view, action)
            if not said:
                continue
            fresh = kind(table_id="t1")
            await app.switch_screen(fresh)
            key = shown(table).get(action)
            said = await refusals_of(app, fresh, view, action)
            refusals += [f"{phase}: {key} ({action}): {text}" for text in said or []]
            table = kind(table_id="t1")
            await app.switch_screen(table)
    assert not refusals, "\n".join(refusals)

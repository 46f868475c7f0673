"""Every message the app hands a table screen is safe before, during and after the screen's
mount (issue 36, item 12: a ``presence`` before the screen was composed raised
``NoMatches`` in the app's pump, which ends the app for the player).

For every game's screen: a view, the host's evening fields, presence, the link's state, a
chat line, a chat rule and a refusal are delivered before the screen is pushed, while it is
being pushed, and after it is up; nothing raises, and once it is up the chat line is in
its log, the refusal in its prompt and the seats in its connection line.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App

from engine import registry
from tests.contract import play, players_for
from tui.games import screen_class
from tui.screens.table import TableScreen
from tui.styles import TCSS_DIR
from tui.widgets.prompt import PromptLine


class Host(App[None]):
    CSS_PATH = [TCSS_DIR / "app.tcss"]  # noqa: RUF012


def first_view(game: str) -> dict[str, Any]:
    engine = registry.get(game)
    playout = play(engine, players_for(engine.min_players), 3, max_steps=5)
    state = next(iter(playout.states()))[0]
    view: dict[str, Any] = engine.view(state, 0)
    return view


def deliver(screen: TableScreen[Any], view: dict[str, Any], n: int) -> None:
    """Everything the app's pump hands a table screen, once (``n`` tells the copies apart)."""
    seats = [
        {"name": name, "bot": False, "human": True, "connected": True} for name in view["players"]
    ]
    screen.presence(seats)
    screen.link(True, "")
    screen.evening(None, None)
    screen.rated(None)
    screen.happened([])
    screen.received(view)
    screen.said("Bea", 1, f"hello {n}")
    screen.chat_rule("Bea", "shown")
    screen.refused(f"refused {n}")


def log_text(screen: TableScreen[Any]) -> str:
    from rich.text import Text

    from tui.widgets.log import GameLog

    logs = screen.query(GameLog)
    if not logs:
        return ""
    written = logs.first()._written
    return "\n".join(item.plain if isinstance(item, Text) else str(item) for item in written)


@pytest.mark.parametrize("game", registry.names())
async def test_messages_before_during_and_after_the_mount_are_safe_and_kept(game: str) -> None:
    view = first_view(game)
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        before = screen_class(game)(table_id="t1", place="127.0.0.1:7707")
        deliver(before, view, 1)  # not yet pushed
        waiting = app.push_screen(before)
        deliver(before, view, 2)  # being pushed
        await waiting
        await pilot.pause()
        deliver(before, view, 3)  # up
        await pilot.pause()
        await pilot.pause()
        assert "refused 3" in str(before.query_one(PromptLine).render())
        text = log_text(before)
        if text or before.query("GameLog"):
            for n in (1, 2, 3):
                assert f"hello {n}" in text, (game, n, text[-300:])
        # Taken down (the player left, the game is over): messages still on their way to it
        # (its pump's queue) are safe while it goes and once it is gone. A presence while
        # its widgets went raised NoMatches for ConnectionLine in a loaded run.
        leaving = app.pop_screen()
        deliver(before, view, 4)  # being taken down
        await leaving
        deliver(before, view, 5)  # gone
        await pilot.pause()

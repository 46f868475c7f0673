"""A browser's player, as their Clowder sees them (issue 36, item 4, the browser's part).

The web door (:mod:`net.doors.web_gateway`) runs ``clowder join`` for each browser, joined
to the host on this machine's loopback, shown as the address the browser reached
(``--shown-as``) and told the page's host as the browser addressed it
(``--door=web:HOST[:PORT]``). A browser has no ``clowder``, and its cookie (which is the
player) goes to that host name only: the way back it is told is that page, in that
browser, never ``clowder join 127.0.0.1:7707``. The gateway's side is tested in
tests/net/doors/test_web_gateway.py, and the whole of it in Chromium in
tests/web/test_phone_in_browser.py.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from tests.tui.solo import drawn_screen
from tests.tui.test_lobby import lobby_of, started_host, until
from tests.tui.test_ssh_player import gateway_client
from tui.app import ClowderApp
from tui.commands.join import Door, door
from tui.games.catchy.screen import CatchyTable
from tui.screens.leave import LeaveDialog
from tui.screens.table import TableScreen


def test_door_reads_the_web_page_as_the_browser_addressed_it() -> None:
    assert door("web:box.local:8080") == Door(web=("box.local", 8080))
    assert door("web:localhost") == Door(web=("localhost", 80))
    assert door("web:[fd00::1]:8080") == Door(web=("fd00::1", 8080))
    assert door("ssh:2222") == Door(ssh=2222)
    assert door(None) == Door()


def test_a_browser_player_s_way_back_is_the_page_in_that_browser(tmp_path: Path) -> None:
    app = ClowderApp(
        name="Bea",
        config_dir=tmp_path,
        join=("127.0.0.1", 7707),
        shown_as="198.18.0.1:7707",
        web_page=("box.local", 8080),
    )
    assert app.way_back("127.0.0.1:7707") == "open http://box.local:8080/ again in this browser"
    assert app.way_back("198.18.0.7:7707") == "clowder join 198.18.0.7:7707"  # another host
    v6 = ClowderApp(name="Bea", config_dir=tmp_path, join=("::1", 7707), web_page=("fd00::1", 80))
    assert v6.way_back("::1:7707") == "open http://[fd00::1]/ again in this browser"


async def test_a_browser_player_leaving_a_game_is_told_the_page_not_clowder_join(
    tmp_path: Path,
) -> None:
    host = await started_host(bot_delay_s=5.0)  # a slow bot: the game is still on
    host.create_table("catchy", {}, seats=2, bots=1)
    try:
        app = gateway_client(tmp_path, host.port, web_page=("198.18.0.1", 8080))
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = lobby_of(app)
            await until(pilot, lambda: lobby.tables, "the tables")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, CatchyTable), "the table")
            await until(pilot, lambda: app._playing(app.at_table), "the game")
            app.screen.post_message(TableScreen.Leave(None))
            await drawn_screen(pilot, LeaveDialog)
            text = " ".join(str(s.render()) for s in app.screen.query(Static))
            assert "open http://198.18.0.1:8080/ again in this browser" in text
            assert "clowder join" not in text and "127.0.0.1" not in text
    finally:
        await host.close()

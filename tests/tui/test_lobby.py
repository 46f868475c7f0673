"""The lobby: hosts appear from discovery, tables are listed, join, watch, create, by address.

Discovery is a fake source here (real mDNS is tested in tests/net); the
hosts behind it are real :class:`net.doors.host.Host` objects on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, DataTable, Input, Label, Select, Static

from engine import registry
from net.client.discovery import ChangeKind, HostEvent, HostInfo, TableSummary
from net.doors.host import Host
from tests.tui.harness import LobbyHarness
from tests.tui.solo import drawn_screen
from tui.app import ClowderApp
from tui.games.blackcat.screen import BlackCatTable
from tui.games.catchy.screen import CatchyTable
from tui.screens.dialogs import CreateDialog, NewTable
from tui.screens.leave import LeaveDialog
from tui.screens.lobby import LobbyScreen


class FakeDiscovery:
    """A host source the test feeds by hand."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[HostEvent | None] = asyncio.Queue()
        self.stopped = False

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        self.stopped = True
        self.queue.put_nowait(None)

    async def events(self) -> AsyncIterator[HostEvent]:
        while (event := await self.queue.get()) is not None:
            yield event

    def announce(self, host: Host, name: str, kind: ChangeKind = ChangeKind.ADDED) -> None:
        tables = tuple(TableSummary(t["id"], t["game"], t["free"]) for t in host.table_summaries())
        info = HostInfo(
            instance=f"{name}._clowder._tcp.local.",
            name=name,
            addresses=("127.0.0.1",),
            port=host.port,
            protocol_version=1,
            games=("catchy",),
            table_count=len(tables),
            open_tables=tables,
            open_tables_omitted=0,
            last_seen=time.time(),
        )
        self.queue.put_nowait(HostEvent(kind, info))


async def until(pilot: Pilot[Any], check: Any, what: str, rounds: int = 300) -> None:
    for _ in range(rounds):
        if check():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def lobby_app(tmp_path: Path, source: FakeDiscovery | None) -> ClowderApp:
    return ClowderApp(
        name="Ann",
        config_dir=tmp_path,
        discovery=(lambda: source) if source is not None else None,
        host_bind="127.0.0.1",
        advertise=False,
        bot_delay_s=0.0,
    )


async def started_host(bot_delay_s: float = 0.0) -> Host:
    host = Host(name="Bea", bind="127.0.0.1", port=0, bot_delay_s=bot_delay_s, log=lambda _: None)
    await host.start()
    return host


def lobby_of(app: ClowderApp) -> LobbyScreen:
    assert app.lobby is not None
    return app.lobby


async def listed(
    pilot: Pilot[Any], app: ClowderApp, source: FakeDiscovery, host: Host, tables: int = 1
) -> LobbyScreen:
    """The lobby once ``host`` was announced and its ``tables`` are listed."""
    lobby = lobby_of(app)
    await until(pilot, lambda: app.screen is lobby, "the lobby")
    source.announce(host, "Bea's laptop")
    await until(
        pilot,
        lambda: lobby.hosts and len(lobby.tables.get(lobby.hosts[0].key, [])) == tables,
        f"its {tables} table(s)",
    )
    return lobby


async def test_a_host_appears_and_its_tables_are_listed_then_join_as_player(tmp_path: Path) -> None:
    source = FakeDiscovery()
    host = await started_host()
    host.create_table("catchy", {}, seats=2, bots=0, created_by="Bea")
    try:
        app = lobby_app(tmp_path, source)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = lobby_of(app)
            await until(pilot, lambda: app.screen is lobby, "the lobby")
            source.announce(host, "Bea's laptop")
            await until(pilot, lambda: len(lobby.hosts) == 1, "the host to appear")
            assert lobby.hosts[0].summary == "1 waiting"
            await until(
                pilot, lambda: lobby.hosts and lobby.tables.get(lobby.hosts[0].key), "its tables"
            )
            rows = lobby.query_one("#tables", DataTable)
            assert rows.row_count == 1
            await pilot.press("enter", "enter")  # hosts -> tables, then join
            await until(pilot, lambda: isinstance(app.screen, CatchyTable), "the table")
            table = app.screen
            assert isinstance(table, CatchyTable)
            await until(pilot, lambda: table.waiting is not None, "the waiting room")
            assert table.view is None and table.seat is not None
            runner = next(iter(host.runners.values()))
            assert [seat.name for seat in runner.table.seats].count("Ann") == 1
            source.announce(host, "Bea's laptop", ChangeKind.REMOVED)
            await pilot.press("q")  # back to the lobby
            await until(pilot, lambda: app.screen is lobby, "the lobby again")
            await until(pilot, lambda: not lobby.hosts, "the host to go")
    finally:
        await host.close()


async def test_the_lobby_asks_once_and_the_host_keeps_it_up_to_date(tmp_path: Path) -> None:
    """A host sends a lobby its tables as they change: the lobby does not ask again, so an
    idle lobby costs nothing; away from the lobby, its connection to the host closes."""
    source = FakeDiscovery()
    host = await started_host()
    host.create_table("catchy", {}, seats=2, bots=0, created_by="Bea")
    asked: list[int | None] = []
    send_tables = host.core._send_tables

    def counted(session: Any, ref: int | None) -> None:
        if ref is not None:
            asked.append(ref)
        send_tables(session, ref)

    host.core._send_tables = counted  # type: ignore[method-assign]
    try:
        app = lobby_app(tmp_path, source)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = await listed(pilot, app, source, host, tables=1)
            key = lobby.hosts[0].key
            requests = len(asked)
            host.create_table("kiitos", {}, seats=2, bots=1, created_by="Bea")
            await until(pilot, lambda: len(lobby.tables.get(key, [])) == 2, "the new table")
            assert len(asked) == requests  # sent by the host: not asked for
            assert key in app._pushing
            for _ in range(40):  # a minute of the lobby's ticks: it asks nothing
                await app._timed_listing()
            assert len(asked) == requests
            await pilot.press("enter", "enter")  # to the first table
            await until(pilot, lambda: isinstance(app.screen, CatchyTable), "the table")
            await app._timed_listing()
            assert not app.listers and not app._pushing  # the lobby's connection is closed
    finally:
        await host.close()


async def test_enter_on_a_host_goes_to_the_first_table_it_can_sit_at(tmp_path: Path) -> None:
    source = FakeDiscovery()
    host = await started_host(bot_delay_s=5.0)
    host.create_table("catchy", {}, seats=2, bots=2)  # playing: no seat for Ann
    free = host.create_table("catchy", {}, seats=2, bots=1).table.id
    try:
        app = lobby_app(tmp_path, source)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = await listed(pilot, app, source, host, tables=2)
            await pilot.press("enter")
            rows = lobby.query_one("#tables", DataTable)
            assert rows.has_focus and rows.cursor_row == 1
            assert "↑↓ then Enter" in str(lobby.query_one("#lobby-status").render())
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, CatchyTable), "the table")
            assert "Ann" in [seat.name for seat in host.runners[free].table.seats]
    finally:
        await host.close()


async def test_watch_a_table_as_a_spectator(tmp_path: Path) -> None:
    source = FakeDiscovery()
    host = await started_host(bot_delay_s=5.0)  # two slow bots: the game is still on
    runner = host.create_table("catchy", {}, seats=2, bots=2)
    try:
        app = lobby_app(tmp_path, source)
        async with app.run_test(size=(80, 24)) as pilot:
            await listed(pilot, app, source, host)
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, CatchyTable), "the table")
            table = app.screen
            assert isinstance(table, CatchyTable)
            await until(pilot, lambda: table.view is not None and "hand" in table.view, "a view")
            assert table.view is not None
            assert table.view["seat"] is None and table.view["hand"] is None
            assert runner.table.spectators == 1
    finally:
        await host.close()


async def create_dialog(pilot: Pilot[Any], app: ClowderApp) -> CreateDialog:
    """From the lobby, ``c`` opens the create dialog."""
    await until(pilot, lambda: app.screen is lobby_of(app), "the lobby")
    await pilot.press("c")
    await until(pilot, lambda: isinstance(app.screen, CreateDialog), "the create dialog")
    assert isinstance(app.screen, CreateDialog)
    return app.screen


async def test_create_a_table_hosted_by_this_process(tmp_path: Path) -> None:
    app = lobby_app(tmp_path, None)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = lobby_of(app)
        dialog = await create_dialog(pilot, app)
        dialog.query_one("#game", Select).value = "catchy"
        await until(pilot, lambda: bool(dialog.query("#option-target")), "the Catchy! options")
        target = dialog.query_one("#option-target", Input)
        target.value = "5"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, CatchyTable), "the new table")
        assert app.embedded is not None
        (runner,) = app.embedded.host.runners.values()
        assert runner.table.options["target"] == 5
        seats = runner.table.seats
        assert [seat.name for seat in seats].count("Ann") == 1
        assert sum(seat.bot is not None for seat in seats) == 1  # the dialog's default: one bot
        table = app.screen
        assert isinstance(table, CatchyTable)
        await until(pilot, lambda: table.view is not None and "hand" in table.view, "the game")
        await pilot.press("q")  # the game is on: q asks
        await drawn_screen(pilot, LeaveDialog)
        await pilot.press("l")  # leave for now
        await until(pilot, lambda: app.screen is lobby, "the lobby again")
        await until(pilot, lambda: any(h.origin == "yours" for h in lobby.hosts), "our host")


def where_line(dialog: CreateDialog) -> str:
    """The create dialog's first line as read: "New table at" and the host chosen."""
    label = dialog.query_one("#where-line Label", Label).render()
    return f"{label}{dialog.query_one('#where SelectCurrent #label', Static).render()}"


async def test_a_table_is_created_at_the_lan_host_highlighted(tmp_path: Path) -> None:
    """Issue 36's LAN walk-through: ``c`` made every terminal player's table on their own
    computer, where the LAN host's SSH and browser players (who see only that host) could
    never join it. With a LAN host highlighted, the dialog offers it first."""
    source = FakeDiscovery()
    host = await started_host()
    try:
        app = lobby_app(tmp_path, source)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = await listed(pilot, app, source, host, tables=0)
            dialog = await create_dialog(pilot, app)
            where = dialog.query_one("#where", Select)
            assert where.value == lobby.hosts[0].key
            at_bea = f"New table at Bea's laptop (127.0.0.1:{host.port})"
            await until(pilot, lambda: where_line(dialog) == at_bea, "Bea's laptop first")
            dialog.query_one("#game", Select).value = "catchy"
            await until(pilot, lambda: bool(dialog.query("#option-target")), "the options")
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, CatchyTable), "the new table")
            assert app.embedded is None  # nothing hosted on this computer
            (runner,) = host.runners.values()
            assert runner.table.created_by == "Ann"
            assert [seat.name for seat in runner.table.seats].count("Ann") == 1
    finally:
        await host.close()


async def test_this_computer_can_still_be_chosen_with_a_lan_host_highlighted(
    tmp_path: Path,
) -> None:
    source = FakeDiscovery()
    host = await started_host()
    try:
        app = lobby_app(tmp_path, source)
        async with app.run_test(size=(80, 24)) as pilot:
            await listed(pilot, app, source, host, tables=0)
            dialog = await create_dialog(pilot, app)
            at_bea = f"New table at Bea's laptop (127.0.0.1:{host.port})"
            await until(pilot, lambda: where_line(dialog) == at_bea, "Bea's laptop first")
            where = dialog.query_one("#where", Select)
            await until(pilot, lambda: dialog.focused is where, "the list first, for the keys")
            await pilot.press("enter", "down", "enter")  # the list opens; this computer
            await until(
                pilot, lambda: where_line(dialog) == "New table at this computer", "the choice"
            )
            dialog.query_one("#game", Select).value = "catchy"
            await until(pilot, lambda: bool(dialog.query("#option-target")), "the options")
            await until(  # kept by the new game's dialog, once its lists are mounted
                pilot, lambda: dialog.query_one("#where", Select).value == "here", "the choice"
            )
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, CatchyTable), "the new table")
            assert not host.runners
            assert app.embedded is not None
            (runner,) = app.embedded.host.runners.values()
            assert runner.table.created_by == "Ann"
    finally:
        await host.close()


async def test_with_no_other_host_the_create_dialog_offers_only_this_computer(
    tmp_path: Path,
) -> None:
    app = lobby_app(tmp_path, FakeDiscovery())
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await create_dialog(pilot, app)
        assert not dialog.query("#where")
        head = str(dialog.query_one("#head").render())
        assert head == "New table on this computer (others on the LAN can join)"


async def test_create_a_black_cat_table_with_a_variant_ticked(tmp_path: Path) -> None:
    app = lobby_app(tmp_path, None)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await create_dialog(pilot, app)
        dialog.query_one("#game", Select).value = "blackcat"
        await until(pilot, lambda: bool(dialog.query("#option-lucky_tom")), "the Black Cat options")
        lucky = dialog.query_one("#option-lucky_tom", Checkbox)
        assert lucky.value is False and "Lucky Tom" in str(lucky.label)
        lucky.value = True
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, BlackCatTable), "the new table")
        assert app.embedded is not None
        (runner,) = app.embedded.host.runners.values()
        assert runner.table.game.name == "blackcat"
        assert runner.table.options["lucky_tom"] is True
        assert runner.table.options["music_of_the_night"] is False


async def test_create_a_table_with_hard_bots(tmp_path: Path) -> None:
    """The dialog's level reaches the bot seats (and so the ratings, bot:catchy:hard)."""
    app = lobby_app(tmp_path, None)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await create_dialog(pilot, app)
        dialog.query_one("#game", Select).value = "catchy"
        await until(pilot, lambda: bool(dialog.query("#option-target")), "the Catchy! options")
        await pilot.pause()  # the recomposed selects finish mounting before one is changed
        level = dialog.query_one("#bot-level", Select)
        assert level.value == "normal"  # the default
        level.value = "hard"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, CatchyTable), "the new table")
        assert app.embedded is not None
        (runner,) = app.embedded.host.runners.values()
        bots = [seat for seat in runner.table.seats if seat.bot is not None]
        assert [(seat.bot, seat.level) for seat in bots] == [("hard", "hard")]


async def test_join_by_address_and_a_bad_address_is_explained(tmp_path: Path) -> None:
    host = await started_host()
    host.create_table("catchy", {}, seats=2)
    try:
        app = lobby_app(tmp_path, None)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = lobby_of(app)
            await until(pilot, lambda: app.screen is lobby, "the lobby")
            await pilot.press("a")
            await pilot.press(*"127.0.0.1:x", "enter")
            assert "port must be a number" in str(app.screen.query_one("#problem").render())
            app.screen.query_one("#address", Input).value = f"127.0.0.1:{host.port}"
            await pilot.press("enter")
            await until(pilot, lambda: lobby.hosts, "the typed host")
            await until(
                pilot, lambda: lobby.hosts and lobby.tables.get(lobby.hosts[0].key), "its tables"
            )
    finally:
        await host.close()


async def test_the_lobby_screen_sends_join_and_watch_for_the_highlighted_table() -> None:
    app = LobbyHarness()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("tab", "down", "enter")
        await pilot.press("w")
        assert app.intents == [
            ("join", "yours", "t2", "player"),
            ("join", "yours", "t2", "spectator"),
        ]


async def test_only_this_host_creates_tables_there_and_reaches_no_other(tmp_path: Path) -> None:
    host = await started_host()
    try:
        app = ClowderApp(
            name="Ann",
            config_dir=tmp_path,
            join=("127.0.0.1", host.port),
            discovery=None,
            advertise=False,
            only_host=True,
        )
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = lobby_of(app)
            await until(pilot, lambda: app.screen is lobby, "the lobby")
            dialog = await create_dialog(pilot, app)
            dialog.query_one("#game", Select).value = "catchy"
            await until(pilot, lambda: bool(dialog.query("#option-target")), "the options")
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, CatchyTable), "the new table")
            assert app.embedded is None  # no host of its own: the table is on the joined host
            (runner,) = host.runners.values()
            assert [seat.name for seat in runner.table.seats].count("Ann") == 1
            app.post_message(LobbyScreen.AddHost("127.0.0.1", 1))
            await pilot.pause(0.05)
            assert not any(entry.port == 1 for entry in lobby.hosts)
    finally:
        await host.close()


async def test_the_focused_pane_shows_without_colour() -> None:
    app = LobbyHarness()
    async with app.run_test(size=(80, 24)) as pilot:

        def reversed_titles() -> list[bool]:
            return [bool(title.rich_style.reverse) for title in app.lobby.query(".pane-title")]

        assert reversed_titles() == [True, False]  # hosts, tables
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is app.lobby.query_one("#tables")
        assert reversed_titles() == [False, True]


def test_the_players_column_counts_names_that_do_not_fit_never_cutting_one() -> None:
    from tui.screens.lobby import PLAYERS_WIDTH, seats_text

    away = {"name": "Ann", "human": True, "connected": False}
    seats = [away, {"name": "Bea", "human": True, "connected": True}]
    assert seats_text(seats) == "Ann (away), Bea"
    assert seats_text(seats, PLAYERS_WIDTH) == "Ann (away) +1"
    many = [
        {"name": name, "human": True, "connected": True} for name in ("Ann", "Bea", "Cy", "Dee")
    ]
    assert seats_text(many, PLAYERS_WIDTH) == "Ann, Bea +2"
    assert seats_text([{"name": "Bartholomew Bigglesworth"}], 14) == "Bartholomew B…"


async def test_the_name_dialog_says_its_keys() -> None:
    from textual.app import App
    from textual.widgets import Static

    from tui.screens.dialogs import NameDialog

    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(NameDialog())
        await pilot.pause()
        keys = str(app.screen.query_one("#keys", Static).render())
        assert "enter" in keys and "esc" in keys


async def test_a_host_joined_on_loopback_is_shown_by_the_address_others_reach(
    tmp_path: Path,
) -> None:
    """An SSH gateway's player (``clowder join 127.0.0.1:P --shown-as 198.18.0.1``) is told
    the host's LAN address, for friends, not the loopback the client uses."""
    host = await started_host()
    host.create_table("catchy", {}, seats=2, bots=0)
    try:
        app = ClowderApp(
            name="Ann",
            config_dir=tmp_path,
            join=("127.0.0.1", host.port),
            shown_as=f"198.18.0.1:{host.port}",
            discovery=None,
            advertise=False,
        )
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = lobby_of(app)
            await until(pilot, lambda: lobby.tables, "the tables")
            title = str(lobby.query_one("#tables-title").render())
            await until(pilot, lambda: lobby.hosts[0].name == "Bea", "the host's own name")
            title = str(lobby.query_one("#tables-title").render())
            assert title == f"Tables on Bea (198.18.0.1:{host.port})"
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, CatchyTable), "the table")
            table = app.screen
            assert isinstance(table, CatchyTable)
            await until(pilot, lambda: table.waiting is not None, "the waiting room")
            waiting = str(table.query_one("#waiting").render())
            assert f"clowder join 198.18.0.1:{host.port}" in waiting
    finally:
        await host.close()


async def test_a_table_an_ssh_player_creates_is_shown_by_the_address_others_reach(
    tmp_path: Path,
) -> None:
    """On lan-sim an SSH player's own new table said 'clowder join 127.0.0.1:7707'."""
    host = await started_host()
    try:
        app = ClowderApp(
            name="Ann",
            config_dir=tmp_path,
            join=("127.0.0.1", host.port),
            shown_as=f"198.18.0.1:{host.port}",
            only_host=True,
            discovery=None,
            advertise=False,
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await app._create_on(("127.0.0.1", host.port), NewTable("catchy"))
            await until(pilot, lambda: isinstance(app.screen, CatchyTable), "the table")
            table = app.screen
            assert isinstance(table, CatchyTable)

            def waiting() -> str:
                return str(table.query_one("#waiting").render())

            await until(pilot, lambda: "clowder join" in waiting(), "the waiting room")
            assert f"clowder join 198.18.0.1:{host.port}" in waiting()
    finally:
        await host.close()


def test_clowder_join_refuses_a_bad_shown_as(capsys: Any) -> None:
    from tui.cli import main

    assert main(["join", "127.0.0.1", "--shown-as", "[::1"]) == 2
    assert "--shown-as" in capsys.readouterr().err


@pytest.mark.parametrize("game", registry.names())
async def test_the_create_dialog_shows_its_buttons_and_scrolls_its_options_at_80x24(
    game: str,
) -> None:
    """Kiitos's many options hid Create, Cancel and the mute box below the dialog's edge."""
    from textual.app import App
    from textual.widgets import Button

    class Styled(App[None]):
        CSS_PATH = ClowderApp.CSS_PATH

        def on_mount(self) -> None:
            self.push_screen(CreateDialog(game))

    app = Styled()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        for button in screen.query(Button):
            assert button.region.height == 3 and button.region.bottom <= 24, button.id
        mute = screen.query_one("#mute-spectators", Checkbox)
        for _ in range(30):  # tab through the options, as a player would
            if app.focused is mute:
                break
            await pilot.press("tab")
        await pilot.pause(0.3)  # the scroll to the focused box may be animated
        options = screen.query_one("#options").region
        assert options.contains_region(mute.region)  # scrolled into view


async def test_the_status_line_counts_the_hosts_found_and_keeps_a_message_said_since(
    tmp_path: Path,
) -> None:
    """It said "Looking for hosts on the LAN..." beside a host already listed (last LAN
    walk-through): it counts what was found, and stops replacing its line once something
    else was said there (an error stays until the next one)."""
    source = FakeDiscovery()
    host = await started_host()
    try:
        app = lobby_app(tmp_path, source)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = lobby_of(app)
            await until(pilot, lambda: app.screen is lobby, "the lobby")

            def status() -> str:
                return str(lobby.query_one("#lobby-status", Static).render())

            await until(pilot, lambda: "Looking for hosts" in status(), "the looking line")
            source.announce(host, "Bea's laptop")
            await until(pilot, lambda: len(lobby.hosts) == 1, "the host to appear")
            assert status() == "1 host found on the LAN, still looking (a: join by address)"
            source.announce(host, "Cy's box")
            await until(pilot, lambda: len(lobby.hosts) == 2, "the second host")
            assert status().startswith("2 hosts found on the LAN")
            lobby.status("Nothing is listening at 10.0.0.9:7707")
            source.announce(host, "Cy's box", ChangeKind.REMOVED)
            await until(pilot, lambda: len(lobby.hosts) == 1, "the second host to go")
            assert status() == "Nothing is listening at 10.0.0.9:7707"
    finally:
        await host.close()


def every_game_s_table(index: int, game: str) -> dict[str, Any]:
    """A table of ``game`` at which three sit, one of them a bot."""
    names = ["Ann", "Bot Tom", "Bea"]
    return {
        "id": f"t{index}",
        "game": game,
        "title": registry.get(game).title,
        "options": {},
        "seats": [
            {
                "name": name,
                "bot": name.startswith("Bot"),
                "human": not name.startswith("Bot"),
                "connected": True,
                "covered": False,
            }
            for name in names
        ],
        "free": 0,
        "status": "playing",
        "spectators": 0,
    }


@pytest.mark.parametrize(("width", "height"), [(48, 40), (80, 24), (142, 40)])
async def test_every_game_s_name_is_read_whole_in_the_tables_list(width: int, height: int) -> None:
    """Issue 36, item 6: the game column showed "You Gotta" (You Gotta Be Kitten Me!) even at
    142 columns, and the players "Bot … +1". Each game's title shows whole where there is
    room (142 columns), else its short name ("Kitten Me!"); the players column takes the
    rest of the width."""
    from tests.tui.harness import flat

    games = registry.names()
    tables = [every_game_s_table(index, game) for index, game in enumerate(games, 1)]
    app = LobbyHarness()
    async with app.run_test(size=(width, height)) as pilot:
        app.lobby.set_tables("yours", tables)
        await pilot.pause()
        widget = app.lobby.query_one("#tables", DataTable)
        update = app.screen._compositor.render_full_update()
        rows = ["".join(strip.text for strip in row) for row in update.strips]
        region = widget.content_region
        shown = [row[region.x : region.right] for row in rows[region.y : region.bottom]]
        for table in tables:
            line = flat(next(row for row in shown if f" {table['id']} " in f" {row}"))
            game = registry.get(str(table["game"]))
            if width >= 80:
                assert "Ann, Bot Tom, Bea" in line, line
            if width >= 142:
                assert game.title in line, line
            else:
                assert game.title in line or game.short_title in line, line
            assert "…" not in line, line

"""``clowder room``: the room screen's app, and the one connection behind it.

The room screen (:mod:`tui.screens.room`) is read-only, so this app is small: it
connects to one host, asks for its tables (``list_tables``), then takes them as the
host sends them when they change (it sends a connection at no table its tables, at most
every 1.5 s), asks for tonight's standings (``get_scores``) when the tables changed (a
game that ends changes its table's status) and at least every :data:`TONIGHT_EVERY_S`,
and hands the screen what changed. The screen redraws only what changed, so an evening
where nothing happens draws nothing, and asks for nothing but the standings now and then.

A host that has never sent the tables unasked (an older Clowder's) is asked for them
every :data:`POLL_S`: twice a second keeps a game's end on the wall within a second.

It never joins a table, not even as a spectator: a spectator would make the host's
bots play tables nobody is at, and would receive game views. What it asks for is
what the host gives anyone, and all of it is cleaned before it is drawn.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from net.wire.text import clean_text
from tui.screens.room import Doors, RoomScreen, viewer_address
from tui.styles import TCSS_DIR

if TYPE_CHECKING:
    from textual.driver import Driver

POLL_S = 0.5
"""How often the tables are asked for: a game's end shows within a second."""
TONIGHT_EVERY_S = 10.0
"""Tonight's standings are asked for when the tables changed, and at least this often."""
RETRY_S = 2.0
"""Pause between tries to reach a host that does not answer (a TV waits for its host)."""
ROOM_NAME = "room"
"""The name this connection says hello with (it takes no seat: nobody sees it)."""


def flat_clean(value: Any) -> Any:
    """``value`` with every text in it cleaned to one drawable line (``clean_text``): the
    room draws each name, title and phase on a line of its own."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {flat_clean(key): flat_clean(member) for key, member in value.items()}
    if isinstance(value, list | tuple):
        return [flat_clean(member) for member in value]
    return value


class RoomApp(App[int]):
    """The room screen of the host at ``address``; ``shown_as``: the host's address as
    people in the room reach it, where that is not ``address`` (the web door passes the
    address the browser reached)."""

    CSS_PATH: ClassVar[list[Any]] = [TCSS_DIR / "room.tcss"]
    ENABLE_COMMAND_PALETTE = False
    TITLE = "Clowder room"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+c", "quit", "quit", show=False)]

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver, with an input thread that sleeps while nothing is typed
        (:mod:`tui.drivers`): the room's screen stays up all evening."""
        from tui.drivers import quiet_driver

        return quiet_driver(super().get_driver_class())

    def __init__(
        self,
        address: tuple[str, int],
        *,
        shown_as: tuple[str, int] | None = None,
        poll_s: float = POLL_S,
        tonight_every_s: float = TONIGHT_EVERY_S,
    ) -> None:
        super().__init__()
        self.address = address
        self.shown_as = shown_as
        self.poll_s = poll_s
        self.tonight_every_s = tonight_every_s
        self.room = RoomScreen(self._where(address))
        self.tables: list[dict[str, Any]] | None = None
        self.tonight: dict[str, Any] | None = None
        self.polls = 0
        """Listings asked for so far (tests wait on it, never on time)."""
        self.draws = 0
        """Times the host's news changed the screen (tests check that nothing redraws)."""

    @staticmethod
    def _where(address: tuple[str, int]) -> str:
        from tui.commands.address import address_text

        return address_text(*address)

    def on_mount(self) -> None:
        self.push_screen(self.room)
        self.run_worker(self._watch(), exclusive=True, group="room")

    def doors(self, ssh: int | None, web: int | None) -> Doors:
        """The ways in, at the address people in the room can use (see
        :func:`tui.screens.room.viewer_address`)."""
        host, port = self.shown_as or self.address
        return Doors(viewer_address(host), port, ssh, web)

    async def _watch(self) -> None:
        """Connect (again and again until the host answers), then poll until the app ends."""
        from net.client.client import Client, ClientError

        client = Client(*self.address, ROOM_NAME)
        try:
            while True:
                try:
                    welcome = await client.connect()
                    break
                except ClientError as error:
                    self.room.set_link(f"{clean_text(error.message)}; trying again")
                    await asyncio.sleep(RETRY_S)
            self.room.connected(clean_text(welcome.host_name), self.doors(welcome.ssh, welcome.web))
            await self._poll(client)
        finally:
            await client.close()

    async def _poll(self, client: Any) -> None:
        from net.client.client import ClientError

        loop = asyncio.get_running_loop()
        asked_at = -self.tonight_every_s
        sent: list[dict[str, Any]] | None = None
        pushing = False
        while True:
            try:
                tables = sent if sent is not None else flat_clean(await client.list_tables())
                self.polls += 1
                changed = tables != self.tables
                if changed or loop.time() - asked_at >= self.tonight_every_s:
                    tonight = await client.get_tonight()
                    asked_at = loop.time()
                    self._news(tables, None if tonight is None else flat_clean(tonight))
                self.room.set_link("")
            except ClientError as error:
                self.room.set_link(f"{clean_text(error.message)}; reconnecting...")
                pushing = False
            wait = asked_at + self.tonight_every_s - loop.time() if pushing else self.poll_s
            sent, pushing = await self._sent_tables(client, max(wait, self.poll_s), pushing)

    async def _sent_tables(
        self, client: Any, wait_s: float, pushing: bool
    ) -> tuple[list[dict[str, Any]] | None, bool]:
        """The tables the host sends unasked within ``wait_s`` (``None``: none came; look
        again), and whether the host sends them (a dropped link: not until it does again).
        Everything else that comes is let go: nothing may pile up in the client's queue."""
        from net.client.client import ConnectionState
        from net.wire.messages import Tables

        async for message in client.arrivals(wait_s):
            if isinstance(message, Tables) and message.ref is None:
                return flat_clean(message.tables), True
            if isinstance(message, ConnectionState) and not message.connected:
                return None, False
        return None, pushing

    def _news(self, tables: list[dict[str, Any]], tonight: dict[str, Any] | None) -> None:
        """The host's tables and standings: the screen is told only when they changed."""
        if tables == self.tables and tonight == self.tonight:
            return
        self.tables, self.tonight = tables, tonight
        self.draws += 1
        self.room.show(tables, tonight)

"""The host a player's own Clowder runs for the tables they open (in the same event loop).

``clowder play`` and the lobby's "create" start a :class:`net.doors.host.Host`
here, so friends can join this player's table while they play on it. When
the table is meant for others too it listens on every interface and is
advertised on the LAN (:class:`net.client.discovery.Advertiser`); a solo game
against bots listens on loopback only and is not advertised.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque

from engine import registry
from net.client.discovery import Advertiser, DiscoveryError
from net.core.table import BOT_DELAY_S, START_COUNTDOWN_S
from net.doors.advertise import advertised_tables
from net.doors.host import DEFAULT_PORT, Host
from net.wire.messages import PROTOCOL_VERSION

LOOPBACK = "127.0.0.1"
EVERYWHERE = "0.0.0.0"
LOG_LINES = 200


class EmbeddedHost:
    """A :class:`Host` (and maybe its LAN advertisement) owned by this UI."""

    def __init__(
        self,
        *,
        name: str,
        bind: str = LOOPBACK,
        port: int | None = None,
        advertise: bool = False,
        bot_delay_s: float = BOT_DELAY_S,
        bot_reaction_scale: float = 1.0,
        allow_fixed_deck: bool = False,
        start_countdown_s: float = START_COUNTDOWN_S,
    ) -> None:
        self.bind = bind
        self.advertise = advertise
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        """The host's log lines (it must never print over the UI)."""
        self.note = ""
        """Why the LAN advertisement is not running, when it is not."""
        self._wanted_port = port
        self.host = Host(
            name=name,
            bind=bind,
            port=port or 0,
            bot_delay_s=bot_delay_s,
            bot_reaction_scale=bot_reaction_scale,
            start_countdown_s=start_countdown_s,
            log=self.log.append,
            allow_fixed_deck=allow_fixed_deck,
        )
        self.advertiser: Advertiser | None = None
        self._advertising: asyncio.Task[None] | None = None

    @property
    def port(self) -> int:
        return self.host.port

    @property
    def endpoint(self) -> tuple[str, int]:
        """Where this process connects to its own host."""
        return (LOOPBACK, self.host.port)

    @property
    def address(self) -> str:
        """What others type to join (``clowder join ...``)."""
        shown = LOOPBACK if self.bind == LOOPBACK else self._lan_address()
        return f"{shown}:{self.host.port}"

    def _lan_address(self) -> str:
        if self.advertiser is not None and self.advertiser.addresses:
            return self.advertiser.addresses[0]
        return self.bind if self.bind != EVERYWHERE else "this-machine"

    async def start(self) -> None:
        """Listen (on the wanted port, else the default, else any free one); advertise if asked."""
        ports = [self._wanted_port] if self._wanted_port is not None else [DEFAULT_PORT, 0]
        if self.bind == LOOPBACK and self._wanted_port is None:
            ports = [0]
        for attempt, port in enumerate(ports):
            self.host.port = port
            try:
                await self.host.start()
                break
            except OSError:
                if attempt == len(ports) - 1:
                    raise
        if self.advertise:
            self.advertiser = Advertiser(
                port=self.host.port,
                protocol_version=PROTOCOL_VERSION,
                name=self.host.name,
                bind=self.bind,
                games=registry.names(),
                tables=advertised_tables(self.host),
            )
            self.host.on_tables_changed = self._tables_changed
            self._advertising = asyncio.get_running_loop().create_task(self._advertise())

    async def _advertise(self) -> None:
        assert self.advertiser is not None
        try:
            await self.advertiser.start()
        except (DiscoveryError, OSError) as error:
            self.note = str(error)
            self.advertiser = None
            return
        self._tables_changed()

    def _tables_changed(self) -> None:
        if self.advertiser is not None and self.advertiser.running:
            self.advertiser.update(tables=advertised_tables(self.host))

    async def close(self) -> None:
        """Say goodbye on the LAN, then stop the host."""
        if self._advertising is not None and not self._advertising.done():
            self._advertising.cancel()
            await asyncio.wait([self._advertising])  # a cancel of close() still ends close()
        if self.advertiser is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2.0):
                    await self.advertiser.stop()
        await self.host.close()

"""The authoritative host on asyncio: sockets and the real clock around :mod:`net.core.host`.

Everything the host decides (the lobby, tables, seats, timers, the
arbiter, the journal's records) is in :class:`~net.core.host.HostCore`, a
plain object driven by explicit time. This module is only its asyncio
adapter: it listens, feeds the core each connection's bytes with the time
they were read (``time.monotonic_ns()``), writes what the core says to
write, closes what it says to close, and wakes the core at the deadline it
names. Tables' journals live in a state folder (:class:`net.store.journal.StateDir`),
so a host killed at any moment and started again on the same folder resumes
every table exactly; players reconnect with their tokens.

The same class runs headless (``clowder host``) and embedded in a player's
TUI (``clowder play``): only the ``log`` callback and the bind address differ.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from net.core.again import AGAIN_FOR_S
from net.core.host import (
    ABANDON_AFTER_S,
    PRESENCE_INTERVAL_S,
    RESULTS_FOR_S,
    Close,
    Doors,
    HostCore,
    Send,
    protocol_code,
)
from net.core.limits import HostLimits
from net.core.session import Session
from net.core.table import BOT_DELAY_S, START_COUNTDOWN_S, TableRunner
from net.doors import DEFAULT_PORT
from net.doors.guard import SharedBudget
from net.store.journal import StateDir
from net.store.night import Night
from net.store.scoreboard import Scoreboard

__all__ = [
    "ABANDON_AFTER_S",
    "DEFAULT_PORT",
    "PRESENCE_INTERVAL_S",
    "RESULTS_FOR_S",
    "Host",
    "protocol_code",
]

GC_FREEZE_S = 10.0
"""With ``freeze_gc``: how often the objects alive then are moved out of the cycle
collector's way (:func:`gc.freeze`). Without it, a full collection walks every table's
state and every connection: 100-250 ms with 250 tables, a stall in everyone's round trip.
The cost: cyclic garbage that was already old at a freeze is not reclaimed (plain garbage,
freed by reference counting, always is); the host's own objects seldom form cycles."""

CLOSE_CONNECTIONS_S = 2.0
"""How long :meth:`Host.close` waits for the connections it closed to end."""

MAX_WRITE_BUFFER = 4 * 1024 * 1024
"""A peer that lets this much pile up unread is dropped: one slow client cannot grow the host."""


class Host:
    """A Clowder host: :class:`HostCore` behind one listening socket."""

    def __init__(
        self,
        *,
        name: str | None = None,
        bind: str = "0.0.0.0",
        port: int = DEFAULT_PORT,
        state_dir: Path | None = None,
        bot_delay_s: float = BOT_DELAY_S,
        bot_reaction_scale: float = 1.0,
        bot_level: str | None = None,
        log: Callable[[str], None] = print,
        limits: HostLimits | None = None,
        allow_fixed_deck: bool = False,
        freeze_gc: bool = False,
        results_for_s: float = RESULTS_FOR_S,
        abandon_after_s: float = ABANDON_AFTER_S,
        run_unattended: bool = False,
        start_countdown_s: float = START_COUNTDOWN_S,
        again_for_s: float = AGAIN_FOR_S,
        again_bots: bool = False,
        new_night: bool = False,
    ) -> None:
        self.limits = limits if limits is not None else HostLimits()
        self.bind = bind
        self.port = port
        self.freeze_gc = freeze_gc
        """Freeze long-lived objects every :data:`GC_FREEZE_S` (a headless host's process is
        its own; a TUI embedding the host leaves the collector alone)."""
        self.log = log
        self.state = (
            StateDir(state_dir, max_open=self.limits.max_open_journals)
            if state_dir is not None
            else None
        )
        self.budget = SharedBudget(self.limits.connection_budget())
        """The one budget of connections (descriptors) of the game port and every door: the
        SSH and web gateways take theirs from it (``clowder host`` hands it to them), and the
        core is told what is left for the game port."""
        self.core = HostCore(
            name=name or socket.gethostname(),
            store=self.state,
            scores=Scoreboard(state_dir) if state_dir is not None else None,
            limits=self.limits,
            connection_budget=self.budget.total,
            bot_delay_s=bot_delay_s,
            bot_reaction_scale=bot_reaction_scale,
            bot_level=bot_level,
            log=log,
            allow_fixed_deck=allow_fixed_deck,
            results_for_s=results_for_s,
            abandon_after_s=abandon_after_s,
            run_unattended=run_unattended,
            start_countdown_s=start_countdown_s,
            again_for_s=again_for_s,
            again_bots=again_bots,
            night=Night.open(state_dir, time.time(), new_night=new_night),
            wall_s=time.time(),
            now_ns=time.monotonic_ns(),
        )
        self.core.on_wake = self._wake_soon
        self.budget.game = lambda: len(self.core.connections)
        self.budget.on_change = self._doors_changed
        self._links: dict[int, _Link] = {}
        """Each open connection's link, by the core's connection number (:meth:`close` waits
        for them to end)."""
        self._closing = False
        self._server: asyncio.Server | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_due: int | None = None
        self._pump_soon: asyncio.Handle | None = None
        self._driving = False
        """Set while this adapter calls the core (it pumps right after): no extra wake-up."""
        self._gc_task: asyncio.Task[None] | None = None

    # What the rest of the program reads -------------------------------------------

    @property
    def name(self) -> str:
        return self.core.name

    @property
    def doors(self) -> Doors:
        """The host's other ways in (SSH, web), said in ``welcome``."""
        return self.core.doors

    @doors.setter
    def doors(self, doors: Doors) -> None:
        self.core.doors = doors

    @property
    def runners(self) -> dict[str, TableRunner]:
        """The tables by id (each a :class:`~net.core.table.TableRunner`)."""
        return self.core.tables

    @property
    def connections(self) -> list[Session]:
        return list(self.core.connections.values())

    @property
    def scores(self) -> Scoreboard | None:
        return self.core.scores

    @property
    def connection_budget(self) -> int:
        """Connections at once, by every door together (:attr:`budget`)."""
        return self.budget.total

    def _doors_changed(self, game_budget: int) -> None:
        """The doors took or gave back descriptors: the game port's share follows, so a game
        connection over what the doors left is refused (``host_full``) like any other."""
        self.core.connection_budget = game_budget

    @property
    def on_tables_changed(self) -> Callable[[], None] | None:
        return self.core.on_tables_changed

    @on_tables_changed.setter
    def on_tables_changed(self, callback: Callable[[], None] | None) -> None:
        self.core.on_tables_changed = callback

    def table_summaries(self) -> list[dict[str, Any]]:
        return self.core.table_summaries()

    def open_tables(self) -> int:
        return self.core.open_tables()

    def create_table(
        self,
        game: str,
        options: dict[str, Any] | None = None,
        *,
        seats: int | None = None,
        bots: int = 0,
        bot_level: str | None = None,
        created_by: str | None = None,
    ) -> TableRunner:
        """Create a table (``clowder host --table``, the TUI's own tables)."""
        self._driving = True
        try:
            return self.core.create_table(
                game,
                options,
                seats=seats,
                bots=bots,
                bot_level=bot_level,
                created_by=created_by,
                now_ns=time.monotonic_ns(),
            )
        finally:
            self._pump()

    def close_table(self, table_id: str, reason: str) -> None:
        self._driving = True
        self.core.close_table(table_id, reason)
        self._pump()

    def catch_up(self) -> None:
        """Bring the core's clock to now. The core learns the time only when it is called;
        code that reads a table's clock between calls (tests) catches it up first."""
        self.core.timers.set_now(time.monotonic_ns())

    def _sweep(self, now: float) -> None:
        """Close the tables whose time is up at loop time ``now`` (tests move time on)."""
        self._driving = True
        self.core._sweep(now)
        self._pump()

    # Life cycle ----------------------------------------------------------------------

    async def start(self) -> None:
        """Resume the tables on disk, then listen."""
        self._driving = True
        self.core.resume(time.monotonic_ns())
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            lambda: _Link(self), self.bind, self.port, reuse_address=True
        )
        self.port = self._server.sockets[0].getsockname()[1]
        if self.freeze_gc:
            self._gc_task = asyncio.get_running_loop().create_task(self._freeze_gc())
        tables = self.core.tables
        resumed = f", {len(tables)} table(s) resumed" if tables else ""
        self.log(f"Host {self.name!r} listening on {self.bind}:{self.port}{resumed}")
        self._pump()

    async def close(self, notice: str = "The host is shutting down") -> None:
        """Stop listening, tell every client (``notice``: the text a player reads), and close
        the journals."""
        self._closing = True
        if self._gc_task is not None:
            self._gc_task.cancel()
        if self._server is not None:
            self._server.close()
        self._driving = True
        self.core.shutdown(time.monotonic_ns(), notice)
        self._pump()
        for cancel in (self._timer, self._pump_soon):
            if cancel is not None:
                cancel.cancel()
        if self._links:
            # The core closed every connection; each ends once its last bytes are written.
            # Waited for here, so that none is still open when the caller's loop stops.
            ending = [link.ended for link in self._links.values()]
            _done, stuck = await asyncio.wait(ending, timeout=CLOSE_CONNECTIONS_S)
            if stuck:
                for link in list(self._links.values()):
                    link.abort()
                await asyncio.wait(stuck)
        if self._server is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2.0):
                    await self._server.wait_closed()
        self.log("Host stopped")

    async def _freeze_gc(self) -> None:
        while True:
            await asyncio.sleep(GC_FREEZE_S)
            gc.freeze()

    # Driving the core ------------------------------------------------------------------

    def _pump(self) -> None:
        """Carry out what the core asks (writes, closes), then arm its next wake-up."""
        self._driving = False
        core = self.core
        while True:
            effects = core.outputs()
            if not effects:
                break
            for effect in effects:
                link = self._links.get(effect.conn)
                if link is None:
                    continue
                transport = link.transport
                if isinstance(effect, Send):
                    if transport.is_closing():
                        continue
                    transport.write(effect.data)
                    if transport.get_write_buffer_size() > MAX_WRITE_BUFFER:
                        session = core.connections.get(effect.conn)
                        who = session.name if session is not None else "?"
                        self.log(f"{who} (connection {effect.conn}) is not reading; dropping it")
                        transport.abort()
                        core.connection_lost(effect.conn, time.monotonic_ns())
                elif isinstance(effect, Close):
                    transport.close()
        self._arm()

    def _arm(self) -> None:
        due = self.core.next_deadline_ns()
        if due == self._timer_due and self._timer is not None:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_due = due
        if due is not None:
            # The loop's clock is time.monotonic(), the core's time.monotonic_ns().
            self._timer = asyncio.get_running_loop().call_at(due / 1e9, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = self._timer_due = None
        self._driving = True
        self.core.advance(time.monotonic_ns())
        self._pump()

    def _wake_soon(self) -> None:
        """The core queued work outside a call of ours (a test, the TUI): pump next turn."""
        if self._driving or self._pump_soon is not None:
            return
        with contextlib.suppress(RuntimeError):  # no running loop: the next call pumps
            self._pump_soon = asyncio.get_running_loop().call_soon(self._pumped_soon)

    def _pumped_soon(self) -> None:
        self._pump_soon = None
        self._pump()

    # Connections -----------------------------------------------------------------------

    def _opened(self, link: _Link) -> None:
        """A connection was accepted: the core opens it (or it is closed, if the host is)."""
        if self._closing:
            link.transport.close()  # accepted as the host was closing: nobody will serve it
            return
        peer = link.transport.get_extra_info("peername")
        address = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        ip = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        self._driving = True
        link.conn = self.core.open_connection(address, time.monotonic_ns(), ip=ip)
        self._links[link.conn] = link
        self._pump()

    def _received(self, link: _Link, data: bytes) -> None:
        """Bytes read: the core takes them now, with the time they came."""
        conn = link.conn
        if conn is None or conn not in self.core.connections:
            return  # closed by the core: what still comes is not read
        self._driving = True
        more = self.core.receive_data(conn, data, time.monotonic_ns())
        self._pump()
        if more:
            self._backlog(link)

    def _backlog(self, link: _Link) -> None:
        """A long backlog: reading stops, and the rest is taken a batch at a time behind
        every other connection's ready work (:meth:`_take_more`)."""
        link.transport.pause_reading()
        link.more = asyncio.get_running_loop().call_soon(self._take_more, link)

    def _take_more(self, link: _Link) -> None:
        link.more = None
        conn = link.conn
        if conn is None or link.transport.is_closing():
            return
        self._driving = True
        more = self.core.handle_more(conn, time.monotonic_ns())
        self._pump()
        if more:
            self._backlog(link)
        elif not link.transport.is_closing():
            link.transport.resume_reading()

    def _lost(self, link: _Link) -> None:
        """The connection ended (either end closed it, or it failed)."""
        conn, link.conn = link.conn, None
        if conn is None:
            return
        self._driving = True
        self.core.connection_lost(conn, time.monotonic_ns())
        self._pump()
        self._links.pop(conn, None)


class _Link(asyncio.Protocol):
    """One peer's TCP connection. Its bytes go to the core as they are read, in the event
    loop's own callback: no task per connection to wake and no stream buffer to copy
    through for each message (as :class:`net.client.client.Client` reads, for the same
    reason)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.conn: int | None = None
        """The core's number for this connection (``None``: not open, or ended)."""
        self._transport: asyncio.Transport | None = None
        self.more: asyncio.Handle | None = None
        """The next batch of a backlog, while one is waiting (:meth:`Host._take_more`)."""
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    @property
    def transport(self) -> asyncio.Transport:
        assert self._transport is not None, "used before the connection was made"
        return self._transport

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        self.host._opened(self)

    def data_received(self, data: bytes) -> None:
        self.host._received(self, data)

    def eof_received(self) -> bool:
        return False  # the peer closed its end: close ours too

    def connection_lost(self, exc: Exception | None) -> None:
        if self.more is not None:
            self.more.cancel()
            self.more = None
        self.host._lost(self)
        if not self.ended.done():
            self.ended.set_result(None)

    def abort(self) -> None:
        if self._transport is not None:
            self._transport.abort()

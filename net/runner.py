"""The live side of one table on the host: its clock, timers, bots and broadcasts.

:class:`net.tables.Table` is the bookkeeping (pure); a :class:`TableRunner`
puts it on the event loop. It keeps the table's clock, fires the engine's
timers when they are due, lets bots play their seats (after a short,
human-readable pause), covers dropped players after the grace period, and
after every change sends each attached peer *its own* view: players their
seat's, spectators the public one. Hidden cards never reach a peer because
the only things sent are ``game.view(state, seat)`` and the events visible to
that seat.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.bots import Bot, make_bot
from engine.core import Event, IllegalAction, visible_events
from net.messages import Message, Presence, View
from net.tables import Table, TableError

BOT_DELAY_S = 0.6
"""How long a bot waits before acting, so people can follow what it does."""

TAKEOVER_CHECK_S = 1.0


class Peer(Protocol):
    """A connection as the runner sees it."""

    name: str

    def send(self, message: Message) -> None: ...

    @property
    def rtt_ms(self) -> float | None: ...


@dataclass(eq=False)
class Attachment:
    """A peer at this table: its seat (``None``: spectator)."""

    peer: Peer
    seat: int | None


class TableRunner:
    """Runs one :class:`Table` on the asyncio loop."""

    def __init__(
        self,
        table: Table,
        *,
        clock_start: float = 0.0,
        bot_delay_s: float = BOT_DELAY_S,
        log: Callable[[str], None] = print,
        on_change: Callable[[TableRunner], None] | None = None,
    ) -> None:
        self.table = table
        self.bot_delay_s = bot_delay_s
        self.log = log
        self.on_change = on_change
        self.attached: list[Attachment] = []
        self._loop = asyncio.get_running_loop()
        # Table time continues from where the journal ended (time down is skipped).
        self._offset = clock_start - self._loop.time()
        self._bots: dict[int, Bot] = {}
        self._bot_handle: asyncio.TimerHandle | None = None
        self._tick_handle: asyncio.TimerHandle | None = None
        self._takeover_task = self._loop.create_task(self._watch_takeovers())
        self._announced_end = self.table.outcome is not None

    def now(self) -> float:
        """Table time in seconds (what the engine's ``now`` means for this table)."""
        return self._loop.time() + self._offset

    # Peers ---------------------------------------------------------------------

    def attach(self, peer: Peer, seat: int | None) -> None:
        self.detach(peer)
        self.attached.append(Attachment(peer, seat))
        if seat is None:
            self.table.spectators += 1
        else:
            self.table.connect(seat, self.now())
        self._send_view(self.attached[-1], [])
        self.broadcast_presence()
        self._schedule()

    def detach(self, peer: Peer) -> None:
        for attachment in [a for a in self.attached if a.peer is peer]:
            self.attached.remove(attachment)
            if attachment.seat is None:
                self.table.spectators -= 1
            elif not any(a.seat == attachment.seat for a in self.attached):
                self.table.disconnect(attachment.seat, self.now())
                self.log(f"[{self.table.id}] {peer.name} dropped (seat kept)")
            self.broadcast_presence()

    def seat_of(self, peer: Peer) -> int | None:
        return next((a.seat for a in self.attached if a.peer is peer), None)

    def is_attached(self, peer: Peer) -> bool:
        return any(a.peer is peer for a in self.attached)

    # Changes -------------------------------------------------------------------

    def start_if_full(self) -> None:
        if self.table.start_if_full():
            names = ", ".join(seat.name or "?" for seat in self.table.seats)
            self.log(f"[{self.table.id}] {self.table.game.title} starts: {names}")
            self.broadcast([])

    def act(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        """Apply a seat's action; raises :class:`IllegalAction` or :class:`TableError`."""
        events = self.table.act(seat, action, self.now())
        self.broadcast(events)
        return events

    def broadcast(self, events: list[Event]) -> None:
        """Send every attached peer its own view and the events it may see."""
        for attachment in self.attached:
            self._send_view(attachment, events)
        outcome = self.table.outcome
        if outcome is not None and not self._announced_end:
            self._announced_end = True
            names = " and ".join(self.table.seats[s].name or "?" for s in outcome.winners)
            self.log(f"[{self.table.id}] game over: {names} won, scores {list(outcome.scores)}")
        self._schedule()
        if self.on_change is not None:
            self.on_change(self)

    def broadcast_presence(self) -> None:
        seats = self.presence()
        for attachment in self.attached:
            attachment.peer.send(Presence(table=self.table.id, seats=seats))
        if self.on_change is not None:
            self.on_change(self)

    def presence(self) -> list[dict[str, Any]]:
        """Each seat's public info plus its player's round trip, for the connection line."""
        seats = [seat.public() for seat in self.table.seats]
        for attachment in self.attached:
            if attachment.seat is not None:
                rtt = attachment.peer.rtt_ms
                seats[attachment.seat]["rtt_ms"] = None if rtt is None else round(rtt, 1)
        return seats

    def _send_view(self, attachment: Attachment, events: list[Event]) -> None:
        view = self.table.view(attachment.seat)
        if view is None:
            view = {"phase": "waiting", "seats": self.presence(), "seat": attachment.seat}
        outcome = self.table.outcome
        attachment.peer.send(
            View(
                table=self.table.id,
                version=self.table.version,
                view=view,
                events=visible_events(events, attachment.seat),
                outcome=None if outcome is None else outcome.to_data(),
            )
        )

    # Timers and bots -----------------------------------------------------------

    def _schedule(self) -> None:
        """(Re)arm the engine timer and the bots' next move after any change."""
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None
        deadline = self.table.deadline()
        if deadline is not None:
            delay = max(0.0, deadline - self.now())
            self._tick_handle = self._loop.call_later(delay, self._fire_timers)
        if self._bot_handle is not None:
            self._bot_handle.cancel()
            self._bot_handle = None
        if self.table.started and self.table.outcome is None and self.table.bot_seats():
            self._bot_handle = self._loop.call_later(self.bot_delay_s, self._play_bots)

    def _fire_timers(self) -> None:
        self._tick_handle = None
        events = self.table.tick(self.now())
        self.broadcast(events)

    def _play_bots(self) -> None:
        """Let the first bot that wants to act do so; the broadcast re-arms the next."""
        self._bot_handle = None
        for seat in self.table.bot_seats():
            bot = self._bots.get(seat)
            if bot is None:
                name = self.table.seats[seat].bot or "random"
                bot = self._bots[seat] = make_bot(
                    self.table.game.name, name, self.table.seed + seat
                )
            view = self.table.view(seat)
            action = None if view is None else bot.choose(view)
            if action is None:
                continue
            try:
                self.act(seat, action)
            except (IllegalAction, TableError) as error:  # a bot bug must not stall the table
                self.log(f"[{self.table.id}] bot at seat {seat} was refused: {error}")
                continue
            return

    async def _watch_takeovers(self) -> None:
        while True:
            await asyncio.sleep(TAKEOVER_CHECK_S)
            for seat in self.table.takeover_due(self.now()):
                self.table.cover(seat)
                self._bots.pop(seat, None)
                self.log(f"[{self.table.id}] a bot plays for {self.table.seats[seat].name} for now")
                self.broadcast_presence()
                self._schedule()

    def close(self) -> None:
        for handle in (self._tick_handle, self._bot_handle):
            if handle is not None:
                handle.cancel()
        self._takeover_task.cancel()

"""One client connection as the host core sees it: no socket, only bytes in and out.

A :class:`Session` holds the connection's :class:`~net.wire.protocol.HostProtocol`
(framing, limits, handshake), who it is (name, player key), where it sits,
its clock estimate for the arbiter, and the pings in flight. It sends by
queueing bytes in its protocol object; the core hands them to whoever drives
it (:meth:`net.core.host.HostCore.outputs`). Its life cycle is one
:class:`SessionState`, never a set of flags.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING

from net.core.clock import PING_INTERVAL_NS, ClockEstimate
from net.core.limits import IDLE_UNANSWERED_PINGS, HostLimits
from net.core.realtime import rtt_only_sample
from net.wire.messages import Message, Ping, Pong
from net.wire.protocol import HostProtocol

if TYPE_CHECKING:
    from net.core.table import TableRunner

MAX_UNANSWERED_FAST = 3
"""After this many pings in a row without an answer, a connection is pinged at the steady
pace only (a client that never answers is not pinged five times a second forever)."""

LOBBY_PING_INTERVAL_NS = 5 * PING_INTERVAL_NS
"""Time between pings to a connection at no table once its clock estimate is ready.

In the lobby nothing reads the estimate, and a ping wakes the host and the client's
process twice each (an SSH or browser player's client runs on the host's own machine):
pinged once a second, sixteen idle players cost the host box 3 % of a core. Five seconds
keeps six samples in the estimate's 30 s window (:data:`net.core.clock.WINDOW_AGE_NS`), so it
stays ready for the first real-time moment at a table, which pings at the clock's own pace
from the join on (:meth:`net.core.host.HostCore._join`)."""

PINGS_KEPT = 8
"""Pings remembered awaiting their pong (older ones are forgotten: their pong is ignored)."""


class SessionState(enum.Enum):
    """Where a connection is in its life."""

    AWAITING_HELLO = "awaiting_hello"
    """Connected; nothing but ``hello`` is taken, within the handshake deadline."""
    OPEN = "open"
    """Welcomed: the lobby and the tables are open to it."""
    CLOSING = "closing"
    """The host ended it (a closing error, a deadline, a budget): its last bytes are queued,
    the driver writes them and closes the socket. Nothing more is sent or read."""
    CLOSED = "closed"
    """Gone (closed by either side); the core has forgotten it."""


class Session:
    """One client connection's state in the host core (see the module docstring)."""

    def __init__(
        self, conn: int, address: str, ip: str, now_ns: int, queued: Callable[[Session], None]
    ) -> None:
        self.conn = conn
        """The connection's id: what the driver and the core's outputs call it."""
        self.address = address
        self.ip = ip
        """The peer's address without the port: what the per-address budget counts."""
        self.protocol = HostProtocol()
        self.closing = False
        self.closed = False
        self.name = "?"
        self.player: str | None = None
        """A hash of the player's key from ``hello`` (net.store.scoreboard.player_id), if any."""
        self.runner: TableRunner | None = None
        self.clock = ClockEstimate()
        """This connection's round trip and jitter, for the real-time arbiter."""
        self.read_ns = now_ns
        """Host time when the bytes being handled were read (a claim's arrival time)."""
        self.opened_ns = self.last_read_ns = now_ns
        """When the connection opened, and when its last whole message came (the deadlines)."""
        self.tables_created: list[str] = []
        """Tables this connection created (the per-connection table budget counts open ones)."""
        self.backlog: list[object] = []
        """Protocol events read but not handled yet (handled a batch at a time)."""
        self._queued = queued
        self._rtt_ms: float | None = None
        self._ping_ids = itertools.count(1)
        self._pings: dict[int, int] = {}
        self._unanswered = 0
        self.ping_due_ns: int | None = None
        """When the host's ping queue has this connection due (its one live entry there)."""

    @property
    def state(self) -> SessionState:
        if self.closed:
            return SessionState.CLOSED
        if self.closing or self.protocol.should_close:
            return SessionState.CLOSING
        return SessionState.OPEN if self.protocol.handshake_done else SessionState.AWAITING_HELLO

    def ending(self) -> bool:
        """Whether the host is closing it, or it is gone: nothing more is read or sent."""
        return self.closing or self.closed

    @property
    def rtt_ms(self) -> float | None:
        return self._rtt_ms

    def send(self, message: Message, frame: bytes | None = None) -> None:
        """Queue a message (``frame``: the same, already encoded by :meth:`encode`)."""
        if self.ending():
            return
        self.protocol.send(message, frame)
        self._queued(self)

    def send_error(self, code: str, text: str, about: Message | None = None) -> None:
        """Queue an ``error`` (a closing code ends the connection once it is written)."""
        if self.ending():
            return
        self.protocol.send_error(code, text, about=about)
        self._queued(self)

    def encode(self, message: Message, *, shape_tested: bool = False) -> bytes:
        return self.protocol.encode(message, shape_tested=shape_tested)

    def next_ping_ns(self, now_ns: int) -> int:
        """When this connection is due a ping: the clock estimate's pace, slowed if unanswered
        or at no table (:data:`LOBBY_PING_INTERVAL_NS`)."""
        due = self.clock.next_ping_ns(now_ns)
        last = self.clock.last_ping_sent_ns
        if self.runner is None and self.clock.ready and last is not None:
            due = max(due, last + LOBBY_PING_INTERVAL_NS)
        if self._unanswered >= MAX_UNANSWERED_FAST and self._pings:
            due = max(due, max(self._pings.values()) + PING_INTERVAL_NS)
        return due

    def ping(self, now_ns: int) -> None:
        ping_id = next(self._ping_ids)
        self._pings[ping_id] = now_ns
        if len(self._pings) > PINGS_KEPT:
            self._pings.pop(min(self._pings))
        self._unanswered += 1
        self.clock.note_ping_sent(now_ns)
        self.send(Ping(id=ping_id, t=now_ns))

    def pong(self, message: Pong) -> None:
        sent = self._pings.pop(message.id, None)
        if sent is not None and sent == message.t:
            received = self.read_ns
            self._rtt_ms = (received - sent) / 1e6
            self._unanswered = 0
            if message.at is None:
                self.clock.add_sample(*rtt_only_sample(sent, received))
            else:
                self.clock.add_sample(sent, message.at, received)

    def overdue(self, now_ns: int, limits: HostLimits) -> tuple[str, str] | None:
        """The deadline this connection missed at ``now_ns`` (code, sentence), if any."""
        if not self.protocol.handshake_done:
            if now_ns - self.opened_ns >= limits.handshake_timeout_s * 1e9:
                return (
                    "handshake_timeout",
                    f"No valid 'hello' within {limits.handshake_timeout_s:g} s of connecting",
                )
            return None
        quiet = (now_ns - self.last_read_ns) / 1e9
        if quiet >= limits.idle_timeout_s and self._unanswered >= IDLE_UNANSWERED_PINGS:
            return (
                "idle_timeout",
                f"Nothing came for {quiet:.0f} s and {self._unanswered} pings went unanswered",
            )
        return None

"""The host's rules without I/O: lobby, tables, seats, timers and the arbiter, on explicit time.

:class:`HostCore` is everything the host decides, as a plain object. It is
fed what happened — a connection opened, bytes read from it, a connection
lost, time passing — each with the host's monotonic time in nanoseconds, and
it answers with effects: the bytes to write to each connection and the
connections to close (:meth:`HostCore.outputs`), the records it appended to
its tables' journals (through its :class:`~net.core.store.JournalStore`),
and the moment it must next be woken (:meth:`HostCore.next_deadline_ns`).
It never reads a clock, never sleeps, never touches a socket, and draws its
randomness (table seeds, seat tokens) from one source it is given.

So the same code runs under two drivers: :class:`net.doors.host.Host`, the asyncio
adapter of ``clowder host`` and of a player's own TUI (sockets, the real
clock, a state folder on disk), and the simulator in ``tests/sim``, which
runs thousands of whole games of every game in one process on a seeded
virtual clock and network, with faults, and checks every frame.

A driver's loop, all of it::

    core = HostCore(name="box", store=StateDir(path))
    core.resume(now_ns())                           # the tables on disk
    conn = core.open_connection("10.0.0.7:40112", now_ns())
    more = core.receive_data(conn, data, now_ns())  # whatever a read brought
    while more:                                     # a long backlog: others go first
        more = core.handle_more(conn, now_ns())
    core.connection_lost(conn, now_ns())            # EOF or reset
    core.advance(now_ns())                          # at next_deadline_ns()
    for effect in core.outputs():                   # after every call above
        ...                                         # Send: write; Close: write, then close

Each connection's messages are handled :data:`MESSAGES_PER_TURN` at a time:
``receive_data`` handles the first batch and says whether more wait, so a
driver lets other connections go first between batches.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import registry
from engine.bots import bot_levels, check_level
from engine.core import IllegalAction
from net.core import chat
from net.core.again import AGAIN_FOR_S, Evening
from net.core.limits import MESSAGES_PER_TURN, HostLimits
from net.core.realtime import STAMPS_NEEDED
from net.core.session import Session, SessionState
from net.core.store import JournalSink, JournalStore
from net.core.table import BOT_DELAY_S, START_COUNTDOWN_S, TableRunner
from net.core.tables import (
    DEFAULT_TAKEOVER_S,
    CorruptJournal,
    Journal,
    TableError,
    create,
    fixed_deal_options,
    restore,
)
from net.core.timers import Timer, Timers
from net.store import replays
from net.store.journal import FULL_ERRNOS, JournalWriteError
from net.store.night import Night
from net.store.scoreboard import Scoreboard, player_id
from net.wire.framing import HOST_LIMITS, with_field
from net.wire.messages import (
    ERRORS,
    PROTOCOL_VERSION,
    Act,
    Again,
    AgainAnswer,
    Chat,
    ChatRule,
    Created,
    CreateTable,
    GetReplay,
    GetScores,
    Hello,
    Join,
    Joined,
    Learn,
    Leave,
    Left,
    ListReplays,
    ListTables,
    Ping,
    Pong,
    Replay,
    Replays,
    Scores,
    Tables,
    Typing,
    Welcome,
)
from net.wire.protocol import MessageReceived, ProtocolError

PRESENCE_INTERVAL_S = 2.0
"""How often each table's presence (with the players' round trips) is sent out."""

RESULTS_FOR_S = 120.0
"""How long a finished table stays (its players read the results) before it is closed."""
ABANDON_AFTER_S = 600.0
"""A table whose people have all been gone this long is closed (its journal archived)."""
SWEEP_S = 1.0
"""How often the host looks for tables to close."""
TABLES_PUSH_NS = 1_500_000_000
"""The least time between two sendings of the tables to the lobbies (:meth:`HostCore._push_tables`):
a lobby used to ask this often."""

FIRST_PING_S = 0.05
"""A welcomed connection's first ping waits this long, so the replies to what a client
sends right after its ``hello`` come first (as they did when pings ran on a polling loop)."""
LOG_QUIET_S = 10.0
"""Refusals and timeouts are logged at most once this often (a flood is one line)."""


@dataclass(frozen=True, slots=True)
class Send:
    """Write ``data`` to connection ``conn``."""

    conn: int
    data: bytes


@dataclass(frozen=True, slots=True)
class Close:
    """Close connection ``conn`` (after writing what was sent to it before)."""

    conn: int


Output = Send | Close


def protocol_code(error: IllegalAction) -> str:
    """The protocol's code for a refused action: the game's own, else its nearest general one.

    A game may refine a refusal (Kiitos' ``not_a_word``, Black Cat's
    ``stale_reveal``); a code the protocol does not list is sent as the code of
    the nearest class it does list (``illegal_action`` at the least), with the
    game's own sentence.
    """
    for kind in type(error).__mro__:
        code = getattr(kind, "code", None)
        if code in ERRORS:
            return str(code)
    return IllegalAction.code


@dataclass(frozen=True, slots=True)
class Doors:
    """Ways in besides the game port, told to every client in ``welcome``: the ports of the
    host's SSH gateway and web page (``None``: it has none), for the waiting room."""

    ssh: int | None = None
    web: int | None = None


class HostCore:
    """A Clowder host's rules: tables, seats and games, driven by explicit time (module doc)."""

    def __init__(
        self,
        *,
        name: str,
        store: JournalStore | None = None,
        scores: Scoreboard | None = None,
        limits: HostLimits | None = None,
        connection_budget: int | None = None,
        rng: random.Random | None = None,
        bot_delay_s: float = BOT_DELAY_S,
        bot_reaction_scale: float = 1.0,
        bot_level: str | None = None,
        log: Callable[[str], None] = print,
        allow_fixed_deck: bool = False,
        results_for_s: float = RESULTS_FOR_S,
        abandon_after_s: float = ABANDON_AFTER_S,
        run_unattended: bool = False,
        start_countdown_s: float = START_COUNTDOWN_S,
        again_for_s: float = AGAIN_FOR_S,
        again_bots: bool = False,
        night: Night | None = None,
        wall_s: float = 0.0,
        now_ns: int = 0,
    ) -> None:
        self.name = name
        self.doors = Doors()
        """Set by ``clowder host`` once its gateways listen."""
        self.limits = limits if limits is not None else HostLimits()
        """The budgets and deadlines (:mod:`net.core.limits`)."""
        self.connection_budget = (
            connection_budget if connection_budget is not None else self.limits.max_connections
        )
        """Connections taken at once (the adapter lowers it to fit the process's file limit)."""
        self.store = store
        self.scores = scores
        """Players' results across games (net.store.scoreboard; ``None``: not kept)."""
        self._rng = rng
        """Where table seeds and seat tokens come from (``None``: the OS's secrets)."""
        self.allow_fixed_deck = allow_fixed_deck
        """Whether ``create_table`` may fix the deal (a testing aid; see ``fixed_deal_options``)."""
        self.results_for_s = results_for_s
        """A finished table is closed this long after its end (0: never)."""
        self.abandon_after_s = abandon_after_s
        """A table nobody has been at for this long is closed (0: never)."""
        self.run_unattended = run_unattended
        """Bots and timers play on at tables nobody is at (tests and benchmarks only)."""
        self.start_countdown_s = start_countdown_s
        self.bot_delay_s = bot_delay_s
        self.bot_reaction_scale = bot_reaction_scale
        """Real-time tables: bots' reaction times are multiplied by this (tests and demos)."""
        self.bot_level = bot_level
        """The level of a table's bots when its creator names none (``clowder host
        --bot-level``; ``None``: each game's default, ``normal``)."""
        self.log = log
        self.night = night
        """Tonight's standings (net.store.night; ``None``: not kept)."""
        self._wall_anchor = (wall_s, now_ns)
        """The wall clock's seconds at host time ``now_ns`` (given): the night's times are
        worked out from the host time, never read from a clock."""
        self.timers = Timers(now_ns)
        """Every pending timer of the host and its tables (:meth:`next_deadline_ns`)."""
        self.timers.on_earlier = self._wake
        self.tables: dict[str, TableRunner] = {}
        self.connections: dict[int, Session] = {}
        self.on_tables_changed: Callable[[], None] | None = None
        """Called when a table is created, changes or closes (discovery re-advertises)."""
        self.on_wake: Callable[[], None] | None = None
        """Called when outputs are queued or an earlier deadline is set outside a driver's
        call (a table created by the TUI, a test moving a runner): the driver drains and
        re-arms soon, rather than at its next wake-up."""
        self._journals: dict[str, JournalSink] = {}
        self._next_table = 1
        self._conn_ids = itertools.count(1)
        self._per_address: dict[str, int] = {}
        self._dirty: dict[int, Session] = {}
        """Sessions with bytes queued or a close pending, in the order they got them."""
        self._ping_queue: list[tuple[int, int, Session]] = []
        """(due, order, session): when each welcomed connection is next pinged and checked."""
        self._ping_order = itertools.count()
        self._housekeeping: Timer | None = None
        self._next_sweep_ns = now_ns
        self._next_presence_ns = now_ns
        self._presence_order: list[TableRunner] = []
        self._quiet_until_ns = 0
        self._quieted = 0
        self._tables_frame: bytes | None = None
        """The ``tables`` frame without a ``ref`` (``None``: to build, a table changed)."""
        self._table_watchers: set[Session] = set()
        """Connections that asked for the tables: while at no table, they are sent them
        again when they change (:meth:`_push_tables`)."""
        self._tables_push: Timer | None = None
        self._tables_pushed_ns: int | None = None
        self.evening = Evening(self, again_for_s, again_bots)
        """Proposals to play again (net.core.again)."""
        self._tonight: dict[str, Any] | None = None
        """Tonight's standings as sent (``None``: to work out, a game was counted)."""

    # Driving ---------------------------------------------------------------------

    @property
    def now_ns(self) -> int:
        """The host time of the call being handled (the latest the core was given)."""
        return self.timers.now_ns

    def next_deadline_ns(self) -> int | None:
        """When :meth:`advance` must next be called (``None``: nothing is pending)."""
        return self.timers.next_due()

    def advance(self, now_ns: int) -> None:
        """Time has come to ``now_ns``: fire every timer due (bots, game timers, pings...)."""
        self.timers.fire_due(now_ns)

    def outputs(self) -> list[Output]:
        """What to do now, in order: bytes to write, connections to close. Drains the queue."""
        effects: list[Output] = []
        while self._dirty:
            dirty, self._dirty = self._dirty, {}
            for conn, session in dirty.items():
                data = session.protocol.data_to_send()
                if data:
                    effects.append(Send(conn, data))
                if session.closing and not session.closed:
                    effects.append(Close(conn))
                    self._forget(session)
        return effects

    def _queued(self, session: Session) -> None:
        if not self._dirty:
            self._wake()
        self._dirty[session.conn] = session

    def _wake(self) -> None:
        if self.on_wake is not None:
            self.on_wake()

    # Connections -----------------------------------------------------------------

    def open_connection(self, address: str, now_ns: int, ip: str | None = None) -> int:
        """A client connected from ``address`` (``ip``: its address without the port).

        Returns the connection's id. A connection over a budget is refused:
        its closing ``host_full`` error and its close are in :meth:`outputs`.
        """
        self.timers.set_now(now_ns)
        conn = next(self._conn_ids)
        host_part = address.rsplit(":", 1)[0] if ip is None else ip
        session = Session(conn, address, host_part, now_ns, self._queued)
        refusal = self._admission(session)
        self.connections[conn] = session
        self._per_address[session.ip] = self._per_address.get(session.ip, 0) + 1
        if refusal is not None:
            self._drop(session, "host_full", refusal)
            return conn
        self.timers.call_later(self.limits.handshake_timeout_s, self._handshake_due, session)
        return conn

    def receive_data(self, conn: int, data: bytes, now_ns: int) -> bool:
        """Bytes read from ``conn``. Handles the first batch; returns whether more wait."""
        self.timers.set_now(now_ns)
        session = self.connections.get(conn)
        if session is None or session.closing:
            return False
        session.read_ns = now_ns
        session.protocol.receive_data(data, now_ns / 1e9)
        events = session.protocol.events_received()
        if events:  # whole messages: a byte dribbled now and then does not count
            session.last_read_ns = now_ns
            session.backlog.extend(events)
        if session.protocol.should_close and not session.backlog:
            self._close(session)
            return False
        return self.handle_more(conn, now_ns)

    def handle_more(self, conn: int, now_ns: int) -> bool:
        """Handle the next batch of ``conn``'s messages; returns whether more still wait."""
        self.timers.set_now(now_ns)
        session = self.connections.get(conn)
        if session is None or session.closing:
            return False
        batch = session.backlog[:MESSAGES_PER_TURN]
        del session.backlog[:MESSAGES_PER_TURN]
        for event in batch:
            if session.ending():
                break
            if isinstance(event, ProtocolError):
                self.log(f"{session.address}: {event.code}: {event.text}")
            elif isinstance(event, MessageReceived):
                self._dispatch(session, event)
        if session.protocol.should_close and not session.ending():
            self._close(session)
        if session.ending():
            session.backlog.clear()
            return False
        return bool(session.backlog)

    def connection_lost(self, conn: int, now_ns: int) -> None:
        """``conn`` is gone (EOF, reset, or the driver dropped a peer that stopped reading)."""
        self.timers.set_now(now_ns)
        session = self.connections.get(conn)
        if session is not None:
            session.protocol.receive_eof()
            self._forget(session)
            self._dirty.pop(conn, None)

    def _close(self, session: Session) -> None:
        """End ``session`` once what is queued for it is written (see :meth:`outputs`)."""
        session.closing = True
        self._queued(session)

    def _forget(self, session: Session) -> None:
        """The connection is gone: it leaves its table (the seat stays) and every budget."""
        if session.closed:
            return
        session.closed = True
        self.connections.pop(session.conn, None)
        count = self._per_address.pop(session.ip, 1) - 1
        if count > 0:
            self._per_address[session.ip] = count
        runner, session.runner = session.runner, None
        if runner is not None:
            runner.detach(session)
        self._table_watchers.discard(session)
        queue = self._ping_queue
        if any(entry[2] is session for entry in queue):
            self._ping_queue = [entry for entry in queue if entry[2] is not session]
            heapq.heapify(self._ping_queue)
            self._arm_housekeeping()

    def _admission(self, session: Session) -> str | None:
        """Why a new connection is refused (``host_full``), or ``None`` to serve it."""
        if len(self.connections) >= self.connection_budget:
            return (
                f"This host is serving {len(self.connections)} connections, as many as it takes; "
                "try again later"
            )
        from_there = self._per_address.get(session.ip, 0)
        if from_there >= self.limits.max_connections_per_address:
            return (
                f"This host already serves {from_there} connections from {session.ip}, "
                "as many as it takes from one address"
            )
        return None

    def _drop(self, session: Session, code: str, text: str) -> None:
        """End a connection with a closing ``error`` (a budget or a deadline)."""
        self._log_limited(f"{session.address}: {code}: {text}")
        session.send_error(code, text)
        self._close(session)

    def _handshake_due(self, session: Session) -> None:
        if session.state is SessionState.AWAITING_HELLO:
            expired = session.overdue(self.now_ns, self.limits)
            if expired is not None:
                self._drop(session, *expired)

    def _log_limited(self, line: str) -> None:
        """Log a refusal or a timeout, at most one line every :data:`LOG_QUIET_S`."""
        now = self.now_ns
        if now < self._quiet_until_ns:
            self._quieted += 1
            return
        more = f" (and {self._quieted} more like it)" if self._quieted else ""
        self.log(line + more)
        self._quiet_until_ns, self._quieted = now + int(LOG_QUIET_S * 1e9), 0

    # Housekeeping: pings, deadlines, presence, closing tables -------------------------

    def _queue_ping(self, session: Session, due_ns: int) -> None:
        """Put ``session`` in the ping queue at ``due_ns``; an entry it had there is stale."""
        session.ping_due_ns = due_ns
        heapq.heappush(self._ping_queue, (due_ns, next(self._ping_order), session))
        self._arm_housekeeping()

    def _ping_at_table_pace(self, session: Session) -> None:
        """A connection just sat down: bring its next ping forward from the lobby's slow pace
        (:data:`net.core.session.LOBBY_PING_INTERVAL_NS`) to the table's."""
        due = max(session.next_ping_ns(self.now_ns), self.now_ns + 1)
        if session.ping_due_ns is not None and due < session.ping_due_ns:
            self._queue_ping(session, due)

    def _arm_housekeeping(self) -> None:
        """Arm the next housekeeping round: the first ping due, a sweep, a presence turn."""
        dues = []
        if self._ping_queue:
            dues.append(self._ping_queue[0][0])
        if self.tables:
            dues += [self._next_sweep_ns, self._next_presence_ns]
        due = max(min(dues), self.now_ns) if dues else None
        current = self._housekeeping
        if current is not None and not current.cancelled and due is not None and current.due <= due:
            return
        if current is not None:
            current.cancel()
        self._housekeeping = None if due is None else self.timers.call_at(due, self._housekeep)

    def _housekeep(self) -> None:
        """Ping each connection when its clock estimate wants it; presence; close tables.

        Welcomed connections wait in a queue ordered by when they are due, so a
        round costs the connections due then, not every connection. Each is
        checked against the idle deadline when its turn comes (at least once a
        ping interval). Each table's presence goes out every
        :data:`PRESENCE_INTERVAL_S`, one table at a time spread over the
        interval: hundreds at once would stall everyone's round trip.
        """
        self._housekeeping = None
        now = self.now_ns
        queue = self._ping_queue
        while queue and queue[0][0] <= now:
            due, _order, session = heapq.heappop(queue)
            if due != session.ping_due_ns or session.state is not SessionState.OPEN:
                continue  # replaced by a sooner entry (_ping_at_table_pace), or gone
            expired = session.overdue(now, self.limits)
            if expired is not None:
                self._drop(session, *expired)
                continue
            if session.next_ping_ns(now) <= now:
                session.ping(now)
            due = session.ping_due_ns = max(session.next_ping_ns(now), now + 1)
            heapq.heappush(queue, (due, next(self._ping_order), session))
        if self.tables and now >= self._next_sweep_ns:
            self._next_sweep_ns = now + int(SWEEP_S * 1e9)
            self._sweep(now / 1e9)
        if self.tables and now >= self._next_presence_ns:
            self._next_presence_ns = now + int(PRESENCE_INTERVAL_S * 1e9 / len(self.tables))
            if not self._presence_order:
                self._presence_order = list(self.tables.values())[::-1]
            runner = self._presence_order.pop()
            if runner.attached and runner.table.id in self.tables:
                runner.broadcast_presence()
        self._arm_housekeeping()

    def _closing_reason(self, runner: TableRunner, now: float) -> str | None:
        """Why ``runner``'s table should close at host time ``now`` (``None``: it stays)."""
        table = runner.table
        if table.id in self.evening.proposals:
            return None  # its people are deciding whether to play again
        if runner.ended_at is not None:
            if self.results_for_s > 0 and now - runner.ended_at >= self.results_for_s:
                return f"the game ended {self.results_for_s:g} s ago"
            return None
        gone = runner.unattended_since
        if gone is None or self.abandon_after_s <= 0 or now - gone < self.abandon_after_s:
            return None
        # An empty table the host was started with stays open for newcomers.
        if table.started or table.humans_seated or table.created_by is not None:
            return f"nobody has been at it for {self.abandon_after_s:g} s"
        return None

    def _sweep(self, now: float) -> None:
        """Close the tables whose time is up (over a while ago, or abandoned)."""
        for table_id, runner in list(self.tables.items()):
            reason = self._closing_reason(runner, now)
            if reason is not None:
                self.close_table(table_id, reason)

    # Tables ----------------------------------------------------------------------

    def resume(self, now_ns: int) -> None:
        """Resume every table in the store; a damaged journal is set aside, the rest go on."""
        self.timers.set_now(now_ns)
        if self.scores is not None:
            for line in self.scores.take_notices():  # a scores file set aside, ratings off
                self.log(line)
        if self.store is None:
            return
        # Ids of damaged journals count too: an id is never handed out twice.
        self._next_table = self.store.highest_number() + 1
        kept: dict[str, list[dict[str, Any]]] = {}
        for table_id in self.store.table_ids():
            try:
                records = kept[table_id] = self.store.read(table_id)
                named = records[0].get("id") if records else None
                if records and named != table_id:
                    raise CorruptJournal(f"its table record names table {named!r}")
                journal = self.store.open(table_id)
                table = restore(records, self._saving(table_id, journal))
                self._tokens_for(table)
                last_now = max(
                    (float(r["now"]) for r in records if r.get("r") in ("act", "tick")),
                    default=0.0,
                )
                runner = self._runner(table, last_now)
                runner.spectator_chat = chat.rule_of(records)
            except Exception as error:  # one table never stops the host
                self._set_aside(table_id, error)
                continue
            self._journals[table_id] = journal
            self.tables[table_id] = runner
            self._count(runner)  # a game that ended just before the host stopped
        self.evening.resume(lambda table_id: kept.get(table_id, []))
        self._arm_housekeeping()

    def _set_aside(self, table_id: str, error: Exception) -> None:
        """Log one line naming a damaged journal and why, and move it out of the way."""
        reason = str(error) if isinstance(error, ValueError) else f"{type(error).__name__}: {error}"
        assert self.store is not None
        try:
            kept = f"kept as {self.store.set_aside(table_id)}"
        except OSError as problem:
            kept = f"could not be renamed ({problem.strerror or problem})"
        self.log(
            f"Damaged table journal {self.store.describe(table_id)} not resumed ({reason}); "
            f"{kept}; other tables go on"
        )

    def _tokens_for(self, table: Any) -> None:
        """Seat tokens from the core's random source when it has one (a repeatable run)."""
        if self._rng is not None:
            rng = self._rng
            table.make_token = lambda: f"{rng.getrandbits(128):032x}"

    def _runner(self, table: Any, clock_start: float = 0.0) -> TableRunner:
        runner = TableRunner(
            table,
            self.timers,
            clock_start=clock_start,
            bot_delay_s=self.bot_delay_s,
            bot_reaction_scale=self.bot_reaction_scale,
            log=self.log,
            on_change=self._changed,
            on_over=self._count,
            run_unattended=self.run_unattended,
            start_countdown_s=self.start_countdown_s,
        )
        if self.night is not None:
            runner.tonight = self.tonight
        return runner

    def wall_now(self) -> float:
        """The wall clock now, worked out from the host time (see ``wall_s``)."""
        wall_s, at_ns = self._wall_anchor
        return wall_s + (self.now_ns - at_ns) / 1e9

    def tonight(self) -> dict[str, Any] | None:
        """Tonight's standings as views and ``scores`` carry them (``None``: not kept)."""
        if self.night is None:
            return None
        if self._tonight is None:
            self._tonight = self.night.to_data()
        return self._tonight

    def _changed(self, runner: TableRunner) -> None:
        """A table changed: a finished game is counted on the scoreboard (once)."""
        self._count(runner)
        self._tables_changed()

    def _count(self, runner: TableRunner) -> None:
        """Count (once) and rate a finished table, and give its runner the seats' rating
        changes to send with its views. Called as the end is seen, before the views that
        show it are built (``on_over``), and after any change (a restored table's end)."""
        scores = self.scores
        if runner.table.outcome is None:
            return
        if scores is not None:
            try:
                scores.record(runner.table, runner.covered_shares())
            except OSError as error:
                self._log_limited(f"Scores not saved ({error.strerror or error})")
            if runner.ratings is None:
                runner.ratings = scores.table_ratings(runner.table.id)
            for line in scores.take_notices():
                self.log(line)
        self._count_tonight(runner)

    def _count_tonight(self, runner: TableRunner) -> None:
        """Count a finished table in tonight's standings (once)."""
        night = self.night
        if night is None or runner.table.outcome is None:
            return
        if night.record(runner.table, runner.covered_shares(), runner.ratings, self.wall_now()):
            self._tonight = None
        for line in night.notices:
            self.log(line)
        night.notices.clear()

    def _tables_changed(self) -> None:
        self._tables_frame = None
        if self._table_watchers and self._tables_push is None:
            last = self._tables_pushed_ns
            due = self.now_ns if last is None else max(self.now_ns, last + TABLES_PUSH_NS)
            self._tables_push = self.timers.call_at(due, self._push_tables)
        if self.on_tables_changed is not None:
            self.on_tables_changed()

    def _push_tables(self) -> None:
        """Send the tables, changed since, to each connection that asked for them and sits at
        no table (a lobby): it need not ask again and again to stay up to date, and an idle
        lobby costs nothing. At most every :data:`TABLES_PUSH_NS`, so a table in play (its
        scores change at every move) does not wake every lobby at every move."""
        self._tables_push = None
        self._tables_pushed_ns = self.now_ns
        for session in list(self._table_watchers):
            if session.state is not SessionState.OPEN:
                self._table_watchers.discard(session)
            elif session.runner is None:
                self._send_tables(session, None)

    def close_table(self, table_id: str, reason: str) -> None:
        """Close a table: tell whoever is there, stop it, archive its journal, forget it."""
        self.evening.closing(table_id)
        runner = self.tables.pop(table_id, None)
        if runner is None:
            return
        with contextlib.suppress(ValueError):
            self._presence_order.remove(runner)
        for attachment in list(runner.attached):
            peer = attachment.peer
            if isinstance(peer, Session):
                peer.runner = None
                peer.send_error("table_closed", f"Table {table_id} was closed: {reason}")
                peer.send(Left(table=table_id))
        runner.attached.clear()
        runner.close()
        journal = self._journals.pop(table_id, None)
        if journal is not None:
            journal.close()
        archived = ""
        if self.store is not None:
            try:
                kept = self.store.archive(table_id)
                archived = f"; journal archived as {kept}" if kept else ""
            except OSError as error:
                archived = f"; journal could not be archived ({error.strerror or error})"
        self.log(f"[{table_id}] closed: {reason}{archived}")
        self._arm_housekeeping()
        self._tables_changed()

    def table_summaries(self) -> list[dict[str, Any]]:
        return [runner.table.summary() for runner in self.tables.values()]

    def _send_tables(self, session: Session, ref: int | None) -> None:
        """Answer ``list_tables`` from the table list's frame, encoded once per change.

        Lobbies ask often and many at once; rebuilding and encoding every
        table's summary per request made 50 clients' requests cost a 51st
        client its round trip. The frame is built when a table changes
        (:meth:`_tables_changed` drops it) and sent with each request's ``ref``.
        """
        frame = self._tables_frame
        if frame is None:
            frame = self._tables_frame = session.encode(Tables(tables=self.table_summaries()))
        reply = Tables(tables=[], ref=ref)  # what the protocol object sees; the bytes are below
        if ref is not None:
            framed = with_field(frame, "ref", ref, HOST_LIMITS)
            if framed is None:
                session.send(Tables(tables=self.table_summaries(), ref=ref))
                return
            frame = framed
        session.send(reply, frame)

    def open_tables(self) -> int:
        """Tables not over (what :attr:`HostLimits.max_tables` counts)."""
        return sum(1 for runner in self.tables.values() if runner.table.outcome is None)

    def create_table(
        self,
        game: str,
        options: dict[str, Any] | None = None,
        *,
        seats: int | None = None,
        bots: int = 0,
        bot_level: str | None = None,
        created_by: str | None = None,
        again_of: str | None = None,
        now_ns: int | None = None,
    ) -> TableRunner:
        """Create a table (for clients' ``create_table`` and ``clowder host --table``, and
        for a finished table's people who play again: ``again_of``, net.core.again).

        ``bot_level``: the level of its ``bots`` (``easy``, ``normal``, ``hard``); ``None``:
        the host's :attr:`bot_level` where the game has that level, else the game's default.
        An unknown level is an ``invalid_options`` refusal that lists the game's levels.
        """
        if now_ns is not None:
            self.timers.set_now(now_ns)
        options = dict(options or {})
        takeover = options.pop("takeover", DEFAULT_TAKEOVER_S)
        try:
            spectator_chat = chat.check_option(options.pop(chat.SPECTATOR_CHAT_OPTION, "shown"))
        except ValueError as error:
            raise TableError("invalid_options", str(error)) from None
        if isinstance(takeover, str):  # the text form of a --table spec
            try:
                takeover = float(takeover)
            except ValueError:
                raise TableError(
                    "invalid_options", f"takeover is seconds, not {takeover!r}"
                ) from None
        self._check_fixed_deck(game, options)
        open_tables = self.open_tables()
        if open_tables >= self.limits.max_tables:
            raise TableError(
                "too_many_tables",
                f"This host has {open_tables} tables in play or waiting, as many as it takes; "
                "join one of them or try again when one is over",
            )
        table_id = self._new_table_id()  # taken only if the table is created
        journal: JournalSink | None = None
        try:
            journal = self.store.create(table_id) if self.store else None
            sink = self._saving(table_id, journal) if journal else (lambda record: None)
            seed = self._rng.getrandbits(63) if self._rng is not None else secrets.randbits(63)
            table = create(
                table_id,
                game,
                options,
                seed,
                sink,
                seats=seats,
                takeover_s=takeover,
                created_by=created_by,
                again_of=again_of,
            )
            self._tokens_for(table)
            if bots < 0 or bots > len(table.seats):
                raise TableError(
                    "invalid_options",
                    f"A table of {len(table.seats)} has 0 to {len(table.seats)} bots",
                )
            level = bot_level
            if level is None and self.bot_level in bot_levels(table.game):
                level = self.bot_level
            if level is not None:
                try:
                    check_level(table.game, level)
                except ValueError as error:
                    raise TableError("invalid_options", str(error)) from None
            for _ in range(bots):
                table.add_bot(level=level)
        except (TableError, OSError) as error:
            if journal is not None:
                journal.close()
                if self.store is not None:
                    self.store.discard(table_id)
            if isinstance(error, TableError) and error.code == "host_storage":
                said = str(error).replace("save this table", "save a new table")
                raise TableError("host_storage", said) from None
            if isinstance(error, OSError) and error.errno in FULL_ERRNOS:
                raise TableError(
                    "host_storage", "The host cannot save a new table: its disk is full"
                ) from None
            if isinstance(error, OSError):  # out of file descriptors: a refusal
                raise TableError(
                    "too_many_tables",
                    f"The host cannot open another table now ({error.strerror or error})",
                ) from None
            raise
        if journal is not None:
            self._journals[table_id] = journal
        self._next_table += 1
        runner = self.tables[table_id] = self._runner(table)
        if spectator_chat != "shown":
            table.journal(chat.rule_record(spectator_chat, None, None, 0.0))
            runner.spectator_chat = spectator_chat
        self.log(
            f"[{table_id}] new {table.game.title} table, {len(table.seats)} seats, {bots} bot(s)"
        )
        runner.start_if_full()
        self._arm_housekeeping()
        self._tables_changed()
        return runner

    def _saving(self, table_id: str, journal: JournalSink) -> Journal:
        """``journal``'s append, for table ``table_id``, as the table calls it: a record that
        cannot be written (a full disk) holds the table (:meth:`TableRunner.hold_for_storage`)
        and is a ``host_storage`` refusal of the change it records, which the table then
        does not make (it journals first)."""

        def append(record: dict[str, Any]) -> None:
            try:
                journal.append(record)
            except JournalWriteError as error:
                runner = self.tables.get(table_id)
                if runner is not None:
                    runner.hold_for_storage(error.reason)
                raise TableError(
                    "host_storage", f"The host cannot save this table: {error.reason}"
                ) from None

        return append

    def _new_table_id(self) -> str:
        """The next ``tN`` never used in the store (damaged journals included)."""
        while self.store is not None and self.store.used(f"t{self._next_table}"):
            self._next_table += 1
        return f"t{self._next_table}"

    def _check_fixed_deck(self, game: str, options: dict[str, Any]) -> None:
        if self.allow_fixed_deck:
            return
        with contextlib.suppress(registry.UnknownGame):  # create() names the unknown game
            fixed = fixed_deal_options(registry.get(game), options)
            if fixed:
                raise TableError(
                    "invalid_options",
                    f"This host does not take a fixed deck ({', '.join(fixed)}): it is a testing "
                    "aid, allowed only by a host started with --allow-fixed-deck",
                )

    def shutdown(self, now_ns: int, message: str = "The host is shutting down") -> None:
        """Tell every client the host is going, close every connection, stop every table.

        ``message`` is the ``host_shutdown`` error's text, what a player reads: a host that
        resumes its tables on its next start (``clowder host``) says they come back."""
        self.timers.set_now(now_ns)
        for session in list(self.connections.values()):
            session.send_error("host_shutdown", message)
            self._close(session)
        for runner in self.tables.values():
            runner.close()
        for journal in self._journals.values():
            journal.close()
        if self._housekeeping is not None:
            self._housekeeping.cancel()

    # Messages --------------------------------------------------------------------

    def _dispatch(self, session: Session, event: MessageReceived) -> None:
        message = event.message
        try:
            if isinstance(message, Hello):
                self._hello(session, message)
            elif isinstance(message, Ping):
                session.send(Pong(id=message.id, t=message.t))
            elif isinstance(message, Pong):
                session.pong(message)
            elif isinstance(message, ListTables):
                self._send_tables(session, message.ref)
                self._table_watchers.add(session)
            elif isinstance(message, CreateTable):
                self._create(session, message)
            elif isinstance(message, Join):
                self._join(session, message)
            elif isinstance(message, Leave):
                self._leave(session, message)
            elif isinstance(message, Act):
                self._act(session, message)
            elif isinstance(message, Typing):
                self._typing(session, message)
            elif isinstance(message, Learn):
                self._learn(session, message)
            elif isinstance(message, Chat):
                self._chat(session, message)
            elif isinstance(message, ChatRule):
                self._chat_rule(session, message)
            elif isinstance(message, Again):
                self.evening.ask(session, self._runner_for(message.table), message)
            elif isinstance(message, AgainAnswer):
                self.evening.answer(session, self._runner_for(message.table), message.accept)
            elif isinstance(message, GetScores):
                scores = self.scores.summary() if self.scores is not None else {}
                session.send(Scores(scores=scores, ref=message.ref, tonight=self.tonight()))
            elif isinstance(message, ListReplays | GetReplay):
                self._replays(session, message)
        except TableError as error:
            session.send_error(error.code, str(error), about=message)
        except IllegalAction as error:
            session.send_error(protocol_code(error), str(error), about=message)
        except Exception as error:  # a bug in a game or the host must cost one request only
            self.log(f"bug: {message.TYPE} from {session.name} failed: {error!r}")
            session.send_error(
                "internal_error",
                f"The host failed on this {message.TYPE!r} ({type(error).__name__}); "
                "it is a bug, and the request changed nothing",
                about=message,
            )

    def _hello(self, session: Session, message: Hello) -> None:
        session.name = message.name
        session.player = player_id(message.player) if message.player else None
        games = [registry.get(name).describe() for name in registry.names()]
        session.send(
            Welcome(
                protocol=PROTOCOL_VERSION,
                host_name=self.name,
                games=games,
                ssh=self.doors.ssh,
                web=self.doors.web,
            )
        )
        self._queue_ping(session, self.now_ns + int(FIRST_PING_S * 1e9))
        if message.token is None:
            return
        # Newest table first: a person who plays again holds the same token at the new table
        # and the finished one (net.core.again), and comes back to the new one.
        for runner in reversed(list(self.tables.values())):
            seat = runner.table.seat_of(message.token)
            if seat is not None:
                earlier = [
                    a.peer for a in runner.attached if a.seat == seat and a.peer is not session
                ]
                session.runner = runner
                session.name = runner.table.seats[seat].name or message.name
                table_id = runner.table.id
                # The token also held a seat at the finished table this one plays again (it
                # may be closed by now): the client knows that one, and is told it moved
                # (net.core.again; a client already at this table ignores it).
                again_of = runner.table.again_of
                old = self.tables.get(again_of or "")
                held = old is None or old.table.seat_of(message.token) is not None
                moved = again_of if again_of is not None and held else None
                session.send(
                    Joined(
                        table=table_id,
                        role="player",
                        seat=seat,
                        token=message.token,
                        moved_from=moved,
                    )
                )
                runner.attach(session, seat)
                for peer in earlier:
                    self._taken_over(peer, runner, seat)
                self.log(f"[{table_id}] {session.name} is back ({session.address})")
                return
        raise TableError("bad_token", "That seat token holds no seat here; join a table afresh")

    def _taken_over(self, peer: Any, runner: TableRunner, seat: int) -> None:
        """The seat's token came back on another connection: the earlier one leaves the seat.

        It is told (``seat_taken_over``) and stays connected, in the lobby:
        closing it would make a reconnecting client take the seat straight back.
        """
        runner.detach(peer)
        if isinstance(peer, Session):
            peer.runner = None
            peer.send_error(
                "seat_taken_over",
                f"Your seat {seat} at table {runner.table.id} was taken over by another "
                "connection with its token; this one is no longer at the table",
            )
        self.log(f"[{runner.table.id}] seat {seat} taken over by a new connection")

    def _runner_for(self, table_id: str) -> TableRunner:
        runner = self.tables.get(table_id)
        if runner is None:
            raise TableError("no_such_table", f"There is no table {table_id!r} on this host")
        return runner

    def _create(self, session: Session, message: CreateTable) -> None:
        mine = [
            table_id
            for table_id in session.tables_created
            if table_id in self.tables and self.tables[table_id].table.outcome is None
        ]
        session.tables_created = mine
        if len(mine) >= self.limits.max_tables_per_connection:
            raise TableError(
                "too_many_tables",
                f"You already have {len(mine)} tables here that are not over, "
                "as many as one connection may create",
            )
        runner = self.create_table(
            message.game,
            message.options,
            seats=message.seats,
            bots=message.bots or 0,
            bot_level=message.bot_level,
            created_by=session.name,
        )
        session.tables_created.append(runner.table.id)
        session.send(Created(table=runner.table.id, ref=message.ref))

    def _join(self, session: Session, message: Join) -> None:
        runner = self._runner_for(message.table)
        if session.runner is not None and session.runner is not runner:
            session.runner.detach(session, went_to=runner.table.id)
        if message.role == "spectator":
            session.runner = runner
            self._ping_at_table_pace(session)
            session.send(
                Joined(
                    table=runner.table.id, role="spectator", seat=None, token=None, ref=message.ref
                )
            )
            runner.attach(session, None)
            return
        seat, token = runner.table.sit(session.name, message.seat, player=session.player)
        session.runner = runner
        self._ping_at_table_pace(session)
        session.send(
            Joined(table=runner.table.id, role="player", seat=seat, token=token, ref=message.ref)
        )
        self.log(f"[{runner.table.id}] {session.name} sits at seat {seat} ({session.address})")
        runner.attach(session, seat)
        runner.start_if_full()

    def _leave(self, session: Session, message: Leave) -> None:
        runner = self._runner_for(message.table)
        if session.runner is not runner:
            raise TableError("not_at_table", f"You are not at table {message.table}")
        seat = runner.seat_of(session)
        runner.detach(session)
        session.runner = None
        table = runner.table
        if table.outcome is not None:
            self.evening.left(runner, seat)  # leaving a finished table: no to playing again
        if seat is not None and message.for_now and table.outcome is None:
            # The seat waits for its token; the others see the player stepped away.
            table.seats[seat].stepped_away = True
            self.log(f"[{table.id}] {session.name} stepped away from seat {seat}")
            runner.broadcast_presence()
        elif seat is not None:
            try:
                if not table.started:
                    table.unsit(seat)
                    runner.broadcast_presence()
                elif table.outcome is None:
                    table.give_up(seat, runner.now())
                    self.log(f"[{table.id}] {session.name} gave seat {seat} up; a bot plays it")
                    runner.seat_given_up(seat)
            except TableError as error:
                if error.code != "host_storage":
                    raise
                # Leaving never fails: the seat could not be freed on disk, so it waits for
                # its token as a dropped player's does (a bot covers it after the grace).
                self.log(f"[{table.id}] {session.name} left seat {seat}; not saved, it waits")
        session.send(Left(table=message.table, ref=message.ref))
        self._tables_changed()

    def _act(self, session: Session, message: Act) -> None:
        runner = self._runner_for(message.table)
        seat = runner.seat_of(session) if session.runner is runner else None
        if seat is None:
            raise TableError("not_at_table", f"You do not hold a seat at table {message.table}")
        if runner.table.outcome is not None:  # before a claim's checks: the game is over
            raise TableError("game_over", "The game is over; no move is taken now")
        if runner.storage_problem is not None:
            raise TableError("host_storage", runner.storage_problem)
        if runner.counting_down():
            left = runner.starts_in()
            when = f"in {left:.0f} s" if left is not None else "once every player is here"
            raise TableError("not_started", f"The game starts {when}; wait for the countdown")
        if message.action.get("type") in runner.table.game.host_actions:
            raise TableError(
                "invalid_action",
                f"Only the host applies {message.action.get('type')!r} actions",
            )
        if runner.table.game.is_claim(message.action):
            if message.reveal is None or message.drawn_ns is None or message.acted_ns is None:
                raise TableError("claim_refused", STAMPS_NEEDED)
            reaction = message.acted_ns - message.drawn_ns
            stamps = (message.drawn_ns, message.acted_ns)
            runner.claim(seat, message.action, message.reveal, reaction, session.read_ns, stamps)
            return
        # Not a claim (a turn, a Black Cat call): applied as it arrives; stamps are ignored.
        runner.act(seat, message.action)

    def _learn(self, session: Session, message: Learn) -> None:
        """A person alone with bots learns the game: hold moments for them, slow the bots
        (``Learning`` in PROTOCOL.md; no reply when taken)."""
        runner = self._runner_for(message.table)
        seat = runner.seat_of(session) if session.runner is runner else None
        if seat is None:
            raise TableError("not_at_table", f"You do not hold a seat at table {message.table}")
        runner.learn(seat, hold=message.hold, pace=message.pace)

    def _chat(self, session: Session, message: Chat) -> None:
        """A chat line (net.core.chat): not a game action, never seen by the engine."""
        runner = self._runner_for(message.table)
        if session.runner is not runner:
            raise TableError("not_at_table", f"You are not at table {message.table}")
        try:
            chat.say(runner, session, message.text, self.now_ns / 1e9)
        except chat.ChatRefused as error:
            raise TableError(error.code, str(error)) from None

    def _chat_rule(self, session: Session, message: ChatRule) -> None:
        """A player hides or shows the spectators' chat (net.core.chat.set_rule)."""
        runner = self._runner_for(message.table)
        if session.runner is not runner:
            raise TableError("not_at_table", f"You are not at table {message.table}")
        try:
            chat.set_rule(runner, session, message.spectator_chat)
        except chat.PlayersOnly as error:
            raise TableError(error.code, str(error)) from None

    def _replays(self, session: Session, message: ListReplays | GetReplay) -> None:
        """Finished games only (``net.store.replays``): a game under way is refused, for secrecy."""
        root = self.store.root if self.store is not None else None
        over = [i for i, r in self.tables.items() if r.table.outcome is not None]
        if isinstance(message, ListReplays):
            session.send(Replays(replays=replays.host_list(root, over), ref=message.ref))
            return
        try:
            record = replays.host_get(root, message.table, self.tables)
        except replays.ReplayError as error:
            raise TableError(error.code, str(error)) from None
        session.send(Replay(replay=record.to_data(), ref=message.ref))

    def _typing(self, session: Session, message: Typing) -> None:
        """A typing notice: the stamps of an answer being typed (no reply when taken)."""
        runner = self._runner_for(message.table)
        seat = runner.seat_of(session) if session.runner is runner else None
        if seat is None:
            raise TableError("not_at_table", f"You do not hold a seat at table {message.table}")
        if runner.storage_problem is not None:
            raise TableError("host_storage", runner.storage_problem)
        if runner.counting_down():
            raise TableError("not_started", "The game has not begun; wait for the countdown")
        runner.typing_notice(
            seat, message.reveal, message.drawn_ns, message.acted_ns, session.read_ns
        )

"""The authoritative host: accepts connections, keeps the tables, runs the games.

The host is the only authority: clients send intents, the host checks them
against the engine and sends every peer its own view. One
:class:`~net.protocol.HostProtocol` per connection does the framing, limits
and handshake; this module is the asyncio adapter around it plus the lobby
(list, create, join, leave) and the routing of actions to the tables'
:class:`~net.runner.TableRunner`.

Every table has a journal in the state directory, written before anything is
broadcast, so a host killed at any moment and started again on the same
directory resumes every table exactly; players reconnect with their tokens.

The same class runs headless (``clowder host``) and embedded in a player's
TUI (``clowder play``): only the ``log`` callback and the bind address differ.

Each connection keeps a :class:`~net.clock.ClockEstimate` fed by the host's
pings (fast until it is ready, then steady). An ``action`` that the game
names a claim (:meth:`engine.core.Game.is_claim`, a Black Cat grab) must
carry ``reveal``/``drawn_ns``/``acted_ns`` and goes to the table's arbiter,
stamped with the time its bytes were read; any other action is applied as
it arrives.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import heapq
import itertools
import secrets
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import registry
from engine.core import IllegalAction
from net import chat, replays
from net.clock import PING_INTERVAL_NS, ClockEstimate
from net.journal import StateDir, read_records
from net.limits import IDLE_UNANSWERED_PINGS, MESSAGES_PER_TURN, HostLimits
from net.messages import (
    ERRORS,
    PROTOCOL_VERSION,
    Act,
    Chat,
    ChatRule,
    Created,
    CreateTable,
    GetReplay,
    GetScores,
    Hello,
    Join,
    Joined,
    Leave,
    Left,
    ListReplays,
    ListTables,
    Message,
    Ping,
    Pong,
    Replay,
    Replays,
    Scores,
    Tables,
    Typing,
    Welcome,
)
from net.protocol import HostProtocol, MessageReceived, ProtocolError
from net.realtime import STAMPS_NEEDED, rtt_only_sample
from net.runner import BOT_DELAY_S, START_COUNTDOWN_S, TableRunner
from net.scoreboard import Scoreboard, player_id
from net.tables import (
    DEFAULT_TAKEOVER_S,
    CorruptJournal,
    TableError,
    create,
    fixed_deal_options,
    restore,
)

DEFAULT_PORT = 7707
READ_CHUNK = 65536
PRESENCE_INTERVAL_S = 2.0
"""How often each table's presence (with the players' round trips) is sent out."""

PING_POLL_S = 0.1
"""Longest pause of the ping loop, so a new connection is pinged at once."""

GC_FREEZE_S = 10.0
"""With ``freeze_gc``: how often the objects alive then are moved out of the cycle
collector's way (:func:`gc.freeze`). Without it, a full collection walks every table's
state and every connection: 100-250 ms with 250 tables, a stall in everyone's round trip.
The cost: cyclic garbage that was already old at a freeze is not reclaimed (plain garbage,
freed by reference counting, always is); the host's own objects seldom form cycles."""

MAX_UNANSWERED_FAST = 3
"""After this many pings in a row without an answer, a connection is pinged at the steady
pace only (a client that never answers is not pinged five times a second forever)."""
RESULTS_FOR_S = 120.0
"""How long a finished table stays (its players read the results) before it is closed."""
ABANDON_AFTER_S = 600.0
"""A table whose people have all been gone this long is closed (its journal archived)."""
SWEEP_S = 1.0
"""How often the host looks for tables to close."""

MAX_WRITE_BUFFER = 4 * 1024 * 1024
"""A peer that lets this much pile up unread is dropped: one slow client cannot grow the host."""


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


class Connection:
    """One client connection: its protocol object, socket writer and where it sits."""

    def __init__(self, host: Host, writer: asyncio.StreamWriter) -> None:
        self.host = host
        self.writer = writer
        self.protocol = HostProtocol()
        self.name = "?"
        self.player: str | None = None
        """A hash of the player's key from ``hello`` (net.scoreboard.player_id), if any."""
        self.runner: TableRunner | None = None
        self._rtt_ms: float | None = None
        self._ping_ids = itertools.count(1)
        self._pings: dict[int, int] = {}
        self._unanswered = 0
        self.clock = ClockEstimate()
        """This connection's round trip and jitter, for the real-time arbiter."""
        self.read_ns = 0
        """Host clock when the bytes being handled were read (a claim's arrival time)."""
        peer = writer.get_extra_info("peername")
        self.address = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.ip = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        """The peer's address without the port: what the per-address budget counts."""
        self.opened_at = self.last_read = asyncio.get_running_loop().time()
        """Loop time of the connection and of its last whole message (the two deadlines)."""
        self.tables_created: list[str] = []
        """Tables this connection created (the per-connection table budget counts open ones)."""
        self.corked = False
        """While set, :meth:`send` queues without writing; the batch is written by :meth:`flush`."""

    @property
    def rtt_ms(self) -> float | None:
        return self._rtt_ms

    def send(self, message: Message, frame: bytes | None = None) -> None:
        """Queue a message and write it out (drops the peer if it stopped reading).

        ``frame`` is the message already encoded by :meth:`encode` (shared by a broadcast).
        """
        if self.writer.is_closing():
            return
        self.protocol.send(message, frame)
        if not self.corked:
            self.flush()

    def encode(self, message: Message) -> bytes:
        return self.protocol.encode(message)

    def flush(self) -> None:
        data = self.protocol.data_to_send()
        if data and not self.writer.is_closing():
            self.writer.write(data)
            if self.writer.transport.get_write_buffer_size() > MAX_WRITE_BUFFER:
                self.host.log(f"{self.name} ({self.address}) is not reading; dropping it")
                self.writer.transport.abort()

    def next_ping_ns(self, now_ns: int) -> int:
        """When this connection is due a ping: the clock estimate's pace, slowed if unanswered."""
        due = self.clock.next_ping_ns(now_ns)
        if self._unanswered >= MAX_UNANSWERED_FAST and self._pings:
            due = max(due, max(self._pings.values()) + PING_INTERVAL_NS)
        return due

    def ping(self) -> None:
        ping_id = next(self._ping_ids)
        sent = time.monotonic_ns()
        self._pings[ping_id] = sent
        if len(self._pings) > 8:
            self._pings.pop(min(self._pings))
        self._unanswered += 1
        self.clock.note_ping_sent(sent)
        self.send(Ping(id=ping_id, t=sent))

    def pong(self, message: Pong) -> None:
        sent = self._pings.pop(message.id, None)
        if sent is not None and sent == message.t:
            received = self.read_ns or time.monotonic_ns()
            self._rtt_ms = (received - sent) / 1e6
            self._unanswered = 0
            if message.at is None:
                self.clock.add_sample(*rtt_only_sample(sent, received))
            else:
                self.clock.add_sample(sent, message.at, received)

    def overdue(self, now: float, limits: HostLimits) -> tuple[str, str] | None:
        """The deadline this connection missed at loop time ``now`` (code, sentence), if any."""
        if not self.protocol.handshake_done:
            if now - self.opened_at >= limits.handshake_timeout_s:
                return (
                    "handshake_timeout",
                    f"No valid 'hello' within {limits.handshake_timeout_s:g} s of connecting",
                )
            return None
        quiet = now - self.last_read
        if quiet >= limits.idle_timeout_s and self._unanswered >= IDLE_UNANSWERED_PINGS:
            return (
                "idle_timeout",
                f"Nothing came for {quiet:.0f} s and {self._unanswered} pings went unanswered",
            )
        return None


class Host:
    """A Clowder host: tables, seats and games behind one listening socket."""

    def __init__(
        self,
        *,
        name: str | None = None,
        bind: str = "0.0.0.0",
        port: int = DEFAULT_PORT,
        state_dir: Path | None = None,
        bot_delay_s: float = BOT_DELAY_S,
        bot_reaction_scale: float = 1.0,
        log: Callable[[str], None] = print,
        limits: HostLimits | None = None,
        allow_fixed_deck: bool = False,
        freeze_gc: bool = False,
        results_for_s: float = RESULTS_FOR_S,
        abandon_after_s: float = ABANDON_AFTER_S,
        run_unattended: bool = False,
        start_countdown_s: float = START_COUNTDOWN_S,
    ) -> None:
        self.name = name or socket.gethostname()
        self.limits = limits if limits is not None else HostLimits()
        """The budgets and deadlines (:mod:`net.limits`)."""
        self.connection_budget = self.limits.connection_budget()
        """Connections taken at once: the limit, lowered to fit ``RLIMIT_NOFILE`` if need be."""
        self.allow_fixed_deck = allow_fixed_deck
        self.freeze_gc = freeze_gc
        """Freeze long-lived objects every :data:`GC_FREEZE_S` (a headless host's process is
        its own; a TUI embedding the host leaves the collector alone)."""
        """Whether ``create_table`` may fix the deal (a testing aid; see ``fixed_deal_options``)."""
        self.bind = bind
        self.port = port
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
        self.log = log
        self.state = (
            StateDir(state_dir, max_open=self.limits.max_open_journals)
            if state_dir is not None
            else None
        )
        self.runners: dict[str, TableRunner] = {}
        self.scores = Scoreboard(state_dir) if state_dir is not None else None
        """Players' results across games (net.scoreboard; none without a state folder)."""
        self.connections: set[Connection] = set()
        self._journals: dict[str, Any] = {}
        self._server: asyncio.Server | None = None
        self._ping_task: asyncio.Task[None] | None = None
        self._next_table = 1
        self.on_tables_changed: Callable[[], None] | None = None
        self._per_address: dict[str, int] = {}
        self._ping_queue: list[tuple[int, int, Connection]] = []
        """(due, order, connection): when each welcomed connection is next pinged and checked."""
        self._ping_order = itertools.count()
        self._quiet_until = 0.0
        self._quieted = 0

    # Lifecycle -----------------------------------------------------------------

    async def start(self) -> None:
        """Resume the tables on disk, then listen."""
        self._resume()
        self._server = await asyncio.start_server(
            self._serve, self.bind, self.port, reuse_address=True, limit=READ_CHUNK
        )
        self.port = self._server.sockets[0].getsockname()[1]
        self._ping_task = asyncio.get_running_loop().create_task(self._ping_loop())
        resumed = f", {len(self.runners)} table(s) resumed" if self.runners else ""
        self.log(f"Host {self.name!r} listening on {self.bind}:{self.port}{resumed}")

    async def close(self) -> None:
        """Stop listening, tell every client, and close the journals."""
        if self._ping_task is not None:
            self._ping_task.cancel()
        if self._server is not None:
            self._server.close()
        for connection in list(self.connections):
            with contextlib.suppress(Exception):
                connection.protocol.send_error("host_shutdown", "The host is shutting down")
                connection.flush()
                connection.writer.close()
        for runner in self.runners.values():
            runner.close()
        for journal in self._journals.values():
            journal.close()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)
        self.log("Host stopped")

    def _resume(self) -> None:
        """Resume every table on disk; a damaged journal is set aside and never stops the rest."""
        if self.state is None:
            return
        # Ids of damaged journals count too: an id is never handed out twice.
        self._next_table = self.state.highest_number() + 1
        for path in self.state.journal_paths():
            table_id = path.stem
            try:
                records = read_records(path)
                named = records[0].get("id") if records else None
                if records and named != table_id:
                    raise CorruptJournal(f"its table record names table {named!r}")
                journal = self.state.open(table_id)
                table = restore(records, journal.append)
                last_now = max(
                    (float(r["now"]) for r in records if r.get("r") in ("act", "tick")),
                    default=0.0,
                )
                runner = self._runner(table, last_now)
                runner.spectator_chat = chat.rule_of(records)
            except Exception as error:  # one table never stops the host
                self._set_aside(path, error)
                continue
            self._journals[table_id] = journal
            self.runners[table_id] = runner

    def _set_aside(self, path: Path, error: Exception) -> None:
        """Log one line naming a damaged journal and why, and move it out of the way."""
        reason = str(error) if isinstance(error, ValueError) else f"{type(error).__name__}: {error}"
        assert self.state is not None
        try:
            kept = f"kept as {self.state.set_aside(path).name}"
        except OSError as problem:
            kept = f"could not be renamed ({problem.strerror or problem})"
        self.log(f"Damaged table journal {path} not resumed ({reason}); {kept}; other tables go on")

    def _runner(self, table: Any, clock_start: float = 0.0) -> TableRunner:
        return TableRunner(
            table,
            clock_start=clock_start,
            bot_delay_s=self.bot_delay_s,
            bot_reaction_scale=self.bot_reaction_scale,
            log=self.log,
            on_change=self._changed,
            run_unattended=self.run_unattended,
            start_countdown_s=self.start_countdown_s,
        )

    def _changed(self, runner: TableRunner) -> None:
        """A table changed: a finished game is counted on the scoreboard (once)."""
        if self.scores is not None and runner.table.outcome is not None:
            try:
                self.scores.record(runner.table)
            except OSError as error:
                self._log_limited(f"Scores not saved ({error.strerror or error})")
        self._tables_changed()

    def _tables_changed(self) -> None:
        if self.on_tables_changed is not None:
            self.on_tables_changed()

    # Life cycle -----------------------------------------------------------------

    def _closing_reason(self, runner: TableRunner, now: float) -> str | None:
        """Why ``runner``'s table should close at loop time ``now`` (``None``: it stays)."""
        table = runner.table
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
        for table_id, runner in list(self.runners.items()):
            reason = self._closing_reason(runner, now)
            if reason is not None:
                self.close_table(table_id, reason)

    def close_table(self, table_id: str, reason: str) -> None:
        """Close a table: tell whoever is there, stop it, archive its journal, forget it."""
        runner = self.runners.pop(table_id, None)
        if runner is None:
            return
        for attachment in list(runner.attached):
            peer = attachment.peer
            if isinstance(peer, Connection):
                peer.runner = None
                with contextlib.suppress(Exception):
                    peer.protocol.send_error(
                        "table_closed", f"Table {table_id} was closed: {reason}"
                    )
                    peer.send(Left(table=table_id))
        runner.attached.clear()
        runner.close()
        journal = self._journals.pop(table_id, None)
        if journal is not None:
            journal.close()
        archived = ""
        if self.state is not None:
            try:
                path = self.state.archive(table_id)
                archived = f"; journal archived as {path}" if path else ""
            except OSError as error:
                archived = f"; journal could not be archived ({error.strerror or error})"
        self.log(f"[{table_id}] closed: {reason}{archived}")
        self._tables_changed()

    def table_summaries(self) -> list[dict[str, Any]]:
        return [runner.table.summary() for runner in self.runners.values()]

    # Tables ---------------------------------------------------------------------

    def create_table(
        self,
        game: str,
        options: dict[str, Any] | None = None,
        *,
        seats: int | None = None,
        bots: int = 0,
        created_by: str | None = None,
    ) -> TableRunner:
        """Create a table (used by clients' ``create_table`` and ``clowder host --table``)."""
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
        journal: Any = None
        try:
            journal = self.state.create(table_id) if self.state else None
            sink = journal.append if journal else (lambda record: None)
            table = create(
                table_id,
                game,
                options,
                secrets.randbits(63),
                sink,
                seats=seats,
                takeover_s=takeover,
                created_by=created_by,
            )
            if bots < 0 or bots > len(table.seats):
                raise TableError(
                    "invalid_options",
                    f"A table of {len(table.seats)} has 0 to {len(table.seats)} bots",
                )
            for _ in range(bots):
                table.add_bot()
        except (TableError, OSError) as error:
            if journal is not None:
                journal.close()
                journal.path.unlink(missing_ok=True)
            if isinstance(error, OSError):  # out of file descriptors or disk: a refusal
                raise TableError(
                    "too_many_tables",
                    f"The host cannot open another table now ({error.strerror or error})",
                ) from None
            raise
        if journal is not None:
            self._journals[table_id] = journal
        self._next_table += 1
        runner = self.runners[table_id] = self._runner(table)
        if spectator_chat != "shown":
            table.journal(chat.rule_record(spectator_chat, None, None, 0.0))
            runner.spectator_chat = spectator_chat
        self.log(
            f"[{table_id}] new {table.game.title} table, {len(table.seats)} seats, {bots} bot(s)"
        )
        runner.start_if_full()
        self._tables_changed()
        return runner

    def open_tables(self) -> int:
        """Tables not over (what :attr:`HostLimits.max_tables` counts)."""
        return sum(1 for runner in self.runners.values() if runner.table.outcome is None)

    def _new_table_id(self) -> str:
        """The next ``tN`` never used in the state directory (damaged journals included)."""
        while self.state is not None and self.state.used(f"t{self._next_table}"):
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

    # Connections ----------------------------------------------------------------

    def _log_limited(self, line: str) -> None:
        """Log a refusal or a timeout, at most one line every 10 s (a flood is one line)."""
        now = time.monotonic()
        if now < self._quiet_until:
            self._quieted += 1
            return
        more = f" (and {self._quieted} more like it)" if self._quieted else ""
        self.log(line + more)
        self._quiet_until, self._quieted = now + 10.0, 0

    def _admission(self, connection: Connection) -> str | None:
        """Why a new connection is refused (``host_full``), or ``None`` to serve it."""
        if len(self.connections) >= self.connection_budget:
            return (
                f"This host is serving {len(self.connections)} connections, as many as it takes; "
                "try again later"
            )
        from_there = self._per_address.get(connection.ip, 0)
        if from_there >= self.limits.max_connections_per_address:
            return (
                f"This host already serves {from_there} connections from {connection.ip}, "
                "as many as it takes from one address"
            )
        return None

    def _drop(self, connection: Connection, code: str, text: str) -> None:
        """End a connection with a closing ``error`` (a budget or a deadline)."""
        self._log_limited(f"{connection.address}: {code}: {text}")
        with contextlib.suppress(Exception):
            connection.protocol.send_error(code, text)
            connection.flush()
            connection.writer.close()

    def _handshake_due(self, connection: Connection) -> None:
        if connection in self.connections:
            expired = connection.overdue(asyncio.get_running_loop().time(), self.limits)
            if expired is not None:
                self._drop(connection, *expired)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = Connection(self, writer)
        refusal = self._admission(connection)
        if refusal is not None:
            self._drop(connection, "host_full", refusal)
            return
        self.connections.add(connection)
        self._per_address[connection.ip] = self._per_address.get(connection.ip, 0) + 1
        loop = asyncio.get_running_loop()
        deadline = loop.call_later(self.limits.handshake_timeout_s, self._handshake_due, connection)
        try:
            while not connection.protocol.should_close:
                data = await reader.read(READ_CHUNK)
                if not data:
                    break
                connection.read_ns = time.monotonic_ns()
                connection.protocol.receive_data(data, loop.time())
                events = connection.protocol.events_received()
                if events:  # whole messages: a byte dribbled now and then does not count
                    connection.last_read = loop.time()
                await self._handle(connection, events)
        except (ConnectionError, asyncio.IncompleteReadError, OSError):
            pass
        finally:
            deadline.cancel()
            count = self._per_address.pop(connection.ip, 1) - 1
            if count > 0:
                self._per_address[connection.ip] = count
            self.connections.discard(connection)
            if connection.runner is not None:
                connection.runner.detach(connection)
            with contextlib.suppress(Exception):
                connection.flush()
                writer.close()

    async def _handle(self, connection: Connection, events: list[Any]) -> None:
        """Handle what one read brought, :data:`MESSAGES_PER_TURN` messages at a time.

        Between batches every other connection's ready work goes first, so a
        client with a long backlog (a burst, a pipelined batch) delays others by
        at most one batch, not by its whole backlog. A batch's replies to this
        connection are written in one go.
        """
        for start in range(0, len(events), MESSAGES_PER_TURN):
            if start:
                await asyncio.sleep(0)
                if connection.writer.is_closing():
                    return
            connection.corked = True
            try:
                for event in events[start : start + MESSAGES_PER_TURN]:
                    if isinstance(event, ProtocolError):
                        self.log(f"{connection.address}: {event.code}: {event.text}")
                    else:
                        self._dispatch(connection, event)
            finally:
                connection.corked = False
                connection.flush()

    def _dispatch(self, connection: Connection, event: MessageReceived) -> None:
        message = event.message
        ref = getattr(message, "ref", None)
        try:
            if isinstance(message, Hello):
                self._hello(connection, message)
            elif isinstance(message, Ping):
                connection.send(Pong(id=message.id, t=message.t))
            elif isinstance(message, Pong):
                connection.pong(message)
            elif isinstance(message, ListTables):
                connection.send(Tables(tables=self.table_summaries(), ref=ref))
            elif isinstance(message, CreateTable):
                self._create(connection, message)
            elif isinstance(message, Join):
                self._join(connection, message)
            elif isinstance(message, Leave):
                self._leave(connection, message)
            elif isinstance(message, Act):
                self._act(connection, message)
            elif isinstance(message, Typing):
                self._typing(connection, message)
            elif isinstance(message, Chat):
                self._chat(connection, message)
            elif isinstance(message, ChatRule):
                self._chat_rule(connection, message)
            elif isinstance(message, GetScores):
                scores = self.scores.summary() if self.scores is not None else {}
                connection.send(Scores(scores=scores, ref=message.ref))
            elif isinstance(message, ListReplays | GetReplay):
                self._replays(connection, message)
        except TableError as error:
            connection.protocol.send_error(error.code, str(error), about=message)
        except IllegalAction as error:
            connection.protocol.send_error(protocol_code(error), str(error), about=message)
        except Exception as error:  # a bug in a game or the host must cost one request only
            self.log(f"bug: {message.TYPE} from {connection.name} failed: {error!r}")
            connection.protocol.send_error(
                "internal_error",
                f"The host failed on this {message.TYPE!r} ({type(error).__name__}); "
                "it is a bug, and the request changed nothing",
                about=message,
            )

    def _hello(self, connection: Connection, message: Hello) -> None:
        connection.name = message.name
        connection.player = player_id(message.player) if message.player else None
        games = [registry.get(name).describe() for name in registry.names()]
        connection.send(Welcome(protocol=PROTOCOL_VERSION, host_name=self.name, games=games))
        self._queue_ping(connection, time.monotonic_ns())
        if message.token is None:
            return
        for runner in self.runners.values():
            seat = runner.table.seat_of(message.token)
            if seat is not None:
                earlier = [
                    a.peer for a in runner.attached if a.seat == seat and a.peer is not connection
                ]
                connection.runner = runner
                connection.name = runner.table.seats[seat].name or message.name
                table_id = runner.table.id
                connection.send(
                    Joined(table=table_id, role="player", seat=seat, token=message.token)
                )
                runner.attach(connection, seat)
                for peer in earlier:
                    self._taken_over(peer, runner, seat)
                self.log(f"[{table_id}] {connection.name} is back ({connection.address})")
                return
        raise TableError("bad_token", "That seat token holds no seat here; join a table afresh")

    def _taken_over(self, peer: Any, runner: TableRunner, seat: int) -> None:
        """The seat's token came back on another connection: the earlier one leaves the seat.

        It is told (``seat_taken_over``) and stays connected, in the lobby:
        closing it would make a reconnecting client take the seat straight back.
        """
        runner.detach(peer)
        if isinstance(peer, Connection):
            peer.runner = None
            with contextlib.suppress(Exception):
                peer.protocol.send_error(
                    "seat_taken_over",
                    f"Your seat {seat} at table {runner.table.id} was taken over by another "
                    "connection with its token; this one is no longer at the table",
                )
                peer.flush()
        self.log(f"[{runner.table.id}] seat {seat} taken over by a new connection")

    def _runner_for(self, table_id: str) -> TableRunner:
        runner = self.runners.get(table_id)
        if runner is None:
            raise TableError("no_such_table", f"There is no table {table_id!r} on this host")
        return runner

    def _create(self, connection: Connection, message: CreateTable) -> None:
        mine = [
            table_id
            for table_id in connection.tables_created
            if table_id in self.runners and self.runners[table_id].table.outcome is None
        ]
        connection.tables_created = mine
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
            created_by=connection.name,
        )
        connection.tables_created.append(runner.table.id)
        connection.send(Created(table=runner.table.id, ref=message.ref))

    def _join(self, connection: Connection, message: Join) -> None:
        runner = self._runner_for(message.table)
        if connection.runner is not None and connection.runner is not runner:
            connection.runner.detach(connection)
        if message.role == "spectator":
            connection.runner = runner
            connection.send(
                Joined(
                    table=runner.table.id, role="spectator", seat=None, token=None, ref=message.ref
                )
            )
            runner.attach(connection, None)
            return
        seat, token = runner.table.sit(connection.name, message.seat, player=connection.player)
        connection.runner = runner
        connection.send(
            Joined(table=runner.table.id, role="player", seat=seat, token=token, ref=message.ref)
        )
        self.log(
            f"[{runner.table.id}] {connection.name} sits at seat {seat} ({connection.address})"
        )
        runner.attach(connection, seat)
        runner.start_if_full()

    def _leave(self, connection: Connection, message: Leave) -> None:
        runner = self._runner_for(message.table)
        if connection.runner is not runner:
            raise TableError("not_at_table", f"You are not at table {message.table}")
        seat = runner.seat_of(connection)
        runner.detach(connection)
        connection.runner = None
        table = runner.table
        if seat is not None and message.for_now and table.outcome is None:
            # The seat waits for its token; the others see the player stepped away.
            table.seats[seat].stepped_away = True
            self.log(f"[{table.id}] {connection.name} stepped away from seat {seat}")
            runner.broadcast_presence()
        elif seat is not None and not table.started:
            table.unsit(seat)
            runner.broadcast_presence()
        elif seat is not None and table.outcome is None:
            table.give_up(seat)
            self.log(f"[{table.id}] {connection.name} gave seat {seat} up; a bot plays it")
            runner.seat_given_up(seat)
        connection.send(Left(table=message.table, ref=message.ref))
        self._tables_changed()

    def _act(self, connection: Connection, message: Act) -> None:
        runner = self._runner_for(message.table)
        seat = runner.seat_of(connection) if connection.runner is runner else None
        if seat is None:
            raise TableError("not_at_table", f"You do not hold a seat at table {message.table}")
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
            runner.claim(seat, message.action, message.reveal, reaction, connection.read_ns, stamps)
            return
        # Not a claim (a turn, a Black Cat call): applied as it arrives; stamps are ignored.
        runner.act(seat, message.action)

    def _chat(self, connection: Connection, message: Chat) -> None:
        """A chat line (net.chat): not a game action, never seen by the engine."""
        runner = self._runner_for(message.table)
        if connection.runner is not runner:
            raise TableError("not_at_table", f"You are not at table {message.table}")
        try:
            chat.say(runner, connection, message.text, time.monotonic())
        except chat.ChatRefused as error:
            raise TableError(error.code, str(error)) from None

    def _chat_rule(self, connection: Connection, message: ChatRule) -> None:
        """A player hides or shows the spectators' chat (net.chat.set_rule)."""
        runner = self._runner_for(message.table)
        if connection.runner is not runner:
            raise TableError("not_at_table", f"You are not at table {message.table}")
        try:
            chat.set_rule(runner, connection, message.spectator_chat)
        except chat.PlayersOnly as error:
            raise TableError(error.code, str(error)) from None

    def _replays(self, connection: Connection, message: ListReplays | GetReplay) -> None:
        """Finished games only (``net.replays``): a game under way is refused, for secrecy."""
        root = self.state.root if self.state is not None else None
        over = [i for i, r in self.runners.items() if r.table.outcome is not None]
        if isinstance(message, ListReplays):
            connection.send(Replays(replays=replays.host_list(root, over), ref=message.ref))
            return
        try:
            record = replays.host_get(root, message.table, self.runners)
        except replays.ReplayError as error:
            raise TableError(error.code, str(error)) from None
        connection.send(Replay(replay=record.to_data(), ref=message.ref))

    def _typing(self, connection: Connection, message: Typing) -> None:
        """A typing notice: the stamps of an answer being typed (no reply when taken)."""
        runner = self._runner_for(message.table)
        seat = runner.seat_of(connection) if connection.runner is runner else None
        if seat is None:
            raise TableError("not_at_table", f"You do not hold a seat at table {message.table}")
        if runner.counting_down():
            raise TableError("not_started", "The game has not begun; wait for the countdown")
        runner.typing_notice(
            seat, message.reveal, message.drawn_ns, message.acted_ns, connection.read_ns
        )

    def _queue_ping(self, connection: Connection, due_ns: int) -> None:
        heapq.heappush(self._ping_queue, (due_ns, next(self._ping_order), connection))

    async def _ping_loop(self) -> None:
        """Ping each connection when its clock estimate wants it; send presence now and then.

        Welcomed connections wait in a queue ordered by when they are due, so a
        wake-up costs the connections due then, not every connection. Each is
        checked against the idle deadline when its turn comes (at least once
        a ping interval).
        """
        loop = asyncio.get_running_loop()
        last_presence = next_freeze = next_sweep = loop.time()
        presence_due = 0.0
        presence_order: list[TableRunner] = []
        queue = self._ping_queue
        while True:
            now = time.monotonic_ns()
            while queue and queue[0][0] <= now:
                _due, _order, connection = heapq.heappop(queue)
                if connection not in self.connections or connection.writer.is_closing():
                    continue
                expired = connection.overdue(loop.time(), self.limits)
                if expired is not None:
                    self._drop(connection, *expired)
                    continue
                if connection.next_ping_ns(now) <= now:
                    with contextlib.suppress(Exception):
                        connection.ping()
                self._queue_ping(connection, max(connection.next_ping_ns(now), now + 1))
            poll = now + int(PING_POLL_S * 1e9)
            wake = min(queue[0][0], poll) if queue else poll
            if loop.time() >= next_sweep:
                next_sweep = loop.time() + SWEEP_S
                self._sweep(loop.time())
            if self.freeze_gc and loop.time() >= next_freeze:
                next_freeze = loop.time() + GC_FREEZE_S
                gc.freeze()
            # Each table's presence every PRESENCE_INTERVAL_S, spread over the interval:
            # hundreds of tables at once would stall everyone's round trip.
            elapsed, last_presence = loop.time() - last_presence, loop.time()
            presence_due += len(self.runners) * elapsed / PRESENCE_INTERVAL_S
            while presence_due >= 1:
                presence_due -= 1
                if not presence_order:
                    presence_order = list(self.runners.values())[::-1]
                runner = presence_order.pop()
                if runner.attached and runner.table.id in self.runners:
                    runner.broadcast_presence()
            await asyncio.sleep(max(0.005, (wake - now) / 1e9))

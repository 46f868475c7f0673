"""A Clowder client: connect, handshake, send intents, receive views, stay connected.

The asyncio adapter around :class:`~net.wire.protocol.ClientProtocol`. Requests
that have an answer (``list_tables``, ``create_table``, ``join``, ``leave``)
are awaited: each carries a ``ref`` the host echoes in its reply or error.
Everything else the host sends (views, presence, errors about actions) lands
in :attr:`Client.incoming`, in order, together with
:class:`ConnectionState` notes when the link drops or comes back.

When the connection drops the client reconnects by itself, with growing
pauses, and says ``hello`` with its seat token, so the host gives the seat
and the full current view back. It pings the host to measure the round trip.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import itertools
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from net.wire.messages import (
    PROTOCOL_VERSION,
    Act,
    Chat,
    ChatRule,
    Created,
    CreateTable,
    Error,
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
    Role,
    Scores,
    Tables,
    Typing,
    Welcome,
)
from net.wire.protocol import ClientProtocol, MessageReceived, ProtocolError

READ_CHUNK = 65536
PING_INTERVAL_S = 1.0
CONNECT_TIMEOUT_S = 5.0
REQUEST_TIMEOUT_S = 10.0
RECONNECT_DELAYS_S = (0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
"""Pauses between reconnection attempts; the last repeats until the client is closed."""

M = TypeVar("M", bound=Message)


@dataclass(frozen=True, slots=True)
class ConnectionState:
    """Put on :attr:`Client.incoming` when the link drops or comes back."""

    connected: bool
    detail: str


class ClientError(Exception):
    """The host refused a request (``code`` from the protocol's error list) or the link failed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def unreachable_text(host: str, port: int, error: BaseException) -> str:
    """A sentence for people on why ``host:port`` could not be reached (no errno numbers)."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if isinstance(error, TimeoutError):
        return f"{where} did not answer within {CONNECT_TIMEOUT_S:g} s"
    if isinstance(error, ConnectionRefusedError):
        return f"Nothing is listening at {where}"
    if isinstance(error, socket.gaierror):
        return f"There is no host called {host!r} on this network"
    code = getattr(error, "errno", None)
    if code in (errno.EHOSTUNREACH, errno.ENETUNREACH, errno.EHOSTDOWN):
        return f"No route to {host}: it is not on this network, or it is off"
    if code == errno.ECONNRESET:
        return f"{where} closed the connection at once"
    reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return f"Cannot reach {where}: {reason}"


class Client:
    """One connection to one host, kept alive until :meth:`close`."""

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        *,
        token: str | None = None,
        player_key: str | None = None,
        reconnect: bool = True,
        ping_interval_s: float = PING_INTERVAL_S,
    ) -> None:
        self.host = host
        self.port = port
        self.name = name
        self.token = token
        self.player_key = player_key
        """The player's own secret (``hello.player``): how the host's scoreboard knows them."""
        self.reconnect = reconnect
        self.ping_interval_s = ping_interval_s
        self.incoming: asyncio.Queue[Message | ConnectionState] = asyncio.Queue()
        self.welcome: Welcome | None = None
        self.rtt_ms: float | None = None
        self.connected = False
        self.on_message: Callable[[Message | ConnectionState], None] | None = None
        self._protocol = ClientProtocol()
        self._writer: asyncio.StreamWriter | None = None
        self._reader: asyncio.StreamReader | None = None
        self._refs = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Message]] = {}
        self._pings: dict[int, int] = {}
        self._ping_ids = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._closed = False
        self._early: list[Message] = []

    # Connecting ---------------------------------------------------------------

    async def connect(self) -> Welcome:
        """Connect and handshake; afterwards the client keeps itself connected."""
        welcome = await self._open()
        self._deliver_early()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._run()), loop.create_task(self._ping_loop())]
        return welcome

    def _deliver_early(self) -> None:
        early, self._early = self._early, []
        for message in early:
            self._deliver(message)

    async def _open(self) -> Welcome:
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT_S):
                reader, writer = await asyncio.open_connection(
                    self.host, self.port, limit=READ_CHUNK
                )
        except (OSError, TimeoutError) as error:
            text = unreachable_text(self.host, self.port, error)
            raise ClientError("unreachable", text) from None
        self._protocol = ClientProtocol()
        self._early = []  # what came with the welcome, delivered after it
        self.welcome = None
        self._reader, self._writer = reader, writer
        self._protocol.send(
            Hello(
                protocol=PROTOCOL_VERSION, name=self.name, token=self.token, player=self.player_key
            )
        )
        self._flush()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CONNECT_TIMEOUT_S
        while not self._protocol.handshake_done:
            remaining = deadline - loop.time()
            try:
                async with asyncio.timeout(max(remaining, 0.01)):
                    data = await reader.read(READ_CHUNK)
            except TimeoutError:
                writer.close()
                raise ClientError("timeout", "The host did not answer the handshake") from None
            if not data:
                writer.close()
                raise ClientError("closed", "The host closed the connection")
            self._protocol.receive_data(data, loop.time())
            for event in self._protocol.events_received():
                if isinstance(event, MessageReceived) and isinstance(event.message, Welcome):
                    self.welcome = event.message
                elif isinstance(event, MessageReceived) and isinstance(event.message, Error):
                    if self.welcome is None or self._protocol.should_close:
                        writer.close()
                        raise ClientError(event.message.code, event.message.message)
                    self._early.append(event.message)
                elif isinstance(event, MessageReceived):
                    self._early.append(event.message)
                else:
                    writer.close()
                    raise ClientError(event.code, event.text)
        self.connected = True
        assert self.welcome is not None
        return self.welcome

    async def close(self) -> None:
        """Disconnect for good (no reconnection)."""
        self._closed = True
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            # asyncio.wait, not ``await task`` under suppress(CancelledError): a cancel of
            # close() itself must still end close() (and whoever awaits it).
            await asyncio.wait(self._tasks)
        for task in self._tasks:
            if not task.cancelled():
                task.exception()  # retrieved: a task that failed before close() is not news
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(Exception):
                await self._writer.wait_closed()
        self.connected = False
        self._fail_waiting("closed", "The client was closed")

    # Requests -----------------------------------------------------------------

    async def list_tables(self) -> list[dict[str, Any]]:
        reply = await self._request(ListTables(ref=next(self._refs)), Tables)
        return reply.tables

    async def chat(self, table: str, text: str) -> None:
        """Say a line at ``table``; it comes back as a ``chat`` on :attr:`incoming` (or an
        ``error``, ``chat_refused``, when empty or said too fast)."""
        self._send(Chat(table=table, text=text))

    async def chat_rule(self, table: str, rule: str) -> None:
        """Hide (``"hidden"``) or show the spectators' chat to the players at ``table`` (a
        player only); the new rule comes back as a ``chat_rule`` on :attr:`incoming`, or an
        ``error`` (``players_only``) for a spectator."""
        if rule not in ("shown", "hidden"):
            raise ClientError(
                "bad_field", f"The spectators' chat is 'shown' or 'hidden', not {rule!r}"
            )
        self._send(ChatRule(table=table, spectator_chat="hidden" if rule == "hidden" else "shown"))

    async def get_scores(self) -> dict[str, Any]:
        """The host's scoreboard (``net.store.scoreboard.Scoreboard.summary``)."""
        reply = await self._request(GetScores(ref=next(self._refs)), Scores)
        return reply.scores

    async def list_replays(self) -> list[dict[str, Any]]:
        """The finished games the host keeps (``net.store.replays.summary`` maps), newest first."""
        reply = await self._request(ListReplays(ref=next(self._refs)), Replays)
        return reply.replays

    async def get_replay(self, table: str) -> dict[str, Any]:
        """One finished game's record (``net.store.replays.GameRecord.to_data``)."""
        reply = await self._request(GetReplay(table=table, ref=next(self._refs)), Replay)
        return reply.replay

    async def create_table(
        self,
        game: str,
        options: dict[str, Any] | None = None,
        seats: int | None = None,
        bots: int = 0,
        bot_level: str | None = None,
    ) -> str:
        """Open a table (its ``bots`` at ``bot_level``, or the host's default); its id."""
        message = CreateTable(
            game=game,
            options=options,
            seats=seats,
            bots=bots,
            bot_level=bot_level,
            ref=next(self._refs),
        )
        reply = await self._request(message, Created)
        return reply.table

    async def join(self, table: str, role: Role = "player", seat: int | None = None) -> Joined:
        reply = await self._request(
            Join(table=table, role=role, seat=seat, ref=next(self._refs)), Joined
        )
        if reply.token is not None:
            self.token = reply.token
        return reply

    async def leave(self, table: str, *, for_now: bool = False) -> None:
        """Leave ``table``; ``for_now`` keeps the seat for this client's token."""
        message = Leave(table=table, for_now=True if for_now else None, ref=next(self._refs))
        await self._request(message, Left)

    async def act(
        self,
        table: str,
        action: dict[str, Any],
        *,
        reveal: int | None = None,
        drawn_ns: int | None = None,
        acted_ns: int | None = None,
    ) -> None:
        """Send an intent; the new view (or an error) arrives on :attr:`incoming`."""
        self._send(
            Act(table=table, action=action, reveal=reveal, drawn_ns=drawn_ns, acted_ns=acted_ns)
        )

    async def typing(self, table: str, *, reveal: int, drawn_ns: int, acted_ns: int) -> None:
        """Send a typing notice: the stamps of an answer whose typing just started.

        Optional (games with typed claims, Katootsie's answers): the answer sent
        later with the same stamps is then credited against this arrival, not
        its own. No reply; a refusal arrives as an ``error`` on :attr:`incoming`.
        """
        self._send(Typing(table=table, reveal=reveal, drawn_ns=drawn_ns, acted_ns=acted_ns))

    async def _request(self, message: Message, reply_type: type[M]) -> M:
        ref = getattr(message, "ref", None)  # every request type has one
        assert isinstance(ref, int)
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._waiting[ref] = future
        try:
            self._send(message)
            async with asyncio.timeout(REQUEST_TIMEOUT_S):
                reply = await future
        except TimeoutError:
            raise ClientError("timeout", "The host did not answer in time") from None
        finally:
            self._waiting.pop(ref, None)
        if isinstance(reply, Error):
            raise ClientError(reply.code, reply.message)
        if not isinstance(reply, reply_type):
            raise ClientError(
                "bad_reply", f"Expected {reply_type.__name__}, got {type(reply).__name__}"
            )
        return reply

    # Plumbing -----------------------------------------------------------------

    def _send(self, message: Message) -> None:
        if not self.connected:
            raise ClientError("disconnected", "Not connected to the host (reconnecting)")
        self._protocol.send(message)
        self._flush()

    def _flush(self) -> None:
        data = self._protocol.data_to_send()
        if data and self._writer is not None and not self._writer.is_closing():
            self._writer.write(data)

    def _deliver(self, message: Message | ConnectionState) -> None:
        ref = getattr(message, "ref", None)
        if ref is not None and ref in self._waiting and not self._waiting[ref].done():
            self._waiting[ref].set_result(message)  # type: ignore[arg-type]
            if not isinstance(message, Joined | Error):
                return
        if isinstance(message, Ping):
            self._protocol.send(Pong(id=message.id, t=message.t, at=time.monotonic_ns()))
            self._flush()
            return
        if isinstance(message, Pong):
            sent = self._pings.pop(message.id, None)
            if sent is not None and sent == message.t:
                self.rtt_ms = (time.monotonic_ns() - sent) / 1e6
            return
        if isinstance(message, Joined) and message.token is not None:
            self.token = message.token
        self.incoming.put_nowait(message)
        if self.on_message is not None:
            self.on_message(message)

    def _fail_waiting(self, code: str, text: str) -> None:
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ClientError(code, text))
        self._waiting.clear()

    async def _run(self) -> None:
        """Read until the link drops; then reconnect (with the token) unless closed."""
        loop = asyncio.get_running_loop()
        while not self._closed:
            reader = self._reader
            assert reader is not None
            try:
                while True:
                    data = await reader.read(READ_CHUNK)
                    if not data:
                        break
                    self._protocol.receive_data(data, loop.time())
                    for event in self._protocol.events_received():
                        if isinstance(event, MessageReceived):
                            self._deliver(event.message)
                        elif isinstance(event, ProtocolError):
                            self._deliver(ConnectionState(self.connected, event.text))
                    self._flush()
                    if self._protocol.should_close:
                        break
            except (ConnectionError, OSError):
                pass
            self.connected = False
            if self._writer is not None:
                self._writer.close()
            self._fail_waiting("disconnected", "The connection to the host dropped")
            if self._closed or not self.reconnect:
                self._deliver(ConnectionState(False, "Disconnected from the host"))
                return
            self._deliver(ConnectionState(False, "Connection lost; reconnecting..."))
            await self._reconnect()

    async def _reconnect(self) -> None:
        for attempt in itertools.count():
            delay = RECONNECT_DELAYS_S[min(attempt, len(RECONNECT_DELAYS_S) - 1)]
            await asyncio.sleep(delay)
            if self._closed:
                return
            try:
                await self._open()
            except ClientError as error:
                if error.code == "bad_token":
                    self.token = None
                continue
            self._deliver(ConnectionState(True, f"Reconnected to {self.host}:{self.port}"))
            self._deliver_early()
            return

    async def _ping_loop(self) -> None:
        while not self._closed:
            await asyncio.sleep(self.ping_interval_s)
            if not self.connected:
                continue
            ping_id = next(self._ping_ids)
            sent = time.monotonic_ns()
            self._pings[ping_id] = sent
            if len(self._pings) > 8:
                self._pings.pop(min(self._pings))
            with contextlib.suppress(ClientError, Exception):
                self._send(Ping(id=ping_id, t=sent))

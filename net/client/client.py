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

Bytes from the host are handled as they arrive, in the event loop's own
callback (:class:`_Link`, an ``asyncio.Protocol``), not by a task reading a
stream: a view costs no task wake-up, no future and no copy through a stream
buffer, which were about a third of a client's processor time per view.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import itertools
import socket
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from net.wire.messages import (
    PROTOCOL_VERSION,
    Act,
    Again,
    AgainAnswer,
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
    Learn,
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


def unreachable_text(host: str, port: int, error: BaseException, shown: str | None = None) -> str:
    """A sentence for people on why ``host:port`` could not be reached (no errno numbers).

    ``shown``: the host's address as the player reached it (``ADDRESS:PORT``), named
    instead: an SSH or browser player's client joins the host at 127.0.0.1, an address
    that means the player's own computer to them (issue 36, item 4).
    """
    where = shown or (f"[{host}]:{port}" if ":" in host else f"{host}:{port}")
    if shown:
        host = shown.rpartition(":")[0] or shown
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


class _Link(asyncio.Protocol):
    """One TCP connection to the host: hands each chunk of bytes to its client at once."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.transport: asyncio.Transport | None = None
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        """Done once the connection is gone (whichever end closed it)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.client._received(self, data)

    def eof_received(self) -> bool:
        return False  # the host closed its end: close ours too

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)
        self.client._lost(self)

    def write(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


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
        shown_as: str | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.shown_as = shown_as
        """The host's ``ADDRESS:PORT`` as the player reached it, named in this client's texts
        (``None``: ``host:port``): an SSH gateway's client connects at 127.0.0.1."""
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
        self._link: _Link | None = None
        """The connection now (``None`` before the first)."""
        self._handshake: asyncio.Future[Welcome] | None = None
        """While a connection's handshake runs: its ``welcome`` (or its failure)."""
        self._holding = True
        """Messages are kept in :attr:`_early` (not delivered) until :meth:`_deliver_early`:
        whatever came with the ``welcome`` goes out after :meth:`connect` has returned it."""
        self._refs = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Message]] = {}
        self._pings: dict[int, int] = {}
        self._ping_ids = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self.tonight: dict[str, Any] | None = None
        """Tonight's standings as the host last said them (``scores.tonight``)."""
        self._closed = False
        self._early: list[Message] = []

    # Connecting ---------------------------------------------------------------

    async def connect(self) -> Welcome:
        """Connect and handshake; afterwards the client keeps itself connected."""
        welcome = await self._open()
        self._deliver_early()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._ping_loop())]
        return welcome

    def _deliver_early(self) -> None:
        early, self._early = self._early, []
        self._holding = False
        for message in early:
            self._deliver(message)

    async def _open(self) -> Welcome:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT_S):
                _, link = await loop.create_connection(lambda: _Link(self), self.host, self.port)
        except (OSError, TimeoutError) as error:
            text = unreachable_text(self.host, self.port, error, self.shown_as)
            raise ClientError("unreachable", text) from None
        self._protocol = ClientProtocol()
        self._early = []  # what came with the welcome, delivered after it
        self._holding = True
        self.welcome = None
        handshake: asyncio.Future[Welcome] = loop.create_future()
        self._handshake = handshake
        self._link = link
        self._protocol.send(
            Hello(
                protocol=PROTOCOL_VERSION, name=self.name, token=self.token, player=self.player_key
            )
        )
        self._flush()
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT_S):
                welcome = await handshake
        except TimeoutError:
            link.close()
            raise ClientError("timeout", "The host did not answer the handshake") from None
        except ClientError:
            link.close()
            raise
        finally:
            self._handshake = None
        self.connected = True
        return welcome

    def _received(self, link: _Link, data: bytes) -> None:
        """Bytes from the host (the event loop calls this as they arrive): every message in
        them is delivered at once, or kept while the handshake runs."""
        if link is not self._link:
            return  # an older connection's last bytes
        protocol = self._protocol
        protocol.receive_data(data, asyncio.get_running_loop().time())
        handshake = self._handshake
        for event in protocol.events_received():
            if handshake is not None and not handshake.done():
                self._during_handshake(event, handshake)
            elif isinstance(event, MessageReceived):
                if self._holding:
                    self._early.append(event.message)
                else:
                    self._deliver(event.message)
            elif isinstance(event, ProtocolError):
                self._deliver(ConnectionState(self.connected, event.text))
        self._flush()
        if protocol.should_close:
            link.close()

    def _during_handshake(self, event: object, handshake: asyncio.Future[Welcome]) -> None:
        """One event before the ``welcome`` came: it, an error refusing us, or an early one."""
        if isinstance(event, MessageReceived) and isinstance(event.message, Welcome):
            self.welcome = event.message
            handshake.set_result(event.message)
        elif isinstance(event, MessageReceived) and isinstance(event.message, Error):
            if self.welcome is None or self._protocol.should_close:
                message = event.message
                handshake.set_exception(ClientError(message.code, message.message))
            else:
                self._early.append(event.message)
        elif isinstance(event, MessageReceived):
            self._early.append(event.message)
        elif isinstance(event, ProtocolError):
            handshake.set_exception(ClientError(event.code, event.text))

    def _lost(self, link: _Link) -> None:
        """The connection ``link`` is gone: fail its handshake, or say so and reconnect."""
        if link is not self._link:
            return
        handshake = self._handshake
        if handshake is not None:
            if not handshake.done():
                handshake.set_exception(ClientError("closed", "The host closed the connection"))
            return
        was_connected, self.connected = self.connected, False
        self._fail_waiting("disconnected", "The connection to the host dropped")
        if not was_connected and self._closed:
            return
        if self._closed or not self.reconnect:
            self._deliver(ConnectionState(False, "Disconnected from the host"))
            return
        self._deliver(ConnectionState(False, "Connection lost; reconnecting..."))
        self._tasks.append(asyncio.get_running_loop().create_task(self._reconnect()))

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
        link = self._link
        if link is not None:
            link.close()
            with contextlib.suppress(Exception):
                async with asyncio.timeout(CONNECT_TIMEOUT_S):
                    await asyncio.wait([link.closed])
        self.connected = False
        self._fail_waiting("closed", "The client was closed")

    @property
    def _writer(self) -> _Link | None:
        """The connection now (its ``transport``), for tests that drop the link as a failing
        network would (``client._writer.transport.abort()``)."""
        return self._link

    # Requests -----------------------------------------------------------------

    async def arrivals(self, within_s: float) -> AsyncIterator[Message | ConnectionState]:
        """What comes on :attr:`incoming` for ``within_s`` seconds, as it comes (the caller
        stops early by leaving the loop; nothing taken is put back)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within_s
        while (left := deadline - loop.time()) > 0:
            try:
                async with asyncio.timeout(left):
                    message = await self.incoming.get()
            except TimeoutError:
                return
            yield message

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
        self.tonight = reply.tonight
        return reply.scores

    async def get_tonight(self) -> dict[str, Any] | None:
        """Tonight's standings on the host (``net.store.night``; ``None``: it keeps none)."""
        reply = await self._request(GetScores(ref=next(self._refs)), Scores)
        self.tonight = reply.tonight
        return reply.tonight

    async def again(self, table: str, game: str | None = None, *, bots: int | None = None) -> None:
        """Ask everyone at finished ``table`` to play again (``game``: another game, with
        ``bots`` more); or say yes to the proposal open there. The host answers with views
        (``view.again``) and, when the new game starts, ``joined`` with ``moved_from``."""
        self._send(Again(table=table, game=game, bots=bots))

    async def again_answer(self, table: str, accept: bool) -> None:
        """Answer the proposal to play again open at finished ``table``."""
        self._send(AgainAnswer(table=table, accept=accept))

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

    async def learn(self, table: str, *, hold: int | None = None, pace: int | None = None) -> None:
        """Learn the game at ``table`` (alone with bots): ``hold`` the next moments this player
        may claim in until they go on, bots ``pace`` times slower; without ``hold``, let a
        held moment go on (``Learning`` in PROTOCOL.md). No reply; a refusal arrives as an
        ``error`` on :attr:`incoming`."""
        self._send(Learn(table=table, hold=hold, pace=pace))

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
        if data and self._link is not None:
            self._link.write(data)

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
            where = self.shown_as or f"{self.host}:{self.port}"
            self._deliver(ConnectionState(True, f"Reconnected to {where}"))
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

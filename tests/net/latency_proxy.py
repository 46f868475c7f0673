"""A TCP proxy on loopback that delays what passes through it: simulated network latency.

Host and client tests run on one machine, where a round trip takes tens of
microseconds; the real-time arbitration and the reconnection logic must also
be right when it takes tens of milliseconds. Putting this proxy between a
client and a host adds a one-way delay to each direction (plus optional
jitter from a seeded generator, so a failing run can be replayed) without
touching either side::

    async with LatencyProxy("127.0.0.1", host.port, upstream=Delay(0.02)) as proxy:
        client = Client("127.0.0.1", proxy.port, "Ann")

Guarantees, which the tests rely on:

* **Never early.** A chunk read at time ``t`` is written no sooner than
  ``t + base + jitter`` (the proxy re-checks the clock after sleeping).
* **In order.** Jitter never reorders bytes: a chunk is never due before the
  one read ahead of it (TCP would not reorder either; it would delay).
* **Bounded.** Each direction of each connection buffers at most
  ``max_buffered`` bytes; beyond that the proxy stops reading and TCP's own
  flow control pushes back on the sender. At most ``max_connections``
  connections are served at once; more are closed on arrival.
* **Clean ends.** End of stream is forwarded as a half-close after the data
  before it; a reset on one side aborts the other; :meth:`LatencyProxy.close`
  stops listening and closes every connection.
* **Loopback only.** Both the listening and the target address must be
  loopback addresses, so a test can never reach beyond the machine.
"""

from __future__ import annotations

import asyncio
import ipaddress
import itertools
import math
import random
from dataclasses import dataclass
from types import TracebackType

READ_CHUNK = 65536
DEFAULT_MAX_BUFFERED = 1 << 20
DEFAULT_MAX_CONNECTIONS = 64


class ProxyError(ValueError):
    """A setting the proxy refuses: a delay that is not a time, or a non-loopback address."""


@dataclass(frozen=True, slots=True)
class Delay:
    """One direction's one-way delay: ``base_s`` always, plus up to ``jitter_s`` more.

    The extra is uniform in ``[0, jitter_s]``, so ``base_s`` is a lower bound
    a test may assert on.
    """

    base_s: float = 0.0
    jitter_s: float = 0.0

    def __post_init__(self) -> None:
        for name, value in (("base_s", self.base_s), ("jitter_s", self.jitter_s)):
            if not (math.isfinite(value) and value >= 0):
                raise ProxyError(f"A delay's {name} is a number of seconds >= 0, not {value!r}")


class DelayLine:
    """When each chunk of one direction may leave: at least ``base_s`` after it came, in order."""

    def __init__(self, delay: Delay, rng: random.Random) -> None:
        self.delay = delay
        self._rng = rng
        self._last_due = -math.inf

    def due(self, arrived: float) -> float:
        """The earliest time a chunk read at ``arrived`` may be written."""
        extra = self._rng.uniform(0.0, self.delay.jitter_s) if self.delay.jitter_s else 0.0
        due = max(arrived + self.delay.base_s + extra, self._last_due)
        self._last_due = due
        return due


def _require_loopback(host: str, what: str) -> None:
    if host == "localhost":
        return
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ProxyError(f"The proxy's {what} must be a loopback address, not {host!r}")


class _Direction:
    """One direction of one proxied connection: read, hold until due, write."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        line: DelayLine,
        max_buffered: int,
        proxy: LatencyProxy,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._line = line
        self._max_buffered = max_buffered
        self._proxy = proxy
        self._queue: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()
        self._buffered = 0
        self._room = asyncio.Condition()

    async def pump(self) -> None:
        """Read chunks and queue them with their due time; stop reading when the buffer is full."""
        loop = asyncio.get_running_loop()
        while True:
            async with self._room:
                await self._room.wait_for(lambda: self._buffered < self._max_buffered)
                room = self._max_buffered - self._buffered
            data = await self._reader.read(min(READ_CHUNK, room))
            if not data:
                self._queue.put_nowait(None)
                return
            self._buffered += len(data)
            self._proxy.note_buffered(self._buffered)
            self._queue.put_nowait((self._line.due(loop.time()), data))

    async def deliver(self) -> None:
        """Write each chunk once it is due (never before), then forward the end of stream."""
        loop = asyncio.get_running_loop()
        while True:
            item = await self._queue.get()
            if item is None:
                if self._writer.can_write_eof():
                    self._writer.write_eof()
                return
            due, data = item
            while (wait := due - loop.time()) > 0:
                await asyncio.sleep(wait)
            self._writer.write(data)
            await self._writer.drain()
            async with self._room:
                self._buffered -= len(data)
                self._room.notify_all()


class LatencyProxy:
    """Forwards ``listen_host:listen_port`` to ``target_host:target_port`` with delays.

    ``upstream`` delays what the connecting side sends to the target,
    ``downstream`` what comes back. Port 0 (the default) picks a free port;
    read it from :attr:`port` after :meth:`start`. ``seed`` makes the jitter
    reproducible: connection ``n`` (0, 1, ...) draws from its own generators
    derived from it.
    """

    def __init__(
        self,
        target_host: str,
        target_port: int,
        *,
        upstream: Delay = Delay(),
        downstream: Delay = Delay(),
        seed: int = 0,
        listen_host: str = "127.0.0.1",
        listen_port: int = 0,
        max_buffered: int = DEFAULT_MAX_BUFFERED,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
    ) -> None:
        _require_loopback(target_host, "target")
        _require_loopback(listen_host, "listening address")
        if max_buffered < 1 or max_connections < 1:
            raise ProxyError("max_buffered and max_connections must be at least 1")
        self.target_host = target_host
        self.target_port = target_port
        self.upstream = upstream
        self.downstream = downstream
        self.seed = seed
        self.listen_host = listen_host
        self.port = listen_port
        self.max_buffered = max_buffered
        self.max_connections = max_connections
        self.peak_buffered = 0
        """The most bytes one direction of one connection ever held (at most ``max_buffered``)."""
        self.connections_served = 0
        self._numbers = itertools.count()
        self._links: set[asyncio.Task[None]] = set()
        self._server: asyncio.Server | None = None

    async def start(self) -> int:
        """Start listening; returns the port."""
        self._server = await asyncio.start_server(
            self._accept, self.listen_host, self.port, limit=READ_CHUNK
        )
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        """Stop listening and close every proxied connection (pending delayed data is dropped)."""
        if self._server is not None:
            self._server.close()
        links = list(self._links)
        for link in links:
            link.cancel()
        if links:
            await asyncio.wait(links)  # a cancel of close() itself still ends close()
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None

    async def __aenter__(self) -> LatencyProxy:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    def note_buffered(self, buffered: int) -> None:
        self.peak_buffered = max(self.peak_buffered, buffered)

    async def _accept(
        self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter
    ) -> None:
        task = asyncio.current_task()
        if len(self._links) >= self.max_connections or task is None:
            client_writer.transport.abort()
            return
        self._links.add(task)
        try:
            await self._link(next(self._numbers), client_reader, client_writer)
        finally:
            self._links.discard(task)

    async def _link(
        self,
        number: int,
        client_reader: asyncio.StreamReader,
        client_writer: asyncio.StreamWriter,
    ) -> None:
        target_writer: asyncio.StreamWriter | None = None
        try:
            target_reader, target_writer = await asyncio.open_connection(
                self.target_host, self.target_port, limit=READ_CHUNK
            )
            self.connections_served += 1
            up = _Direction(
                client_reader,
                target_writer,
                DelayLine(self.upstream, random.Random(self.seed * 1_000_003 + 2 * number)),
                self.max_buffered,
                self,
            )
            down = _Direction(
                target_reader,
                client_writer,
                DelayLine(self.downstream, random.Random(self.seed * 1_000_003 + 2 * number + 1)),
                self.max_buffered,
                self,
            )
            async with asyncio.TaskGroup() as group:
                for step in (up.pump(), up.deliver(), down.pump(), down.deliver()):
                    group.create_task(step)
        except* (ConnectionError, OSError):
            # A reset or refusal on either side: the other side is cut off too (below).
            for writer in (client_writer, target_writer):
                if writer is not None:
                    writer.transport.abort()
        finally:
            for writer in (client_writer, target_writer):
                if writer is not None and not writer.is_closing():
                    writer.close()

"""Capacity: a host with N tables of bots at human pace and idle spectators, probed.

For each N (25, 100 and 250 tables; ``--quick``: 10 and 25, shorter) a real
:class:`net.doors.host.Host` runs in **its own process** (journaling to a temporary
state directory) with N Catchy! tables, each played by two in-host bots that
wait :data:`BOT_DELAY_S` before each move (about one action per table per
second, as people play) and watched by :data:`SPECTATORS_PER_TABLE`
spectators, so N = 250 means 1,000 connections. The tables are opened over
one second, so their moves do not fall in step. The spectators are lean
asyncio connections, many per process, in :data:`CLIENT_PROCESSES`
processes; they answer the host's pings like any client.

Figures, over a window after a warm-up:

* ``prober_p50_ms``/``prober_p99_ms``: round trips of a prober (its own
  process, a blocking socket) sending a ``ping`` every
  :data:`PROBE_INTERVAL_S` and waiting for the ``pong``: how responsive the
  host is to one more client while loaded;
* ``views_p99_ms``: action to all views, from the host stamping a change
  (just before its broadcast) to the last of that table's spectators decoding
  its view (``CLOCK_MONOTONIC`` is one clock for every process);
* ``actions_per_s``: changes broadcast per second (bots' moves and deals);
* ``host_cpu_pct`` (of one core), ``host_rss_mib`` (at the end; ``peak`` in
  the JSON), ``host_fds``: descriptors open in the host's process.

Baselines, in the same run: the row with N = 0 is the same host with only the
prober connected; ``loopback_rtt_p50_ms`` is a plain TCP echo between two
processes, taken just before each row (see :mod:`tests.perf.bench_latency`).
The goal of issue 14: 250 tables / 1,000 connections with prober p99 <= 20 ms
and RSS <= 300 MiB on a 2-core machine.

Everything is on 127.0.0.1, bounded in connections and time, and stops by
itself: every wait has a deadline (:data:`WAIT_S`) and every process is
reaped at the end of its row.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import multiprocessing.connection
import os
import resource
import socket
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

from net.core.limits import HostLimits
from net.core.table import TableRunner
from net.doors.host import Host
from net.wire.framing import CLIENT_LIMITS, HOST_LIMITS, FrameReader, encode_frame
from net.wire.messages import PROTOCOL_VERSION
from tests.perf.bench_latency import _echo_process, loopback_rtts_ns, percentile
from tests.perf.report import Report

GAME = "catchy"
OPTIONS = {"target": 99}
"""Long games: a table keeps playing through the window."""
SIZES = (25, 100, 250)
QUICK_SIZES = (10, 25)
SPECTATORS_PER_TABLE = 4
CLIENT_PROCESSES = 4
BOT_DELAY_S = 1.0
PROBE_INTERVAL_S = 0.05
FULL = {"warmup_s": 3.0, "window_s": 15.0, "rtt_pings": 200}
QUICK = {"warmup_s": 1.5, "window_s": 4.0, "rtt_pings": 50}
CONNECT_BATCH = 25
"""Connections a client process opens at once (the listen backlog is 100)."""
WAIT_S = 60.0
"""Longest wait for any one step before the run is abandoned."""
NOFILE_WANTED = 8192

CONTEXT = multiprocessing.get_context("spawn")

Pipe = multiprocessing.connection.Connection


class BenchmarkError(RuntimeError):
    """The benchmark could not complete (a process failed or stopped answering)."""


def _raise_nofile() -> None:
    """Let this process hold the benchmark's connections (never above the hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = NOFILE_WANTED if hard == resource.RLIM_INFINITY else min(NOFILE_WANTED, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def _memory_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def _frame(message: dict[str, Any]) -> bytes:
    return encode_frame(message, CLIENT_LIMITS)


def _hello(name: str) -> bytes:
    return _frame({"type": "hello", "protocol": PROTOCOL_VERSION, "name": name})


def _run_process(target: Callable[..., Any], pipe: Pipe, *args: Any) -> None:
    """A process body: report any failure to the parent instead of dying silently."""
    try:
        target(pipe, *args)
    except BaseException as error:
        with contextlib.suppress(Exception):
            pipe.send(("error", f"{type(error).__name__}: {error}"))


# --------------------------------------------------------------------------- host


def _host_process(pipe: Pipe, tables: int) -> None:
    _raise_nofile()
    asyncio.run(_host_main(pipe, tables))


async def _host_main(pipe: Pipe, tables: int) -> None:
    stamps: dict[tuple[str, int], int] = {}
    broadcast = TableRunner.broadcast

    def stamped(runner: TableRunner, events: list[Any]) -> None:
        stamps.setdefault((runner.table.id, runner.table.version), time.monotonic_ns())
        broadcast(runner, events)

    TableRunner.broadcast = stamped  # type: ignore[method-assign,assignment]
    limits = HostLimits(
        max_connections=10_000, max_connections_per_address=10_000, max_tables=10_000
    )
    with tempfile.TemporaryDirectory(prefix="clowder-capacity-") as state_dir:
        host = Host(
            name="capacity",
            bind="127.0.0.1",
            port=0,
            state_dir=Path(state_dir),
            bot_delay_s=BOT_DELAY_S,
            log=lambda _line: None,
            limits=limits,
            freeze_gc=True,  # as clowder host runs it
        )
        await host.start()
        ids = []
        for _ in range(tables):  # spread over a second: moves do not fall in step
            ids.append(host.create_table(GAME, dict(OPTIONS), bots=2).table.id)
            await asyncio.sleep(1.0 / tables)
        pipe.send(("ready", host.port, ids))
        started_ns = cpu_s = 0.0
        while True:
            command = await asyncio.to_thread(pipe.recv)
            if command == "start":
                stamps.clear()
                started_ns, cpu_s = time.monotonic_ns(), time.process_time()
            elif command == "stop":
                wall_s = (time.monotonic_ns() - started_ns) / 1e9
                figures = {
                    "cpu_pct": 100 * (time.process_time() - cpu_s) / wall_s,
                    "wall_s": wall_s,
                    "rss_kib": _memory_kib("VmRSS"),
                    "peak_kib": _memory_kib("VmHWM"),
                    "fds": len(os.listdir("/proc/self/fd")),
                    "connections": len(host.connections),
                }
                pipe.send(("figures", figures, dict(stamps)))
            else:
                break
        await host.close()


# --------------------------------------------------------------------------- spectators


@dataclass
class Book:
    """One client process's receipts: per (table, version), the last decode and how many."""

    last: dict[tuple[str, int], int]
    count: dict[tuple[str, int], int]
    errors: list[str]


class Spectator(asyncio.Protocol):
    """A lean watching client: says hello, joins one table, stamps views, answers pings."""

    def __init__(self, name: str, table: str, book: Book, joined: asyncio.Future[None]) -> None:
        self.name, self.table, self.book, self.joined = name, table, book, joined
        self.frames = FrameReader(HOST_LIMITS.max_frame)
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        join = {"type": "join", "table": self.table, "role": "spectator", "ref": 1}
        transport.write(_hello(self.name) + _frame(join))

    def data_received(self, data: bytes) -> None:
        now = time.monotonic_ns()
        self.frames.feed(data)
        while (body := self.frames.next_frame()) is not None:
            message = msgpack.unpackb(body, raw=False)
            kind = message.get("type")
            if kind == "view":
                key = (message["table"], message["version"])
                self.book.last[key] = max(self.book.last.get(key, 0), now)
                self.book.count[key] = self.book.count.get(key, 0) + 1
            elif kind == "ping" and self.transport is not None:
                pong = {"type": "pong", "id": message["id"], "t": message["t"], "at": now}
                self.transport.write(_frame(pong))
            elif kind == "joined" and not self.joined.done():
                self.joined.set_result(None)
            elif kind == "error":
                self.book.errors.append(f"{self.name}: {message.get('message')}")
                if not self.joined.done():
                    self.joined.set_exception(BenchmarkError(str(message.get("message"))))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.joined.done():
            self.joined.set_exception(BenchmarkError(f"{self.name}: connection lost"))


def _factory(
    name: str, table: str, book: Book, joined: asyncio.Future[None]
) -> Callable[[], Spectator]:
    return lambda: Spectator(name, table, book, joined)


def _spectator_process(pipe: Pipe, port: int, tables: list[str], index: int) -> None:
    _raise_nofile()
    asyncio.run(_spectator_main(pipe, port, tables, index))


async def _spectator_main(pipe: Pipe, port: int, tables: list[str], index: int) -> None:
    loop = asyncio.get_running_loop()
    book = Book({}, {}, [])
    transports: list[asyncio.Transport] = []
    for start in range(0, len(tables), CONNECT_BATCH):
        batch = []
        for number, table in enumerate(tables[start : start + CONNECT_BATCH], start):
            joined: asyncio.Future[None] = loop.create_future()
            name = f"w{index}-{number}"
            batch.append(joined)
            transport, _ = await loop.create_connection(
                _factory(name, table, book, joined), "127.0.0.1", port
            )
            transports.append(transport)
        await asyncio.wait_for(asyncio.gather(*batch), WAIT_S)
    pipe.send(("ready", len(transports)))
    await asyncio.to_thread(pipe.recv)  # "stop"
    pipe.send(("book", book.last, book.count, book.errors[:5]))
    for transport in transports:
        transport.close()


# --------------------------------------------------------------------------- prober


def _prober_process(pipe: Pipe, port: int, window_s: float) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        frames = FrameReader(HOST_LIMITS.max_frame)

        def receive(wanted: str, ping_id: int | None = None) -> None:
            """Read until a ``wanted`` message (and ``id``), answering the host's pings."""
            while True:
                while (body := frames.next_frame()) is not None:
                    message = msgpack.unpackb(body, raw=False)
                    kind = message.get("type")
                    if kind == "ping":
                        pong = {"type": "pong", "id": message["id"], "t": message["t"]}
                        sock.sendall(_frame(pong))
                    elif kind == wanted and (ping_id is None or message.get("id") == ping_id):
                        return
                    elif kind == "error":
                        raise BenchmarkError(f"prober: {message.get('message')}")
                data = sock.recv(65536)
                if not data:
                    raise BenchmarkError("prober: the host closed the connection")
                frames.feed(data)

        sock.sendall(_hello("prober"))
        receive("welcome")
        pipe.send(("ready",))
        pipe.recv()  # "go"
        rtts: list[int] = []
        deadline = time.monotonic() + window_s
        ping_id = 0
        while time.monotonic() < deadline:
            ping_id += 1
            sent = time.monotonic_ns()
            sock.sendall(_frame({"type": "ping", "id": ping_id, "t": sent}))
            receive("pong", ping_id)
            rtts.append(time.monotonic_ns() - sent)
            time.sleep(PROBE_INTERVAL_S)
        pipe.send(("rtts", rtts))


# --------------------------------------------------------------------------- one row


def _receive(pipe: Pipe, kind: str, processes: list[Any], timeout: float = WAIT_S) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pipe.poll(0.2):
            reply = pipe.recv()
            if reply[0] == "error":
                raise BenchmarkError(reply[1])
            if reply[0] != kind:
                raise BenchmarkError(f"expected {kind!r}, got {reply[0]!r}")
            return reply
        if not all(process.is_alive() for process in processes):
            raise BenchmarkError(f"a process stopped while waiting for {kind!r}")
    raise BenchmarkError(f"no {kind!r} within {timeout:g} s")


def _start(target: Callable[..., Any], *args: Any) -> tuple[Any, Pipe]:
    mine, theirs = CONTEXT.Pipe()
    process = CONTEXT.Process(target=_run_process, args=(target, theirs, *args), daemon=True)
    process.start()
    return process, mine


def _reap(processes: list[Any]) -> None:
    for process in processes:
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join(5)


def measure_size(tables: int, settings: dict[str, float], echo_port: int) -> dict[str, Any]:
    """One row: the loopback baseline, then N tables with spectators and the prober."""
    rtt_ms = statistics.median(loopback_rtts_ns(echo_port, int(settings["rtt_pings"]))) / 1e6
    processes: list[Any] = []
    try:
        host, host_pipe = _start(_host_process, tables)
        processes.append(host)
        _, port, ids = _receive(host_pipe, "ready", processes)
        watchers = [table for table in ids for _ in range(SPECTATORS_PER_TABLE)]
        groups = [watchers[i::CLIENT_PROCESSES] for i in range(CLIENT_PROCESSES)]
        clients = []
        for index, group in enumerate(g for g in groups if g):
            process, pipe = _start(_spectator_process, port, group, index)
            processes.append(process)
            clients.append(pipe)
        connected = sum(_receive(pipe, "ready", processes)[1] for pipe in clients)
        prober, prober_pipe = _start(_prober_process, port, settings["window_s"])
        processes.append(prober)
        _receive(prober_pipe, "ready", processes)
        time.sleep(settings["warmup_s"])
        host_pipe.send("start")
        prober_pipe.send("go")
        (_, rtts) = _receive(prober_pipe, "rtts", processes, settings["window_s"] + WAIT_S)
        host_pipe.send("stop")
        _, figures, stamps = _receive(host_pipe, "figures", processes)
        last: dict[tuple[str, int], int] = {}
        count: dict[tuple[str, int], int] = {}
        errors: list[str] = []
        for pipe in clients:
            pipe.send("stop")
            _, book_last, book_count, book_errors = _receive(pipe, "book", processes)
            errors += book_errors
            for key, stamp in book_last.items():
                last[key] = max(last.get(key, 0), stamp)
                count[key] = count.get(key, 0) + book_count[key]
        host_pipe.send("quit")
    finally:
        _reap(processes)
    if errors:
        raise BenchmarkError("; ".join(errors))
    fan_out = [
        (last[key] - stamp) / 1e6
        for key, stamp in stamps.items()
        if count.get(key, 0) >= SPECTATORS_PER_TABLE
    ]
    incomplete = sum(1 for key in stamps if count.get(key, 0) < SPECTATORS_PER_TABLE)
    probes = [ns / 1e6 for ns in rtts]
    return {
        "tables": tables,
        "connections": connected + 1,
        "prober_p50_ms": percentile(probes, 0.50),
        "prober_p99_ms": percentile(probes, 0.99),
        "loopback_rtt_p50_ms": rtt_ms,
        "views_p99_ms": percentile(fan_out, 0.99) if fan_out else None,
        "actions_per_s": len(stamps) / figures["wall_s"],
        "host_cpu_pct": figures["cpu_pct"],
        "host_rss_mib": figures["rss_kib"] / 1024,
        "host_peak_rss_mib": figures["peak_kib"] / 1024,
        "host_fds": figures["fds"],
        "incomplete": incomplete if tables else 0,
        "load_1m": os.getloadavg()[0],
    }


def measure(quick: bool) -> Report:
    """The idle baseline (N = 0), then every size; see the module docstring."""
    settings = QUICK if quick else FULL
    sizes = (0, *(QUICK_SIZES if quick else SIZES))
    ready, ready_child = CONTEXT.Pipe(duplex=False)
    echo = CONTEXT.Process(target=_echo_process, args=(ready_child, len(sizes)), daemon=True)
    echo.start()
    try:
        if not ready.poll(WAIT_S):
            raise BenchmarkError("The echo process did not start")
        echo_port = ready.recv()
        rows = [measure_size(tables, settings, echo_port) for tables in sizes]
    finally:
        _reap([echo])
    incomplete = sum(row.pop("incomplete") for row in rows)
    return Report(
        name="capacity",
        columns=[
            "tables",
            "connections",
            "prober_p50_ms",
            "prober_p99_ms",
            "loopback_rtt_p50_ms",
            "views_p99_ms",
            "actions_per_s",
            "host_cpu_pct",
            "host_rss_mib",
            "host_fds",
            "load_1m",
        ],
        rows=rows,
        notes=[
            f"{GAME} tables of 2 in-host bots moving every {BOT_DELAY_S:g} s, "
            f"{SPECTATORS_PER_TABLE} spectators each in {CLIENT_PROCESSES} client processes, "
            "a prober process; host in its own process; all on 127.0.0.1",
            f"window {settings['window_s']:g} s after {settings['warmup_s']:g} s warm-up; "
            f"prober pings every {PROBE_INTERVAL_S * 1000:g} ms",
            "tables 0: the same host with only the prober (baseline); loopback_rtt: a plain "
            "TCP echo between two processes, same run",
            "views_p99: host change stamp to the table's last spectator decoding the view; "
            f"changes some spectator never saw in the window: {incomplete}",
            "host_cpu_pct: of one core; host_rss_mib at the end of the window; "
            f"this machine has {os.cpu_count()} CPUs; goal: 250 tables, p99 <= 20 ms, "
            "RSS <= 300 MiB",
            "load_1m: the machine's load average at the end of the row (other work on a shared "
            "machine shows up in the p99s)",
        ],
    )

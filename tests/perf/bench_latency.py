"""Action latency: from a client sending an action to every client at the table having its view.

A real host (:class:`net.doors.host.Host`, on 127.0.0.1, journaling to a temporary
state directory) runs in this process with one Catchy! table and no bots.
2, 4 and 10 clients, each a :class:`net.client.client.Client` in its **own
process**, sit at it: Catchy! seats two players, the others watch as
spectators (who are sent every view too). The two players are engine bots
choosing from their own views; when the game ends every client moves to a
new table, until enough actions have been measured.

One sample is one accepted action. The acting client stamps
``time.monotonic_ns()`` just before sending it; every client stamps the
moment it has decoded the ``view`` carrying the version that action
produced. The sample is the last of those stamps minus the send stamp: the
time until *everyone* can draw the new state. The stamps of different
processes are comparable because ``time.monotonic_ns()`` reads
``CLOCK_MONOTONIC``, which on Linux is one system-wide clock shared by every
process (it is not per-process, and NTP slews cannot make it jump).

Pacing: a player waits :data:`GAP_S` after its view arrives before acting,
so each action's fan-out is measured on its own rather than queued behind
the previous one, and the players stay under the host's per-connection rate
limit. A sample whose fan-out was still running when the next action was
sent is counted in the notes (``overlapped``); it should be 0.

Baseline: a plain TCP echo of a 32-byte frame between this process and an
echo process on loopback (blocking sockets, ``TCP_NODELAY``), timed just
before each table size: what one round trip between two processes costs on
this machine right now, with no Python protocol stack on top.

``python -m tests.perf.bench_latency --profile [--clients N]`` runs one size
with the host's process under cProfile and prints where the host's time goes;
``--profile-client`` profiles one spectator's client process instead (its part
of each view: wake, read, decode, parse, check, hand over), per view.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import io
import itertools
import math
import multiprocessing
import multiprocessing.connection
import multiprocessing.synchronize
import os
import pstats
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.bots import Bot, default_bot, make_bot
from net.client.client import Client, ClientError, ConnectionState
from net.core.table import TableRunner
from net.doors.host import Host
from net.wire.messages import Error, Message, View
from tests.perf.report import Report

GAME = "catchy"
SIZES = (2, 4, 10)
PLAYERS = 2
FULL = {"samples": 400, "rtt_pings": 400}
QUICK = {"samples": 40, "rtt_pings": 100}
GAP_S = 0.010
"""A player's pause between seeing its turn and acting (see the module docstring)."""

FRAME = (28).to_bytes(4, "big") + bytes(range(28))
"""The baseline's ping: a 4-byte length and 28 bytes, about the size of a small message."""

WAIT_S = 30.0
"""Longest wait for any one step (a view, a barrier, a result) before the run is abandoned."""

CONTEXT = multiprocessing.get_context("spawn")
"""Fresh interpreters: clients share nothing with the host's process (no inherited loop)."""


class BenchmarkError(RuntimeError):
    """The benchmark could not complete (a client failed or stopped answering)."""


# --------------------------------------------------------------------------- figures


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile: the smallest value with ``fraction`` of them at or below it."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True, slots=True)
class Samples:
    """Per-action fan-out latencies of one run, and how many overlapped the next action."""

    latencies_ns: list[int]
    overlapped: int
    incomplete: int


def fan_out(
    sent: dict[tuple[str, int], int], received: list[dict[tuple[str, int], int]]
) -> Samples:
    """Latency of each sent action: the last client's decode stamp minus the send stamp.

    ``sent`` maps (table, version) to the acting client's stamp; ``received``
    has one such map per client. An action some client never saw is counted
    as incomplete (it would mean a lost view) rather than measured.
    """
    done: list[tuple[int, int]] = []
    incomplete = 0
    for key, sent_ns in sent.items():
        stamps = [client.get(key) for client in received]
        if any(stamp is None for stamp in stamps):
            incomplete += 1
            continue
        done.append((sent_ns, max(s for s in stamps if s is not None)))
    done.sort()
    overlapped = sum(
        1 for (_, last), (next_sent, _) in itertools.pairwise(done) if last > next_sent
    )
    return Samples([last - sent_ns for sent_ns, last in done], overlapped, incomplete)


# --------------------------------------------------------------------------- baseline


def _echo_process(ready: multiprocessing.connection.Connection, connections: int) -> None:
    """Echo ``connections`` loopback connections one after another, then exit."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(WAIT_S)
        ready.send(server.getsockname()[1])
        for _ in range(connections):
            peer, _address = server.accept()
            with peer:
                peer.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                peer.settimeout(WAIT_S)
                while data := peer.recv(65536):
                    peer.sendall(data)


@contextlib.contextmanager
def echo_server(connections: int) -> Iterator[int]:
    """An echo process for ``connections`` baseline connections, one after another; its port.

    Stopped on leaving the block (it stops by itself once it has served them all).
    """
    ready, ready_child = CONTEXT.Pipe(duplex=False)
    echo = CONTEXT.Process(target=_echo_process, args=(ready_child, connections), daemon=True)
    echo.start()
    try:
        if not ready.poll(WAIT_S):
            raise BenchmarkError("The echo process did not start")
        yield ready.recv()
    finally:
        _reap([echo])


def loopback_rtts_ns(port: int, pings: int) -> list[int]:
    """Round trips of :data:`FRAME` to the echo process (after a short warm-up)."""
    rtts: list[int] = []
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for index in range(pings + 20):
            started = time.monotonic_ns()
            sock.sendall(FRAME)
            got = 0
            while got < len(FRAME):
                chunk = sock.recv(65536)
                if not chunk:
                    raise BenchmarkError("The echo process closed the connection")
                got += len(chunk)
            if index >= 20:
                rtts.append(time.monotonic_ns() - started)
    return rtts


# --------------------------------------------------------------------------- clients


@dataclass(frozen=True, slots=True)
class ClientSpec:
    """What one client process does (picklable: it crosses to a spawned process)."""

    index: int
    port: int
    table: str
    actions: int
    seed: int
    profile_to: str = ""
    """A file to write this client's cProfile statistics to (empty: not profiled)."""

    @property
    def seat(self) -> int | None:
        return self.index if self.index < PLAYERS else None


@dataclass
class Shared:
    """The processes' meeting points: a barrier, the next table's id, the results queue."""

    barrier: multiprocessing.synchronize.Barrier
    table_box: Any  # a multiprocessing.Array("c"): the next table's id, written by client 0
    results: Any  # a multiprocessing.Queue of per-client result maps


def _client_process(spec: ClientSpec, shared: Shared) -> None:
    """Entry point of a client process: play or watch, then send the stamps back."""
    try:
        if spec.profile_to:
            profile = cProfile.Profile(time.process_time)
            result = asyncio.run(_client_main(spec, shared, profile))
            profile.dump_stats(spec.profile_to)
        else:
            result = asyncio.run(_client_main(spec, shared))
    except BaseException as error:  # reported to the parent, which raises it there
        shared.barrier.abort()
        result = {"index": spec.index, "error": f"{type(error).__name__}: {error}"}
    shared.results.put(result)


class Follower:
    """One client's part at one table, driven from the client's message callback.

    Everything happens in :meth:`on_message`, called as each message is
    decoded: the view is stamped there, and a player whose turn it is
    schedules its action there. (A coroutine draining ``Client.incoming``
    would cost every client process a task switch per message, on the
    same cores as the host being measured.)

    Every accepted action adds one to the table's version, but so does each
    seat taken before the deal; the deal's view (the first that is not the
    ``waiting`` placeholder) is where the count starts. No one acts before
    :meth:`arm`, which is called once every client is at the table, so every
    client sees that same deal first.
    """

    def __init__(self, client: Client, spec: ClientSpec, brain: Bot) -> None:
        self.client = client
        self.spec = spec
        self.brain = brain
        self.sent: dict[tuple[str, int], int] = {}
        self.received: dict[tuple[str, int], int] = {}
        self.done = 0
        self.failure: str | None = None
        self.table = ""
        self.finished = asyncio.Event()
        self._dealt: int | None = None
        self._armed = False
        self._acted = -1
        self._latest: View | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.views = 0
        """Views received while measured (between :meth:`arm` and the table's end)."""
        self.thinking_s = 0.0
        """Processor time the bot spent choosing (a player's, not the client's, work)."""

    def sit(self, table: str) -> None:
        """Follow ``table`` from now on (actions wait for :meth:`arm`)."""
        self.table, self._dealt, self._armed, self._acted = table, None, False, -1
        self._latest = None
        self.finished = asyncio.Event()

    def arm(self) -> None:
        """Every client is at the table: the player whose turn it is may act."""
        self._armed = True
        if self._latest is not None:
            self._consider(self._latest)

    def on_message(self, message: Message | ConnectionState) -> None:
        if isinstance(message, View):
            if self._armed and not self.finished.is_set():
                self.views += 1
            self.received.setdefault((message.table, message.version), time.monotonic_ns())
            if message.table == self.table:
                self._follow(message)
        elif isinstance(message, Error):
            self._fail(f"the host refused: {message.message}")
        elif isinstance(message, ConnectionState) and not message.connected:
            self._fail(message.detail)

    def _fail(self, text: str) -> None:
        self.failure = self.failure or f"client {self.spec.index}: {text}"
        self.finished.set()

    def _follow(self, view: View) -> None:
        if self._dealt is None:
            if view.view is None:  # the waiting room
                return
            self._dealt = view.version
        seen = view.version - self._dealt
        if view.game_outcome is not None or self.done + seen >= self.spec.actions:
            if not self.finished.is_set():
                self.done += seen
                self.finished.set()
            return
        self._latest = view
        if self._armed:
            self._consider(view)

    def _consider(self, view: View) -> None:
        if self.spec.seat is None or view.version <= self._acted or self.finished.is_set():
            return
        if view.view is None or view.starting:
            return  # nobody may act before the game begins
        started = time.process_time()
        action = self.brain.choose(view.view)
        self.thinking_s += time.process_time() - started
        if action is not None:
            self._acted = view.version
            task = asyncio.get_running_loop().create_task(self._act(view.version, action))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _act(self, version: int, action: dict[str, Any]) -> None:
        await asyncio.sleep(GAP_S)
        self.sent[(self.table, version + 1)] = time.monotonic_ns()
        try:
            await self.client.act(self.table, action)  # sends before it first yields
        except ClientError as error:
            self._fail(error.message)


async def _client_main(
    spec: ClientSpec, shared: Shared, profile: cProfile.Profile | None = None
) -> dict[str, Any]:
    async def meet() -> None:
        await asyncio.to_thread(shared.barrier.wait, WAIT_S)

    client = Client("127.0.0.1", spec.port, f"c{spec.index}", reconnect=False)
    follower = Follower(client, spec, make_bot(GAME, default_bot(GAME), spec.seed))
    client.on_message = follower.on_message
    await client.connect()
    cpu_s = 0.0
    try:
        table = spec.table
        while True:
            follower.sit(table)
            await client.join(table, "player" if spec.seat is not None else "spectator", spec.seat)
            await meet()  # everyone is at the table before the first action
            started = time.process_time()
            if profile is not None:
                profile.enable()  # only the measured part: the game, not the setting up
            follower.arm()
            await asyncio.wait_for(follower.finished.wait(), WAIT_S * 4)
            if profile is not None:
                profile.disable()
            cpu_s += time.process_time() - started
            if follower.failure is not None:
                raise BenchmarkError(follower.failure)
            if follower.done >= spec.actions:
                break
            if spec.index == 0:
                shared.table_box.value = (await client.create_table(GAME)).encode()
            await meet()  # the next table exists and its id is in the box
            table = shared.table_box.value.decode()
    finally:
        await client.close()
    return {
        "index": spec.index,
        "sent": follower.sent,
        "received": follower.received,
        "cpu_s": cpu_s,
        "views": follower.views,
        "thinking_s": follower.thinking_s,
    }


# --------------------------------------------------------------------------- one size


@dataclass(frozen=True, slots=True)
class Run:
    """One table size's samples and the processor time spent per action."""

    samples: Samples
    host_cpu_ms: float
    """The host process's processor time per action while games are played
    (:class:`PlayClock`; the benchmark's own share is tiny)."""
    client_cpu_ms: float
    """One client process's processor time per action, averaged over the clients."""
    view_cpu_ms: float
    """A client process's processor time per view it received, less its bot's choosing
    (what the client itself does with a view: wake, read, decode, check, hand over),
    averaged over the clients."""
    view_cpu_ms_each: tuple[float, ...] = ()
    """:attr:`view_cpu_ms` of each client, in client order (for a median, say)."""


async def run_table(
    clients: int,
    actions: int,
    profile: cProfile.Profile | None = None,
    profile_client_to: str = "",
) -> Run:
    """Host one table for ``clients`` client processes until ``actions`` are measured."""
    if clients < PLAYERS:
        raise ValueError(f"A {GAME} table needs at least {PLAYERS} clients")
    shared = Shared(
        barrier=CONTEXT.Barrier(clients + 1),  # and the host's side: PlayClock
        table_box=CONTEXT.Array("c", 64),
        results=CONTEXT.Queue(),
    )
    processes: list[Any] = []
    with tempfile.TemporaryDirectory(prefix="clowder-bench-") as state_dir:
        host = Host(name="bench", bind="127.0.0.1", port=0, state_dir=Path(state_dir), log=_quiet)
        await host.start()
        try:
            runner = host.create_table(GAME)
            for index in range(clients):
                spec = ClientSpec(
                    index,
                    host.port,
                    runner.table.id,
                    actions,
                    seed=index + 1,
                    profile_to=profile_client_to if index == clients - 1 else "",
                )
                process = CONTEXT.Process(target=_client_process, args=(spec, shared), daemon=True)
                process.start()
                processes.append(process)
            await _everyone_at(runner, clients, processes)
            clock = PlayClock(shared.barrier)
            if profile is not None:
                profile.enable()
            try:
                results = [await _result(shared, processes) for _ in range(clients)]
            finally:
                host_cpu_s = clock.stop()
            if profile is not None:
                profile.disable()
        finally:
            await host.close()
            await asyncio.to_thread(_reap, processes)
    errors = [result["error"] for result in results if "error" in result]
    if errors:
        raise BenchmarkError("; ".join(errors))
    results.sort(key=lambda result: int(result["index"]))  # they came in as they finished
    sent: dict[tuple[str, int], int] = {}
    for result in results:
        sent.update(result["sent"])
    samples = fan_out(sent, [result["received"] for result in results])
    measured = max(len(sent), 1)
    client_cpu_s = statistics.fmean(result["cpu_s"] for result in results)
    view_cpu_ms = tuple(
        (result["cpu_s"] - result["thinking_s"]) * 1e3 / max(1, result["views"])
        for result in results
    )
    return Run(
        samples,
        host_cpu_s * 1e3 / measured,
        client_cpu_s * 1e3 / measured,
        statistics.fmean(view_cpu_ms),
        view_cpu_ms,
    )


class PlayClock:
    """The host process's processor time while the games are played, not between them.

    The clients meet twice a table (:func:`_client_main`): all seated (play begins), and
    once the next table exists after the game (play has ended). This thread meets them
    too, as the barrier's last party, and adds up the process's CPU from each "seated"
    to the "next table" after it (or to :meth:`stop`, for the last table). What is left
    out is the clients leaving one table and joining the next: boardgame.io's match in
    ``bench_bgio`` is made once, outside its window, so the two hosts are compared on the
    same work, a game's actions (and, only on Clowder's side, each game's end: the
    results, the scoreboard).
    """

    def __init__(self, barrier: multiprocessing.synchronize.Barrier) -> None:
        self._barrier = barrier
        self._passes: list[float] = []
        self._thread = threading.Thread(target=self._meet, name="play-clock", daemon=True)
        self._thread.start()

    def _meet(self) -> None:
        while True:
            try:
                self._barrier.wait(WAIT_S * 4)
            except threading.BrokenBarrierError:
                return  # stopped (or a client failed: that is reported by its result)
            self._passes.append(time.process_time())

    def stop(self) -> float:
        """End the last window now; the seconds of CPU in all the windows."""
        ended = time.process_time()
        self._barrier.abort()
        self._thread.join(WAIT_S)
        passes = self._passes
        starts, ends = passes[0::2], [*passes[1::2], ended]
        return sum(end - start for start, end in zip(starts, ends, strict=False))


async def _everyone_at(runner: TableRunner, clients: int, processes: list[Any]) -> None:
    """Wait until every client process has joined the first table (they start in turn)."""
    deadline = time.monotonic() + WAIT_S
    while len(runner.attached) < clients:
        if time.monotonic() > deadline or not all(p.is_alive() for p in processes):
            raise BenchmarkError(
                f"Only {len(runner.attached)} of {clients} clients reached the table"
            )
        await asyncio.sleep(0.01)


async def _result(shared: Shared, processes: list[Any]) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_S * 4
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            result: dict[str, Any] = await asyncio.to_thread(shared.results.get, True, 0.5)
            return result
        if not any(process.is_alive() for process in processes):
            break
    raise BenchmarkError("A client process stopped without reporting its stamps")


def _reap(processes: list[Any]) -> None:
    for process in processes:
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join(5)


def _quiet(_line: str) -> None:
    """The host's log is not part of the measurement."""


def measure_size(clients: int, actions: int, echo_port: int, pings: int) -> dict[str, Any]:
    """One row: the baseline just before, then one table of ``clients`` clients."""
    rtt_ms = statistics.median(loopback_rtts_ns(echo_port, pings)) / 1e6
    run = asyncio.run(run_table(clients, actions))
    latencies = [ns / 1e6 for ns in run.samples.latencies_ns]
    return {
        "clients": clients,
        "samples": len(latencies),
        "p50_ms": percentile(latencies, 0.50),
        "p99_ms": percentile(latencies, 0.99),
        "loopback_rtt_p50_ms": rtt_ms,
        "host_cpu_ms": run.host_cpu_ms,
        "client_cpu_ms": run.client_cpu_ms,
        "client_view_cpu_ms": run.view_cpu_ms,
        "overlapped": run.samples.overlapped,
        "incomplete": run.samples.incomplete,
    }


def measure(quick: bool) -> Report:
    """Every size in :data:`SIZES`; see the module docstring."""
    sizes = QUICK if quick else FULL
    with echo_server(len(SIZES)) as echo_port:
        rows = [
            measure_size(clients, sizes["samples"], echo_port, sizes["rtt_pings"])
            for clients in SIZES
        ]
    overlapped = sum(row.pop("overlapped") for row in rows)
    incomplete = sum(row.pop("incomplete") for row in rows)
    return Report(
        name="latency",
        columns=[
            "clients",
            "samples",
            "p50_ms",
            "p99_ms",
            "loopback_rtt_p50_ms",
            "host_cpu_ms",
            "client_cpu_ms",
            "client_view_cpu_ms",
        ],
        rows=rows,
        notes=[
            f"{GAME}, {PLAYERS} bot players + spectators, each client its own process; "
            "host in the benchmark process; all on 127.0.0.1",
            "latency: acting client's send stamp to the last client's decoded view "
            "(CLOCK_MONOTONIC, one clock for every process)",
            f"players pause {GAP_S * 1000:g} ms before acting; samples whose fan-out overlapped "
            f"the next action: {overlapped}; actions some client never saw: {incomplete}",
            "loopback_rtt: plain TCP echo of a 32-byte frame between two processes, same run",
            "client_view_cpu_ms: a client process's processor time per view it received, less "
            "its bot's choosing (the client's own work per view), averaged over the clients",
            f"host_cpu_ms / client_cpu_ms: processor time per action of the host process "
            f"while games are played (moving to the next table left out) / of each client "
            f"process; all share this machine's {os.cpu_count()} CPUs",
        ],
    )


# --------------------------------------------------------------------------- profiling


def profile_host(clients: int, actions: int, top: int) -> str:
    """Run one size with the host's process under cProfile; the top functions by own time."""
    profile = cProfile.Profile()
    run = asyncio.run(run_table(clients, actions, profile))
    latencies = [ns / 1e6 for ns in run.samples.latencies_ns]
    out = io.StringIO()
    out.write(
        f"{clients} clients, {len(latencies)} samples under cProfile (slower than unprofiled): "
        f"p50 {percentile(latencies, 0.5):.3f} ms, p99 {percentile(latencies, 0.99):.3f} ms, "
        f"host {run.host_cpu_ms:.3f} ms CPU per action\n"
    )
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def profile_client(clients: int, actions: int, top: int) -> str:
    """Run one size with its last client (a spectator, with 3 or more clients) under
    cProfile; its top functions, per view it received."""
    with tempfile.TemporaryDirectory(prefix="clowder-bench-") as folder:
        path = str(Path(folder) / "client.prof")
        run = asyncio.run(run_table(clients, actions, profile_client_to=path))
        out = io.StringIO()
        stats = pstats.Stats(path, stream=out)
    views = max(1, len(run.samples.latencies_ns))
    total_s = sum(timing[2] for timing in stats.stats.values())  # type: ignore[attr-defined]
    head = (
        f"client {clients - 1} of {clients} (a spectator when there are 3 or more) under "
        f"cProfile, {views} views: {total_s * 1000 / views:.3f} ms of profiled CPU a view; "
        f"unprofiled, each client's CPU per action: {run.client_cpu_ms:.3f} ms\n"
    )
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return head + out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.perf.bench_latency",
        description="Profile the host during the latency benchmark "
        "(for the figures, run: python -m tests.perf latency).",
    )
    parser.add_argument("--profile", action="store_true", help="run under cProfile")
    parser.add_argument(
        "--profile-client",
        action="store_true",
        help="profile the last client's process (a spectator) instead of the host",
    )
    parser.add_argument("--clients", type=int, default=SIZES[-1], help="clients at the table")
    parser.add_argument("--actions", type=int, default=FULL["samples"], help="actions to time")
    parser.add_argument("--top", type=int, default=30, help="functions to list")
    args = parser.parse_args(argv)
    if not (args.profile or args.profile_client):
        parser.error("nothing to do without --profile or --profile-client")
    if args.clients < PLAYERS or args.actions < 1:
        parser.error(f"--clients must be at least {PLAYERS} and --actions at least 1")
    if args.profile_client:
        print(profile_client(args.clients, args.actions, args.top))
    else:
        print(profile_host(args.clients, args.actions, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())

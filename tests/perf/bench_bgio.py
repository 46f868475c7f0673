"""Fan-out against boardgame.io 0.50.2, in the same run: Clowder's host next to theirs.

The issue's goals are relative to boardgame.io measured on the same machine in the same
run (fan-out p99 with 10 clients at least 2x lower, host CPU per action at least 3x
lower), so this benchmark runs both, one after the other, for each table size.

Clowder's side is :func:`tests.perf.bench_latency.run_table` unchanged: a real host with
one Catchy! table, 2/4/10 clients each in its own process, two bot players and the rest
spectators (read that module's docstring). boardgame.io's side is the same shape, in
``tests/perf/bgio/``: ``game.cjs``, a small two-player trick game written for this
benchmark with a state like Catchy!'s (two hands of 7 cards, a trick, a cat position,
this round's tricks, scores, a 40-line log) and a ``playerView`` that hides the other
hand and builds a view with Catchy!'s keys (legal moves, unplayable cards);
``server.cjs``, boardgame.io's own ``Server`` (Koa and socket.io, in-memory storage) on
127.0.0.1; ``client.cjs``, one boardgame.io ``Client`` with the ``SocketIO`` transport
per process, seats "0" and "1" played by a bot, the others spectators (no playerID),
who get every state too.

The samples are measured the same way on both sides. The acting client stamps the
monotonic clock just before sending; every client stamps the moment it has the new
state (Clowder: the decoded ``view`` of that version; boardgame.io: its subscribe
callback with that ``_stateID``); a sample is the last client's stamp minus the send
stamp, computed by the same :func:`~tests.perf.bench_latency.fan_out`. Node's
``process.hrtime.bigint()`` reads CLOCK_MONOTONIC on Linux, as Python's
``time.monotonic_ns()`` does, so the stamps of all processes compare (each node client
also sends one stamp while the benchmark brackets it with its own clock, as a check).
A player waits :data:`~tests.perf.bench_latency.GAP_S` after its state before acting,
on both sides. Both sides are asked for the same number of actions; Clowder's count
also includes the deals between rounds, which are no sample, so each side's samples
are cut to the first N of the smaller count before percentiles are taken.

Host CPU per action: the host's processor time (user + system, every thread) while
the games are played, divided by the actions sent. Clowder's host runs in the
benchmark's own process, as in bench_latency, and that is kept: its windows are read
with ``time.process_time()`` (the process's CPU clock) from each table's "everyone
seated" to the game's end (:class:`~tests.perf.bench_latency.PlayClock`: moving the
clients to the next table is left out, as boardgame.io's one match is made before its
window), and the benchmark's own share in them is a thread waiting for the clients'
results, waking twice a second. boardgame.io's server is a node process: its ``utime +
stime`` from ``/proc/PID/stat``, read when the clients are told to go and when the last
has reported (the same kernel total, in clock ticks of 10 ms: a resolution noted under
the table). Both windows include the clients leaving at the end; Clowder's also each
game's end (results, the scoreboard on disk).

Client CPU per view: each client process's CPU over its measured window (Python's
``time.process_time()``, node's ``process.cpuUsage()``: both the whole process), less
its bot's choosing, divided by the states it received; the median over the clients.

boardgame.io is installed by ``python -m tests.perf.bench_bgio --install`` (run it
outside ``netns-run``: it needs the npm registry) into a folder outside the repository,
``~/.cache/clowder-bench/bgio-0.50.2/`` (``$XDG_CACHE_HOME`` if set), and reused after;
the benchmark itself only runs what is there, and stops with a message if node or that
folder is missing. Everything listens on 127.0.0.1 only.

Not the same on both sides (see also the notes printed with the table): boardgame.io
sends JSON over socket.io (websocket transport only, no polling) where Clowder sends
msgpack frames over TCP; its server builds a redux store per action and keeps the
whole match log in memory, where Clowder's host appends every action to a journal on
disk before broadcasting it; its client runs the game's flow code too (the move itself
is marked ``client: false``, so the acting client waits for the server's state as a
Clowder client waits for its view rather than showing its own first); its match never
ends, where Clowder's clients move to a new table after each game (each game's end is
inside Clowder's window, the move to the next table is not); and Node compiles
JavaScript as it goes (no warm-up on either side).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from tests.perf.bench_latency import (
    FULL,
    GAP_S,
    PLAYERS,
    QUICK,
    SIZES,
    WAIT_S,
    BenchmarkError,
    Run,
    echo_server,
    fan_out,
    loopback_rtts_ns,
    percentile,
    run_table,
)
from tests.perf.report import Report

BGIO_VERSION = "0.50.2"
"""The boardgame.io release compared against, installed exactly (``npm install x@0.50.2``)."""

JS_DIR = Path(__file__).resolve().with_name("bgio")
"""The benchmark's own JavaScript: the game, the server and the client scripts."""

TABLE = "bgio"
"""The table name in :func:`fan_out`'s keys for boardgame.io's states (one match)."""

MARK = "BENCH "
"""The prefix of the lines the node scripts print for the benchmark (others are ignored)."""

NPM_TIMEOUT_S = 600.0
"""Longest wait for ``npm install`` (a first install downloads about 160 packages)."""

GOALS = {"p99_ratio": 2.0, "host_cpu_ratio": 3.0}
"""The issue's goals: how many times lower Clowder's figure is than boardgame.io's."""

GOAL_CLIENTS = 10
"""The table size the p99 goal is stated for."""

T = TypeVar("T")


class SetupError(RuntimeError):
    """Node, npm or the installed boardgame.io is missing: nothing was measured."""


# --------------------------------------------------------------------------- install


def cache_dir() -> Path:
    """Where boardgame.io is installed: outside the repository, kept between runs."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "clowder-bench" / f"bgio-{BGIO_VERSION}"


def installed_version(folder: Path, package: str = "boardgame.io") -> str | None:
    """The version of ``package`` installed under ``folder`` (None: not installed)."""
    try:
        data = json.loads((folder / "node_modules" / package / "package.json").read_text())
    except (OSError, ValueError):
        return None
    version = data.get("version") if isinstance(data, dict) else None
    return version if isinstance(version, str) else None


def install(folder: Path) -> str:
    """Install boardgame.io :data:`BGIO_VERSION` into ``folder`` unless it is there already.

    The package.json is written here, so the repository holds no npm files besides the
    benchmark's own scripts. Returns what was done, for people.
    """
    if installed_version(folder) == BGIO_VERSION:
        return f"boardgame.io {BGIO_VERSION} is already installed in {folder}"
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        raise SetupError("node and npm are needed to install boardgame.io (neither is optional)")
    folder.mkdir(parents=True, exist_ok=True)
    manifest = {
        "name": "clowder-bench-bgio",
        "private": True,
        "description": "boardgame.io for Clowder's tests/perf/bench_bgio.py (written by it)",
        "dependencies": {"boardgame.io": BGIO_VERSION},
    }
    (folder / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
    try:
        done = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--save-exact"],
            cwd=folder,
            capture_output=True,
            text=True,
            check=False,
            stdin=subprocess.DEVNULL,
            timeout=NPM_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired as error:
        raise SetupError(f"npm install took more than {NPM_TIMEOUT_S:g} s") from error
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
        raise SetupError(f"npm install failed in {folder} (exit {done.returncode}):\n{tail}")
    found = installed_version(folder)
    if found != BGIO_VERSION:
        raise SetupError(f"npm install left boardgame.io {found}, not {BGIO_VERSION}")
    return f"installed boardgame.io {BGIO_VERSION} in {folder}"


def node_ready(folder: Path) -> str:
    """The node executable, once node and the installed boardgame.io are both there."""
    node = shutil.which("node")
    if node is None:
        raise SetupError("node is not installed (the boardgame.io side runs on node)")
    if installed_version(folder) != BGIO_VERSION:
        raise SetupError(
            f"boardgame.io {BGIO_VERSION} is not installed in {folder}: run "
            "`python -m tests.perf.bench_bgio --install` first, outside netns-run "
            "(it needs the npm registry)"
        )
    return node


def node_version(node: str) -> str:
    """``node --version``, for the notes."""
    done = subprocess.run(
        [node, "--version"],
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
        timeout=WAIT_S,
    )
    return done.stdout.strip() or "unknown"


# --------------------------------------------------------------------------- records


def parse_record(line: str) -> dict[str, Any] | None:
    """The record on one line a node script printed, or None for any other output."""
    if not line.startswith(MARK):
        return None
    try:
        record = json.loads(line[len(MARK) :])
    except ValueError:
        return None
    return record if isinstance(record, dict) and isinstance(record.get("event"), str) else None


def stamps_of(
    results: Iterable[dict[str, Any]],
) -> tuple[dict[tuple[str, int], int], list[dict[tuple[str, int], int]]]:
    """The node clients' ``result`` records as :func:`fan_out`'s arguments.

    A record's ``sent`` and ``received`` map a ``_stateID`` (a JSON key, so text) to a
    stamp in nanoseconds (text too: a double cannot hold every one); the keys become
    ``(TABLE, stateID)``, the shape of Clowder's ``(table, version)``.
    """
    sent: dict[tuple[str, int], int] = {}
    received: list[dict[tuple[str, int], int]] = []
    for result in results:
        sent.update({(TABLE, int(key)): int(ns) for key, ns in result["sent"].items()})
        received.append({(TABLE, int(key)): int(ns) for key, ns in result["received"].items()})
    return sent, received


def process_cpu_s(pid: int) -> float:
    """A process's processor time so far, user + system over all its threads, in seconds.

    From ``/proc/PID/stat`` (fields 14 and 15, in clock ticks): read from outside, so the
    process measured does nothing for it.
    """
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2 :].split()  # the name may hold spaces: skip past it
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --------------------------------------------------------------------------- node processes


@dataclass
class NodeProcess:
    """A node script run by the benchmark: its records, read as they come, and its end."""

    name: str
    process: asyncio.subprocess.Process
    errors: Path
    """Its standard error, kept in a file (quoted when it fails)."""
    records: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    reader: asyncio.Task[None] | None = None

    @classmethod
    async def start(
        cls, name: str, node: str, script: Path, args: Sequence[object], env: dict[str, str]
    ) -> NodeProcess:
        errors = Path(env["CLOWDER_BENCH_FOLDER"]) / f"{name}.stderr"
        with errors.open("wb") as sink:
            process = await asyncio.create_subprocess_exec(
                node,
                str(script),
                *map(str, args),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=sink,
                env=env,
                limit=1 << 24,  # a result line holds every stamp
            )
        started = cls(name, process, errors)
        started.reader = asyncio.get_running_loop().create_task(started._read())
        return started

    @property
    def pid(self) -> int:
        return self.process.pid

    async def _read(self) -> None:
        """Queue each record as it is printed; the rest of the output is drained unread."""
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            record = parse_record(line.decode("utf-8", "replace").rstrip("\n"))
            if record is not None:
                await self.records.put(record)
        await self.records.put({"event": "exit"})

    async def expect(self, event: str, timeout: float) -> dict[str, Any]:
        """The next record, which must be ``event`` (an error or an exit is raised)."""
        try:
            record = await asyncio.wait_for(self.records.get(), timeout)
        except TimeoutError:
            raise BenchmarkError(f"{self.name}: no {event!r} within {timeout:g} s") from None
        if record["event"] != event:
            detail = record.get("error") or self._stderr_tail() or "no message"
            raise BenchmarkError(f"{self.name}: {record['event']} before {event!r}: {detail}")
        return record

    def _stderr_tail(self) -> str:
        with contextlib.suppress(OSError):
            return " | ".join(self.errors.read_text().strip().splitlines()[-5:])
        return ""

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")

    async def unless_it_ends(self, work: Awaitable[T]) -> T:
        """``work``'s result, or an error as soon as this process exits first.

        (The clients would only time out if the server died under them.)
        """
        task = asyncio.ensure_future(work)
        ended = asyncio.ensure_future(self.process.wait())
        try:
            await asyncio.wait({task, ended}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            ended.cancel()
        if task.done():
            return task.result()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, BenchmarkError):
            await task
        detail = self._stderr_tail() or "no message"
        raise BenchmarkError(f"{self.name} exited ({self.process.returncode}): {detail}")

    async def stop(self) -> None:
        """Close its standard input (it exits then), or kill it after 5 s."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 5)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.reader


async def run_bgio(clients: int, actions: int, node: str, folder: Path) -> Run:
    """boardgame.io's server and ``clients`` client processes until ``actions`` are done.

    The same shape as :func:`~tests.perf.bench_latency.run_table`'s result, so both
    sides are reduced the same way.
    """
    if clients < PLAYERS:
        raise ValueError(f"The game needs at least {PLAYERS} clients")
    with tempfile.TemporaryDirectory(prefix="clowder-bench-bgio-") as scratch:
        env = {
            **os.environ,
            "NODE_PATH": str(folder / "node_modules"),
            "NODE_ENV": "production",  # boardgame.io logs and checks more in development
            "CLOWDER_BENCH_FOLDER": scratch,
        }
        processes: list[NodeProcess] = []
        try:
            server = await NodeProcess.start("server", node, JS_DIR / "server.cjs", [], env)
            processes.append(server)
            port = (await server.expect("listening", WAIT_S))["port"]
            before_ns = time.monotonic_ns()
            for index in range(clients):
                seat = str(index) if index < PLAYERS else "spectator"
                args = [port, seat, actions, GAP_S * 1000, index + 1]
                client = await NodeProcess.start(
                    f"client {index}", node, JS_DIR / "client.cjs", args, env
                )
                processes.append(client)
            players = processes[1:]
            readies = await server.unless_it_ends(
                asyncio.gather(*(p.expect("ready", WAIT_S) for p in players))
            )
            after_ns = time.monotonic_ns()
            if any(not before_ns <= int(ready["stamp"]) <= after_ns for ready in readies):
                raise BenchmarkError("node's hrtime is not this process's monotonic clock")
            if len({ready["state"] for ready in readies}) != 1:
                raise BenchmarkError("The clients did not start from the same state")
            cpu_before = process_cpu_s(server.pid)
            for player in players:
                player.send("go")
            results = await server.unless_it_ends(
                asyncio.gather(*(player.expect("result", WAIT_S * 4) for player in players))
            )
            server_cpu_s = process_cpu_s(server.pid) - cpu_before
        finally:
            await asyncio.gather(*(process.stop() for process in processes))
    sent, received = stamps_of(results)
    samples = fan_out(sent, received)
    measured = max(len(sent), 1)
    view_cpu_ms = tuple(
        (result["cpu_us"] - result["thinking_us"]) / 1e3 / max(1, result["views"])
        for result in results
    )
    client_cpu_ms = statistics.fmean(result["cpu_us"] / 1e3 for result in results) / measured
    return Run(
        samples,
        server_cpu_s * 1e3 / measured,
        client_cpu_ms,
        statistics.fmean(view_cpu_ms),
        view_cpu_ms,
    )


# --------------------------------------------------------------------------- the table


@dataclass
class Side:
    """One side's runs at one table size, pooled over the repeats."""

    latencies_ms: list[float] = field(default_factory=list)
    host_cpu_ms: list[float] = field(default_factory=list)
    view_cpu_ms: list[float] = field(default_factory=list)
    overlapped: int = 0
    incomplete: int = 0

    def add(self, run: Run, samples: int) -> None:
        """Pool ``run``, its first ``samples`` samples (in the order they were sent)."""
        self.latencies_ms += [ns / 1e6 for ns in run.samples.latencies_ns[:samples]]
        self.host_cpu_ms.append(run.host_cpu_ms)
        self.view_cpu_ms += run.view_cpu_ms_each
        self.overlapped += run.samples.overlapped
        self.incomplete += run.samples.incomplete


def pair(clowder: Run, bgio: Run) -> int:
    """How many samples of each run to keep: both sides the same count."""
    return min(len(clowder.samples.latencies_ns), len(bgio.samples.latencies_ns))


def row(clients: int, rtts_ms: list[float], clowder: Side, bgio: Side) -> dict[str, Any]:
    """One table size's figures, each side's next to the other and the same run's baseline."""
    c_p99, b_p99 = percentile(clowder.latencies_ms, 0.99), percentile(bgio.latencies_ms, 0.99)
    c_host = statistics.fmean(clowder.host_cpu_ms)
    b_host = statistics.fmean(bgio.host_cpu_ms)
    return {
        "clients": clients,
        "samples": len(clowder.latencies_ms),
        "loopback_rtt_p50_ms": statistics.median(rtts_ms),
        "clowder_p50_ms": percentile(clowder.latencies_ms, 0.50),
        "clowder_p99_ms": c_p99,
        "bgio_p50_ms": percentile(bgio.latencies_ms, 0.50),
        "bgio_p99_ms": b_p99,
        "p99_ratio": b_p99 / c_p99 if c_p99 else 0.0,
        "clowder_host_cpu_ms": c_host,
        "bgio_host_cpu_ms": b_host,
        "host_cpu_ratio": b_host / c_host if c_host else 0.0,
        "clowder_view_cpu_ms": statistics.median(clowder.view_cpu_ms),
        "bgio_view_cpu_ms": statistics.median(bgio.view_cpu_ms),
    }


def goal_notes(rows: list[dict[str, Any]]) -> list[str]:
    """Whether the issue's goals are met in this run (the sizes they are stated for)."""
    notes: list[str] = []
    at_goal = [r for r in rows if r["clients"] == GOAL_CLIENTS]
    for r in at_goal:
        met = "met" if r["p99_ratio"] >= GOALS["p99_ratio"] else "NOT met"
        notes.append(
            f"goal: fan-out p99 with {GOAL_CLIENTS} clients >= {GOALS['p99_ratio']:g}x lower "
            f"than boardgame.io's: {r['p99_ratio']:.2f}x, {met}"
        )
    low = min(rows, key=lambda r: r["host_cpu_ratio"])
    met = "met" if low["host_cpu_ratio"] >= GOALS["host_cpu_ratio"] else "NOT met"
    notes.append(
        f"goal: host CPU per action >= {GOALS['host_cpu_ratio']:g}x lower than boardgame.io's "
        f"server's: lowest ratio {low['host_cpu_ratio']:.2f}x ({low['clients']} clients), {met}"
    )
    return notes


COLUMNS = [
    "clients",
    "samples",
    "loopback_rtt_p50_ms",
    "clowder_p50_ms",
    "clowder_p99_ms",
    "bgio_p50_ms",
    "bgio_p99_ms",
    "p99_ratio",
    "clowder_host_cpu_ms",
    "bgio_host_cpu_ms",
    "host_cpu_ratio",
    "clowder_view_cpu_ms",
    "bgio_view_cpu_ms",
]


def add_arguments(parser: argparse.ArgumentParser) -> list[str]:
    """This benchmark's flags (see :mod:`tests.perf.__main__`)."""
    parser.add_argument(
        "--clients",
        type=int,
        nargs="+",
        default=list(SIZES),
        metavar="N",
        help=f"table sizes to compare (default: {' '.join(map(str, SIZES))})",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=1,
        help="rounds over the sizes; each round swaps which side runs first (default: 1)",
    )
    return ["clients", "repeats"]


def measure(quick: bool, clients: Sequence[int] = SIZES, repeats: int = 1) -> Report:
    """Both sides at every size in ``clients``, alternating; see the module docstring."""
    if any(n < PLAYERS for n in clients) or repeats < 1:
        raise SystemExit(f"bench_bgio: every --clients must be at least {PLAYERS}, --repeats 1+")
    folder = cache_dir()
    try:
        node = node_ready(folder)
    except SetupError as error:
        raise SystemExit(f"bench_bgio: {error}") from None
    counts = QUICK if quick else FULL
    actions = counts["samples"]
    sizes = list(dict.fromkeys(clients))
    sides = {n: (Side(), Side()) for n in sizes}
    rtts: dict[int, list[float]] = {n: [] for n in sizes}
    with echo_server(len(sizes) * repeats) as echo_port:
        for repeat in range(repeats):
            for n in sizes:
                rtts[n] += [ns / 1e6 for ns in loopback_rtts_ns(echo_port, counts["rtt_pings"])]
                runs: dict[str, Run] = {}
                for name in ("clowder", "bgio") if repeat % 2 == 0 else ("bgio", "clowder"):
                    if name == "clowder":
                        runs[name] = asyncio.run(run_table(n, actions))
                    else:
                        runs[name] = asyncio.run(run_bgio(n, actions, node, folder))
                keep = pair(runs["clowder"], runs["bgio"])
                sides[n][0].add(runs["clowder"], keep)
                sides[n][1].add(runs["bgio"], keep)
    rows = [row(n, rtts[n], *sides[n]) for n in sizes]
    versions = ", ".join(
        f"{package} {installed_version(folder, package)}"
        for package in ("boardgame.io", "socket.io", "socket.io-client")
    )
    clowder_sides = [sides[n][0] for n in sizes]
    bgio_sides = [sides[n][1] for n in sizes]
    return Report(
        name="bgio",
        columns=COLUMNS,
        rows=rows,
        notes=[
            *goal_notes(rows),
            f"{versions}, node {node_version(node)} (NODE_ENV=production); "
            f"Python {sys.version.split()[0]}; {os.cpu_count()} CPUs shared by every process",
            "clowder: catchy at a real host (in the benchmark process); bgio: tests/perf/bgio "
            "game (Catchy!-like state and views) on boardgame.io's Server, socket.io websocket; "
            f"{PLAYERS} bot players + spectators, each client its own process, all on 127.0.0.1",
            f"sample: acting client's send stamp to the last client having the new state "
            f"(CLOCK_MONOTONIC); players pause {GAP_S * 1000:g} ms first; {repeats} run(s) a "
            "size per side, alternating which runs first; samples cut to the same count",
            "p99_ratio = bgio_p99 / clowder_p99; host_cpu_ratio = bgio / clowder host CPU "
            "(user + system, every thread) per action while the games are played (clowder: "
            "each table from everyone seated to the game's end, the moves between tables left "
            "out; bgio: its one match, made before the window)",
            "host CPU: clowder's from time.process_time(), bgio's server's from /proc/PID/stat "
            f"(resolution {1000 / os.sysconf('SC_CLK_TCK'):g} ms over the window, about "
            f"{1000 / os.sysconf('SC_CLK_TCK') / actions:.3f} ms an action)",
            "*_view_cpu_ms: a client process's CPU per state received, less its bot's "
            "choosing; median over the clients",
            "loopback_rtt: plain TCP echo of a 32-byte frame between two processes, same run",
            "overlapped / never seen by a client (should be 0): clowder "
            f"{sum(s.overlapped for s in clowder_sides)} / "
            f"{sum(s.incomplete for s in clowder_sides)}, bgio "
            f"{sum(s.overlapped for s in bgio_sides)} / {sum(s.incomplete for s in bgio_sides)}",
        ],
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.perf.bench_bgio",
        description="Install boardgame.io for the bgio benchmark "
        "(for the figures, run: python -m tests.perf bgio).",
    )
    parser.add_argument(
        "--install",
        action="store_true",
        help=f"install boardgame.io {BGIO_VERSION} with npm into {cache_dir()} "
        "(needs the npm registry: not inside netns-run)",
    )
    args = parser.parse_args(argv)
    if not args.install:
        parser.error("nothing to do without --install")
    try:
        print(install(cache_dir()))
    except SetupError as error:
        print(f"bench_bgio: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

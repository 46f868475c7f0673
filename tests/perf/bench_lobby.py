"""Lobby load: many clients asking for the table list as fast as they may, and one more client.

A host in its own process holds :data:`TABLES` Catchy! tables of in-host bots
(as in :mod:`tests.perf.bench_capacity`). :data:`FLOODERS` clients, in
:data:`FLOOD_PROCESSES` processes, each send ``list_tables`` :data:`RATE`
times a second (the most a client's message budget lets through steadily)
and read every reply. A prober, in its own process, pings the host every
:data:`~tests.perf.bench_capacity.PROBE_INTERVAL_S` and times each ``pong``.

Rows: ``flooders 0`` is the same host with only the prober (the baseline,
measured in the same run); then the flood. The goal (issue 24): the prober's
p99 under the flood at most 5x its idle p99.

Everything is on 127.0.0.1, bounded in connections and time, and stops by
itself.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import msgpack

from net.wire.framing import HOST_LIMITS, FrameReader
from tests.perf.bench_capacity import (
    WAIT_S,
    BenchmarkError,
    Pipe,
    _frame,
    _hello,
    _host_process,
    _prober_process,
    _raise_nofile,
    _reap,
    _receive,
    _start,
)
from tests.perf.bench_latency import percentile
from tests.perf.report import Report

TABLES = 25
FLOODERS = 50
FLOOD_PROCESSES = 2
RATE = 90.0
"""``list_tables`` a second per flooding client."""
FULL = {"warmup_s": 2.0, "window_s": 10.0}
QUICK = {"warmup_s": 1.0, "window_s": 3.0}


class Flooder(asyncio.Protocol):
    """Says hello, then asks for the table list at :data:`RATE`; counts the replies."""

    def __init__(self, name: str, counts: dict[str, int]) -> None:
        self.name, self.counts = name, counts
        self.frames = FrameReader(HOST_LIMITS.max_frame)
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(_hello(self.name))

    def data_received(self, data: bytes) -> None:
        self.frames.feed(data)
        while (body := self.frames.next_frame()) is not None:
            message = msgpack.unpackb(body, raw=False)
            kind = message.get("type")
            if kind == "tables":
                self.counts["replies"] += 1
            elif kind == "ping" and self.transport is not None:
                pong = {"type": "pong", "id": message["id"], "t": message["t"]}
                self.transport.write(_frame(pong))
            elif kind == "error":
                self.counts["errors"] += 1

    def ask(self, ref: int) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(_frame({"type": "list_tables", "ref": ref}))
            self.counts["asked"] += 1


def _flood_process(pipe: Pipe, port: int, clients: int, index: int) -> None:
    _raise_nofile()
    asyncio.run(_flood_main(pipe, port, clients, index))


async def _flood_main(pipe: Pipe, port: int, clients: int, index: int) -> None:
    loop = asyncio.get_running_loop()
    counts = {"asked": 0, "replies": 0, "errors": 0}
    flooders: list[Flooder] = []
    for number in range(clients):
        flooder = Flooder(f"f{index}-{number}", counts)
        await loop.create_connection(lambda f=flooder: f, "127.0.0.1", port)  # type: ignore[misc]
        flooders.append(flooder)
    pipe.send(("ready", len(flooders)))
    stop = asyncio.Event()

    async def pace(flooder: Flooder, offset: float) -> None:
        await asyncio.sleep(offset)
        ref = 0
        start = loop.time()
        while not stop.is_set():
            ref += 1
            flooder.ask(ref)
            await asyncio.sleep(max(0.0, start + ref / RATE - loop.time()))

    tasks = [
        loop.create_task(pace(flooder, number / (RATE * len(flooders))))
        for number, flooder in enumerate(flooders)
    ]
    await asyncio.to_thread(pipe.recv)  # "stop"
    stop.set()
    await asyncio.gather(*tasks)
    pipe.send(("counts", counts))
    for flooder in flooders:
        if flooder.transport is not None:
            flooder.transport.close()


def measure_row(flooders: int, settings: dict[str, float]) -> dict[str, Any]:
    processes: list[Any] = []
    try:
        host, host_pipe = _start(_host_process, TABLES)
        processes.append(host)
        _, port, _ids = _receive(host_pipe, "ready", processes)
        pipes = []
        for index in range(FLOOD_PROCESSES if flooders else 0):
            share = flooders // FLOOD_PROCESSES + (index < flooders % FLOOD_PROCESSES)
            process, pipe = _start(_flood_process, port, share, index)
            processes.append(process)
            pipes.append(pipe)
        for pipe in pipes:
            _receive(pipe, "ready", processes)
        prober, prober_pipe = _start(_prober_process, port, settings["window_s"])
        processes.append(prober)
        _receive(prober_pipe, "ready", processes)
        time.sleep(settings["warmup_s"])
        host_pipe.send("start")
        prober_pipe.send("go")
        (_, rtts) = _receive(prober_pipe, "rtts", processes, settings["window_s"] + WAIT_S)
        host_pipe.send("stop")
        _, figures, _stamps = _receive(host_pipe, "figures", processes)
        totals = {"asked": 0, "replies": 0, "errors": 0}
        for pipe in pipes:
            pipe.send("stop")
            _, counts = _receive(pipe, "counts", processes)
            for key in totals:
                totals[key] += counts[key]
        host_pipe.send("quit")
    finally:
        _reap(processes)
    probes = [ns / 1e6 for ns in rtts]
    elapsed = settings["window_s"] + settings["warmup_s"]
    return {
        "flooders": flooders,
        "asked_per_s": totals["asked"] / elapsed if flooders else 0.0,
        "answered_pct": 100.0 * totals["replies"] / totals["asked"] if totals["asked"] else None,
        "refused": totals["errors"],
        "prober_p50_ms": percentile(probes, 0.50),
        "prober_p99_ms": percentile(probes, 0.99),
        "host_cpu_pct": figures["cpu_pct"],
        "load_1m": os.getloadavg()[0],
    }


def measure(quick: bool) -> Report:
    settings = QUICK if quick else FULL
    rows = [measure_row(count, settings) for count in (0, FLOODERS)]
    idle, flood = rows[0]["prober_p99_ms"], rows[1]["prober_p99_ms"]
    if not idle or flood is None:
        raise BenchmarkError("the prober measured nothing")
    return Report(
        name="lobby",
        columns=[
            "flooders",
            "asked_per_s",
            "answered_pct",
            "refused",
            "prober_p50_ms",
            "prober_p99_ms",
            "host_cpu_pct",
            "load_1m",
        ],
        rows=rows,
        notes=[
            f"{TABLES} catchy tables of 2 in-host bots; {FLOODERS} clients in "
            f"{FLOOD_PROCESSES} processes each asking list_tables {RATE:g} times a second; "
            "a prober process pinging; host in its own process; all on 127.0.0.1",
            "flooders 0: the same host with only the prober (baseline, same run)",
            f"prober p99 under the flood / idle: {flood / idle:.1f}x (goal: <= 5x)",
            "asked_per_s counts over warm-up and window; refused: error replies (rate limits)",
        ],
    )

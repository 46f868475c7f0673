"""Discovery time on a simulated LAN: how soon a lobby lists a host.

Everything runs in a private mini LAN (:class:`tests.net.netns.MiniLan`,
two machines on a bridge), so no packet leaves this machine. Cases:

- ``multicast_rtt`` (baseline, same run): a UDP multicast ping from h2,
  answered by a multicast pong from h1; the floor any mDNS exchange sits on.
- ``browser_start_default`` / ``browser_start``: a host has been running on
  h1; a browser starts on h2 (fresh zeroconf, empty cache) and we time
  until it lists the host, with zeroconf's own first query only
  (``immediate_query=False``) and with :class:`net.client.discovery.Browser`'s
  immediate QU + QM queries (what Clowder uses); and once more with the
  browser on the host's own machine (``browser_start_same_machine``).
- ``host_start``: a browser runs on h2; a host starts on h1 and we time from
  the start of ``Advertiser.start()`` to the browser's ADDED event. The two
  processes share the kernel's monotonic clock (network namespaces do not
  change clocks), so their timestamps compare directly.

Figures are p50/p90 in milliseconds over ``runs`` runs.
"""

from __future__ import annotations

import json
from typing import Any

from tests.net.netns import ChildFailed, LineReader, MiniLan, python_command
from tests.perf.report import Report

FULL = {"pings": 200, "browser_runs": 20, "same_machine_runs": 10, "host_runs": 12}
QUICK = {"pings": 20, "browser_runs": 3, "same_machine_runs": 2, "host_runs": 2}
PROTOCOL_VERSION = 1
READ_TIMEOUT_S = 60.0

_GROUP = "239.255.77.77"
_PING_PORT = 41234

_PONG = f"""
import socket, struct
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
sock.bind(("", {_PING_PORT}))
here = socket.inet_aton("{{address}}")
sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, socket.inet_aton("{_GROUP}") + here)
sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, here)
sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 0)
print("ready", flush=True)
while True:
    data, _ = sock.recvfrom(64)
    if data == b"stop":
        break
    sock.sendto(b"pong" + data[4:], ("{_GROUP}", {_PING_PORT} + 1))
"""

_PING = f"""
import json, socket, time
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
sock.bind(("", {_PING_PORT} + 1))
here = socket.inet_aton("{{address}}")
sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, socket.inet_aton("{_GROUP}") + here)
sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, here)
sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 0)
sock.settimeout(2.0)
rtts = []
for i in range({{pings}}):
    tag = str(i).encode()
    started = time.perf_counter()
    sock.sendto(b"ping" + tag, ("{_GROUP}", {_PING_PORT}))
    while True:
        data, _ = sock.recvfrom(64)
        if data == b"pong" + tag:
            break
    rtts.append((time.perf_counter() - started) * 1000)
    time.sleep(0.002)
sock.sendto(b"stop", ("{_GROUP}", {_PING_PORT}))
print(json.dumps(rtts), flush=True)
"""

_HOST_FOREVER = f"""
import asyncio, sys
from net.client.discovery import Advertiser, TableSummary

async def main():
    tables = [TableSummary("t1", "catchy", 2)]
    async with Advertiser(port=7777, protocol_version={PROTOCOL_VERSION}, name="bench-host",
                          games=["catchy"], tables=tables):
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)

asyncio.run(main())
"""

_BROWSER_RUNS = """
import asyncio, json, time
from net.client.discovery import Browser

async def main():
    for _ in range({runs}):
        found = asyncio.get_running_loop().create_future()
        def on_event(event):
            if not found.done():
                found.set_result(time.monotonic())
        started = time.monotonic()
        async with Browser(on_event=on_event, immediate_query={immediate}):
            listed = await asyncio.wait_for(found, 20)
        print(json.dumps((listed - started) * 1000), flush=True)
        await asyncio.sleep({pause})

asyncio.run(main())
"""

_BROWSER_WATCH = """
import asyncio, json, time
from net.client.discovery import Browser

def on_event(event):
    print(json.dumps({"kind": event.kind.value, "instance": event.host.instance,
                      "at": time.monotonic()}), flush=True)

async def main():
    async with Browser(on_event=on_event):
        print(json.dumps({"kind": "ready"}), flush=True)
        await asyncio.sleep(3600)

asyncio.run(main())
"""

_HOST_RUNS = f"""
import asyncio, json, time
from net.client.discovery import Advertiser

async def main():
    for run in range({{runs}}):
        advertiser = Advertiser(port=7000 + run, protocol_version={PROTOCOL_VERSION},
                                name=f"bench-run-{{{{run}}}}", games=["catchy"])
        started = time.monotonic()
        await advertiser.start()
        print(json.dumps({{{{"instance": advertiser.instance, "started": started}}}}), flush=True)
        await asyncio.sleep(0.5)
        await advertiser.stop()
        await asyncio.sleep(0.3)

asyncio.run(main())
"""


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile (``fraction`` in 0..1) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, round(fraction * len(ordered) + 0.5 - 1e-9))
    return ordered[min(rank, len(ordered)) - 1]


def _row(case: str, samples: list[float]) -> dict[str, Any]:
    return {
        "case": case,
        "p50_ms": percentile(samples, 0.5),
        "p90_ms": percentile(samples, 0.9),
        "runs": len(samples),
    }


def _expect_ready(reader: LineReader) -> None:
    line = reader.next(READ_TIMEOUT_S)
    if "ready" not in line:
        raise ChildFailed(f"expected 'ready' from a benchmark process, got {line!r}")


def _multicast_rtt(lan: MiniLan, pings: int) -> list[float]:
    pong = lan.spawn(1, python_command(_PONG.format(address=lan.address(1))))
    _expect_ready(LineReader(pong))
    ping = lan.spawn(2, python_command(_PING.format(address=lan.address(2), pings=pings)))
    rtts: list[float] = json.loads(LineReader(ping).next(READ_TIMEOUT_S))
    ping.wait(timeout=30)
    pong.wait(timeout=30)
    return rtts


def _browser_start(
    lan: MiniLan, runs: int, immediate: bool, machine: int = 2, pause: float = 0.2
) -> list[float]:
    code = _BROWSER_RUNS.format(runs=runs, immediate=immediate, pause=pause)
    browser = LineReader(lan.spawn(machine, python_command(code)))
    samples = [float(browser.next(READ_TIMEOUT_S)) for _ in range(runs)]
    browser.process.wait(timeout=30)
    return samples


def _host_start(lan: MiniLan, runs: int) -> list[float]:
    watcher = LineReader(lan.spawn(2, python_command(_BROWSER_WATCH)))
    _expect_ready(watcher)
    host = LineReader(lan.spawn(1, python_command(_HOST_RUNS.format(runs=runs))))
    started: dict[str, float] = {}
    while len(started) < runs:
        record = json.loads(host.next(READ_TIMEOUT_S))
        started[record["instance"]] = record["started"]
    host.process.wait(timeout=60)
    samples: dict[str, float] = {}
    while len(samples) < runs:
        event = json.loads(watcher.next(READ_TIMEOUT_S))
        if event["kind"] == "added" and event["instance"] in started:
            samples[event["instance"]] = (event["at"] - started[event["instance"]]) * 1000
    watcher.process.kill()
    return [samples[instance] for instance in started]


def measure(quick: bool) -> Report:
    """Discovery times and the multicast round trip, in one mini LAN (needs root)."""
    sizes = QUICK if quick else FULL
    with MiniLan(2) as lan:
        rtts = _multicast_rtt(lan, sizes["pings"])
        host = lan.spawn(1, python_command(_HOST_FOREVER))
        _expect_ready(LineReader(host))
        default = _browser_start(lan, sizes["browser_runs"], immediate=False)
        immediate = _browser_start(lan, sizes["browser_runs"], immediate=True)
        # Spaced 1.2 s apart: a responder multicasts a record at most once a second.
        same_machine = _browser_start(
            lan, sizes["same_machine_runs"], immediate=True, machine=1, pause=1.2
        )
        assert host.stdin is not None
        host.stdin.close()
        host.wait(timeout=30)
        host_start = _host_start(lan, sizes["host_runs"])
    rows = [
        _row("multicast_rtt", rtts),
        _row("browser_start_default", default),
        _row("browser_start", immediate),
        _row("browser_start_same_machine", same_machine),
        _row("host_start", host_start),
    ]
    notes = [
        "multicast_rtt: UDP multicast ping h2 -> pong h1 (baseline, same run)",
        "browser_start_default: zeroconf's first query only (20-120 ms jitter)",
        "browser_start: net.client.discovery.Browser with its immediate QU + QM queries (used)",
        "browser_start_same_machine: the same, browser and host both on h1",
        "host_start: Advertiser.start() on h1 to ADDED in a running Browser on h2",
    ]
    return Report("discovery", ["case", "p50_ms", "p90_ms", "runs"], rows, notes)

"""The web gateway's cost: connect to the lobby drawn, and memory per browser session.

A host with its SSH gateway and its web gateway runs on 127.0.0.1 (any free
ports, a temporary state folder), with two Catchy! tables. The browser is
played by an HTTP client that does what the page does (GET the page for
its cookie, open the websocket, read the terminal output the page would
draw); the figures are next to the SSH gateway's, measured alternately in
the same run (the same client program behind both).

- ``web_connect_lobby``: a returning browser (its name is kept in its
  folder) from opening the websocket until the lobby's tables are in the
  output. Baseline: an SSH login until the same text (bench_ssh's
  ``ssh_connect_lobby``).
- ``web_first_visit_name``: a browser never seen, from fetching the page
  until the client asks its name (the first thing a newcomer sees).
  Baseline: the returning browser's connect above.
- ``web_session_rss_mb``: the resident memory of one browser's client
  process once its lobby is drawn. Baseline: an SSH session's client process.
- ``web_gateway_rss_mb``: what the gateway's serving adds to the host process
  (resident memory after the sessions, less before the gateway started).
  Baseline: the SSH gateway, alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from net.doors.ssh_gateway import SshGateway
from net.doors.web_gateway import WebGateway
from tests.net.hosting import running_host
from tests.perf.bench_ssh import LOBBY_WORDS, SIZE, Screen, over_ssh
from tests.perf.report import Report, timing_row

FULL = {"connects": 12}
QUICK = {"connects": 2}
NAME_WORDS = ("Your name",)


def rss_mb(pid: int | None) -> float:
    """Resident memory of process ``pid`` in MB (0 when it is gone)."""
    if pid is None:
        return 0.0
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def self_rss_mb() -> float:
    return rss_mb(os.getpid())


class Page:
    """What a browser tab does with the gateway: the page (its cookie), then the websocket."""

    def __init__(self, http: aiohttp.ClientSession, base: str) -> None:
        self.http, self.base = http, base
        self.screen = Screen()
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        async with self.http.get(self.base + "/") as page:
            await page.read()
        columns, rows = SIZE
        self.ws = await self.http.ws_connect(f"{self.base}/ws?width={columns}&height={rows}")
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.screen.received(message.data)

    async def type(self, text: str) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps(["stdin", text]))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader


async def run(connects: int, folder: Path) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {
        key: []
        for key in ("web", "ssh", "first", "web_rss", "ssh_rss", "web_gateway", "ssh_gateway")
    }
    lines: list[str] = []
    async with running_host(folder) as host:
        for _ in range(2):
            host.create_table("catchy", {}, seats=2, bots=1, created_by="host")
        # Both gateways on loopback, any free port, joining this host, logging to a list.
        where: dict[str, Any] = {
            "game_address": "127.0.0.1",
            "game_port": host.port,
            "state_dir": folder,
            "bind": "127.0.0.1",
            "port": 0,
            "log": lines.append,
        }
        before_ssh = self_rss_mb()
        ssh = SshGateway(**where)
        await ssh.start()
        before_web = self_rss_mb()
        web = WebGateway(**where)
        await web.start()
        base = f"http://127.0.0.1:{web.port}"
        jar = aiohttp.CookieJar(unsafe=True)
        try:
            async with aiohttp.ClientSession(cookie_jar=jar) as http:
                # The first visit: the client asks the name; it is kept for every later one.
                page = Page(http, base)
                started = time.perf_counter()
                await page.open()
                figures["first"].append((await page.screen.wait_for(NAME_WORDS) - started) * 1000)
                await page.type("Wendy\r")
                await page.screen.wait_for(LOBBY_WORDS)
                await page.close()
                for index in range(connects):
                    page = Page(http, base)
                    started = time.perf_counter()
                    await page.open()
                    drawn = await page.screen.wait_for(LOBBY_WORDS)
                    figures["web"].append((drawn - started) * 1000)
                    session = next(iter(web.sessions), None)
                    figures["web_rss"].append(rss_mb(session.client.pid if session else None))
                    figures["web_gateway"].append(self_rss_mb() - before_web)
                    await page.close()

                    def ssh_memory() -> None:
                        pids = [s.pty.pid for s in ssh.counts.sessions if s.pty is not None]
                        figures["ssh_rss"].extend(rss_mb(pid) for pid in pids)

                    lobby_ms, _, _ = await over_ssh(ssh.port, f"s{index}", 0, ssh_memory)
                    figures["ssh"].append(lobby_ms)
                    figures["ssh_gateway"].append(before_web - before_ssh)
        finally:
            await web.close()
            await ssh.close()
    return figures


def measure(quick: bool) -> Report:
    """Connect-to-lobby and memory of browser sessions, next to SSH sessions."""
    sizes = QUICK if quick else FULL
    with tempfile.TemporaryDirectory(prefix="clowder-bench-web-") as folder:
        figures = asyncio.run(run(sizes["connects"], Path(folder)))
    rows: list[dict[str, Any]] = [
        timing_row("web_connect_lobby", figures["web"], figures["ssh"]),
        timing_row("web_first_visit_name", figures["first"], figures["web"]),
    ]
    for name, key, base in (
        ("web_session_rss_mb", "web_rss", "ssh_rss"),
        ("web_gateway_rss_mb", "web_gateway", "ssh_gateway"),
    ):
        rows.append(
            {
                "measure": name,
                "n": len(figures[key]),
                "p50": statistics.median(figures[key]),
                "baseline_p50": statistics.median(figures[base]),
            }
        )
    return Report(
        name="web",
        columns=[
            "measure",
            "n",
            "p50_ms",
            "p99_ms",
            "baseline_p50_ms",
            "baseline_p99_ms",
            "p50_over_baseline",
            "p50",
            "baseline_p50",
        ],
        rows=rows,
        notes=[
            "loopback, 80x24; the browser is an HTTP client doing what the page does; "
            "baseline: the SSH gateway (asyncssh client), measured alternately in the same run",
            "connect_lobby: websocket open -> lobby tables in the output (the client process's "
            "start included), for a browser coming back (its name kept)",
            "first_visit_name: page fetched -> the name question, for a new browser; "
            "baseline: web_connect_lobby",
            "rss: resident MB of one session's client process (baseline: an SSH session's); "
            "gateway: what starting it added to the host process (baseline: the SSH gateway's)",
        ],
    )

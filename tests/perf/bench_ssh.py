"""The SSH gateway's speed: connect to the lobby drawn, and a key's round trip to the screen.

A host and its SSH gateway run on 127.0.0.1 (any free ports, a temporary
state folder), with two Catchy! tables so the lobby has something to move
between. Each figure sits next to a baseline taken in the same run: the
very same Clowder client (the gateway's command and environment) started
on a local pseudo-terminal, with no SSH in between.

- ``ssh_connect_lobby``: from opening the TCP connection (key exchange,
  login, session, terminal, the client process starting) until the lobby's
  tables are on the screen the SSH client received. Baseline: spawning the
  client on a local terminal until the same text is on it.
- ``ssh_key_roundtrip``: in that lobby (tab to the tables first), a key
  (down or up, moving the table cursor) sent through SSH until the redraw it causes has reached the
  SSH client (its last byte; a redraw is the burst of output that ends
  with :data:`QUIET_S` of silence, which is not counted). Baseline: the
  same key typed into the local client's terminal.
- ``ssh_key_first_byte``: the same presses, until the first byte of the
  redraw arrived (what a player sees begin to change).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import asyncssh

from net.doors.ssh_gateway import SshGateway, client_command, client_environment
from net.doors.ssh_pty import PtyProcess
from tests.net.hosting import running_host
from tests.perf.report import Report, timing_row

FULL = {"connects": 20, "keys": 100}
QUICK = {"connects": 2, "keys": 10}
WAIT_S = 30.0
"""Longest wait for anything (a client starting on a loaded machine); the run stops then."""
QUIET_S = 0.03
"""Silence that ends a redraw's burst of output."""
SIZE = (80, 24)
LOBBY_WORDS = ("Clowder lobby", "Tables on", "Catchy")

ESCAPES = re.compile(
    rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|P[^\x1b]*\x1b\\"
    rb"|[()][0-9A-Za-z]|[=>78cDEHM])"
)


class Screen:
    """Output bytes as they arrive, with each chunk's arrival time."""

    def __init__(self) -> None:
        self.raw = bytearray()
        self.stamps: list[tuple[int, float]] = []  # (offset after the chunk, arrival)
        self.changed = asyncio.Event()

    def received(self, data: bytes) -> None:
        self.raw += data
        self.stamps.append((len(self.raw), time.perf_counter()))
        self.changed.set()

    def text(self) -> str:
        return ESCAPES.sub(b"", bytes(self.raw)).decode(errors="replace")

    async def wait_for(self, words: tuple[str, ...]) -> float:
        """Wait until every one of ``words`` is on the screen; when the chunk holding it came."""
        deadline = time.monotonic() + WAIT_S
        while not all(word in self.text() for word in words):
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"never saw {words!r}:\n{self.text()[-1500:]}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return self.stamps[-1][1]

    async def quiet(self) -> None:
        """Wait until nothing has arrived for :data:`QUIET_S`."""
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), QUIET_S)
            except TimeoutError:
                return
        raise RuntimeError("the screen never went quiet")

    async def burst_after(self, mark: int) -> tuple[float, float]:
        """Arrival of the first and the last chunk after ``mark`` (the burst ends in silence)."""
        deadline = time.monotonic() + WAIT_S
        while len(self.raw) <= mark:
            self.changed.clear()
            if time.monotonic() > deadline:
                raise RuntimeError("a key changed nothing on the screen")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 0.5)
        await self.quiet()
        after = [stamp for end, stamp in self.stamps if end > mark]
        return after[0], after[-1]


async def key_presses(
    type_key: Callable[[bytes], None], screen: Screen, count: int
) -> tuple[list[float], list[float]]:
    """Down and up in turn, ``count`` times: (ms to the last byte, ms to the first byte)."""
    whole: list[float] = []
    first: list[float] = []
    await screen.quiet()
    if count:
        mark = len(screen.raw)
        type_key(b"\t")  # from the hosts (one here) to the tables
        await screen.burst_after(mark)
    for index in range(count):
        mark = len(screen.raw)
        started = time.perf_counter()
        type_key(b"\x1b[B" if index % 2 == 0 else b"\x1b[A")
        begun, ended = await screen.burst_after(mark)
        if b"t2 " not in screen.raw[mark:]:
            raise RuntimeError("the key did not redraw the tables (a timed refresh came instead)")
        first.append((begun - started) * 1000)
        whole.append((ended - started) * 1000)
    return whole, first


async def over_ssh(
    port: int, name: str, keys: int, on_lobby: Callable[[], None] | None = None
) -> tuple[float, list[float], list[float]]:
    """One SSH session: ms to the lobby drawn, then ``keys`` presses timed (``on_lobby`` is
    called once the lobby is drawn, while the session is on: bench_web reads its memory)."""
    screen = Screen()
    started = time.perf_counter()
    async with asyncssh.connect(
        "127.0.0.1",
        port,
        username=name,
        known_hosts=None,
        agent_path=None,
        client_keys=None,
        password="",
        connect_timeout=WAIT_S,
    ) as conn:
        process = await conn.create_process(
            term_type="xterm-256color", term_size=SIZE, encoding=None
        )

        async def read() -> None:
            while data := await process.stdout.read(65536):
                screen.received(data)

        reader = asyncio.get_running_loop().create_task(read())
        try:
            drawn = await screen.wait_for(LOBBY_WORDS)
            lobby_ms = (drawn - started) * 1000
            if on_lobby is not None:
                on_lobby()
            whole, first = await key_presses(process.stdin.write, screen, keys)
        finally:
            process.close()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
    return lobby_ms, whole, first


async def on_local_terminal(
    game_port: int, folder: Path, name: str, keys: int
) -> tuple[float, list[float], list[float]]:
    """The same client on a local pseudo-terminal: ms to the lobby drawn, then the presses."""
    screen = Screen()
    terminal = PtyProcess(screen.received)
    player = folder / name
    player.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    await terminal.start(
        client_command("127.0.0.1", game_port, name),
        env=client_environment(os.environ, player, "xterm-256color"),
        cwd=player,
        size=SIZE,
    )
    try:
        drawn = await screen.wait_for(LOBBY_WORDS)
        lobby_ms = (drawn - started) * 1000
        whole, first = await key_presses(terminal.write, screen, keys)
    finally:
        terminal.hang_up()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(terminal.wait(), WAIT_S)
        terminal.close()
    return lobby_ms, whole, first


async def run(connects: int, keys: int, folder: Path) -> dict[str, tuple[list[float], ...]]:
    lines: list[str] = []
    async with running_host(folder) as host:
        for _ in range(2):
            host.create_table("catchy", {}, seats=2, bots=1, created_by="host")
        gateway = SshGateway(
            game_address="127.0.0.1",
            game_port=host.port,
            state_dir=folder,
            bind="127.0.0.1",
            port=0,
            log=lines.append,
        )
        await gateway.start()
        try:
            ssh: tuple[list[float], list[float], list[float]] = ([], [], [])
            local: tuple[list[float], list[float], list[float]] = ([], [], [])
            for index in range(connects):
                # Alternate, so a slow spell of the machine hits both alike.
                per = keys if index == 0 else 0
                for into, result in (
                    (local, await on_local_terminal(host.port, folder / "local", f"l{index}", per)),
                    (ssh, await over_ssh(gateway.port, f"s{index}", per)),
                ):
                    into[0].append(result[0])
                    into[1].extend(result[1])
                    into[2].extend(result[2])
        finally:
            await gateway.close()
    return {"ssh": ssh, "local": local}


def measure(quick: bool) -> Report:
    """Connect-to-lobby and key round trips through SSH, next to a local terminal."""
    sizes = QUICK if quick else FULL
    with tempfile.TemporaryDirectory(prefix="clowder-bench-ssh-") as folder:
        figures = asyncio.run(run(sizes["connects"], sizes["keys"], Path(folder)))
    ssh, local = figures["ssh"], figures["local"]
    return Report(
        name="ssh",
        columns=[
            "measure",
            "n",
            "p50_ms",
            "p99_ms",
            "baseline_p50_ms",
            "baseline_p99_ms",
            "p50_over_baseline",
        ],
        rows=[
            timing_row("ssh_connect_lobby", ssh[0], local[0]),
            timing_row("ssh_key_roundtrip", ssh[1], local[1]),
            timing_row("ssh_key_first_byte", ssh[2], local[2]),
        ],
        notes=[
            "loopback, 80x24, asyncssh client; baseline: the same client command and "
            "environment on a local pseudo-terminal, measured alternately in the same run",
            "connect_lobby: TCP connect -> lobby tables on the screen (includes the client "
            "process's start); baseline: spawn -> the same text",
            f"key: down/up in the lobby -> last byte of the redraw ({QUIET_S * 1000:.0f} ms of "
            "silence ends it, not counted); first_byte: -> its first byte",
        ],
    )

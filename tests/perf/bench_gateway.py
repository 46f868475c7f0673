"""Gateway capacity: N players over SSH and through the web door on this one machine.

For each N (4, 8 and 16 players; ``--quick``: 4), a fresh ``clowder host`` runs
in a process of its own on 127.0.0.1 with its SSH gateway and its web page, and
N/4 Black Cat tables (three seats: two players and a bot) and N/4 Kitten Me!
tables (four seats: two players and two bots). Half the players come over SSH
(an asyncssh client, 80x24), half through the web door (an HTTP client that
speaks textual-serve's protocol as the page does: the page for its cookie,
then the websocket; no browser). Each table gets one of each. Every player is
a client process on the host's machine, as in real use; the players' own
ends (the SSH and websocket clients) run in this benchmark's process.

Phases, per N:

1. ``background``: the machine's busy share before the host starts (others'
   work on a shared box: the baseline for the CPU figures).
2. The players reach the lobby, where they sit still for a while:
   ``lobby_idle_pct_per_player``, the host's processes' CPU (host and every
   player's client process) per idle player, in % of one core.
3. Each player joins its table by keys (tab, down, enter), and once the games
   are on, plays for the window:

   - at Black Cat, a player waits for a card (its prompt ``Grab ...``), looks
     at it a human moment, presses ``1``, and times the key until the screen it
     receives says ``Grabbing`` (the grab shown: from the terminal output
     stream, the first chunk holding it);
   - at Kitten Me!, a player presses ``r`` about once a second, which opens the
     rules and closes them again, timed until the screen says so.

   A wire-level spectator at each table counts its views, so a player's client
   process's CPU can be divided by the views it drew.

Figures, per N: the key -> screen p50/p99 of SSH and of web players (and the
keys that showed nothing in 2 s); the p99 of the grabs alone (``grab_p99_ms``, issue
35's "key -> grab shown") and of the rules pages alone (``rules_p99_ms``: each
Kitten Me! player's first look makes its page, and all of them look at once);
``box_cpu_pct`` (the host's process and its
players' client processes, in % of the whole machine), ``machine_pct`` (all of
the machine, this benchmark's clients and others' work included),
``session_cpu_per_view_ms`` (a player's client process's CPU per view its
table had), ``session_rss_mib`` (a player's client process) and
``host_rss_mib``.

Everything stays on 127.0.0.1; run it inside a private network namespace
(``netns-run``), as anything that starts a host.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import asyncssh

from tests.perf.bench_ssh import ESCAPES, SIZE
from tests.perf.report import Report, percentile, rss_mib

ROOT = Path(__file__).resolve().parents[2]
SIZES = (4, 8, 16)
QUICK_SIZES = (4,)
FULL = {"window_s": 20.0, "idle_s": 10.0, "background_s": 3.0}
QUICK = {"window_s": 6.0, "idle_s": 4.0, "background_s": 1.0}
LOBBY_SETTLE_S = 8.0
"""Time the players sit in the lobby before its idle cost is counted: a lobby just reached
lists the tables every 1.5 s until four listings in a row found them as they were, and a
new connection is pinged five times a second until its clock estimate is ready. The figure
is what a lobby costs once it sits still, not its arrival."""
WAIT_S = 60.0
"""Longest wait for any one step (a host starting, a lobby, a table, a game)."""
KEY_WAIT_S = 2.0
"""A key whose effect is not on the screen by then counts as showing nothing."""
HUMAN_PAUSE_S = (0.15, 0.45)
"""How long a Black Cat player looks at a new card before grabbing (the host refuses < 80 ms)."""
KITTEN_EVERY_S = 1.0
CONNECT_AT_ONCE = 2
"""Players connecting at the same time (each starts a client process on this machine)."""
TICKS = os.sysconf("SC_CLK_TCK")
SCHEDSTAT = os.path.exists("/proc/self/schedstat")
LOBBY_WORD = "Tables on"


# --------------------------------------------------------------------------- the machine


def cpu_seconds(pid: int) -> float:
    """CPU seconds of process ``pid`` so far (0 when it is gone): the time each of its threads
    ran, in ns (``/proc/PID/task/*/schedstat``). ``/proc/PID/stat``'s user and system times
    count in clock ticks (10 ms): an idle lobby player's process uses about one tick in ten
    seconds, so the lobby figure came out in steps of a tick. Without schedstat (a kernel
    built without it), the ticks. A thread that has ended is no longer counted; a player's
    client process keeps its threads for its life."""
    if not SCHEDSTAT:
        return _tick_seconds(pid)
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0.0
    total_ns = 0
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as schedstat:
                total_ns += int(schedstat.read().split()[0])
        except OSError:
            continue  # the thread ended as we looked
    return total_ns / 1e9


def _tick_seconds(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` in clock ticks (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def children(pid: int) -> list[int]:
    """Every process whose parent is ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def player_of(pid: int) -> str:
    """Which player a client process serves: an SSH player's ``--name``, a browser's name
    from its folder's config (asked on its first visit); empty if neither is known."""
    import json

    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            args = cmdline.read().decode(errors="replace").split("\0")
        with open(f"/proc/{pid}/environ", "rb") as environ:
            env = dict(
                item.split("=", 1)
                for item in environ.read().decode(errors="replace").split("\0")
                if "=" in item
            )
    except OSError:
        return ""
    for arg in args:
        if arg.startswith("--name="):
            return arg.removeprefix("--name=")
    folder = env.get("CLOWDER_CONFIG_DIR")
    if folder:
        with contextlib.suppress(OSError, ValueError):
            data = json.loads((Path(folder) / "config.json").read_text(encoding="utf-8"))
            return str(data.get("name") or "")
    return ""


def machine_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine since boot (``/proc/stat``)."""
    with open("/proc/stat") as stat:
        values = [int(value) for value in stat.readline().split()[1:]]
    idle = values[3] + values[4]  # idle and iowait
    total = sum(values[:8])
    return total - idle, total


@dataclass
class Usage:
    """CPU use between :meth:`start` and :meth:`stop`: the host's tree and the machine."""

    host: int
    wall: float = 0.0
    tree_s: float = 0.0
    machine: float = 0.0
    per_pid: dict[int, float] = field(default_factory=dict)
    _started: tuple[float, dict[int, float], tuple[int, int]] | None = None

    def _tree(self) -> dict[int, float]:
        pids = [self.host, *children(self.host)]
        return {pid: cpu_seconds(pid) for pid in pids}

    def start(self) -> None:
        self._started = (time.monotonic(), self._tree(), machine_ticks())

    def stop(self) -> None:
        assert self._started is not None
        began, before, (busy0, total0) = self._started
        after = self._tree()
        busy1, total1 = machine_ticks()
        self.wall = time.monotonic() - began
        self.per_pid = {pid: after[pid] - before.get(pid, 0.0) for pid in after}
        self.tree_s = sum(self.per_pid.values())
        self.machine = (busy1 - busy0) / max(1, total1 - total0)

    def box_pct(self) -> float:
        """The host's tree's CPU in % of the whole machine (every core)."""
        return 100 * self.tree_s / (self.wall * (os.cpu_count() or 1))

    def core_pct(self) -> float:
        """The host's tree's CPU in % of one core."""
        return 100 * self.tree_s / self.wall


def background_pct(seconds: float) -> float:
    """The machine's busy share, in %, over ``seconds`` with nothing of ours running."""
    busy0, total0 = machine_ticks()
    time.sleep(seconds)
    busy1, total1 = machine_ticks()
    return 100 * (busy1 - busy0) / max(1, total1 - total0)


# --------------------------------------------------------------------------- a player's screen


class Screen:
    """A terminal's output as it arrives: each chunk's end offset and arrival time."""

    def __init__(self) -> None:
        self.raw = bytearray()
        self.stamps: list[tuple[int, float]] = []
        self.changed = asyncio.Event()

    def received(self, data: bytes) -> None:
        self.raw += data
        self.stamps.append((len(self.raw), time.perf_counter()))
        self.changed.set()

    def text(self, start: int = 0, end: int | None = None) -> str:
        return ESCAPES.sub(b"", bytes(self.raw[start:end])).decode(errors="replace")

    async def until(self, words: tuple[str, ...], mark: int, timeout: float) -> tuple[str, float]:
        """The first of ``words`` to appear after offset ``mark``, and when the chunk that
        completed it arrived; raises ``TimeoutError``."""
        deadline = time.monotonic() + timeout
        checked = 0
        while True:
            for index in range(checked, len(self.stamps)):
                end, arrived = self.stamps[index]
                if end <= mark:
                    continue
                shown = self.text(mark, end)
                for word in words:
                    if word in shown:
                        return word, arrived
            checked = len(self.stamps)
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"never saw {words!r}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):
                    await self.changed.wait()


class Player(abc.ABC):
    """One player's terminal: over SSH or through the web door (each door's subclass opens,
    types into and closes it)."""

    kind = ""

    def __init__(self, name: str, table: int, game: str, address: str = "127.0.0.1") -> None:
        self.name = name
        self.table = table
        self.game = game
        self.address = address
        """Where the host's doors are (a simulated LAN's host box, for a by-hand run)."""
        self.screen = Screen()
        self.samples: list[float] = []
        self.misses = 0

    @abc.abstractmethod
    async def open(self, ports: dict[str, int]) -> None:
        """Connect to the host's door and start reading this player's screen."""

    @abc.abstractmethod
    def type(self, data: str) -> None:
        """Send ``data`` as typed keys."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Hang up."""

    async def key(self, data: str, words: tuple[str, ...]) -> str | None:
        """Press ``data``; which of ``words`` the screen showed first (``None``: none in
        :data:`KEY_WAIT_S`), its milliseconds kept as a sample."""
        mark = len(self.screen.raw)
        started = time.perf_counter()
        self.type(data)
        try:
            word, arrived = await self.screen.until(words, mark, KEY_WAIT_S)
        except TimeoutError:
            self.misses += 1
            return None
        self.samples.append((arrived - started) * 1000)
        return word

    async def sit(self) -> None:
        """From the lobby to this player's table: tab to the tables, down to it, enter."""
        await self.screen.until((LOBBY_WORD,), 0, WAIT_S)
        await asyncio.sleep(0.3)
        mark = len(self.screen.raw)
        self.type("\t")
        await asyncio.sleep(0.3)
        for _ in range(self.table):
            self.type("\x1b[B")
            await asyncio.sleep(0.15)
        await asyncio.sleep(0.3)
        self.type("\r")
        at_table = ("Pile 1", "waiting for players", "Bids:", "Get ready", "Waiting for")
        await self.screen.until(at_table, mark, WAIT_S)

    async def play(self, until: float) -> None:
        """Play by keys until ``until`` (``time.monotonic``)."""
        if self.game == "blackcat":
            await self._grab(until)
        else:
            await self._rules(until)

    async def _grab(self, until: float) -> None:
        mark = 0  # a card may be up already (its prompt drawn before the window began)
        while time.monotonic() < until:
            try:
                await self.screen.until(
                    ("into pile 1,",), mark, max(0.01, until - time.monotonic())
                )
            except TimeoutError:
                return
            await asyncio.sleep(random.uniform(*HUMAN_PAUSE_S))
            if time.monotonic() >= until:
                return
            await self.key("1", ("Grabbing",))
            mark = len(self.screen.raw)

    async def _rules(self, until: float) -> None:
        while time.monotonic() < until:
            await self.key("r", ("accessory", "Bids:"))
            await asyncio.sleep(KITTEN_EVERY_S * random.uniform(0.7, 1.3))


class SshPlayer(Player):
    kind = "ssh"

    async def open(self, ports: dict[str, int]) -> None:
        self._conn = await asyncssh.connect(
            self.address,
            ports["ssh"],
            username=self.name,
            known_hosts=None,
            agent_path=None,
            client_keys=None,
            password="",
            connect_timeout=WAIT_S,
        )
        self._process = await self._conn.create_process(
            term_type="xterm-256color", term_size=SIZE, encoding=None
        )
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        while data := await self._process.stdout.read(65536):
            self.screen.received(data)

    def type(self, data: str) -> None:
        self._process.stdin.write(data.encode())

    async def close(self) -> None:
        self._process.close()
        self._reader.cancel()
        await asyncio.wait([self._reader])
        self._conn.close()
        with contextlib.suppress(Exception):
            await self._conn.wait_closed()


class WebPlayer(Player):
    kind = "web"

    async def open(self, ports: dict[str, int]) -> None:
        import json

        self._json = json
        self._http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        base = f"http://{self.address}:{ports['web']}"
        async with self._http.get(base + "/") as page:
            await page.read()
        columns, rows = SIZE
        self._ws = await self._http.ws_connect(f"{base}/ws?width={columns}&height={rows}")
        self._reader = asyncio.get_running_loop().create_task(self._read())
        await self.screen.until(("Your name",), 0, WAIT_S)  # a browser never seen: its name
        self.type(f"{self.name}\r")

    async def _read(self) -> None:
        async for message in self._ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.screen.received(message.data)

    def type(self, data: str) -> None:
        asyncio.get_running_loop().create_task(self._ws.send_str(self._json.dumps(["stdin", data])))

    async def close(self) -> None:
        await self._ws.close()
        self._reader.cancel()
        await asyncio.wait([self._reader])
        await self._http.close()


# --------------------------------------------------------------------------- the host


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def host_flags() -> set[str]:
    """The options this tree's ``clowder host`` has (older trees lack some)."""
    shown = subprocess.run(
        [sys.executable, "-m", "tui", "host", "--help"],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    return {word.strip("[],") for word in shown.split() if word.startswith("--")}


@contextlib.contextmanager
def host_process(folder: Path, tables: list[str], ports: dict[str, int]) -> Iterator[int]:
    """``clowder host`` on 127.0.0.1 with its SSH gateway, web page and ``tables``."""
    flags = host_flags()
    command = [
        sys.executable,
        "-m",
        "tui",
        "host",
        "--bind=127.0.0.1",
        f"--port={ports['game']}",
        "--no-discovery",
        "--name=bench",
        f"--state-dir={folder / 'host'}",
        f"--ssh={ports['ssh']}",
        f"--web={ports['web']}",
        "--ssh-sessions=24",
        "--web-sessions=24",
        *(f"--table={table}" for table in tables),
    ]
    for flag in ("--ssh-per-address", "--web-per-address"):
        if flag in flags:
            command.append(f"{flag}=24")
    env = dict(os.environ, PYTHONPATH=str(ROOT), CLOWDER_CONFIG_DIR=str(folder / "config"))
    with open(folder / "host.log", "w") as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log
        )
        try:
            deadline = time.monotonic() + WAIT_S
            for port in ports.values():
                while True:
                    with (
                        contextlib.suppress(OSError),
                        socket.create_connection(("127.0.0.1", port), timeout=1),
                    ):
                        break
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(
                            f"the host did not start: {(folder / 'host.log').read_text()[-800:]}"
                        )
                    time.sleep(0.2)
            yield process.pid
        finally:
            process.terminate()
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


class Watcher:
    """A spectator on the wire at one table: counts its views."""

    def __init__(self, port: int, table: str) -> None:
        from net.client.client import Client

        self.table = table
        self.views = 0
        self.client = Client("127.0.0.1", port, f"watch-{table}", reconnect=False)
        self.client.on_message = self._seen

    def _seen(self, message: Any) -> None:
        from net.wire.messages import View

        if isinstance(message, View) and message.table == self.table:
            self.views += 1

    async def start(self) -> None:
        await self.client.connect()
        await self.client.join(self.table, "spectator")

    async def list_tables(self) -> list[dict[str, Any]]:
        return await self.client.list_tables()


# --------------------------------------------------------------------------- one size


def seating(count: int) -> tuple[list[str], list[Player]]:
    """The host's tables and the players at them: half Black Cat, half Kitten Me!, each
    table one SSH and one web player (a Black Cat table's third seat, and two of a
    Kitten Me! table's four, are bots)."""
    per_game = max(1, count // 4)
    tables = [*["blackcat:seats=3,bots=1"] * per_game, *["kitten:seats=4,bots=2"] * per_game]
    players: list[Player] = []
    for index, spec in enumerate(tables):
        game = spec.split(":")[0]
        players.append(SshPlayer(f"s{index}", index, game))
        players.append(WebPlayer(f"w{index}", index, game))
    return tables, players


async def connect_all(players: list[Player], ports: dict[str, int]) -> None:
    """Every player connected and in the lobby, a few at a time."""
    for start in range(0, len(players), CONNECT_AT_ONCE):
        batch = players[start : start + CONNECT_AT_ONCE]
        await asyncio.gather(*(player.open(ports) for player in batch))
        await asyncio.gather(*(player.screen.until((LOBBY_WORD,), 0, WAIT_S) for player in batch))


async def measure_size(
    count: int, folder: Path, sizes: dict[str, float], background: float
) -> dict[str, Any]:
    tables, players = seating(count)
    ports = {"game": free_port(), "ssh": free_port(), "web": free_port()}
    with host_process(folder, tables, ports) as host:
        watchers: list[Watcher] = []
        try:
            await connect_all(players, ports)
            # Everyone in the lobby, still: what idle players cost.
            await asyncio.sleep(LOBBY_SETTLE_S)
            idle = Usage(host)
            idle.start()
            await asyncio.sleep(sizes["idle_s"])
            idle.stop()
            # To the tables, then the games.
            probe = Watcher(ports["game"], "")
            await probe.client.connect()
            ids = [str(table["id"]) for table in await probe.list_tables()]
            await probe.client.close()
            for player in players:
                await player.sit()
            watchers = [Watcher(ports["game"], table) for table in ids[: len(tables)]]
            for watcher in watchers:
                await watcher.start()
            await asyncio.sleep(5.0)  # the real-time start countdown, the first deal
            views_before = [watcher.views for watcher in watchers]
            usage = Usage(host)
            usage.start()
            until = time.monotonic() + sizes["window_s"]
            await asyncio.gather(*(player.play(until) for player in players))
            usage.stop()
            views = [
                watcher.views - before
                for watcher, before in zip(watchers, views_before, strict=True)
            ]
            session_rss = [rss_mib(pid) for pid in children(host)]
            names = {pid: player_of(pid) for pid in usage.per_pid if pid != host}
            host_rss = rss_mib(host)
        finally:
            for player in players:
                with contextlib.suppress(Exception):
                    await player.close()
            for watcher in watchers:
                with contextlib.suppress(Exception):
                    await watcher.client.close()
    ssh = [sample for player in players if player.kind == "ssh" for sample in player.samples]
    web = [sample for player in players if player.kind == "web" for sample in player.samples]
    grabs = [sample for player in players if player.game == "blackcat" for sample in player.samples]
    rules = [sample for player in players if player.game == "kitten" for sample in player.samples]
    # A Black Cat player's client draws each view of its table (its keys answer views); a
    # Kitten Me! player's rules pages cost CPU without views, so they are not counted here.
    at = {player.name: player.table for player in players if player.game == "blackcat"}
    per_view = [
        cpu / views[at[names[pid]]]
        for pid, cpu in usage.per_pid.items()
        if names.get(pid) in at and views[at[names[pid]]]
    ]
    blackcat_views = [views[table] for table in set(at.values())]
    return {
        "players": count,
        "ssh_p50_ms": statistics.median(ssh) if ssh else 0.0,
        "ssh_p99_ms": percentile(ssh, 0.99) if ssh else 0.0,
        "web_p50_ms": statistics.median(web) if web else 0.0,
        "web_p99_ms": percentile(web, 0.99) if web else 0.0,
        "grab_p99_ms": percentile(grabs, 0.99) if grabs else 0.0,
        "rules_p99_ms": percentile(rules, 0.99) if rules else 0.0,
        "keys": len(ssh) + len(web),
        "shown_nothing": sum(player.misses for player in players),
        "box_cpu_pct": usage.box_pct(),
        "machine_pct": 100 * usage.machine,
        "background_pct": background,
        "session_cpu_per_view_ms": 1000 * statistics.fmean(per_view) if per_view else 0.0,
        "views_per_s": statistics.fmean(blackcat_views) / usage.wall if blackcat_views else 0.0,
        "session_rss_mib": statistics.fmean(session_rss) if session_rss else 0.0,
        "host_rss_mib": host_rss,
        "lobby_idle_pct_per_player": idle.core_pct() / count,
    }


def measure(quick: bool) -> Report:
    """Every size in :data:`SIZES` (``--quick``: :data:`QUICK_SIZES`); see the docstring."""
    sizes = QUICK if quick else FULL
    rows = []
    with tempfile.TemporaryDirectory(prefix="clowder-bench-gateway-") as folder:
        for count in QUICK_SIZES if quick else SIZES:
            background = background_pct(sizes["background_s"])
            place = Path(folder) / f"n{count}"
            place.mkdir()
            rows.append(asyncio.run(measure_size(count, place, sizes, background)))
    return Report(
        name="gateway",
        columns=[
            "players",
            "ssh_p50_ms",
            "ssh_p99_ms",
            "web_p50_ms",
            "web_p99_ms",
            "grab_p99_ms",
            "rules_p99_ms",
            "keys",
            "shown_nothing",
            "box_cpu_pct",
            "machine_pct",
            "background_pct",
            "session_cpu_per_view_ms",
            "views_per_s",
            "session_rss_mib",
            "host_rss_mib",
            "lobby_idle_pct_per_player",
        ],
        rows=rows,
        notes=[
            "one machine, 127.0.0.1, 80x24; half the players over SSH (asyncssh), half through "
            "the web door (textual-serve's protocol, no browser); each table one of each, with "
            "bots: Black Cat 3 seats (1 bot), Kitten Me! 4 seats (2 bots)",
            "key -> screen: Black Cat '1' on a new card (after 0.15-0.45 s) until the output "
            "says 'Grabbing'; Kitten Me! 'r' (rules open, or closed) until they show; p50/p99 "
            f"from each player's terminal stream; grab_p99 / rules_p99: Black Cat's '1' / "
            f"Kitten Me!'s 'r' alone, SSH and web together; shown_nothing: keys with no answer "
            f"in {KEY_WAIT_S:g} s",
            "box_cpu_pct: the host's process and every player's client process, % of all the "
            "machine's cores; machine_pct: the whole machine (this benchmark's SSH and web "
            "clients and others' work too); background_pct: the machine before the host "
            "started (the baseline)",
            "session_cpu_per_view_ms: a Black Cat player's client process's CPU over the views "
            "its table had (counted by a spectator on the wire); views_per_s: a Black Cat "
            "table's; rss: resident memory at the end",
            "lobby_idle_pct_per_player: the host's processes' CPU with every player sitting in "
            f"the lobby (from {LOBBY_SETTLE_S:g} s after the last arrived), % of one core per "
            "player",
        ],
    )

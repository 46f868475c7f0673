"""Issue 30's attacks on a host's doors, by hand, on a simulated LAN (not part of the suite).

Run inside ``../shared/tools/lan-sim 3`` (machine 1 the host, 2 the attacker, 3 a
player), each scenario on its own machine with ``ip netns exec hK``; for example,
from the checkout, in a script given to ``lan-sim 3 --``::

    ip netns exec h1 sh -c 'ulimit -n 1024; exec .venv/bin/python -m tui host \
        --no-discovery --ssh --web --state-dir /tmp/s --table catchy:seats=2,bots=1' &
    sleep 3
    ip netns exec h2 .venv/bin/python -m tests.net.doors.attacks ssh-hold \
        --host 198.18.0.1 --seconds 60 &
    sleep 12
    ip netns exec h3 .venv/bin/python -m tests.net.doors.attacks ssh-player --host 198.18.0.1

(``web-halfopen --count 1100`` on h2 with ``game-player`` on h3 for the web door;
``--ssh-password``/``--web-password`` on the host and ``ssh-guess``/``web-guess`` on h2
for passwords; ``web-sockets --count 10`` on h2, counting the host's ``tui join``
children meanwhile.)

Every scenario prints one JSON object and stops by itself. Scenarios:

- ``ssh-hold``: ``--idle`` connections (24) that log in (open access) and open no
  session, and ``--bare`` TCP connections (24) that never send a version line, each
  reopened as soon as the host closes it, for ``--seconds``;
- ``ssh-player``: logs in (``--password``) with asyncssh, opens a terminal and waits
  for the real client's lobby; then OpenSSH's ``ssh`` tries too and its last words
  are reported (what a refused player reads);
- ``ssh-guess``: guesses passwords from one address for ``--seconds`` with as many
  connections as the host lets it hold, and says how many answers came back;
- ``web-halfopen``: ``--count`` connections that send half a request, each reopened as
  soon as it is closed, for ``--seconds``;
- ``game-player``: a seated player pinging the game port every 20 ms for ``--seconds``
  (round trip p50/p99/max), and a newcomer's time to ``welcome`` at the end;
- ``web-sockets``: one browser's cookie, ``--count`` websockets at once; how many the
  host accepted (count the client processes on the host);
- ``web-guess``: ``--count`` password posts at once from one browser, then one a second
  for ``--seconds``; how many were checked (403) and how many refused unchecked (429).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import statistics
import subprocess
import time
from typing import Any

import aiohttp
import asyncssh

from net.wire.framing import CLIENT_LIMITS, HOST_LIMITS, FrameReader, decode_body, encode_frame
from net.wire.messages import PROTOCOL_VERSION, Hello, Join, ListTables, Ping, to_wire

LOBBY_WORDS = ("Clowder lobby", "Tables on")


async def ssh_hold(args: argparse.Namespace) -> dict[str, Any]:
    """Keep ``--idle`` logged-in idle and ``--bare`` bare connections open, reopening each
    when closed."""
    stats = {"logged_in": 0, "login_refused": 0, "bare_opened": 0, "bare_closed": 0}
    reasons: dict[str, int] = {}
    end = time.monotonic() + args.seconds

    async def idle(index: int) -> None:
        while time.monotonic() < end:
            try:
                async with asyncssh.connect(
                    args.host,
                    args.ssh_port,
                    username=f"idle{index}",
                    password=args.password or "",
                    known_hosts=None,
                    client_keys=None,
                    agent_path=None,
                    connect_timeout=15,
                ) as conn:
                    stats["logged_in"] += 1
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(max(0.0, end - time.monotonic())):
                            await conn.wait_closed()
            except (OSError, asyncssh.Error) as error:
                stats["login_refused"] += 1
                reason = str(error)[:70]
                reasons[reason] = reasons.get(reason, 0) + 1
                await asyncio.sleep(0.05)

    async def bare() -> None:
        while time.monotonic() < end:
            try:
                reader, writer = await asyncio.open_connection(args.host, args.ssh_port)
            except OSError:
                await asyncio.sleep(0.05)
                continue
            stats["bare_opened"] += 1
            try:
                async with asyncio.timeout(max(0.0, end - time.monotonic())):
                    while await reader.read(4096):
                        pass
                stats["bare_closed"] += 1
            except (TimeoutError, OSError):
                pass
            writer.close()

    await asyncio.gather(*(idle(n) for n in range(args.idle)), *(bare() for _ in range(args.bare)))
    return {"scenario": "ssh-hold", **stats, "refusals": reasons}


async def ssh_player(args: argparse.Namespace) -> dict[str, Any]:
    """Log in with the real client behind the door and wait for its lobby; then OpenSSH."""
    started = time.monotonic()
    result: dict[str, Any] = {"scenario": "ssh-player"}
    try:
        async with asyncssh.connect(
            args.host,
            args.ssh_port,
            username="player",
            password=args.password or "",
            known_hosts=None,
            client_keys=None,
            agent_path=None,
            connect_timeout=30,
        ) as conn:
            process = await conn.create_process(
                term_type="xterm-256color", term_size=(80, 24), encoding=None
            )
            seen = b""
            async with asyncio.timeout(30):
                while not all(word.encode() in seen for word in LOBBY_WORDS):
                    seen += await process.stdout.read(65536)
            result["lobby_s"] = round(time.monotonic() - started, 3)
            process.close()
    except (OSError, asyncssh.Error, TimeoutError) as error:
        result["error"] = f"{type(error).__name__}: {error}"
    if shutil.which("ssh"):
        ssh = subprocess.run(
            [
                "ssh",
                "-p",
                str(args.ssh_port),
                "-o",
                "StrictHostKeyChecking=no",
                "-o",
                "UserKnownHostsFile=/dev/null",
                "-o",
                "BatchMode=no",
                "-o",
                "PreferredAuthentications=keyboard-interactive,password",
                "-o",
                "ConnectTimeout=10",
                f"openssh@{args.host}",
                "true",
            ],
            check=False,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        lines = [line for line in ssh.stderr.splitlines() if not line.startswith("Warning")]
        result["openssh_says"] = lines[-3:]
    return result


async def ssh_guess(args: argparse.Namespace) -> dict[str, Any]:
    """Guess for ``--seconds`` over as many connections as the host lets one address hold."""
    asks: list[int] = []
    refused: dict[str, int] = {}
    end = time.monotonic() + args.seconds
    counter = iter(range(10**9))

    class Guesser(asyncssh.SSHClient):
        def __init__(self) -> None:
            self.slot = len(asks)
            asks.append(0)

        def password_auth_requested(self) -> str | None:
            if time.monotonic() > end:
                return None
            asks[self.slot] += 1  # each ask after the first: the last guess came back wrong
            return f"guess-{next(counter)}"

    async def worker() -> None:
        while time.monotonic() < end:
            try:
                async with asyncio.timeout(max(0.1, end - time.monotonic())):
                    await asyncssh.create_connection(
                        Guesser,
                        args.host,
                        args.ssh_port,
                        username="ann",
                        known_hosts=None,
                        client_keys=None,
                        agent_path=None,
                        kbdint_auth=False,
                    )
            except (OSError, asyncssh.Error, TimeoutError) as error:
                reason = str(error)[:60] or type(error).__name__
                refused[reason] = refused.get(reason, 0) + 1
                await asyncio.sleep(0.05)

    started = time.monotonic()
    await asyncio.gather(*(worker() for _ in range(8)))
    seconds = time.monotonic() - started
    # A connection's last guess is never answered (it ended, or the run did): count the rest.
    checked = sum(max(0, n - 1) for n in asks)
    rate = checked / seconds if seconds else 0.0
    return {
        "scenario": "ssh-guess",
        "seconds": round(seconds, 1),
        "guesses_answered_about": checked,
        "minutes_for_200_at_this_rate": round(200 / rate / 60, 1) if rate else None,
        "connections_ended": refused,
    }


async def web_halfopen(args: argparse.Namespace) -> dict[str, Any]:
    """``--count`` connections sending half a request, reopened when closed."""
    stats = {"opened": 0, "closed_by_host": 0, "refused_503": 0, "connect_errors": 0}
    end = time.monotonic() + args.seconds

    async def one() -> None:
        while time.monotonic() < end:
            try:
                reader, writer = await asyncio.open_connection(args.host, args.web_port)
            except OSError:
                stats["connect_errors"] += 1
                await asyncio.sleep(0.2)
                continue
            stats["opened"] += 1
            writer.write(b"GET / HTTP/1.1\r\nHost: " + args.host.encode())
            try:
                async with asyncio.timeout(max(0.0, end - time.monotonic())):
                    data = await reader.read()
                stats["closed_by_host"] += 1
                if data.startswith(b"HTTP/1.1 503"):
                    stats["refused_503"] += 1
                await asyncio.sleep(0.2)  # then at it again
            except (TimeoutError, OSError):
                pass
            writer.close()

    await asyncio.gather(*(one() for _ in range(args.count)))
    return {"scenario": "web-halfopen", "count": args.count, **stats}


class GameLink:
    """A raw game connection: hello, then messages by type."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.frames = FrameReader(HOST_LIMITS.max_frame)

    def send(self, message: Any) -> None:
        self.writer.write(encode_frame(to_wire(message), CLIENT_LIMITS))

    async def expect(self, kind: str) -> dict[str, Any]:
        while True:
            frame = self.frames.next_frame()
            if frame is not None:
                message = decode_body(frame, HOST_LIMITS)
                if isinstance(message, dict) and message.get("type") == kind:
                    return message
                continue
            data = await self.reader.read(65536)
            if not data:
                raise ConnectionError("closed by the host")
            self.frames.feed(data)


async def welcomed(args: argparse.Namespace, name: str) -> tuple[GameLink, float]:
    started = time.monotonic()
    reader, writer = await asyncio.open_connection(args.host, args.game_port)
    link = GameLink(reader, writer)
    link.send(Hello(protocol=PROTOCOL_VERSION, name=name))
    await link.expect("welcome")
    return link, time.monotonic() - started


async def game_player(args: argparse.Namespace) -> dict[str, Any]:
    """A seated player's round trips while the attack runs, then a newcomer's welcome."""
    link, _ = await welcomed(args, "seated")
    link.send(ListTables(ref=1))
    tables = (await link.expect("tables"))["tables"]
    free = [t for t in tables if t.get("free")]
    if free:
        link.send(Join(table=free[0]["id"], role="player", ref=2))
        with contextlib.suppress(TimeoutError, ConnectionError):
            async with asyncio.timeout(5):
                await link.expect("joined")
    trips: list[float] = []
    end = time.monotonic() + args.seconds
    pings = 0
    while time.monotonic() < end:
        pings += 1
        sent = time.monotonic_ns()
        link.send(Ping(id=pings, t=sent))
        while True:
            pong = await link.expect("pong")
            if pong["id"] == pings:
                break
        trips.append((time.monotonic_ns() - sent) / 1e6)
        await asyncio.sleep(0.02)
    result: dict[str, Any] = {
        "scenario": "game-player",
        "seated": bool(free),
        "pings": len(trips),
        "rtt_ms_p50": round(statistics.median(trips), 2),
        "rtt_ms_p99": round(sorted(trips)[int(len(trips) * 0.99) - 1], 2),
        "rtt_ms_max": round(max(trips), 2),
    }
    try:
        async with asyncio.timeout(5):
            newcomer, seconds = await welcomed(args, "newcomer")
        result["newcomer_welcome_ms"] = round(seconds * 1000, 1)
        newcomer.writer.close()
    except (TimeoutError, OSError) as error:
        result["newcomer_welcome_ms"] = f"none within 5 s ({type(error).__name__})"
    link.writer.close()
    return result


async def web_sockets(args: argparse.Namespace) -> dict[str, Any]:
    """One cookie, ``--count`` websockets opened at once."""
    base = f"http://{args.host}:{args.web_port}"
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        async with http.get(base + "/") as page:
            await page.read()
        tries = await asyncio.gather(
            *(http.ws_connect(base + "/ws") for _ in range(args.count)), return_exceptions=True
        )
        opened = [ws for ws in tries if isinstance(ws, aiohttp.ClientWebSocketResponse)]
        statuses = [getattr(e, "status", type(e).__name__) for e in tries if e not in opened]
        await asyncio.sleep(args.seconds)  # meanwhile count the host's client processes
        for ws in opened:
            await ws.close()
    return {"scenario": "web-sockets", "opened": len(opened), "refused": statuses}


async def web_guess(args: argparse.Namespace) -> dict[str, Any]:
    """``--count`` password posts at once, then one a second until ``--seconds``."""
    base = f"http://{args.host}:{args.web_port}"
    statuses: dict[int, int] = {}
    started = time.monotonic()
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        async with http.get(base + "/") as page:
            await page.read()

        async def post(n: int) -> None:
            try:
                async with http.post(base + "/login", data={"password": f"g{n}"}) as answer:
                    statuses[answer.status] = statuses.get(answer.status, 0) + 1
            except aiohttp.ClientError:
                statuses[0] = statuses.get(0, 0) + 1

        await asyncio.gather(*(post(n) for n in range(args.count)))
        burst_s = time.monotonic() - started
        n = args.count
        while time.monotonic() - started < args.seconds:
            n += 1
            await post(n)
            await asyncio.sleep(1.0)
    return {
        "scenario": "web-guess",
        "burst_s": round(burst_s, 1),
        "seconds": round(time.monotonic() - started, 1),
        "checked_403": statuses.get(403, 0),
        "refused_unchecked_429": statuses.get(429, 0),
        "other": {k: v for k, v in statuses.items() if k not in (403, 429)},
    }


SCENARIOS = {
    "ssh-hold": ssh_hold,
    "ssh-player": ssh_player,
    "ssh-guess": ssh_guess,
    "web-halfopen": web_halfopen,
    "game-player": game_player,
    "web-sockets": web_sockets,
    "web-guess": web_guess,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--host", required=True, help="the host's address (198.18.0.K)")
    parser.add_argument("--ssh-port", type=int, default=2222)
    parser.add_argument("--web-port", type=int, default=8080)
    parser.add_argument("--game-port", type=int, default=7707)
    parser.add_argument("--password")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--idle", type=int, default=24)
    parser.add_argument("--bare", type=int, default=24)
    args = parser.parse_args()
    if not args.host.startswith(("198.18.0.", "127.")):
        parser.error("attacks target only lan-sim machines (198.18.0.K) or loopback")
    print(json.dumps(asyncio.run(SCENARIOS[args.scenario](args))), flush=True)


if __name__ == "__main__":
    main()

"""The web gateway (``clowder host --web``) over real HTTP on loopback, with a stand-in client.

The client behind each page is :mod:`tests.net.fake_web_client` (the web-driver protocol,
an echo): these tests are about the gateway's decisions, who gets a session, as whom, how
many at once, and what happens to the processes. The real client in a real browser is
tested in ``tests/web/``.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from net.core.limits import HostLimits
from net.doors.favicon import FAVICON
from net.doors.web_gateway import (
    COOKIE,
    ICON_LINK,
    Browser,
    WebGateway,
    browser_digest,
    page_html,
    too_deep,
    web_client_command,
)
from net.doors.web_session import WebSession
from tests.net.hosting import RawClient, running_host

pytestmark = pytest.mark.timeout(120)

FAKE_CLIENT = [sys.executable, "-m", "tests.net.fake_web_client"]
ROOT = Path(__file__).resolve().parents[3]


def test_a_browser_s_client_shows_the_address_the_browser_reached() -> None:
    command = web_client_command("127.0.0.1", 7707, "198.18.0.1")
    assert command[-3:] == ["127.0.0.1:7707", "--only-this-host", "--shown-as=198.18.0.1"]
    assert "--shown-as" not in " ".join(web_client_command("127.0.0.1", 7707, "127.0.0.1"))


def test_a_browser_s_client_is_told_the_page_the_browser_opened_as_its_way_back() -> None:
    """Issue 36, item 4: a browser's player was told ``clowder join 127.0.0.1:7707``; the
    client is told the page's host as the browser addressed it (its cookie goes there)."""
    command = web_client_command("127.0.0.1", 7707, "198.18.0.1", "box.local:8080")
    assert command[-1] == "--door=web:box.local:8080"
    assert "--door" not in " ".join(web_client_command("127.0.0.1", 7707, "198.18.0.1"))


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is not alive: it has ended and awaits its parent
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1][:1] != "Z"
    except OSError:
        return False


async def started(tmp_path: Path, **settings: Any) -> WebGateway:
    env_root = str(ROOT)
    os.environ["PYTHONPATH"] = env_root  # the stand-in client is a module of the tests

    settings.setdefault("log", lambda line: None)
    settings.setdefault("command", lambda browser, reached, page: FAKE_CLIENT)
    gateway = WebGateway(
        game_address="127.0.0.1",
        game_port=1,
        state_dir=tmp_path,
        bind="127.0.0.1",
        port=0,
        **settings,
    )
    await gateway.start()
    return gateway


@pytest.fixture
async def gateway(tmp_path: Path) -> AsyncIterator[WebGateway]:
    gateway = await started(tmp_path)
    yield gateway
    await gateway.close()


def browser() -> aiohttp.ClientSession:
    """A browser: it keeps the cookies an address (not only a domain name) gives it."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


def base(gateway: WebGateway) -> str:
    return f"http://127.0.0.1:{gateway.port}"


async def read_until(ws: aiohttp.ClientWebSocketResponse, needle: bytes) -> bytes:
    """Terminal output until ``needle`` shows (the stand-in answers within a second)."""
    seen = b""
    while needle not in seen:
        message = await asyncio.wait_for(ws.receive(), 10)
        if message.type != aiohttp.WSMsgType.BINARY:
            raise AssertionError(f"the session ended ({message.type}) before {needle!r}: {seen!r}")
        seen += message.data
    return seen


async def test_the_page_gives_a_cookie_and_loads_only_this_host_s_files(
    gateway: WebGateway,
) -> None:
    async with browser() as http:
        async with http.get(base(gateway) + "/?fontsize=500") as page:
            assert page.status == 200
            text = await page.text()
            cookie = page.cookies[COOKIE]
        assert cookie["httponly"] and cookie["samesite"] == "Strict"
        assert f'data-session-websocket-url="ws://127.0.0.1:{gateway.port}/ws"' in text
        assert 'data-font-size="32"' in text  # clamped
        assert "http" not in text.replace(f"ws://127.0.0.1:{gateway.port}", "")  # nothing outside
        async with http.get(base(gateway) + "/static/js/textual.js") as script:
            assert script.status == 200 and len(await script.read()) > 10_000
        async with http.get(base(gateway) + "/static/") as listing:
            assert listing.status in (403, 404)
        async with http.get(base(gateway) + "/static/../../../etc/passwd") as escape:
            assert escape.status in (403, 404)


async def test_keys_reach_the_client_and_its_output_the_page(gateway: WebGateway) -> None:
    async with browser() as http:
        await http.get(base(gateway) + "/")
        async with http.ws_connect(base(gateway) + "/ws?width=100&height=30") as ws:
            hello = await read_until(ws, b"size:100x30")
            assert b"home:" + str(gateway.folder).encode() in hello
            await ws.send_str(json.dumps(["stdin", "q"]))
            await read_until(ws, b"echo:q")
            await ws.send_str(json.dumps(["ping", "42"]))
            pong = await asyncio.wait_for(ws.receive(), 10)
            assert pong.type == aiohttp.WSMsgType.TEXT and json.loads(pong.data) == ["pong", "42"]
            await ws.send_str(json.dumps(["resize", {"width": 99999, "height": -4}]))
            await read_until(ws, b"size:")  # clamped to what a terminal can be
            assert gateway.sessions and len(gateway.sessions) == 1


async def test_bad_messages_from_a_page_change_nothing(gateway: WebGateway) -> None:
    async with browser() as http:
        await http.get(base(gateway) + "/")
        async with http.ws_connect(base(gateway) + "/ws") as ws:
            await read_until(ws, b"size:80x24")
            for bad in (
                "not json",
                "{}",
                "[]",
                "[1, 2]",
                '["stdin", 5]',
                json.dumps(["stdin", "x" * 5000]),
                '["resize", "big"]',
                '["resize", {"width": true, "height": "9999999"}]',
                '["quit"]',
                '["ping", {"a": 1}]',
            ):
                await ws.send_str(bad)
            await ws.send_bytes(b"\x00binary")
            await ws.send_str(json.dumps(["stdin", "still here"]))
            seen = await read_until(ws, b"echo:still here")
            assert b"x" * 100 not in seen and b"echo:" + b"still" in seen


async def test_without_this_host_s_cookie_or_from_another_site_there_is_no_session(
    gateway: WebGateway,
) -> None:
    async with browser() as http:
        with pytest.raises(aiohttp.WSServerHandshakeError) as no_cookie:
            await http.ws_connect(base(gateway) + "/ws")
        assert no_cookie.value.status == 403
        http.cookie_jar.update_cookies({COOKIE: "A" * 43})  # well formed, never given here
        with pytest.raises(aiohttp.WSServerHandshakeError) as stranger:
            await http.ws_connect(base(gateway) + "/ws")
        assert stranger.value.status == 403
    async with browser() as http:
        await http.get(base(gateway) + "/")
        with pytest.raises(aiohttp.WSServerHandshakeError) as other_site:
            await http.ws_connect(base(gateway) + "/ws", origin="http://evil.example")
        assert other_site.value.status == 403
    assert not gateway.sessions and gateway.budget.used == 0


async def test_each_browser_has_its_own_folder_and_finds_it_again(gateway: WebGateway) -> None:
    homes = []
    for _ in range(2):
        async with browser() as http:
            await http.get(base(gateway) + "/")
            cookie = next(c.value for c in http.cookie_jar if c.key == COOKIE)
            for _visit in range(2):  # a reload: the same folder
                async with http.ws_connect(base(gateway) + "/ws") as ws:
                    hello = await read_until(ws, b"size:")
                homes.append(hello.split(b"home:")[1].split(b"size:")[0])
            assert homes[-1] == homes[-2]
            assert homes[-1].endswith(browser_digest(cookie).encode())
            assert cookie.encode() not in homes[-1]
    assert homes[0] != homes[2]


async def test_a_second_page_of_the_same_browser_takes_the_session_over(
    gateway: WebGateway,
) -> None:
    async with browser() as http:
        await http.get(base(gateway) + "/")
        first = await http.ws_connect(base(gateway) + "/ws")
        await read_until(first, b"size:")
        first_pid = next(iter(gateway.sessions)).client.pid
        async with http.ws_connect(base(gateway) + "/ws") as second:
            await read_until(second, b"size:")
            closed = await asyncio.wait_for(first.receive(), 10)
            assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            assert len(gateway.sessions) == 1 and gateway.budget.used == 1
            assert first_pid is not None and not alive(first_pid)
        await first.close()


async def test_the_session_cap_holds_and_says_so(tmp_path: Path) -> None:
    gateway = await started(tmp_path, max_sessions=2)
    try:
        https = [browser() for _ in range(3)]
        sockets = []
        for http in https[:2]:
            await http.get(base(gateway) + "/")
            sockets.append(await http.ws_connect(base(gateway) + "/ws"))
            await read_until(sockets[-1], b"size:")
        async with https[2].get(base(gateway) + "/") as full:
            assert full.status == 503 and "taken" in await full.text()
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await https[2].ws_connect(base(gateway) + "/ws")
        assert refused.value.status == 503
        await sockets[0].close()
        for _ in range(100):
            if gateway.budget.used < 2:
                break
            await asyncio.sleep(0.05)
        async with https[2].get(base(gateway) + "/") as again:
            assert again.status == 200
        for ws in sockets:
            await ws.close()
        for http in https:
            await http.close()
    finally:
        await gateway.close()


async def test_a_password_is_asked_once_and_a_wrong_one_refused(tmp_path: Path) -> None:
    gateway = await started(tmp_path, password="tabby")
    try:
        async with browser() as http:
            async with http.get(base(gateway) + "/") as page:
                assert 'type="password"' in await page.text()
            with pytest.raises(aiohttp.WSServerHandshakeError) as locked:
                await http.ws_connect(base(gateway) + "/ws")
            assert locked.value.status == 403
            async with http.post(base(gateway) + "/login", data={"password": "nope"}) as wrong:
                assert wrong.status == 403 and "not the password" in await wrong.text()
            async with http.post(base(gateway) + "/login", data={"password": "tabby"}) as right:
                assert right.status == 200 and "textual-terminal" in await right.text()
            async with http.ws_connect(base(gateway) + "/ws") as ws:
                await read_until(ws, b"size:")
    finally:
        await gateway.close()


async def test_every_page_names_its_icon_and_it_is_served_before_any_password(
    tmp_path: Path,
) -> None:
    """Issue 36, item 10: a browser asked for /favicon.ico and got a 404. The icon is
    served to anyone (a browser asks for it on the password page too), as a PNG."""
    gateway = await started(tmp_path, password="tabby")
    try:
        async with browser() as http:
            async with http.get(base(gateway) + "/") as page:
                assert ICON_LINK in await page.text()  # the password page
            async with http.get(base(gateway) + "/favicon.ico") as icon:
                assert icon.status == 200 and icon.content_type == "image/png"
                assert await icon.read() == FAVICON
        assert ICON_LINK in page_html("ws://h:1/ws", 16)
    finally:
        await gateway.close()


async def test_the_player_quitting_ends_the_page_s_session(gateway: WebGateway) -> None:
    async with browser() as http:
        await http.get(base(gateway) + "/")
        async with http.ws_connect(base(gateway) + "/ws") as ws:
            await read_until(ws, b"size:")
            pid = next(iter(gateway.sessions)).client.pid
            await ws.send_str(json.dumps(["stdin", "!exit"]))
            closed = await asyncio.wait_for(ws.receive(), 10)
            assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    for _ in range(100):
        if not gateway.sessions:
            break
        await asyncio.sleep(0.05)
    assert not gateway.sessions and gateway.budget.used == 0
    assert pid is not None and not alive(pid)


async def test_a_hundred_page_loads_stay_under_the_cap_and_leave_no_process(
    tmp_path: Path,
) -> None:
    gateway = await started(tmp_path, max_sessions=4)
    pids: set[int] = set()
    most = 0
    try:
        async with browser() as http:
            for _ in range(100):
                await http.get(base(gateway) + "/")  # a reload: the page, then its socket
                ws = await http.ws_connect(base(gateway) + "/ws")
                await read_until(ws, b"size:")
                pids.update(s.client.pid for s in gateway.sessions if s.client.pid)
                most = max(most, gateway.budget.used)
                await ws.close()  # the tab closed mid-game
        for _ in range(200):
            if not gateway.sessions:
                break
            await asyncio.sleep(0.05)
    finally:
        await gateway.close()
    assert most <= 1  # one browser: one session at a time
    assert len(pids) == 100
    assert not gateway.sessions and gateway.budget.used == 0
    assert not [pid for pid in pids if alive(pid)]


# --- issue 30: what a stranger can hold -------------------------------------------------------


async def until(condition: Callable[[], bool]) -> None:
    for _ in range(600):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("never came true")


async def raw(gateway: WebGateway) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection to the gateway that sends nothing (half-open, as the attack's)."""
    return await asyncio.open_connection("127.0.0.1", gateway.port)


async def answer(reader: asyncio.StreamReader) -> bytes:
    """Everything the gateway sends until it closes the connection."""
    return await asyncio.wait_for(reader.read(), 30)


def elsewhere() -> aiohttp.ClientSession:
    """A browser on another machine: its connections come from 127.0.0.2."""
    return aiohttp.ClientSession(
        cookie_jar=aiohttp.CookieJar(unsafe=True),
        connector=aiohttp.TCPConnector(local_addr=("127.0.0.2", 0)),
    )


async def test_a_half_open_connection_is_closed_at_the_header_deadline(tmp_path: Path) -> None:
    """Finding 5 of issue 30: the web door had no deadline for request headers. A connection
    that starts a request and never finishes it is closed, and its place freed."""
    gateway = await started(tmp_path, header_timeout_s=0.5)
    try:
        reader, writer = await raw(gateway)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1")
        await until(lambda: gateway.connections.count("127.0.0.1") == 1)
        assert await answer(reader) == b""
        await until(lambda: gateway.connections.count("127.0.0.1") == 0)
        writer.close()
    finally:
        await gateway.close()


async def test_one_address_holds_at_most_its_share_of_connections(tmp_path: Path) -> None:
    """Finding 5 of issue 30: 1,100 half-open connections from one machine took the host's
    descriptors. One address holds 4 connections per browser it may have; the next is
    answered with a 503 saying why, at once; another machine still loads the page."""
    gateway = await started(tmp_path, per_address=1)
    try:
        held = [await raw(gateway) for _ in range(4)]
        await until(lambda: gateway.connections.count("127.0.0.1") == 4)
        reader, writer = await raw(gateway)
        refused = await answer(reader)
        assert refused.startswith(b"HTTP/1.1 503 ")
        assert b"4 connections from 127.0.0.1" in refused
        writer.close()
        async with elsewhere() as http, http.get(base(gateway) + "/") as page:
            assert page.status == 200
        for _reader, held_writer in held:
            held_writer.close()
    finally:
        await gateway.close()


async def test_the_host_s_one_budget_covers_the_web_door(tmp_path: Path) -> None:
    """Finding 5 of issue 30: web connections were not counted by --max-connections. They
    come out of the host's one budget: when the web door holds it all, a game connection is
    refused host_full and a web newcomer reads why; when they go, the game port serves."""
    async with running_host(tmp_path / "host", limits=HostLimits(max_connections=3)) as host:
        gateway = await started(tmp_path, shared=host.budget)
        try:
            held = [await raw(gateway) for _ in range(3)]
            await until(lambda: host.budget.doors == 3)
            game_reader, game_writer = await asyncio.open_connection("127.0.0.1", host.port)
            assert b"host_full" in await answer(game_reader)
            game_writer.close()
            reader, writer = await raw(gateway)
            assert b"all the connections it takes" in await answer(reader)
            writer.close()
            for _reader, held_writer in held:
                held_writer.close()
            await until(lambda: host.budget.doors == 0)
            player = await RawClient.connect(host.port, "ann")
            await player.close()
        finally:
            await gateway.close()


async def test_pages_opened_at_once_by_one_browser_start_one_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 6 of issue 30: 10 websockets at once with one cookie started 10 clients in one
    folder. The browser is marked as opening before any wait: one page starts a client, the
    others are refused (409); the client's start is slowed here so all ten meet it."""
    starts: list[str] = []
    start = WebSession.start

    async def slow_start(self: WebSession) -> None:
        await asyncio.sleep(1.0)
        await start(self)

    monkeypatch.setattr(WebSession, "start", slow_start)

    def command(browser: Browser, reached: str, page: str) -> list[str]:
        starts.append(browser.digest)
        return FAKE_CLIENT

    gateway = await started(tmp_path, command=command)
    try:
        async with browser() as http:
            await http.get(base(gateway) + "/")
            tries = await asyncio.gather(
                *(http.ws_connect(base(gateway) + "/ws") for _ in range(10)),
                return_exceptions=True,
            )
            opened = [ws for ws in tries if isinstance(ws, aiohttp.ClientWebSocketResponse)]
            refused = [e for e in tries if isinstance(e, aiohttp.WSServerHandshakeError)]
            assert len(opened) == 1 and [e.status for e in refused] == [409] * 9
            await read_until(opened[0], b"size:")
            assert len(starts) == 1 and len(gateway.sessions) == 1
            await opened[0].close()
    finally:
        await gateway.close()


async def test_one_address_plays_at_most_its_share_of_browsers(tmp_path: Path) -> None:
    """Finding 6 of issue 30: one machine could take all 16 places (an open host hands out a
    cookie to anyone). At most its share of browsers play from one address; another plays."""
    gateway = await started(tmp_path, per_address=2)
    try:
        https = [browser() for _ in range(3)]
        sockets = []
        for http in https[:2]:
            await http.get(base(gateway) + "/")
            sockets.append(await http.ws_connect(base(gateway) + "/ws"))
            await read_until(sockets[-1], b"size:")
        await https[2].get(base(gateway) + "/")
        with pytest.raises(aiohttp.WSServerHandshakeError) as over:
            await https[2].ws_connect(base(gateway) + "/ws")
        assert over.value.status == 503
        async with elsewhere() as http:
            await http.get(base(gateway) + "/")
            async with http.ws_connect(base(gateway) + "/ws") as ws:
                await read_until(ws, b"size:")
        for ws in sockets:
            await ws.close()
        for http in https:
            await http.close()
    finally:
        await gateway.close()


class Clock:
    """The gateway's clock and sleep for password answers: each wait is recorded, and the
    clock stands still (moved on by the test), so no test measures time."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.waits: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)


async def test_password_guesses_from_one_address_are_answered_one_after_another(
    tmp_path: Path,
) -> None:
    """Finding 4 of issue 30: 200 guesses at once from one browser finished in 1.4 s (each
    waited 1 s, side by side). The delay is per address: guesses are answered in turn, each
    wrong one later (1, 3, 7, 15 s); one whose turn is over 10 s away is answered 429 at
    once and not checked, even when right; in its turn the right one gets in."""
    clock = Clock()
    gateway = await started(tmp_path, password="tabby", clock=clock, sleep=clock.sleep)
    try:
        async with browser() as http:
            await http.get(base(gateway) + "/")

            async def post(password: str) -> int:
                async with http.post(base(gateway) + "/login", data={"password": password}) as r:
                    return r.status

            statuses = await asyncio.gather(*(post(f"guess{n}") for n in range(6)))
            assert sorted(statuses) == [403, 403, 403, 403, 429, 429]
            assert sorted(clock.waits) == [1, 3, 7, 15]
            assert await post("tabby") == 429
            clock.now += 15
            assert await post("tabby") == 200
            async with http.ws_connect(base(gateway) + "/ws") as ws:
                await read_until(ws, b"size:")
    finally:
        await gateway.close()


async def test_visits_without_a_cookie_leave_nothing_behind(gateway: WebGateway) -> None:
    """Finding 7 of issue 30: every cookie-less GET / left an entry never freed (20,000
    visits: +4 MiB). A cookie now carries its own proof, so a visit keeps nothing; the
    cookie still opens a session afterwards."""
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as http:
        for _ in range(300):
            async with http.get(base(gateway) + "/") as page:
                assert page.status == 200 and COOKIE in page.cookies
    assert not gateway.allowed and not gateway.playing and not gateway.opening
    async with browser() as http:
        await http.get(base(gateway) + "/")
        async with http.ws_connect(base(gateway) + "/ws") as ws:
            await read_until(ws, b"size:")


async def test_a_cookie_outlives_a_restart_of_the_host(tmp_path: Path) -> None:
    """Signed cookies (finding 7 of issue 30) are signed with a key kept in the state folder:
    a browser coming back after a restart is the same player, in the same folder."""
    homes = []
    async with browser() as http:
        for _ in range(2):
            gateway = await started(tmp_path)
            try:
                await http.get(base(gateway) + "/")
                async with http.ws_connect(base(gateway) + "/ws") as ws:
                    hello = await read_until(ws, b"size:")
                homes.append(hello.split(b"home:")[1].split(b"size:")[0])
            finally:
                await gateway.close()
    assert homes[0] == homes[1]


async def test_a_deeply_nested_message_is_dropped(gateway: WebGateway) -> None:
    """Finding 7 of issue 30: a message nested 5,000 deep raised an uncaught RecursionError.
    A message deeper than a real one can be is dropped unparsed; the session goes on."""
    assert too_deep("[" * 5000) and too_deep('[[[[[["x"]]]]]]')
    assert not too_deep('["resize", {"width": 80, "height": 24}]')
    assert not too_deep('["stdin", "[[[[[[[[[[[[[["]')  # brackets in a string are text
    async with browser() as http:
        await http.get(base(gateway) + "/")
        async with http.ws_connect(base(gateway) + "/ws") as ws:
            await read_until(ws, b"size:")
            await ws.send_str("[" * 5000 + "]" * 5000)
            await ws.send_str(json.dumps(["stdin", "still here"]))
            await read_until(ws, b"echo:still here")


async def test_only_this_host_s_own_names_and_page_are_answered(gateway: WebGateway) -> None:
    """Finding 7 of issue 30: the websocket URL came from the Host header and Origin was only
    compared with Host, scheme ignored, so a DNS-rebinding page passed. A Host that is not
    one of this host's names and port is refused (421), and so is an Origin that is not
    ``http://`` and one of them."""
    port = gateway.port
    async with browser() as http:
        for host in (f"evil.example:{port}", f"127.0.0.1:{port + 1}", "127.0.0.1", "[::1]"):
            async with http.get(base(gateway) + "/", headers={"Host": host}) as wrong:
                assert wrong.status == 421, host
        async with http.get(base(gateway) + "/", headers={"Host": f"LocalHost:{port}"}) as page:
            assert page.status == 200
            assert f'data-session-websocket-url="ws://localhost:{port}/ws"' in await page.text()
        await http.get(base(gateway) + "/")
        for origin in (f"https://127.0.0.1:{port}", f"http://evil.example:{port}", "null"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(base(gateway) + "/ws", origin=origin)
            assert refused.value.status == 403, origin
        with pytest.raises(aiohttp.WSServerHandshakeError) as rebound:
            await http.ws_connect(
                base(gateway) + "/ws",
                origin=f"http://evil.example:{port}",
                headers={"Host": f"evil.example:{port}"},
            )
        assert rebound.value.status == 421
        async with http.ws_connect(base(gateway) + "/ws", origin=f"http://127.0.0.1:{port}") as ws:
            await read_until(ws, b"size:")
    assert not gateway.sessions or len(gateway.sessions) == 1


async def test_a_client_that_cannot_start_is_one_log_line_not_a_traceback(
    tmp_path: Path,
) -> None:
    """Finding 5 of issue 30: out of descriptors, failures became tracebacks (36,942 in 20 s).
    A client process that cannot start closes the page's socket with a reason, in a log line,
    and gives its place back."""
    lines: list[str] = []
    gateway = await started(
        tmp_path, command=lambda browser, reached, page: ["/nonexistent/client"], log=lines.append
    )
    try:
        async with browser() as http:
            await http.get(base(gateway) + "/")
            async with http.ws_connect(base(gateway) + "/ws") as ws:
                closed = await asyncio.wait_for(ws.receive(), 10)
                assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert any("could not start a client" in line for line in lines)
        assert gateway.budget.used == 0 and gateway.players.total == 0
    finally:
        await gateway.close()


def test_a_player_s_client_does_not_import_the_host() -> None:
    """Memory per session (issue 30): each SSH and browser player runs ``clowder join`` in a
    process of its own, which imported the whole host (core, tables, journals, scoreboard)
    to read the default port: about 1 MB and 70 ms of every session's start."""
    probe = (
        "import sys, tui.commands.join, tui.app, tui.screens.lobby, tui.screens.dialogs\n"
        "print(sorted(m for m in sys.modules if m.startswith(('net.doors.', 'net.store'))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == "[]"

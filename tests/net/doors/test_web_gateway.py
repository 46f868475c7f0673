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
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from net.doors.web_gateway import COOKIE, WebGateway, browser_digest, web_client_command

pytestmark = pytest.mark.timeout(120)

FAKE_CLIENT = [sys.executable, "-m", "tests.net.fake_web_client"]
ROOT = Path(__file__).resolve().parents[3]


def test_a_browser_s_client_shows_the_address_the_browser_reached() -> None:
    command = web_client_command("127.0.0.1", 7707, "198.18.0.1")
    assert command[-3:] == ["127.0.0.1:7707", "--only-this-host", "--shown-as=198.18.0.1"]
    assert "--shown-as" not in " ".join(web_client_command("127.0.0.1", 7707, "127.0.0.1"))


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

    gateway = WebGateway(
        game_address="127.0.0.1",
        game_port=1,
        state_dir=tmp_path,
        bind="127.0.0.1",
        port=0,
        log=lambda line: None,
        command=lambda browser, reached: FAKE_CLIENT,
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

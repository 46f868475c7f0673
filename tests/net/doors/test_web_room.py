"""The web gateway's room page (``/room``) over real HTTP on loopback, with a stand-in client.

As in ``test_web_gateway.py`` the client behind each page is ``tests.net.fake_web_client``:
these tests are about the gateway's decisions for room screens (their own budget apart
from the players', one per browser, the same password and names as the players' page). The
real room client in Chromium is tested in ``tests/web/test_room_in_browser.py``.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from net.doors.web_gateway import (
    ROOM_FOLDER,
    ROOM_ROWS,
    WebGateway,
    page_html,
    web_room_command,
)
from tests.net.doors.test_web_gateway import (
    FAKE_CLIENT,
    ROOT,
    base,
    browser,
    elsewhere,
    read_until,
    started,
)

pytestmark = pytest.mark.timeout(120)


async def room_gateway(tmp_path: Path, **settings: Any) -> WebGateway:
    settings.setdefault("room_command", lambda reached: FAKE_CLIENT)
    return await started(tmp_path, **settings)


async def until_free(gateway: WebGateway) -> None:
    """Until every session has ended (the stand-in quits at once when its page closes)."""
    for _ in range(200):
        if not gateway.sessions:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"sessions left: {gateway.sessions}")


def test_a_room_screen_s_client_is_the_room_command_at_the_address_reached() -> None:
    command = web_room_command("127.0.0.1", 7707, "198.18.0.1")
    assert command[-3:] == ["room", "127.0.0.1:7707", "--shown-as=198.18.0.1"]
    assert "--shown-as" not in " ".join(web_room_command("127.0.0.1", 7707, "127.0.0.1"))
    assert "join" not in command and "--name" not in " ".join(command)  # no seat, no name


def test_the_room_page_sizes_its_font_unless_told() -> None:
    fitted = page_html("ws://h:1/room/ws", 16, title="Clowder room", fit=True)
    assert f"innerHeight / ({ROOM_ROWS} *" in fitted and "dataset.fontSize" in fitted
    assert "<title>Clowder room</title>" in fitted
    assert "dataset.fontSize" not in page_html("ws://h:1/ws", 16)  # the player's: as told


async def test_the_room_page_opens_its_own_websocket_with_a_client_of_its_own(
    tmp_path: Path,
) -> None:
    gateway = await room_gateway(tmp_path)
    try:
        async with browser() as http:
            async with http.get(base(gateway) + "/room") as page:
                assert page.status == 200
                text = await page.text()
            assert f'data-session-websocket-url="ws://127.0.0.1:{gateway.port}/room/ws"' in text
            assert "dataset.fontSize" in text  # sized to the window
            assert "http" not in text.replace(f"ws://127.0.0.1:{gateway.port}", "")
            async with http.get(base(gateway) + "/room?fontsize=20") as chosen:
                text = await chosen.text()
            assert 'data-font-size="20"' in text and "dataset.fontSize" not in text
            async with http.ws_connect(base(gateway) + "/room/ws?width=130&height=36") as ws:
                hello = await read_until(ws, b"size:130x36")
                assert b"home:" + str(gateway.folder / ROOM_FOLDER).encode() in hello
                assert len(gateway.watching) == 1 and not gateway.playing
                assert gateway.rooms.used == 1 and gateway.budget.used == 0
        await until_free(gateway)
        assert gateway.rooms.used == 0 and not gateway.watching
    finally:
        await gateway.close()


async def test_a_room_screen_takes_no_player_s_place_and_players_none_of_the_rooms(
    tmp_path: Path,
) -> None:
    gateway = await room_gateway(tmp_path, max_sessions=1, max_rooms=1)
    try:
        async with browser() as player, browser() as tv, browser() as another_tv:
            await player.get(base(gateway) + "/")
            playing = await player.ws_connect(base(gateway) + "/ws")
            await read_until(playing, b"size:")
            async with tv.get(base(gateway) + "/room") as page:
                assert page.status == 200  # the players' places are all taken: not the room's
            room = await tv.ws_connect(base(gateway) + "/room/ws")
            await read_until(room, b"size:")
            async with another_tv.get(base(gateway) + "/room") as full:
                assert full.status == 503 and "room screens" in await full.text()
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await another_tv.ws_connect(base(gateway) + "/room/ws")
            assert refused.value.status == 503
            assert gateway.budget.used == 1 and gateway.rooms.used == 1
            await room.close()
            await playing.close()
        await until_free(gateway)
    finally:
        await gateway.close()


async def test_one_address_shows_at_most_its_share_of_room_screens(tmp_path: Path) -> None:
    gateway = await room_gateway(tmp_path, rooms_per_address=1)
    try:
        async with browser() as first, browser() as second, elsewhere() as other:
            await first.get(base(gateway) + "/room")
            room = await first.ws_connect(base(gateway) + "/room/ws")
            await read_until(room, b"size:")
            await second.get(base(gateway) + "/room")
            with pytest.raises(aiohttp.WSServerHandshakeError) as over:
                await second.ws_connect(base(gateway) + "/room/ws")
            assert over.value.status == 503
            await second.get(base(gateway) + "/")  # the same address may still play
            async with second.ws_connect(base(gateway) + "/ws") as playing:
                await read_until(playing, b"size:")
            await other.get(base(gateway) + "/room")  # and another machine show the room
            async with other.ws_connect(base(gateway) + "/room/ws") as elsewhere_room:
                await read_until(elsewhere_room, b"size:")
            await room.close()
        await until_free(gateway)
    finally:
        await gateway.close()


async def test_a_browser_plays_and_shows_the_room_at_once_and_a_reload_takes_over_its_room(
    tmp_path: Path,
) -> None:
    gateway = await room_gateway(tmp_path)
    try:
        async with browser() as http:
            await http.get(base(gateway) + "/")
            playing = await http.ws_connect(base(gateway) + "/ws")
            await read_until(playing, b"size:")
            first = await http.ws_connect(base(gateway) + "/room/ws")
            await read_until(first, b"size:")
            assert len(gateway.sessions) == 2
            async with http.ws_connect(base(gateway) + "/room/ws") as second:
                await read_until(second, b"size:")
                closed = await asyncio.wait_for(first.receive(), 10)
                assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
                await playing.send_str('["stdin", "still"]')
                await read_until(playing, b"echo:still")  # the player's session goes on
                assert gateway.rooms.used == 1 and gateway.budget.used == 1
            await first.close()
            await playing.close()
        await until_free(gateway)
    finally:
        await gateway.close()


async def test_a_host_with_a_password_asks_it_for_the_room_and_comes_back_to_it(
    tmp_path: Path,
) -> None:
    gateway = await room_gateway(tmp_path, password="tabby")
    try:
        async with browser() as http:
            async with http.get(base(gateway) + "/room") as page:
                text = await page.text()
            assert 'type="password"' in text and 'name="back" value="/room"' in text
            with pytest.raises(aiohttp.WSServerHandshakeError) as locked:
                await http.ws_connect(base(gateway) + "/room/ws")
            assert locked.value.status == 403
            form = {"password": "nope", "back": "/room"}
            async with http.post(base(gateway) + "/login", data=form) as wrong:
                assert 'name="back" value="/room"' in await wrong.text()
            form = {"password": "tabby", "back": "https://evil.example/"}
            async with http.post(base(gateway) + "/login", data=form) as elsewhere_back:
                assert elsewhere_back.url.path == "/"  # only this host's own pages
            form["back"] = "/room"
            async with http.post(base(gateway) + "/login", data=form) as right:
                assert right.url.path == "/room" and "/room/ws" in await right.text()
            async with http.ws_connect(base(gateway) + "/room/ws") as ws:
                await read_until(ws, b"size:")
        await until_free(gateway)
    finally:
        await gateway.close()


async def test_the_room_answers_only_at_this_host_s_names_and_from_its_own_page(
    tmp_path: Path,
) -> None:
    gateway = await room_gateway(tmp_path)
    port = gateway.port
    try:
        async with browser() as http:
            async with http.get(
                base(gateway) + "/room", headers={"Host": f"evil.example:{port}"}
            ) as wrong:
                assert wrong.status == 421
            await http.get(base(gateway) + "/room")
            with pytest.raises(aiohttp.WSServerHandshakeError) as other_site:
                await http.ws_connect(
                    base(gateway) + "/room/ws", origin=f"http://evil.example:{port}"
                )
            assert other_site.value.status == 403
            async with http.ws_connect(
                base(gateway) + "/room/ws", origin=f"http://127.0.0.1:{port}"
            ) as ws:
                await read_until(ws, b"size:")
        await until_free(gateway)
        assert gateway.rooms.used == 0
    finally:
        await gateway.close()


def test_a_room_s_client_does_not_import_the_host() -> None:
    """Each room page runs ``clowder room`` in a process of its own, as each player's page
    runs ``clowder join``: it must not load the host's core, tables and journals."""
    probe = (
        "import sys, tui.commands.room, tui.room, tui.screens.room\n"
        "print(sorted(m for m in sys.modules if m.startswith(('net.doors.', 'net.store', "
        "'net.core', 'engine'))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == "[]"

"""A whole game from a browser: ``clowder host --web``'s page in headless Chromium.

A host on 127.0.0.1 with a Catchy! table (one seat for a bot) and its web
gateway serving the real Clowder client; Chromium opens the page as a
newcomer does: says a name, finds the table in the lobby, joins with Enter
and plays a whole game by keys against the bot, to the results. On the way
the page must show that player's own hand and none of the bot's cards that
are not on the table, and screenshots are kept (``CLOWDER_SCREENSHOTS=DIR``
keeps them after the test; the note of issue 21 shows them).

The narrow test opens the lobby and a table at 48 columns (a phone held
upright) and checks the keys a phone keyboard has are enough to get there.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from net.doors.host import Host
from net.doors.web_gateway import WebGateway
from tests.net.hosting import running_host
from tests.web.browser import (
    DESKTOP,
    PHONE,
    blocked_requests,
    new_context,
    open_terminal,
    press,
    screenshot,
    terminal_text,
    type_text,
    wait_for_text,
)
from tests.web.served import web_door

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page

pytestmark = [pytest.mark.timeout(240)]

MAX_TURNS = 2000
"""Looks at the screen, at most (a one-point game of Catchy! is 1-3 rounds of 7 tricks)."""


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("CLOWDER_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@asynccontextmanager
async def served_table(tmp_path: Path) -> AsyncIterator[tuple[Host, WebGateway, str]]:
    """A host with one Catchy! table (first to 1 point, a bot in the other seat) and its
    web page; yields the host, the gateway and the table's id."""
    async with running_host(tmp_path / "host", bot_delay_s=0.3) as host:
        runner = host.create_table("catchy", {"target": 1}, seats=2, bots=1, created_by="host")
        async with web_door(host, tmp_path / "host") as gateway:
            yield host, gateway, runner.table.id


def face(card: str) -> str:
    """How the Catchy! screen writes a card on its face (tui/games/catchy/screen.py)."""
    return "JKR" if card == "JK" else f"{card[0]} {card[1]}"


def leaked(host: Host, table: str, player: str, text: str) -> list[str]:
    """The other seats' cards the page shows while they are in those hands."""
    state: Any = host.runners[table].table.state
    return [
        card
        for seat, hand in enumerate(state.hands)
        if state.players[seat] != player
        for card in hand
        if card != "ST" and face(card) in text
    ]


async def newcomer_at_the_table(page: Page, name: str) -> None:
    """A first visit: the name asked once, then the lobby, then Enter on the table."""
    await wait_for_text(page, "Your name", timeout_s=30)
    await type_text(page, name)
    await press(page, "Enter")
    await wait_for_text(page, re.compile(r"Catchy!.*1 seat free"), timeout_s=30)
    await press(page, "Tab", "Enter")


async def play_a_legal_card(page: Page, host: Host, table: str, seat: int) -> None:
    """Wait for the page to offer the move, then press the keys of the first legal one (the
    host's own legal list: which card follows is the rules' business, not this test's)."""
    runner = host.runners[table]
    for _ in range(3):  # a key the screen took before its view came is refused: again
        await wait_for_text(page, re.compile(r"your turn|press 1, 2 or 3"), timeout_s=30)
        view = runner.table.view(seat)
        if view is None or not view["legal"]:
            return
        move, version = view["legal"][0], runner.table.version
        if move["type"] == "swap":
            await press(page, str(move["course"] + 1))
        else:
            await press(page, str(view["hand"].index(move["card"]) + 1), "Enter")
        for _ in range(60):
            if runner.table.version != version:
                return
            await asyncio.sleep(0.05)
    raise AssertionError(f"the page never played {move}:\n{await terminal_text(page)}")


async def test_a_newcomer_plays_a_whole_catchy_game_in_chromium(
    browser: Browser, tmp_path: Path
) -> None:
    folder = shots(tmp_path)
    async with served_table(tmp_path) as (host, gateway, table):
        context = await new_context(browser, DESKTOP)
        page = await open_terminal(context, f"http://127.0.0.1:{gateway.port}/")
        await newcomer_at_the_table(page, "Wendy")
        text = await wait_for_text(page, "Your hand", timeout_s=30)
        await screenshot(page, folder / "web-catchy-table.png")
        assert "Wendy" in text and "Bot" in text
        runner = host.runners[table]
        seat = next(i for i, info in enumerate(runner.table.seats) if info.name == "Wendy")
        checked = 0
        for _ in range(MAX_TURNS):
            text = await terminal_text(page)
            assert not leaked(host, table, "Wendy", text), f"the bot's cards shown:\n{text}"
            checked += 1
            if runner.table.outcome is not None:
                break
            view = runner.table.view(seat)
            if view is not None and view["legal"]:
                await play_a_legal_card(page, host, table, seat)
            else:
                await asyncio.sleep(0.1)
        else:
            raise AssertionError(f"the game did not end:\n{await terminal_text(page)}")
        text = await wait_for_text(page, "game over", timeout_s=30)
        await screenshot(page, folder / "web-catchy-results.png")
        assert re.search(r"You win|You share the win|Bot \w+ wins?", text), text
        assert checked > 5
        assert not blocked_requests(context)  # the page needs nothing beyond this host
        await press(page, "Enter")  # leave the results: back to the lobby
        await wait_for_text(page, "Clowder lobby")
        await context.close()
    assert not gateway.sessions


async def test_a_phone_sized_page_reaches_a_table_with_plain_keys(
    browser: Browser, tmp_path: Path
) -> None:
    folder = shots(tmp_path)
    async with served_table(tmp_path) as (_host, gateway, _table):
        context = await new_context(browser, PHONE)
        page = await open_terminal(context, f"http://127.0.0.1:{gateway.port}/")
        await newcomer_at_the_table(page, "Pia")
        text = await wait_for_text(page, "Your hand", timeout_s=30)
        await screenshot(page, folder / "web-catchy-phone.png")
        lines = text.splitlines()
        assert max(len(line.rstrip()) for line in lines) <= PHONE.cols
        assert "Course" in text and "Pia" in text
        await context.close()


async def test_a_browser_closed_mid_game_keeps_its_seat_and_comes_back_to_it(
    browser: Browser, tmp_path: Path
) -> None:
    folder = shots(tmp_path)
    async with served_table(tmp_path) as (host, gateway, table):
        context = await new_context(browser, DESKTOP)
        url = f"http://127.0.0.1:{gateway.port}/"
        page = await open_terminal(context, url)
        await newcomer_at_the_table(page, "Wendy")
        await wait_for_text(page, "Your hand", timeout_s=30)
        runner = host.runners[table]
        seat = next(i for i, info in enumerate(runner.table.seats) if info.name == "Wendy")
        await page.close()  # the tab closed mid-game (the browser keeps its cookie)
        for _ in range(100):
            if not runner.table.seats[seat].connected:
                break
            await asyncio.sleep(0.05)
        assert not runner.table.seats[seat].connected
        assert runner.table.seats[seat].human and runner.table.seats[seat].name == "Wendy"
        page = await open_terminal(context, url)  # the same browser comes back
        text = await wait_for_text(page, "Your hand", timeout_s=30)  # at its seat, no name asked
        await screenshot(page, folder / "web-catchy-back.png")
        assert "Wendy*" in text and runner.table.seats[seat].connected
        stranger = await new_context(browser, DESKTOP)
        other = await open_terminal(stranger, url)
        await wait_for_text(other, "Your name", timeout_s=30)  # a new player, not Wendy
        await stranger.close()
        await context.close()

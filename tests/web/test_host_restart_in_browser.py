"""A page in headless Chromium across its host's restart (issue 36's LAN walk-through).

The host stops as ``clowder host`` stops on Ctrl+C or SIGTERM (the host, then its web
gateway) and starts again on the same ports. The player's page, and the room page, must
say over the terminal that the host has gone away (they stayed frozen on their last
screen, ``Connection lost; reconnecting...``, keys doing nothing), then reload by themselves
once the host answers, and show the app again: the player as the same player. A page whose
session another page of the browser took over must not: it says the session ended, on top
of the terminal (the note was drawn under xterm.js's layers, unseen). Screenshots are kept
with ``CLOWDER_SCREENSHOTS=DIR``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from net.doors.host import Host
from net.doors.web_gateway import AWAY, WebGateway
from tests.web.browser import (
    DESKTOP,
    new_context,
    open_terminal,
    press,
    screenshot,
    type_text,
    wait_for_text,
)

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page

pytestmark = [pytest.mark.timeout(60)]

RESTART_NOTICE = "The host is restarting; your seat is kept and you come back by yourself"

ON_TOP_JS = """
() => {
  const found = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
  const note = found && found.closest(".ended, .away");
  return note ? note.className + ": " + note.innerText : null;
}
"""
"""The note drawn over the middle of the page (its class and text), or None: what a person
sees, not just what the page holds."""

MARK_JS = "() => { window.__beforeRestart = true; }"
STILL_MARKED_JS = "() => window.__beforeRestart === true"


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("CLOWDER_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@dataclass
class Ports:
    """Where the host listens (0 at first: any free port; then the same again)."""

    game: int = 0
    web: int = 0


@contextlib.asynccontextmanager
async def host_and_gateway(state_dir: Path, ports: Ports) -> AsyncIterator[WebGateway]:
    """A host and its web gateway on ``ports`` (which they then hold); on the way out they
    stop as ``clowder host`` stops them: the host first, then the gateway."""
    host = Host(name="test", bind="127.0.0.1", port=ports.game, state_dir=state_dir, log=_quiet)
    await host.start()
    gateway = WebGateway(
        game_address="127.0.0.1",
        game_port=host.port,
        state_dir=state_dir,
        bind="127.0.0.1",
        port=ports.web,
        log=_quiet,
    )
    try:
        await gateway.start()
        ports.game, ports.web = host.port, gateway.port
        yield gateway
    finally:
        await host.close(RESTART_NOTICE)
        await gateway.close()


def _quiet(line: str) -> None:
    """The host's and the gateway's log, unread."""


async def wait_for_js(page: Page, script: str, what: str) -> None:
    """Waits until ``script`` is true in the page (polled by Playwright, no sleeps)."""
    try:
        await page.wait_for_function(script, timeout=15_000, polling=50)
    except Exception as error:
        raise AssertionError(f"{what}; on top: {await page.evaluate(ON_TOP_JS)}") from error


async def away_then_back(page: Page, state_dir: Path, ports: Ports, shot: Path, text: str) -> None:
    """The host (already stopped) is away: the page says so on top; then the host starts on
    the same ports, and the page reloads by itself and shows ``text``."""
    await wait_for_js(
        page,
        "() => document.body.classList.contains('-away')",
        "the page did not see its host go away",
    )
    on_top = await page.evaluate(ON_TOP_JS)
    assert on_top is not None and on_top.startswith("away") and AWAY in on_top, on_top
    await screenshot(page, shot)
    async with host_and_gateway(state_dir, ports):
        await wait_for_js(
            page, "() => window.__beforeRestart !== true", "the page did not reload itself"
        )
        await wait_for_text(page, text, timeout_s=30)
        assert await page.evaluate(ON_TOP_JS) is None


async def test_the_player_s_page_comes_back_by_itself_after_the_host_restarts(
    browser: Browser, tmp_path: Path
) -> None:
    state_dir, ports = tmp_path / "host", Ports()
    context = await new_context(browser, DESKTOP)
    async with host_and_gateway(state_dir, ports) as gateway:
        page = await open_terminal(context, f"http://127.0.0.1:{gateway.port}/")
        await wait_for_text(page, "Your name", timeout_s=30)
        await type_text(page, "Wendy")
        await press(page, "Enter")
        await wait_for_text(page, "Clowder lobby · you are Wendy", timeout_s=30)
        await page.evaluate(MARK_JS)
    shot = shots(tmp_path) / "host-away-player.png"
    await away_then_back(page, state_dir, ports, shot, "Clowder lobby · you are Wendy")
    await context.close()


async def test_the_room_page_comes_back_by_itself_after_the_host_restarts(
    browser: Browser, tmp_path: Path
) -> None:
    state_dir, ports = tmp_path / "host", Ports()
    context = await new_context(browser, DESKTOP)
    async with host_and_gateway(state_dir, ports) as gateway:
        page = await open_terminal(context, f"http://127.0.0.1:{gateway.port}/room?fontsize=16")
        await wait_for_text(page, "clowder join", timeout_s=30)
        await page.evaluate(MARK_JS)
    shot = shots(tmp_path) / "host-away-room.png"
    await away_then_back(page, state_dir, ports, shot, "clowder join")
    await context.close()


async def test_a_page_taken_over_says_its_session_ended_and_stays(
    browser: Browser, tmp_path: Path
) -> None:
    state_dir, ports = tmp_path / "host", Ports()
    context = await new_context(browser, DESKTOP)
    async with host_and_gateway(state_dir, ports) as gateway:
        url = f"http://127.0.0.1:{gateway.port}/"
        first = await open_terminal(context, url)
        await wait_for_text(first, "Your name", timeout_s=30)
        await first.evaluate(MARK_JS)
        second = await open_terminal(context, url)  # a second tab takes the session over
        await wait_for_text(second, "Your name", timeout_s=30)
        await wait_for_js(
            first,
            "() => document.body.classList.contains('-closed')",
            "the first page's session did not end",
        )
        on_top = await first.evaluate(ON_TOP_JS)
        assert on_top is not None and on_top.startswith("ended"), on_top
        assert "Reload the page to come back" in on_top
        assert await first.evaluate(STILL_MARKED_JS)  # not reloaded: no tug of war
        assert not await first.evaluate("() => document.body.classList.contains('-away')")
        await screenshot(first, shots(tmp_path) / "taken-over.png")
    await context.close()

"""The player's page itself in headless Chromium: the keyboard (issue 36, item 5).

Keys typed after the page loads reach the game with no click: textual.js made the
terminal but never focused it, so the focus stayed on the page's body and typing did
nothing until a click. And a key pressed while the focus is elsewhere brings it back.
These tests type with Playwright's keyboard alone (``page.keyboard``), never the
harness's ``press`` and ``type_text``, which focus the terminal first.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from net.doors.web_gateway import WebGateway
from tests.net.hosting import running_host
from tests.web.browser import (
    DESKTOP,
    new_context,
    open_terminal,
    wait_for_text,
)

if TYPE_CHECKING:
    from playwright.async_api import Browser

pytestmark = [pytest.mark.timeout(60)]

FOCUSED_JS = """
() => document.activeElement !== null
  && document.activeElement.classList.contains("xterm-helper-textarea")
"""


@contextlib.asynccontextmanager
async def served_page(tmp_path: Path) -> AsyncIterator[str]:
    """A host on 127.0.0.1 and its web page; yields the page's address."""
    async with running_host(tmp_path / "host") as host:
        gateway = WebGateway(
            game_address="127.0.0.1",
            game_port=host.port,
            state_dir=tmp_path / "host",
            bind="127.0.0.1",
            port=0,
            log=lambda line: None,
        )
        await gateway.start()
        try:
            yield f"http://127.0.0.1:{gateway.port}/"
        finally:
            await gateway.close()


async def test_keys_typed_once_the_page_loads_reach_the_game_with_no_click(
    browser: Browser, tmp_path: Path
) -> None:
    async with served_page(tmp_path) as url:
        context = await new_context(browser, DESKTOP)
        page = await open_terminal(context, url)
        await wait_for_text(page, "Your name", timeout_s=30)
        assert await page.evaluate(FOCUSED_JS), "the terminal does not have the keyboard"
        await page.keyboard.type("Wendy")
        await wait_for_text(page, "Wendy")
        await page.keyboard.press("Enter")
        await wait_for_text(page, "Clowder lobby · you are Wendy", timeout_s=30)
        # The focus goes elsewhere (a click beside the terminal, a script): the next key
        # brings it back, and is not lost.
        await page.evaluate("() => document.activeElement.blur()")
        assert not await page.evaluate(FOCUSED_JS)
        await page.keyboard.type("?")
        await wait_for_text(page, "Keys here")
        assert await page.evaluate(FOCUSED_JS)
        await context.close()

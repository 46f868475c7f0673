"""The player's page itself in headless Chromium: the keyboard, the icon and the signs
(issue 36, items 5 and 10).

* Keys typed after the page loads reach the game with no click: textual.js made the
  terminal but never focused it, so the focus stayed on the page's body and typing did
  nothing until a click. And a key pressed while the focus is elsewhere brings it back.
  These tests type with Playwright's keyboard alone (``page.keyboard``), never the
  harness's ``press`` and ``type_text``, which focus the terminal first.
* No request of the page is answered with an error: the browser asked for
  ``/favicon.ico`` (404); the page now names its icon, and it is served.
* Every sign the screens draw is drawn by the page's fonts, not as the empty box of a
  missing glyph (the countdown's stopwatch was): the characters of
  ``tests.tui.test_glyphs.drawn_characters`` are drawn on a canvas in the terminal's font
  and each compared with a character no font has.
"""

from __future__ import annotations

import contextlib
import struct
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.net.hosting import running_host
from tests.tui.test_glyphs import DRAWN_BY_XTERM, drawn_characters
from tests.web.browser import (
    DESKTOP,
    blocked_requests,
    new_context,
    open_terminal,
    wait_for_text,
)
from tests.web.served import web_door

if TYPE_CHECKING:
    from playwright.async_api import Browser, Response

pytestmark = [pytest.mark.timeout(60)]

FOCUSED_JS = """
() => document.activeElement !== null
  && document.activeElement.classList.contains("xterm-helper-textarea")
"""

# Draws each character in the terminal's font (textual.js gives xterm.js this family) on a
# canvas; returns, for each, a digest of its pixels and how many are inked.
DRAW_JS = """
(chars) => {
  const font = "16px 'Roboto Mono', Monaco, 'Courier New', monospace";
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 40;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  const drawn = {};
  for (const char of chars) {
    context.clearRect(0, 0, 40, 40);
    context.font = font;
    context.fillStyle = "#fff";
    context.textBaseline = "top";
    context.fillText(char, 8, 8);
    const pixels = context.getImageData(0, 0, 40, 40).data;
    let digest = 0, inked = 0;
    for (let i = 3; i < pixels.length; i += 4) {
      digest = (digest * 31 + pixels[i]) >>> 0;
      inked += pixels[i] > 0 ? 1 : 0;
    }
    drawn[char] = [digest, inked];
  }
  return drawn;
}
"""
NO_FONT_HAS = "\u0378"
"""An unassigned code point (in the Greek block): what the page draws for a missing glyph."""

ICON_JS = """() => document.querySelector('link[rel="icon"]')?.href ?? null"""


@contextlib.asynccontextmanager
async def served_page(tmp_path: Path) -> AsyncIterator[str]:
    """A host on 127.0.0.1 and its web page; yields the page's address."""
    async with (
        running_host(tmp_path / "host") as host,
        web_door(host, tmp_path / "host") as gateway,
    ):
        yield f"http://127.0.0.1:{gateway.port}/"


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


async def test_the_page_asks_for_nothing_it_is_refused_and_has_its_icon(
    browser: Browser, tmp_path: Path
) -> None:
    async with served_page(tmp_path) as url:
        context = await new_context(browser, DESKTOP)
        answers: list[Response] = []
        context.on("response", lambda answer: answers.append(answer))  # noqa: PLW0108
        page = await open_terminal(context, url)
        await wait_for_text(page, "Your name", timeout_s=30)
        icon = await page.evaluate(ICON_JS)
        assert icon == url + "favicon.ico", icon  # where browsers look without a link, too
        # Fetched by Playwright (Chromium fails a page's own fetch of /favicon.ico while
        # requests are routed, as new_context routes them).
        answer = await context.request.get(icon)
        body = await answer.body()
        assert answer.status == 200 and answer.headers["content-type"] == "image/png"
        assert body.startswith(b"\x89PNG\r\n\x1a\n") and struct.unpack(">II", body[16:24]) == (
            32,
            32,
        )
        refused = [(answer.status, answer.url) for answer in answers if answer.status >= 400]
        assert not refused and not blocked_requests(context)
        await context.close()


async def test_every_sign_the_screens_draw_is_drawn_by_the_page_s_fonts(
    browser: Browser, tmp_path: Path
) -> None:
    signs = sorted(
        char
        for char in drawn_characters()
        if char.isprintable() and ord(char) > 0xFF
        if ord(char) not in DRAWN_BY_XTERM
    )
    assert "⏎" in signs and "─" not in signs  # the check sees what the screens draw
    async with served_page(tmp_path) as url:
        context = await new_context(browser, DESKTOP)
        page = await open_terminal(context, url)
        drawn: dict[str, list[int]] = await page.evaluate(DRAW_JS, [NO_FONT_HAS, "A", *signs])
        missing = drawn[NO_FONT_HAS]
        assert drawn["A"] != missing  # the comparison tells a glyph from a missing one
        boxes = [f"U+{ord(char):04X} {char}" for char in signs if drawn[char] == missing]
        blank = [f"U+{ord(char):04X} {char}" for char in signs if drawn[char][1] == 0]
        assert not boxes and not blank, f"drawn as a missing glyph: {boxes}, blank: {blank}"
        await context.close()

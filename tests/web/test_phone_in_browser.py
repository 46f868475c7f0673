"""A phone held upright (390x844 CSS pixels, 3 device pixels to one) in headless Chromium
(issue 36, items 6 and 4).

At 16 px the page's terminal was 41 columns wide, and the screens, made for 48 at their
narrowest, were cut: the dialogs' right halves (the "Learn a game" line, the create
dialog), Katootsie!'s letters won (off the screen), its hint and the footers' last key
("l learn a"). Now the page makes its font smaller on such a window (at least 48 columns),
the dialogs keep inside the screen and wrap their lines, the hint and the connection line
wrap, Katootsie! puts the letters won under its board, and a footer shows whole keys
only. Each text is checked whole on the terminal (xterm's buffer, rows joined).

The leave dialog also says the browser's way back: the page as this browser opened it
(``localhost`` here, whose cookie goes to that name only), never ``clowder join
127.0.0.1:PORT``, which a browser cannot use (item 4).

No screenshots here: at a device scale factor of 3 headless Chromium reports the
terminal's canvas in CSS pixels for its device-pixel size, and xterm.js then draws it
three times too large, cut to a third (a real phone is right). The same pages at a scale
factor of 1 (55 columns) draw right, for a look.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import pytest

from tests.net.hosting import running_host
from tests.web.browser import (
    new_context,
    open_terminal,
    press,
    terminal_lines,
    terminal_size,
    type_text,
    wait_for_text,
)
from tests.web.served import web_door

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page

pytestmark = [pytest.mark.timeout(60)]

PHONE_390: Final[dict[str, Any]] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 3,
}
"""A phone held upright, as Playwright emulates one (an iPhone 12 to 14's size)."""
TIMEOUT_S = 30.0
POLL_S = 0.05


@contextlib.asynccontextmanager
async def katootsie_evening(tmp_path: Path) -> AsyncIterator[tuple[int, int]]:
    """A host with a Katootsie! table (two bots and a free seat) and its web page; yields
    the game port and the page's port."""
    async with running_host(tmp_path / "host", bot_delay_s=0.3) as host:
        host.create_table("katootsie", {}, seats=3, bots=2, created_by="host")
        async with web_door(host, tmp_path / "host") as gateway:
            yield host.port, gateway.port


def box(lines: list[str]) -> tuple[str, str]:
    """The heavy-bordered box on the screen (a dialog): its top row, and its text with
    the rows inside joined by spaces. Raises AssertionError if there is none."""
    tops = [row for row, line in enumerate(lines) if "┏" in line]
    bottoms = [row for row, line in enumerate(lines) if "┗" in line]
    assert tops and bottoms, "\n".join(lines)
    inside = lines[tops[-1] + 1 : bottoms[-1]]
    text = " ".join(line.strip().strip("┃").strip() for line in inside)
    return lines[tops[-1]], re.sub(r"\s+", " ", text)


async def whole_box(page: Page, needle: str | re.Pattern[str]) -> str:
    """Waits for a dialog that says ``needle`` whole (its lines joined; a string, or a
    regex searched), drawn to its right border; returns its text."""
    lines: list[str] = []
    try:
        async with asyncio.timeout(TIMEOUT_S):
            while True:
                lines = await terminal_lines(page)
                if any("┏" in line for line in lines):
                    top, text = box(lines)
                    if needle in text if isinstance(needle, str) else needle.search(text):
                        assert top.rstrip().endswith("┓"), f"the box is cut:\n{top}"
                        return text
                await asyncio.sleep(POLL_S)
    except TimeoutError:
        shown = "\n".join(lines)
        raise AssertionError(f"no box saying {needle!r} whole:\n{shown}") from None


async def whole_text(page: Page, pattern: str) -> str:
    """Waits until the screen, its rows joined by spaces, matches ``pattern``: a text
    wrapped over rows counts, one cut at the screen's edge does not."""
    text = ""
    try:
        async with asyncio.timeout(TIMEOUT_S):
            while True:
                text = " ".join(line.strip() for line in await terminal_lines(page))
                found = re.search(pattern, re.sub(r"\s+", " ", text))
                if found:
                    return found.group()
                await asyncio.sleep(POLL_S)
    except TimeoutError:
        raise AssertionError(f"{pattern!r} not whole on the screen:\n{text}") from None


def footer_keys(line: str) -> list[str]:
    """A footer's keys as drawn: ``? keys``, ``l learn`` (two spaces apart)."""
    return [key for key in re.split(r"\s{2,}", line.strip()) if key]


async def newcomer(page: Page, name: str) -> None:
    await whole_box(page, "Your name (the others see it at the table):")
    await type_text(page, name)
    await press(page, "Enter")
    await wait_for_text(page, re.compile(r"Katootsie!.*1 seat free"), timeout_s=TIMEOUT_S)


async def test_a_phone_shows_the_lobby_and_its_dialogs_whole(
    browser: Browser, tmp_path: Path
) -> None:
    async with katootsie_evening(tmp_path) as (game_port, web_port):
        context = await new_context(browser, **PHONE_390)
        page = await open_terminal(context, f"http://localhost:{web_port}/", size=None)
        size = await terminal_size(page)
        assert size.cols >= 48, size  # the font made smaller: 41 columns at 16 px
        await newcomer(page, "Pia")
        footer = footer_keys((await terminal_lines(page))[-1])
        assert footer[:2] == ["⏎ join", "? keys"] and "l learn" in footer, footer
        known = {"⏎ join", "? keys", "w watch", "c create table", "l learn", "a address"}
        assert set(footer) <= known, footer  # whole keys only ("l learn a" was one)

        await press(page, "l")
        learn = await whole_box(page, "Learn a game: play easy bots, a coach beside you")
        assert "You Gotta Be Kitten Me! (2-10 players)" in learn
        assert "↑/↓ choose · enter: play a coached game · q or esc: back" in learn
        await press(page, "Escape")

        await press(page, "c")
        await whole_box(page, f"New table at 127.0.0.1:{game_port} (others can join)")
        # Laid out for the phone once the dialog has its size (a frame after it shows).
        create = await whole_box(page, re.compile(r"Seats \d+ ▼ bots \d+ ▼ level normal ▼"))
        assert "Create (ctrl+s)" in create and "Cancel (esc)" in create
        await press(page, "Escape")
        await context.close()


async def test_a_phone_at_katootsie_shows_the_letters_won_the_hint_and_the_way_back(
    browser: Browser, tmp_path: Path
) -> None:
    async with katootsie_evening(tmp_path) as (_game_port, web_port):
        context = await new_context(browser, **PHONE_390)
        page = await open_terminal(context, f"http://localhost:{web_port}/", size=None)
        await newcomer(page, "Pia")
        await press(page, "Tab", "Enter")
        await whole_text(page, r"Letters won Bot \w+ +\d+.*Bot \w+ +\d+.*Pia\* +\d+")
        await whole_text(
            page,
            r"Type an answer with [A-Z], Enter sends it · ! on an empty line: Katootsie!"
            r"|Get ready: the letter comes next · w why · r rules · q leaves",
        )
        await whole_text(page, r"● 127\.0\.0\.1:\d+ · Bot \w+ bot · Bot \w+ bot · Pia\* ●")

        await press(page, "Escape", "q")
        leave = await whole_box(page, "Leave table t1?")
        back = (
            "Back later: Enter on it in the lobby (it says 'your seat'), "
            f"or open http://localhost:{web_port}/ again in this browser"
        )
        assert back in leave, leave
        assert "clowder join" not in leave and "127.0.0.1" not in leave
        footer = footer_keys((await terminal_lines(page))[-1])
        assert set(footer) <= {"? keys", "l leave for now", "g give the seat up", "q stay"}
        await press(page, "l")
        await wait_for_text(page, "your seat", timeout_s=TIMEOUT_S)  # back in the lobby
        await context.close()

"""A harness that drives Textual apps served by textual-serve in a real, headless Chromium.

The browser is Debian's ``chromium`` (``apt-get install chromium``), driven through the
``playwright`` package, whose wheel ships its own node driver. ``playwright install``
(which downloads browsers) is never needed: the system browser is launched by its path.

Typical use, in an async test::

    async with chromium() as browser:
        context = await new_context(browser, DESKTOP)  # a person with a fresh cookie jar
        page = await open_terminal(context, url)
        await wait_for_text(page, "Count: 0")
        await press(page, "+")
        await wait_for_text(page, "Count: 1")
        await screenshot(page, tmp_path / "counter.png")

How the screen is read. textual-serve's page (``textual_serve/static/js/textual.js``)
draws with xterm.js's WebGL or canvas renderer, so the DOM holds no text, and it keeps
its ``Terminal`` in a local variable. An init script (``_CAPTURE_SCRIPT``) catches the
object when textual.js's client class does ``this.terminal = new Terminal(...)``, and
``terminal_text`` reads xterm's public buffer API (``buffer.active.getLine(y)
.translateToString()``): the cells exactly as the terminal holds them. Where a page has
no such client, the DOM renderer's rows (``.xterm-rows``) are read instead.

Sizes. textual.js fits the terminal to the whole window (``.textual-terminal`` is
100vw by 100vh, font 16px unless the page's URL says ``?fontsize=N``), so the viewport
decides the terminal's size. ``new_context`` picks the viewport from the expected cell
size, and ``open_terminal`` checks the terminal's real columns and rows and corrects the
viewport where the fonts on a machine give other cells.

Network. Every context aborts any request not to a loopback address, so a page cannot
reach out (textual-serve's page links a Google Fonts stylesheet, for one) and the
browser never waits on a request that goes nowhere; ``blocked_requests`` lists them.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import re
import shutil
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal, NoReturn
from urllib.parse import urlsplit

from tests.needs import lacking

if TYPE_CHECKING:
    from playwright.async_api import (
        Browser,
        BrowserContext,
        Cookie,
        Page,
        Request,
        Route,
        ViewportSize,
    )

__all__ = [
    "CHROMIUM_ARGS",
    "DESKTOP",
    "NO_BROWSER_REASON",
    "PHONE",
    "TerminalSize",
    "blocked_requests",
    "chromium",
    "chromium_path",
    "cookie",
    "missing_browser",
    "new_context",
    "open_terminal",
    "press",
    "require_browser",
    "resize_terminal",
    "screenshot",
    "session_ended",
    "terminal_lines",
    "terminal_size",
    "terminal_text",
    "type_text",
    "wait_for_session_end",
    "wait_for_text",
]

NO_BROWSER_REASON: Final = "no Chromium installed: apt-get install chromium"

# Flags for a headless Chromium run as root in a container: no sandbox (it refuses to
# start as root with one), no GPU, and /tmp instead of a small /dev/shm.
CHROMIUM_ARGS: Final = ("--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage")

# One terminal cell in CSS pixels at textual.js's default font (16px "Courier New", that
# is Liberation Mono on Debian) and a device pixel ratio of 1: measured, and only a first
# guess, since open_terminal corrects the viewport from the terminal's own size.
CELL_WIDTH: Final = 9.0
CELL_HEIGHT: Final = 18.0

# How long the helpers wait by default, in seconds.
DEFAULT_TIMEOUT_S: Final = 15.0
POLL_S: Final = 0.05

# Textual reads a lone ESC as the Escape key only after ESCDELAY (100 ms) without another
# byte; sooner, it reads ESC and the next key together (Escape, Tab: "shift+tab"). So
# press() waits this long after an Escape.
ESCAPE_PAUSE_S: Final = 0.25


@dataclass(frozen=True)
class TerminalSize:
    """A terminal's size in character cells."""

    cols: int
    rows: int

    def viewport(
        self, cell_width: float = CELL_WIDTH, cell_height: float = CELL_HEIGHT
    ) -> ViewportSize:
        """The browser viewport (CSS pixels) in which textual.js fits this many cells.

        Half a cell to spare each way, so that rounding cannot lose a column or a row.
        """
        return {
            "width": round((self.cols + 0.5) * cell_width),
            "height": round((self.rows + 0.5) * cell_height),
        }


DESKTOP: Final = TerminalSize(80, 24)
"""An ordinary terminal window."""

PHONE: Final = TerminalSize(48, 40)
"""A narrow, tall, phone-like screen, as a desktop window (device pixel ratio 1, not
``is_mobile``). For a real phone's emulation pass Playwright's options to new_context
(``viewport={"width": 390, "height": 844}, is_mobile=True, device_scale_factor=3``) and
``size=None`` to open_terminal: then a page without ``<meta name="viewport">`` (as
textual-serve's own) is laid out 980 CSS pixels wide, about 104 columns."""


# --- Is there a browser? -----------------------------------------------------------------


def chromium_path() -> str | None:
    """The path of Debian's Chromium, or None where it is not installed."""
    found = shutil.which("chromium")
    if found is not None:
        return found
    fallback = Path("/usr/bin/chromium")
    return str(fallback) if os.access(fallback, os.X_OK) else None


def missing_browser() -> str | None:
    """Why browser tests cannot run here (no Chromium, or no playwright), or None."""
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed: pip install -e '.[test]'"
    if chromium_path() is None:
        return NO_BROWSER_REASON
    return None


def require_browser() -> None:
    """Skips the calling test where there is no browser, with the reason.

    Under CI (``CI=true``, as .ci/run sets) a missing browser fails the test instead:
    .ci/run installs Chromium, so there the browser tests must run.
    """
    reason = missing_browser()
    if reason is None:
        return
    lacking(reason, f"browser tests must run under CI, but {reason}")


# --- Browser, contexts, pages --------------------------------------------------------------


@contextlib.asynccontextmanager
async def chromium(*, timeout_s: float = 30.0) -> AsyncIterator[Browser]:
    """Starts Playwright's driver and a headless Chromium; closes both on the way out.

    Calls ``require_browser`` first, so a test that uses it skips where there is none.
    """
    require_browser()
    from playwright.async_api import async_playwright

    executable = chromium_path()
    assert executable is not None
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=executable,
            headless=True,
            args=list(CHROMIUM_ARGS),
            timeout=timeout_s * 1000,
        )
        try:
            yield browser
        finally:
            await browser.close()


@dataclass
class _ContextNotes:
    """What new_context knows of a context: the terminal size its viewport was made for
    (None where the caller gave the viewport), and the requests it aborted."""

    size: TerminalSize | None
    blocked: list[str]


_notes: weakref.WeakKeyDictionary[BrowserContext, _ContextNotes] = weakref.WeakKeyDictionary()


def _is_loopback(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    host = parts.hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _only_loopback(blocked: list[str]) -> Callable[[Route, Request], Awaitable[None]]:
    """A route handler that lets loopback requests through and aborts (and lists) others."""

    async def handle(route: Route, request: Request) -> None:
        if _is_loopback(request.url):
            await route.continue_()
        else:
            blocked.append(request.url)
            await route.abort("addressunreachable")

    return handle


async def new_context(
    browser: Browser,
    size: TerminalSize = DESKTOP,
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    **options: Any,
) -> BrowserContext:
    """A fresh browser context: its own cookies and storage, like a stranger's browser.

    Its pages' viewport fits ``size`` (see ``TerminalSize.viewport``), and open_terminal
    makes its terminals that size; ``options`` go to Playwright's ``Browser.new_context``
    (``viewport``, which then wins over ``size``, ``device_scale_factor``, ...).
    Requests to anywhere but loopback are aborted and listed by ``blocked_requests``.
    Playwright keeps a context's cookies across its pages and page loads; close the
    context with ``await context.close()`` (closing the browser closes it too).
    """
    fits: TerminalSize | None = size
    if "viewport" in options:
        fits = None
    else:
        options["viewport"] = size.viewport()
    context = await browser.new_context(**options)
    context.set_default_timeout(timeout_s * 1000)
    notes = _notes[context] = _ContextNotes(fits, [])
    await context.route("**/*", _only_loopback(notes.blocked))
    await context.add_init_script(script=_CAPTURE_SCRIPT)
    return context


def blocked_requests(context: BrowserContext) -> list[str]:
    """The URLs that pages of ``context`` asked for off loopback (all were aborted)."""
    notes = _notes.get(context)
    return [] if notes is None else list(notes.blocked)


async def cookie(context: BrowserContext, name: str) -> Cookie | None:
    """The cookie ``name`` that ``context`` holds (HttpOnly ones too), or None.

    The result is Playwright's cookie dict: ``value``, ``httpOnly``, ``sameSite``, ...
    """
    for found in await context.cookies():
        if found.get("name") == name:
            return found
    return None


async def open_terminal(
    context: BrowserContext,
    url: str,
    *,
    size: TerminalSize | Literal["context"] | None = "context",
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> Page:
    """Opens ``url`` (a textual-serve page) in a new page of ``context``, ready for keys.

    Waits until the page's terminal exists and the app has drawn its first output (or the
    session ended first). Then makes the terminal exactly ``size`` (by default the size
    new_context was given; None: leave it as the viewport made it): where the viewport
    gave other columns or rows (other fonts, a ``?fontsize=``), it resizes the viewport.
    Raises AssertionError if the page does not load or has no terminal. To look at a page
    that is meant to fail (a refused visitor), use Playwright's ``context.new_page()`` and
    ``page.goto(url)`` directly.
    """
    page = await context.new_page()
    response = await page.goto(url, timeout=timeout_s * 1000)
    if response is None or not response.ok:
        status = "no response" if response is None else f"HTTP {response.status}"
        _fail(f"could not open {url}: {status}")
    deadline = time.monotonic() + timeout_s
    while not await page.evaluate(_STARTED_JS):
        if time.monotonic() > deadline:
            _fail(f"{url}: no terminal output after {timeout_s} s", await _page_text(page))
        await asyncio.sleep(POLL_S)
    if size == "context":
        notes = _notes.get(context)
        size = None if notes is None else notes.size
    if size is not None and not await session_ended(page):
        await resize_terminal(page, size, timeout_s=timeout_s)
    return page


async def resize_terminal(
    page: Page, size: TerminalSize, *, timeout_s: float = DEFAULT_TIMEOUT_S
) -> None:
    """Resizes the viewport until the terminal is ``size``; textual.js tells the app."""
    deadline = time.monotonic() + timeout_s
    while (current := await terminal_size(page)) != size:
        cell = await page.evaluate(_CELL_JS)
        if cell is None:
            _fail("the page's terminal has no size to measure")
        await page.set_viewport_size(size.viewport(cell["width"], cell["height"]))
        for _ in range(20):  # textual.js refits on the window's resize event
            await asyncio.sleep(POLL_S)
            if await terminal_size(page) == size:
                return
        if time.monotonic() > deadline:
            _fail(f"the terminal stayed {current.cols}x{current.rows}, not {size.cols}x{size.rows}")


async def terminal_size(page: Page) -> TerminalSize:
    """The page's terminal's size, as xterm.js has it (and textual.js told the app)."""
    found = await page.evaluate(_SIZE_JS)
    if found is None:
        _fail("the page has no textual-serve terminal")
    return TerminalSize(int(found["cols"]), int(found["rows"]))


# --- Reading the screen ----------------------------------------------------------------------


async def terminal_lines(page: Page) -> list[str]:
    """The terminal's visible rows, top to bottom, trailing spaces removed.

    A wide character (CJK, most emoji) takes two cells and is one character here.
    """
    lines = await page.evaluate(_LINES_JS)
    if lines is None:
        _fail("the page has no terminal to read (no textual.js client, no .xterm-rows)")
    return [str(line).rstrip() for line in lines]


async def terminal_text(page: Page) -> str:
    """The text on the page's terminal now: its rows joined by newlines."""
    return "\n".join(await terminal_lines(page))


async def wait_for_text(
    page: Page, needle: str | re.Pattern[str], timeout_s: float = DEFAULT_TIMEOUT_S
) -> str:
    """Waits until the terminal shows ``needle`` (a string, or a compiled regex searched
    in the joined text); returns the text then.

    Raises AssertionError quoting the screen if it does not show within ``timeout_s``.
    A needle is found within one row only, since rows are joined by newlines. A page with
    no terminal yet is waited for too (a page that reloaded itself was still loading: the
    test failed at once in CI).
    """
    from playwright.async_api import Error as PageError

    deadline = time.monotonic() + timeout_s
    while True:
        try:
            lines = await page.evaluate(_LINES_JS)
        except PageError:  # the page navigated away as it was read (it is reloading)
            lines = None
        if lines is None and time.monotonic() > deadline:
            await terminal_lines(page)  # says the page has no terminal
        # No terminal yet: a page that reloads itself (its host came back) is loading.
        text = "\n".join(str(line).rstrip() for line in lines or [])
        found = needle in text if isinstance(needle, str) else needle.search(text) is not None
        if found:
            return text
        if time.monotonic() > deadline:
            shown = needle if isinstance(needle, str) else needle.pattern
            _fail(f"{shown!r} not on the terminal after {timeout_s} s", text)
        await asyncio.sleep(POLL_S)


async def session_ended(page: Page) -> bool:
    """Whether the page's session has ended (textual.js saw its websocket close)."""
    return bool(await page.evaluate("() => document.body.classList.contains('-closed')"))


async def wait_for_session_end(page: Page, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
    """Waits until the session ends (the app exited, or the server closed the websocket);
    textual.js then shows "Session ended." over the terminal, whose text stays readable."""
    deadline = time.monotonic() + timeout_s
    while not await session_ended(page):
        if time.monotonic() > deadline:
            _fail(f"the session had not ended after {timeout_s} s", await terminal_text(page))
        await asyncio.sleep(POLL_S)


# --- Typing ------------------------------------------------------------------------------------


async def _focus_terminal(page: Page) -> None:
    # Focus xterm's hidden textarea; a click would reach the app as a mouse event.
    await page.focus(".xterm-helper-textarea")


async def press(page: Page, *keys: str) -> None:
    """Presses ``keys`` one after another on the terminal, by Playwright's key names:
    "Enter", "Escape", "Tab", "ArrowDown", "Backspace", "q", "1", "+", "Shift+Tab",
    "Control+c", ... xterm.js turns each into what a terminal sends (ArrowDown: ESC [ B).
    After an Escape it waits ``ESCAPE_PAUSE_S``, so that Textual sees the Escape key.
    """
    await _focus_terminal(page)
    for key in keys:
        await page.keyboard.press(key)
        if key.endswith("Escape"):
            await asyncio.sleep(ESCAPE_PAUSE_S)


async def type_text(page: Page, text: str) -> None:
    """Types ``text`` on the terminal, a key per character."""
    await _focus_terminal(page)
    await page.keyboard.type(text)


async def screenshot(page: Page, path: Path | str) -> Path:
    """Saves a PNG of the page (the terminal as a person sees it) at ``path``.

    The page is brought to the front first: headless Chromium draws no frame for a tab
    behind another of its context, so a screenshot of it can wait until it times out
    (CI saw it once for the tab a second tab had taken over; puppeteer#4431 is the same).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    await page.bring_to_front()
    await page.screenshot(path=str(target))
    return target


# --- Internals -------------------------------------------------------------------------------


def _fail(message: str, screen: str | None = None) -> NoReturn:
    if screen is not None:
        message += "\n--- screen ---\n" + screen + "\n--------------"
    raise AssertionError(message)


async def _page_text(page: Page) -> str:
    """What the page shows, for error messages: the terminal, else the body's text."""
    lines = await page.evaluate(_LINES_JS)
    if lines is not None:
        return "\n".join(str(line).rstrip() for line in lines)
    return str(await page.evaluate("() => document.body ? document.body.innerText : ''"))


# Runs in every page before its scripts. textual.js's client class does
# `this.terminal = new Terminal(...)`, once; a setter on Object.prototype sees that
# assignment, keeps the client and its xterm.js Terminal in window.__clowderTextual, puts
# the property back as a plain one on the client and removes itself.
_CAPTURE_SCRIPT: Final = """
(() => {
  Object.defineProperty(Object.prototype, "terminal", {
    configurable: true,
    get() { return undefined; },
    set(value) {
      delete Object.prototype.terminal;
      Object.defineProperty(this, "terminal", {
        value, writable: true, configurable: true, enumerable: true,
      });
      window.__clowderTextual = { client: this, terminal: value };
    },
  });
})();
"""

_LINES_JS: Final = """
() => {
  const captured = window.__clowderTextual;
  if (captured && captured.terminal && captured.terminal.buffer) {
    const terminal = captured.terminal;
    const buffer = terminal.buffer.active;
    const lines = [];
    for (let y = 0; y < terminal.rows; y++) {
      const line = buffer.getLine(buffer.viewportY + y);
      lines.push(line ? line.translateToString(true) : "");
    }
    return lines;
  }
  const rows = document.querySelector(".xterm-rows");
  if (rows) return Array.from(rows.children, (row) => row.textContent.replace(/\\u00a0/g, " "));
  return null;
}
"""

_SIZE_JS: Final = """
() => {
  const captured = window.__clowderTextual;
  if (!captured || !captured.terminal) return null;
  return { cols: captured.terminal.cols, rows: captured.terminal.rows };
}
"""

# The size of one cell in CSS pixels: the drawn screen's size over the terminal's.
_CELL_JS: Final = """
() => {
  const captured = window.__clowderTextual;
  if (!captured || !captured.terminal || !captured.terminal.element) return null;
  const terminal = captured.terminal;
  const screen = terminal.element.querySelector(".xterm-screen");
  if (!screen) return null;
  const box = screen.getBoundingClientRect();
  if (!box.width || !box.height) return null;
  return { width: box.width / terminal.cols, height: box.height / terminal.rows };
}
"""

# True once the app drew something (textual.js marks the body "-first-byte") or the
# session ended ("-closed"), with the terminal in place.
_STARTED_JS: Final = """
() => {
  const body = document.body;
  if (!body || !window.__clowderTextual) return false;
  return body.classList.contains("-first-byte") || body.classList.contains("-closed");
}
"""

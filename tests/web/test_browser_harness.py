"""The browser harness itself, on a tiny app served by textual-serve's own server.

Serves tests/web/counter_app.py on 127.0.0.1, opens it in headless Chromium, reads the
terminal, presses keys, and checks that everything it started has ended.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.web import browser as browser_module
from tests.web.browser import (
    DESKTOP,
    PHONE,
    blocked_requests,
    chromium,
    cookie,
    new_context,
    open_terminal,
    press,
    require_browser,
    screenshot,
    session_ended,
    terminal_lines,
    terminal_size,
    terminal_text,
    type_text,
    wait_for_session_end,
    wait_for_text,
)
from tests.web.served import python_module_command, serve_textual

if TYPE_CHECKING:
    from playwright.async_api import Browser

pytestmark = [pytest.mark.timeout(120)]


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _children(pid: int) -> set[int]:
    """The living processes whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(encoding="utf-8")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(entry.name))
    return found


async def _wait_until_gone(pids: set[int], timeout_s: float = 10.0) -> set[int]:
    """Waits for ``pids`` to end; returns those still alive at the deadline."""
    deadline = time.monotonic() + timeout_s
    while (alive := {pid for pid in pids if _alive(pid)}) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return alive


async def _read_pid(path: Path, timeout_s: float = 10.0) -> int:
    deadline = time.monotonic() + timeout_s
    while not (text := path.read_text(encoding="utf-8") if path.exists() else "").endswith("\n"):
        assert time.monotonic() < deadline, f"the app never wrote {path}"
        await asyncio.sleep(0.05)
    return int(text)


async def test_counter_app_in_chromium(tmp_path: Path) -> None:
    require_browser()
    children_before = _children(os.getpid())
    pid_file = tmp_path / "app.pid"
    command = python_module_command("tests.web.counter_app", "--pid-file", str(pid_file))
    async with serve_textual(command, title="counter") as url:
        assert url.startswith("http://127.0.0.1:")
        async with chromium() as browser:
            context = await new_context(browser, DESKTOP)
            page = await open_terminal(context, url)
            app_pid = await _read_pid(pid_file)
            assert _alive(app_pid)

            await wait_for_text(page, "Count: 0")
            assert await terminal_size(page) == DESKTOP
            lines = await terminal_lines(page)
            assert len(lines) == DESKTOP.rows
            assert lines[0] == "Count: 0"
            await wait_for_text(page, "Size: 80x24")  # the app was told the browser's size

            await press(page, "+", "+")
            await wait_for_text(page, "Count: 2")
            await type_text(page, "+++")
            text = await wait_for_text(page, "Count: 5")
            assert "Count: 2" not in text

            shot = await screenshot(page, tmp_path / "counter.png")
            assert shot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")

            # textual-serve sets no cookie; the page asked off loopback only for its
            # Google Fonts stylesheet, which the harness blocked.
            assert await context.cookies() == []
            assert await cookie(context, "anything") is None
            assert blocked_requests(context) == [
                "https://fonts.googleapis.com/css?family=Roboto%20Mono"
            ]

            assert not await session_ended(page)
            await press(page, "q")
            await wait_for_text(page, "Bye")
            await wait_for_session_end(page)
            assert "Bye" in await terminal_text(page)  # the last screen stays readable
            assert await _wait_until_gone({app_pid}) == set(), "the app did not exit"

    leftovers = await _wait_until_gone(_children(os.getpid()) - children_before)
    assert leftovers == set(), f"processes left behind: {sorted(leftovers)}"


async def test_phone_and_desktop_visitors_have_their_own_sessions(
    browser: Browser, tmp_path: Path
) -> None:
    """A narrow viewport gives a narrow terminal; a second context is a second session
    with its own app; closing a context (a browser going away) ends its session's app."""
    pid_file = tmp_path / "app.pid"
    command = python_module_command("tests.web.counter_app", "--pid-file", str(pid_file))
    async with serve_textual(command) as url:
        phone_context = await new_context(browser, PHONE)
        phone = await open_terminal(phone_context, url)  # PHONE, as its context
        phone_pid = await _read_pid(pid_file)
        pid_file.unlink()
        await wait_for_text(phone, f"Size: {PHONE.cols}x{PHONE.rows}")
        assert await terminal_size(phone) == PHONE
        assert len(await terminal_lines(phone)) == PHONE.rows
        await press(phone, "+")
        await wait_for_text(phone, "Count: 1")
        await screenshot(phone, tmp_path / "phone.png")

        desktop_context = await new_context(browser, DESKTOP)
        desktop = await open_terminal(desktop_context, url)
        desktop_pid = await _read_pid(pid_file)
        assert desktop_pid != phone_pid
        await wait_for_text(desktop, "Size: 80x24")
        assert (await terminal_lines(desktop))[0] == "Count: 0"  # its own app, its own count

        await phone_context.close()  # its websocket closes; textual-serve tells the app to quit
        assert await _wait_until_gone({phone_pid}) == set()
        assert _alive(desktop_pid)
        await wait_for_text(desktop, "Count: 0")
        await desktop_context.close()
        assert await _wait_until_gone({desktop_pid}) == set()


def test_without_chromium_a_browser_test_skips_but_fails_under_ci(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(browser_module, "chromium_path", lambda: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no Chromium installed: apt-get install"):
        require_browser()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="must run under CI"):
        require_browser()

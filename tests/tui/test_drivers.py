"""tui.drivers: the input thread reads and times keys as Textual's does, then sleeps.

Textual's own input loop wakes every 0.1 s for as long as the app runs. These tests feed a
pipe, read what the parser made of it, and count the thread's rounds: while nothing is typed
(after :data:`tui.drivers.SETTLE_S`), the count stands still however long one waits, and
stopping the driver ends the thread without any input.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from textual import constants, events
from textual.app import App
from textual.drivers.linux_driver import LinuxDriver
from textual.drivers.web_driver import WebDriver

import tui.drivers
from tui.app import ClowderApp
from tui.drivers import QuietInputReader, QuietLinuxDriver, QuietWebDriver, quiet_driver

SETTLE_S = 0.2
"""The settling time these tests use (shorter than the real one, so they are quick)."""
WAIT_S = 10.0
"""How long a test waits for something that must happen (generous: a loaded machine)."""


@pytest.fixture
def rounds(monkeypatch: pytest.MonkeyPatch) -> list[float | None]:
    """Each wait the input loop asked for, in order (``None``: until input or a stop)."""
    asked: list[float | None] = []
    real = tui.drivers.wait_for

    def counted(since_input_s: float) -> float | None:
        wait = real(since_input_s)
        asked.append(wait)
        return wait

    monkeypatch.setattr(tui.drivers, "SETTLE_S", SETTLE_S)
    monkeypatch.setattr(tui.drivers, "wait_for", counted)
    return asked


class Recorded(QuietLinuxDriver):
    """The quiet terminal driver reading a pipe, keeping what it would send to the app."""

    def __init__(self, fileno: int) -> None:
        super().__init__(App())
        self.fileno = fileno
        self.got: list[events.Event] = []

    def process_message(self, message: Any) -> None:
        self.got.append(message)


@contextlib.contextmanager
def input_thread(driver: Recorded) -> Iterator[threading.Thread]:
    """``driver``'s input thread, running; stopped (as the app stops it) when the test ends."""
    thread = threading.Thread(target=driver.run_input_thread)
    thread.start()
    try:
        yield thread
    finally:
        driver.exit_event.set()
        thread.join(WAIT_S)


def until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, "it did not happen"
        time.sleep(0.01)


def keys(got: list[Any]) -> list[str]:
    return [event.key for event in got if isinstance(event, events.Key)]


def asleep(rounds: list[float | None]) -> bool:
    """Whether the loop's last wait was an open one (it sleeps until input or a stop)."""
    return bool(rounds) and rounds[-1] is None


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    read_fd, write_fd = os.pipe()
    yield read_fd, write_fd
    for fd in (read_fd, write_fd):
        with contextlib.suppress(OSError):  # the reader may have closed its end
            os.close(fd)


async def test_the_terminal_driver_reads_keys_then_sleeps_until_the_next(
    rounds: list[float | None], pipe: tuple[int, int]
) -> None:
    read_fd, write_fd = pipe
    driver = Recorded(read_fd)
    with input_thread(driver) as thread:
        await asyncio.to_thread(until, lambda: asleep(rounds))
        os.write(write_fd, b"ab")
        await asyncio.to_thread(until, lambda: keys(driver.got) == ["a", "b"])
        # A lone Escape is held by the parser until it times out: the loop ticks for that.
        os.write(write_fd, b"\x1b")
        await asyncio.to_thread(until, lambda: keys(driver.got) == ["a", "b", "escape"])
        await asyncio.to_thread(until, lambda: asleep(rounds))
        # Asleep: nothing typed, no rounds, however long (Textual's loop: ten a second).
        still = len(rounds)
        await asyncio.sleep(3 * SETTLE_S)
        assert len(rounds) == still and asleep(rounds)
        driver.exit_event.set()  # as LinuxDriver.disable_input does when the app stops
        await asyncio.to_thread(thread.join, WAIT_S)
        assert not thread.is_alive(), "a stop did not wake the sleeping input thread"


async def test_the_end_of_the_input_leaves_the_thread_asleep_not_spinning(
    rounds: list[float | None], pipe: tuple[int, int]
) -> None:
    """An input that ends (a pipe closed) reads as empty at once, every time: Textual's loop
    would go round for ever; this one stops watching it and waits for the stop."""
    read_fd, write_fd = pipe
    driver = Recorded(read_fd)
    with input_thread(driver) as thread:
        os.write(write_fd, b"z")
        os.close(write_fd)
        await asyncio.to_thread(until, lambda: keys(driver.got) == ["z"] and asleep(rounds))
        still = len(rounds)
        await asyncio.sleep(3 * SETTLE_S)
        assert len(rounds) == still
        driver.exit_event.set()
        await asyncio.to_thread(thread.join, WAIT_S)
        assert not thread.is_alive()


async def test_a_stop_then_a_start_again_reads_keys_again(
    rounds: list[float | None], pipe: tuple[int, int]
) -> None:
    """App.suspend stops the input thread and starts a new one later: the byte the stop
    wrote to wake the first thread must not stop the second."""
    read_fd, write_fd = pipe
    driver = Recorded(read_fd)
    driver.exit_event.set()
    driver.exit_event.clear()  # as LinuxDriver.disable_input leaves it
    with input_thread(driver) as thread:
        os.write(write_fd, b"x")
        await asyncio.to_thread(until, lambda: keys(driver.got) == ["x"])
        assert thread.is_alive()


async def test_the_web_reader_yields_input_then_sleeps_until_closed(
    rounds: list[float | None], pipe: tuple[int, int]
) -> None:
    read_fd, write_fd = pipe
    reader = QuietInputReader(read_fd)
    chunks: list[bytes] = []
    thread = threading.Thread(target=lambda: chunks.extend(reader))
    thread.start()
    try:
        os.write(write_fd, b"D\x00\x00\x00\x01q")
        await asyncio.to_thread(until, lambda: b"D\x00\x00\x00\x01q" in chunks)
        await asyncio.to_thread(until, lambda: asleep(rounds))
        still = len(rounds)
        await asyncio.sleep(3 * SETTLE_S)
        assert len(rounds) == still
        assert set(chunks) == {b"D\x00\x00\x00\x01q", b""}  # b"": the driver's parser ticks
        reader.close()  # as WebDriver.close does
        await asyncio.to_thread(thread.join, WAIT_S)
        assert not thread.is_alive(), "closing did not wake the sleeping reader"
    finally:
        reader.close()
        thread.join(WAIT_S)


def test_the_apps_take_the_quiet_drivers_and_leave_others_as_they_are() -> None:
    assert quiet_driver(LinuxDriver) is QuietLinuxDriver
    assert quiet_driver(WebDriver) is QuietWebDriver
    from textual.drivers.headless_driver import HeadlessDriver

    assert quiet_driver(HeadlessDriver) is HeadlessDriver


def test_a_browser_players_client_draws_through_the_quiet_web_driver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The web gateway names Textual's web driver (TEXTUAL_DRIVER); the app swaps in its own."""
    from net.doors.web_session import WEB_DRIVER

    monkeypatch.setattr(constants, "DRIVER", WEB_DRIVER)  # TEXTUAL_DRIVER, as Textual read it
    assert ClowderApp().driver_class is QuietWebDriver
    monkeypatch.setattr(constants, "DRIVER", None)
    assert ClowderApp().driver_class is QuietLinuxDriver

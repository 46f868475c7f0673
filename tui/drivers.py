"""Textual's terminal and web drivers, with an input thread that sleeps while nothing is typed.

Textual reads keys in a thread that waits at most 0.1 s for input, then goes round again to
let its key parser time out a lone Escape (is ``ESC`` a key, or the start of a sequence?).
So every player's process woke ten times a second all evening, typing or not. For an SSH or
browser player that process runs on the host's own machine: in an idle lobby this thread was
the largest share of what each player cost the box (about 0.07 % of a core, as much as the
host's pings and the lobby's listing together).

These drivers wait in 0.1 s steps only for :data:`SETTLE_S` after the last input, the only
time the parser can have a sequence to time out, and otherwise block until input comes or
the driver stops. Stopping wakes the thread through a pipe the selector also watches, so a
player who quits is not kept waiting. The keys, their timing and everything else are
Textual's own: the same parser, fed the same way, on the same thread.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import sys
import time
from codecs import getincrementaldecoder
from collections.abc import Iterator
from threading import Event
from typing import Any

from textual import constants
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.drivers._input_reader_linux import InputReader
from textual.drivers.linux_driver import LinuxDriver
from textual.drivers.web_driver import WebDriver

TICK_S = 0.1
"""How long one wait lasts while the parser may be holding part of a sequence (Textual's)."""
SETTLE_S = max(1.0, 2 * constants.ESCAPE_DELAY)
"""After input, the thread ticks at :data:`TICK_S` for this long, then sleeps until more
comes. Textual's parser times a held sequence out ``ESCAPE_DELAY`` after its last byte
(0.1 s, or what the ``ESCDELAY`` environment variable says in ms), so this covers it
at least twice over."""


class WakingEvent(Event):
    """A :class:`threading.Event` whose :meth:`set` also writes a byte to a pipe, so that a
    thread blocked in ``select`` on the pipe's other end wakes and sees it."""

    def __init__(self) -> None:
        super().__init__()
        self.wake_fd, self._write_fd = os.pipe()
        os.set_blocking(self.wake_fd, False)
        os.set_blocking(self._write_fd, False)

    def set(self) -> None:
        super().set()
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._write_fd, b"x")

    def drain(self) -> None:
        """Empty the pipe (the thread saw the wake-up)."""
        with contextlib.suppress(BlockingIOError, OSError):
            while os.read(self.wake_fd, 64):
                pass


def wait_for(since_input_s: float) -> float | None:
    """How long the next wait may last, ``since_input_s`` after the last input came
    (``None``: until input comes, or the thread is woken)."""
    return TICK_S if since_input_s < SETTLE_S else None


class QuietLinuxDriver(LinuxDriver):
    """Textual's terminal driver whose input thread sleeps while nothing is typed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.exit_event: WakingEvent = WakingEvent()

    def run_input_thread(self) -> None:
        """Textual's loop (read, decode, feed the parser, tick it), waiting as :func:`wait_for`
        says instead of always 0.1 s."""
        exit_event = self.exit_event
        exit_event.drain()  # a stop before this start (a suspend) left its byte
        selector = selectors.SelectSelector()  # as Textual's own loop
        selector.register(self.fileno, selectors.EVENT_READ)
        selector.register(exit_event.wake_fd, selectors.EVENT_READ)
        parser = XTermParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode
        last_input = time.monotonic()
        try:
            while not exit_event.is_set():
                ready = selector.select(wait_for(time.monotonic() - last_input))
                for key, _mask in ready:
                    if key.fd == exit_event.wake_fd:
                        exit_event.drain()
                        continue
                    data = os.read(self.fileno, 4096)
                    if not data:  # the end of the input: nothing more will come (Textual's
                        selector.unregister(self.fileno)  # loop would go round at once,
                        continue  # for ever); wait for the stop
                    last_input = time.monotonic()
                    for event in parser.feed(decode(data)):
                        self.process_message(event)
                for event in parser.tick():
                    self.process_message(event)
        finally:
            selector.close()
            with contextlib.suppress(Exception):
                for _event in parser.feed(""):
                    pass


class QuietInputReader(InputReader):
    """Textual's reader of a web client's standard input, waiting as :func:`wait_for` says;
    :meth:`close` wakes it."""

    def __init__(self, fileno: int | None = None) -> None:
        # Not InputReader.__init__, which registers this process's standard input at once:
        # ``fileno`` reads another (a test's pipe).
        stdin = sys.__stdin__
        if fileno is None:
            assert stdin is not None, "a web client's input is its standard input"
            fileno = stdin.fileno()
        self._fileno = fileno
        self.timeout = TICK_S
        self._wake = WakingEvent()
        self._exit_event = self._wake
        self._selector = selectors.DefaultSelector()
        self._selector.register(fileno, selectors.EVENT_READ)
        self._selector.register(self._wake.wake_fd, selectors.EVENT_READ)

    def close(self) -> None:
        """Stop reading (the thread wakes and the iteration ends)."""
        self._wake.set()

    def __iter__(self) -> Iterator[bytes]:
        last_input = time.monotonic()
        while not self._wake.is_set():
            for key, _mask in self._selector.select(wait_for(time.monotonic() - last_input)):
                if key.fd == self._wake.wake_fd:
                    self._wake.drain()
                    continue
                data = os.read(self._fileno, 1024)
                if not data:
                    return
                last_input = time.monotonic()
                yield data
            yield b""  # the driver ticks its parser after each round, as with Textual's reader


class QuietWebDriver(WebDriver):
    """Textual's web driver (a browser player's client) whose input thread sleeps while
    nothing is typed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # WebDriver annotates the reader with textual.drivers._input_reader's name, which mypy
        # may take for the Windows class; at run time on POSIX it is the class subclassed here.
        self._input_reader = QuietInputReader()  # type: ignore[assignment]


def quiet_driver(chosen: type[Driver]) -> type[Driver]:
    """The quiet counterpart of the driver Textual ``chosen`` for an app (its own terminal
    driver, or the web driver ``TEXTUAL_DRIVER`` names); any other driver as it is."""
    if chosen is LinuxDriver:
        return QuietLinuxDriver
    if chosen is WebDriver:
        return QuietWebDriver
    return chosen

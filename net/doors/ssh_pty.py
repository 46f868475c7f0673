"""A program on a pseudo-terminal of its own, driven from asyncio: the SSH gateway's sessions.

The program gets the terminal as its controlling terminal, in a session of
its own (``login_tty``), so that a window size set here reaches it as
``SIGWINCH`` exactly as in a local terminal, and a hang-up reaches it and
everything it started. A short shim (:data:`LOGIN_TTY_SHIM`) does that
between fork and exec: the event loop's process has threads, where a
``preexec_fn`` is unsafe.

Output is read as it comes and handed to ``on_output``; the reader pauses
while the SSH channel says it is full (:meth:`PtyProcess.pause_output`),
so a slow client slows the program down instead of growing a buffer.
Input waits in a bounded buffer when the program is not reading;
``on_input_full`` says when to stop reading the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import signal
import struct
import sys
import termios
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Final

LOGIN_TTY_SHIM: Final = "import os,sys;os.login_tty(0);os.execv(sys.argv[1],sys.argv[1:])"
"""Run as ``python -I -S -c SHIM PROGRAM ARGS...`` with the terminal as stdin: a new session,
the terminal as its controlling terminal and as fds 0-2, then the program in its place."""

READ_CHUNK: Final = 65536
INPUT_BUFFER_MAX: Final = 64 * 1024
"""Bytes of the player's keys kept while the program is not reading; beyond this the
gateway stops reading the SSH channel until the program catches up."""

HANGUP_GRACE_S: Final = 5.0
"""After a hang-up, seconds the program has to exit before it is killed."""

MIN_SIZE: Final = 1
MAX_SIZE: Final = 1000
"""Terminal sizes are clamped to this many columns and rows (a client may send anything)."""


def clamp_size(columns: int, rows: int) -> tuple[int, int]:
    """A terminal size the kernel and the program can take; 80x24 where the client said 0."""
    columns = columns or 80
    rows = rows or 24
    return (min(max(columns, MIN_SIZE), MAX_SIZE), min(max(rows, MIN_SIZE), MAX_SIZE))


def set_window_size(fd: int, columns: int, rows: int) -> None:
    """Set the terminal's size (``TIOCSWINSZ``); the kernel signals its foreground group."""
    columns, rows = clamp_size(columns, rows)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class PtyProcess:
    """One program on its own pseudo-terminal (see the module docstring)."""

    def __init__(
        self,
        on_output: Callable[[bytes], None],
        on_input_full: Callable[[bool], None] = lambda full: None,
    ) -> None:
        self.on_output = on_output
        self.on_input_full = on_input_full
        self.process: asyncio.subprocess.Process | None = None
        self._master = -1
        self._loop = asyncio.get_running_loop()
        self._reading = False
        self._paused = False
        self._eof = asyncio.Event()
        self._pending = bytearray()
        self._input_full = False
        self._killer: asyncio.TimerHandle | None = None

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    async def start(
        self,
        command: Sequence[str],
        *,
        env: Mapping[str, str],
        cwd: Path,
        size: tuple[int, int],
    ) -> None:
        """Start ``command`` (its first word a path) on a new terminal of ``size`` columns, rows."""
        master, slave = os.openpty()
        try:
            set_window_size(slave, *size)
            os.set_blocking(master, False)
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-I",
                "-S",
                "-c",
                LOGIN_TTY_SHIM,
                *command,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=dict(env),
                cwd=cwd,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self._master = master
        self._resume_reading()

    def resize(self, columns: int, rows: int) -> None:
        if self._master >= 0:
            with contextlib.suppress(OSError):
                set_window_size(self._master, columns, rows)

    def write(self, data: bytes) -> None:
        """Type ``data`` into the terminal (kept while the program is not reading)."""
        if self._master < 0 or not data:
            return
        if not self._pending:
            try:
                written = os.write(self._master, data)
            except BlockingIOError:
                written = 0
            except OSError:
                return  # the program is gone; its exit ends the session
            data = data[written:]
            if not data:
                return
            self._loop.add_writer(self._master, self._flush_input)
        self._pending += data
        self._check_input_full()

    def _flush_input(self) -> None:
        try:
            written = os.write(self._master, self._pending)
        except BlockingIOError:
            return
        except OSError:
            written = len(self._pending)
        del self._pending[:written]
        if not self._pending:
            self._loop.remove_writer(self._master)
        self._check_input_full()

    def _check_input_full(self) -> None:
        full = len(self._pending) >= INPUT_BUFFER_MAX
        if full != self._input_full:
            self._input_full = full
            self.on_input_full(full)

    def pause_output(self) -> None:
        self._paused = True
        self._stop_reading()

    def resume_output(self) -> None:
        self._paused = False
        self._resume_reading()

    def _resume_reading(self) -> None:
        if not self._reading and not self._paused and self._master >= 0 and not self._eof.is_set():
            self._loop.add_reader(self._master, self._readable)
            self._reading = True

    def _stop_reading(self) -> None:
        if self._reading:
            self._loop.remove_reader(self._master)
            self._reading = False

    def _readable(self) -> None:
        try:
            data = os.read(self._master, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError as error:  # EIO: every copy of the terminal's other end is closed
            if error.errno != errno.EIO:
                raise
            data = b""
        if not data:
            self._stop_reading()
            self._eof.set()
            return
        self.on_output(data)

    async def wait(self) -> int:
        """Wait for the program to exit and its last output to be handed on; its exit status."""
        assert self.process is not None
        status = await self.process.wait()
        if not self._paused:
            # What it wrote last is still in the terminal: read until the other end is gone.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(1.0):
                    await self._eof.wait()
        self.close()
        return status

    def hang_up(self) -> None:
        """Tell the program its terminal is gone (``SIGHUP`` to its session); kill it later."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        try:
            os.killpg(process.pid, signal.SIGHUP)
        except ProcessLookupError:  # not yet in its own session
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGHUP)
        if self._killer is None:
            self._killer = self._loop.call_later(HANGUP_GRACE_S, self.kill)

    def kill(self) -> None:
        process = self.process
        if process is None or process.returncode is not None:
            return
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()

    def close(self) -> None:
        """Stop reading and writing and close the terminal (idempotent)."""
        process = self.process
        if self._killer is not None and process is not None and process.returncode is not None:
            self._killer.cancel()
            self._killer = None
        if self._master < 0:
            return
        self._stop_reading()
        if self._pending:
            self._loop.remove_writer(self._master)
            self._pending.clear()
        os.close(self._master)
        self._master = -1

"""One browser's Clowder client: a process spoken to in Textual's web-driver protocol.

``clowder host --web`` (:mod:`net.doors.web_gateway`) runs the normal client for
each browser, as the SSH gateway does for each ``ssh``; here the client draws
with Textual's web driver (``TEXTUAL_DRIVER=textual.drivers.web_driver:WebDriver``)
instead of a terminal, and the browser page (textual-serve's ``textual.js``,
xterm.js inside) draws what it sends.

The protocol, both ways over the process's standard streams:

- to the process, packets of one type byte, a 4-byte big-endian length and
  the payload: ``D`` keys typed (UTF-8), ``M`` a JSON meta message
  (``resize``, ``focus``, ``blur``, ``quit``);
- from the process, first the line ``__GANGLION__`` (the web driver is up),
  then packets alike: ``D`` terminal output for the page, ``M`` meta
  (``exit``: the app ended), ``P`` packed data (file downloads: not used by
  Clowder, dropped).

Nothing here knows about HTTP: the gateway hands in what the page sent and
gets called back with what to send it, so this is tested with a plain
script in place of the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Final

READY_LINE: Final = b"__GANGLION__\n"
"""The web driver's first line: the process is a Textual app, ready for packets."""
READY_LINES_MAX: Final = 20
"""Lines a process may print before :data:`READY_LINE` (warnings) before it is given up."""
PACKET_MAX: Final = 8 * 1024 * 1024
"""The longest packet taken from the process (a whole screen is far less)."""
QUIT_GRACE_S: Final = 3.0
"""Seconds a process has to end after being asked to quit, before it is killed."""
WEB_DRIVER: Final = "textual.drivers.web_driver:WebDriver"


def packet(kind: bytes, payload: bytes) -> bytes:
    """One packet to the process: ``kind`` (``D`` or ``M``), length, payload."""
    return kind + len(payload).to_bytes(4, "big") + payload


def web_environment(base: Mapping[str, str], columns: int, rows: int) -> dict[str, str]:
    """``base`` with what makes the client draw for a browser of ``columns`` x ``rows``."""
    env = dict(base)
    env.update(
        TEXTUAL_DRIVER=WEB_DRIVER,
        TEXTUAL_COLOR_SYSTEM="truecolor",
        TERM_PROGRAM="textual",
        COLUMNS=str(columns),
        ROWS=str(rows),
    )
    return env


class WebSession:
    """A client process for one browser page; :meth:`run` until it ends.

    ``output`` gets the terminal bytes for the page; ``ended`` is called once
    when the process ended (the app quit, or it was stopped).
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str],
        cwd: Path,
        output: Callable[[bytes], Awaitable[None]],
    ) -> None:
        self.argv = list(argv)
        self.env = dict(env)
        self.cwd = cwd
        self.output = output
        self.process: asyncio.subprocess.Process | None = None
        self.started = False
        """The process said it is ready (:data:`READY_LINE`)."""
        self.on_ready: Callable[[], None] | None = None
        """Called once when the process says it is ready (the gateway then lets another
        page of the same browser take this session over)."""
        self.errors = bytearray()
        """What the process wrote to stderr (its last 16 KiB), for the host's log."""

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    async def start(self) -> None:
        """Start the process (``OSError`` if it cannot be)."""
        self.process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self.env,
            cwd=self.cwd,
            start_new_session=True,  # its own process group: a signal for it spares the host
        )

    async def run(self) -> int:
        """Pass the process's output on until it ends; its exit status."""
        process = self.process
        assert process is not None and process.stdout is not None and process.stderr is not None
        errors = asyncio.create_task(self._read_errors(process.stderr))
        try:
            await self._pump(process.stdout)
        finally:
            status = await self._reap()
            errors.cancel()
            await asyncio.wait([errors])  # a cancel of this task still ends it
        return status

    async def _pump(self, stdout: asyncio.StreamReader) -> None:
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError, ValueError):
            for _ in range(READY_LINES_MAX):
                line = await stdout.readline()
                if not line or line == READY_LINE:
                    break
            else:
                return
            if not line:
                return
            self.started = True
            if self.on_ready is not None:
                self.on_ready()
            while True:
                header = await stdout.readexactly(5)
                size = int.from_bytes(header[1:], "big")
                if size > PACKET_MAX:
                    return
                payload = await stdout.readexactly(size)
                kind = header[:1]
                if kind == b"D":
                    await self.output(payload)
                elif kind == b"M" and _meta_type(payload) == "exit":
                    return

    async def _read_errors(self, stderr: asyncio.StreamReader) -> None:
        while chunk := await stderr.read(4096):
            self.errors += chunk
            del self.errors[: max(0, len(self.errors) - 16384)]

    async def _reap(self) -> int:
        process = self.process
        assert process is not None
        try:
            async with asyncio.timeout(QUIT_GRACE_S):
                return await process.wait()
        except TimeoutError:
            self.kill()
            return await process.wait()

    # From the page -----------------------------------------------------------------

    async def keys(self, text: str) -> None:
        """What the player typed on the page."""
        await self._send(packet(b"D", text.encode("utf-8")))

    async def resize(self, columns: int, rows: int) -> None:
        await self._meta({"type": "resize", "width": columns, "height": rows})

    async def focus(self, focused: bool) -> None:
        await self._meta({"type": "focus" if focused else "blur"})

    async def quit(self) -> None:
        """Ask the app to quit (the page closed); :meth:`run` kills it if it will not."""
        await self._meta({"type": "quit"})
        process = self.process
        if process is not None and process.stdin is not None:
            with contextlib.suppress(OSError, RuntimeError):
                process.stdin.close()

    def kill(self) -> None:
        """End the process and its children at once."""
        process = self.process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, 9)

    async def _meta(self, message: dict[str, object]) -> None:
        await self._send(packet(b"M", json.dumps(message).encode("utf-8")))

    async def _send(self, data: bytes) -> None:
        process = self.process
        if process is None or process.stdin is None or process.stdin.is_closing():
            return
        with contextlib.suppress(OSError, RuntimeError):
            process.stdin.write(data)
            await process.stdin.drain()


def _meta_type(payload: bytes) -> str:
    try:
        message = json.loads(payload)
    except ValueError:
        return ""
    kind = message.get("type") if isinstance(message, dict) else None
    return kind if isinstance(kind, str) else ""

"""Serves a Textual app with textual-serve's own server, inside the test's event loop.

textual-serve's ``Server.serve()`` runs its own loop until Ctrl+C; a test needs to start
and stop the server itself, so ``serve_textual`` builds the same aiohttp application and
runs it with an ``AppRunner`` on 127.0.0.1 and a port the system picks. Each browser
session that connects to the page's websocket gets its own process of ``command``
(run by ``/bin/sh -c``, with textual-serve's environment: ``TEXTUAL_DRIVER`` = the web
driver, ``COLUMNS``/``ROWS`` = the browser's terminal size).
"""

from __future__ import annotations

import contextlib
import io
import shlex
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from aiohttp import web
from rich.console import Console
from textual_serve.server import Server

from net.doors.host import Host
from net.doors.web_gateway import WebGateway

# The project's root: commands run here, so "python -m tests.web.app" imports.
PROJECT_ROOT = Path(__file__).resolve().parents[2]


def python_module_command(module: str, *args: str, cwd: Path = PROJECT_ROOT) -> str:
    """A shell command that runs ``python -m module args`` (this interpreter) in ``cwd``.

    It ``exec``s Python, so the session's process is Python itself, not a shell.
    """
    argv = [sys.executable, "-m", module, *args]
    return f"cd {shlex.quote(str(cwd))} && exec {shlex.join(argv)}"


@contextlib.asynccontextmanager
async def serve_textual(command: str, *, title: str = "test app") -> AsyncIterator[str]:
    """Serves ``command`` with textual-serve on 127.0.0.1; yields the page's URL.

    On the way out the server stops; a session still open then is closed, and its app is
    told to quit. Close the browser first to end the sessions the ordinary way.
    """
    server = Server(command, host="127.0.0.1", port=0, title=title)
    server.console = Console(file=io.StringIO())  # its banner would go to stdout
    runner = web.AppRunner(await server._make_app(), shutdown_timeout=5.0)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        host, port = _first_address(runner.addresses)
        # The page's websocket URL is made from public_url at each request.
        server.public_url = f"http://{host}:{port}"
        yield f"{server.public_url}/"
    finally:
        await runner.cleanup()


def _first_address(addresses: Sequence[object]) -> tuple[str, int]:
    for address in addresses:
        if isinstance(address, tuple) and len(address) >= 2:
            return str(address[0]), int(address[1])
    raise RuntimeError(f"the server listens on no TCP address: {addresses!r}")


@contextlib.asynccontextmanager
async def web_door(host: Host, state_dir: Path) -> AsyncIterator[WebGateway]:
    """``host``'s web door on 127.0.0.1 (a port the system picks), started; closed after."""
    gateway = WebGateway(
        game_address="127.0.0.1",
        game_port=host.port,
        state_dir=state_dir,
        bind="127.0.0.1",
        port=0,
        log=lambda line: None,
    )
    await gateway.start()
    try:
        yield gateway
    finally:
        await gateway.close()

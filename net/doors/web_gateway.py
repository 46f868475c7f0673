"""``clowder host --web``: play from a browser or a phone on the LAN, with nothing installed.

``http://HOST:8080/`` opens the Clowder lobby of that host in the browser,
already connected to it. The page is textual-serve's terminal (its
``textual.js``, with xterm.js inside, served from the installed package: the
page needs nothing from the internet), and each page runs the normal Clowder
client in a process of its own (:mod:`net.doors.web_session`), as each ``ssh``
session does (:mod:`net.doors.ssh_gateway`): a crash ends that player's session
only, and the client is the same code a local player runs.

Who is who: the first visit gives the browser a random cookie (HttpOnly,
SameSite=Strict), and that cookie is the player: its digest names the
player's folder (``web/players/<digest>``: the client's ``HOME``, state and
settings), so a reload, a closed tab or a phone coming back finds the same
name and the same seats. The URL never carries a token: someone reading it
over a shoulder learns nothing. A browser without the cookie, or with one
this host never gave, gets no session; one browser has one session at a time
(a reload or a second tab takes it over, ending the first).

Access: open by default (a LAN party; the host's log says so), or a shared
password (``--web-password``), asked once on a page of its own; at most
``--web-sessions`` client processes at once (each is a whole client, tens of
megabytes). The websocket is refused from another site's page (its
``Origin`` must be this host), and what the page sends is checked: only
typed keys, sizes (clamped to what a terminal can be) and focus changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import html
import json
import os
import re
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from aiohttp import WSMsgType, web

from net.doors.ssh_access import SessionBudget
from net.doors.ssh_gateway import client_environment, reached_address
from net.doors.ssh_pty import clamp_size
from net.doors.web_session import WebSession, web_environment

DEFAULT_WEB_PORT: Final = 8080
MAX_WEB_SESSIONS: Final = 16
"""Browser sessions at once: each is a whole client process, like an SSH session."""
WEB_FOLDER: Final = "web"
"""Under the host's state folder: the players' folders."""
COOKIE: Final = "clowder_browser"
COOKIE_DAYS: Final = 180
"""How long a browser keeps its cookie (and so its seats and name) between visits."""
COOKIE_PATTERN: Final = re.compile(r"^[A-Za-z0-9_-]{32,64}$")
KEYS_MAX: Final = 4096
"""Characters one ``stdin`` message may carry (a paste into a name field, at most)."""
MESSAGE_MAX: Final = 16384
"""Bytes one websocket message from a page may have."""
WRONG_PASSWORD_PAUSE_S: Final = 1.0
"""A wrong password waits this long before the answer: guessing is slow."""
FONT_SIZES: Final = (8, 32)
"""The terminal font sizes a page may ask for (``?fontsize=``): a phone wants a small one."""
HOST_PATTERN: Final = re.compile(r"^[A-Za-z0-9.:\[\]-]{1,255}$")
"""What a ``Host`` header may be to be written back into the page (its websocket URL)."""
STATIC_FOLDER: Final = "static"
ASK_PASSWORD: Final = "This Clowder host asks for a password."


class WebGatewayError(OSError):
    """The gateway cannot start (its port; textual-serve missing). One line in the host's log."""


def served_files() -> Path:
    """textual-serve's page assets (``js/textual.js``, ``css/xterm.css``, fonts), installed
    with the ``web`` extra."""
    try:
        import textual_serve
    except ModuleNotFoundError:
        raise WebGatewayError(
            "--web needs the web extra: pip install 'clowder[web]' (textual-serve)"
        ) from None
    return Path(textual_serve.__file__).resolve().parent / STATIC_FOLDER


def web_client_command(address: str, port: int, reached: str = "") -> list[str]:
    """The Clowder client for one browser: joined to this host, asking the name once (it is
    kept in the browser's folder), creating tables only here. ``reached``: the address the
    browser reached this machine at, which its screens show and tell friends."""
    command = [sys.executable, "-m", "tui", "join", f"{address}:{port}", "--only-this-host"]
    if reached and reached != address:
        command.append(f"--shown-as={reached}")
    return command


def browser_digest(cookie: str) -> str:
    """The name of a browser's folder: a digest of its cookie (the cookie itself is never
    written to disk, so the folder names tell nobody how to be that player)."""
    return hashlib.sha256(f"clowder-web\0{cookie}".encode()).hexdigest()[:24]


def page_html(websocket_url: str, font_size: int) -> str:
    """The page: textual-serve's terminal, full window, and a note for when the session ends."""
    url = html.escape(websocket_url, quote=True)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Clowder</title>
<link rel="stylesheet" href="/static/css/xterm.css">
<script src="/static/js/textual.js"></script>
<style>
html, body {{ margin: 0; height: 100%; background: #0c181f; color: #e8e8e8;
  font-family: monospace; }}
#terminal {{ width: 100vw; height: 100vh; }}
.ended {{ display: none; position: absolute; inset: 0; align-items: center;
  justify-content: center; text-align: center; background: #0c181f; }}
body.-closed .ended {{ display: flex; }}
</style>
</head>
<body>
<div class="ended"><p>Your Clowder session ended.<br>Reload the page to come back:
your seats are kept.</p></div>
<div id="terminal" class="textual-terminal" data-session-websocket-url="{url}"
 data-font-size="{font_size}"></div>
</body>
</html>
"""


def message_page(title: str, text: str, *, form: bool = False, problem: str = "") -> str:
    """A small page of its own: the password form, or why there is no session now."""
    body = f"<p>{html.escape(text)}</p>"
    if problem:
        body += f'<p class="problem">{html.escape(problem)}</p>'
    if form:
        body += (
            '<form method="post" action="/login">'
            '<input type="password" name="password" autofocus aria-label="password"> '
            '<button type="submit">Play</button></form>'
        )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Clowder: {html.escape(title)}</title>
<style>body {{ background: #0c181f; color: #e8e8e8; font-family: monospace; padding: 2em; }}
.problem {{ color: #ff8080; }} input, button {{ font: inherit; padding: .3em; }}</style>
</head><body><h1>{html.escape(title)}</h1>{body}</body></html>
"""


@dataclass
class Browser:
    """One browser this host gave a cookie: whether it may play, and its live session."""

    digest: str
    allowed: bool
    session: BrowserSession | None = None


@dataclass(eq=False)
class BrowserSession:
    """A page's websocket and the client process behind it."""

    browser: Browser
    websocket: web.WebSocketResponse
    client: WebSession
    peer: str
    started: float = field(default_factory=time.monotonic)
    finished: asyncio.Event = field(default_factory=asyncio.Event)


class WebGateway:
    """The web server of one Clowder host (see the module docstring)."""

    def __init__(
        self,
        *,
        game_address: str,
        game_port: int,
        state_dir: Path,
        bind: str = "0.0.0.0",
        port: int = DEFAULT_WEB_PORT,
        password: str | None = None,
        max_sessions: int = MAX_WEB_SESSIONS,
        log: Callable[[str], None] = print,
        command: Callable[[Browser, str], Sequence[str]] | None = None,
    ) -> None:
        self.game_address = game_address
        self.game_port = game_port
        self.folder = state_dir / WEB_FOLDER
        self.bind = bind
        self.port = port
        self.password = password
        self.budget = SessionBudget(max_sessions)
        self.log = log
        self.command = command or (
            lambda _browser, reached: web_client_command(game_address, game_port, reached)
        )
        """The client for a browser that reached this host at an address (its screens show
        that address to tell friends)."""
        self.static = served_files()
        self.browsers: dict[str, Browser] = {}
        """Cookie digest -> browser, for every cookie given since the host started (or
        shown again by a browser coming back, when the host is open)."""
        self.sessions: set[BrowserSession] = set()
        self._runner: web.AppRunner | None = None

    # Start and stop ------------------------------------------------------------------

    def application(self) -> web.Application:
        app = web.Application(client_max_size=MESSAGE_MAX)
        app.add_routes(
            [
                web.get("/", self.page),
                web.post("/login", self.login),
                web.get("/ws", self.websocket),
                web.static("/static", self.static, show_index=False, follow_symlinks=False),
            ]
        )
        return app

    async def start(self) -> None:
        runner = web.AppRunner(self.application(), access_log=None, handle_signals=False)
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.bind, self.port, reuse_address=True)
            await site.start()
        except OSError as error:
            await runner.cleanup()
            raise WebGatewayError(
                f"the web page cannot listen on {self.bind}:{self.port}: {error.strerror or error}"
            ) from None
        self._runner = runner
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        if sockets:
            self.port = sockets[0].getsockname()[1]
        access = "a password" if self.password else "open to anyone on the LAN, no password"
        self.log(
            f"Web: listening on {self.bind}:{self.port} ({access}; "
            f"at most {self.budget.limit} browsers at once)"
        )

    async def close(self) -> None:
        """Stop listening and end every browser's client."""
        for session in list(self.sessions):
            await session.client.quit()
        waits = [session.finished.wait() for session in list(self.sessions)]
        if waits:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(6.0):
                    await asyncio.gather(*waits)
        for session in list(self.sessions):
            session.client.kill()
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    # Who is this browser ----------------------------------------------------------------

    def _browser(self, request: web.Request) -> Browser | None:
        cookie = request.cookies.get(COOKIE, "")
        if not COOKIE_PATTERN.match(cookie):
            return None
        digest = browser_digest(cookie)
        browser = self.browsers.get(digest)
        if browser is None and self.password is None and (self.folder / digest).is_dir():
            # An open host knows a browser again after a restart by its folder.
            browser = self.browsers[digest] = Browser(digest, allowed=True)
        return browser

    def _new_browser(self, response: web.StreamResponse) -> Browser:
        cookie = secrets.token_urlsafe(32)
        digest = browser_digest(cookie)
        browser = self.browsers[digest] = Browser(digest, allowed=self.password is None)
        response.set_cookie(
            COOKIE,
            cookie,
            max_age=COOKIE_DAYS * 86400,
            httponly=True,
            samesite="Strict",
            path="/",
        )
        return browser

    # Pages -------------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        response = web.Response(content_type="text/html", charset="utf-8")
        response.headers.update(
            {
                "Cache-Control": "no-store",
                "X-Frame-Options": "DENY",
                "Referrer-Policy": "no-referrer",
                "X-Content-Type-Options": "nosniff",
            }
        )
        browser = self._browser(request) or self._new_browser(response)
        if not browser.allowed:
            response.text = message_page("Password", ASK_PASSWORD, form=True)
            return response
        if browser.session is None and self.budget.used >= self.budget.limit:
            response.set_status(503)
            response.text = message_page(
                "Full",
                f"All {self.budget.limit} browser places of this host are taken. "
                "Reload in a while.",
            )
            return response
        host = (
            request.host if HOST_PATTERN.match(request.host or "") else f"{self.bind}:{self.port}"
        )
        font = _font_size(request.query.get("fontsize", ""))
        response.text = page_html(f"ws://{host}/ws", font)
        return response

    async def login(self, request: web.Request) -> web.Response:
        browser = self._browser(request)
        if browser is None:
            raise web.HTTPSeeOther("/")  # no cookie yet: the page gives one
        form = await request.post()
        given = form.get("password")
        if self.password is None or (
            isinstance(given, str) and hmac.compare_digest(given.encode(), self.password.encode())
        ):
            browser.allowed = True
            raise web.HTTPSeeOther("/")
        await asyncio.sleep(WRONG_PASSWORD_PAUSE_S)
        self.log(f"Web: a wrong password from {request.remote}")
        return web.Response(
            status=403,
            content_type="text/html",
            text=message_page(
                "Password",
                ASK_PASSWORD,
                form=True,
                problem="That is not the password.",
            ),
        )

    # The session ---------------------------------------------------------------------------

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        browser = self._browser(request)
        origin = request.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] != request.host:
            self.log(f"Web: refused a page of another site ({origin[:80]!r}) from {request.remote}")
            raise web.HTTPForbidden(text="Not from this host's page")
        if browser is None or not browser.allowed:
            raise web.HTTPForbidden(text="Open this host's page first")
        if browser.session is not None:
            await self._end(browser.session, "another page of the same browser took over")
        if not self.budget.take():
            self.log(f"Web: refused {request.remote}: all {self.budget.limit} places are taken")
            raise web.HTTPServiceUnavailable(text="Every browser place is taken")
        session: BrowserSession | None = None
        websocket = web.WebSocketResponse(heartbeat=15.0, max_msg_size=MESSAGE_MAX)
        try:
            await websocket.prepare(request)
            columns, rows = clamp_size(
                _whole(request.query.get("width"), 80), _whole(request.query.get("height"), 24)
            )
            folder = self.folder / browser.digest
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            env = web_environment(
                client_environment(os.environ, folder, "xterm-256color"), columns, rows
            )
            sockname = request.transport.get_extra_info("sockname") if request.transport else None
            reached = reached_address(str(sockname[0])) if sockname else ""
            client = WebSession(
                self.command(browser, reached), env=env, cwd=folder, output=websocket.send_bytes
            )
            await client.start()
            session = BrowserSession(browser, websocket, client, str(request.remote))
            browser.session = session
            self.sessions.add(session)
            self.log(
                f"Web: browser {browser.digest[:8]} from {session.peer} plays "
                f"(pid {client.pid}, {columns}x{rows})"
            )
            await self._serve(session)
        finally:
            if session is None:
                self.budget.give_back()  # else _serve gave it back
        return websocket

    async def _serve(self, session: BrowserSession) -> None:
        client, websocket = session.client, session.websocket
        running = asyncio.create_task(client.run())
        ended = asyncio.create_task(running_ended(running, websocket))
        try:
            async for message in websocket:
                if message.type == WSMsgType.TEXT:
                    reply = await _from_page(client, message.data)
                    if reply is not None:
                        await websocket.send_str(reply)
        finally:
            await client.quit()
            status = await running
            ended.cancel()
            if session.browser.session is session:
                session.browser.session = None
            self.sessions.discard(session)
            self.budget.give_back()
            with contextlib.suppress(Exception):
                await websocket.close()
            session.finished.set()
            seconds = time.monotonic() - session.started
            self.log(
                f"Web: browser {session.browser.digest[:8]} left after {seconds:.0f} s "
                f"(exit status {status})"
            )
            if status not in (0, -9) and client.errors:
                tail = client.errors.decode("utf-8", "replace").strip().splitlines()[-1:]
                self.log(f"Web: its client said: {tail[0][:200] if tail else ''}")

    async def _end(self, session: BrowserSession, why: str) -> None:
        self.log(f"Web: browser {session.browser.digest[:8]}: {why}")
        await session.websocket.close()
        async with asyncio.timeout(8.0):
            await session.finished.wait()


async def running_ended(running: asyncio.Task[int], websocket: web.WebSocketResponse) -> None:
    """Close the page's websocket once its client ended (the player quit): the page then
    says the session ended."""
    with contextlib.suppress(Exception):
        await asyncio.shield(running)
    with contextlib.suppress(Exception):
        await websocket.close()


async def _from_page(client: WebSession, data: str) -> str | None:
    """One message of the page (a JSON list: ``["stdin", text]``, ``["resize", {...}]``,
    ``["focus"]``, ``["blur"]``, ``["ping", x]``), passed on; anything else is dropped.
    Returns what to answer the page, if anything (a ping's pong)."""
    try:
        envelope = json.loads(data)
    except ValueError:
        return None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        return None
    kind, rest = envelope[0], envelope[1:]
    if kind == "ping" and rest and isinstance(rest[0], str) and len(rest[0]) <= 64:
        return json.dumps(["pong", rest[0]])
    if kind == "stdin" and rest and isinstance(rest[0], str) and len(rest[0]) <= KEYS_MAX:
        await client.keys(rest[0])
    elif kind == "resize" and rest and isinstance(rest[0], dict):
        size: dict[str, Any] = rest[0]
        columns, rows = clamp_size(_whole(size.get("width"), 80), _whole(size.get("height"), 24))
        await client.resize(columns, rows)
    elif kind in ("focus", "blur"):
        await client.focus(kind == "focus")
    return None


def _whole(value: object, default: int) -> int:
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit() and len(value) <= 6:
        return int(value)
    return default


def _font_size(text: str) -> int:
    low, high = FONT_SIZES
    size = _whole(text, 16)
    return max(low, min(high, size))

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

The room page: ``http://HOST:8080/room`` shows the room screen (``clowder room``, a
host's tables, tonight's standings and the ways to join) for a TV or a projector. It is
read-only (no name asked, no seat), so its clients share one folder (they keep nothing),
and its font is sized to the window (about 36 rows, :data:`ROOM_ROWS`) so that it reads
from across a room. Room screens have their own small budget (:data:`MAX_ROOM_SESSIONS`
at once, :data:`ROOMS_PER_ADDRESS` from one address), apart from the players': a TV never
takes a player's place, and players never take the TV's. They still draw on the host's
one connection budget, and a browser shows one room at a time (a reload takes it over)
as it plays one session at a time, beside it.

Access: open by default (a LAN party; the host's log says so), or a shared
password (``--web-password``), asked once on a page of its own; at most
``--web-sessions`` client processes at once (each is a whole client, tens of
megabytes), :data:`WEB_PER_ADDRESS` from one address. What the page sends is
checked: only typed keys, sizes (clamped to what a terminal can be) and
focus changes, in messages nested no deeper than :data:`MESSAGE_DEPTH`.

What a stranger can hold (issue 30):

* connections: at most :data:`CONNECTIONS_PER_BROWSER` times
  :data:`WEB_PER_ADDRESS` from one address, each taken from the host's one
  connection budget (:class:`net.doors.guard.SharedBudget`, which the game
  port and the SSH gateway share); a newcomer over either is answered with a
  short ``503`` page saying why, at once, before its request is read. A
  connection has :data:`HEADER_TIMEOUT_S` for each request's headers (and
  a login's form), so half-open connections do not pile up;
* sessions: one per browser, made atomic: a page of a browser whose client is
  still starting is refused (409), not started too; once it is ready, a new
  page (a reload) takes the session over;
* memory: the cookie carries its own proof (an HMAC under a key kept in the
  state folder), so a visit without a cookie leaves nothing behind, and a
  browser is remembered only once it plays or gives the password;
* passwords: tries from one address are answered one after another, each
  wrong one later (:class:`net.doors.guard.Tries`);
* names: a request whose ``Host`` is not one of this host's own names and
  port (an address it was reached at, its host name, ``localhost`` on
  loopback) is refused, and so is an ``Origin`` that is not
  ``http://`` + one of them: a page of another site, or one that a DNS
  rebinding pointed here, can neither open a session nor read the page.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import html
import ipaddress
import json
import math
import os
import re
import secrets
import socket
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from aiohttp import WSCloseCode, WSMsgType, web

from net.doors.favicon import FAVICON
from net.doors.guard import PerAddress, QuietLog, SharedBudget, Tries
from net.doors.ssh_access import SessionBudget
from net.doors.ssh_gateway import client_environment, reached_address
from net.doors.ssh_pty import clamp_size
from net.doors.web_session import WebSession, web_environment
from net.wire.text import clean_text

DEFAULT_WEB_PORT: Final = 8080
MAX_WEB_SESSIONS: Final = 16
"""Browser sessions at once: each is a whole client process, like an SSH session."""
WEB_FOLDER: Final = "web"
"""Under the host's state folder: the players' folders."""
COOKIE: Final = "clowder_browser"
COOKIE_DAYS: Final = 180
"""How long a browser keeps its cookie (and so its seats and name) between visits."""
COOKIE_PATTERN: Final = re.compile(r"^[A-Za-z0-9_-]{32,64}$")
COOKIE_ID_BYTES: Final = 18
"""A cookie is a random id (24 characters) and its HMAC (22): :func:`make_cookie`."""
COOKIE_KEY_FILE: Final = "cookie_key"
"""Under the gateway's folder: the key that signs cookies (so they outlive a restart)."""
WEB_PER_ADDRESS: Final = 4
"""Browsers playing at once from one IP address (``--web-per-address``): one machine
cannot take every place, whatever cookies it makes up."""
CONNECTIONS_PER_BROWSER: Final = 4
"""Connections from one address at once, per browser it may have playing: a page loads its
files over a few connections at once, then keeps one websocket."""
SESSION_DESCRIPTORS: Final = 3
"""Descriptors a browser's client process holds in the host (its stdin, stdout, stderr
pipes), taken from the host's connection budget with the websocket's own."""
ACCEPT_BACKLOG: Final = 16
"""Connections waiting to be accepted, and accepted in one turn of the event loop: a flood
of newcomers is taken (and refused) a few at a time, between the game port's messages,
not a hundred at once ahead of them; beyond this the system makes newcomers wait."""
HEADER_TIMEOUT_S: Final = 10.0
"""Seconds a connection has to send a request's headers (from connecting, or from the last
answer on it): a half-open connection is closed, and its place freed."""
MESSAGE_DEPTH: Final = 4
"""How deeply a page's message may nest lists and objects (the deepest real one is 2: a
resize's object in the list); deeper ones are dropped unparsed."""
OPENING_MAX_S: Final = 10.0
"""A browser counts as opening (its other pages refused) until its client says it is ready,
or this long at most (a client stuck starting does not lock its browser out)."""
TRY_WAIT_MAX_S: Final = 10.0
"""A password try whose turn is further away than this is answered at once, with a 429
saying when to come back, and not checked."""
KEYS_MAX: Final = 4096
"""Characters one ``stdin`` message may carry (a paste into a name field, at most)."""
MESSAGE_MAX: Final = 16384
"""Bytes one websocket message from a page may have."""
FONT_SIZES: Final = (8, 32)
"""The terminal font sizes a page may ask for (``?fontsize=``): a phone wants a small one."""
HOST_PATTERN: Final = re.compile(r"^[A-Za-z0-9.:\[\]-]{1,255}$")
"""What a ``Host`` header may look like at all (it is then checked against this host's
names: :meth:`WebGateway.known_host`)."""
MAX_ROOM_SESSIONS: Final = 4
"""Room screens at once (``/room``): each is a client process like a player's, but it takes
no player's place. A party has a TV or two."""
ROOMS_PER_ADDRESS: Final = 2
"""Room screens at once from one IP address: one machine cannot take them all."""
ROOM_FOLDER: Final = "room"
"""Under the gateway's folder: the room screens' one folder (their client keeps nothing)."""
ROOM_ROWS: Final = 36
ROOM_COLUMNS: Final = 100
"""The room page sizes its font so that the window holds at least this many rows and
columns (a 1920x1080 screen: about 26 px, 123 x 36): the room screen's big layout
(``tui.screens.room``), readable from across a room. ``?fontsize=N`` chooses instead."""
CELL_RATIO: Final = (0.5625, 1.125)
"""A terminal cell's width and height per pixel of font size (xterm.js's monospace)."""
PLAYER_COLUMNS: Final = 48
"""The player's page makes its font smaller on a window narrower than this many columns at
the chosen size (a phone held upright, 390 pixels: 41 columns at 16 px): the screens'
narrow layouts are made for 48 columns (:data:`tui.styles.NARROW_BELOW`, the key lists'
tests), and at 41 the dialogs and many lines were cut (issue 36, item 6)."""
NARROW_CELL_WIDTH: Final = 0.6
"""A cell's width per pixel of font size that the player's page counts on a narrow window:
the monospace fonts' own (Courier New, Liberation Mono, DejaVu Sans Mono, Droid Sans Mono),
over :data:`CELL_RATIO`'s, since xterm.js rounds a cell down to whole device pixels."""
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
            "--web needs the web extra: pip install 'clowder-cards[web]' (textual-serve)"
        ) from None
    return Path(textual_serve.__file__).resolve().parent / STATIC_FOLDER


def web_client_command(address: str, port: int, reached: str = "", page: str = "") -> list[str]:
    """The Clowder client for one browser: joined to this host, asking the name once (it is
    kept in the browser's folder), creating tables only here. ``reached``: the address the
    browser reached this machine at, which its screens show and tell friends. ``page``: the
    page's host and port as the browser addressed it (its ``Host``, one of this host's own:
    :meth:`WebGateway.known_host`), the player's way back (``--door=web:``): a browser has
    no ``clowder join``, and its cookie goes to that name only."""
    command = [sys.executable, "-m", "tui", "join", f"{address}:{port}", "--only-this-host"]
    if reached and reached != address:
        command.append(f"--shown-as={reached}")
    if page:
        command.append(f"--door=web:{page}")
    return command


def web_room_command(address: str, port: int, reached: str = "") -> list[str]:
    """The room screen's client for one browser (``/room``): read-only, no name asked.
    ``reached``: the address the browser reached this machine at, which it shows people
    for joining."""
    command = [sys.executable, "-m", "tui", "room", f"{address}:{port}"]
    if reached and reached != address:
        command.append(f"--shown-as={reached}")
    return command


def make_cookie(key: bytes) -> str:
    """A new browser's cookie: a random id and its HMAC under ``key`` (nothing is kept)."""
    identity = secrets.token_urlsafe(COOKIE_ID_BYTES)
    return identity + _cookie_mac(key, identity)


def cookie_signed(key: bytes, cookie: str) -> bool:
    """Whether ``cookie`` was made here (by :func:`make_cookie` with ``key``)."""
    identity, mac = cookie[:-22], cookie[-22:]
    return len(identity) == 24 and hmac.compare_digest(mac, _cookie_mac(key, identity))


def _cookie_mac(key: bytes, identity: str) -> str:
    digest = hmac.new(key, f"clowder-cookie\0{identity}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def load_cookie_key(folder: Path) -> bytes:
    """The key that signs this host's cookies, made (mode 0600) on first use."""
    path = folder / COOKIE_KEY_FILE
    with contextlib.suppress(FileNotFoundError):
        key = path.read_bytes()
        if len(key) >= 32:
            return key
    key = secrets.token_bytes(32)
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        temporary = path.with_name(path.name + ".new")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(key)
        os.replace(temporary, path)
    except OSError as error:
        raise WebGatewayError(f"cannot save the web cookie key {path}: {error}") from None
    return key


def refusal_response(status: str, text: str) -> bytes:
    """A whole HTTP answer written before any request is read (a connection over a budget):
    short, plain text a browser shows, and the connection closes."""
    body = (text + "\n").encode()
    head = (
        f"HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\nRetry-After: 10\r\n"
        "Cache-Control: no-store\r\n\r\n"
    )
    return head.encode() + body


def too_deep(data: str, limit: int = MESSAGE_DEPTH) -> bool:
    """Whether the JSON text ``data`` nests lists and objects deeper than ``limit`` (read
    without parsing it: a message 5,000 deep would exhaust the parser's stack)."""
    depth = 0
    for match in _BRACKETS.finditer(data):
        char = match.group()
        if char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


_BRACKETS: Final = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')
"""A JSON string (skipped whole, brackets inside it included) or a bracket."""


def split_host(host: str) -> tuple[str, int] | None:
    """A ``Host`` header's name (an IP address written as :func:`reached_address` writes it)
    and port (80 when none is given); ``None`` when it is not one."""
    if host.startswith("["):
        name, bracket, rest = host[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port_text = rest[1:]
    else:
        name, _, port_text = host.partition(":")
    if port_text and not (port_text.isdigit() and len(port_text) <= 5):
        return None
    if not name:
        return None
    with contextlib.suppress(ValueError):
        name = reached_address(str(ipaddress.ip_address(name)))
    return name, int(port_text) if port_text else 80


def browser_digest(cookie: str) -> str:
    """The name of a browser's folder: a digest of its cookie (the cookie itself is never
    written to disk, so the folder names tell nobody how to be that player)."""
    return hashlib.sha256(f"clowder-web\0{cookie}".encode()).hexdigest()[:24]


KEYBOARD_SCRIPT: Final = """<script>
(() => {
  const input = () => document.querySelector("#terminal .xterm-helper-textarea");
  const focus = () => {
    const area = input();
    if (area && document.activeElement !== area) area.focus({ preventScroll: true });
  };
  addEventListener("load", () => setTimeout(focus));
  addEventListener("pageshow", focus);
  addEventListener("focus", focus);
  document.addEventListener("keydown", (event) => {
    if (event.target !== input()) focus();
  }, true);
})();
</script>
"""
"""Gives the terminal the keyboard: textual.js makes xterm's terminal at the window's load
but never focuses it, so the focus stayed on the page's body and keys typed went nowhere
until a click (issue 36, item 5). The terminal's input takes the focus once the page has
loaded (after textual.js's own ``onload``, which made it), when the page is shown again
and when its window gets the focus back; and a key pressed while the focus is elsewhere
moves it there first, so the key's character still reaches the game (Chrome gives the key
press to the element focused by then: only a first arrow or Esc is lost)."""

ICON_LINK: Final = '<link rel="icon" type="image/png" href="/favicon.ico">'
"""Every page names its icon (:mod:`net.doors.favicon`), served at the address a browser
asks without one."""


def _font_script(rows: int, columns: int, cell_width: float, largest: int) -> str:
    """A script that sets the terminal's font size (in pixels, at most ``largest``, within
    :data:`FONT_SIZES`) so that the window holds ``columns`` columns and ``rows`` rows
    (0: any number) of cells ``cell_width`` by :data:`CELL_RATIO`'s height per pixel. It
    runs before textual.js reads the size (at the window's load); nothing is fetched."""
    low, high = FONT_SIZES
    height = CELL_RATIO[1]
    by_rows = f"innerHeight / ({rows} * {height})" if rows else "Infinity"
    return f"""<script>
(() => {{
  const terminal = document.getElementById("terminal");
  const size = Math.floor(Math.min({by_rows}, innerWidth / ({columns} * {cell_width})));
  terminal.dataset.fontSize = String(Math.max({low}, Math.min({high}, {largest}, size)));
}})();
</script>
"""


PLAYER_ENDED: Final = (
    "Your Clowder session ended.<br>Reload the page to come back: your seats are kept."
)
ROOM_ENDED: Final = "The room screen ended.<br>Reload the page to show it again."
AWAY: Final = "The host has gone away: trying again\u2026"
"""What a page says while its host is away (it stopped, or the connection broke), until
the host answers again and the page reloads itself."""
PLAYER_BACK: Final = "Your seats are kept: this page comes back by itself."
ROOM_BACK: Final = "This screen comes back by itself."
NOT_BACK: Final = "The host has not come back.<br>Reload the page once it is running again."
AWAY_FIRST_S: Final = 1.0
AWAY_MAX_S: Final = 2.0
"""A page whose host went away asks for itself again after :data:`AWAY_FIRST_S`, then at
gaps growing by half up to this: a restarted host has its player back within 2 s."""
AWAY_GIVE_UP_S: Final = 900.0
"""How long a page keeps asking (then it says to reload by hand: a host gone for good is
not asked every 2 s all night)."""
AWAY_ASK_S: Final = 4.0
"""How long one such question may take (a host machine that vanished from the LAN answers
nothing: the question is dropped and asked again)."""
GOING_AWAY: Final = int(WSCloseCode.GOING_AWAY)
"""The code a page's websocket closes with when the gateway stops (the host restarts):
RFC 6455's ``1001``, "a server going down". A page reads it, as it reads ``1006``
(the connection dropped: the host process was killed), as "come back by yourself"; a
``1000`` (the player quit, or another page of the browser took over) is an end."""

RECONNECT_SCRIPT: Final = f"""<script>
(() => {{
  const Native = window.WebSocket;
  const AWAY = [{GOING_AWAY}, 1006, 1012];
  let opened = false;
  const knock = (wait, until) => setTimeout(async () => {{
    if (Date.now() > until) {{
      document.body.classList.add("-gone");
      return;
    }}
    try {{
      const asked = {{ method: "HEAD", cache: "no-store", credentials: "same-origin" }};
      if (AbortSignal.timeout) asked.signal = AbortSignal.timeout({AWAY_ASK_S * 1000:.0f});
      const answer = await fetch(location.href, asked);
      if (answer.status < 500) {{
        location.reload();
        return;
      }}
    }} catch (error) {{}}
    knock(Math.min(wait * 1.5, {AWAY_MAX_S * 1000:.0f}), until);
  }}, wait);
  const away = () => {{
    if (document.body.classList.contains("-away")) return;
    document.body.classList.add("-away");
    knock({AWAY_FIRST_S * 1000:.0f}, Date.now() + {AWAY_GIVE_UP_S * 1000:.0f});
  }};
  window.WebSocket = class extends Native {{
    constructor(...given) {{
      super(...given);
      this.addEventListener("open", () => {{ opened = true; }});
      this.addEventListener("close", (event) => {{
        if (opened && AWAY.includes(event.code)) away();
      }});
    }}
  }};
}})();
</script>
"""
"""Brings a page back by itself after its host restarts (issue 36): textual.js only marks
the page closed when its websocket closes, and the page stayed on its last screen
(``Connection lost; reconnecting...``) with keys doing nothing. The page's websocket (the
one textual.js opens at the window's load, through this subclass) that closes because the
host went away (:data:`GOING_AWAY`, or dropped) shows :data:`AWAY` over the terminal, and
the page asks for itself (``HEAD``) until the host answers, then reloads: its cookie gets
the player's client started again, in the same seats. Only a websocket that had opened
counts (one refused at once, a full host or a second page opening, is no reason to reload
over and over), and a normal close (``1000``: the player quit, another page took over)
keeps the note that the session ended."""


def page_html(
    websocket_url: str,
    font_size: int,
    *,
    title: str = "Clowder",
    fit: bool = False,
    narrow: bool = False,
    ended: str = PLAYER_ENDED,
    back: str = PLAYER_BACK,
) -> str:
    """The page: textual-serve's terminal, full window, a note (``ended``, HTML) for when the
    session ends, and one for while the host is away (:data:`AWAY` and ``back``, until the
    page reloads itself: :data:`RECONNECT_SCRIPT`). The notes are drawn over the terminal
    (xterm.js's layers, later in the page, hid them before). ``fit``: the font is sized to
    the window instead (the room page: :data:`ROOM_ROWS`). ``narrow``: on a window too
    narrow for :data:`PLAYER_COLUMNS` at ``font_size`` (a phone held upright) the font is
    made smaller, until they fit."""
    url = html.escape(websocket_url, quote=True)
    fitting = ""
    if fit:
        fitting = _font_script(ROOM_ROWS, ROOM_COLUMNS, CELL_RATIO[0], FONT_SIZES[1])
    elif narrow:
        fitting = _font_script(0, PLAYER_COLUMNS, NARROW_CELL_WIDTH, font_size)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
{ICON_LINK}
<link rel="stylesheet" href="/static/css/xterm.css">
<script src="/static/js/textual.js"></script>
<style>
html, body {{ margin: 0; height: 100%; background: #0c181f; color: #e8e8e8;
  font-family: monospace; }}
#terminal {{ width: 100vw; height: 100vh; }}
.ended, .away {{ display: none; position: fixed; inset: 0; z-index: 10;
  align-items: center; justify-content: center; text-align: center; background: #0c181f;
  font-size: 18px; padding: 1em; }}
.away {{ background: rgba(12, 24, 31, 0.9); }}
.away strong {{ color: #ffd866; }}
.away .gone, body.-gone .away .coming {{ display: none; }}
body.-gone .away .gone {{ display: inline; }}
body.-closed:not(.-away) .ended, body.-away .away {{ display: flex; }}
</style>
</head>
<body>
<div class="ended"><p>{ended}</p></div>
<div class="away" role="alert"><p><strong>{html.escape(AWAY)}</strong><br>
<span class="coming">{back}</span><span class="gone">{NOT_BACK}</span></p></div>
<div id="terminal" class="textual-terminal" data-session-websocket-url="{url}"
 data-font-size="{font_size}"></div>
{fitting}{RECONNECT_SCRIPT}{KEYBOARD_SCRIPT}</body>
</html>
"""


PAGES: Final = ("/", "/room")
"""The pages a password form may come back to."""


def message_page(
    title: str, text: str, *, form: bool = False, problem: str = "", back: str = "/"
) -> str:
    """A small page of its own: the password form (which comes ``back`` to the page that
    asked, ``/`` or ``/room``), or why there is no session now."""
    body = f"<p>{html.escape(text)}</p>"
    if problem:
        body += f'<p class="problem">{html.escape(problem)}</p>'
    if form:
        back = back if back in PAGES else "/"
        body += (
            '<form method="post" action="/login">'
            '<input type="password" name="password" autofocus aria-label="password"> '
            f'<input type="hidden" name="back" value="{back}">'
            '<button type="submit">Play</button></form>'
        )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Clowder: {html.escape(title)}</title>
{ICON_LINK}
<style>body {{ background: #0c181f; color: #e8e8e8; font-family: monospace; padding: 2em; }}
.problem {{ color: #ff8080; }} input, button {{ font: inherit; padding: .3em; }}</style>
</head><body><h1>{html.escape(title)}</h1>{body}</body></html>
"""


@dataclass(frozen=True)
class Browser:
    """One browser this host gave a cookie (as a request shows it): whether it may play."""

    digest: str
    allowed: bool


@dataclass(eq=False)
class BrowserSession:
    """A page's websocket and the client process behind it."""

    browser: Browser
    websocket: web.WebSocketResponse
    client: WebSession
    peer: str
    kind: SessionKind
    started: float = field(default_factory=time.monotonic)
    finished: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(eq=False)
class SessionKind:
    """What a page's session is (a player's, or a room screen's), and its own budgets: the
    room screens are counted apart, so that a TV takes no player's place."""

    label: str
    """What the log says such a session does (``plays``, ``shows the room``)."""
    budget: SessionBudget
    per_address: PerAddress
    sessions: dict[str, BrowserSession]
    """Cookie digest -> that browser's session of this kind, while it has one."""
    command: Callable[[Browser, str, str], Sequence[str]]
    """The client's command for a browser, the address it reached and its page's host."""
    folder: Callable[[Browser], Path]
    opening_key: Callable[[str], str]
    """The key a browser of this kind is marked opening under (players: the digest)."""
    full_text: Callable[[str], str]
    """Why a newcomer from an address (the argument) over :attr:`per_address` is refused."""


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
        command: Callable[[Browser, str, str], Sequence[str]] | None = None,
        per_address: int = WEB_PER_ADDRESS,
        shared: SharedBudget | None = None,
        header_timeout_s: float = HEADER_TIMEOUT_S,
        names: Sequence[str] = (),
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        room_command: Callable[[str], Sequence[str]] | None = None,
        max_rooms: int = MAX_ROOM_SESSIONS,
        rooms_per_address: int = ROOMS_PER_ADDRESS,
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
            lambda _browser, reached, page: web_client_command(
                game_address, game_port, reached, page
            )
        )
        """The client for a browser that reached this host at an address (its screens show
        that address to tell friends), on a page it addressed by a host name and port (the
        player's way back)."""
        self.static = served_files()
        self.shared = shared
        """The host's one connection budget (every door's); ``None``: only this gateway's."""
        self.connections = PerAddress(CONNECTIONS_PER_BROWSER * per_address)
        self.players = PerAddress(per_address)
        self.header_timeout_s = header_timeout_s
        hostname = socket.gethostname().lower()
        self.names = frozenset({hostname, f"{hostname}.local", *(n.lower() for n in names)})
        """Names this host answers to besides its addresses (its host name, mDNS's
        ``.local`` one, and any given)."""
        self.tries = Tries()
        self.clock = clock
        self.sleep = sleep
        """How password answers wait (tests pass one that records the delay)."""
        self.quiet = QuietLog(lambda line: log(f"Web: {line}"), clock=clock)
        self.allowed: set[str] = set()
        """Digests of the browsers that gave the password (kept while the host runs; an open
        host needs none: its own signature on a cookie lets the browser in)."""
        self.playing: dict[str, BrowserSession] = {}
        """Cookie digest -> the browser's session, while it has one."""
        self.opening: dict[str, object] = {}
        """Browsers whose session is being started now (or ended to start anew), from the
        websocket's request until the client says it is ready, each with its page's mark."""
        self.sessions: set[BrowserSession] = set()
        """Every page's session, players' and room screens'."""
        self.rooms = SessionBudget(max_rooms)
        self.room_viewers = PerAddress(rooms_per_address)
        self.watching: dict[str, BrowserSession] = {}
        """Cookie digest -> the browser's room screen, while it shows one."""
        self.room_command = room_command or (
            lambda reached: web_room_command(game_address, game_port, reached)
        )
        self.player_kind = SessionKind(
            "plays",
            self.budget,
            self.players,
            self.playing,
            self.command,
            lambda browser: self.folder / browser.digest,
            lambda digest: digest,
            lambda peer: (
                f"This Clowder host has all the browsers it takes from {peer} "
                f"({self.players.limit})"
            ),
        )
        self.room_kind = SessionKind(
            "shows the room",
            self.rooms,
            self.room_viewers,
            self.watching,
            lambda _browser, reached, _page: self.room_command(reached),
            lambda _browser: self.folder / ROOM_FOLDER,
            lambda digest: f"room:{digest}",
            lambda peer: (
                f"This Clowder host shows all the room screens it takes to {peer} "
                f"({self.room_viewers.limit})"
            ),
        )
        self.closing = False
        """Set once :meth:`close` began: pages are answered ``503``."""
        self._cookie_key = b""
        self._runner: web.AppRunner | None = None
        self._server: asyncio.Server | None = None

    # Start and stop ------------------------------------------------------------------

    def application(self) -> web.Application:
        app = web.Application(client_max_size=MESSAGE_MAX, middlewares=[self._known_only])
        app.add_routes(
            [
                web.get("/", self.page),
                web.get("/room", self.room_page),
                web.post("/login", self.login),
                web.get("/ws", self.websocket),
                web.get("/room/ws", self.room_websocket),
                web.get("/favicon.ico", self.favicon),
                web.static("/static", self.static, show_index=False, follow_symlinks=False),
            ]
        )
        return app

    async def start(self) -> None:
        self._cookie_key = load_cookie_key(self.folder)
        # keepalive_timeout also runs from a connection's start: the deadline for headers.
        runner = web.AppRunner(
            self.application(),
            access_log=None,
            handle_signals=False,
            keepalive_timeout=self.header_timeout_s,
        )
        await runner.setup()
        handlers = runner.server
        assert handlers is not None
        try:
            self._server = await asyncio.get_running_loop().create_server(
                lambda: _Door(self, handlers),
                self.bind,
                self.port,
                reuse_address=True,
                backlog=ACCEPT_BACKLOG,
            )
        except OSError as error:
            await runner.cleanup()
            raise WebGatewayError(
                f"the web page cannot listen on {self.bind}:{self.port}: {error.strerror or error}"
            ) from None
        self._runner = runner
        self.port = self._server.sockets[0].getsockname()[1]
        access = "a password" if self.password else "open to anyone on the LAN, no password"
        self.log(
            f"Web: listening on {self.bind}:{self.port} ({access}; "
            f"at most {self.budget.limit} browsers at once, {self.players.limit} from one address;"
            f" a room screen at /room, {self.rooms.limit} at once)"
        )

    async def close(self) -> None:
        """Stop listening and end every browser's client. Each page is told first that the
        host is going away (:data:`GOING_AWAY`), so that it comes back by itself once the
        host answers again; until the end, the pages are answered ``503`` (a page asking
        over a connection still open reloads only into a host that serves)."""
        server, self._server = self._server, None
        self.closing = True
        if server is not None:
            server.close()
        await self._going_away()
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
        if server is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2.0):
                    await server.wait_closed()

    async def _going_away(self) -> None:
        """Close every page's websocket with :data:`GOING_AWAY` (each session's client then
        quits, as when its page closes)."""
        closing = [
            session.websocket.close(code=GOING_AWAY, message=b"The host is restarting")
            for session in list(self.sessions)
        ]
        if closing:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(2.0):
                    await asyncio.gather(*closing, return_exceptions=True)

    # Connections -------------------------------------------------------------------------

    def _admit(self, peer: str) -> str:
        """Why a new connection from ``peer`` is refused ("" to serve it); counted if served."""
        if self.connections.full(peer):
            return (
                f"This Clowder host already serves {self.connections.limit} connections "
                f"from {peer}; try again in a moment."
            )
        if self.shared is not None and not self.shared.take():
            return "This Clowder host is serving all the connections it takes; try again later."
        self.connections.take(peer)
        return ""

    def _gone(self, peer: str) -> None:
        self.connections.give_back(peer)
        if self.shared is not None:
            self.shared.give_back()

    def known_host(self, request: web.BaseRequest) -> str | None:
        """The request's ``Host`` (lower-cased) if it names this host at this gateway's port:
        the address the connection reached, ``localhost`` when that is a loopback address,
        or one of :attr:`names`; else ``None``."""
        given = request.headers.get("Host", "").lower()
        split = split_host(given) if HOST_PATTERN.match(given) else None
        if split is None or split[1] != self.port:
            return None
        name = split[0]
        sockname = request.transport.get_extra_info("sockname") if request.transport else None
        reached = reached_address(str(sockname[0])) if sockname else ""
        if name in self.names or (reached and name == reached.lower()):
            return given
        try:
            loopback = ipaddress.ip_address(reached).is_loopback
        except ValueError:
            loopback = False
        return given if loopback and name == "localhost" else None

    @web.middleware
    async def _known_only(
        self,
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        """Every request names this host (``Host``), and comes from its own page or from no
        page at all (``Origin``): see the module docstring."""
        host = self.known_host(request)
        if host is None:
            self.quiet(
                "unknown host",
                f"refused a request for {clean_text(request.headers.get('Host', ''))[:80]!r} "
                f"from {request.remote}",
            )
            raise web.HTTPMisdirectedRequest(
                text=f"This Clowder host answers at its own addresses, on port {self.port}."
            )
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() != f"http://{host}":
            self.quiet(
                "other site",
                f"refused a page of another site ({clean_text(origin)[:80]!r}) "
                f"from {request.remote}",
            )
            raise web.HTTPForbidden(text="Not from this host's page")
        return await handler(request)

    # Who is this browser ----------------------------------------------------------------

    def _browser(self, request: web.Request) -> Browser | None:
        """The browser behind ``request``, if its cookie is one this host gave; nothing is
        kept for it here (a made-up or stolen-looking cookie costs nothing)."""
        cookie = request.cookies.get(COOKIE, "")
        if not COOKIE_PATTERN.match(cookie):
            return None
        digest = browser_digest(cookie)
        if not cookie_signed(self._cookie_key, cookie) and not (
            # A cookie from before cookies were signed: an open host knows it by its folder.
            self.password is None and (self.folder / digest).is_dir()
        ):
            return None
        return Browser(digest, allowed=self.password is None or digest in self.allowed)

    def _new_browser(self, response: web.StreamResponse) -> Browser:
        cookie = make_cookie(self._cookie_key)
        response.set_cookie(
            COOKIE,
            cookie,
            max_age=COOKIE_DAYS * 86400,
            httponly=True,
            samesite="Strict",
            path="/",
        )
        return Browser(browser_digest(cookie), allowed=self.password is None)

    # Pages -------------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        return self._page(request, self.player_kind)

    async def room_page(self, request: web.Request) -> web.Response:
        """The room screen for a TV: its font fits the window unless ``?fontsize=`` says."""
        return self._page(request, self.room_kind)

    def _page(self, request: web.Request, kind: SessionKind) -> web.Response:
        response = web.Response(content_type="text/html", charset="utf-8")
        response.headers.update(
            {
                "Cache-Control": "no-store",
                "X-Frame-Options": "DENY",
                "Referrer-Policy": "no-referrer",
                "X-Content-Type-Options": "nosniff",
            }
        )
        if self.closing:
            response.set_status(503)
            response.text = message_page("Restarting", "This Clowder host is stopping.")
            return response
        room = kind is self.room_kind
        browser = self._browser(request) or self._new_browser(response)
        if not browser.allowed:
            back = "/room" if room else "/"
            response.text = message_page("Password", ASK_PASSWORD, form=True, back=back)
            return response
        budget = kind.budget
        if browser.digest not in kind.sessions and budget.used >= budget.limit:
            response.set_status(503)
            response.text = message_page(
                "Full",
                f"All {budget.limit} room screens of this host are shown. Reload in a while."
                if room
                else f"All {budget.limit} browser places of this host are taken. "
                "Reload in a while.",
            )
            return response
        host = self.known_host(request)
        given = request.query.get("fontsize", "")
        font = _font_size(given)
        if room:
            response.text = page_html(
                f"ws://{host}/room/ws",
                font,
                title="Clowder room",
                fit=not given,
                ended=ROOM_ENDED,
                back=ROOM_BACK,
            )
        else:
            response.text = page_html(f"ws://{host}/ws", font, narrow=not given)
        return response

    async def favicon(self, request: web.Request) -> web.Response:
        """The pages' icon: a browser asks for it at this address (a 404 was an error in
        its console)."""
        return web.Response(
            body=FAVICON,
            content_type="image/png",
            headers={"Cache-Control": "max-age=86400", "X-Content-Type-Options": "nosniff"},
        )

    async def login(self, request: web.Request) -> web.Response:
        browser = self._browser(request)
        if browser is None:
            raise web.HTTPSeeOther("/")  # no cookie yet: the page gives one
        try:
            async with asyncio.timeout(self.header_timeout_s):
                form = await request.post()
        except TimeoutError:
            raise web.HTTPRequestTimeout(text="The form took too long to arrive") from None
        given = form.get("password")
        back = form.get("back")
        back = back if isinstance(back, str) and back in PAGES else "/"
        if self.password is None:
            raise web.HTTPSeeOther(back)
        peer = str(request.remote)
        now = self.clock()
        wait = self.tries.wait(peer, now)
        if wait > TRY_WAIT_MAX_S:
            self.quiet("tries", f"refused a password try from {peer}: too many wrong")
            return web.Response(
                status=429,
                headers={"Retry-After": str(math.ceil(wait))},
                content_type="text/html",
                text=message_page(
                    "Password",
                    ASK_PASSWORD,
                    form=True,
                    problem=f"Too many wrong passwords from {peer}: try again in "
                    f"{math.ceil(wait)} seconds.",
                    back=back,
                ),
            )
        right = isinstance(given, str) and hmac.compare_digest(
            given.encode(), self.password.encode()
        )
        delay = self.tries.attempt(peer, None, right, now)
        if not right:
            in_a_row = self.tries.failures(peer)
            self.quiet(
                "password",
                f"a wrong password from {peer} ({in_a_row} in a row; answered in {delay:.0f} s)",
            )
        if delay > 0:
            await self.sleep(delay)
        if right:
            self.allowed.add(browser.digest)
            raise web.HTTPSeeOther(back)
        return web.Response(
            status=403,
            content_type="text/html",
            text=message_page(
                "Password",
                ASK_PASSWORD,
                form=True,
                problem="That is not the password.",
                back=back,
            ),
        )

    # The session ---------------------------------------------------------------------------

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        return await self._websocket(request, self.player_kind)

    async def room_websocket(self, request: web.Request) -> web.StreamResponse:
        return await self._websocket(request, self.room_kind)

    async def _websocket(self, request: web.Request, kind: SessionKind) -> web.StreamResponse:
        browser = self._browser(request)
        if browser is None or not browser.allowed:
            raise web.HTTPForbidden(text="Open this host's page first")
        key = kind.opening_key(browser.digest)
        if key in self.opening:
            # Checked and marked before any wait: of pages opened at once, one starts a client.
            raise web.HTTPConflict(text="Another page of this browser is opening")
        mark = self.opening[key] = object()

        def opened() -> None:
            if self.opening.get(key) is mark:
                del self.opening[key]

        websocket = web.WebSocketResponse(heartbeat=15.0, max_msg_size=MESSAGE_MAX)
        at_most = asyncio.get_running_loop().call_later(OPENING_MAX_S, opened)
        try:
            session = await self._open(request, browser, websocket, kind)
            if session is not None:
                session.client.on_ready = opened
                await self._serve(session)
        finally:
            at_most.cancel()
            opened()
        return websocket

    async def _open(
        self,
        request: web.Request,
        browser: Browser,
        websocket: web.WebSocketResponse,
        kind: SessionKind,
    ) -> BrowserSession | None:
        """End the browser's earlier session of this ``kind`` if any, then start its client
        for this page; ``None`` (the websocket closed with the reason) when no client could
        start. Runs with the browser marked as opening."""
        earlier = kind.sessions.get(browser.digest)
        if earlier is not None:
            await self._end(earlier, "another page of the same browser took over")
        peer = str(request.remote)
        if kind.per_address.full(peer):
            self.quiet(
                "refused",
                f"refused a browser from {peer}: {kind.per_address.limit} {kind.label} there",
            )
            raise web.HTTPServiceUnavailable(text=kind.full_text(peer))
        if not kind.budget.take():
            self.quiet("refused", f"refused {peer}: all {kind.budget.limit} places are taken")
            raise web.HTTPServiceUnavailable(text="Every browser place is taken")
        if self.shared is not None and not self.shared.take(SESSION_DESCRIPTORS):
            kind.budget.give_back()
            self.quiet("refused", f"refused {peer}: the host's connections are all in use")
            raise web.HTTPServiceUnavailable(text="This host is serving all it takes")
        kind.per_address.take(peer)
        try:
            await websocket.prepare(request)
            columns, rows = clamp_size(
                _whole(request.query.get("width"), 80), _whole(request.query.get("height"), 24)
            )
            folder = kind.folder(browser)
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            env = web_environment(
                client_environment(os.environ, folder, "xterm-256color"), columns, rows
            )
            sockname = request.transport.get_extra_info("sockname") if request.transport else None
            reached = reached_address(str(sockname[0])) if sockname else ""
            page = self.known_host(request) or ""  # checked by _known_only: never "" here
            client = WebSession(
                kind.command(browser, reached, page),
                env=env,
                cwd=folder,
                output=websocket.send_bytes,
            )
            await client.start()
        except BaseException as error:
            self._give_back(peer, kind)
            if isinstance(error, OSError):  # no process (out of descriptors or memory)
                self.quiet("no client", f"could not start a client for {peer}: {error}")
                with contextlib.suppress(Exception):
                    await websocket.close(message=b"This Clowder host cannot start a client now")
                return None
            raise
        session = BrowserSession(browser, websocket, client, peer, kind)
        kind.sessions[browser.digest] = session
        self.sessions.add(session)
        self.log(
            f"Web: browser {browser.digest[:8]} from {peer} {kind.label} "
            f"(pid {client.pid}, {columns}x{rows})"
        )
        return session

    def _give_back(self, peer: str, kind: SessionKind) -> None:
        kind.budget.give_back()
        kind.per_address.give_back(peer)
        if self.shared is not None:
            self.shared.give_back(SESSION_DESCRIPTORS)

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
            sessions = session.kind.sessions
            if sessions.get(session.browser.digest) is session:
                del sessions[session.browser.digest]
            self.sessions.discard(session)
            self._give_back(session.peer, session.kind)
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
                said = clean_text(tail[0])[:200] if tail else ""
                self.log(f"Web: its client said: {said}")

    async def _end(self, session: BrowserSession, why: str) -> None:
        self.log(f"Web: browser {session.browser.digest[:8]}: {why}")
        await session.websocket.close()
        async with asyncio.timeout(8.0):
            await session.finished.wait()


class _Door(asyncio.Protocol):
    """One TCP connection to the web gateway: counted (per address, and in the host's one
    budget) before aiohttp's handler sees a byte of it, or answered with a short ``503`` and
    closed at once when over a budget. Everything else is passed to aiohttp's handler, made
    only for a connection let in (a refusal stays cheap: a flood reconnecting as fast as it
    is refused costs the host little)."""

    def __init__(self, gateway: WebGateway, handlers: Callable[[], asyncio.Protocol]) -> None:
        self.gateway = gateway
        self.handlers = handlers
        self.handler: asyncio.Protocol | None = None
        self.peer = "?"

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        self.peer = str(peer[0]) if peer else "?"
        why = self.gateway._admit(self.peer)
        if why:
            self.gateway.quiet("connection", f"refused a connection from {self.peer}: {why}")
            assert isinstance(transport, asyncio.WriteTransport)
            transport.write(refusal_response("503 Service Unavailable", why))
            transport.close()
            return
        self.handler = self.handlers()
        self.handler.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.handler is not None:
            self.handler.data_received(data)

    def eof_received(self) -> bool | None:
        return self.handler.eof_received() if self.handler is not None else None

    def connection_lost(self, exc: Exception | None) -> None:
        handler, self.handler = self.handler, None
        if handler is not None:
            self.gateway._gone(self.peer)
            handler.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.handler is not None:
            self.handler.pause_writing()

    def resume_writing(self) -> None:
        if self.handler is not None:
            self.handler.resume_writing()


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
    if too_deep(data):
        return None
    try:
        envelope = json.loads(data)
    except (ValueError, RecursionError):
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

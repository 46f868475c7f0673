"""``clowder host --ssh``: play with nothing installed, through a plain ``ssh``.

``ssh -p 2222 ann@HOST`` opens the Clowder lobby of that host, already
connected to it, with "ann" as the player's name. A user name that is a word and not a
name (``you``, ``NAME`` typed as the invitation reads), or one another player here has,
is not taken: the client asks for a name, as it asks a player at a terminal, and keeps
that player's folder under the name given (:func:`asks_name`). The gateway is an SSH
server (asyncssh) that offers nothing else: a session with a terminal runs
the normal Clowder client; a shell without a terminal is told to use one;
exec, subsystems (SFTP), port forwarding of every kind, agent and X11
forwarding are refused, each with a line in the host's log.

Each session runs the client in its own process on its own pseudo-terminal
(:mod:`net.doors.ssh_pty`): a crash ends that player's session only, and the
client is the same code a local player runs (``python -m tui join``; the
network layer never imports the TUI, it starts it as a command). The
client's terminal type and size come from the SSH client, and window
changes reach it as ``SIGWINCH``. Closing the SSH window hangs the process
up; the host keeps the seat as for any dropped player.

Each player gets a folder of their own (:func:`net.doors.ssh_access.player_folder`,
from the user name and the key's fingerprint when a key was offered) as the
client's ``HOME``, state folder (``CLOWDER_STATE_DIR``, where seat tokens
are kept) and settings folder (``CLOWDER_CONFIG_DIR``): coming back as the
same user with the same key returns to the same seats.

The host key is made on first run and kept in the host's state folder
(``ssh/host_ed25519_key``, readable by the host's user only); the host logs
its fingerprint so players can check what ``ssh`` shows them.

What a stranger can hold (issue 30): one address has at most
:data:`~net.doors.ssh_access.SSH_PER_ADDRESS` connections logging in, as many
logged in and as many players; a connection has :data:`HANDSHAKE_TIMEOUT_S`
to send its version line, finish the key exchange and ask to log in, and
once logged in :data:`SESSION_TIMEOUT_S` to open a session (and again after
each session ends), so idle connections do not keep players out. A
newcomer over a budget is told why in the SSH disconnect reason, which
``ssh`` prints (a line before the version line would not be shown), after
the key exchange; when :data:`EXPLAINING_MAX` are being told already, or one
from that address is, it is cut at once, before any cryptography, so a
flood stays cheap. Password tries from one address are answered one after
another, each wrong one later than the last (:class:`net.doors.guard.Tries`),
at most :data:`MAX_TRIES` on one connection, and logged at most one line
every few seconds (:class:`net.doors.guard.QuietLog`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import math
import os
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Final

import asyncssh

from net.doors.guard import PerAddress, QuietLog, SharedBudget, Tries
from net.doors.ssh_access import (
    DEFAULT_SSH_PORT,
    MAX_SSH_SESSIONS,
    SSH_PER_ADDRESS,
    Access,
    BadUserName,
    SessionBudget,
    check_user_name,
    player_folder,
)
from net.doors.ssh_pty import PtyProcess, clamp_size
from net.wire.text import clean_text, stand_in_name

__all__ = [
    "DEFAULT_SSH_PORT",
    "MAX_SSH_SESSIONS",
    "GatewayError",
    "Player",
    "SshGateway",
    "client_command",
    "client_environment",
    "load_host_key",
    "reached_address",
    "terminal_type",
]

GATEWAY_FOLDER: Final = "ssh"
"""Under the host's state folder: the host key and the players' folders."""

HOST_KEY_FILE: Final = "host_ed25519_key"

LOGIN_TIMEOUT_S: Final = 30.0
"""Seconds an SSH connection has to log in (typing a password included)."""

HANDSHAKE_TIMEOUT_S: Final = 10.0
"""Seconds from connecting to asking to log in: the version line and the key exchange take
milliseconds, so a connection that sends nothing (or dribbles) is closed and its place
freed long before the login deadline."""

SESSION_TIMEOUT_S: Final = 5.0
"""Seconds a logged-in connection may hold no session (``ssh`` opens one at once): one
that opens none, or keeps the connection after its session ended, is closed."""

MAX_TRIES: Final = 6
"""Login tries on one connection (passwords, and keys the keys file does not list; as
OpenSSH's ``MaxAuthTries``): the next one closes it."""

TRY_WAIT_MAX_S: Final = 20.0
"""A password try whose turn (:class:`net.doors.guard.Tries`) is further away than this is
not checked: the connection is closed, saying when to come back, instead of being held
open (it would run out of login time first)."""

ACCEPT_BACKLOG: Final = 16
"""Connections waiting to be accepted, and accepted in one turn of the event loop: a flood
is taken a few at a time, between the game port's messages (as the web door's)."""

EXPLAINING_MAX: Final = 4
"""Refused connections being told why at once (each costs a key exchange). Beyond this,
and beyond one per address, a refused connection is cut before the key exchange."""

KEEPALIVE_INTERVAL_S: Final = 15.0
KEEPALIVE_COUNT_MAX: Final = 4
"""A client that answers none of 4 keepalives 15 s apart is gone (a laptop closed
mid-game): its session ends and its seat is kept, as when the window closes."""

DEFAULT_TERM: Final = "xterm-256color"
"""The terminal type when the client sends none, or one that is not a plain name."""

STATE_DIR_ENV: Final = "CLOWDER_STATE_DIR"
CONFIG_DIR_ENV: Final = "CLOWDER_CONFIG_DIR"
PASSED_ENV: Final = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "PYTHONPATH", "TZ")
"""What the client process inherits from the host's environment; the rest is set here."""

SERVER_VERSION: Final = "Clowder"

_TERM_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_+")


class GatewayError(OSError):
    """The gateway cannot start (its port, its host key, its keys file).

    An :class:`OSError`, like a port already in use, so ``clowder host``
    reports it the same way: one line, exit status 1.
    """


@dataclass(frozen=True)
class Player:
    """Who a session is for: the SSH user name, their key (if any) and where they came from."""

    name: str
    fingerprint: str | None
    peer: str
    reached: str = ""
    """The host's address the player's SSH client connected to: how they (and their
    friends) reach this machine, told to the player's Clowder (``--shown-as``)."""
    ask: bool = False
    """The user name cannot be the player's name (:func:`asks_name`): their Clowder asks
    for one, as it asks a player at a terminal."""

    def describe(self) -> str:
        """For the host's log: ``'ann' from 198.18.0.2 (key SHA256:...)``."""
        key = f" (key {self.fingerprint})" if self.fingerprint else ""
        return f"{self.name!r} from {self.peer}{key}"


def terminal_type(term: str | None) -> str:
    """The client's ``TERM`` if it is a plain terminal name, else :data:`DEFAULT_TERM`."""
    if term and len(term) <= 64 and set(term) <= _TERM_CHARS:
        return term
    return DEFAULT_TERM


def reached_address(sockname: str) -> str:
    """The address a player's ssh reached, as people write it: no IPv6 zone, and an
    IPv4 address seen through a dual-stack socket (``::ffff:198.18.0.1``) as IPv4."""
    address = sockname.split("%", maxsplit=1)[0]
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    mapped = getattr(parsed, "ipv4_mapped", None)
    return str(mapped) if mapped is not None else str(parsed)


def asks_name(name: str, fingerprint: str | None, playing: Iterable[Player]) -> bool:
    """Whether the player logging in as ``name`` (with the key ``fingerprint``) is asked
    for a name: the user name is a word standing in for one (``you``, ``NAME`` typed as
    an invitation read: :func:`net.wire.text.stand_in_name`), or another player here
    has it (in any case) and is not this one (the same name and key: the same folder)."""
    if stand_in_name(name):
        return True
    return any(
        other.name.casefold() == name.casefold()
        and (other.name, other.fingerprint) != (name, fingerprint)
        for other in playing
    )


def client_command(
    address: str,
    port: int,
    name: str,
    reached: str = "",
    *,
    ssh_port: int | None = None,
    ask: bool = False,
    folders: Path | None = None,
    fingerprint: str | None = None,
) -> list[str]:
    """The Clowder client, joined to the host at ``address:port`` as ``name``.

    ``--only-this-host``: the client runs on the host's machine for someone
    else, so it creates tables on this host (not in a host of its own,
    listening on the LAN) and reaches no other address. ``--shown-as``: the
    address the player reached this machine at, which their screens show and
    tell friends (``address`` is this machine's own loopback). ``--door``: the
    gateway's port, so the player is told ``ssh -p PORT NAME@ADDRESS`` as their way
    back. ``ask``: ``name`` cannot be the player's name (:func:`asks_name`); the client
    asks for one (``--ask-name``) and keeps the player's settings and seats in the folder
    of the name given (``--player-folders``, with the key's ``--ssh-key``), where
    ``ssh NAME@HOST`` finds them again.
    """
    command = [sys.executable, "-m", "tui", "join", f"{address}:{port}"]
    if ask:
        command.append(f"--ask-name={name}")
        if folders is not None:
            command.append(f"--player-folders={folders}")
        if fingerprint:
            command.append(f"--ssh-key={fingerprint}")
    else:
        command.append(f"--name={name}")
    command.append("--only-this-host")
    if ssh_port is not None:
        command.append(f"--door=ssh:{ssh_port}")
    if reached and reached != address:
        command.append(f"--shown-as={reached}")
    return command


def client_environment(base: Mapping[str, str], folder: Path, term: str) -> dict[str, str]:
    """The client process's environment: little of the host's, the player's own folders.

    Nothing from the SSH client is passed on but the terminal type (its
    ``env`` requests are ignored); UTF-8 is asked for, since every Clowder
    screen needs it. No ``COLUMNS``/``LINES``: they would win over the
    terminal's own size, and the client would never see a window change.
    """
    env = {key: base[key] for key in PASSED_ENV if key in base}
    env.update(
        HOME=str(folder),
        TERM=term,
        PYTHONUTF8="1",
        PYTHONIOENCODING="utf-8",
        **{STATE_DIR_ENV: str(folder / "state"), CONFIG_DIR_ENV: str(folder / "config")},
    )
    if "UTF-8" not in env.get("LANG", "").upper().replace("UTF8", "UTF-8"):
        env["LANG"] = "C.UTF-8"
        env.pop("LC_ALL", None)
        env.pop("LC_CTYPE", None)
    return env


def load_host_key(folder: Path, log: Callable[[str], None]) -> asyncssh.SSHKey:
    """The gateway's host key from ``folder``, made (ed25519, mode 0600) on first run.

    A key file that exists but cannot be read is an error, never replaced:
    a new key would make every player's ``ssh`` warn of an impostor.
    """
    path = folder / HOST_KEY_FILE
    try:
        return asyncssh.read_private_key(str(path))
    except FileNotFoundError:
        pass
    except (OSError, ValueError, asyncssh.KeyImportError) as error:
        raise GatewayError(
            f"cannot read the SSH host key {path}: {error} (move it away to make a new one)"
        ) from None
    key = asyncssh.generate_private_key("ssh-ed25519", comment="clowder host")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.chmod(folder, 0o700)
        temporary = path.with_name(path.name + ".new")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(key.export_private_key())
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as error:
        raise GatewayError(f"cannot save the SSH host key {path}: {error}") from None
    log(f"SSH: made a new host key {path}")
    return key


@dataclass
class _Counts:
    """Live numbers, for the budget and for tests."""

    connections: int = 0
    """Connections logging in or logged in (not those being refused)."""
    sessions: set[_Session] = field(default_factory=set)


class _Stage(Enum):
    """Where a connection stands in the gateway's budgets (what it gives back when it ends)."""

    CUT = "cut"
    EXPLAINING = "explaining"
    LOGGING_IN = "logging in"
    LOGGED_IN = "logged in"
    DONE = "done"


class SshGateway:
    """The SSH server of one Clowder host (see the module docstring)."""

    def __init__(
        self,
        *,
        game_address: str,
        game_port: int,
        state_dir: Path,
        bind: str = "0.0.0.0",
        port: int = DEFAULT_SSH_PORT,
        access: Access | None = None,
        max_sessions: int = MAX_SSH_SESSIONS,
        log: Callable[[str], None] = print,
        command: Callable[[Player], Sequence[str]] | None = None,
        login_timeout_s: float = LOGIN_TIMEOUT_S,
        per_address: int = SSH_PER_ADDRESS,
        shared: SharedBudget | None = None,
        handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S,
        session_timeout_s: float = SESSION_TIMEOUT_S,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.game_address = game_address
        self.game_port = game_port
        self.folder = state_dir / GATEWAY_FOLDER
        self.bind = bind
        self.port = port
        self.access = access or Access()
        self.budget = SessionBudget(max_sessions)
        self.log = log
        self.command = command or self.client_command
        self.login_timeout_s = login_timeout_s
        self.handshake_timeout_s = handshake_timeout_s
        self.session_timeout_s = session_timeout_s
        self.shared = shared
        """The host's one connection budget (every door's); ``None``: only this gateway's."""
        self.logging_in = PerAddress(per_address)
        self.logged_in = PerAddress(per_address)
        self.playing = PerAddress(per_address)
        self.explaining = PerAddress(1)
        self.tries = Tries()
        self.clock = clock
        self.sleep = sleep
        """How password answers wait (tests pass one that records the delay)."""
        self.quiet = QuietLog(lambda line: log(f"SSH: {line}"), clock=clock)
        self.counts = _Counts()
        self.fingerprint = ""
        self._server: asyncssh.SSHAcceptor | None = None
        self._connections: set[asyncssh.SSHServerConnection] = set()

    @property
    def sessions(self) -> int:
        """Sessions running a client now."""
        return len(self.counts.sessions)

    def client_command(self, player: Player) -> list[str]:
        """The Clowder client for ``player`` (:func:`client_command`)."""
        return client_command(
            self.game_address,
            self.game_port,
            player.name,
            player.reached,
            ssh_port=self.port,
            ask=player.ask,
            folders=self.folder,
            fingerprint=player.fingerprint,
        )

    def asks_name(self, name: str, fingerprint: str | None) -> bool:
        """Whether a player logging in as ``name`` is asked for a name (:func:`asks_name`),
        among the players playing here now."""
        return asks_name(name, fingerprint, (session.player for session in self.counts.sessions))

    async def start(self) -> None:
        key = load_host_key(self.folder, self.log)
        self.fingerprint = key.get_fingerprint()
        try:
            self._server = await asyncssh.create_server(
                lambda: _Server(self),
                self.bind,
                self.port,
                server_host_keys=[key],
                server_version=SERVER_VERSION,
                encoding=None,
                line_editor=False,
                allow_pty=True,
                agent_forwarding=False,
                x11_forwarding=False,
                allow_scp=False,
                sftp_factory=None,
                login_timeout=self.login_timeout_s,
                keepalive_interval=KEEPALIVE_INTERVAL_S,
                keepalive_count_max=KEEPALIVE_COUNT_MAX,
                reuse_address=True,
                backlog=ACCEPT_BACKLOG,
            )
        except OSError as error:
            raise GatewayError(
                f"SSH cannot listen on {self.bind}:{self.port}: {error.strerror or error}"
            ) from None
        self.port = self._server.sockets[0].getsockname()[1]
        self.log(
            f"SSH: listening on {self.bind}:{self.port} ({self.access.describe()}; "
            f"at most {self.budget.limit} sessions, {self.playing.limit} from one address); "
            f"host key {self.fingerprint}"
        )

    async def close(self) -> None:
        """Stop listening, hang up every client process and close every connection."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        sessions = list(self.counts.sessions)
        for session in sessions:
            session.hang_up()
        waits = [s.finished.wait() for s in sessions]
        if waits:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(6.0):
                    await asyncio.gather(*waits)
        for connection in list(self._connections):
            connection.close()
        if server is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2.0):
                    await server.wait_closed()

    # Called by the connections -----------------------------------------------------

    def _admit(self, peer: str) -> tuple[_Stage, str]:
        """Where a new connection from ``peer`` goes, and why when it is refused.

        Served (:attr:`_Stage.LOGGING_IN`) when its address, the gateway and the host
        have room; else told why after the key exchange (:attr:`_Stage.EXPLAINING`) if
        few are being told; else cut at once (:attr:`_Stage.CUT`).
        """
        why = ""
        if self.logging_in.full(peer):
            why = (
                f"This Clowder host already has {self.logging_in.limit} SSH connections "
                f"from {peer} logging in; try again in a moment."
            )
        elif self.counts.connections >= self.budget.connection_limit:
            why = "This Clowder host has all the SSH players it takes; try again later."
        elif self.shared is not None and not self.shared.take():
            why = "This Clowder host is serving all the connections it takes; try again later."
        if not why:
            self.logging_in.take(peer)
            self.counts.connections += 1
            return _Stage.LOGGING_IN, ""
        if self.explaining.total < EXPLAINING_MAX and self.explaining.take(peer):
            return _Stage.EXPLAINING, why
        return _Stage.CUT, why

    def _release(self, stage: _Stage, peer: str) -> None:
        """Give back what a connection at ``stage`` held."""
        if stage is _Stage.EXPLAINING:
            self.explaining.give_back(peer)
        elif stage in (_Stage.LOGGING_IN, _Stage.LOGGED_IN):
            (self.logging_in if stage is _Stage.LOGGING_IN else self.logged_in).give_back(peer)
            self.counts.connections -= 1
            if self.shared is not None:
                self.shared.give_back()


def _not_offered(what: str) -> asyncssh.ChannelOpenError:
    """The refusal a client shows (instead of asyncssh's default, "Connection refused")."""
    return asyncssh.ChannelOpenError(
        asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, f"this Clowder host offers no {what}"
    )


def _peer(connection: asyncssh.SSHServerConnection) -> str:
    peer = connection.get_extra_info("peername")
    return str(peer[0]) if peer else "?"


class _Server(asyncssh.SSHServer):
    """One SSH connection: who may log in, and refusals of everything but a session."""

    def __init__(self, gateway: SshGateway) -> None:
        self.gateway = gateway
        self.connection: asyncssh.SSHServerConnection | None = None
        self.peer = "?"
        self.reached = ""
        """This machine's address the client connected to (``sockname``)."""
        self.name: str | None = None
        self.key: asyncssh.SSHKey | None = None
        self.authenticated = False
        self.refused = False
        """Cut with a reason already logged (over the budget, a bad name)."""
        self.failures: list[str] = []
        self.stage = _Stage.CUT
        self.why = ""
        """Why it is refused (:attr:`_Stage.EXPLAINING`), told after the key exchange."""
        self.tries = 0
        self.began = False
        """It asked to log in (its version line and key exchange are done)."""
        self.open_sessions = 0
        self._timer: asyncio.TimerHandle | None = None

    def who(self) -> str:
        return f"{self.name!r} from {self.peer}" if self.name else f"{self.peer}"

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.connection = conn
        self.peer = _peer(conn)
        local = conn.get_extra_info("sockname")
        self.reached = reached_address(str(local[0])) if local else ""
        gateway = self.gateway
        gateway._connections.add(conn)
        self.stage, self.why = gateway._admit(self.peer)
        if self.stage is _Stage.CUT:
            # Before the key exchange: cheap, so a flood costs no cryptography.
            self.refused = True
            gateway.quiet("cut", f"cut a connection from {self.peer} at once: {self.why}")
            conn.abort()
            return
        if self.stage is _Stage.EXPLAINING:
            self.refused = True
            gateway.quiet("refused", f"refused {self.peer}: {self.why}")
        self._arm(gateway.handshake_timeout_s, self._handshake_due)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self.connection is not None:
            self.gateway._connections.discard(self.connection)
        stage, self.stage = self.stage, _Stage.DONE
        self.gateway._release(stage, self.peer)
        if self.authenticated or self.refused:
            return
        if self.name is not None:
            tried = "; ".join(dict.fromkeys(self.failures)) or "no way to log in was tried"
            self.gateway.quiet("no login", f"{self.who()} did not log in ({tried})")
        else:
            why = f": {clean_text(str(exc))}" if exc is not None and str(exc) else ""
            self.gateway.quiet("no login", f"{self.peer} left before logging in{why}")

    # Deadlines: the handshake, then a session to open.

    def _arm(self, seconds: float, due: Callable[[], None]) -> None:
        self._disarm()
        self._timer = asyncio.get_running_loop().call_later(seconds, due)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _handshake_due(self) -> None:
        self._timer = None
        if self.began or self.connection is None:
            return
        if not self.refused:
            self.refused = True
            seconds = self.gateway.handshake_timeout_s
            self.gateway.quiet(
                "timeout", f"closed a connection from {self.peer}: no login begun in {seconds:g} s"
            )
        self.connection.abort()

    def _session_due(self) -> None:
        self._timer = None
        if self.open_sessions or self.connection is None:
            return
        self.gateway.quiet(
            "timeout", f"closed the connection of {self.who()}: no session open (an ssh -N?)"
        )
        self.connection.disconnect(
            asyncssh.DISC_BY_APPLICATION,
            "This Clowder host closes a connection that opens no game: ssh -p PORT NAME@HOST",
        )

    def session_opened(self) -> None:
        self.open_sessions += 1
        self._disarm()

    def session_closed(self) -> None:
        self.open_sessions -= 1
        if self.open_sessions <= 0 and self.stage is _Stage.LOGGED_IN:
            self._arm(self.gateway.session_timeout_s, self._session_due)

    def _refuse(self, code: int, reason: str) -> None:
        """Close with ``reason``, which ``ssh`` prints (the key exchange is done)."""
        self.refused = True
        assert self.connection is not None
        self.connection.disconnect(code, reason)

    def begin_auth(self, username: str) -> bool:
        self.began = True
        self._disarm()
        gateway = self.gateway
        if self.stage is _Stage.EXPLAINING:
            self._refuse(asyncssh.DISC_TOO_MANY_CONNECTIONS, self.why)
            return True
        try:
            self.name = check_user_name(username)
        except BadUserName as error:
            gateway.quiet(
                "bad name",
                f"refused the user name {clean_text(username)!r} from {self.peer}: {error}",
            )
            self._refuse(asyncssh.DISC_ILLEGAL_USER_NAME, f"Clowder cannot use that name: {error}.")
            return True
        if gateway.logged_in.full(self.peer):
            self._over_address()
        return True  # always ask, so that a key, when offered, is known

    def _over_address(self) -> None:
        limit = self.gateway.logged_in.limit
        self.gateway.quiet("refused", f"refused {self.who()}: {limit} logged in from there")
        self._refuse(
            asyncssh.DISC_TOO_MANY_CONNECTIONS,
            f"This Clowder host already has {limit} SSH players from {self.peer}; "
            "try again when one leaves.",
        )

    def auth_completed(self) -> None:
        self.authenticated = True
        gateway = self.gateway
        if self.stage is not _Stage.LOGGING_IN:
            return
        gateway.logging_in.give_back(self.peer)
        if not gateway.logged_in.take(self.peer):
            gateway.counts.connections -= 1
            if gateway.shared is not None:
                gateway.shared.give_back()
            self.stage = _Stage.DONE
            self._over_address()
            return
        self.stage = _Stage.LOGGED_IN
        self._arm(gateway.session_timeout_s, self._session_due)

    def _counted_try(self) -> bool:
        """Count a login try on this connection; False (and closed) past :data:`MAX_TRIES`."""
        self.tries += 1
        if self.tries <= MAX_TRIES:
            return True
        self.gateway.quiet("tries", f"closed the connection of {self.who()}: {MAX_TRIES} tries")
        self._refuse(
            asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
            f"Too many tries on one connection ({MAX_TRIES}); Clowder closed it.",
        )
        return False

    # Keys: any key when open (its fingerprint names the player's folder), else authorized ones.

    def public_key_auth_supported(self) -> bool:
        return self.gateway.access.open or self.gateway.access.keys is not None

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """A listed key is let in at once; another counts as a try on this connection but
        waits for nothing: a key cannot be guessed, and ``ssh`` offers each key its agent
        holds in turn (the keys file's player may hold several)."""
        if self.gateway.access.key_allowed(key, self.peer):
            self.key = key
            return True
        if self._counted_try():
            self.failures.append("a key not in the keys file")
            self.gateway.quiet("key", f"a key not in the keys file from {self.who()}")
        return False

    # A password: anything when open, else the one set.

    def password_auth_supported(self) -> bool:
        return self.gateway.access.open or self.gateway.access.password is not None

    async def validate_password(self, username: str, password: str) -> bool:
        """Right or wrong, answered in this address's turn (:class:`net.doors.guard.Tries`).

        Everything is decided before the first wait, when the try arrives: a
        client that sends another try before this one's answer (asyncssh then
        drops this one) has still spent it, and a burst of tries from one
        address is answered one after another, each wrong one later.
        """
        self.key = None
        gateway = self.gateway
        if gateway.access.open:
            return True
        if not self._counted_try():
            return False
        now = gateway.clock()
        wait = gateway.tries.wait(self.peer, now)
        if wait > TRY_WAIT_MAX_S:
            gateway.quiet("tries", f"refused a password try from {self.who()}: too many wrong")
            self._refuse(
                asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                f"Too many wrong passwords from {self.peer}; "
                f"try again in {math.ceil(wait)} seconds.",
            )
            return False
        right = gateway.access.password_ok(password)
        delay = gateway.tries.attempt(self.peer, self.name, right, now)
        if not right:
            self.failures.append("wrong password")
            in_a_row = gateway.tries.failures(self.peer)
            gateway.quiet(
                "password",
                f"wrong password for {self.who()} ({in_a_row} in a row from there; "
                f"answered in {delay:.0f} s)",
            )
        if delay > 0:
            await gateway.sleep(delay)
        return right

    def kbdint_auth_supported(self) -> bool:
        # Open: succeed with no questions (ssh's default order tries this before
        # "password"). Otherwise asyncssh asks for the password this way.
        return self.gateway.access.open or NotImplemented

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        if self.gateway.access.open:
            self.key = None
            return True
        return False

    # Sessions run Clowder; nothing else is offered.

    def session_requested(self) -> asyncssh.SSHServerSession[bytes]:
        assert self.name is not None
        fingerprint = self.key.get_fingerprint() if self.key is not None else None
        ask = self.gateway.asks_name(self.name, fingerprint)
        player = Player(self.name, fingerprint, self.peer, self.reached, ask)
        self.session_opened()
        return _Session(self.gateway, player, self)

    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        where = f"{clean_text(dest_host)}:{dest_port}"
        self.gateway.quiet("forwarding", f"refused port forwarding to {where} for {self.who()}")
        raise _not_offered("port forwarding")

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        self.gateway.quiet(
            "remote forwarding",
            f"refused remote port forwarding of port {listen_port} for {self.who()}",
        )
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        self.gateway.quiet(
            "socket forwarding",
            f"refused socket forwarding to {clean_text(dest_path)!r} for {self.who()}",
        )
        raise _not_offered("socket forwarding")

    def unix_server_requested(self, listen_path: str) -> bool:
        self.gateway.quiet(
            "remote socket forwarding", f"refused remote socket forwarding for {self.who()}"
        )
        return False

    def tun_requested(self, unit: int | None) -> bool:
        self.gateway.quiet("tunnel", f"refused a tunnel for {self.who()}")
        raise _not_offered("tunnels")

    def tap_requested(self, unit: int | None) -> bool:
        self.gateway.quiet("tunnel", f"refused a tunnel for {self.who()}")
        raise _not_offered("tunnels")


class _Session(asyncssh.SSHServerSession[bytes]):
    """One SSH session: the Clowder client on a terminal of its own, bridged to the channel."""

    def __init__(self, gateway: SshGateway, player: Player, server: _Server | None = None) -> None:
        self.gateway = gateway
        self.player = player
        self.server = server
        """The connection it belongs to (told when this session ends)."""
        self.channel: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.pty: PtyProcess | None = None
        self.finished = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    def log(self, line: str) -> None:
        self.gateway.log(f"SSH: {line}")

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.channel = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        self.term = terminal_type(term_type)
        self.size = clamp_size(term_size[0], term_size[1])
        return True

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = clamp_size(width, height)
        if self.pty is not None:
            self.pty.resize(*self.size)

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        shown = clean_text(command)[:60]
        self.gateway.quiet(
            "command",
            f"refused a command ({shown!r}) for {self.player.describe()}: only Clowder runs here",
        )
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        shown = clean_text(subsystem)[:30]
        self.gateway.quiet(
            "subsystem", f"refused the {shown!r} subsystem for {self.player.describe()}"
        )
        return False

    def session_started(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if self.pty is not None:
            self.pty.write(data)

    def eof_received(self) -> bool:
        """The client will type nothing more: hang the program up, send what it says last."""
        self.hang_up()
        return True

    def pause_writing(self) -> None:
        if self.pty is not None:
            self.pty.pause_output()

    def resume_writing(self) -> None:
        if self.pty is not None:
            self.pty.resume_output()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._closed and self.server is not None:
            self.server.session_closed()
        self._closed = True
        self.hang_up()  # a client still starting is hung up as soon as it has started

    def hang_up(self) -> None:
        if self.pty is not None:
            self.pty.hang_up()

    def _say(self, text: str, status: int = 1) -> None:
        if self.channel is not None and not self._closed:
            self.channel.write(text.encode() + b"\r\n")
            self.channel.exit(status)

    def _output(self, data: bytes) -> None:
        if self.channel is not None and not self._closed:
            self.channel.write(data)

    def _input_full(self, full: bool) -> None:
        if self.channel is not None and not self._closed:
            if full:
                self.channel.pause_reading()
            else:
                self.channel.resume_reading()

    async def _run(self) -> None:
        try:
            await self._serve()
        except asyncio.CancelledError:
            pass
        except Exception as error:  # one session never stops the gateway
            self.log(f"session of {self.player.describe()} failed: {error!r}")
            self._say("Clowder could not start here; the host's log says why.")
        finally:
            self.finished.set()

    async def _serve(self) -> None:
        who = self.player.describe()
        if self.term is None:
            self.gateway.quiet("no terminal", f"refused a session without a terminal for {who}")
            self._say("Clowder draws a full-screen game and needs a terminal: ssh -t ...")
            return
        gateway = self.gateway
        peer = self.player.peer
        if gateway.playing.full(peer):
            limit = gateway.playing.limit
            gateway.quiet("refused", f"refused {who}: {limit} players from there already")
            self._say(f"This Clowder host has all the players it takes from {peer} ({limit}).")
            return
        if not gateway.budget.take():
            gateway.quiet(
                "refused", f"refused {who}: all {gateway.budget.limit} SSH sessions are in use"
            )
            self._say("This Clowder host has all the SSH players it takes; try again later.")
            return
        if gateway.shared is not None and not gateway.shared.take():  # the terminal's descriptor
            gateway.budget.give_back()
            gateway.quiet("refused", f"refused {who}: the host's connections are all in use")
            self._say("This Clowder host is serving all the connections it takes; try again later.")
            return
        gateway.playing.take(peer)
        gateway.counts.sessions.add(self)
        started = time.monotonic()
        try:
            folder = player_folder(gateway.folder, self.player.name, self.player.fingerprint)
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            env = client_environment(os.environ, folder, self.term)
            pty = PtyProcess(self._output, self._input_full)
            await pty.start(gateway.command(self.player), env=env, cwd=folder, size=self.size)
            self.pty = pty
            if self._closed:
                pty.hang_up()
            columns, rows = self.size
            self.log(f"{who} plays (pid {pty.pid}, {self.term} {columns}x{rows})")
            status = await pty.wait()
        finally:
            gateway.counts.sessions.discard(self)
            gateway.budget.give_back()
            gateway.playing.give_back(peer)
            if gateway.shared is not None:
                gateway.shared.give_back()
        seconds = time.monotonic() - started
        how = "hung up" if self._closed else f"exit status {status}"
        self.log(f"{who} left after {seconds:.0f} s ({how})")
        if not self._closed and self.channel is not None:
            self.channel.exit(status if status >= 0 else 1)

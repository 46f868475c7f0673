"""``clowder host --ssh``: play with nothing installed, through a plain ``ssh``.

``ssh -p 2222 ann@HOST`` opens the Clowder lobby of that host, already
connected to it, with "ann" as the player's name. The gateway is an SSH
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
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import asyncssh

from net.doors.ssh_access import (
    DEFAULT_SSH_PORT,
    MAX_SSH_SESSIONS,
    Access,
    BadUserName,
    SessionBudget,
    check_user_name,
    player_folder,
)
from net.doors.ssh_pty import PtyProcess, clamp_size
from net.wire.text import clean_text

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
"""Seconds an SSH connection has to log in."""

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


def client_command(address: str, port: int, name: str, reached: str = "") -> list[str]:
    """The Clowder client, joined to the host at ``address:port`` as ``name``.

    ``--only-this-host``: the client runs on the host's machine for someone
    else, so it creates tables on this host (not in a host of its own,
    listening on the LAN) and reaches no other address. ``--shown-as``: the
    address the player reached this machine at, which their screens show and
    tell friends (``address`` is this machine's own loopback).
    """
    command = [
        sys.executable,
        "-m",
        "tui",
        "join",
        f"{address}:{port}",
        f"--name={name}",
        "--only-this-host",
    ]
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
    sessions: set[_Session] = field(default_factory=set)


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
    ) -> None:
        self.game_address = game_address
        self.game_port = game_port
        self.folder = state_dir / GATEWAY_FOLDER
        self.bind = bind
        self.port = port
        self.access = access or Access()
        self.budget = SessionBudget(max_sessions)
        self.log = log
        self.command = command or (
            lambda player: client_command(game_address, game_port, player.name, player.reached)
        )
        self.login_timeout_s = login_timeout_s
        self.counts = _Counts()
        self.fingerprint = ""
        self._server: asyncssh.SSHAcceptor | None = None
        self._connections: set[asyncssh.SSHServerConnection] = set()

    @property
    def sessions(self) -> int:
        """Sessions running a client now."""
        return len(self.counts.sessions)

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
            )
        except OSError as error:
            raise GatewayError(
                f"SSH cannot listen on {self.bind}:{self.port}: {error.strerror or error}"
            ) from None
        self.port = self._server.sockets[0].getsockname()[1]
        self.log(
            f"SSH: listening on {self.bind}:{self.port} ({self.access.describe()}; "
            f"at most {self.budget.limit} sessions); host key {self.fingerprint}"
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

    def _connected(self, connection: asyncssh.SSHServerConnection) -> bool:
        """Count a new connection; False when it is over the budget (it is then cut)."""
        self._connections.add(connection)
        self.counts.connections += 1
        return self.counts.connections <= self.budget.connection_limit

    def _disconnected(self, connection: asyncssh.SSHServerConnection) -> None:
        if connection in self._connections:
            self._connections.discard(connection)
            self.counts.connections -= 1


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

    def log(self, line: str) -> None:
        self.gateway.log(f"SSH: {line}")

    def who(self) -> str:
        return f"{self.name!r} from {self.peer}" if self.name else f"{self.peer}"

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.connection = conn
        self.peer = _peer(conn)
        local = conn.get_extra_info("sockname")
        self.reached = reached_address(str(local[0])) if local else ""
        if not self.gateway._connected(conn):
            self.refused = True
            limit = self.gateway.budget.connection_limit
            self.log(f"refused a connection from {self.peer}: {limit} SSH connections already")
            # Before the key exchange: cheap (a flood costs no crypto), with no reason shown.
            conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, "too many connections")

    def connection_lost(self, exc: Exception | None) -> None:
        if self.connection is not None:
            self.gateway._disconnected(self.connection)
        if self.authenticated or self.refused:
            return
        if self.name is not None:
            tried = "; ".join(dict.fromkeys(self.failures)) or "no way to log in was tried"
            self.log(f"{self.who()} did not log in ({tried})")
        else:
            why = f": {clean_text(str(exc))}" if exc is not None and str(exc) else ""
            self.log(f"{self.peer} left before logging in{why}")

    def begin_auth(self, username: str) -> bool:
        try:
            self.name = check_user_name(username)
        except BadUserName as error:
            self.log(f"refused the user name {clean_text(username)!r} from {self.peer}: {error}")
            self.refused = True
            assert self.connection is not None
            self.connection.disconnect(
                asyncssh.DISC_ILLEGAL_USER_NAME, f"Clowder cannot use that name: {error}."
            )
            return True
        return True  # always ask, so that a key, when offered, is known

    def auth_completed(self) -> None:
        self.authenticated = True

    # Keys: any key when open (its fingerprint names the player's folder), else authorized ones.

    def public_key_auth_supported(self) -> bool:
        return self.gateway.access.open or self.gateway.access.keys is not None

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if self.gateway.access.key_allowed(key, self.peer):
            self.key = key
            return True
        self.failures.append("a key not in the keys file")
        return False

    # A password: anything when open, else the one set.

    def password_auth_supported(self) -> bool:
        return self.gateway.access.open or self.gateway.access.password is not None

    def validate_password(self, username: str, password: str) -> bool:
        self.key = None
        if self.gateway.access.password_ok(password):
            return True
        self.failures.append("wrong password")
        self.log(f"wrong password for {self.who()}")
        return False

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
        player = Player(self.name, fingerprint, self.peer, self.reached)
        return _Session(self.gateway, player)

    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        where = f"{clean_text(dest_host)}:{dest_port}"
        self.log(f"refused port forwarding to {where} for {self.who()}")
        raise _not_offered("port forwarding")

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        self.log(f"refused remote port forwarding of port {listen_port} for {self.who()}")
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        self.log(f"refused socket forwarding to {clean_text(dest_path)!r} for {self.who()}")
        raise _not_offered("socket forwarding")

    def unix_server_requested(self, listen_path: str) -> bool:
        self.log(f"refused remote socket forwarding for {self.who()}")
        return False

    def tun_requested(self, unit: int | None) -> bool:
        self.log(f"refused a tunnel for {self.who()}")
        raise _not_offered("tunnels")

    def tap_requested(self, unit: int | None) -> bool:
        self.log(f"refused a tunnel for {self.who()}")
        raise _not_offered("tunnels")


class _Session(asyncssh.SSHServerSession[bytes]):
    """One SSH session: the Clowder client on a terminal of its own, bridged to the channel."""

    def __init__(self, gateway: SshGateway, player: Player) -> None:
        self.gateway = gateway
        self.player = player
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
        self.log(
            f"refused a command ({shown!r}) for {self.player.describe()}: only Clowder runs here"
        )
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        shown = clean_text(subsystem)[:30]
        self.log(f"refused the {shown!r} subsystem for {self.player.describe()}")
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
            self.log(f"refused a session without a terminal for {who}")
            self._say("Clowder draws a full-screen game and needs a terminal: ssh -t ...")
            return
        gateway = self.gateway
        if not gateway.budget.take():
            self.log(f"refused {who}: all {gateway.budget.limit} SSH sessions are in use")
            self._say("This Clowder host has all the SSH players it takes; try again later.")
            return
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
        seconds = time.monotonic() - started
        how = "hung up" if self._closed else f"exit status {status}"
        self.log(f"{who} left after {seconds:.0f} s ({how})")
        if not self._closed and self.channel is not None:
            self.channel.exit(status if status >= 0 else 1)

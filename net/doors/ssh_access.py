"""Who may come in through the SSH gateway, and as whom: the decisions, without sockets.

:mod:`net.doors.ssh_gateway` asks these questions of every SSH connection; they
live apart so tests can ask them directly.

* :func:`check_user_name`: the SSH user name becomes the player's name at the
  tables, so it must be a name the host accepts (one line, 1-32 characters,
  nothing a terminal would obey: :mod:`net.wire.text`).
* :class:`Access`: open (any name, no password: a LAN party), a shared
  password (``--ssh-password``), authorized keys (``--ssh-keys``), or both
  restrictions (either one lets a player in).
* :class:`SessionBudget`: each session is a whole client process, so the
  gateway runs at most so many at once (:data:`MAX_SSH_SESSIONS`), and at most
  :data:`SSH_PER_ADDRESS` for one address (:class:`net.doors.guard.PerAddress`).
* :func:`player_folder`: each player (user name, plus the key's fingerprint
  when a key was offered) gets a folder of their own for the client's
  state and settings, so coming back as the same user with the same key
  finds the same seats, and a stranger typing the same name without that
  key does not.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import asyncssh

from net.wire.text import describe, unsafe_char

DEFAULT_SSH_PORT: Final = 2222
"""``clowder host --ssh`` with no port: 22 is the machine's own SSH server."""

MAX_SSH_SESSIONS: Final = 16
"""SSH sessions at once. Each runs a whole client process (about 42 MB resident, 30 MB of
it its own), so this is a memory budget; it stays well under the host's per-address
connection budget
(:data:`net.core.limits.MAX_CONNECTIONS_PER_ADDRESS`), since every session's client
connects from the gateway's own address."""

SSH_PER_ADDRESS: Final = 4
"""From one IP address at once: SSH connections still logging in, connections logged in,
and players (``--ssh-per-address``). One machine on the LAN cannot take every place, nor
keep others from logging in by holding connections open."""

SSH_CONNECTIONS_PER_SESSION: Final = 2
"""Game connections one SSH player's client may hold (the lobby's and the table's), all
from the gateway's address: ``clowder host`` checks the session budget against the
host's per-address connection budget with this."""

CONNECTION_SLACK: Final = 8
"""SSH connections allowed beyond the session budget (still logging in, or logged in
between two sessions): a newcomer over ``max_sessions + CONNECTION_SLACK`` is told so
after the key exchange, or cut at once when many are being told already
(:data:`net.doors.ssh_gateway.EXPLAINING_MAX`)."""

NAME_MAX: Final = 32
"""The protocol's limit on a player's name (``hello.name``)."""

PLAYERS_FOLDER: Final = "players"
"""Under the gateway's folder: one folder per player (:func:`player_folder`)."""

_SLUG_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


class BadUserName(ValueError):
    """An SSH user name that cannot be a player's name; the message says why."""


class AccessError(ValueError):
    """The gateway's access settings cannot be used (e.g. an unreadable keys file)."""


def check_user_name(name: str) -> str:
    """``name`` if it can be a player's name, else :class:`BadUserName` saying why.

    Stricter than the lobby's name box, which tidies what it is given: an
    SSH user name is taken as it is, so spaces at the ends or in runs are
    refused rather than silently changed into another name.
    """
    if not name:
        raise BadUserName("a user name is needed: ssh -p PORT NAME@HOST")
    char = unsafe_char(name)
    if char is not None:
        raise BadUserName(f"the user name holds {describe(char)}")
    if len(name) > NAME_MAX:
        raise BadUserName(f"a user name has at most {NAME_MAX} characters, not {len(name)}")
    if name != " ".join(name.split()):
        raise BadUserName("a user name has no spaces at its ends and single spaces inside")
    return name


def load_authorized_keys(path: Path) -> asyncssh.SSHAuthorizedKeys:
    """The keys in an ``authorized_keys`` file; :class:`AccessError` saying what is wrong."""
    try:
        return asyncssh.read_authorized_keys(str(path))
    except OSError as error:
        raise AccessError(f"cannot read the SSH keys file {path}: {error.strerror}") from None
    except (ValueError, asyncssh.KeyImportError) as error:
        raise AccessError(f"the SSH keys file {path} holds no usable key: {error}") from None


@dataclass(frozen=True)
class Access:
    """How players prove who they are; open when neither a password nor keys are set.

    Open access still takes a key when the player's ``ssh`` offers one (any
    key): its fingerprint keeps that player's folder apart from anyone else
    typing the same name (:func:`player_folder`).
    """

    password: str | None = None
    keys: asyncssh.SSHAuthorizedKeys | None = None

    @property
    def open(self) -> bool:
        return self.password is None and self.keys is None

    def key_allowed(self, key: asyncssh.SSHKey, peer: str = "") -> bool:
        """Whether ``key`` lets a player in (any key when open)."""
        if self.keys is not None:
            return self.keys.validate(key, peer, peer) is not None
        return self.open

    def password_ok(self, given: str) -> bool:
        """Whether ``given`` is the password (anything when open; compared in constant time)."""
        if self.password is None:
            return self.open
        return hmac.compare_digest(given.encode(), self.password.encode())

    def describe(self) -> str:
        """For the host's log: how players get in."""
        if self.open:
            return "open to any user name, no password"
        ways = []
        if self.password is not None:
            ways.append("the password")
        if self.keys is not None:
            ways.append("an authorized key")
        return " or ".join(ways) + " needed"


class SessionBudget:
    """At most ``limit`` sessions at once: :meth:`take` says whether one more fits."""

    def __init__(self, limit: int = MAX_SSH_SESSIONS) -> None:
        if limit < 1:
            raise ValueError(f"the SSH session budget is at least 1, not {limit}")
        self.limit = limit
        self.used = 0

    def take(self) -> bool:
        if self.used >= self.limit:
            return False
        self.used += 1
        return True

    def give_back(self) -> None:
        self.used = max(0, self.used - 1)

    @property
    def connection_limit(self) -> int:
        """SSH connections at once (sessions, plus some logging in or being refused)."""
        return self.limit + CONNECTION_SLACK


def player_folder(root: Path, name: str, fingerprint: str | None) -> Path:
    """The folder of the player ``name`` who authenticated with key ``fingerprint`` (if any).

    The folder name starts with the name's letters and digits (for a person
    looking at the disk) and ends with a digest of the name and the key's
    fingerprint, so names differing only in punctuation, and the same name
    with another key or with none, never share a folder.
    """
    identity = f"{name}\0{fingerprint or ''}".encode()
    digest = hashlib.sha256(identity).hexdigest()[:16]
    slug = _SLUG_UNSAFE.sub("", name)[:NAME_MAX] or "player"
    return root / PLAYERS_FOLDER / f"{slug}-{digest}"

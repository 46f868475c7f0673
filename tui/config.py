"""The player's settings (their name, the key hosts know them by, the bell), kept between
runs.

Stored as JSON in the platform's config directory
(``platformdirs.user_config_dir("clowder")``); the ``CLOWDER_CONFIG_DIR``
environment variable points it elsewhere, which tests use so they never touch
the real one. A missing or unreadable file is the same as no settings: the
name is simply asked again.

A player key is a random secret made once per name played under and sent
in ``hello.player``: a host keeps only a hash of it, so its scoreboard knows
the same player across games and after a rename in the lobby (the key goes
with the name). The file is private (0600).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from net.wire.text import describe, stand_in_name, unsafe_char

CONFIG_DIR_ENV = "CLOWDER_CONFIG_DIR"
CONFIG_FILE = "config.json"
NAME_MAX = 32
"""The protocol's limit on a player's name (``hello.name``)."""


PLAYER_KEY_BYTES = 18
_KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,128}")
"""A player key as :func:`new_player_key` makes them (and the protocol's ``Token`` bound)."""


def new_player_key() -> str:
    """A fresh player key: random, URL-safe, never shown."""
    import secrets  # hashlib and hmac: not before the lobby is drawn

    return secrets.token_urlsafe(PLAYER_KEY_BYTES)


class BadName(ValueError):
    """A name that cannot be used; the message says why."""


def config_dir() -> Path:
    """Where the settings live: ``$CLOWDER_CONFIG_DIR`` or the platform's config dir."""
    override = os.environ.get(CONFIG_DIR_ENV)
    if override:
        return Path(override)
    from platformdirs import user_config_dir

    return Path(user_config_dir("clowder"))


def clean_name(text: str) -> str:
    """``text`` as a player name (trimmed, one line, 1-32 characters, not a word such as
    "you" that stands in for a name) or :class:`BadName`."""
    name = tidy_name(text)
    if stand_in_name(name):  # the others would read "you took V", or an invitation's NAME
        raise BadName(f'"{name}" reads as a word, not a name, to the others: type your own name')
    return name


def tidy_name(text: str) -> str:
    """``text`` as a name a host takes (trimmed, one line, 1-32 characters) or
    :class:`BadName`; :func:`clean_name` also refuses a stand-in word."""
    name = " ".join(text.split())
    if not name:
        raise BadName("A name needs at least one letter")
    if len(name) > NAME_MAX:
        raise BadName(f"A name has at most {NAME_MAX} characters")
    unsafe = unsafe_char(name)
    if unsafe is not None:  # a host would refuse the hello; say so here, before connecting
        raise BadName(f"A name cannot hold {describe(unsafe)}")
    return name


MAX_KEYS = 50
"""Names with a player key kept (the newest): a file that never grows without end."""


@dataclass
class Settings:
    """What is remembered: the player's name (``None`` until asked) and a player key per
    name this user plays under (two terminals as Ann and Bea are two players)."""

    name: str | None = None
    player_keys: dict[str, str] = field(default_factory=dict)
    bell: bool = True
    """Tables ring the terminal's bell when it is the player's turn or a card or letter is
    turned (:mod:`tui.bell`); the lobby's ``b`` turns it off."""

    @classmethod
    def load(cls, directory: Path | None = None) -> Settings:
        path = (directory or config_dir()) / CONFIG_FILE
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        settings = cls()
        with contextlib.suppress(BadName):  # a bad name is asked again
            name = data.get("name")
            settings.name = clean_name(name) if isinstance(name, str) else None
        bell = data.get("bell")
        settings.bell = bell if isinstance(bell, bool) else True
        keys = data.get("player_keys")
        for name, key in keys.items() if isinstance(keys, dict) else ():
            if isinstance(name, str) and isinstance(key, str) and _KEY_SHAPE.fullmatch(key):
                with contextlib.suppress(BadName):  # a stand-in's key still goes with a rename
                    settings.player_keys[tidy_name(name)] = key
        return settings

    def key_for(self, name: str) -> tuple[str, bool]:
        """``name``'s player key, and whether it was just made (then the settings want
        saving)."""
        key = self.player_keys.get(name)
        if key is not None:
            return key, False
        key = self.player_keys[name] = new_player_key()
        for oldest in list(self.player_keys)[: max(0, len(self.player_keys) - MAX_KEYS)]:
            del self.player_keys[oldest]
        return key, True

    def rename(self, old: str, new: str) -> None:
        """A rename: ``old``'s key is ``new``'s from now on. A name that already has a key
        keeps it (it is someone this user already played as), and so does ``old`` then."""
        if old != new and old in self.player_keys and new not in self.player_keys:
            self.player_keys[new] = self.player_keys.pop(old)

    def save(self, directory: Path | None = None) -> Path:
        """Write the settings, readable by this user only, replacing the file at once (a
        crash mid-write leaves the old one: the keys are never lost)."""
        folder = directory or config_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / CONFIG_FILE
        data = {"name": self.name, "player_keys": self.player_keys, "bell": self.bell}
        handle, temporary = tempfile.mkstemp(prefix=".config-", dir=folder)  # made 0600
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(json.dumps(data, indent=2) + "\n")
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        return path

"""The player's settings (their name, and the key hosts know them by), kept between runs.

Stored as JSON in the platform's config directory
(``platformdirs.user_config_dir("clowder")``); the ``CLOWDER_CONFIG_DIR``
environment variable points it elsewhere, which tests use so they never touch
the real one. A missing or unreadable file is the same as no settings: the
name is simply asked again.

The player key is a random secret made once per player (``hello.player``):
a host keeps only a hash of it, so its scoreboard knows the same player
across games and after a change of name. The file is private (0600).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from net.text import describe, unsafe_char

CONFIG_DIR_ENV = "CLOWDER_CONFIG_DIR"
CONFIG_FILE = "config.json"
NAME_MAX = 32
"""The protocol's limit on a player's name (``hello.name``)."""


PLAYER_KEY_BYTES = 18
_KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,128}")
"""A player key as :func:`new_player_key` makes them (and the protocol's ``Token`` bound)."""


def new_player_key() -> str:
    """A fresh player key: random, URL-safe, never shown."""
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
    """``text`` as a player name (trimmed, one line, 1-32 characters) or :class:`BadName`."""
    name = " ".join(text.split())
    if not name:
        raise BadName("A name needs at least one letter")
    if len(name) > NAME_MAX:
        raise BadName(f"A name has at most {NAME_MAX} characters")
    unsafe = unsafe_char(name)
    if unsafe is not None:  # a host would refuse the hello; say so here, before connecting
        raise BadName(f"A name cannot hold {describe(unsafe)}")
    return name


@dataclass
class Settings:
    """What is remembered: the player's name (``None`` until asked) and player key."""

    name: str | None = None
    player_key: str | None = None

    @classmethod
    def load(cls, directory: Path | None = None) -> Settings:
        path = (directory or config_dir()) / CONFIG_FILE
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        name, key = data.get("name"), data.get("player_key")
        settings = cls()
        if isinstance(key, str) and _KEY_SHAPE.fullmatch(key):
            settings.player_key = key
        with contextlib.suppress(BadName):  # a bad name is asked again
            settings.name = clean_name(name) if isinstance(name, str) else None
        return settings

    def save(self, directory: Path | None = None) -> Path:
        """Write the settings (readable by this user only); returns the file written."""
        folder = directory or config_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / CONFIG_FILE
        text = json.dumps({"name": self.name, "player_key": self.player_key}, indent=2) + "\n"
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(path, 0o600)  # a file made before keys were kept may be wider
        return path

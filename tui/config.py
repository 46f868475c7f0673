"""The player's settings (for now, their name), kept between runs.

Stored as JSON in the platform's config directory
(``platformdirs.user_config_dir("clowder")``); the ``CLOWDER_CONFIG_DIR``
environment variable points it elsewhere, which tests use so they never touch
the real one. A missing or unreadable file is the same as no settings: the
name is simply asked again.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CONFIG_DIR_ENV = "CLOWDER_CONFIG_DIR"
CONFIG_FILE = "config.json"
NAME_MAX = 32
"""The protocol's limit on a player's name (``hello.name``)."""


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
    return name


@dataclass
class Settings:
    """What is remembered: the player's name (``None`` until asked)."""

    name: str | None = None

    @classmethod
    def load(cls, directory: Path | None = None) -> Settings:
        path = (directory or config_dir()) / CONFIG_FILE
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        name = data.get("name") if isinstance(data, dict) else None
        try:
            return cls(name=clean_name(name) if isinstance(name, str) else None)
        except BadName:
            return cls()

    def save(self, directory: Path | None = None) -> Path:
        """Write the settings; returns the file written."""
        folder = directory or config_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / CONFIG_FILE
        path.write_text(json.dumps({"name": self.name}, indent=2) + "\n", encoding="utf-8")
        return path

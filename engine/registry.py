"""The games by name: ``get("catchy")`` returns the game object, ``names()`` lists them.

Nothing here lists the games. Every package in :mod:`engine.games` whose
``__init__`` exports ``GAME`` (a :class:`~engine.core.Game`) is a game,
registered under ``GAME.name``; adding a game is adding its package. The
packages are scanned once, on first use; the scan imports each one, which is
cheap because a game loads its heavy data (a dictionary, category lists)
lazily.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import engine.games
from engine.core import Game

_GAMES: dict[str, Game[Any]] = {}
"""name -> game object, filled by :func:`_scan` (tests may add a game of their own)."""

_scanned = False


class UnknownGame(KeyError):
    """A game name that is not registered; the message lists the ones that are."""

    def __str__(self) -> str:
        return str(self.args[0])


def _scan() -> dict[str, Game[Any]]:
    """Find every game module once; games are ordered by title, as people look for them."""
    global _scanned  # noqa: PLW0603 - the registry is a process-wide cache by design
    if not _scanned:
        found: dict[str, Game[Any]] = {}
        for module in pkgutil.iter_modules(engine.games.__path__):
            if not module.ispkg or module.name.startswith("_"):
                continue
            game = getattr(importlib.import_module(f"engine.games.{module.name}"), "GAME", None)
            if isinstance(game, Game):
                found[game.name] = game
        for game in sorted(found.values(), key=lambda game: game.title.lower()):
            _GAMES.setdefault(game.name, game)
        _scanned = True
    return _GAMES


def names() -> list[str]:
    """The registered game names, in a stable order (by title)."""
    return list(_scan())


def get(name: str) -> Game[Any]:
    """The game object registered as ``name``."""
    game = _scan().get(name)
    if game is None:
        known = ", ".join(_GAMES)
        raise UnknownGame(f"There is no game called {name!r} (games: {known})")
    return game


def register(game: Game[Any]) -> None:
    """Add a game that lives outside the package (tests' toy game); :func:`unregister` undoes it."""
    _scan()[game.name] = game


def unregister(name: str) -> None:
    """Remove a game added with :func:`register`."""
    _scan().pop(name, None)

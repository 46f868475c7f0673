"""The games by name: ``get("catchy")`` returns the game object, ``names()`` lists them.

Games are imported lazily so that loading one does not load all five.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.core import Game

# name -> "module:attribute" of the game object.
_GAMES: dict[str, str] = {
    "catchy": "engine.catchy:GAME",
    "blackcat": "engine.blackcat:GAME",
}


class UnknownGame(KeyError):
    """A game name that is not registered; the message lists the ones that are."""

    def __str__(self) -> str:
        return str(self.args[0])


def names() -> list[str]:
    """The registered game names, in a stable order."""
    return list(_GAMES)


def get(name: str) -> Game[Any]:
    """The game object registered as ``name``."""
    target = _GAMES.get(name)
    if target is None:
        known = ", ".join(_GAMES)
        raise UnknownGame(f"There is no game called {name!r} (games: {known})")
    module_name, attribute = target.split(":")
    game: Game[Any] = getattr(importlib.import_module(module_name), attribute)
    return game

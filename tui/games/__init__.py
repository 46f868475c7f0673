"""Each game's table screen, by the engine's game name.

A game without a screen here can still be listed and created in the lobby;
joining it says that this client cannot show it yet.
"""

from __future__ import annotations

import importlib

from tui.screens.table import TableScreen

_SCREENS: dict[str, str] = {
    "catchy": "tui.games.catchy:CatchyTable",
    "blackcat": "tui.games.blackcat:BlackCatTable",
}


class NoScreen(LookupError):
    """This client has no table screen for a game."""


def has_screen(game: str) -> bool:
    return game in _SCREENS


def screen_class(game: str) -> type[TableScreen]:
    """The :class:`TableScreen` subclass that draws ``game``."""
    target = _SCREENS.get(game)
    if target is None:
        raise NoScreen(
            f"This Clowder cannot show {game!r} tables yet (it shows: {', '.join(_SCREENS)})"
        )
    module_name, attribute = target.split(":")
    screen: type[TableScreen] = getattr(importlib.import_module(module_name), attribute)
    return screen

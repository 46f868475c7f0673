"""Each game's table screen, found by the engine's game name.

Nothing here lists the games. Each game's screen is the
:class:`~tui.screens.table.TableScreen` subclass with its own ``game``
(``game = "catchy"``) in ``tui/games/<game>/screen.py``, beside its
stylesheet; adding a screen is adding that folder. The package is scanned
once, on first use, as :mod:`engine.registry` scans ``engine/games/``.

A registered game without a screen of its own is drawn by the generic table
(:mod:`tui.screens.generic`): its view's fields and its legal actions as a
menu, so a new game can be played before its screen is polished. Only a game
this Clowder's engine does not know (a newer host's) cannot be shown.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from typing import Any, TypeVar

from engine import registry
from tui.coach import Coach
from tui.screens.table import TableScreen

T = TypeVar("T")

_SCREENS: dict[str, type[TableScreen[Any]]] = {}
"""game name -> its own screen, filled by :func:`_scan`."""

_scanned = False


class NoScreen(LookupError):
    """This client cannot show a game's tables (its engine does not know the game)."""


def _game_classes(module_name: str, base: type[T]) -> Iterator[type[T]]:
    """Each game folder's ``base`` subclasses that name their own ``game``, from the folder's
    module ``module_name`` (``screen``, ``coach``); a folder without that module has none."""
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg or info.name.startswith("_"):
            continue
        full = f"{__name__}.{info.name}.{module_name}"
        try:
            module = importlib.import_module(full)
        except ModuleNotFoundError as error:
            if error.name != full:
                raise
            continue  # a folder without one (yet): the generic table, or coach, serves it
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, base)
                and value.__module__ == module.__name__
                and vars(value).get("game")
            ):
                yield value


def _scan() -> dict[str, type[TableScreen[Any]]]:
    global _scanned  # noqa: PLW0603 - a process-wide cache, like engine.registry's
    if not _scanned:
        for screen in _game_classes("screen", TableScreen):
            other = _SCREENS.setdefault(screen.game, screen)
            if other is not screen:
                raise TypeError(
                    f"Two screens for {screen.game!r}: {other.__qualname__} "
                    f"and {screen.__qualname__}"
                )
        _scanned = True
    return _SCREENS


def own_screens() -> dict[str, type[TableScreen[Any]]]:
    """The games that have a screen of their own, and those screens."""
    return dict(_scan())


def has_screen(game: str) -> bool:
    """Whether this Clowder can show ``game``'s tables (its own screen or the generic table)."""
    return game in _scan() or game in registry.names()


def screen_class(game: str) -> type[TableScreen[Any]]:
    """The :class:`TableScreen` subclass that draws ``game`` (the generic table if it has none)."""
    screen = _scan().get(game)
    if screen is not None:
        return screen
    if game not in registry.names():
        known = ", ".join(registry.names())
        raise NoScreen(f"This Clowder does not know {game!r} tables (it knows: {known})")
    from tui.screens.generic import generic_table

    return generic_table(game)


_COACHES: dict[str, type[Coach[Any]]] = {}
"""game name -> its own coach, filled by :func:`coach_class` on first use."""


def own_coaches() -> dict[str, type[Coach[Any]]]:
    """The games that have a coach of their own (``tui/games/<game>/coach.py``), and those
    coaches: a :class:`~tui.coach.Coach` subclass naming its ``game``."""
    if not _COACHES:
        _COACHES.update((coach.game, coach) for coach in _game_classes("coach", Coach))
    return dict(_COACHES)


def coach_class(game: str) -> type[Coach[Any]]:
    """The coach of ``game``'s first game: its own, else the plain one that reads out the
    legal actions (:class:`~tui.coach.Coach`). ``game`` must be one the engine knows."""
    if game not in registry.names():
        raise NoScreen(f"This Clowder does not know {game!r} tables")
    return own_coaches().get(game, Coach)

"""The toy game (``tests/sixth/engine/games/toy/``) and how a test registers it.

The toy is laid out as a sixth game would be (see :mod:`tests.sixth`); most
tests use it under its tests' name, registered for their own duration with
:func:`registered`, and import its names from here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from engine import registry
from tests.sixth.engine.games.toy.rules import (
    CARDS,
    COOLDOWN,
    GAME,
    TARGET,
    ToyGame,
    ToyState,
    ToyView,
)

__all__ = ["CARDS", "COOLDOWN", "GAME", "TARGET", "ToyGame", "ToyState", "ToyView", "registered"]


@contextmanager
def registered() -> Iterator[ToyGame]:
    """Make ``"toy"`` a registered game for the duration of a ``with`` block."""
    registry.register(GAME)
    try:
        yield GAME
    finally:
        registry.unregister(GAME.name)

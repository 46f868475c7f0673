"""Bots: players that see exactly what a seat sees and nothing more.

A bot is given ``view(state, seat)`` (which carries that seat's legal actions
under ``"legal"``) and returns one of those actions. It never receives the
state, so it cannot cheat. Bots own a seeded :class:`~engine.core.Rng`, so a
selfplay run is reproducible from its seed.

A game declares its bots itself (:attr:`engine.core.Game.bots`); nothing
here lists them. ``"random"`` (uniform over the legal actions) exists for
every game and is the baseline others are measured against.

Levels: every game declares three bots named after :data:`LEVELS`
(``"easy"``, ``"normal"``, ``"hard"``), each a different strategy rather
than one strategy with noise, so a person can pick an opponent of their
strength and the ladder (``python -m tests.perf ladder``) can show each
level beats the one below. A level is an ordinary bot name: ``make_bot(game,
"hard", seed)``. ``"normal"`` comes first in a game's ``bots`` so it stays
the default; older names may stay as aliases.

Real-time games: a bot does not sleep. After each choice it says how long a
person would have taken (:attr:`Bot.reaction_s`), and the host (or the
network bot) submits the claim that much later, stamped like a player's.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol

from engine import registry
from engine.core import Game, Rng

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
"""The bot levels every game declares, weakest first (also the order :func:`bot_levels` keeps)."""

DEFAULT_LEVEL = "normal"
"""The level a table's bots play at unless told otherwise."""

DEFAULT_REACTION_S = 0.8
"""A typical human choice-reaction time for "see it, judge it, act": what a
bot's :attr:`Bot.reaction_s` is near, and what ``--bot-reaction`` scales."""


class Bot(Protocol):
    """Chooses an action from a seat's view."""

    reaction_s: float
    """Real-time games: how long a person would have taken to make the last
    choice, in seconds; the claim is submitted that much after the reveal."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """One of ``view["legal"]``, or ``None`` to wait (nothing to do now)."""
        ...


class RandomBot:
    """Plays a uniformly random legal action: the baseline opponent."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.reaction_s = DEFAULT_REACTION_S

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal: list[dict[str, Any]] = view.get("legal") or []
        if not legal:
            return None
        choice: dict[str, Any] = self.rng.choice(legal)
        return choice


BotFactory = Callable[[Rng], Bot]


GameRef = str | Game[Any]
"""A game by registered name, or the game object itself (a game under test needs no name)."""


def _declared(game: GameRef) -> dict[str, str]:
    """``game``'s own bots, ``name -> "module:factory"``, as its engine module declares them."""
    return dict((registry.get(game) if isinstance(game, str) else game).bots)


def bot_names(game: GameRef) -> list[str]:
    """The bots available for ``game`` (its default first, ``random`` last)."""
    return [*_declared(game), "random"]


def bot_levels(game: GameRef) -> list[str]:
    """The :data:`LEVELS` ``game`` declares, weakest first (all three for every shipped game)."""
    declared = _declared(game)
    return [level for level in LEVELS if level in declared]


def default_bot(game: GameRef) -> str:
    """The bot a table gets unless told otherwise: ``"normal"`` when declared, else the first."""
    names = bot_names(game)
    return DEFAULT_LEVEL if DEFAULT_LEVEL in names else names[0]


def check_level(game: GameRef, level: str) -> str:
    """``level`` if ``game`` declares it; otherwise a :class:`ValueError` listing the levels.

    Shared by the command line, the host's ``create_table`` and the create dialog, so
    a typo reads the same everywhere.
    """
    levels = bot_levels(game)
    if level not in levels:
        title = game if isinstance(game, str) else game.name
        known = ", ".join(levels) or "none"
        raise ValueError(f"There is no bot level {level!r} for {title} (levels: {known})")
    return level


def make_bot(game: GameRef, name: str, seed: int) -> Bot:
    """A new bot ``name`` for ``game`` with its own generator seeded by ``seed``."""
    rng = Rng.from_seed(seed)
    if name == "random":
        return RandomBot(rng)
    target = _declared(game).get(name)
    if target is None:
        known = ", ".join(bot_names(game))
        title = game if isinstance(game, str) else game.name
        raise ValueError(f"There is no bot {name!r} for {title} (bots: {known})")
    module_name, attribute = target.split(":")
    factory: BotFactory = getattr(importlib.import_module(module_name), attribute)
    return factory(rng)

"""Bots: players that see exactly what a seat sees and nothing more.

A bot is given ``view(state, seat)`` (which carries that seat's legal actions
under ``"legal"``) and returns one of those actions. It never receives the
state, so it cannot cheat. Bots own a seeded :class:`~engine.core.Rng`, so a
selfplay run is reproducible from its seed.

A game declares its bots itself (:attr:`engine.core.Game.bots`); nothing
here lists them. ``"random"`` (uniform over the legal actions) exists for
every game and is the baseline others are measured against.

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


def default_bot(game: GameRef) -> str:
    """The strongest bot for ``game``."""
    return bot_names(game)[0]


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

"""Bots: players that see exactly what a seat sees and nothing more.

A bot is given ``view(state, seat)`` (which carries that seat's legal actions
under ``"legal"``) and returns one of those actions. It never receives the
state, so it cannot cheat. Bots own a seeded :class:`~engine.core.Rng`, so a
selfplay run is reproducible from its seed.

Bots are registered per game by name; ``"random"`` (uniform over the legal
actions) exists for every game and is the baseline others are measured against.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol

from engine.core import Rng


class Bot(Protocol):
    """Chooses an action from a seat's view."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """One of ``view["legal"]``, or ``None`` to wait (nothing to do now)."""
        ...


class RandomBot:
    """Plays a uniformly random legal action: the baseline opponent."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal: list[dict[str, Any]] = view.get("legal") or []
        if not legal:
            return None
        choice: dict[str, Any] = self.rng.choice(legal)
        return choice


BotFactory = Callable[[Rng], Bot]

# game -> {bot name -> "module:factory"}; the first entry is the game's default bot.
_BOTS: dict[str, dict[str, str]] = {
    "catchy": {"catchy": "engine.bots.catchy:CatchyBot"},
    "blackcat": {"blackcat": "engine.bots.blackcat:BlackCatBot"},
}


def bot_names(game: str) -> list[str]:
    """The bots available for ``game`` (its default first, ``random`` last)."""
    return [*_BOTS.get(game, {}), "random"]


def default_bot(game: str) -> str:
    """The strongest bot for ``game``."""
    return bot_names(game)[0]


def make_bot(game: str, name: str, seed: int) -> Bot:
    """A new bot ``name`` for ``game`` with its own generator seeded by ``seed``."""
    rng = Rng.from_seed(seed)
    if name == "random":
        return RandomBot(rng)
    target = _BOTS.get(game, {}).get(name)
    if target is None:
        known = ", ".join(bot_names(game))
        raise ValueError(f"There is no bot {name!r} for {game} (bots: {known})")
    module_name, attribute = target.split(":")
    factory: BotFactory = getattr(importlib.import_module(module_name), attribute)
    return factory(rng)

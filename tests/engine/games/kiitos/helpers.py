"""Helpers to stage Kiitos positions from an explicit deck."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.core import Event, clone
from engine.games.kiitos.rules import GAME, KiitosState
from engine.games.kiitos.table import full_deck

NAMES = ["Ann", "Bea", "Cy", "Dot"]


def order(hands: list[str], top: str = "") -> list[str]:
    """A full deck order: each hand (8 letters, seat order), then ``top``, then the rest."""
    used = [*"".join(hands), *top]
    rest = Counter(full_deck())
    rest.subtract(used)
    assert min(rest.values()) >= 0, f"more cards than the deck holds: {rest}"
    tail = [letter for letter in dict.fromkeys(full_deck()) for _ in range(rest[letter])]
    return [*used, *tail]


def new(hands: list[str], top: str = "", *, first: int = 0, **options: Any) -> KiitosState:
    """A round-1 state with these hands (8 letters each), ``top`` on top of the deck."""
    assert all(len(hand) == 8 for hand in hands)
    players = NAMES[: len(hands)]
    return GAME.new_game(players, 1, {"deck": order(hands, top), "first": first, **options})


def at(state: KiitosState, **fields: Any) -> KiitosState:
    """A copy of ``state`` with some fields set (to stage a position)."""
    staged = clone(state)
    for name, value in fields.items():
        setattr(staged, name, value)
    return staged


def act(state: KiitosState, seat: int, /, **action: Any) -> tuple[KiitosState, list[Event]]:
    return GAME.apply(state, seat, action, 0.0)


def lead(state: KiitosState, seat: int, word: str, letter: str | None = None) -> KiitosState:
    return act(state, seat, type="lead", word=word, letter=letter or word[0].upper())[0]


def play(state: KiitosState, seat: int, letter: str, side: str = "end") -> KiitosState:
    return act(state, seat, type="play", letter=letter, side=side)[0]


def say(state: KiitosState, seat: int, letter: str, word: str, side: str = "end") -> KiitosState:
    return act(state, seat, type="say", letter=letter, word=word, side=side)[0]


def pickup(state: KiitosState, seat: int) -> KiitosState:
    return act(state, seat, type="pickup")[0]


def challenge(state: KiitosState, seat: int) -> KiitosState:
    return act(state, seat, type="challenge", reveal=state.reveal_id)[0]


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]

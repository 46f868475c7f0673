"""Helpers to stage Kitten Me! positions from an explicit deck."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.core import Event, clone
from engine.games.kitten.cards import deck
from engine.games.kitten.rules import GAME, KittenState

NAMES = ["Ann", "Bea", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]

NO_HATS = ["bowtie-red-1", "bowtie-green-1", "glasses-blue-1", "glasses-red-1", "bowtie-blue-1"]
"""Five base-deck cards showing no hat (two seats may both hold them)."""


def order(
    hands: list[list[str]], flip: str, deck_set: str = "base", top: Sequence[str] = ()
) -> list[str]:
    """A full deck order: the hands in seat order, then ``top`` and ``flip``, then the rest."""
    used = [*(card for hand in hands for card in hand), *top, flip]
    rest = Counter(deck(deck_set))
    rest.subtract(used)
    assert min(rest.values()) >= 0, f"more cards than the deck holds: {rest}"
    tail = [card for card in dict.fromkeys(deck(deck_set)) for _ in range(rest[card])]
    return [*(card for hand in hands for card in hand), *top, flip, *tail]


def new(
    hands: list[list[str]],
    flip: str,
    *,
    dealer: int = 0,
    deck_set: str = "base",
    top: Sequence[str] = (),
    **options: Any,
) -> KittenState:
    """A round-1 state with these hands (each the deal size), ``flip`` on top of the deck
    (under ``top``, which Draw 3 takes first), and ``dealer`` dealing."""
    players = NAMES[: len(hands)]
    cards = order(hands, flip, deck_set, top)
    state = GAME.new_game(players, 1, {"deck": cards, "deck_set": deck_set, **options})
    return at(state, dealer=dealer, turn=dealer)


def at(state: KittenState, **fields: Any) -> KittenState:
    """A copy of ``state`` with some fields set (to stage a position)."""
    staged = clone(state)
    for name, value in fields.items():
        setattr(staged, name, value)
    return staged


def act(state: KittenState, seat: int, **action: Any) -> tuple[KittenState, list[Event]]:
    return GAME.apply(state, seat, action, 0.0)


def bid(state: KittenState, seat: int, count: int, thing: str) -> KittenState:
    return act(state, seat, type="bid", count=count, thing=thing)[0]


def call(state: KittenState, seat: int, kind: str = "challenge") -> KittenState:
    return act(state, seat, type=kind)[0]


def play(state: KittenState, seat: int, card: str, **more: Any) -> KittenState:
    return act(state, seat, type="play", card=card, **more)[0]

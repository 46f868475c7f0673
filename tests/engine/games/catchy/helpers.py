"""Helpers to set up Catchy! positions from an explicit deck."""

from __future__ import annotations

from typing import Any

from engine.core import Event
from engine.games.catchy.rules import ALL_CARDS, GAME, CatchyState

PLAYERS = ["Ann", "Bea"]


def deck(course: list[str], hand0: list[str], hand1: list[str] | None = None) -> list[str]:
    """A full 17-card order: ``course``, seat 0's hand, then seat 1's (filled in if omitted)."""
    used = [*course, *hand0, *(hand1 or [])]
    rest = [card for card in ALL_CARDS if card not in used]
    if hand1 is None:
        hand1, rest = rest[:7], rest[7:]
    order = [*course, *hand0, *hand1, *rest]
    assert sorted(order) == sorted(ALL_CARDS), order
    return order


def new(
    course: list[str], hand0: list[str], hand1: list[str] | None = None, **options: Any
) -> CatchyState:
    return GAME.new_game(PLAYERS, 1, {"deck": deck(course, hand0, hand1), **options})


def act(state: CatchyState, seat: int, **action: Any) -> tuple[CatchyState, list[Event]]:
    """Apply ``action``, then fire the timers it made due, as the host does (the next deal)."""
    state, events = GAME.apply(state, seat, action, 0.0)
    state, later = GAME.tick(state, 0.0)
    return state, events + later


def play(state: CatchyState, seat: int, card: str) -> CatchyState:
    return act(state, seat, type="play", card=card)[0]


def ready(
    hand0: list[str], hand1: list[str], course: list[str] | None = None, **options: Any
) -> CatchyState:
    """A round-1 state in the play phase: seat 0 held ``ST`` and swapped it for course card 0.

    ``hand0`` is seat 0's hand *after* the swap (6 cards dealt + the taken course card,
    which is ``hand0[0]``).
    """
    course = course or [hand0[0], *[c for c in ALL_CARDS if c not in (*hand0, *hand1, "ST")][:2]]
    assert course[0] == hand0[0]
    state = new(course, ["ST", *hand0[1:]], hand1, **options)
    return act(state, 0, type="swap", course=0)[0]

"""Helpers for Katootsie! tests: tables with chosen letters and categories, and a clock."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event
from engine.games.katootsie import answers
from engine.games.katootsie.rules import FULL_LETTERS, GAME, KatootsieState

NAMES = ["Ann", "Bea", "Cy", "Dot", "Eve"]


def code(title: str) -> str:
    """The category code of a title ("Fruits" -> "c001")."""
    return next(category.code for category in answers.categories() if category.title == title)


def letters(first: str) -> list[str]:
    """A whole letter pile whose top letters are ``first`` (the rest in alphabetical order)."""
    left = Counter(FULL_LETTERS)
    for letter in first:
        left[letter] -= 1
        assert left[letter] >= 0, f"more than two {letter}"
    return [*first, *sorted(left.elements())]


@dataclass
class Table:
    """A game, its clock and every event so far."""

    state: KatootsieState
    now: float = 0.0
    events: list[Event] = field(default_factory=list)

    def tick(self) -> list[Event]:
        """Jump to the next timer and fire it."""
        deadline = GAME.deadline(self.state)
        assert deadline is not None
        self.now = max(self.now, deadline)
        self.state, events = GAME.tick(self.state, self.now)
        self.events += events
        return events

    def to_letter(self) -> str:
        """Fire timers until a letter is open; returns it."""
        while self.state.phase != "letter":
            self.tick()
        assert self.state.letter is not None
        return self.state.letter

    def act(self, seat: int, action: dict[str, Any], after: float = 0.5) -> list[Event]:
        self.now += after
        self.state, events = GAME.apply(self.state, seat, action, self.now)
        self.events += events
        return events

    def answer(self, seat: int, text: str, after: float = 0.5) -> list[Event]:
        moment = GAME.reveal(self.state)
        return self.act(seat, {"type": "answer", "reveal": moment, "text": text}, after)

    def call(self, seat: int, after: float = 0.5) -> list[Event]:
        return self.act(seat, {"type": "katootsie", "reveal": GAME.reveal(self.state)}, after)

    def vote(self, seat: int, accept: bool) -> list[Event]:
        return self.act(seat, {"type": "vote", "accept": accept}, 0.1)

    def kinds(self) -> list[str]:
        return [event.kind for event in self.events]

    def view(self, seat: int | None = 0) -> dict[str, Any]:
        return GAME.view(self.state, seat)


def table(
    players: int = 3, first: str = "BB", categories: tuple[str, ...] = ("Fruits",), **options: Any
) -> Table:
    """A new game whose letters start with ``first`` and categories with ``categories``."""
    chosen = {"deck": letters(first), "categories": [code(title) for title in categories]}
    state = GAME.new_game(NAMES[:players], 1, {**chosen, **options})
    return Table(state)

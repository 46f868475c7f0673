"""Toy: a tiny game for testing the generic machinery (selfplay, CLI, host, benchmarks).

It is laid out as a sixth game would be (``engine/games/toy/``, see
``tests/sixth/__init__.py``) but kept in tests and never shipped: tests
register it for their own duration (``tests/toy_game.py``). Its modes
exercise each path of the selfplay driver:

``turns``    turn-based: seats add 1 or 2 to a running total; reaching 10 wins.
``together`` simultaneous: a card opens on a timer, every seat may grab it,
             the first grab scores; after 5 cards the highest score wins.
``tie``      the first action ends the game with every seat winning.
``nowinner`` the first action ends the game with nobody winning.
``stuck``    nobody may act and no timer is pending.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import (
    Action,
    BaseView,
    Event,
    Game,
    GameState,
    NotYourTurn,
    Option,
    Outcome,
    Rng,
    Seat,
    action_field,
    action_type,
    winners_by_score,
)

TARGET = 10
CARDS = 5
COOLDOWN = 2.0


@dataclass(slots=True)
class ToyState(GameState):
    mode: str = "turns"
    total: int = 0
    turn: int = 0
    scores: list[int] | None = None
    open_at: float | None = None
    is_open: bool = False
    cards_left: int = CARDS
    finished: bool = False
    no_winner: bool = False


class ToyView(BaseView):
    """A Toy view: the common keys and the running total."""

    total: int


class ToyGame(Game[ToyState]):
    """See the module docstring."""

    name = "toy"
    title = "Toy"
    min_players = 2
    max_players = 4
    state_type = ToyState
    view_type = ToyView
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option(
            "mode",
            "turns",
            "Which variant to play",
            kind=str,
            choices=("turns", "together", "tie", "nowinner", "stuck"),
        ),
    )

    def _setup(self, players: list[str], rng: Rng, options: dict[str, Any]) -> ToyState:
        state = ToyState(players, options, rng, mode=options["mode"])
        state.scores = [0] * len(players)
        state.turn = rng.below(len(players))
        if state.mode == "together":
            state.open_at = 1.0
        return state

    def deadline(self, state: ToyState) -> float | None:
        if state.mode == "together" and not state.is_open and not state.finished:
            return state.open_at
        return None

    def _tick(self, state: ToyState, now: float, events: list[Event]) -> None:
        state.is_open = True
        state.open_at = None
        state.record(events, "open", "A card is open")

    def legal_actions(self, state: ToyState, seat: Seat) -> list[dict[str, Any]]:
        if state.finished or state.mode == "stuck":
            return []
        if state.mode == "together":
            return [{"type": "grab"}] if state.is_open else []
        if seat != state.turn:
            return []
        return [{"type": "add", "n": 1}, {"type": "add", "n": 2}]

    def _apply(
        self, state: ToyState, seat: Seat, action: Action, now: float, events: list[Event]
    ) -> None:
        assert state.scores is not None
        if action not in self.legal_actions(state, seat):
            raise NotYourTurn(f"{state.name(seat)} may not {dict(action)!r} now")
        kind = action_type(action, ["add", "grab"])
        if state.mode in ("tie", "nowinner"):
            state.finished = True
            state.no_winner = state.mode == "nowinner"
        elif kind == "grab":
            state.scores[seat] += 1
            state.is_open = False
            state.cards_left -= 1
            state.open_at = now + COOLDOWN
            state.finished = state.cards_left == 0
        else:
            state.total += action_field(action, "n", int)
            if state.total >= TARGET:
                state.scores[seat] = 1
                state.finished = True
            state.turn = (seat + 1) % len(state.players)
        state.record(events, kind, f"{state.name(seat)} played {kind}")

    def phase(self, state: ToyState) -> str:
        return state.mode

    def scores(self, state: ToyState) -> list[int]:
        return list(state.scores or [])

    def hidden(self, state: ToyState, seat: Seat | None) -> dict[str, str]:
        return {}

    def _view(self, state: ToyState, seat: Seat | None) -> dict[str, Any]:
        return {"total": state.total}

    def outcome(self, state: ToyState) -> Outcome | None:
        if not state.finished:
            return None
        scores = tuple(state.scores or [])
        if state.no_winner:
            return Outcome(scores, ())
        return Outcome(scores, winners_by_score(scores))


GAME = ToyGame()

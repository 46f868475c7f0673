"""Events, the log, the outcome and the common view keys (engine/core/state.py)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from engine import registry
from engine.core import (
    LOG_VIEW_LIMIT,
    Event,
    GameState,
    Rng,
    quick_init,
    winners_by_score,
)


def test_events_are_visible_to_their_seats_only() -> None:
    public, private = Event("a", "all"), Event("b", "mine", {"card": "R1"}, (1,))
    assert public.visible_to(None) and public.visible_to(0)
    assert private.visible_to(1) and not private.visible_to(0) and not private.visible_to(None)
    assert private.to_data() == {"kind": "b", "text": "mine", "data": {"card": "R1"}}


def test_state_log_is_bounded_and_filtered_per_seat() -> None:
    state = GameState(players=["A", "B"], options={}, rng=Rng())
    events: list[Event] = []
    for index in range(250):
        state.record(events, "n", f"public {index}")
    state.record(events, "secret", "only B", [1])
    assert len(state.log) == 200 and len(events) == 251
    assert state.log_view(1)[-1] == "only B" and "only B" not in state.log_view(0)
    assert len(state.log_view(None)) == 40


@quick_init
@dataclass(frozen=True, slots=True)
class Quick:
    name: str
    count: int = 2
    tags: list[str] = field(default_factory=list)
    note: str | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Plain:
    name: str
    count: int = 2
    tags: list[str] = field(default_factory=list)
    note: str | None = field(default=None, kw_only=True)


def test_quick_init_takes_the_same_arguments_and_stays_frozen() -> None:
    for args, kwargs in [
        (("a",), {}),
        (("a", 5), {}),
        (("a", 5, ["x"]), {"note": "n"}),
        ((), {"name": "a", "tags": ["y"]}),
    ]:
        quick, plain = Quick(*args, **kwargs), Plain(*args, **kwargs)  # type: ignore[arg-type]
        assert dataclasses.astuple(quick) == dataclasses.astuple(plain)
    assert Quick("a").tags is not Quick("a").tags  # a fresh default each time
    with pytest.raises(dataclasses.FrozenInstanceError):
        Quick("a").name = "b"  # type: ignore[misc]
    with pytest.raises(TypeError):
        Quick("a", 1, [], "n")  # type: ignore[call-arg]  # note is keyword-only
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]


def test_log_view_is_the_newest_lines_the_seat_may_see() -> None:
    rng = Rng(11)
    for _ in range(200):
        state = GameState(players=["A", "B", "C"], options={}, rng=Rng())
        for index in range(rng.below(260)):
            share = rng.below(4)  # mostly public; now and then for one seat or two
            seats = None if share else [rng.below(3)] if rng.below(2) else [0, 2]
            state.record([], "n", f"line {index}", seats)
        for seat in (None, 0, 1, 2):
            every = [event.text for event in state.log if event.visible_to(seat)]
            assert state.log_view(seat) == every[-LOG_VIEW_LIMIT:]


def test_winners_by_score_shares_ties() -> None:
    assert winners_by_score([3, 7, 7]) == (1, 2)
    assert winners_by_score([9, 1]) == (0,)


def test_every_game_view_has_the_common_keys() -> None:
    """The keys net/PROTOCOL.md promises for every game's view."""
    for name in registry.names():
        game = registry.get(name)
        players = [f"P{i}" for i in range(game.min_players)]
        state = game.new_game(players, 1)
        for seat in [None, *range(len(players))]:
            view = game.view(state, seat)
            for key in ("game", "players", "seat", "phase", "legal", "log", "outcome"):
                assert key in view, (name, key)
            assert view["game"] == name and view["seat"] == seat

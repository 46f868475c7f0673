"""Copies of states: ``apply`` and ``tick`` never change a state once it was made.

:func:`engine.core.clone` copies a state by its fields' declared types and
shares what cannot change (strings, numbers, tuples, frozen dataclasses) and
the fields marked :data:`engine.core.SHARED` (replaced, never changed in
place). These tests play every registered game, with its own bots and with
random ones, and check that:

- no state along the way changes after it was made (a snapshot taken with
  :func:`engine.core.dump` when it was made still equals it at the end): so a
  field marked shared, or typed too loosely, is never changed in place;
- a copy shares no list, dict, set or non-frozen dataclass with its original,
  except the shared fields.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine import registry
from engine.bots import default_bot
from engine.core import SHARED, Event, Game, GameState, Rng, clone, dump, replay
from engine.selfplay import game_seed, player_names, run_game

SEED = 0xC0B1E5
GAMES = 2


def states_of(game: Game[Any], bots: list[str], seed: int) -> list[tuple[Any, Any]]:
    """Every state of one bot-against-bot game, in order, each with a snapshot
    (:func:`dump`, which builds new lists and dicts) taken as it was made."""
    playout = run_game(game, bots, seed, record=True)
    first = game.new_game(player_names(bots), seed)
    states = [(first, dump(first))]
    replay(
        game,
        player_names(bots),
        seed,
        None,
        playout.entries,
        on_step=lambda state, _events: states.append((state, dump(state))),
    )
    return states


def line_ups(game: Game[Any]) -> list[list[str]]:
    """The game's own bot at the smallest table, random bots at the smallest and largest."""
    small, large = game.min_players, game.max_players
    return [[default_bot(game)] * small, ["random"] * small, ["random"] * large]


def mutable(value: Any) -> bool:
    if type(value) in (list, dict, set):
        return True
    params = getattr(type(value), "__dataclass_params__", None)
    return params is not None and not params.frozen


def shared_parts(original: Any, copy: Any, path: str = "state") -> list[str]:
    """Where ``copy`` holds the very same changeable object as ``original`` (shared fields
    aside)."""
    found: list[str] = []
    if mutable(copy) and copy is original:
        found.append(path)
    if type(copy) is list or type(copy) is tuple:
        for index, (left, right) in enumerate(zip(original, copy, strict=True)):
            found += shared_parts(left, right, f"{path}[{index}]")
    elif type(copy) is dict:
        for key, right in copy.items():
            found += shared_parts(original[key], right, f"{path}[{key!r}]")
    elif mutable(copy):
        for spec in dataclasses.fields(copy):
            if not spec.metadata.get("clowder.shared"):
                name = spec.name
                found += shared_parts(
                    getattr(original, name), getattr(copy, name), f"{path}.{name}"
                )
    return found


@pytest.mark.parametrize("name", registry.names())
def test_no_state_changes_after_it_was_made(name: str) -> None:
    game = registry.get(name)
    for bots in line_ups(game):
        for index in range(GAMES):
            # Any later step that changed an older state in place shows here.
            states = states_of(game, bots, game_seed(SEED, index))
            for step, (state, snapshot) in enumerate(states):
                assert dump(state) == snapshot, f"{name} {bots} game {index}: state {step} changed"


@pytest.mark.parametrize("name", registry.names())
def test_a_copy_shares_nothing_changeable_but_the_shared_fields(name: str) -> None:
    game = registry.get(name)
    for bots in line_ups(game):
        for state, _ in states_of(game, bots, game_seed(SEED, 7))[::5]:
            copy = clone(state)
            assert copy == state and copy is not state
            assert shared_parts(state, copy) == [], name


@dataclass(slots=True)
class Inner:
    cards: list[str]


@dataclass(slots=True, kw_only=True)
class Loose(GameState):
    """Fields typed every way a state may type them."""

    piles: list[list[str]] = field(default_factory=list)
    inner: Inner | None = None
    many: list[Inner] = field(default_factory=list)
    table: dict[str, list[int]] = field(default_factory=dict)
    anything: Any = None
    either: list[str] | dict[str, list[str]] | None = None
    pair: tuple[list[str], ...] = ()
    fixed: tuple[int, str] = (0, "")
    summary: dict[str, Any] | None = field(default=None, metadata=SHARED)


def test_clone_copies_every_kind_of_field_to_the_depth_its_type_says() -> None:
    state = Loose(
        players=["A", "B"],
        options={"deck": [["R1"]]},
        rng=Rng(3),
        piles=[["R1"], []],
        inner=Inner(["G2"]),
        many=[Inner(["B1"])],
        table={"x": [1]},
        anything={"deep": [[1], {"er": [2]}]},
        either={"k": ["v"]},
        pair=(["a"], ["b"]),
        fixed=(1, "x"),
        summary={"course": ["R1"]},
    )
    state.record([], "kind", "text", [0], card="R1")
    copy = clone(state)
    assert copy == state
    assert shared_parts(state, copy) == []
    assert copy.summary is state.summary and copy.players is state.players
    assert copy.log[0] is state.log[0] and isinstance(copy.log[0], Event)
    assert copy.rng is not state.rng and copy.rng == state.rng

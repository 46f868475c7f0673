"""Copies and the plain-data form of states (engine/core/copying.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgpack

from engine.core import (
    GameState,
    Rng,
    clone,
    dump,
    load,
)


@dataclass(slots=True)
class Inner:
    cards: list[str]
    owner: int | None = None


@dataclass(slots=True, kw_only=True)
class Sample(GameState):
    piles: list[Inner]
    table: dict[str, list[int]] = field(default_factory=dict)
    pair: tuple[int, ...] = ()
    extra: Any = None


def sample() -> Sample:
    state = Sample(
        players=["A", "B"],
        options={"deck": None},
        rng=Rng(5),
        piles=[Inner(["R1"], 0), Inner([], None)],
        table={"x": [1, 2]},
        pair=(1, 2),
        extra={"free": [1]},
    )
    state.record([], "k", "text", [0], card="R1")
    return state


def test_dump_and_load_round_trip_through_msgpack() -> None:
    state = sample()
    data = msgpack.unpackb(msgpack.packb(dump(state)))
    assert load(Sample, data) == state


def test_clone_is_deep_for_plain_data_and_shares_events() -> None:
    state = sample()
    copy = clone(state)
    assert copy == state and copy is not state
    copy.piles[0].cards.append("R2")
    copy.table["x"].append(3)
    assert state.piles[0].cards == ["R1"] and state.table["x"] == [1, 2]
    assert copy.log[0] is state.log[0]

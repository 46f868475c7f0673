"""The shared engine machinery: RNG, options, decks, events, serialisation, replay."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import msgpack
import pytest

from engine import registry
from engine.core import (
    LOG_VIEW_LIMIT,
    Event,
    GameState,
    InvalidAction,
    InvalidOptions,
    Option,
    Rng,
    action_field,
    action_type,
    check_deck,
    check_players,
    clone,
    deck_for_round,
    dump,
    load,
    parse_options,
    quick_init,
    winners_by_score,
)


def test_rng_is_deterministic_and_seed_sensitive() -> None:
    a, b, c = Rng.from_seed(1), Rng.from_seed(1), Rng.from_seed(2)
    first = [a.next_u64() for _ in range(5)]
    assert first == [b.next_u64() for _ in range(5)]
    assert first != [c.next_u64() for _ in range(5)]


def test_rng_known_values_never_change() -> None:
    """Replays of saved games depend on these exact numbers."""
    rng = Rng.from_seed(0)
    assert rng.next_u64() == 0xE220A8397B1DCDAF
    items = list(range(10))
    Rng.from_seed(42).shuffle(items)
    assert sorted(items) == list(range(10)) and items != list(range(10))


def test_rng_below_is_in_range_and_covers_it() -> None:
    rng = Rng.from_seed(9)
    seen = {rng.below(6) for _ in range(500)}
    assert seen == set(range(6))
    with pytest.raises(ValueError, match="positive"):
        rng.below(0)


def test_rng_random_is_a_unit_float() -> None:
    rng = Rng.from_seed(4)
    assert all(0.0 <= rng.random() < 1.0 for _ in range(200))


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


def test_below_and_shuffle_draw_from_next_u64_as_written_first() -> None:
    """``below`` and ``shuffle`` inline ``next_u64``: the numbers must not change (a saved
    table replays its deals from the seed)."""

    def below(rng: Rng, n: int) -> int:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = rng.next_u64()
            if value < limit:
                return value % n

    for seed in range(50):
        fast, slow = Rng.from_seed(seed), Rng.from_seed(seed)
        for n in (1, 2, 3, 7, 52, 1 << 40, (1 << 63) + 5, (1 << 64) - 1):
            assert fast.below(n) == below(slow, n)
        cards, again = list(range(72)), list(range(72))
        fast.shuffle(cards)
        for i in range(len(again) - 1, 0, -1):
            j = below(slow, i + 1)
            again[i], again[j] = again[j], again[i]
        assert cards == again and fast.state == slow.state


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


def test_options_fill_defaults_and_parse_text() -> None:
    specs = (
        Option("target", 7, "points", minimum=1, maximum=9),
        Option("fast", False, "quick", kind=bool),
        Option("mode", "a", "mode", kind=str, choices=("a", "b")),
        Option("deck", None, "order", kind=list),
    )
    assert parse_options("g", specs, None) == {
        "target": 7,
        "fast": False,
        "mode": "a",
        "deck": None,
    }
    parsed = parse_options("g", specs, {"target": "3", "fast": "yes", "deck": "R1,R2 / G1"})
    assert parsed == {"target": 3, "fast": True, "mode": "a", "deck": [["R1", "R2"], ["G1"]]}


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"speed": 1}, "g has no option 'speed'"),
        ({"target": 10}, "at most 9"),
        ({"target": True}, "whole number"),
        ({"fast": "maybe"}, "yes or no"),
        ({"mode": "c"}, "one of a, b"),
        ({"deck": 5}, "is a list"),
        ([1], "map of names"),
    ],
)
def test_bad_options_are_refused_with_a_reason(given: Any, message: str) -> None:
    specs = (
        Option("target", 7, "points", minimum=1, maximum=9),
        Option("fast", False, "quick", kind=bool),
        Option("mode", "a", "mode", kind=str, choices=("a", "b")),
        Option("deck", None, "order", kind=list),
    )
    with pytest.raises(InvalidOptions, match=message):
        parse_options("g", specs, given)


def test_check_deck_names_the_problem() -> None:
    full = ["A", "B", "B"]
    assert check_deck("g", ["B", "A", "B"], full) == ["B", "A", "B"]
    with pytest.raises(InvalidOptions, match="missing 'B'"):
        check_deck("g", ["A", "B"], full)
    with pytest.raises(InvalidOptions, match="too many 'A'"):
        check_deck("g", ["A", "A", "B", "B"], full)
    with pytest.raises(InvalidOptions, match="'C' is not a g card"):
        check_deck("g", ["A", "B", "C"], full)


def test_deck_for_round_reads_flat_and_per_round_orders() -> None:
    assert deck_for_round(None, 1) is None
    assert deck_for_round(["A"], 1) == ["A"] and deck_for_round(["A"], 2) is None
    assert deck_for_round([["A"], ["B"]], 2) == ["B"] and deck_for_round([["A"]], 2) is None


def test_check_players_refuses_bad_lists() -> None:
    assert check_players("g", ["A", "B"], 2, 4) == ["A", "B"]
    for bad, message in [
        ("AB", "list of names"),
        (["A"], "for 2 to 4 players"),
        (["A", "A"], "both called 'A'"),
        (["A", " "], "non-empty"),
        (["A", "x" * 40], "at most 32"),
    ]:
        with pytest.raises(InvalidOptions, match=message):
            check_players("g", bad, 2, 4)


def test_action_helpers_explain_malformed_actions() -> None:
    assert action_type({"type": "play"}, ["play"]) == "play"
    with pytest.raises(InvalidAction, match="a map"):
        action_type(["play"], ["play"])
    with pytest.raises(InvalidAction, match="Unknown action 'x'"):
        action_type({"type": "x"}, ["play"])
    assert action_field({"type": "play", "n": 2}, "n", int) == 2
    with pytest.raises(InvalidAction, match="needs 'n'"):
        action_field({"type": "play", "n": True}, "n", int)


def test_winners_by_score_shares_ties() -> None:
    assert winners_by_score([3, 7, 7]) == (1, 2)
    assert winners_by_score([9, 1]) == (0,)


def test_registry_lists_and_finds_games() -> None:
    assert "catchy" in registry.names()
    assert registry.get("catchy").name == "catchy"
    with pytest.raises(registry.UnknownGame, match="no game called 'chess'"):
        registry.get("chess")


def test_every_registered_game_describes_itself() -> None:
    for name in registry.names():
        info = registry.get(name).describe()
        assert info["name"] == name and info["min_players"] <= info["max_players"]
        assert any(option["name"] == "deck" for option in info["options"])


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

"""Table options, players' names and explicit deck orders (engine/core/options.py)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import (
    InvalidOptions,
    Option,
    check_deck,
    check_players,
    deck_for_round,
    parse_options,
)


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

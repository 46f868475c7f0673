"""Catchy! views and queries, checked against the rules they are worked out from.

Views and legal actions are built on every step (selfplay, every client after
every action), so the engine works them out the quick way: the follow rule by
colour lookups, not by asking :func:`engine.games.catchy.rules.follow_problem` card by
card; hands sorted by one integer rank per card; a trick resolved into a tuple,
not a :class:`engine.games.catchy.rules.TrickResult`. These tests hold the quick ways to
the plain ones over whole random games.
"""

from __future__ import annotations

from typing import Any

from engine.bots import RandomBot
from engine.core import Rng
from engine.games.catchy.rules import (
    GAME,
    JOKER,
    CatchyState,
    follow_problem,
    resolve_trick,
    sort_key,
)

SEEDS = range(12)


def game_states(seed: int, options: dict[str, Any] | None = None) -> list[CatchyState]:
    """Every state of one random game, the next round dealt as the host's timer does."""
    state = GAME.new_game(["Ann", "Bea"], seed, options)
    bots = [RandomBot(Rng.from_seed(seed * 2 + seat)) for seat in (0, 1)]
    states = [state]
    while GAME.outcome(state) is None:
        seat = state.turn
        action = bots[seat].choose(GAME.view(state, seat))
        assert action is not None
        state, _ = GAME.apply(state, seat, action, 0.0)
        states.append(state)
        state, _ = GAME.tick(state, 0.0)
        states.append(state)
    return states


def test_legal_plays_are_the_cards_the_follow_rule_allows_in_hand_order() -> None:
    for seed in SEEDS:
        for state in game_states(seed):
            if state.phase != "play":
                continue
            seat = state.turn
            hand = state.hands[seat]
            led = state.trick[0] if state.trick else None
            allowed = [c for c in hand if led is None or follow_problem(hand, led, c) is None]
            legal = GAME.legal_actions(state, seat)
            assert legal == [{"type": "play", "card": c} for c in sorted(allowed, key=sort_key)]
            assert GAME.legal_actions(state, 1 - seat) == []


def test_unplayable_says_what_the_follow_rule_says_for_each_card() -> None:
    following = 0
    for seed in SEEDS:
        for state in game_states(seed):
            for seat in (0, 1):
                view = GAME.view(state, seat)
                hand = state.hands[seat]
                expected: dict[str, str] = {}
                if state.phase == "play" and state.trick and seat == state.turn:
                    following += 1
                    for card in hand:
                        problem = follow_problem(hand, state.trick[0], card)
                        if problem is not None:
                            expected[card] = problem
                assert view["unplayable"] == expected
                assert list(view["unplayable"]) == list(expected)  # in the hand's order
                assert view["hand"] == sorted(hand, key=sort_key)
    assert following > 100


def test_follow_problem_names_the_colour_and_the_joker() -> None:
    assert follow_problem(["R1", "G2"], "R3", "G2") == "You must follow red"
    assert follow_problem(["R1", "G2", JOKER], "R3", "G2") == (
        "You must follow red (or play the Joker)"
    )
    assert follow_problem(["G2", "B1"], "R3", "G2") is None
    assert follow_problem(["R1", "G2"], JOKER, "G2") is None
    assert follow_problem(["R1", "G2"], "R3", JOKER) is None


def test_resolve_trick_gives_every_field() -> None:
    result = resolve_trick(0, "R3", JOKER, "red")
    assert (result.winner, result.toward, result.next_leader, result.exception) == (
        None,
        None,
        0,
        True,
    )
    assert result.flipped and result.side == "blue"
    result = resolve_trick(1, "G2", "G5", "blue")
    assert (result.winner, result.flipped, result.side, result.toward) == (0, False, "blue", 1)
    assert result.next_leader == 1 and not result.exception


def test_view_tricks_are_the_tricks_data_and_each_view_has_its_own() -> None:
    state = next(s for s in game_states(2) if len(s.tricks) >= 3 and s.last_round)
    first, second = GAME.view(state, 0), GAME.view(state, 0)
    assert first["tricks"] == [trick.to_data() for trick in state.tricks]
    assert list(first["tricks"][0]) == [
        "leader",
        "cards",
        "winner",
        "flipped",
        "toward",
        "position",
        "side",
    ]
    # Whoever holds a view may change it: nothing in it is another view's or the state's.
    assert first["tricks"][0]["cards"] is not second["tricks"][0]["cards"]
    assert first["hand"] is not state.hands[0]
    summary = state.last_round
    assert summary is not None and first["last_round"] == summary
    assert first["last_round"]["course"] is not summary["course"]
    first["tricks"][0]["cards"].clear()
    first["last_round"]["scores"].clear()
    assert GAME.view(state, 0) == second


def test_follow_problem_reads_any_code_as_colour_does() -> None:
    # Not a card, but the rule reads its colour letter as colour() does.
    assert follow_problem(["R1", "G2"], "R3", "R9") is None
    assert follow_problem(["R1", "G2"], "R3", "Q9") == "You must follow red"

"""Black Cat random playouts (invariants) and the Black Cat bot.

The playouts pick a random seat each step to grab the top card into a random
pile (now and then a stale grab that must be refused, and now and then a
call) and check after every step: every card is in the deck or a pile, no
view or event ever shows a card under the top one, the view's scores are
:func:`score_pile` of the piles, the game is over exactly when the deck is
empty or someone called, and states survive msgpack and replay.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import msgpack
import pytest

from engine.core import Event, Rng, StaleReveal
from engine.games.blackcat.bot import MIN_REACTION_S, RELUCTANT_FACTOR, BlackCatBot
from engine.games.blackcat.rules import GAME, BlackCatState
from engine.games.blackcat.scoring import card_label, full_deck, score_pile

NAMES = ["Ann", "Bea", "Cy", "Dot"]
PLAYOUTS = 100
CALL_CHANCE = 0.02
STALE_CHANCE = 0.05
ROUND_TRIP_AT = 5


def _hidden_only(state: BlackCatState) -> set[str]:
    """Cards under the top one of which no copy is visible (top card or any pile)."""
    visible = {card for piles in state.piles for pile in piles for card in pile}
    if state.deck:
        visible.add(state.deck[0])
    return set(state.deck[1:]) - visible


def _assert_nothing_hidden_shown(state: BlackCatState, shown: Any) -> None:
    """No hidden card's code (as a value) or label (inside any text) is in ``shown``."""
    text = json.dumps(shown, ensure_ascii=False)
    for card in _hidden_only(state):
        assert f'"{card}"' not in text, f"hidden card {card} shown"
        assert card_label(card) not in text, f"hidden card {card_label(card)} named"


def _check_invariants(state: BlackCatState, events: list[Event]) -> None:
    size = state.deck_size
    cards = [*state.deck, *(card for piles in state.piles for pile in piles for card in pile)]
    assert len(cards) == size
    assert Counter(cards) == Counter(full_deck(size // 52))

    over = GAME.outcome(state) is not None
    assert over == (not state.deck or state.called_by is not None)

    # The log is made of these events (and the setup's, checked at setup).
    _assert_nothing_hidden_shown(state, [event.to_data() for event in events])
    variants = {
        "lucky_tom": bool(state.options["lucky_tom"]),
        "music_of_the_night": bool(state.options["music_of_the_night"]),
    }
    for seat in [None, *range(len(state.players))]:
        view = GAME.view(state, seat)
        _assert_nothing_hidden_shown(state, view)
        assert view["deck_left"] == len(state.deck)
        for who, piles in enumerate(state.piles):
            expected = [score_pile(pile, **variants) for pile in piles]
            for shown, score, pile in zip(view["piles"][who], expected, piles, strict=True):
                assert {key: shown[key] for key in score.to_data()} == score.to_data()
                assert shown["explain"] == score.explain()
                taken = None if not state.deck else score_pile([*pile, state.deck[0]], **variants)
                assert shown["if_taken"] == (None if taken is None else taken.total - score.total)
            assert view["scores"][who] == sum(score.to_data()["score"] for score in expected)
        assert (view["outcome"] is not None) == over
        assert (view["legal"] == []) == (over or seat is None)


def _round_trip(state: BlackCatState) -> None:
    packed = msgpack.packb(GAME.to_data(state))
    assert GAME.from_data(msgpack.unpackb(packed)) == state


def random_playout(seed: int) -> tuple[BlackCatState, list[tuple[int, dict[str, Any]]]]:
    """Play one random game, checking invariants each step; returns the end and the actions."""
    rng = Rng.from_seed(seed)
    players = NAMES[: 2 + seed % 3]
    options = {
        "long_night": seed % 7 == 0,
        "lucky_tom": seed % 2 == 0,
        "music_of_the_night": seed % 3 == 0,
        "stall": 0,  # calls at random moments: the stall rule has its own tests
    }
    state = GAME.new_game(players, seed, options)
    _check_invariants(state, state.log)
    accepted: list[tuple[int, dict[str, Any]]] = []
    step = 0
    while GAME.outcome(state) is None:
        seat = rng.below(len(players))
        roll = rng.random()
        if roll < STALE_CHANCE and state.reveal > 1:
            stale = {"type": "take", "pile": rng.below(2), "reveal": state.reveal - 1}
            with pytest.raises(StaleReveal):
                GAME.apply(state, seat, stale, float(step))
            continue
        if roll < STALE_CHANCE + CALL_CHANCE:
            action: dict[str, Any] = {"type": "call"}
        else:
            action = {"type": "take", "pile": rng.below(2), "reveal": state.reveal}
        before = len(state.deck)
        state, events = GAME.apply(state, seat, action, float(step))
        accepted.append((seat, action))
        if action["type"] == "take":
            assert len(state.deck) == before - 1
        else:
            assert state.called_by == seat
            assert len(state.deck) == before
        _check_invariants(state, events)
        if step == ROUND_TRIP_AT:
            _round_trip(state)
        step += 1
    _round_trip(state)
    return state, accepted


@pytest.mark.parametrize("chunk", range(4))
def test_random_playouts_keep_every_invariant(chunk: int) -> None:
    ends: Counter[str | None] = Counter()
    for seed in range(chunk, PLAYOUTS, 4):
        state, _ = random_playout(seed)
        ends[state.ended] += 1
    # Both ways to end happen in every chunk, so both are checked.
    assert ends["deck"] > 0
    assert ends["call"] > 0


def test_playouts_are_deterministic_and_replay_exactly() -> None:
    for seed in (3, 14, 21):
        first, actions = random_playout(seed)
        second, again = random_playout(seed)
        assert actions == again
        assert GAME.to_data(first) == GAME.to_data(second)
        players = NAMES[: 2 + seed % 3]
        options = {
            "long_night": seed % 7 == 0,
            "lucky_tom": seed % 2 == 0,
            "music_of_the_night": seed % 3 == 0,
            "stall": 0,
        }
        state = GAME.new_game(players, seed, options)
        for seat, action in actions:
            state, _ = GAME.apply(state, seat, action, 0.0)
        assert state.deck == first.deck
        assert state.piles == first.piles
        assert GAME.outcome(state) == GAME.outcome(first)


# --------------------------------------------------------------------------- the bot


def view_with(
    mine: list[list[str]], theirs: list[list[str]], top: str, deck_left: int = 40
) -> dict[str, Any]:
    """A view for seat 0 built from explicit piles (the deck order is irrelevant to bots)."""
    piles = [
        [score_pile(pile).to_data() for pile in mine],
        [score_pile(pile).to_data() for pile in theirs],
    ]
    return {
        "seat": 0,
        "top": top,
        "reveal": 9,
        "deck_left": deck_left,
        "deck_size": 52,
        "piles": piles,
        "scores": [sum(pile["score"] for pile in seat) for seat in piles],
        "variants": {"long_night": False, "lucky_tom": False, "music_of_the_night": False},
        "legal": [
            {"type": "take", "pile": 0, "reveal": 9},
            {"type": "take", "pile": 1, "reveal": 9},
            {"type": "call"},
        ],
    }


def bot(seed: int = 1, **settings: Any) -> BlackCatBot:
    return BlackCatBot(Rng.from_seed(seed), **settings)


def test_bot_takes_into_the_pile_where_the_card_scores() -> None:
    view = view_with([["4H"], ["3H"]], [["2D"], []], "7C")
    assert bot().choose(view) == {"type": "take", "pile": 1, "reveal": 9}


def test_bot_prefers_the_pile_where_the_card_scores_most() -> None:
    # The 6 of clubs is a Tomcat after the 4 (3 points), a Black Cat after the 7 of spades (6).
    view = view_with([["4H"], ["7S"]], [["2D"], []], "6C")
    assert bot().choose(view) == {"type": "take", "pile": 1, "reveal": 9}


def test_bot_calls_when_ahead_by_its_margin() -> None:
    view = view_with([["3H", "7D", "4H", "6D"], ["6S", "7C"]], [["2D"], []], "8H")
    assert view["scores"] == [12, 0]
    assert bot(call_margin=12).choose(view) == {"type": "call"}
    assert bot(call_margin=13).choose(view) != {"type": "call"}


def test_bot_calls_when_ahead_and_the_card_helps_no_one_late_in_the_game() -> None:
    view = view_with([["3H", "7D"], ["9C"]], [["4D"], ["2D"]], "9H", deck_left=3)
    assert bot().choose(view) == {"type": "call"}
    early = view_with([["3H", "7D"], ["9C"]], [["4D"], ["2D"]], "9H", deck_left=50)
    assert bot().choose(early) != {"type": "call"}


def test_bot_does_not_call_when_the_card_would_help_a_rival() -> None:
    view = view_with([["3H", "7D"], ["9C"]], [["4D"], ["2D"]], "6H", deck_left=3)
    assert bot().choose(view) != {"type": "call"}


def test_bot_leaves_a_card_that_only_spoils_its_piles_when_behind() -> None:
    # Its piles end in threes waiting for sevens and Queens; a King would spoil
    # either, and it is behind, so it leaves the King for someone else.
    view = view_with([["3H"], ["3D"]], [["4D", "6D"], []], "KH")
    assert bot().choose(view) is None


def test_bot_takes_a_useless_card_slowly_when_tied_so_the_game_cannot_stall() -> None:
    view = view_with([["3H"], ["3D"]], [["4D"], []], "KH")
    player = bot(jitter_s=0.0)
    assert player.choose(view) is not None
    assert player.reaction_s == pytest.approx(player.base_reaction_s * RELUCTANT_FACTOR)


def test_bot_does_nothing_when_the_game_is_over_or_for_a_spectator() -> None:
    view = view_with([["3H"], []], [[], []], "7D")
    assert bot().choose({**view, "legal": []}) is None
    assert bot().choose({**view, "seat": None}) is None
    assert bot().choose({**view, "top": None}) is None


def test_bot_reaction_time_is_seeded_jittered_and_human() -> None:
    view = view_with([["4H"], ["3H"]], [["2D"], []], "7C")
    times = []
    for seed in range(20):
        player = bot(seed, reaction_s=0.5, jitter_s=0.2)
        player.choose(view)
        times.append(player.reaction_s)
    assert all(MIN_REACTION_S <= value <= 0.7 for value in times)
    assert len(set(times)) > 10
    again = bot(3, reaction_s=0.5, jitter_s=0.2)
    again.choose(view)
    assert again.reaction_s == times[3]


def test_bot_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="at least"):
        bot(reaction_s=0.01)
    with pytest.raises(ValueError, match="not negative"):
        bot(jitter_s=-1.0)


def bot_game(seed: int, seats: list[str]) -> BlackCatState:
    """A game where each reveal goes to the claim with the shortest reaction time.

    ``seats`` names each seat's player: ``"bot"`` or ``"random"`` (takes into
    a random pile, reacting at the bot's default speed, never calls).
    """
    state = GAME.new_game(NAMES[: len(seats)], seed)
    bots = [BlackCatBot(Rng.from_seed(seed * 31 + seat)) for seat in range(len(seats))]
    rng = Rng.from_seed(seed)
    while GAME.outcome(state) is None:
        claims: list[tuple[float, int, dict[str, Any]]] = []
        for seat, kind in enumerate(seats):
            view = GAME.view(state, seat)
            if kind == "bot":
                action = bots[seat].choose(view)
                if action is not None:
                    assert action in view["legal"]
                    claims.append((bots[seat].reaction_s, seat, action))
            else:
                pile = rng.below(2)
                claims.append((bots[seat].base_reaction_s, seat, view["legal"][pile]))
        assert claims, "nobody acted: the game stalled"
        _, seat, action = min(claims, key=lambda claim: (claim[0], claim[1]))
        state, _ = GAME.apply(state, seat, action, 0.0)
    return state


def test_bot_games_always_end() -> None:
    for seed in range(12):
        state = bot_game(seed, ["bot"] * (2 + seed % 3))
        assert state.ended in ("deck", "call")


def test_bot_beats_random_grabbers() -> None:
    wins = 0
    games = 16
    for seed in range(games):
        outcome = GAME.outcome(bot_game(seed, ["bot", "random"]))
        assert outcome is not None
        wins += outcome.winners == (0,)
    assert wins >= games * 3 // 4

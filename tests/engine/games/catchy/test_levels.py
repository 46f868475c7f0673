"""Catchy!'s bot levels: declared, legal, reproducible, ordered, and the hard search exact."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from engine.bots import LEVELS, bot_levels, default_bot, make_bot
from engine.core import Rng
from engine.games.catchy.bot import (
    _BIT,
    _SIDES,
    EasyCatchyBot,
    HardCatchyBot,
    _RoundSearch,
)
from engine.games.catchy.rules import (
    GAME,
    JOKER,
    PLAYABLE,
    RED,
    colour,
    resolve_trick,
)
from engine.selfplay import game_seed, run_game
from tests.engine.games.catchy.helpers import new, play


def test_the_three_levels_are_declared_with_normal_the_default() -> None:
    assert bot_levels("catchy") == list(LEVELS)
    assert default_bot("catchy") == "normal"
    assert isinstance(make_bot("catchy", "easy", 1), EasyCatchyBot)
    assert isinstance(make_bot("catchy", "hard", 1), HardCatchyBot)


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_plays_whole_games_legally_and_reproducibly(level: str) -> None:
    for seed in (3, 4):
        first = run_game(GAME, [level, "random"], seed, record=True)  # a refusal raises
        again = run_game(GAME, [level, "random"], seed, record=True)
        assert first.entries == again.entries


def test_each_level_beats_the_one_below_over_a_few_games() -> None:
    """Small, so it stays cheap; the ladder (python -m tests.perf ladder) measures properly."""
    for high, low in (("hard", "normal"), ("normal", "easy"), ("easy", "random")):
        won = 0.0
        for index in range(8):
            bots = [high, low] if index % 2 == 0 else [low, high]
            winners = run_game(GAME, bots, game_seed(22, index)).outcome.winners
            won += sum(bots[seat] == high for seat in winners) / len(winners)
        assert won >= 4, (high, low, won)


def test_easy_follows_the_cats_colour() -> None:
    # Red cat: the leader leads its highest card to win the trick (and the cat).
    state = new(["R1", "G1", "B1"], ["ST", "R2", "R5", "G2", "G4", "B2", "B4"])
    state = GAME.apply(state, 0, {"type": "swap", "course": 0}, 0.0)[0]
    bot = EasyCatchyBot(Rng.from_seed(1))
    assert bot.choose(GAME.view(state, 0)) == {"type": "play", "card": "R5"}


def brute_force(
    mine: list[str], theirs: list[str], i_lead: bool, position: int, side: str, arms: int
) -> float:
    """Plain minimax over every legal play (the rules' own resolve_trick), values as ends."""
    ends = {3: 3.0, 2: 2.0, 0: 0.0, -2: -2.0, -3: -3.0}

    def end(pos: int) -> float:
        if pos >= arms:
            return ends[3]
        if pos <= -arms:
            return ends[-3]
        return ends[2 if pos > 0 else -2 if pos < 0 else 0]

    def replies(hand: list[str], led: str) -> list[str]:
        led_colour = colour(led)
        same = [card for card in hand if led_colour is not None and colour(card) == led_colour]
        return [*same, *([JOKER] if JOKER in hand else [])] if same else hand

    def value(mine: list[str], theirs: list[str], i_lead: bool, pos: int, side: str) -> float:
        leader_hand, follower_hand = (mine, theirs) if i_lead else (theirs, mine)
        results = []
        for led in leader_hand:
            replies_values = []
            for reply in replies(follower_hand, led):
                result = resolve_trick(0, led, reply, side)  # seat 0 = this trick's leader
                move = 0 if result.toward is None else (1 if result.toward == 0 else -1)
                new_pos = pos + (move if i_lead else -move)
                new_mine = [c for c in mine if c not in (led, reply)]
                new_theirs = [c for c in theirs if c not in (led, reply)]
                if abs(new_pos) >= arms or not new_mine:
                    replies_values.append(end(new_pos))
                    continue
                leads_again = result.next_leader == 0
                next_i_lead = i_lead if leads_again else not i_lead
                replies_values.append(
                    value(new_mine, new_theirs, next_i_lead, new_pos, result.side)
                )
            # The follower picks the reply that is worst for the leader.
            worst_for_leader = min(replies_values) if i_lead else max(replies_values)
            results.append(worst_for_leader)
        return max(results) if i_lead else min(results)

    return value(mine, theirs, i_lead, position, side)


def test_the_hard_search_agrees_with_plain_minimax_on_random_endgames() -> None:
    rng = Rng.from_seed(22)
    search = _RoundSearch(3, (3.0, 2.0, 0.0, -2.0, -3.0))
    for _ in range(150):
        cards = list(PLAYABLE)
        rng.shuffle(cards)
        size = 1 + rng.below(3)
        mine, theirs = cards[:size], cards[size : 2 * size]
        i_lead = rng.below(2) == 0
        position = rng.below(5) - 2
        side = RED if rng.below(2) == 0 else "blue"
        mask_mine = sum(_BIT[c] for c in mine)
        mask_theirs = sum(_BIT[c] for c in theirs)
        side_index = _SIDES.index(side)
        found = search.value_of(
            functools.partial(search.at_least, mask_mine, mask_theirs, i_lead, position, side_index)
        )
        expected = brute_force(mine, theirs, i_lead, position, side, 3)
        assert found == expected, (mine, theirs, i_lead, position, side)


def test_hard_plays_legally_and_reproducibly_from_its_view() -> None:
    state = new(["R1", "G1", "B1"], ["ST", "R2", "R4", "G2", "G4", "B2", "B4"])
    state = GAME.apply(state, 0, {"type": "swap", "course": 0}, 0.0)[0]
    bots = [HardCatchyBot(Rng.from_seed(7)), HardCatchyBot(Rng.from_seed(8))]
    view: dict[str, Any] = GAME.view(state, 0)
    assert bots[0].choose(view) == HardCatchyBot(Rng.from_seed(7)).choose(view)
    while state.phase == "play":  # the round out, hard in both seats
        seat = state.turn
        action = bots[seat].choose(GAME.view(state, seat))
        assert action is not None and action in GAME.legal_actions(state, seat)
        state = play(state, seat, action["card"])


def test_hard_brings_the_cat_home_when_one_card_does() -> None:
    """Following Red 3 with the cat two steps its way: Red 4 wins the trick and the cat is in
    its arms (3 points); Red 2 would hand the trick, and the cat a step, to the other side."""
    tricks = [
        {
            "leader": 1,
            "cards": cards,
            "winner": 1,
            "flipped": False,
            "toward": 0,
            "position": 0,
            "side": RED,
        }
        for cards in (["G1", "G2"], ["G3", "G4"], ["B1", "B2"], ["B3", "B4"], ["G5", "B5"])
    ]
    view: dict[str, Any] = {
        "seat": 0,
        "legal": [{"type": "play", "card": "R2"}, {"type": "play", "card": "R4"}],
        "scores": [0, 0],
        "target": 7,
        "hand": ["R2", "R4"],
        "hand_counts": [2, 1],
        "trick": ["R3"],
        "tricks": tricks,
        "tricks_per_round": 7,
        "cat": {"position": -2, "side": RED, "arms": 3},
    }
    assert HardCatchyBot(Rng.from_seed(1)).choose(view) == {"type": "play", "card": "R4"}

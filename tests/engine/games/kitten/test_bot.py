"""The Kitten Me! bots: legal, deterministic, reading bids, and beating a random player."""

from __future__ import annotations

from typing import Any

from engine.bots import RandomBot, bot_names, default_bot
from engine.core import Rng
from engine.games.kitten.bot import Belief, KittenBot, PlainKittenBot
from engine.games.kitten.rules import GAME, KittenState
from engine.selfplay import game_seed, run_game
from tests.engine.games.kitten.helpers import NO_HATS, at, bid, new

TWO_HATS = ["hat-blue-1", "hat-red-1", *NO_HATS[:3]]


def play(state: KittenState, players: list[Any]) -> tuple[int, ...]:
    while (outcome := GAME.outcome(state)) is None:
        seat = state.turn
        view = GAME.view(state, seat)
        action = players[seat].choose(view)
        assert action in view["legal"], (action, seat)
        state = GAME.apply(state, seat, action, 0.0)[0]
    return outcome.winners


def test_bots_are_declared_by_the_game() -> None:
    assert default_bot("kitten") == "normal"
    assert bot_names("kitten") == ["normal", "easy", "hard", "kitten", "plain", "random"]


def test_bots_only_choose_legal_actions_with_every_deck_and_purrfect() -> None:
    for seed, deck_set in enumerate(("base", "deluxe", "both")):
        options = {"deck_set": deck_set, "purrfect": True}
        state = GAME.new_game([f"P{i}" for i in range(5)], seed, options)
        rngs = [Rng.from_seed(seed * 10 + seat) for seat in range(5)]
        players = [KittenBot(rngs[0]), KittenBot(rngs[1]), PlainKittenBot(rngs[2])]
        players += [RandomBot(rngs[3]), KittenBot(rngs[4], samples=20)]
        assert len(play(state, players)) == 1


def test_bot_waits_when_it_has_nothing_to_do() -> None:
    state = new([TWO_HATS, NO_HATS], "glasses-green-1")
    assert KittenBot(Rng.from_seed(1)).choose(GAME.view(state, 1)) is None
    assert PlainKittenBot(Rng.from_seed(1)).choose(GAME.view(state, 1)) is None
    assert KittenBot.reaction_s == 0.0


def test_bot_decides_from_the_view_alone_and_its_seed() -> None:
    state = bid(GAME.new_game(["Ann", "Bea", "Cy"], 11), 0, 1, "hat")
    state = at(state, turn=1) if state.turn != 1 else state
    view = GAME.view(state, state.turn)
    assert KittenBot(Rng.from_seed(5)).choose(view) == KittenBot(Rng.from_seed(5)).choose(view)


def test_bot_challenges_a_bid_no_deal_can_make() -> None:
    state = bid(new([TWO_HATS, NO_HATS], "glasses-green-1"), 0, 29, "hat")  # the deck has 28
    assert KittenBot(Rng.from_seed(2)).choose(GAME.view(state, 1)) == {"type": "challenge"}


def test_bot_does_not_challenge_a_bid_its_own_hand_makes_true() -> None:
    bea = ["hat-blue-3", "hat-red-3", *NO_HATS[:3]]
    state = bid(new([TWO_HATS, bea], "glasses-green-1"), 0, 5, "hat")
    choice = KittenBot(Rng.from_seed(2)).choose(GAME.view(state, 1))
    assert choice is not None and choice["type"] == "bid"


def test_bot_opens_on_what_its_hand_shows() -> None:
    ann = ["hat-blue-3", "hat-red-3", "hat-green-2", "bowtie-red-1", "glasses-blue-1"]
    state = new([ann, NO_HATS], "glasses-green-1")
    choice = KittenBot(Rng.from_seed(4), bluff_rate=0.0).choose(GAME.view(state, 0))
    assert choice is not None and choice["type"] == "bid" and choice["thing"] == "hat"
    assert choice["count"] >= 8


def test_bot_reads_bids_a_bidder_is_believed_to_hold_what_they_bid() -> None:
    state = new([TWO_HATS, NO_HATS, NO_HATS], "glasses-green-1", dealer=1)
    quiet = GAME.view(state, 0)
    loud = GAME.view(bid(bid(state, 1, 3, "glasses"), 2, 4, "glasses"), 0)
    before = Belief(quiet, Rng.from_seed(1), 300).mean("glasses")
    after = Belief(loud, Rng.from_seed(1), 300).mean("glasses")
    assert after > before + 1


def test_bot_plays_a_special_card_when_every_choice_is_risky() -> None:
    bea = ["skip", *NO_HATS[:4]]
    state = new([TWO_HATS, bea], "bowtie-red-3", deck_set="deluxe")
    choices = {}
    for count in range(1, 30):
        view = GAME.view(bid(state, 0, count, "hat"), 1)
        choice = KittenBot(Rng.from_seed(3), bluff_rate=0.0).choose(view)
        assert choice is not None
        choices[count] = choice["type"]
    # Low bids are raised, impossible ones challenged; in between, Bea passes with her Skip.
    assert choices[1] == "bid" and choices[29] == "challenge"
    assert "play" in choices.values(), choices


def test_bot_beats_a_random_player() -> None:
    wins = 0
    games = 30
    for seed in range(games):
        seat = seed % 2
        players: list[Any] = [None, None]
        players[seat] = KittenBot(Rng.from_seed(seed))
        players[1 - seat] = RandomBot(Rng.from_seed(seed + 7919))
        wins += seat in play(GAME.new_game(["Ann", "Bea"], seed), players)
    assert wins >= 27, wins


def test_bot_beats_three_plain_bots_from_every_seat() -> None:
    """The issue's goal is 40% (25% is par) measured by `clowder selfplay` over hundreds of
    games per seat; here a few seeded games per seat, through the same selfplay driver,
    with a generous bound."""
    games = 16
    wins = []
    for seat in range(4):
        names = ["kitten" if other == seat else "plain" for other in range(4)]
        won = 0
        for index in range(games):
            playout = run_game(GAME, names, game_seed(7, index))
            won += seat in playout.outcome.winners
        wins.append(won)
    assert sum(wins) >= 0.33 * 4 * games, wins
    assert min(wins) >= games // 4, wins

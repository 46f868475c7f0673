"""The kitten bot levels: declared, legal through whole seeded games, reproducible, ordered."""

from __future__ import annotations

from typing import Any

import pytest

from engine.bots import make_bot
from engine.core import Rng
from engine.games.kitten.bot import (
    DUEL_ESS_SHARE,
    ESS_SHARE,
    Belief,
    HardKittenBot,
    OpponentModel,
    _effective,
    _events,
    _tempered,
)
from engine.games.kitten.cards import THINGS
from engine.games.kitten.rules import GAME
from tests.engine.games.kitten.helpers import NO_HATS, bid, new
from tests.engine.levels_helpers import (
    check_hard_not_worse_than_easy,
    check_plays_legally_and_reproducibly,
)

TWO_HATS = ["hat-blue-1", "hat-red-1", *NO_HATS[:3]]
LEVELS = ("easy", "normal", "hard")
OPTIONS: dict[str, Any] = {"deck_set": "both", "purrfect": True}
GAMES = 12
"""Games in the hard-against-easy check (small: it must stay cheap, yet decided)."""


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_plays_a_whole_game_legally_and_reproducibly(level: str) -> None:
    check_plays_legally_and_reproducibly(GAME, level, OPTIONS)


def test_hard_is_not_worse_than_easy() -> None:
    check_hard_not_worse_than_easy(GAME, OPTIONS, GAMES)


def test_hard_challenges_an_impossible_bid_and_raises_a_sure_one() -> None:
    impossible = bid(new([TWO_HATS, NO_HATS], "glasses-green-1"), 0, 29, "hat")  # deck has 28
    assert HardKittenBot(Rng.from_seed(2)).choose(GAME.view(impossible, 1)) == {"type": "challenge"}
    bea = ["hat-blue-3", "hat-red-3", *NO_HATS[:3]]
    sure = bid(new([TWO_HATS, bea], "glasses-green-1"), 0, 5, "hat")
    choice = HardKittenBot(Rng.from_seed(2)).choose(GAME.view(sure, 1))
    assert choice is not None and choice["type"] == "bid"


# Issue 34: the hard bot models the other player of a duel --------------------------------

HATS = ["hat-blue-3", "hat-red-2", "hat-green-1", "bowtie-red-1", "glasses-blue-1"]
BLUES = ["bowtie-blue-3", "glasses-blue-2", "hat-blue-1", "bowtie-green-1", "glasses-red-1"]


def test_hard_decides_from_its_view_alone_whatever_the_hidden_cards() -> None:
    """Two deals that differ only in what Ann cannot see (Bea's hand, the deck) give Ann's
    hard bot the same view, so the same choice, its model of Bea included."""
    ann = ["bowtie-red-2", "glasses-green-1", "hat-red-1", "bowtie-blue-1", "glasses-red-3"]
    first = bid(new([ann, HATS], "glasses-green-1", dealer=1), 1, 4, "hat")
    second = bid(new([ann, BLUES], "bowtie-green-2", dealer=1), 1, 4, "hat")
    view = GAME.view(first, 0)
    assert view == GAME.view(second, 0)
    choices = {str(HardKittenBot(Rng.from_seed(seed)).choose(view)) for seed in (1, 1)}
    assert len(choices) == 1
    assert HardKittenBot(Rng.from_seed(1)).choose(GAME.view(second, 0)) == (
        HardKittenBot(Rng.from_seed(1)).choose(view)
    )


def test_the_model_reads_a_duel_opening_count_not_just_its_thing() -> None:
    """A sampling player opens a little below what it expects of its best thing, so a high
    opening on hats says Bea holds more hats than a low one does."""
    state = new([NO_HATS, HATS], "glasses-green-1", dealer=1)

    def hats_believed(count: int) -> float:
        view = GAME.view(bid(state, 1, count, "hat"), 0)
        model = OpponentModel(0, view["hand_counts"], view["deck_set"], view["played"])
        model.deal(Rng.from_seed(3))
        reading = model.reader(_events(view["bids"], 0, 1), 0.5)
        return Belief(view, Rng.from_seed(4), 400, {1: reading}, DUEL_ESS_SHARE).mean("hat")

    assert hats_believed(8) > hats_believed(3) + 1.0


def test_a_sampling_player_believes_the_bot_s_bids_and_a_plain_one_does_not() -> None:
    """The model's two kinds of player: a sampling player's belief in the bot's hand follows
    the bot's bids (so a raise on the bot's own thing, holding none of it, is like it), a
    plain player's does not (it raises on its own best thing)."""
    model = OpponentModel(0, [5, 5], "base", [])
    model.deal(Rng.from_seed(5))
    hat, blue = THINGS.index("hat"), THINGS.index("blue")
    quiet, loud = model.tails(()), model.tails((hat, hat))
    assert sum(loud[hat][1:]) > sum(quiet[hat][1:]) + 1.0  # expected hats of the bot's hand
    no_hats = [0, 2, 2, 3, 2, 1]  # the other's hand: no hat, its best is blue
    ann_opens, bea_raises = {"seat": 0, "count": 3, "thing": "hat"}, {"seat": 1, "count": 4}
    on_hats = _events([ann_opens, {**bea_raises, "thing": "hat"}], 0, 1)
    on_blue = _events([ann_opens, {**bea_raises, "thing": "blue"}], 0, 1)
    sampler, plain = model.likelihoods(model.steps(on_hats), no_hats)
    assert sampler > plain
    sampler, plain = model.likelihoods(model.steps(on_blue), no_hats)
    assert plain > sampler
    assert model.plain_answer(no_hats, 9, blue)[1] == blue


def test_hard_learns_from_revealed_duels_whether_the_other_plays_plain() -> None:
    """Against easy (a plain player) the bot's log-odds that the other samples fall over a
    game; against normal (a sampling player) they end above where they started."""
    for other, sign in (("easy", -1), ("normal", 1)):
        bots = [make_bot(GAME, "hard", 7), make_bot(GAME, other, 8)]
        state = GAME.new_game(["Ann", "Bea"], 9)
        while GAME.outcome(state) is None:
            seat = state.turn
            action = bots[seat].choose(GAME.view(state, seat))
            assert action is not None
            state = GAME.apply(state, seat, action, 0.0)[0]
        hard = bots[0]
        assert isinstance(hard, HardKittenBot)
        assert sign * hard.kinds.get(1, 0.0) > 0, (other, hard.kinds)


def test_tempering_keeps_a_share_of_the_deals_and_leaves_even_weights_alone() -> None:
    even = [1.0] * 50
    assert _tempered(even, ESS_SHARE) is even
    skewed = [1.0] + [1e-6] * 99
    tempered = _tempered(skewed, 0.3)
    assert _effective(tempered) >= 0.3 * 100 * 0.98
    assert tempered.index(max(tempered)) == 0  # the order of the deals' weights is kept

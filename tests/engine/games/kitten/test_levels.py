"""The kitten bot levels: declared, legal through whole seeded games, reproducible, ordered."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import Rng
from engine.games.kitten.bot import HardKittenBot
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

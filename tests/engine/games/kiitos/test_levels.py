"""The kiitos bot levels: declared, legal through whole seeded games, reproducible, ordered."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import Rng
from engine.games.kiitos.bot import STUCK_EXTRA, HardKiitosBot
from engine.games.kiitos.rules import GAME
from tests.engine.levels_helpers import (
    check_hard_not_worse_than_easy,
    check_plays_legally_and_reproducibly,
)

LEVELS = ("easy", "normal", "hard")
OPTIONS: dict[str, Any] = {}
GAMES = 6
"""Games in the hard-against-easy check (small: it must stay cheap, yet decided)."""


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_plays_a_whole_game_legally_and_reproducibly(level: str) -> None:
    check_plays_legally_and_reproducibly(GAME, level, OPTIONS)


def test_hard_is_not_worse_than_easy() -> None:
    check_hard_not_worse_than_easy(GAME, OPTIONS, GAMES)


def test_hard_values_a_table_the_next_player_cannot_continue() -> None:
    bot = HardKiitosBot(Rng.from_seed(1))
    view: dict[str, Any] = {"rules": {"min_length": 4}, "hand_counts": [8, 8]}
    odds = {letter: 0.5 for letter in "ABCDEFGHIJKLMNOPRSTUVWXYZ"}
    # No word goes on: a sure pick-up of 3 cards, and the bluff the player may try first.
    assert bot._leaves(view, "xqz", odds, False) == 3.0 + STUCK_EXTRA
    assert bot._leaves(view, "st", odds, False) == 0.0  # many letters go on
    assert bot._leaves(view, "xqz", odds, True) == 0.0  # Super-Kiitos: either end grows

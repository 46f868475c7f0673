"""The katootsie bot levels: declared, legal through whole seeded games, reproducible, ordered."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import Rng
from engine.games.katootsie.bot import EasyBot, ExpertBot, HardBot
from engine.games.katootsie.rules import GAME
from tests.engine.levels_helpers import (
    check_hard_not_worse_than_easy,
    check_plays_legally_and_reproducibly,
)

LEVELS = ("easy", "normal", "hard")
OPTIONS: dict[str, Any] = {}
GAMES = 8
"""Games in the hard-against-easy check (small: it must stay cheap, yet decided)."""


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_plays_a_whole_game_legally_and_reproducibly(level: str) -> None:
    check_plays_legally_and_reproducibly(GAME, level, OPTIONS)


def test_hard_is_not_worse_than_easy() -> None:
    check_hard_not_worse_than_easy(GAME, OPTIONS, GAMES)


def test_hard_calls_katootsie_only_when_nobody_is_likely_to_answer() -> None:
    bot = HardBot(Rng.from_seed(1))
    view = {"seat": 0, "players_in": [0, 1, 2], "locked": []}
    assert bot.calls(view, [])  # no listed answer left: nobody answers
    assert not bot.calls(view, ["Apple", "Apricot"])
    assert not bot.calls({**view, "locked": [1, 2]}, [])  # nobody left to beat


def test_easy_forgets_the_answers_already_taken() -> None:
    assert not EasyBot.remembers_used
    assert HardBot.remembers_used and ExpertBot.remembers_used

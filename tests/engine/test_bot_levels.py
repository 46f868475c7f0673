"""Every game has the three bot levels (engine.bots.LEVELS), and each plays whole games legally."""

from __future__ import annotations

import pytest

from engine import registry
from engine.bots import (
    DEFAULT_LEVEL,
    LEVELS,
    bot_levels,
    bot_names,
    check_level,
    default_bot,
    make_bot,
)
from engine.selfplay import run_game
from tests import toy_game


def test_the_levels_are_easy_normal_hard() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    assert DEFAULT_LEVEL == "normal"


@pytest.mark.parametrize("name", registry.names())
def test_every_game_declares_the_three_levels_with_normal_the_default(name: str) -> None:
    game = registry.get(name)
    assert bot_levels(name) == list(LEVELS)
    assert game.bots[0][0] == "normal"  # first in the tuple: the default
    assert default_bot(name) == "normal"
    assert set(LEVELS) <= set(bot_names(name))
    for level in LEVELS:
        assert check_level(name, level) == level
        assert make_bot(name, level, 1).choose({"legal": [], "seat": 0}) is None


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", registry.names())
def test_each_level_plays_a_whole_seeded_game_legally(name: str, level: str) -> None:
    game = registry.get(name)
    bots = [level] * game.min_players
    playout = run_game(game, bots, 22)  # a refused action raises BotMistakeError
    assert playout.outcome is not None


def test_an_unknown_level_is_refused_with_the_levels_listed() -> None:
    with pytest.raises(
        ValueError, match=r"no bot level 'hardd' for catchy \(levels: easy, normal, hard\)"
    ):
        check_level("catchy", "hardd")


def test_a_game_without_levels_keeps_its_first_bot_as_the_default() -> None:
    with toy_game.registered():
        assert bot_levels("toy") == []
        assert default_bot("toy") == bot_names("toy")[0]
        with pytest.raises(ValueError, match="levels: none"):
            check_level("toy", "hard")

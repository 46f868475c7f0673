"""Checks every game's bot-level tests share: reproducible whole games, hard not worse than easy.

The declarations themselves (three levels, ``normal`` the default) are checked once for
every game in ``tests/engine/test_bot_levels.py``; a game's own ``test_levels.py`` calls these
with its options and how many games decide its comparison cheaply.
"""

from __future__ import annotations

from typing import Any

from engine.core import Game
from engine.selfplay import game_seed, run_game


def check_plays_legally_and_reproducibly(
    game: Game[Any], level: str, options: dict[str, Any], seed: int = 11
) -> None:
    """``level`` against the other two: a refused action raises; the same seed, the same game."""
    bots = [level, "easy", "hard"]
    first = run_game(game, bots, seed, options, record=True)
    again = run_game(game, bots, seed, options, record=True)
    assert first.entries == again.entries
    assert first.outcome.winners


def check_hard_not_worse_than_easy(game: Game[Any], options: dict[str, Any], games: int) -> None:
    """Over ``games`` seeded duels, seats swapped each game, hard wins at least as often."""
    hard = easy = 0.0
    for index in range(games):
        bots = ["hard", "easy"] if index % 2 == 0 else ["easy", "hard"]
        winners = run_game(game, bots, game_seed(5, index), options).outcome.winners
        for seat in winners:
            if bots[seat] == "hard":
                hard += 1 / len(winners)
            else:
                easy += 1 / len(winners)
    assert hard >= easy, f"{game.name}: hard {hard} < easy {easy} over {games} games"

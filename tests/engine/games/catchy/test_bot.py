"""The Catchy! bot: plays only from its seat's view, and beats a random player."""

from __future__ import annotations

from typing import Any

from engine.bots import RandomBot, bot_names, default_bot, make_bot
from engine.core import Rng
from engine.games.catchy.bot import CatchyBot
from engine.games.catchy.rules import GAME

GAMES = 1000
REQUIRED_WIN_RATE = 0.70


def play(seed: int, bot_seat: int) -> tuple[int, ...]:
    state = GAME.new_game(["Ann", "Bea"], seed)
    players: list[Any] = [None, None]
    players[bot_seat] = CatchyBot(Rng.from_seed(seed))
    players[1 - bot_seat] = RandomBot(Rng.from_seed(seed + 7919))
    while (outcome := GAME.outcome(state)) is None:
        seat = state.turn
        action = players[seat].choose(GAME.view(state, seat))
        state = GAME.tick(GAME.apply(state, seat, action, 0.0)[0], 0.0)[0]
    return outcome.winners


def test_bot_wins_at_least_70_percent_of_1000_seeded_games_against_random() -> None:
    wins = 0
    for seed in range(GAMES):
        bot_seat = seed % 2  # half the games from each seat
        wins += bot_seat in play(seed, bot_seat)
    assert wins / GAMES >= REQUIRED_WIN_RATE, wins


def test_bot_only_ever_chooses_a_legal_action() -> None:
    bot = CatchyBot(Rng.from_seed(3))
    state = GAME.new_game(["Ann", "Bea"], 3)
    for _ in range(60):
        if GAME.outcome(state) is not None:
            break
        view = GAME.view(state, state.turn)
        action = bot.choose(view)
        assert action is not None and action in view["legal"]
        state = GAME.tick(GAME.apply(state, state.turn, action, 0.0)[0], 0.0)[0]


def test_bot_waits_when_it_has_nothing_to_do() -> None:
    state = GAME.new_game(["Ann", "Bea"], 3)
    idle = 1 - state.turn
    assert CatchyBot(Rng.from_seed(1)).choose(GAME.view(state, idle)) is None


def test_bot_decides_from_the_view_alone() -> None:
    """Two bots with the same seed, given the same view, choose the same action."""
    state = GAME.new_game(["Ann", "Bea"], 11)
    view = GAME.view(state, state.turn)
    assert CatchyBot(Rng.from_seed(5)).choose(view) == CatchyBot(Rng.from_seed(5)).choose(view)


def test_catchy_bots_are_registered() -> None:
    assert default_bot("catchy") == "normal"
    assert bot_names("catchy") == ["normal", "easy", "hard", "catchy", "random"]
    assert isinstance(make_bot("catchy", "catchy", 1), CatchyBot)  # the old name stays
    assert isinstance(make_bot("catchy", "normal", 1), CatchyBot)

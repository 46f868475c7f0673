"""Black Cat's bot levels: declared, legal, reproducible, and each playing its own way."""

from __future__ import annotations

from typing import Any

import pytest

from engine.bots import LEVELS, bot_levels, default_bot, make_bot
from engine.core import Rng
from engine.games.blackcat.bot import BlackCatBot, EasyBlackCatBot, HardBlackCatBot
from engine.games.blackcat.rules import GAME, BlackCatState
from engine.games.blackcat.scoring import full_deck
from engine.selfplay import game_seed, run_game


def dealt(top_first: list[str], takes: list[tuple[int, int]], **options: Any) -> BlackCatState:
    """A game whose deck starts with ``top_first``, after ``takes`` of (seat, pile) in order."""
    deck = [*top_first, *[card for card in full_deck() if card not in top_first]]
    state = GAME.new_game(["Ann", "Bea"], 1, {"deck": deck, **options})
    state, _ = GAME.tick(state, 0.0)
    for seat, pile in takes:
        action = {"type": "take", "pile": pile, "reveal": state.reveal}
        state, _ = GAME.apply(state, seat, action, 0.0)
    return state


def test_the_three_levels_are_declared_with_normal_the_default() -> None:
    assert bot_levels("blackcat") == list(LEVELS)
    assert default_bot("blackcat") == "normal"
    assert isinstance(make_bot("blackcat", "easy", 1), EasyBlackCatBot)
    assert isinstance(make_bot("blackcat", "normal", 1), BlackCatBot)
    assert isinstance(make_bot("blackcat", "hard", 1), HardBlackCatBot)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 4])
def test_each_level_plays_a_whole_game_legally_and_reproducibly(level: str, players: int) -> None:
    bots = [level, *(["random", "normal", "hard"][: players - 1])]
    first = run_game(GAME, bots, 5, record=True)  # a refused action raises
    again = run_game(GAME, bots, 5, record=True)
    assert first.entries == again.entries


def test_hard_beats_normal_and_normal_beats_easy_over_a_few_games() -> None:
    """Small, so it stays cheap; the ladder (python -m tests.perf ladder) measures properly."""
    for high, low in (("hard", "normal"), ("normal", "easy")):
        won = 0.0
        for index in range(8):
            bots = [high, low] if index % 2 == 0 else [low, high]
            winners = run_game(GAME, bots, game_seed(22, index)).outcome.winners
            won += sum(bots[seat] == high for seat in winners) / len(winners)
        assert won >= 4, (high, low, won)


def test_easy_takes_into_the_first_pile_where_the_card_scores() -> None:
    # Ann's piles end in 3 and 3: a 7 makes a Tomcat on either; easy takes the first.
    state = dealt(["3H", "9D", "3D", "8C", "7H"], [(0, 0), (1, 0), (0, 1), (1, 1)])
    view = GAME.view(state, 0)
    assert view["top"] == "7H"
    assert EasyBlackCatBot(Rng.from_seed(1)).choose(view) == view["legal"][0]


def test_easy_takes_even_a_card_that_scores_nothing() -> None:
    state = dealt(["3H", "9D", "KD"], [(0, 0), (1, 0)])
    action = EasyBlackCatBot(Rng.from_seed(1)).choose(GAME.view(state, 0))
    assert action is not None and action["type"] == "take"


def test_hard_calls_as_soon_as_a_call_is_allowed_while_it_leads() -> None:
    # stall 0: a call is allowed at any time. Ann leads 3-0 (a Tomcat): hard calls, a win.
    state = dealt(["3H", "7D", "9D", "4C"], [(0, 0), (0, 0), (1, 0)], stall=0)
    view = GAME.view(state, 0)
    assert view["scores"] == [3, 0]
    assert HardBlackCatBot(Rng.from_seed(1)).choose(view) == {"type": "call"}
    # Normal waits for a wider lead; behind, hard does not call.
    assert BlackCatBot(Rng.from_seed(1)).choose(view) != {"type": "call"}
    assert HardBlackCatBot(Rng.from_seed(1)).choose(GAME.view(state, 1)) != {"type": "call"}


def test_hard_takes_a_card_it_does_not_need_to_keep_it_from_the_rival() -> None:
    # Bea's pile ends in 3; the 7 on top would give her a Tomcat. Ann's piles end in K and J,
    # where the 7 scores nothing: hard takes it anyway (denial), easy for its own reasons.
    state = dealt(["KH", "3D", "JD", "7H"], [(0, 0), (1, 0), (0, 1)])
    view = GAME.view(state, 0)
    assert view["top"] == "7H"
    action = HardBlackCatBot(Rng.from_seed(1)).choose(view)
    assert action is not None and action["type"] == "take"

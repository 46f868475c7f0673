"""Black Cat's call is for a stalled game: the top card must lie untaken for the stall time.

Rulebook: "If the game stalls because there's a card on top of the deck that no
one wants to take, you can end the game by calling out..." (CLARIFICATIONS:
the stall time is assumed, ``STALL_SECONDS``, a table option).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.bots import make_bot
from engine.games.blackcat.rules import (
    ASSUMPTIONS,
    GAME,
    STALL_SECONDS,
    BlackCatState,
    TooEarlyToCall,
)
from engine.games.blackcat.scoring import full_deck

CALL = {"type": "call"}


def new(**options: Any) -> BlackCatState:
    deck = ["3H", "7D", *[c for c in full_deck() if c not in ("3H", "7D")]]
    return GAME.new_game(["Ann", "Bea"], 7, {"deck": deck, **options})


def started(at: float = 10.0, **options: Any) -> BlackCatState:
    """The game as the host has it after its first tick (the first card's moment)."""
    state, _ = GAME.tick(new(**options), at)
    return state


def test_rule_the_stall_time_is_an_assumed_option_of_five_seconds() -> None:
    assert STALL_SECONDS == 5
    spec = next(o for o in GAME.option_specs if o.name == "stall")
    assert spec.default == STALL_SECONDS
    assert any("stalled" in line and f"{STALL_SECONDS} seconds" in line for line in ASSUMPTIONS)


def test_rule_no_call_before_the_first_card_has_lain_the_stall_time() -> None:
    state = new()
    assert GAME.deadline(state) == 0.0  # the first tick starts the first card's clock
    with pytest.raises(TooEarlyToCall, match="first card just turned up; a call needs 5 s untaken"):
        GAME.apply(state, 0, CALL, 0.0)
    state = started(10.0)
    assert CALL not in GAME.legal_actions(state, 0)
    with pytest.raises(TooEarlyToCall, match=r"3♥ has lain untaken for 2 s; a call needs 5 s$"):
        GAME.apply(state, 0, CALL, 12.0)


def test_rule_a_card_untaken_for_the_stall_time_stalls_the_game_and_allows_the_call() -> None:
    state = started(10.0)
    assert GAME.deadline(state) == 15.0
    state, events = GAME.tick(state, 15.0)
    assert [event.kind for event in events] == ["stall"]
    assert "anyone may call" in events[0].text
    assert CALL in GAME.legal_actions(state, 1)
    view = GAME.view(state, 1)
    assert view["stalled"] and view["stall_s"] == 5
    state, events = GAME.apply(state, 1, CALL, 15.5)
    assert state.ended == "call" and state.called_by == 1


def test_rule_taking_the_card_starts_the_stall_clock_again() -> None:
    state, _ = GAME.tick(started(10.0), 15.0)
    state, _ = GAME.apply(state, 0, {"type": "take", "pile": 0, "reveal": state.reveal}, 16.0)
    assert not state.stalled and CALL not in GAME.legal_actions(state, 0)
    assert GAME.deadline(state) == 21.0
    with pytest.raises(TooEarlyToCall):
        GAME.apply(state, 0, CALL, 20.0)


def test_rule_stall_zero_allows_a_call_at_any_time() -> None:
    state = new(stall=0)
    assert GAME.deadline(state) is None and CALL in GAME.legal_actions(state, 0)
    state, _ = GAME.apply(state, 0, CALL, 0.0)
    assert state.ended == "call"


def lead_view(scores: list[int], stalled: bool) -> dict[str, Any]:
    state = started(0.0)
    if stalled:
        state, _ = GAME.tick(state, float(STALL_SECONDS))
    view: dict[str, Any] = GAME.view(state, 0)
    view["scores"] = scores
    return view


def test_the_bot_calls_only_once_the_game_has_stalled_and_only_when_it_leads() -> None:
    bot = make_bot("blackcat", "blackcat", 3)
    assert bot.choose(lead_view([40, 0], stalled=False)) != CALL
    assert bot.choose(lead_view([40, 0], stalled=True)) == CALL
    behind = make_bot("blackcat", "blackcat", 3)
    assert behind.choose(lead_view([0, 40], stalled=True)) != CALL
    tied = make_bot("blackcat", "blackcat", 3)
    assert tied.choose(lead_view([5, 5], stalled=True)) != CALL


def test_bot_choices_are_still_seeded() -> None:
    views = [lead_view([40, 0], stalled=True) for _ in range(2)]
    first = make_bot("blackcat", "blackcat", 3)
    second = make_bot("blackcat", "blackcat", 3)
    assert [first.choose(v) for v in views] == [second.choose(v) for v in views]
    assert first.reaction_s == second.reaction_s

"""Black Cat table rules: the deck, grabbing, calling, the end, views and options.

Scoring itself is covered in test_scoring.py; here it is only
checked where the table uses it (live scores, the winner).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import GameOver, InvalidAction, InvalidOptions, StaleReveal
from engine.games.blackcat.rules import (
    ASSUMPTIONS,
    CALL_PHRASE,
    GAME,
    BlackCatState,
)
from engine.games.blackcat.scoring import full_deck, score_pile

PLAYERS = ["Ann", "Bea"]


def deck_starting(*top: str, decks: int = 1) -> list[str]:
    """A full deck order whose first cards are ``top`` (the rest in a fixed order)."""
    rest = full_deck(decks)
    for card in top:
        rest.remove(card)
    return [*top, *rest]


def new(*top: str, players: list[str] | None = None, **options: Any) -> BlackCatState:
    """A game from a chosen deck; calls are allowed at any time (``stall=0``) unless given:
    the stall rule has its own tests (test_stall.py)."""
    options.setdefault("stall", 0)
    decks = 2 if options.get("long_night") else 1
    return GAME.new_game(
        players or PLAYERS, 7, {"deck": deck_starting(*top, decks=decks), **options}
    )


def take(state: BlackCatState, seat: int, pile: int) -> BlackCatState:
    new_state, _ = GAME.apply(
        state, seat, {"type": "take", "pile": pile, "reveal": state.reveal}, 1.0
    )
    return new_state


# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize("count", [2, 3, 4])
def test_setup_two_to_four_players(count: int) -> None:
    names = ["Ann", "Bea", "Cy", "Dot"][:count]
    state = GAME.new_game(names, 1)
    assert len(state.piles) == count
    assert all(piles == [[], []] for piles in state.piles)


@pytest.mark.parametrize("count", [1, 5])
def test_setup_refuses_other_player_counts(count: int) -> None:
    with pytest.raises(InvalidOptions, match="2 to 4 players"):
        GAME.new_game(["Ann", "Bea", "Cy", "Dot", "Eve"][:count], 1)


def test_setup_one_poker_deck_face_up() -> None:
    state = GAME.new_game(PLAYERS, 3)
    assert sorted(state.deck) == sorted(full_deck())
    view = GAME.view(state, 0)
    assert view["top"] == state.deck[0]
    assert view["deck_left"] == view["deck_size"] == 52


def test_setup_shuffle_is_deterministic_from_the_seed() -> None:
    assert GAME.new_game(PLAYERS, 3).deck == GAME.new_game(PLAYERS, 3).deck
    assert GAME.new_game(PLAYERS, 3).deck != GAME.new_game(PLAYERS, 4).deck


def test_long_night_on_the_fence_two_decks() -> None:
    state = GAME.new_game(PLAYERS, 3, {"long_night": True})
    assert sorted(state.deck) == sorted(full_deck(2))
    assert GAME.view(state, 0)["deck_size"] == 104


def test_deck_option_gives_the_order_top_first() -> None:
    state = new("5H", "5D")
    assert state.deck[:2] == ["5H", "5D"]
    assert GAME.view(state, None)["top"] == "5H"


def test_deck_option_is_validated() -> None:
    with pytest.raises(InvalidOptions, match="missing"):
        GAME.new_game(PLAYERS, 1, {"deck": full_deck()[:51]})
    with pytest.raises(InvalidOptions, match="not a Black Cat card"):
        GAME.new_game(PLAYERS, 1, {"deck": [*full_deck()[:51], "ZZ"]})
    with pytest.raises(InvalidOptions, match="too many"):
        GAME.new_game(PLAYERS, 1, {"deck": [*full_deck(), "QS"]})
    with pytest.raises(InvalidOptions, match="missing"):
        GAME.new_game(PLAYERS, 1, {"deck": full_deck(), "long_night": True})


def test_deck_option_as_text() -> None:
    state = GAME.new_game(PLAYERS, 1, {"deck": " ".join(deck_starting("QS", "6C"))})
    assert state.deck[:2] == ["QS", "6C"]


def test_variant_options_are_booleans() -> None:
    state = GAME.new_game(PLAYERS, 1, {"lucky_tom": "yes", "music_of_the_night": "off"})
    assert GAME.view(state, 0)["variants"] == {
        "long_night": False,
        "lucky_tom": True,
        "music_of_the_night": False,
    }
    with pytest.raises(InvalidOptions, match="yes or no"):
        GAME.new_game(PLAYERS, 1, {"lucky_tom": "maybe"})
    with pytest.raises(InvalidOptions, match="no option"):
        GAME.new_game(PLAYERS, 1, {"lucky_cat": True})


def test_describe_lists_every_option() -> None:
    names = [option["name"] for option in GAME.describe()["options"]]
    assert names == ["deck", "long_night", "lucky_tom", "music_of_the_night", "stall"]
    assert GAME.describe()["min_players"] == 2
    assert GAME.describe()["max_players"] == 4


# --------------------------------------------------------------------------- taking cards


def test_take_top_card_into_either_pile() -> None:
    state = take(new("5H", "5D", "7C"), 0, 1)
    assert state.piles[0] == [[], ["5H"]]
    state = take(state, 0, 0)
    assert state.piles[0] == [["5D"], ["5H"]]
    assert state.deck[0] == "7C"


def test_take_one_card_at_a_time() -> None:
    state = new("5H", "5D")
    after, events = GAME.apply(state, 0, {"type": "take", "pile": 0, "reveal": 1}, 0.0)
    assert after.piles[0][0] == ["5H"]
    assert len(after.deck) == 51
    assert [event.kind for event in events] == ["take", "reveal"]


def test_take_anyone_at_any_time_no_turns() -> None:
    state = new("5H", "5D", "7C", "3C")
    state = take(state, 1, 0)
    state = take(state, 1, 0)
    state = take(state, 0, 1)
    assert state.piles == [[[], ["7C"]], [["5H", "5D"], []]]


def test_reveal_ids_increase_with_each_new_top_card() -> None:
    state = new("5H", "5D")
    assert GAME.view(state, 0)["reveal"] == 1
    state = take(state, 0, 0)
    view = GAME.view(state, 1)
    assert (view["top"], view["reveal"]) == ("5D", 2)


def test_stale_grab_is_refused_and_says_who_was_first() -> None:
    state = new("5H", "5D")
    state, _ = GAME.apply(state, 0, {"type": "take", "pile": 0, "reveal": 1}, 0.0)
    with pytest.raises(StaleReveal, match=r"Too late: Ann took the 5. first") as caught:
        GAME.apply(state, 1, {"type": "take", "pile": 0, "reveal": 1}, 0.0)
    assert caught.value.code == "stale_reveal"
    assert state.piles[1] == [[], []]


def test_grab_for_a_card_not_yet_turned_up_is_refused() -> None:
    with pytest.raises(StaleReveal, match="not been turned up"):
        GAME.apply(new(), 0, {"type": "take", "pile": 0, "reveal": 2}, 0.0)


def test_grab_for_a_long_gone_card_is_refused() -> None:
    state = take(take(new(), 0, 0), 0, 0)
    with pytest.raises(StaleReveal, match="long ago"):
        GAME.apply(state, 1, {"type": "take", "pile": 0, "reveal": 1}, 0.0)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "take", "pile": 2, "reveal": 1},
        {"type": "take", "pile": -1, "reveal": 1},
        {"type": "take", "pile": True, "reveal": 1},
        {"type": "take", "pile": "0", "reveal": 1},
        {"type": "take", "reveal": 1},
        {"type": "take", "pile": 0},
        {"type": "take", "pile": 0, "reveal": "1"},
        {"type": "discard"},
        "take",
    ],
)
def test_malformed_actions_are_refused(action: Any) -> None:
    state = new()
    with pytest.raises(InvalidAction):
        GAME.apply(state, 0, action, 0.0)


def test_unknown_seat_is_refused() -> None:
    with pytest.raises(InvalidAction, match="no seat 2"):
        GAME.apply(new(), 2, {"type": "call"}, 0.0)


def test_apply_leaves_the_input_state_untouched() -> None:
    state = new()
    before = GAME.to_data(state)
    take(state, 0, 0)
    GAME.apply(state, 1, {"type": "call"}, 0.0)
    assert GAME.to_data(state) == before


def test_piles_are_never_rearranged() -> None:
    cards = ["8H", "2D", "8D", "TH"]
    state = new(*cards)
    for _ in cards:
        state = take(state, 0, 0)
    assert state.piles[0][0] == cards


# --------------------------------------------------------------------------- the end


def test_game_ends_when_the_deck_runs_out() -> None:
    state = new()
    for index in range(52):
        assert GAME.outcome(state) is None
        state = take(state, index % 2, index % 3 % 2)
    outcome = GAME.outcome(state)
    assert outcome is not None
    view = GAME.view(state, 0)
    assert view["ended"] == "deck"
    assert view["top"] is None
    assert view["reveal"] is None
    assert view["deck_left"] == 0
    assert view["legal"] == []
    assert "run out" in view["log"][-1]
    with pytest.raises(GameOver):
        GAME.apply(state, 0, {"type": "call"}, 0.0)


def test_call_ends_the_game_and_records_the_caller() -> None:
    state = take(new("3H", "7D"), 1, 0)
    state, events = GAME.apply(state, 0, {"type": "call"}, 2.0)
    assert state.ended == "call"
    assert state.called_by == 0
    assert [event.kind for event in events] == ["call", "game_over"]
    assert CALL_PHRASE in events[0].text
    assert events[0].text.startswith("Ann calls")
    view = GAME.view(state, 1)
    assert view["called_by"] == 0
    assert view["ended"] == "call"
    assert view["deck_left"] == 51
    with pytest.raises(GameOver):
        GAME.apply(state, 1, {"type": "take", "pile": 0, "reveal": state.reveal}, 0.0)


def test_call_allowed_even_when_behind_or_before_any_card() -> None:
    state, _ = GAME.apply(new(), 1, {"type": "call"}, 0.0)
    assert GAME.outcome(state) is not None
    behind = take(take(new("3H", "7D"), 0, 0), 0, 0)
    after, _ = GAME.apply(behind, 1, {"type": "call"}, 0.0)
    outcome = GAME.outcome(after)
    assert outcome is not None
    assert outcome.winners == (0,)


def test_highest_total_wins() -> None:
    state = new("3H", "7D", "TH", "AS")
    state = take(state, 0, 0)
    state = take(state, 0, 0)  # Tomcat: 3
    state = take(state, 1, 1)  # Yowler: 1
    state, events = GAME.apply(state, 1, {"type": "call"}, 0.0)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (3, 1)
    assert outcome.winners == (0,)
    assert "Ann wins with 3 points" in events[-1].text


def test_tie_for_the_top_score_is_a_shared_win() -> None:
    state = new("3H", "7D", "4H", "6D", "AS")
    for seat in (0, 0, 1, 1):
        state = take(state, seat, 0)
    state, events = GAME.apply(state, 0, {"type": "call"}, 0.0)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (3, 3)
    assert outcome.winners == (0, 1)
    assert "share the win" in events[-1].text


def test_score_adds_both_piles_with_queens_chosen_per_pile() -> None:
    # Pile 1 wants its Queen as 11 (Q♣+2♠), pile 2 as 7 (Q♠+6♣).
    state = new("QC", "QS", "2S", "6C")
    for pile in (0, 1, 0, 1):
        state = take(state, 0, pile)
    view = GAME.view(state, 0)
    assert [pile["queens"][0]["value"] for pile in view["piles"][0]] == [11, 7]
    assert view["scores"][0] == 12


def test_lucky_tom_counts_in_the_table_score() -> None:
    plain = take(take(new("5H", "5D"), 0, 0), 0, 0)
    lucky = take(take(new("5H", "5D", lucky_tom=True), 0, 0), 0, 0)
    assert GAME.view(plain, 0)["scores"][0] == 3
    assert GAME.view(lucky, 0)["scores"][0] == 5


def test_music_of_the_night_counts_in_the_table_score() -> None:
    state = new("TH", "TD", "TS", music_of_the_night=True)
    for _ in range(3):
        state = take(state, 1, 1)
    assert GAME.view(state, 0)["scores"][1] == 9


def test_long_night_two_deck_game_plays_to_the_end() -> None:
    state = new("QS", "QS", long_night=True)
    state = take(take(state, 0, 0), 1, 0)
    assert state.piles[0][0] == ["QS"]
    assert state.piles[1][0] == ["QS"]
    for index in range(102):
        state = take(state, index % 2, 1)
    assert GAME.view(state, 0)["ended"] == "deck"


# --------------------------------------------------------------------------- views and queries


def test_legal_actions_take_into_either_pile_or_call() -> None:
    state = take(new(), 0, 0)
    assert GAME.legal_actions(state, 1) == [
        {"type": "take", "pile": 0, "reveal": 2},
        {"type": "take", "pile": 1, "reveal": 2},
        {"type": "call"},
    ]
    assert GAME.view(state, 1)["legal"] == GAME.legal_actions(state, 1)


def test_view_shape() -> None:
    state = take(new("3H", "7D"), 0, 1)
    view = GAME.view(state, 1)
    assert set(view) == {
        "game",
        "phase",
        "seat",
        "players",
        "top",
        "reveal",
        "deck_left",
        "deck_size",
        "piles",
        "scores",
        "last",
        "called_by",
        "ended",
        "variants",
        "stall_s",
        "stalled",
        "legal",
        "log",
        "outcome",
    }
    assert view["seat"] == 1
    assert view["players"] == PLAYERS
    assert view["last"] == {"seat": 0, "pile": 1, "card": "3H", "reveal": 1}
    assert view["piles"][0][1]["cards"] == ["3H"]
    assert view["outcome"] is None
    assert "Ann takes 3\u2665 into pile 2" in view["log"][-2]


def test_view_piles_are_public_with_live_scores() -> None:
    state = take(take(new("3H", "7D"), 0, 1), 0, 1)
    for seat in (0, 1, None):
        view = GAME.view(state, seat)
        pile = view["piles"][0][1]
        expected = score_pile(["3H", "7D"])
        assert {key: pile[key] for key in expected.to_data()} == expected.to_data()
        assert pile["explain"] == expected.explain()
        assert view["scores"] == [3, 0]


def test_view_hides_the_rest_of_the_deck() -> None:
    state = new("3H", "7D")
    hidden = set(state.deck[1:])
    view = GAME.view(state, 0)
    assert view["deck_left"] == 52
    assert not hidden & set(_strings(view))
    assert "deck" not in view["variants"]


def test_spectator_view_has_no_actions() -> None:
    view = GAME.view(new(), None)
    assert view["seat"] is None
    assert view["legal"] == []
    assert view["top"] == "AS"
    assert view["reveal"] == 1


def test_no_timers() -> None:
    state = new()
    assert GAME.deadline(state) is None
    assert GAME.tick(state, 1e9) == (state, [])


def test_assumptions_cover_the_clarifications() -> None:
    text = " ".join(ASSUMPTIONS).lower()
    for topic in ("queen", "jellical", "black cats", "jack or king", "shared win", "call"):
        assert topic in text


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, list | tuple):
        return [text for item in value for text in _strings(item)]
    return []

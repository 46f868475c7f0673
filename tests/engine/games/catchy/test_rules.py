"""Catchy!: one test per rule of the rulebook and of CLARIFICATIONS, plus the worked example."""

from __future__ import annotations

import pytest

from engine.core import (
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    NotYourTurn,
    clone,
)
from engine.games.catchy.rules import (
    ALL_CARDS,
    ARMS_DISTANCE,
    ASSUMPTIONS,
    BLUE,
    GAME,
    JOKER_VALUE,
    RED,
    ROUND_PAUSE_S,
    STARTING,
    TRICKS_PER_ROUND,
    CatchyState,
    Trick,
    resolve_trick,
)
from tests.engine.games.catchy.helpers import PLAYERS, act, deck, new, play, ready

H0 = ["R1", "R3", "G2", "G4", "B1", "B5", "JK"]
H1 = ["R2", "R4", "R5", "G1", "G3", "B2", "B3"]
PLAYED = Trick(0, ("B4", "B2"), 0, False, 0, 0, RED)
"""A finished trick standing in for those a staged position has already played."""


def at(state: CatchyState, **fields: object) -> CatchyState:
    """A copy of ``state`` with some fields set (to stage a position)."""
    staged = clone(state)
    for name, value in fields.items():
        setattr(staged, name, value)
    return staged


# Setup ---------------------------------------------------------------------------


def test_setup_deals_seventeen_cards_three_to_the_course_seven_each() -> None:
    state = GAME.new_game(PLAYERS, 5)
    assert len(state.course) == 3 and [len(h) for h in state.hands] == [7, 7]
    assert sorted([*state.course, *state.hands[0], *state.hands[1]]) == sorted(ALL_CARDS)


def test_setup_starting_card_never_in_the_course() -> None:
    for seed in range(200):
        assert STARTING not in GAME.new_game(PLAYERS, seed).course


def test_setup_cat_at_centre_red_side_up_scores_zero() -> None:
    state = GAME.new_game(PLAYERS, 3)
    assert (state.cat, state.side, state.scores) == (0, RED, [0, 0])


def test_setup_is_deterministic_from_the_seed() -> None:
    a, b = GAME.new_game(PLAYERS, 42), GAME.new_game(PLAYERS, 42)
    assert a == b
    assert any(GAME.new_game(PLAYERS, seed).hands != a.hands for seed in range(43, 50))


def test_first_leader_is_the_starting_card_holder() -> None:
    state = new(["G5", "B4", "JK"], H1, ["ST", "R1", "R3", "G2", "G4", "B1", "B5"])
    assert state.starter == 1 and state.turn == 1 and state.phase == "swap"


def test_starting_card_holder_swaps_it_for_a_course_card() -> None:
    state = new(["G5", "B4", "JK"], ["ST", *H0[:6]])
    after, events = act(state, 0, type="swap", course=2)
    assert "JK" in after.hands[0] and STARTING not in after.hands[0]
    assert after.course == ["G5", "B4", STARTING]
    assert len(after.hands[0]) == 7 and after.phase == "play" and after.turn == 0
    # The other player learns which course card was taken, never which card it was.
    public = [e for e in events if e.visible_to(1)]
    assert all("JK" not in str(e.to_data()) and "Joker" not in e.text for e in public)
    assert any("Joker" in e.text for e in events if e.visible_to(0))


def test_swap_must_come_before_the_first_play() -> None:
    state = new(["G5", "B4", "JK"], ["ST", *H0[:6]])
    with pytest.raises(IllegalAction, match="Swap the Starting card"):
        play(state, 0, "R1")


def test_swap_only_once_per_round() -> None:
    state = ready(H0, H1)
    with pytest.raises(IllegalAction, match="already been swapped"):
        act(state, 0, type="swap", course=1)


def test_swap_only_by_the_holder() -> None:
    state = new(["G5", "B4", "JK"], ["ST", *H0[:6]])
    with pytest.raises(NotYourTurn, match="It is Ann's turn"):
        act(state, 1, type="swap", course=0)


@pytest.mark.parametrize(
    ("index", "message"),
    [(3, "numbered 0 to 2"), (-1, "numbered 0 to 2"), (True, "needs 'course'")],
)
def test_swap_index_must_be_a_course_card(index: object, message: str) -> None:
    state = new(["G5", "B4", "JK"], ["ST", *H0[:6]])
    with pytest.raises(InvalidAction, match=message):
        act(state, 0, type="swap", course=index)


def test_each_round_has_exactly_seven_tricks_of_playable_cards() -> None:
    state = ready(H0, H1)
    assert all(STARTING not in hand and len(hand) == TRICKS_PER_ROUND for hand in state.hands)


# Playing cards -------------------------------------------------------------------


def test_follower_must_follow_the_led_colour() -> None:
    state = play(ready(H0, H1), 0, "R1")
    with pytest.raises(IllegalAction, match="You must follow red"):
        play(state, 1, "G1")


def test_follower_without_the_led_colour_may_play_any_card() -> None:
    hand0 = ["G1", "G2", "G3", "G4", "R1", "R3", "JK"]
    hand1 = ["R2", "R4", "R5", "B1", "B2", "B3", "B4"]
    state = play(ready(hand0, hand1, course=["G1", "G5", "B5"]), 0, "G2")
    assert {a["card"] for a in GAME.legal_actions(state, 1)} == set(hand1)
    assert play(state, 1, "B4").tricks[-1].cards == ("G2", "B4")


def test_joker_may_be_played_any_time_even_holding_the_led_colour() -> None:
    hand1 = ["JK", "R2", "R4", "R5", "G1", "G3", "B2"]
    state = play(ready(["R1", "R3", "G2", "G4", "B1", "B5", "B3"], hand1), 0, "R1")
    assert {"type": "play", "card": "JK"} in GAME.legal_actions(state, 1)
    assert play(state, 1, "JK").tricks[-1].cards == ("R1", "JK")


def test_joker_led_follower_may_play_any_card() -> None:
    state = play(ready(H0, H1), 0, "JK")
    assert {a["card"] for a in GAME.legal_actions(state, 1)} == set(H1)


def test_only_cards_in_hand_may_be_played() -> None:
    state = ready(H0, H1)
    with pytest.raises(IllegalAction, match="You do not hold the Red 2"):
        play(state, 0, "R2")


def test_leader_plays_first_then_follower() -> None:
    state = ready(H0, H1)
    with pytest.raises(NotYourTurn, match="It is Ann's turn"):
        play(state, 1, "R2")
    state = play(state, 0, "R1")
    with pytest.raises(NotYourTurn, match="It is Bea's turn"):
        play(state, 0, "R3")


# Strength ------------------------------------------------------------------------


def test_same_colour_higher_number_wins() -> None:
    assert resolve_trick(0, "R2", "R4", RED).winner == 1
    assert resolve_trick(0, "G4", "G1", RED).winner == 0


def test_different_colour_leader_wins() -> None:
    assert resolve_trick(0, "R1", "B5", RED).winner == 0
    assert resolve_trick(1, "G2", "R4", RED).winner == 1


def test_joker_is_a_colourless_three() -> None:
    assert JOKER_VALUE == 3
    assert resolve_trick(0, "JK", "G2", RED).winner == 0
    assert resolve_trick(0, "R1", "JK", RED).winner == 1
    assert resolve_trick(0, "JK", "B4", RED).winner == 1
    assert resolve_trick(0, "R5", "JK", RED).winner == 0


# The cat's mood and movement --------------------------------------------------------


def test_cat_flips_when_both_cards_are_odd() -> None:
    result = resolve_trick(0, "R1", "G3", RED)
    assert result.flipped and result.side == BLUE
    assert resolve_trick(0, "R1", "G3", BLUE).side == RED


def test_cat_does_not_flip_when_a_card_is_even() -> None:
    assert not resolve_trick(0, "R1", "R2", RED).flipped
    assert not resolve_trick(0, "G4", "B2", BLUE).flipped


def test_red_cat_moves_towards_the_trick_winner() -> None:
    result = resolve_trick(0, "R2", "R4", RED)
    assert (result.winner, result.toward) == (1, 1)


def test_blue_cat_moves_towards_the_player_who_did_not_win() -> None:
    result = resolve_trick(0, "R2", "R4", BLUE)
    assert (result.winner, result.toward) == (1, 0)


def test_player_the_cat_moved_towards_leads_next() -> None:
    state = play(play(ready(H0, H1), 0, "G2"), 1, "G1")  # Ann wins, red: towards Ann
    assert state.cat == -1 and state.leader == state.turn == 0
    state = play(play(state, 0, "R1"), 1, "R2")  # Bea wins, red: towards Bea
    assert state.cat == 0 and state.turn == 1


def test_joker_and_three_flip_but_do_not_move_and_leader_leads_again() -> None:
    state = play(play(ready(H0, H1), 0, "JK"), 1, "G3")
    assert state.cat == 0 and state.side == BLUE and state.turn == 0
    trick = state.tricks[-1]
    assert trick.toward is None and trick.flipped


def test_rulebook_example_same_colour_both_odd_blue_moves_to_lower_number() -> None:
    """<Example of step three and four>: same colour, both odd: the cat flips to
    blue and moves one step towards the player of the lower number."""
    state = play(play(ready(H0, H1), 0, "R3"), 1, "R5")
    assert state.side == BLUE
    assert state.cat == -1  # towards Ann, who played the lower number
    assert state.turn == 0


# End of a round and scoring ---------------------------------------------------------


def test_round_ends_when_the_cat_reaches_a_players_arms_and_they_score_3() -> None:
    state = at(ready(H0, H1), cat=-(ARMS_DISTANCE - 1))
    state = play(play(state, 0, "G2"), 1, "G1")  # Ann wins on red: into Ann's arms
    assert state.scores == [3, 0]
    assert state.round == 2 and state.last_round is not None
    assert state.last_round["position"] == -ARMS_DISTANCE and state.last_round["tricks"] == 1


def test_round_ends_after_seven_tricks_and_the_closer_player_scores_2() -> None:
    state = at(ready(H0, H1), cat=0, tricks=[PLAYED] * 6, hands=[["G2"], ["G1"]])
    state = play(play(state, 0, "G2"), 1, "G1")  # Ann wins on red: one step towards Ann
    assert state.last_round is not None and state.last_round["tricks"] == TRICKS_PER_ROUND
    assert state.scores == [2, 0]


def test_round_ending_at_the_centre_gives_both_players_1() -> None:
    state = at(ready(H0, H1), cat=-1, tricks=[PLAYED] * 6, hands=[["R1"], ["R2"]])
    state = play(play(state, 0, "R1"), 1, "R2")  # Bea wins on red: -1 -> 0
    assert state.scores == [1, 1]


def test_course_is_revealed_at_round_end() -> None:
    state = at(ready(H0, H1), cat=-2)
    course = list(state.course)
    state, events = act(play(state, 0, "G2"), 1, type="play", card="G1")
    assert state.last_round is not None and state.last_round["course"] == course
    end = next(e for e in events if e.kind == "round_end")
    assert end.seats is None and end.data["course"] == course


def test_rule_the_next_round_is_dealt_by_the_hosts_timer_after_the_round_end() -> None:
    state = at(ready(H0, H1), cat=-2)
    state = GAME.apply(play(state, 0, "G2"), 1, {"type": "play", "card": "G1"}, 5.0)[0]
    assert state.phase == "between" and GAME.deadline(state) == 5.0 + ROUND_PAUSE_S
    assert GAME.legal_actions(state, 0) == GAME.legal_actions(state, 1) == []
    assert GAME.view(state, 0)["turn"] is None
    with pytest.raises(IllegalAction, match="next one is being dealt"):
        GAME.apply(state, state.turn, {"type": "play", "card": "G1"}, 5.0)
    dealt, events = GAME.tick(state, 5.0 + ROUND_PAUSE_S)
    assert dealt.round == 2 and dealt.phase == "swap"
    assert [event.kind for event in events] == ["round_start"]


def test_new_round_is_set_up_afresh() -> None:
    state = at(ready(H0, H1), cat=-2)
    state = play(play(state, 0, "G2"), 1, "G1")
    assert state.round == 2 and state.phase == "swap"
    assert (state.cat, state.side, state.trick, state.tricks) == (0, RED, [], [])
    assert [len(hand) for hand in state.hands] == [7, 7] and len(state.course) == 3
    assert STARTING in state.hands[state.starter]


def test_game_ends_when_a_player_reaches_7_and_the_higher_score_wins() -> None:
    state = at(ready(H0, H1), cat=-2, scores=[4, 6])
    state = play(play(state, 0, "G2"), 1, "G1")
    assert state.phase == "over" and state.scores == [7, 6]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    with pytest.raises(GameOver):
        play(state, 0, "R1")
    assert GAME.legal_actions(state, 0) == GAME.legal_actions(state, 1) == []


def test_game_end_says_the_winners_score_first() -> None:
    state = at(ready(H0, H1), cat=1, tricks=[PLAYED] * 6, hands=[["R1"], ["R2"]], scores=[5, 5])
    state = play(state, 0, "R1")
    state, events = act(state, 1, type="play", card="R2")
    assert state.scores == [5, 7]
    end = [event.text for event in events if event.kind == "game_end"]
    assert end == [f"{PLAYERS[1]} wins 7-5!"]


def test_game_is_not_over_below_7() -> None:
    state = at(ready(H0, H1), cat=-2, scores=[3, 6])
    state = play(play(state, 0, "G2"), 1, "G1")
    assert state.phase == "swap" and GAME.outcome(state) is None


def test_both_players_win_on_7_7() -> None:
    state = at(ready(H0, H1), cat=-1, tricks=[PLAYED] * 6, hands=[["R1"], ["R2"]], scores=[6, 6])
    state = play(play(state, 0, "R1"), 1, "R2")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (7, 7) and outcome.winners == (0, 1)


# Options and bad input --------------------------------------------------------------


def test_option_target_changes_the_points_that_end_the_game() -> None:
    state = at(ready(H0, H1, target=3), cat=-2)
    state = play(play(state, 0, "G2"), 1, "G1")
    assert state.phase == "over"


def test_option_arms_changes_the_distance_to_the_arms() -> None:
    state = ready(H0, H1, arms=2)
    state = at(state, cat=-1)
    state = play(play(state, 0, "G2"), 1, "G1")
    assert state.scores == [3, 0]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": 1}, "no option 'colour'"),
        ({"target": 0}, "at least 1"),
        ({"target": "seven"}, "whole number"),
        ({"arms": 1}, "at least 2"),
        ({"deck": ["R1"]}, "missing"),
        ({"deck": ["XX", *ALL_CARDS[1:]]}, "'XX' is not a Catchy! card"),
        ({"deck": [*ALL_CARDS[:-1], "R1"]}, "too many 'R1'"),
        ({"deck": ["ST", *ALL_CARDS[:-1]]}, "Starting card cannot be dealt into the course"),
    ],
)
def test_invalid_options_say_what_is_wrong(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        GAME.new_game(PLAYERS, 1, options)


def test_options_given_as_text_are_converted() -> None:
    state = GAME.new_game(
        PLAYERS, 1, {"target": "5", "deck": " ".join(deck(["R1", "R2", "R3"], ["ST"]))}
    )
    assert state.options["target"] == 5 and state.hands[0][0] == "ST"


def test_deck_option_can_set_several_rounds() -> None:
    first, second = deck(["R1", "R2", "R3"], ["ST"]), deck(["G1", "G2", "G3"], ["ST"])
    state = GAME.new_game(PLAYERS, 1, {"deck": [first, second]})
    assert state.course == ["R1", "R2", "R3"]
    state = at(state, round=2)
    GAME._deal(state, [])
    assert state.course == ["G1", "G2", "G3"]


@pytest.mark.parametrize("players", [["Ann"], ["Ann", "Bea", "Cy"], ["Ann", "Ann"], ["Ann", ""]])
def test_catchy_is_for_two_distinct_players(players: list[str]) -> None:
    with pytest.raises(InvalidOptions):
        GAME.new_game(players, 1)


@pytest.mark.parametrize(
    ("seat", "action", "error", "message"),
    [
        (0, "play", InvalidAction, "a map with a 'type'"),
        (0, {"type": "dance"}, InvalidAction, "Unknown action 'dance'"),
        (0, {"type": "play"}, InvalidAction, "needs 'card'"),
        (0, {"type": "play", "card": 3}, InvalidAction, "needs 'card'"),
        (0, {"type": "play", "card": "Z9"}, InvalidAction, "not a Catchy! card"),
        (5, {"type": "play", "card": "R1"}, InvalidAction, "no seat 5"),
        (1, {"type": "play", "card": "R2"}, NotYourTurn, "It is Ann's turn"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(
    seat: int, action: object, error: type[Exception], message: str
) -> None:
    state = ready(H0, H1)
    before = clone(state)
    with pytest.raises(error, match=message):
        GAME.apply(state, seat, action, 0.0)  # type: ignore[arg-type]
    assert state == before


# Views --------------------------------------------------------------------------------


def test_view_shows_own_hand_and_only_a_count_of_the_other() -> None:
    state = ready(H0, H1)
    view = GAME.view(state, 0)
    assert sorted(view["hand"]) == sorted(H0) and view["hand_counts"] == [7, 7]
    assert not set(H1) & set(str(view).replace("'", " ").replace(",", " ").split())


def test_view_hides_course_cards_until_round_end() -> None:
    state = ready(H0, H1)
    for seat in (0, 1, None):
        assert GAME.view(state, seat)["course"] == [STARTING, "?", "?"]


def test_spectator_sees_no_hand_and_has_no_actions() -> None:
    view = GAME.view(ready(H0, H1), None)
    assert view["hand"] is None and view["legal"] == [] and view["seat"] is None


def test_view_explains_unplayable_cards() -> None:
    state = play(ready(H0, H1), 0, "R1")
    view = GAME.view(state, 1)
    assert view["unplayable"]["G1"] == "You must follow red"
    assert "R2" not in view["unplayable"]


def test_assumptions_are_listed_for_the_rules_help() -> None:
    assert len(ASSUMPTIONS) >= 5 and any("Joker" in line for line in ASSUMPTIONS)


def test_state_round_trips_through_data() -> None:
    state = play(ready(H0, H1), 0, "R1")
    assert GAME.from_data(GAME.to_data(state)) == state

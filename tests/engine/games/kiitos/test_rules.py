"""Kiitos rules, one test per rule (``test_rule_...``) and every worked example of the rulebook."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.core import IllegalAction, InvalidAction, InvalidOptions, NotYourTurn, StaleReveal
from engine.games.kiitos.rules import (
    ASSUMPTIONS,
    CHALLENGE_CARDS,
    GAME,
    LENGTH,
    MAX_WORD_LENGTH,
    POSITIVE,
    SUPER,
    KiitosState,
    NotAWord,
)
from engine.games.kiitos.table import END, START, extensions, fits, full_deck, letters, place
from engine.games.kiitos.words import dictionary, frequency
from tests.engine.games.kiitos.helpers import (
    NAMES,
    act,
    at,
    challenge,
    kinds,
    lead,
    new,
    pickup,
    play,
    say,
)

SIMPLE: dict[str, Any] = {"mode": "simple", "rounds": 1}

ANN = "CTEEIRNO"
BEA = "ASEIOUDL"
"""Ann leads CATS; Bea holds A and S, Ann holds T: the word gets completed."""


def winners(state: KiitosState) -> tuple[int, ...]:
    outcome = GAME.outcome(state)
    assert outcome is not None
    return outcome.winners


def cats(**options: Any) -> KiitosState:
    return new([ANN, BEA], **{**SIMPLE, **options})


# --------------------------------------------------------------------------- components and setup


def test_rule_72_letter_cards_and_no_q() -> None:
    deck = full_deck()
    assert len(deck) == 72
    assert "Q" not in deck
    assert Counter(deck) == Counter(
        "AAAAABBCCCDDDEEEEEEEEFFGGHHIIIIIIJKLLLMMNNNNOOOOOPPRRRRRSSSSSTTTTUUVWXYZ"
    )


def test_rule_cut_for_first_player_closest_to_z() -> None:
    for seed in range(20):
        state = GAME.new_game(NAMES[:3], seed, SIMPLE)
        cuts = [event for event in state.log if event.kind == "cut"]
        final = cuts[-1].data
        letters = dict((seat, letter) for seat, letter in final["cuts"])
        assert final["first"] == max(letters, key=lambda seat: letters[seat])
        assert state.turn == state.first == final["first"]


def test_rule_a_tie_for_the_cut_cuts_again_among_the_tied() -> None:
    for seed in range(200):
        state = GAME.new_game(NAMES[:4], seed, SIMPLE)
        cuts = [event.data for event in state.log if event.kind == "cut"]
        if len(cuts) > 1:
            break
    else:
        pytest.fail("no tied cut in 200 seeds")
    first_cut = dict((seat, letter) for seat, letter in cuts[0]["cuts"])
    best = max(first_cut.values())
    tied = sorted(seat for seat, letter in first_cut.items() if letter == best)
    assert cuts[0]["first"] is None
    assert sorted(seat for seat, _ in cuts[1]["cuts"]) == tied


def test_rule_deal_8_each_the_rest_is_the_draw_deck() -> None:
    state = new([ANN, BEA, "AAAABBCC"], **SIMPLE)
    assert ["".join(letters(hand)) for hand in state.hands] == [ANN, BEA, "AAAABBCC"]
    assert len(state.deck) == 72 - 24
    view = GAME.view(state, 1)
    assert view["hand"] == sorted(BEA)
    assert view["hand_counts"] == [8, 8, 8]
    assert view["deck_count"] == 48


def test_rule_rule_cards_start_green_in_the_full_game() -> None:
    state = new([ANN, BEA])
    assert state.options["mode"] == "full" and state.options["rounds"] == 3
    assert state.sides == {LENGTH: False, POSITIVE: False, SUPER: False}
    assert state.lock is None
    turned = new([ANN, BEA], super_kiitos=True)  # a table may start them otherwise
    assert turned.sides[SUPER] is True


def test_rule_simple_game_sides_are_chosen() -> None:
    state = new([ANN, BEA], mode="simple", min_length=5, positive_x2=True, super_kiitos=True)
    assert state.sides == {LENGTH: True, POSITIVE: True, SUPER: True}
    view = GAME.view(state, 0)
    assert view["rules"] == {"min_length": 5, "positive_x2": True, "super_kiitos": True}


def test_rule_bad_options_are_refused_with_a_sentence() -> None:
    with pytest.raises(InvalidOptions, match="no seat 3"):
        new([ANN, BEA], first=3)
    with pytest.raises(InvalidOptions):
        new([ANN, BEA], deck=["A"] * 72)
    with pytest.raises(InvalidOptions):
        GAME.new_game(NAMES[:2], 1, {"check": "lenient"})


# --------------------------------------------------------------------------- starting a word


def test_rule_starting_a_word_example_cats_plays_c() -> None:
    state, events = act(cats(), 0, type="lead", word="cats", letter="C")
    assert letters(state.table) == ["C"]
    assert state.target == "cats" and state.sayer == 0
    assert state.turn == 1 and state.phase == "play"
    assert "C" not in letters(state.hands[0])
    assert events[0].text == "Ann says CATS and plays C."
    assert GAME.view(state, 1)["target"] == "CATS"


def test_rule_lead_word_has_the_minimum_length() -> None:
    with pytest.raises(IllegalAction, match="at least 4"):
        lead(cats(), 0, "cat")
    five = new([ANN, BEA], mode="simple", min_length=5)
    with pytest.raises(IllegalAction, match="at least 5"):
        lead(five, 0, "cats")
    assert lead(five, 0, "crate").target == "crate"


def test_rule_kiitos_lead_plays_the_first_letter() -> None:
    with pytest.raises(IllegalAction, match="first letter of TRACE"):
        act(cats(), 0, type="lead", word="trace", letter="C")


def test_rule_the_leader_must_hold_the_letter() -> None:
    with pytest.raises(IllegalAction, match="do not hold A"):
        lead(cats(), 0, "apple")


def test_rule_no_upper_limit_to_word_length_within_reason() -> None:
    long = "c" + "o" * (MAX_WORD_LENGTH - 1)
    assert lead(cats(), 0, long).target == long
    with pytest.raises(InvalidAction):
        lead(cats(), 0, long + "o")


def test_rule_any_word_may_be_said_if_unchallenged() -> None:
    state = lead(cats(), 0, "cxqzt")
    assert state.target == "cxqzt"
    assert GAME.reveal(state) == state.reveal_id


def test_rule_words_that_cannot_be_spelt_with_the_cards_may_be_said() -> None:
    # There is no Q card and there are only 2 Bs, but QUIZ-like words and BUBBLES may be said.
    state = new(["BEEIRNOT", BEA], **SIMPLE)
    assert lead(state, 0, "bubbles").target == "bubbles"
    assert lead(cats(), 0, "cinquefoil").target == "cinquefoil"


def test_rule_strict_check_refuses_non_words() -> None:
    state = cats(check="strict")
    with pytest.raises(NotAWord, match="CXQZT"):
        lead(state, 0, "cxqzt")
    led = lead(state, 0, "cats")
    assert GAME.reveal(led) is None
    assert all(action["type"] != "challenge" for action in GAME.legal_actions(led, 1))


def test_rule_only_the_player_at_turn_acts() -> None:
    with pytest.raises(NotYourTurn):
        lead(cats(), 1, "area", "A")


# --------------------------------------------------------------------------- continuing the word


def test_rule_continuing_example_the_second_player_must_play_the_a() -> None:
    state = lead(cats(), 0, "cats")
    assert GAME.legal_actions(state, 1) == [
        {"type": "play", "letter": "A", "side": END},
        {"type": "challenge", "reveal": state.reveal_id},
    ]
    assert GAME.view(state, 1)["compelled"] is True
    with pytest.raises(IllegalAction, match="must continue CATS"):
        say(state, 1, "O", "coda")
    with pytest.raises(IllegalAction, match="must continue CATS"):
        pickup(state, 1)
    state = play(state, 1, "A")
    assert letters(state.table) == ["C", "A"] and state.turn == 0


def test_rule_letters_go_to_the_right_in_kiitos() -> None:
    state = lead(cats(), 0, "cats")
    with pytest.raises(IllegalAction, match="Super-Kiitos"):
        play(state, 1, "A", START)


def test_rule_a_letter_that_does_not_continue_the_word_is_refused() -> None:
    state = lead(cats(), 0, "cats")
    with pytest.raises(IllegalAction, match="does not continue CATS"):
        play(state, 1, "E")


def test_rule_completion_the_sayer_says_kiitos_and_takes_the_letters() -> None:
    state = play(play(lead(cats(), 0, "cats"), 1, "A"), 0, "T")
    state, events = act(state, 1, type="play", letter="S", side=END)
    assert "kiitos" in kinds(events)
    kiitos = next(event for event in events if event.kind == "kiitos")
    assert 'Ann says "Kiitos!"' in kiitos.text
    assert state.positive == [4, 0]  # Ann said it; Bea played the last letter
    assert letters(state.table) == [] and state.target is None


def test_rule_after_a_completion_all_draw_back_to_8_and_the_sayer_leads() -> None:
    state = play(play(play(lead(cats(), 0, "cats"), 1, "A"), 0, "T"), 1, "S")
    assert [len(hand) for hand in state.hands] == [8, 8]
    assert state.phase == "lead" and state.turn == 0
    assert len(state.deck) == 72 - 16 - 4


def test_rule_who_plays_next_is_the_next_player_clockwise() -> None:
    state = new([ANN, BEA, "AAAABBCC"], **SIMPLE)
    state = lead(state, 0, "cats")
    assert state.turn == 1
    state = play(state, 1, "A")
    assert state.turn == 2


def test_rule_without_the_next_letter_example_cogs_or_clasp() -> None:
    state = lead(new([ANN, "OLEIUDMN"], **SIMPLE), 0, "cats")
    assert not GAME.compelled(state, 1)
    cogs = say(state, 1, "O", "cogs")
    assert letters(cogs.table) == ["C", "O"] and cogs.target == "cogs" and cogs.sayer == 1
    clasp = say(state, 1, "L", "clasp")
    assert letters(clasp.table) == ["C", "L"] and clasp.target == "clasp"
    legal = GAME.legal_actions(state, 1)
    assert {"type": "pickup"} in legal
    assert any(action["type"] == "say" for action in legal)


def most_used(part: str, letter: str, side: str, super_kiitos: bool, count: int) -> list[str]:
    """The ``count`` most used common words of 4+ letters that ``part`` and ``letter`` fit."""
    grown = place(part, letter, side)
    order = frequency()
    words = [
        word
        for word in dictionary().common.words
        if fits(grown, word, super_kiitos) and len(word) >= 4 and word != grown
    ]
    return sorted(words, key=lambda word: (order.key(word), word))[:count]


@pytest.mark.parametrize("super_kiitos", [False, True])
def test_the_example_words_offered_are_the_most_used_that_fit(super_kiitos: bool) -> None:
    """Any word may be said; the legal list's examples (which the coach and the table's
    ideas suggest, and the easy bot says) are the most used words for each letter, not
    SCOWL words like ANECDOTA or NEXUS (issue 36, item 9)."""
    state = new(["ELMNOPRW", "ALSOTTGI"], **SIMPLE, super_kiitos=super_kiitos)
    cases = [(state, 0, "")]
    led = lead(new([ANN, "OLEIUDMN"], **SIMPLE, super_kiitos=super_kiitos), 0, "cats")
    cases.append((led, 1, "c"))
    for position, seat, part in cases:
        offered: dict[tuple[str, str], list[str]] = {}
        for action in GAME.legal_actions(position, seat):
            if action["type"] in ("lead", "say"):
                side = str(action.get("side", END))
                offered.setdefault((str(action["letter"]), side), []).append(action["word"])
        assert offered
        for (letter, side), words in offered.items():
            assert words == most_used(part, letter, side, super_kiitos, 2)


def test_rule_the_new_word_overrides_the_target_and_can_be_challenged() -> None:
    state = lead(new([ANN, "OLEIUDMN"], **SIMPLE), 0, "cats")
    first = state.reveal_id
    state = say(state, 1, "O", "cogs")
    assert state.target == "cogs" and state.sayer == 1
    assert GAME.reveal(state) == first + 1
    assert {"type": "challenge", "reveal": first + 1} in GAME.legal_actions(state, 0)


def test_rule_new_word_not_completed_by_its_own_card_example_clog_clot_clothes() -> None:
    state = new([ANN, "TEIUDMNA"], **SIMPLE)
    state = at(state, table=["C", "L", "O"], target="clog", sayer=0, turn=1, phase="play")
    with pytest.raises(IllegalAction, match="finished by your own card"):
        say(state, 1, "T", "clot")
    state = say(state, 1, "T", "clothes")
    assert letters(state.table) == ["C", "L", "O", "T"] and state.target == "clothes"


def test_rule_the_new_word_has_the_minimum_length() -> None:
    state = lead(new([ANN, "OLEIUDMN"], **SIMPLE), 0, "cats")
    with pytest.raises(IllegalAction, match="at least 4"):
        say(state, 1, "O", "cod")


def test_rule_the_new_word_must_extend_the_letters_on_the_table() -> None:
    state = lead(new([ANN, "OLEIUDMN"], **SIMPLE), 0, "cats")
    with pytest.raises(IllegalAction, match="CO does not fit DOGS"):
        say(state, 1, "O", "dogs")


def test_rule_pick_up_when_you_cannot_extend_into_the_negative_pile() -> None:
    state = lead(new([ANN, "OLEIUDMN"], **SIMPLE), 0, "cats")
    state, events = act(state, 1, type="pickup")
    assert state.negative == [0, 1]
    assert letters(state.table) == [] and state.target is None
    assert state.phase == "lead" and state.turn == 1  # whoever picked up leads
    assert [len(hand) for hand in state.hands] == [8, 8]
    assert "picks up C" in events[0].text


def test_rule_draw_back_goes_from_the_next_leader_clockwise() -> None:
    state = new([ANN, "OLEIUDMN", "AAAABBCC"], **SIMPLE)
    state = lead(state, 0, "cats")
    state = say(state, 1, "O", "cogs")
    state = at(state, deck=["X"])
    state, events = act(state, 2, type="pickup")
    # Cy leads next and needs nothing; Ann needs 1 and gets the X; Bea cannot draw.
    drawn = next(event for event in events if event.kind == "draw")
    assert drawn.data["drawn"] == [1, 0, 0]
    assert "round_end" in kinds(events)


# --------------------------------------------------------------------------- the round and scores


def test_rule_the_round_ends_when_someone_cannot_draw_back_to_8() -> None:
    state = lead(new([ANN, "OLEIUDMN"], **SIMPLE), 0, "cats")
    state = at(state, deck=[])
    state, events = act(state, 1, type="pickup")
    assert "round_end" in kinds(events)
    assert GAME.outcome(state) is not None


def test_rule_a_round_goes_on_when_the_deck_just_fills_every_hand() -> None:
    state = lead(new([ANN, "OLEIUDMN"], **SIMPLE), 0, "cats")
    state = at(state, deck=["Z"])
    state, events = act(state, 1, type="pickup")
    assert "round_end" not in kinds(events)
    assert state.deck == [] and state.phase == "lead"


def test_rule_score_is_positive_minus_negative_and_hands_do_not_count() -> None:
    state = at(cats(), positive=[6, 2], negative=[1, 5], challenges=[1, 0], deck=[])
    state = at(state, table=["C"], target="cats", sayer=0, turn=1, phase="play")
    state = at(state, hands=[list("TEEIRNO"), list("OEIUDMNL")])
    state, events = act(state, 1, type="pickup")
    assert state.round_scores == [[6 - 1 - 1, 2 - 6]]
    assert GAME.outcome(state) is not None
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (4, -4)
    assert "Ann 6 - 2 = 4" in next(e.text for e in events if e.kind == "round_end")


def test_rule_positive_pile_x2_doubles_the_positive_cards() -> None:
    state = new([ANN, "OLEIUDMN"], mode="simple", rounds=1, positive_x2=True)
    state = at(state, positive=[6, 2], negative=[1, 0], deck=[])
    state = at(state, table=["C"], target="cats", sayer=0, turn=1, phase="play")
    state = pickup(at(state, hands=[list("TEEIRNO"), list("OEIUDMNL")]), 1)
    assert state.round_scores == [[12 - 1, 4 - 1]]


def test_rule_the_winner_has_the_highest_total_and_ties_are_ties() -> None:
    state = at(cats(), positive=[3, 3], deck=[], table=["C"], target="cats", sayer=0)
    state = at(state, turn=1, phase="play", hands=[list("TEEIRNO"), list("OEIUDMNL")])
    state = pickup(state, 1)  # Bea: 3 - 1
    assert winners(state) == (0,)
    state = at(cats(), positive=[3, 4], deck=[], table=["C"], target="cats", sayer=0)
    state = at(state, turn=1, phase="play", hands=[list("TEEIRNO"), list("OEIUDMNL")])
    state = pickup(state, 1)
    assert winners(state) == (0, 1)


def test_rule_scores_in_the_view_add_this_rounds_piles_to_the_totals() -> None:
    state = at(cats(), totals=[5, -2], positive=[2, 0], negative=[0, 3], challenges=[0, 1])
    assert GAME.scores(state) == [7, -6]


def end_round(state: KiitosState, deck: list[str] | None = None) -> KiitosState:
    """Bea picks up CATS's C with an empty deck: the round ends."""
    state = lead(at(state, deck=deck or []), 0, "cats")
    return pickup(at(state, hands=[state.hands[0], list("OEIUDMNL")]), 1)


def test_rule_later_rounds_the_lowest_score_chooses_who_goes_first() -> None:
    state = new([ANN, BEA], mode="simple", rounds=2)
    state = end_round(at(state, positive=[3, 0]))
    assert state.phase == "choose" and state.turn == 1 and state.round == 2
    assert GAME.legal_actions(state, 1) == [
        {"type": "choose", "seat": 0},
        {"type": "choose", "seat": 1},
    ]
    state, _ = act(state, 1, type="choose", seat=0)
    assert state.phase == "lead" and state.turn == 0 and state.first == 0
    assert [len(hand) for hand in state.hands] == [8, 8]
    assert state.challenge_left == CHALLENGE_CARDS


def test_rule_later_rounds_a_tie_for_last_cuts_again() -> None:
    state = new([ANN, BEA], mode="simple", rounds=2)
    state = end_round(at(state, negative=[1, 0]))  # Ann 0 - 1, Bea 0 - 1
    assert state.phase == "lead" and state.round == 2
    assert any(event.kind == "cut" for event in state.log[-8:])


def test_rule_the_game_lasts_the_agreed_number_of_rounds() -> None:
    state = new([ANN, BEA], mode="simple", rounds=2)
    state = end_round(at(state, positive=[3, 0]))
    assert GAME.outcome(state) is None
    state = act(state, 1, type="choose", seat=0)[0]
    state = end_round(at(state, positive=[0, 1]))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (3 - 0, -1 + 1 - 1)


# --------------------------------------------------------------------------- the full game


def test_rule_full_game_a_completion_flips_a_rule_card_and_moves_the_lock() -> None:
    state = play(play(play(lead(new([ANN, BEA]), 0, "cats"), 1, "A"), 0, "T"), 1, "S")
    assert state.phase == "flip" and state.turn == 0
    assert GAME.legal_actions(state, 0) == [
        {"type": "flip", "card": "length"},
        {"type": "flip", "card": "positive"},
        {"type": "flip", "card": "super"},
    ]
    state, events = act(state, 0, type="flip", card="super")
    assert state.sides[SUPER] is True and state.lock == SUPER
    assert "Super-Kiitos" in events[0].text
    assert state.phase == "lead" and [len(hand) for hand in state.hands] == [8, 8]


def test_rule_full_game_the_locked_card_cannot_flip_twice_in_a_row() -> None:
    state = at(new([ANN, BEA]), phase="flip", turn=0, lock=SUPER)
    state = at(state, sides={LENGTH: False, POSITIVE: False, SUPER: True})
    with pytest.raises(IllegalAction, match="lock token"):
        act(state, 0, type="flip", card=SUPER)
    assert {"type": "flip", "card": SUPER} not in GAME.legal_actions(state, 0)
    state = act(state, 0, type="flip", card=LENGTH)[0]
    assert state.lock == LENGTH and state.sides[SUPER] is True


def test_rule_full_game_rule_cards_keep_their_sides_between_rounds() -> None:
    state = new([ANN, BEA])
    state = at(state, sides={LENGTH: True, POSITIVE: False, SUPER: False}, lock=LENGTH)
    state = at(state, positive=[1, 0], deck=[])
    state = lead(state, 0, "crate")
    state = pickup(at(state, hands=[state.hands[0], list("OEIUDMNL")]), 1)
    assert state.round == 2 and state.sides[LENGTH] is True and state.lock == LENGTH


def test_rule_simple_game_rule_cards_never_flip() -> None:
    state = play(play(play(lead(cats(), 0, "cats"), 1, "A"), 0, "T"), 1, "S")
    assert state.phase == "lead"
    assert state.lock is None and not any(state.sides.values())


# --------------------------------------------------------------------------- Super-Kiitos


def super_state(hands: list[str]) -> KiitosState:
    return new(hands, mode="simple", rounds=1, super_kiitos=True)


def test_rule_super_kiitos_lead_any_letter_of_the_word() -> None:
    state = lead(super_state([ANN, BEA]), 0, "react", "E")
    assert letters(state.table) == ["E"] and state.target == "react"


def test_rule_super_kiitos_example_bubbles() -> None:
    # B on the table of BUBBLES: a U after the first B or before the second B,
    # a B before or after, or an L: BU, UB, BB or BL.
    assert extensions("b", "bubbles", True) == {
        ("U", END),
        ("U", START),
        ("B", START),
        ("B", END),
        ("L", END),
    }
    state = lead(super_state(["BEEIRNOT", "UACDFGHI"]), 0, "bubbles", "B")
    legal = GAME.legal_actions(state, 1)
    assert {"type": "play", "letter": "U", "side": END} in legal
    assert {"type": "play", "letter": "U", "side": START} in legal
    assert letters(play(state, 1, "U", START).table) == ["U", "B"]


def test_rule_super_kiitos_new_word_either_side_any_position() -> None:
    state = lead(super_state([ANN, "OLEIUDMN"]), 0, "cats")
    state = say(state, 1, "I", "music", START)
    assert letters(state.table) == ["I", "C"] and state.target == "music"


def test_rule_super_kiitos_completion_from_either_end() -> None:
    state = lead(super_state(["AEEIRNOT", "CSDFGHIU"]), 0, "cats", "A")
    state = play(state, 1, "C", START)
    state = play(state, 0, "T")
    state = play(state, 1, "S")
    assert state.positive == [4, 0]


# --------------------------------------------------------------------------- the 4-player rule


def four_player_pickup(deck_left: int = 10) -> KiitosState:
    hands = ["CEEIRNOT", "AEEIRNOT", "TEIIRNOS", "LMNOPRED"]
    state = new(hands, **SIMPLE)
    state = lead(state, 0, "cats")
    state = play(state, 1, "A")
    state = play(state, 2, "T")
    state = say(state, 3, "N", "catnap")
    state = at(state, deck=state.deck[:deck_left])
    return pickup(state, 0)  # Ann played the C and picks up all 4 letters


def test_rule_four_player_rule_put_the_top_card_in_your_negative_pile() -> None:
    state = four_player_pickup()
    assert state.negative == [4, 0, 0, 0] and state.turn == 0
    assert {"type": "pass_lead"} in GAME.legal_actions(state, 0)
    deck = len(state.deck)
    state, events = act(state, 0, type="pass_lead")
    assert state.negative == [5, 0, 0, 0] and len(state.deck) == deck - 1
    assert state.turn == 3 and state.phase == "lead"  # the player to the right leads
    assert "Dot leads instead" in events[0].text
    # ...so Ann will play the second letter of the new word.
    state = lead(state, 3, "mops")
    assert state.turn == 0


def test_rule_four_player_rule_is_optional() -> None:
    state = four_player_pickup()
    assert lead(state, 0, "ring", "R").turn == 1


def test_rule_four_player_rule_not_with_an_empty_deck() -> None:
    state = four_player_pickup(deck_left=4)  # exactly refills Ann's 4 cards
    assert state.deck == []
    assert {"type": "pass_lead"} not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="4-player"):
        act(state, 0, type="pass_lead")


def test_rule_four_player_rule_only_for_exactly_4_letters_and_4_players() -> None:
    state = lead(new([ANN, "OLEIUDMN", "AAAABBCC", "EEIIOORS"], **SIMPLE), 0, "cats")
    state = pickup(state, 1)  # one letter
    assert {"type": "pass_lead"} not in GAME.legal_actions(state, 1)
    three = new(["CEEIRNOT", "AEEIRNOT", "TEIIRNOS"], **SIMPLE)
    three = play(play(lead(three, 0, "catch"), 1, "A"), 2, "T")
    three = say(three, 0, "E", "cater")
    three = pickup(at(three, hands=[three.hands[0], list("OOOOIIIU"), three.hands[2]]), 1)
    assert {"type": "pass_lead"} not in GAME.legal_actions(three, 1)


# --------------------------------------------------------------------------- challenges


def test_rule_a_challenged_real_word_stands_and_the_challenger_takes_a_card() -> None:
    state = lead(cats(), 0, "cats")
    state, events = act(state, 1, type="challenge", reveal=state.reveal_id)
    assert state.challenges == [0, 1] and state.challenge_left == CHALLENGE_CARDS - 1
    assert state.target == "cats" and letters(state.table) == ["C"] and state.turn == 1
    assert GAME.reveal(state) is None  # settled: no second challenge
    assert "CATS: it is in the dictionary" in events[0].text
    assert GAME.scores(state) == [0, -1]


def test_rule_a_failed_word_is_taken_back_and_the_player_plays_again() -> None:
    state = lead(cats(), 0, "cxqzt")
    state = challenge(state, 1)
    assert state.challenges == [1, 0]
    assert letters(state.table) == [] and state.target is None
    assert state.phase == "lead" and state.turn == 0
    assert sorted(letters(state.hands[0])) == sorted(ANN)
    with pytest.raises(IllegalAction, match="CXQZT failed a challenge"):
        lead(state, 0, "cxqzt")
    state = lead(state, 0, "trite", "T")  # another letter
    assert state.target == "trite"


def test_rule_a_failed_new_word_restores_the_old_target() -> None:
    state = lead(new([ANN, "OLEIUDMN"], **SIMPLE), 0, "cats")
    state = say(state, 1, "O", "coxqz")
    state = challenge(state, 0)
    assert letters(state.table) == ["C"] and state.target == "cats" and state.sayer == 0
    assert state.turn == 1 and state.phase == "play" and "O" in letters(state.hands[1])
    state = say(state, 1, "O", "cold")  # the same letter, a different word
    assert state.target == "cold"


def test_rule_a_fresh_word_can_be_challenged_afresh() -> None:
    state = challenge(lead(cats(), 0, "cxqzt"), 1)
    before = state.reveal_id
    state = lead(state, 0, "cinqz")
    assert GAME.reveal(state) == before + 1
    state = challenge(state, 1)
    assert state.challenges == [2, 0]
    assert state.refused == ["cxqzt", "cinqz"]


def test_rule_a_word_cannot_be_challenged_once_a_letter_is_played_after_it() -> None:
    state = lead(cats(), 0, "cats")
    reveal = state.reveal_id
    state = play(state, 1, "A")
    assert GAME.reveal(state) is None
    assert all(action["type"] != "challenge" for action in GAME.legal_actions(state, 1))
    with pytest.raises(StaleReveal):
        act(state, 1, type="challenge", reveal=reveal)


def test_rule_challenging_is_optional() -> None:
    state = lead(new([ANN, "XEIOUDLS"], **SIMPLE), 0, "cxqzt")
    state = play(state, 1, "X")  # Bea lets the non-word pass
    assert state.challenges == [0, 0] and letters(state.table) == ["C", "X"]
    assert GAME.reveal(state) is None


def test_rule_you_cannot_challenge_your_own_word() -> None:
    state = lead(cats(), 0, "cxqzt")
    assert all(action["type"] != "challenge" for action in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="own word"):
        challenge(state, 0)


def test_rule_a_challenge_names_the_word_it_means() -> None:
    state = lead(cats(), 0, "cats")
    with pytest.raises(StaleReveal):
        act(state, 1, type="challenge", reveal=state.reveal_id - 1)


def test_rule_with_3_or_4_players_anyone_else_may_grab_a_challenge_card() -> None:
    state = lead(new([ANN, BEA, "AAAABBCC", "EEIIOORS"], **SIMPLE), 0, "cxqzt")
    claim = {"type": "challenge", "reveal": state.reveal_id}
    for seat in (1, 2, 3):
        assert claim in GAME.legal_actions(state, seat)
        assert GAME.is_claim(claim)
    assert GAME.realtime and GAME.claim_types == {"challenge"}
    state = challenge(state, 2)
    assert state.challenges == [1, 0, 0, 0]
    with pytest.raises(StaleReveal):  # the slower grab comes too late
        act(state, 3, **claim)


def test_rule_once_the_8_challenge_cards_are_gone_the_loser_gives_a_card_from_hand() -> None:
    state = at(lead(cats(), 0, "cats"), challenge_left=0)
    state, events = act(state, 1, type="challenge", reveal=state.reveal_id)
    assert state.phase == "forfeit" and state.turn == 1
    assert GAME.legal_actions(state, 1) == [
        {"type": "forfeit", "letter": letter} for letter in sorted(set(BEA))
    ]
    state, events = act(state, 1, type="forfeit", letter="U")
    assert state.negative == [0, 1] and len(state.hands[1]) == 7
    assert state.phase == "play" and state.turn == 1  # play goes on
    assert events[1].seats == (1,) and "U" not in events[0].text
    state = play(state, 1, "A")
    assert len(state.hands[1]) == 6  # not redrawn at once


def test_rule_a_failed_word_with_no_challenge_cards_the_announcer_gives_a_card() -> None:
    state = at(lead(cats(), 0, "cxqzt"), challenge_left=0)
    state = challenge(state, 1)
    assert state.phase == "forfeit" and state.turn == 0
    state = act(state, 0, type="forfeit", letter="E")[0]
    assert state.phase == "lead" and state.turn == 0 and len(state.hands[0]) == 7


def test_rule_challenge_cards_return_after_each_round() -> None:
    state = new([ANN, BEA], mode="simple", rounds=2)
    state = end_round(at(state, challenge_left=2, challenges=[3, 3], positive=[1, 0]))
    state = act(state, 1, type="choose", seat=1)[0]
    assert state.challenge_left == CHALLENGE_CARDS and state.challenges == [0, 0]


def test_rule_the_dictionary_is_hidden_from_nobody_but_words_are_checked_only_when_asked() -> None:
    state = lead(cats(), 0, "cxqzt")
    view = GAME.view(state, 1)
    assert view["target"] == "CXQZT" and view["announcer"] == 0
    assert view["reveal"] == state.reveal_id


# --------------------------------------------------------------------------- views and secrecy


def test_rule_hands_are_secret_and_negative_piles_face_down() -> None:
    state = pickup(lead(new([ANN, "OLEIUDMN"], **SIMPLE), 0, "cats"), 1)
    view = GAME.view(state, 0)
    assert view["hand"] == sorted(letters(state.hands[0]))
    assert view["hand_counts"] == [8, 8]
    assert view["negative"] == [0, 1]
    assert "deck" not in view and view["deck_count"] == len(state.deck)
    spectator = GAME.view(state, None)
    assert spectator["hand"] is None
    for seat, hand in enumerate(state.hands):
        private = [e for e in state.log if e.seats == (seat,)]
        assert all(not e.visible_to(1 - seat) for e in private)
        assert private and hand


def test_rule_the_assumptions_are_listed() -> None:
    assert GAME.assumptions == ASSUMPTIONS
    text = " ".join(ASSUMPTIONS)
    for phrase in ("SCOWL", "strict", "green side up", "lock token", "return to their deck"):
        assert phrase in text

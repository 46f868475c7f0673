"""Katootsie! rules: one test per rule of the rulebook and CLARIFICATIONS, and its examples."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, InvalidOptions, StaleReveal
from engine.games.katootsie import answers
from engine.games.katootsie.rules import (
    CATEGORY_PAUSE_S,
    GAME,
    KATOOTSIE_SECONDS,
    LETTER_PAUSE_S,
    TIE_ACTION,
    LockedOut,
)
from tests.engine.games.katootsie.helpers import NAMES, code, letters, table

RULEBOOK_SENTENCE = (
    'You must omit "The", "A" and "An" for answers that always begin with those words, '
    'usually as title. For example, if the category is "Horror Movies", "The Shining" '
    'would be an acceptable answer for "S", but "The Shining" would not be an acceptable '
    'answer if the letter "T" was drawn.'
)
"""The Katootsie! rulebook, "Proper nouns, 'The, A, An'", word for word."""

# --------------------------------------------------------------------------- the flow


def test_rule_a_category_is_revealed_then_a_letter() -> None:
    game = table()
    view = game.view()
    assert view["category"]["title"] == "Fruits"
    assert view["letter"] is None and view["reveal"] is None
    assert view["letter_at"] == CATEGORY_PAUSE_S
    assert game.to_letter() == "B"
    view = game.view()
    assert view["letter"] == "B" and view["reveal"] == GAME.reveal(game.state)
    assert view["opened_at"] == CATEGORY_PAUSE_S


def test_rule_the_first_fitting_answer_takes_the_letter() -> None:
    game = table()
    game.to_letter()
    game.answer(1, "Banana")
    assert game.state.won[1] == ["B"]
    assert game.state.last is not None and game.state.last.how == "answer"
    assert GAME.reveal(game.state) is None  # that letter is over: no one else may answer


def test_rule_two_letters_per_category_then_a_new_category() -> None:
    game = table(first="BCD", categories=("Fruits", "Colors"))
    game.to_letter()
    game.answer(0, "banana")
    assert game.state.phase == "between"
    assert game.to_letter() == "C"
    game.answer(0, "cherry")
    assert game.view()["category"]["title"] == "Colors"
    assert game.state.phase == "category"
    assert game.to_letter() == "D"


def test_rule_the_letter_pile_has_two_of_each_letter() -> None:
    with pytest.raises(InvalidOptions):
        GAME.new_game(NAMES[:2], 1, {"deck": ["A"] * 52})
    state = GAME.new_game(NAMES[:2], 1)
    assert len(state.letter_cards) == 52
    assert len(set(state.letter_cards)) == 52  # opaque, unique card ids


def test_rule_the_round_ends_when_the_letters_run_out_and_most_letters_win() -> None:
    game = table(players=2, first="")
    while game.state.winners is None and not game.state.sudden:
        game.to_letter()
        letter = game.state.letter
        assert letter is not None
        if letter in "AEIOU":
            game.call(0)
            game.tick()  # nobody answers: Ann takes it
        else:
            game.answer(1, "")  # a blank answer: Ann wins by default
    assert game.state.winners == [0]
    assert GAME.scores(game.state) == [52, 0]
    assert len(game.state.categories_played) == 26
    assert "round_end" in game.kinds()


def test_rule_two_or_three_rounds_add_up() -> None:
    game = table(players=2, first="", rounds=2)
    while game.state.winners is None:
        game.to_letter()
        game.answer(1 if game.state.round == 1 else 0, "")
    assert game.state.round_points == [[52, 0], [0, 52]]
    assert game.state.sudden == [0, 1]  # 52 each after two rounds: sudden death
    assert GAME.outcome(game.state) is not None


def test_rule_q_x_and_z_may_be_anywhere() -> None:
    game = table(first="Q", categories=("Colors",))
    game.to_letter()
    assert game.view()["anywhere"] is True
    game.answer(2, "Aquamarine")  # the rulebook's example
    assert game.state.won[2] == ["Q"]


# --------------------------------------------------------------------------- Katootsie!


def test_rule_katootsie_nobody_answers_in_time_the_caller_takes_the_letter() -> None:
    game = table()
    game.to_letter()
    game.call(0)
    view = game.view()
    assert view["call"]["seat"] == 0
    assert view["call"]["until"] == pytest.approx(game.now + KATOOTSIE_SECONDS)
    game.tick()
    assert game.state.won[0] == ["B"]
    assert "katootsie_won" in game.kinds()


def test_rule_katootsie_the_caller_may_not_answer() -> None:
    game = table()
    game.to_letter()
    game.call(0)
    assert {a["type"] for a in GAME.legal_actions(game.state, 0)} == set()
    with pytest.raises(LockedOut):
        game.answer(0, "banana")


def test_rule_katootsie_a_correct_answer_steals_a_point_from_the_caller() -> None:
    game = table(first="BCA")
    game.to_letter()
    game.answer(0, "banana")
    game.to_letter()
    game.call(0)
    game.answer(1, "cherry", after=3.0)
    assert game.state.won == [[], ["B", "C"], []]  # Ann's B, then the C
    assert game.state.last is not None and game.state.last.how == "caught"


def test_rule_katootsie_a_caller_without_points_owes_the_first_one() -> None:
    game = table(first="BCA")
    game.to_letter()
    game.call(0)
    game.answer(1, "banana")
    assert game.state.debts[0] == [1]
    assert game.view()["debts"] == [[1], [], []]
    game.to_letter()
    game.answer(0, "cherry")  # Ann's first letter pays her debt
    assert game.state.won == [[], ["B", "C"], []]
    assert game.state.debts[0] == []
    assert "debt_paid" in game.kinds()


def test_rule_katootsie_when_everyone_else_is_out_the_caller_takes_it() -> None:
    game = table()
    game.to_letter()
    game.call(0)
    game.answer(1, "apple")
    game.answer(2, "")
    assert game.state.won[0] == ["B"]


def test_rule_one_katootsie_at_a_time() -> None:
    game = table()
    game.to_letter()
    game.call(0)
    assert all(a["type"] != "katootsie" for a in GAME.legal_actions(game.state, 1))
    with pytest.raises(IllegalAction):
        game.call(1)


# --------------------------------------------------------------------------- answers


def test_rule_the_same_letter_twice_the_first_answer_is_not_acceptable_again() -> None:
    game = table(first="BB", categories=("Colors",))  # the rulebook's example
    game.to_letter()
    game.answer(0, "Blue")
    game.to_letter()
    game.answer(1, "blue")
    assert 1 in game.state.locked
    assert game.events[-1].data["verdict"] == "repeat"
    game.answer(2, "black")
    assert game.state.won[2] == ["B"]


def test_rule_a_bad_answer_locks_the_player_out_of_answers_and_calls() -> None:
    game = table()
    game.to_letter()
    game.answer(0, "apple")  # wrong letter: refused at once
    assert game.state.locked == [0]
    assert GAME.legal_actions(game.state, 0) == []
    with pytest.raises(LockedOut):
        game.answer(0, "banana")
    with pytest.raises(LockedOut):
        game.call(0)
    game.answer(1, "banana")
    assert game.state.won[1] == ["B"]


def test_rule_when_all_but_one_are_out_the_last_wins_by_default() -> None:
    game = table()  # the rulebook's example: three players, two bad answers
    game.to_letter()
    game.answer(0, "apple")
    game.answer(1, "cherry")
    assert game.state.won[2] == ["B"]
    assert game.state.last is not None and game.state.last.how == "default"


def test_rule_a_bad_answer_reopens_the_letter_as_a_new_moment() -> None:
    game = table()
    game.to_letter()
    first = GAME.reveal(game.state)
    game.answer(0, "apple")
    assert GAME.reveal(game.state) == (first or 0) + 1
    with pytest.raises(StaleReveal):
        game.act(1, {"type": "answer", "reveal": first, "text": "banana"})


def test_rule_an_answer_in_the_list_is_accepted_at_once_normalised() -> None:
    game = table()
    game.to_letter()
    game.answer(0, "  BANANAS! ")
    assert game.state.won[0] == ["B"]


def test_rule_a_category_marked_ignore_a_an_and_the_prints_the_reminder() -> None:
    game = table(first="ST", categories=("Horror Movies",))
    assert "Ignore 'A', 'An' and 'The'" in game.view()["category"]["label"]
    game.to_letter()
    game.answer(0, "The Shining")  # the rulebook's example: fine for S
    assert game.state.won[0] == ["S"]
    game.to_letter()
    game.answer(1, "The Thing")
    assert game.state.won[1] == ["T"]
    assert game.state.locked == [] and game.state.phase != "letter"


def test_rule_the_shining_is_not_an_answer_for_t() -> None:
    game = table(first="T", categories=("Horror Movies",))
    game.to_letter()
    game.answer(0, "The Shining")
    assert game.state.locked == [0]


def test_rule_you_must_omit_the_a_and_an_for_answers_that_always_begin_with_those_words() -> None:
    """The rule holds in every category, not only in those that print the reminder.

    The rulebook ("Proper nouns, 'The, A, An'"): "You must omit "The", "A" and "An"
    for answers that always begin with those words, usually as title. For example,
    if the category is "Horror Movies", "The Shining" would be an acceptable answer
    for "S", but "The Shining" would not be an acceptable answer if the letter "T"
    was drawn. "Ignore 'A', 'An' and 'The'" is written on those categories, as a
    reminder."

    The rule is stated for answers, and the printed words are "a reminder" of it,
    so Cities (an unmarked category) follows it too. Decision for the article's own
    letter: omitting is a "must", and the rulebook's example refuses "The Shining"
    for T, so "The Hague" is refused for T (a wrong letter, the player is out) just
    as it is taken for H, typed with its article or without.
    """
    assert answers.ARTICLE_RULE in RULEBOOK_SENTENCE
    assert not answers.category(code("Cities")).ignore_articles  # no reminder on this card
    game = table(first="HT", categories=("Cities",))
    assert "Ignore" not in game.view()["category"]["label"]
    assert game.to_letter() == "H"
    game.answer(0, "The Hague")
    assert game.state.won[0] == ["H"]  # a known answer for H: taken at once
    assert game.state.last is not None and game.state.last.how == "answer"
    assert game.to_letter() == "T"
    game.answer(1, "The Hague")
    assert game.state.locked == [1]
    assert game.events[-1].data["verdict"] == "wrong_letter"
    game.answer(2, "Tacoma")
    assert game.state.won[2] == ["T"]
    assert answers.check(code("Cities"), "H", "Hague", set()) is answers.Verdict.LISTED


def test_rule_a_disputed_answer_goes_to_the_others_vote() -> None:
    game = table(players=4)
    game.to_letter()
    game.answer(0, "Bramble surprise")
    view = game.view()
    assert view["phase"] == "vote" and view["reveal"] is None
    assert view["vote"]["voters"] == [1, 2, 3]
    assert GAME.legal_actions(game.state, 0) == []
    game.vote(1, False)
    game.vote(2, False)
    game.vote(3, True)
    assert game.state.locked == [0]
    assert game.state.phase == "letter"


def test_rule_a_strict_majority_of_votes_cast_is_needed_to_reject() -> None:
    game = table(players=3)
    game.to_letter()
    game.answer(0, "Bramble surprise")
    game.vote(1, False)
    game.vote(2, True)  # one each: a tied vote lets it stand (assumed)
    assert game.state.won[0] == ["B"]
    assert "assumed" in game.events[-2].text or "assumed" in game.events[-1].text


def test_rule_no_votes_let_a_disputed_answer_stand() -> None:
    game = table(players=3)
    game.to_letter()
    game.answer(0, "Bramble surprise")
    game.tick()  # the vote window closes with no votes
    assert game.state.won[0] == ["B"]
    assert any("no votes" in event.text for event in game.events)


def test_rule_a_vote_pauses_the_katootsie_timer() -> None:
    game = table(players=3)
    game.to_letter()
    game.call(0)
    game.answer(1, "Bramble surprise", after=9.0)
    game.vote(0, False)
    game.vote(2, False)
    call = game.view()["call"]
    assert call is not None
    assert call["until"] == pytest.approx(game.now + 1.0)  # the second that was left
    game.tick()
    assert game.state.won[0] == ["B"]


# --------------------------------------------------------------------------- ties


def tie(game: object, texts: dict[int, str]) -> None:
    from tests.engine.games.katootsie.helpers import Table

    assert isinstance(game, Table)
    moment = GAME.reveal(game.state)
    claims = [
        {"seat": seat, "action": {"type": "answer", "reveal": moment, "text": text}}
        for seat, text in texts.items()
    ]
    seat = next(iter(texts))
    game.act(seat, {"type": TIE_ACTION, "reveal": moment, "claims": claims})


def test_rule_ties_the_others_vote_who_was_first() -> None:
    game = table(players=4)
    game.to_letter()
    tie(game, {0: "banana", 1: "blueberry"})
    view = game.view()
    assert view["phase"] == "first_vote"
    assert view["first_vote"]["voters"] == [2, 3]
    game.act(2, {"type": "first", "seat": 1})
    game.act(3, {"type": "first", "seat": 1})
    assert game.state.won[1] == ["B"]


def test_rule_ties_without_a_majority_play_tie_break_letters() -> None:
    game = table(players=4, first="BCD")
    game.to_letter()
    tie(game, {0: "banana", 1: "blueberry"})
    game.act(2, {"type": "first", "seat": None})
    game.act(3, {"type": "first", "seat": 0})
    assert game.view()["tiebreak"] == {"players": [0, 1], "stake": ["B"]}
    assert game.to_letter() == "C"
    assert GAME.legal_actions(game.state, 2) == []  # only the tied players answer
    game.answer(1, "cherry")
    assert game.state.won[1] == ["B", "C"]  # the winner takes both
    assert game.state.category_letters == 1  # the tie-break letter does not count
    assert game.to_letter() == "D"
    assert game.view()["category"]["title"] == "Fruits"


def test_rule_a_second_tie_adds_a_third_letter() -> None:
    game = table(players=2, first="BCL")
    game.to_letter()
    tie(game, {0: "banana", 1: "blueberry"})  # nobody else votes: straight to a tie-break
    game.to_letter()
    tie(game, {0: "cherry", 1: "cranberry"})
    assert game.view()["tiebreak"]["stake"] == ["B", "C"]
    game.to_letter()
    game.answer(0, "lemon")
    assert game.state.won[0] == ["B", "C", "L"]


def test_rule_a_refused_answer_in_a_tie_loses_to_the_other() -> None:
    game = table(players=3)
    game.to_letter()
    tie(game, {0: "apple", 1: "banana"})
    assert game.state.won[1] == ["B"]
    assert 0 not in [seat for seat, letters in enumerate(game.state.won) if letters]


def test_rule_the_tie_action_must_name_the_open_moment_and_the_tied_seats() -> None:
    game = table(players=3)
    game.to_letter()
    moment = GAME.reveal(game.state)
    claim = {"seat": 0, "action": {"type": "answer", "reveal": moment, "text": "banana"}}
    with pytest.raises(IllegalAction):
        game.act(0, {"type": TIE_ACTION, "reveal": moment, "claims": [claim]})
    with pytest.raises(IllegalAction):
        game.act(2, {"type": TIE_ACTION, "reveal": moment, "claims": [claim, {**claim, "seat": 1}]})
    assert TIE_ACTION in GAME.host_actions and TIE_ACTION not in GAME.claim_types


# --------------------------------------------------------------------------- sudden death


def test_rule_sudden_death_first_to_two_letters_with_a_fresh_pile_and_a_new_category() -> None:
    game = table(players=2, first="")
    turn = 0
    while not game.state.sudden:
        game.to_letter()
        game.answer(turn % 2, "")  # Ann and Bea take letters in turn: 26 each
        turn += 1
    assert game.state.sudden == [0, 1]
    assert any(event.kind == "sudden_death" for event in game.events)
    played = list(game.state.categories_played)
    assert len(played) == 27 and len(set(played)) == 27  # a category not yet played
    assert len(game.state.letter_cards) == 52  # a fresh pile
    assert game.view()["phase"] == "sudden_death_category"
    game.to_letter()
    game.answer(0, "")  # Bea wins one
    assert GAME.outcome(game.state) is None
    assert game.view()["sudden_death"] == {"players": [0, 1], "wins": [0, 1]}
    game.to_letter()
    game.answer(0, "")  # and a second: she wins
    assert game.state.winners == [1]
    said = [event.text for event in game.events if event.kind == "sudden_letter"]
    assert said[-2:] == [
        "Bea wins a sudden-death letter (1 of 2).",
        "Bea wins a sudden-death letter (2 of 2).",
    ]
    outcome = GAME.outcome(game.state)
    assert outcome is not None and outcome.winners == (1,) and outcome.scores == (26, 26)


def test_rule_letters_and_times_are_announced_and_stale_claims_refused() -> None:
    game = table()
    game.to_letter()
    moment = GAME.reveal(game.state)
    with pytest.raises(StaleReveal):
        game.act(0, {"type": "answer", "reveal": (moment or 0) + 1, "text": "banana"})
    game.answer(0, "banana")
    assert game.view()["letter_at"] == pytest.approx(game.now + LETTER_PAUSE_S)


def test_rule_an_unanswered_letter_is_set_aside() -> None:
    game = table()
    game.to_letter()
    game.tick()
    assert game.state.last is not None and game.state.last.how == "set_aside"
    assert GAME.scores(game.state) == [0, 0, 0]


def test_options_are_checked() -> None:
    with pytest.raises(InvalidOptions):
        GAME.new_game(NAMES[:2], 1, {"categories": ["nope"]})
    with pytest.raises(InvalidOptions):
        GAME.new_game(NAMES[:2], 1, {"categories": [code("Fruits"), code("Fruits")]})
    with pytest.raises(InvalidOptions):
        GAME.new_game(NAMES[:2], 1, {"deck": [letters(""), letters("")]})  # one round
    GAME.new_game(NAMES[:2], 1, {"deck": [letters(""), letters("")], "rounds": 2})

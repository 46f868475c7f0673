"""Black Cat scoring: every rule of the rulebook and CLARIFICATIONS.md, and its examples.

Piles are written as space-separated card codes (``"QS 6C"``), first card
taken first. The rulebook's two example pictures are lost; the piles below
are rebuilt from what the text says about them.
"""

from __future__ import annotations

import itertools

import pytest

from engine.core import Rng
from engine.games.blackcat.scoring import (
    BLACK_CAT,
    BLACK_CAT_POINTS,
    JELLICAL,
    JELLICAL_POINTS,
    LUCKY_TOM_POINTS,
    TOMCAT,
    TOMCAT_POINTS,
    YOWLER,
    YOWLER_POINTS,
    InvalidCard,
    PileScore,
    card_label,
    evaluate_pile,
    full_deck,
    score_pile,
)


def score(text: str, **variants: bool) -> PileScore:
    return score_pile(text.split(), **variants)


def pairs(result: PileScore, kind: str) -> list[tuple[str, ...]]:
    """The cards (codes) of each cat of ``kind``."""
    return [tuple(result.cards[i] for i in cat.cards) for cat in result.of_kind(kind)]


# ------------------------------------------------------------------------- the rulebook's examples


def test_rulebook_example_one_three_tomcats_and_a_yowler() -> None:
    # "8-2-8 counts as two Tomcats. The 10 by itself is not a Tomcat, but it
    # does count as a Yowler. The 3-7 pair counts as another Tomcat. The 6-A-3
    # sequence, though it adds to 10, does not count."
    result = score("8H 2D 8D TH 3H 7D 6H AD 3D")
    assert pairs(result, TOMCAT) == [("8H", "2D"), ("2D", "8D"), ("3H", "7D")]
    assert pairs(result, YOWLER) == [("TH",)]
    assert result.count(JELLICAL) == 0
    assert result.count(BLACK_CAT) == 0
    assert result.total == 3 * TOMCAT_POINTS + YOWLER_POINTS


def test_rulebook_example_two_every_kind_of_cat() -> None:
    # Five Tomcats (5-5, 8-2, 2-8, 7-3, 4-6), no Yowlers, two Jellical Cats
    # (2-Q-Q-2), one Black Cat (Q-6 with the Queen as 7); the 6 of clubs
    # beside the Queen of hearts is no Black Cat because the Queen is red.
    result = score("5H 5D 8H 2S 8D 7H 3D 4H 6C QH 2H QD QC 2D QS 6S")
    assert pairs(result, TOMCAT) == [
        ("5H", "5D"),
        ("8H", "2S"),
        ("2S", "8D"),
        ("7H", "3D"),
        ("4H", "6C"),
    ]
    assert result.count(YOWLER) == 0
    assert pairs(result, JELLICAL) == [("QD",), ("QC",)]
    assert pairs(result, BLACK_CAT) == [("QS", "6S")]
    assert result.queen_values()[14] == 7
    assert result.total == 5 * TOMCAT_POINTS + 2 * JELLICAL_POINTS + BLACK_CAT_POINTS


def test_rulebook_example_two_six_of_clubs_beside_queen_of_hearts_is_no_black_cat() -> None:
    assert score("6C QH").count(BLACK_CAT) == 0
    assert score("6C QS").count(BLACK_CAT) == 1


# --------------------------------------------------------------------------- card values


@pytest.mark.parametrize(
    ("pile", "tomcats"),
    [
        ("AH 9D", 1),  # Ace = 1
        ("2H 8D", 1),
        ("4H 6D", 1),
        ("TH JD", 1),  # Jack = 0
        ("KH TD", 1),  # King = 0
        ("JH KD", 0),  # 0 + 0
        ("QH 3D", 1),  # Queen as 7
        ("AH AD", 0),
    ],
)
def test_card_values(pile: str, tomcats: int) -> None:
    assert score(pile).count(TOMCAT) == tomcats


def test_queen_is_never_worth_other_than_seven_or_eleven() -> None:
    with pytest.raises(ValueError, match="7 or 11"):
        evaluate_pile(["QH", "3D"], {0: 8})
    with pytest.raises(ValueError, match="not a Queen"):
        evaluate_pile(["KH", "3D"], {0: 7})


def test_queen_as_eleven_makes_no_tomcat() -> None:
    assert evaluate_pile(["QH", "3D"], {0: 11}).count(TOMCAT) == 0
    assert evaluate_pile(["QH", "3D"], {0: 7}).count(TOMCAT) == 1


def test_bad_card_codes_are_refused() -> None:
    for bad in ("1H", "QX", "Q", "TEN", "qs"):
        with pytest.raises(InvalidCard, match="not a card"):
            score_pile([bad])


def test_card_labels() -> None:
    assert card_label("QS") == "Q\u2660"
    assert card_label("TH") == "10\u2665"
    assert card_label("AC") == "A\u2663"
    assert card_label("2D") == "2\u2666"


def test_full_deck_has_52_distinct_cards_per_deck() -> None:
    assert len(set(full_deck())) == 52
    assert len(full_deck(2)) == 104
    assert set(full_deck(2)) == set(full_deck())


# --------------------------------------------------------------------------- Tomcats


def test_tomcat_overlapping_pairs_each_count() -> None:
    assert score("8H 2D 8D").count(TOMCAT) == 2
    assert score("5H 5D 5C").count(TOMCAT) == 2


def test_tomcat_only_two_card_pairs() -> None:
    assert score("6H AD 3D").count(TOMCAT) == 0


def test_tomcat_only_adjacent_cards() -> None:
    assert score("3H 9D 7D").count(TOMCAT) == 0


def test_tomcat_ten_beside_jack_or_king_is_also_a_yowler() -> None:
    result = score("TH JD")
    assert result.count(TOMCAT) == 1
    assert result.count(YOWLER) == 1
    assert result.total == TOMCAT_POINTS + YOWLER_POINTS
    both_sides = score("KH TD KC")
    assert both_sides.count(TOMCAT) == 2
    assert both_sides.count(YOWLER) == 1


def test_tomcat_two_tens_are_not_a_pair() -> None:
    result = score("TH TD")
    assert result.count(TOMCAT) == 0
    assert result.count(YOWLER) == 2


def test_tomcat_worth_three() -> None:
    assert score("3H 7D").total == TOMCAT_POINTS == 3


# --------------------------------------------------------------------------- Yowlers


def test_yowler_every_ten_worth_one() -> None:
    assert score("TH 3D TC").total == 2 * YOWLER_POINTS
    assert score("TH").total == 1


def test_yowler_music_of_the_night_worth_the_number_in_the_pile() -> None:
    result = score("TH 3D TC 4H TS", music_of_the_night=True)
    assert [cat.points for cat in result.of_kind(YOWLER)] == [3, 3, 3]
    assert result.total == 9
    assert score("TH", music_of_the_night=True).total == 1
    assert score("TH TD", music_of_the_night=True).total == 4


# --------------------------------------------------------------------------- Jellical Cats


def test_jellical_run_of_face_cards_between_equal_ranks() -> None:
    result = score("2H QD QC 2D")
    assert pairs(result, JELLICAL) == [("QD",), ("QC",)]
    assert [cat.between for cat in result.of_kind(JELLICAL)] == [(0, 3), (0, 3)]
    assert result.total == 2 * JELLICAL_POINTS


def test_jellical_single_face_card_counts() -> None:
    assert score("7H JD 7C").count(JELLICAL) == 1


def test_jellical_every_face_card_of_a_long_run_counts() -> None:
    assert score("4H KD KC KS 4S").count(JELLICAL) == 3


def test_jellical_neighbours_must_share_a_rank() -> None:
    assert score("4H QD QC 5D").count(JELLICAL) == 0


def test_jellical_suits_do_not_matter() -> None:
    assert score("4H QD 4S").count(JELLICAL) == 1


def test_jellical_needs_both_neighbours() -> None:
    assert score("QD QC 2D").count(JELLICAL) == 0
    assert score("2D QD QC").count(JELLICAL) == 0
    assert score("QD").count(JELLICAL) == 0


def test_jellical_run_is_maximal_and_of_one_rank() -> None:
    # The Jack run J-J sits between Q and 2, so it is no Jellical Cat; a Jack
    # run is not the middle of the Queens' sandwich either.
    assert score("2H JD JC 2D").count(JELLICAL) == 2
    assert score("2H QD JC 2D").count(JELLICAL) == 0


def test_jellical_face_cards_can_be_the_sandwich() -> None:
    result = score("KH QD KC")
    assert pairs(result, JELLICAL) == [("QD",)]
    # Alternating face cards: each inner card is sandwiched by the other rank.
    assert score("KH JD KC JS KS").count(JELLICAL) == 3


def test_jellical_only_face_cards() -> None:
    assert score("2H 5D 2C").count(JELLICAL) == 0
    assert score("KH TD KC").count(JELLICAL) == 0  # a ten is not a face card
    assert score("TH KD TC").count(JELLICAL) == 1  # but it can sandwich one


# --------------------------------------------------------------------------- Black Cats


def test_black_cat_two_black_cards_adding_to_thirteen() -> None:
    result = score("6S 7C")
    assert pairs(result, BLACK_CAT) == [("6S", "7C")]
    assert result.total == BLACK_CAT_POINTS == 6


def test_black_cat_longer_run() -> None:
    assert pairs(score("4S 4C 5S"), BLACK_CAT) == [("4S", "4C", "5S")]


def test_black_cat_red_card_breaks_the_chain() -> None:
    assert score("6S 7H").count(BLACK_CAT) == 0
    assert score("6S AH 6C").count(BLACK_CAT) == 0


def test_black_cat_overlapping_runs_count_separately() -> None:
    assert pairs(score("6S 7C 6C"), BLACK_CAT) == [("6S", "7C"), ("7C", "6C")]
    assert pairs(score("3S 4C 6S 3C"), BLACK_CAT) == [("3S", "4C", "6S"), ("4C", "6S", "3C")]


def test_black_cat_jack_or_king_inside_a_run_counts() -> None:
    assert pairs(score("6S JC 7S"), BLACK_CAT) == [("6S", "JC", "7S")]


def test_black_cat_run_beginning_or_ending_with_zero_is_not_counted() -> None:
    assert pairs(score("JS 6S 7C"), BLACK_CAT) == [("6S", "7C")]
    assert pairs(score("6S 7C KS"), BLACK_CAT) == [("6S", "7C")]
    assert pairs(score("KC 6S 7C JS"), BLACK_CAT) == [("6S", "7C")]


def test_black_cat_single_card_is_not_a_run() -> None:
    # No card is worth 13, but a Queen of 11 alone or a 10 alone never counts.
    assert score("QS").count(BLACK_CAT) == 0


def test_black_cat_queen_as_seven() -> None:
    result = score("QS 6C")
    assert result.count(BLACK_CAT) == 1
    assert result.queen_values() == {0: 7}


def test_black_cat_queen_as_eleven() -> None:
    result = score("QC 2S")
    assert result.count(BLACK_CAT) == 1
    assert result.queen_values() == {0: 11}


# --------------------------------------------------------------------------- Queens


def test_queen_value_chosen_to_maximise_the_score() -> None:
    # As 7 the Queen makes a Tomcat with the 3 (3 points); as 11 a Black Cat
    # with the 2 of spades (6 points). One value per Queen: 11 wins.
    result = score("3H QS 2S")
    assert result.queen_values() == {1: 11}
    assert result.count(TOMCAT) == 0
    assert result.count(BLACK_CAT) == 1
    assert result.total == BLACK_CAT_POINTS


def test_queen_one_value_for_every_pattern_it_is_in() -> None:
    # As 7 the Queen would pair with the 3 and also make 6+7 with the 6 of
    # clubs; both need 7, so both count.
    result = score("3H QS 6C")
    assert result.queen_values() == {1: 7}
    assert result.count(TOMCAT) == 1
    assert result.count(BLACK_CAT) == 1


def test_queens_in_one_black_run_are_chosen_together() -> None:
    # 11 + 2 = 13 for the first Queen; the second then needs 7 with the 6.
    result = score("QS 2C 4H QC 6S")
    assert result.queen_values() == {0: 11, 3: 7}
    assert result.count(BLACK_CAT) == 2


def test_queen_ties_prefer_seven_and_say_so() -> None:
    result = score("QH 4D")
    assert result.queen_values() == {0: 7}
    assert [queen.matters for queen in result.queens] == [False]
    assert [queen.matters for queen in score("QC 2S").queens] == [True]


def _brute_force_total(cards: list[str], lucky: bool, music: bool) -> int:
    queens = [i for i, card in enumerate(cards) if card[0] == "Q"]
    best = -1
    for choice in itertools.product((7, 11), repeat=len(queens)):
        values = dict(zip(queens, choice, strict=True))
        total = evaluate_pile(cards, values, lucky_tom=lucky, music_of_the_night=music).total
        best = max(best, total)
    return best


def test_queen_choice_matches_brute_force_on_random_piles() -> None:
    rng = Rng.from_seed(39)
    # Piles rich in Queens, black cards and small values, where choices interact.
    pool = [card for card in full_deck(2) if card[0] in "A23456QJKT" and card[1] in "SCSH"]
    for trial in range(300):
        size = 2 + rng.below(12)
        cards = [rng.choice(pool) for _ in range(size)]
        lucky, music = trial % 2 == 0, trial % 3 == 0
        result = score_pile(cards, lucky_tom=lucky, music_of_the_night=music)
        assert result.total == _brute_force_total(cards, lucky, music), cards
        replayed = evaluate_pile(
            cards, result.queen_values(), lucky_tom=lucky, music_of_the_night=music
        )
        assert replayed.total == result.total


# --------------------------------------------------------------------------- variants


def test_lucky_tom_double_five_worth_five() -> None:
    result = score("5H 5D", lucky_tom=True)
    assert result.total == LUCKY_TOM_POINTS == 5
    assert score("5H 5D").total == TOMCAT_POINTS


def test_lucky_tom_other_tomcats_stay_at_three() -> None:
    assert score("4H 6D", lucky_tom=True).total == TOMCAT_POINTS
    assert score("5H 5D 5C", lucky_tom=True).total == 2 * LUCKY_TOM_POINTS


# --------------------------------------------------------------------------- the breakdown


def test_empty_pile_scores_zero() -> None:
    result = score_pile([])
    assert result.total == 0
    assert result.cats == ()
    assert "0" in result.explain()


def test_total_is_the_sum_of_the_cats() -> None:
    result = score("5H 5D 8H 2S 8D 7H 3D 4H 6C QH 2H QD QC 2D QS 6S TC KC")
    assert result.total == sum(cat.points for cat in result.cats)


def test_explain_names_the_cards_of_every_cat_and_the_queens() -> None:
    text = score("3H QS 2S TD KH").explain()
    assert "Q\u2660-2\u2660 (11+2=13)" in text
    assert "Q\u2660 counts as 11" in text
    assert "10\u2666-K\u2665 (10+0=10)" in text
    assert "1 Yowler" in text
    assert text.endswith("Total: 10")


def test_explain_shows_variant_worth() -> None:
    assert "worth 5" in score("5H 5D", lucky_tom=True).explain()
    assert "worth 2" in score("TH TD", music_of_the_night=True).explain()


def test_to_data_is_plain() -> None:
    data = score("2H QD QC 2D").to_data()
    assert data["score"] == 4
    assert data["counts"] == {TOMCAT: 0, YOWLER: 0, JELLICAL: 2, BLACK_CAT: 0}
    assert data["cats"][0] == {"kind": JELLICAL, "cards": [1], "points": 2, "between": [0, 3]}
    assert data["queens"] == [
        {"position": 1, "value": 7, "matters": False},
        {"position": 2, "value": 7, "matters": False},
    ]

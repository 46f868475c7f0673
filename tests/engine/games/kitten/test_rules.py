"""You Gotta Be Kitten Me!: one test per rule of the rulebook and of CLARIFICATIONS,
and every worked example of the rulebook."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import pytest

from engine.core import GameOver, IllegalAction, InvalidAction, InvalidOptions, NotYourTurn
from engine.games.kitten.cards import (
    THINGS,
    apply_flip,
    card_name,
    count_hand,
    deck,
    matches,
    parse,
    round_total,
    value,
)
from engine.games.kitten.rules import (
    ASSUMPTIONS,
    BIG_TABLE_HAND_SIZE,
    DRAW_COUNT,
    FLIP_RESERVE,
    GAME,
    HAND_SIZE,
    MAX_BID,
    MIN_BID,
)
from tests.engine.games.kitten.helpers import NAMES, NO_HATS, act, at, bid, call, new, order, play

TWO_HATS = ["hat-blue-1", "hat-red-1", *NO_HATS[:3]]
DELUXE_NO_HATS = NO_HATS  # the deluxe deck has three of each single


# Decks ---------------------------------------------------------------------------


def test_rule_decks_are_data_with_their_source_and_licence() -> None:
    text = (
        resources.files("engine.games.kitten")
        .joinpath("data", "kitten-decks.json")
        .read_text("utf-8")
    )
    data = json.loads(text)
    assert "CLARIFICATIONS" in data["source"] and data["licence"]
    assert set(data["decks"]) == {"base", "deluxe"}


def test_rule_base_deck_four_singles_one_double_one_triple_per_pair_and_a_wild() -> None:
    cards = Counter(deck("base"))
    assert sum(cards.values()) == 55
    for accessory in ("hat", "bowtie", "glasses"):
        for colour in ("blue", "red", "green"):
            pair = f"{accessory}-{colour}"
            assert (cards[f"{pair}-1"], cards[f"{pair}-2"], cards[f"{pair}-3"]) == (4, 1, 1)
    assert cards["wild-1"] == 1 and len(cards) == 28


def test_rule_deluxe_deck_three_singles_wilds_and_special_cards() -> None:
    cards = Counter(deck("deluxe"))
    assert sum(cards.values()) == 55
    assert cards["hat-green-1"] == 3 and cards["hat-green-2"] == 1 and cards["hat-green-3"] == 1
    specials = {
        "wild-1": 1,
        "wild-2": 1,
        "wild-3": 1,
        "skip": 2,
        "draw-3": 1,
        "go-fish": 1,
        "cant-see-me": 1,
        "hang-in-there": 1,
        "double-trouble": 1,
    }
    assert {code: cards[code] for code in specials} == specials


def test_rule_both_decks_shuffled_together() -> None:
    assert Counter(deck("both")) == Counter(deck("base")) + Counter(deck("deluxe"))
    state = GAME.new_game(NAMES[:4], 3, {"deck_set": "both"})
    assert len(state.deck) + sum(map(len, state.hands)) == 110


def test_rule_defaults_white_deck_and_no_purrfect() -> None:
    state = GAME.new_game(NAMES[:3], 1)
    assert state.options["deck_set"] == "base" and state.options["purrfect"] is False
    assert Counter([*state.deck, *(c for h in state.hands for c in h)]) == Counter(deck("base"))


@pytest.mark.parametrize(
    "options",
    [
        {"deck_set": "grey"},
        {"deck_set": 3},
        {"purrfect": "maybe"},
        {"max_bid": 0},
        {"max_bid": "lots"},
        {"deck": ["hat-blue-1"]},
        {"deck": ["nope"]},
        {"deck": "hat-blue-1 wild-9"},
        {"deck": [["hat-blue-1"], "wild-1"]},
        {"colour": "red"},
    ],
)
def test_bad_options_are_refused_with_a_sentence(options: dict[str, object]) -> None:
    with pytest.raises(InvalidOptions):
        GAME.new_game(NAMES[:3], 1, options)


def test_explicit_deck_must_match_the_chosen_deck_set() -> None:
    with pytest.raises(InvalidOptions, match=r"is not a You Gotta Be Kitten Me! card"):
        GAME.new_game(NAMES[:2], 1, {"deck": deck("deluxe")})


# Setup ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 11])
def test_rule_two_to_ten_players(players: int) -> None:
    with pytest.raises(InvalidOptions, match="2 to 10 players"):
        GAME.new_game([f"P{i}" for i in range(players)], 1)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_rule_deal_five_cards_each(players: int) -> None:
    state = GAME.new_game(NAMES[:players], 7)
    assert HAND_SIZE == 5
    assert [len(hand) for hand in state.hands] == [5] * players == state.deal_sizes


@pytest.mark.parametrize("players", [7, 8, 9, 10])
def test_rule_deal_three_cards_each_with_seven_or_more_players(players: int) -> None:
    state = GAME.new_game(NAMES[:players], 7)
    assert BIG_TABLE_HAND_SIZE == 3
    assert [len(hand) for hand in state.hands] == [3] * players == state.deal_sizes


def test_rule_first_dealer_is_random_and_seeded() -> None:
    dealers = {GAME.new_game(NAMES[:4], seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert GAME.new_game(NAMES[:4], 9) == GAME.new_game(NAMES[:4], 9)


def test_rule_dealer_opens_with_a_bid() -> None:
    state = new([TWO_HATS, NO_HATS], "glasses-green-1", dealer=1)
    assert state.turn == 1 and GAME.phase(state) == "open"
    assert {action["type"] for action in GAME.legal_actions(state, 1)} == {"bid"}
    with pytest.raises(IllegalAction, match="no bid to call yet"):
        call(state, 1)
    with pytest.raises(NotYourTurn, match="It is Bea's turn"):
        bid(state, 0, 1, "hat")


def test_rule_dealer_opens_with_a_bid_not_a_special_card() -> None:
    state = new([["skip", *NO_HATS[:4]], NO_HATS], "hat-red-1", deck_set="deluxe")
    with pytest.raises(IllegalAction, match="opens the round with a bid"):
        play(state, 0, "skip")


# Bids -----------------------------------------------------------------------------


def test_rule_opening_bid_any_count_of_at_least_one() -> None:
    state = new([TWO_HATS, NO_HATS], "glasses-green-1")
    assert MIN_BID == 1
    assert bid(state, 0, 1, "green").bids == [{"seat": 0, "count": 1, "thing": "green"}]
    assert bid(state, 0, 17, "bowtie").bids[-1]["count"] == 17
    with pytest.raises(IllegalAction, match="at least 1"):
        bid(state, 0, 0, "hat")


def test_rule_bid_count_must_rise() -> None:
    state = bid(new([TWO_HATS, NO_HATS, NO_HATS], "glasses-green-1"), 0, 4, "hat")
    with pytest.raises(IllegalAction, match="Bid more than 4 hats: at least 5"):
        bid(state, 1, 4, "glasses")
    with pytest.raises(IllegalAction, match="Bid more than 4 hats"):
        bid(state, 1, 3, "hat")


def test_example_four_hats_may_become_five_hats_six_glasses_or_five_red() -> None:
    state = bid(new([TWO_HATS, NO_HATS, NO_HATS], "glasses-green-1"), 0, 4, "hat")
    for count, thing in ((5, "hat"), (6, "glasses"), (5, "red")):
        assert bid(state, 1, count, thing).bids[-1] == {"seat": 1, "count": count, "thing": thing}


def test_rule_bid_names_one_accessory_or_colour() -> None:
    assert THINGS == ("hat", "bowtie", "glasses", "blue", "red", "green")
    state = new([TWO_HATS, NO_HATS], "glasses-green-1")
    with pytest.raises(InvalidAction, match="Name an accessory or colour"):
        bid(state, 0, 2, "hats")
    with pytest.raises(InvalidAction, match="needs 'count'"):
        act(state, 0, type="bid", count=True, thing="hat")
    with pytest.raises(InvalidAction, match="needs 'thing'"):
        act(state, 0, type="bid", count=2)


def test_rule_bids_go_up_to_the_table_maximum() -> None:
    assert MAX_BID == 40
    state = new([TWO_HATS, NO_HATS], "glasses-green-1", max_bid=6)
    with pytest.raises(IllegalAction, match="Bids go up to 6"):
        bid(state, 0, 7, "hat")
    legal = GAME.legal_actions(state, 0)
    assert len(legal) == 6 * len(THINGS) and max(a["count"] for a in legal) == 6


def test_rule_play_goes_clockwise_to_the_next_player_still_in() -> None:
    state = new([TWO_HATS, NO_HATS, NO_HATS, NO_HATS], "glasses-green-1", dealer=3)
    state = bid(state, 3, 1, "hat")
    assert state.turn == 0
    state = at(state, deal_sizes=[5, 0, 5, 5], hands=[state.hands[0], [], *state.hands[2:]])
    assert bid(state, 0, 2, "hat").turn == 2


def test_rule_only_the_current_player_bids_or_challenges() -> None:
    state = bid(new([TWO_HATS, NO_HATS, NO_HATS], "glasses-green-1"), 0, 1, "hat")
    with pytest.raises(NotYourTurn, match="It is Bea's turn"):
        call(state, 2)
    assert GAME.legal_actions(state, 2) == [] and GAME.legal_actions(state, 0) == []


# The challenge ----------------------------------------------------------------------


def test_rule_challenge_total_below_bid_bidder_loses() -> None:
    state = bid(new([TWO_HATS, NO_HATS], "glasses-green-1"), 0, 3, "hat")
    after = call(state, 1)
    assert after.deal_sizes == [4, 5]
    assert after.last_reveal is not None and after.last_reveal["total"] == 2
    assert after.last_reveal["loser"] == 0


def test_rule_challenge_total_equal_to_bid_challenger_loses() -> None:
    after = call(bid(new([TWO_HATS, NO_HATS], "glasses-green-1"), 0, 2, "hat"), 1)
    assert after.deal_sizes == [5, 4]


def test_rule_challenge_total_above_bid_challenger_loses() -> None:
    after = call(bid(new([TWO_HATS, NO_HATS], "glasses-green-1"), 0, 1, "hat"), 1)
    assert after.deal_sizes == [5, 4]


def test_rule_flipped_card_counts_like_a_hand_card() -> None:
    state = bid(new([TWO_HATS, NO_HATS], "hat-green-3"), 0, 5, "hat")
    after = call(state, 1)
    assert after.last_reveal is not None
    assert after.last_reveal["flipped"] == "hat-green-3" and after.last_reveal["total"] == 5
    assert after.deal_sizes == [5, 4]
    assert call(bid(state, 1, 6, "hat"), 0).deal_sizes == [5, 4]


def test_rule_every_hand_is_revealed_with_what_it_adds() -> None:
    state = bid(new([TWO_HATS, ["hat-green-2", *NO_HATS[:4]], NO_HATS], "wild-1"), 0, 3, "hat")
    reveal = call(state, 1).last_reveal
    assert reveal is not None
    assert [(h["seat"], h["adds"]) for h in reveal["hands"]] == [(0, 2), (1, 2), (2, 0)]
    assert sorted(reveal["hands"][0]["cards"]) == sorted(TWO_HATS)
    assert (reveal["flip_adds"], reveal["subtotal"], reveal["total"]) == (1, 4, 5)
    assert reveal["bid"] == {"seat": 0, "count": 3, "thing": "hat"}
    assert reveal["caller"] == 1 and reveal["call"] == "challenge"


def test_rule_the_reveal_explains_itself_in_the_log() -> None:
    state = bid(new([TWO_HATS, NO_HATS], "hat-green-3"), 0, 6, "hat")
    after, events = act(state, 1, type="challenge")
    texts = [event.text for event in events]
    assert "Bea calls You Gotta Be Kitten Me! on Ann's 6 hats." in texts
    assert "Reveal, hats: Ann 2, Bea 0; Ann flips Triple Green Hat (+3); total 5." in texts
    assert "5 is less than 6: the bid fails. Ann loses a card (the bid failed)." in texts
    assert after.log[-1].kind == "deal"


def test_rule_no_challenge_of_your_own_bid_you_must_bid_again() -> None:
    state = new([["skip", *NO_HATS[:4]], ["skip", *NO_HATS[:4]]], "hat-red-1", deck_set="deluxe")
    state = play(bid(state, 0, 1, "hat"), 1, "skip")
    assert state.turn == 0
    assert {action["type"] for action in GAME.legal_actions(state, 0)} == {"bid"}
    with pytest.raises(IllegalAction, match="your own bid"):
        call(state, 0)
    with pytest.raises(IllegalAction, match="Your own bid came back to you: make a new bid"):
        play(state, 0, "skip")
    assert bid(state, 0, 2, "hat").turn == 1


# Purrfect -----------------------------------------------------------------------------


def test_rule_purrfect_is_a_table_option() -> None:
    state = bid(new([TWO_HATS, NO_HATS], "glasses-green-1"), 0, 2, "hat")
    assert {"type": "purrfect"} not in GAME.legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="does not play Purrfect"):
        call(state, 1, "purrfect")
    state = bid(new([TWO_HATS, NO_HATS], "glasses-green-1", purrfect=True), 0, 2, "hat")
    assert {"type": "purrfect"} in GAME.legal_actions(state, 1)


def test_rule_purrfect_exact_total_bidder_loses_caller_gains() -> None:
    state = bid(new([TWO_HATS, NO_HATS], "glasses-green-1", purrfect=True), 0, 2, "hat")
    after, events = act(state, 1, type="purrfect")
    assert after.deal_sizes == [4, 6]
    assert "Exactly 2: Purrfect! Ann loses a card (the bid was exact);" in events[-2].text


@pytest.mark.parametrize("count", [1, 3])
def test_rule_purrfect_wrong_total_caller_loses(count: int) -> None:
    state = bid(new([TWO_HATS, NO_HATS], "glasses-green-1", purrfect=True), 0, count, "hat")
    assert call(state, 1, "purrfect").deal_sizes == [5, 4]


def test_rule_purrfect_only_on_the_standing_bid_of_another_player() -> None:
    state = new([TWO_HATS, NO_HATS], "glasses-green-1", purrfect=True)
    with pytest.raises(IllegalAction, match="no bid to call"):
        call(state, 0, "purrfect")
    state = bid(bid(state, 0, 1, "hat"), 1, 2, "hat")
    assert call(state, 0, "purrfect").deal_sizes == [6, 4]


# Cards and counting: the rulebook's examples --------------------------------------------


def test_example_single_card_counts_one_blue_and_one_hat() -> None:
    assert {thing: value("hat-blue-1", thing) for thing in THINGS} == {
        "hat": 1,
        "bowtie": 0,
        "glasses": 0,
        "blue": 1,
        "red": 0,
        "green": 0,
    }


def test_example_double_card_counts_two_greens_and_two_bow_ties() -> None:
    assert value("bowtie-green-2", "green") == 2 and value("bowtie-green-2", "bowtie") == 2
    assert value("bowtie-green-2", "hat") == 0 and value("bowtie-green-2", "red") == 0


def test_example_triple_card_counts_three_reds_and_three_glasses() -> None:
    assert value("glasses-red-3", "red") == 3 and value("glasses-red-3", "glasses") == 3
    assert value("glasses-red-3", "blue") == 0


def test_rule_wild_double_wild_triple_wild_count_one_two_three_of_everything() -> None:
    for size in (1, 2, 3):
        assert {value(f"wild-{size}", thing) for thing in THINGS} == {size}


def test_rule_special_cards_count_zero_themselves() -> None:
    for code in ("skip", "draw-3", "go-fish", "cant-see-me", "hang-in-there", "double-trouble"):
        assert {value(code, thing) for thing in THINGS} == {0}


def test_example_double_trouble_in_hand_doubles_three_of_each_to_six() -> None:
    hand = ["wild-1", "wild-2", "double-trouble"]
    assert {count_hand(hand, thing).adds for thing in THINGS} == {6}


def test_example_double_trouble_in_hand_in_a_game() -> None:
    ann = ["wild-1", "wild-2", "double-trouble", "bowtie-red-1", "glasses-blue-1"]
    state = new([ann, NO_HATS], "bowtie-green-1", deck_set="deluxe")
    reveal = call(bid(state, 0, 6, "hat"), 1).last_reveal
    assert reveal is not None and reveal["hands"][0]["adds"] == 6 and reveal["total"] == 6
    assert reveal["hands"][0]["doublings"] == 1 and reveal["loser"] == 1


def test_example_flipped_double_trouble_doubles_twelve_hats_to_twenty_four() -> None:
    assert apply_flip(12, "double-trouble", "hat") == 24
    ann = ["hat-blue-3", "hat-red-3", "hat-green-3", "wild-3", "bowtie-red-1"]
    state = new([ann, NO_HATS], "double-trouble", deck_set="deluxe")
    reveal = call(bid(state, 0, 24, "hat"), 1).last_reveal
    assert reveal is not None
    assert (reveal["subtotal"], reveal["flip_effect"], reveal["total"]) == (12, "double", 24)
    assert reveal["loser"] == 1
    assert call(bid(state, 0, 25, "hat"), 1).deal_sizes == [4, 5]


def test_rule_each_double_trouble_doubles_again() -> None:
    hand = ["hat-red-3", "double-trouble", "double-trouble"]
    assert count_hand(hand, "hat").adds == 12 and count_hand(hand, "blue").adds == 0


def test_rule_cant_see_me_in_hand_makes_the_hand_count_zero() -> None:
    assert count_hand(["wild-3", "hat-red-3", "cant-see-me"], "hat").adds == 0
    assert count_hand(["wild-3", "cant-see-me", "double-trouble"], "red").adds == 0
    ann = ["wild-3", "hat-red-3", "cant-see-me", "hat-blue-1", "hat-green-1"]
    state = new([ann, TWO_HATS], "bowtie-green-1", deck_set="deluxe")
    reveal = call(bid(state, 0, 3, "hat"), 1).last_reveal
    assert reveal is not None and reveal["hands"][0]["cant_see_me"]
    assert reveal["total"] == 2 and reveal["loser"] == 0


def test_rule_flipped_cant_see_me_makes_the_round_total_zero() -> None:
    assert round_total([["wild-3", "hat-red-3"]], "cant-see-me", "hat") == 0
    state = new([TWO_HATS, TWO_HATS], "cant-see-me", deck_set="deluxe")
    after = call(bid(state, 0, 1, "hat"), 1)
    assert after.last_reveal is not None and after.last_reveal["total"] == 0
    assert after.deal_sizes == [4, 5]


@pytest.mark.parametrize("flip", ["skip", "draw-3", "go-fish", "hang-in-there"])
def test_rule_other_flipped_specials_add_zero(flip: str) -> None:
    assert round_total([TWO_HATS], flip, "hat") == 2


def test_card_codes_and_names() -> None:
    assert card_name("hat-blue-1") == "Single Blue Hat"
    assert card_name("bowtie-green-2") == "Double Green Bow Tie"
    assert card_name("wild-3") == "Triple Wild" and card_name("cant-see-me") == "Can't See Me"
    assert parse("hat-blue-4") is None and parse("wild-0") is None and parse("") is None
    names = [card_name(code) for code in set(deck("both"))]
    assert not [(a, b) for a in names for b in names if a != b and a in b]


# Special cards in play --------------------------------------------------------------------


def test_rule_skip_passes_the_turn_without_a_bid() -> None:
    bea = ["skip", *NO_HATS[:4]]
    state = bid(new([TWO_HATS, bea, NO_HATS], "hat-red-1", deck_set="deluxe"), 0, 1, "hat")
    after, events = act(state, 1, type="play", card="skip")
    assert after.turn == 2 and after.bids[-1]["seat"] == 0
    assert "skip" not in after.hands[1]
    assert after.played == [{"seat": 1, "card": "skip"}]
    assert events[0].text == "Bea plays Skip." and events[0].seats is None


def test_rule_one_special_card_per_turn() -> None:
    bea = ["skip", "skip", *NO_HATS[:3]]
    state = bid(new([TWO_HATS, bea, NO_HATS], "hat-red-1", deck_set="deluxe"), 0, 1, "hat")
    state = play(state, 1, "skip")
    with pytest.raises(NotYourTurn):
        play(state, 1, "skip")


def test_rule_draw_three_cards_count_this_round_only() -> None:
    top = ["hat-blue-1", "hat-red-1", "hat-green-1"]
    bea = ["draw-3", *NO_HATS[:4]]
    state = new([TWO_HATS, bea], "bowtie-green-1", deck_set="deluxe", top=top)
    state = play(bid(state, 0, 3, "hat"), 1, "draw-3")
    assert sorted(state.hands[1]) == sorted([*NO_HATS[:4], *top])
    assert DRAW_COUNT == 3 and state.played[-1]["count"] == 3
    state = bid(state, 0, 5, "hat")
    after = call(state, 1)
    assert after.last_reveal is not None and after.last_reveal["total"] == 5
    assert after.deal_sizes == [5, 4] and [len(hand) for hand in after.hands] == [5, 4]


def test_rule_draw_three_always_leaves_a_card_to_flip() -> None:
    bea = ["draw-3", *NO_HATS[:4]]
    state = bid(new([TWO_HATS, bea], "bowtie-green-1", deck_set="deluxe"), 0, 1, "hat")
    state = at(state, deck=state.deck[:2])
    after = play(state, 1, "draw-3")
    assert FLIP_RESERVE == 1 and len(after.deck) == 1 and len(after.hands[1]) == 5
    assert play(at(state, deck=state.deck[:1]), 1, "draw-3").played[-1]["count"] == 0


def test_rule_go_fish_takes_every_matching_non_wild_card() -> None:
    ann = ["go-fish", *NO_HATS[:4]]
    bea = ["hat-blue-1", "hat-red-2", "wild-1", "bowtie-green-1", "skip"]
    state = bid(
        new([ann, bea, NO_HATS], "glasses-green-1", deck_set="deluxe", dealer=2), 2, 1, "red"
    )
    after = play(state, 0, "go-fish", target=1, thing="hat")
    assert sorted(after.hands[0]) == sorted([*NO_HATS[:4], "hat-blue-1", "hat-red-2"])
    assert sorted(after.hands[1]) == sorted(["wild-1", "bowtie-green-1", "skip"])
    assert after.turn == 1 and after.played[-1]["count"] == 2
    assert [matches(code, "red") for code in ("hat-red-2", "wild-1", "skip")] == [
        True,
        False,
        False,
    ]


def test_rule_go_fish_cards_are_seen_by_giver_and_taker_only() -> None:
    ann = ["go-fish", *NO_HATS[:4]]
    bea = ["hat-blue-1", "hat-red-2", "wild-1", "bowtie-green-1", "skip"]
    state = bid(
        new([ann, bea, NO_HATS], "glasses-green-1", deck_set="deluxe", dealer=2), 2, 1, "red"
    )
    after, events = act(state, 0, type="play", card="go-fish", target=1, thing="hat")
    public = [event for event in events if event.seats is None]
    assert public[0].text == "Ann plays Go Fish on Bea for hats: 2 cards handed over."
    private = [event for event in events if event.seats is not None]
    assert [event.seats for event in private] == [(0, 1)]
    assert private[0].text == "Bea hands Ann Single Blue Hat, Double Red Hat."
    assert "cards" not in GAME.view(after, 2)["played"][-1]
    assert GAME.view(after, 1)["played"][-1]["cards"] == ["hat-blue-1", "hat-red-2"]
    assert GAME.view(after, 2)["hand_counts"] == [6, 3, 5]


def test_rule_go_fish_names_another_player_still_in() -> None:
    ann = ["go-fish", *NO_HATS[:4]]
    state = new([ann, NO_HATS, NO_HATS], "glasses-green-1", deck_set="deluxe", dealer=2)
    state = bid(state, 2, 1, "red")
    with pytest.raises(IllegalAction, match="another player who is still in"):
        play(state, 0, "go-fish", target=0, thing="hat")
    with pytest.raises(IllegalAction, match="another player who is still in"):
        play(at(state, deal_sizes=[5, 0, 5]), 0, "go-fish", target=1, thing="hat")
    with pytest.raises(InvalidAction, match="no seat 7"):
        play(state, 0, "go-fish", target=7, thing="hat")
    with pytest.raises(InvalidAction, match="needs 'target'"):
        play(state, 0, "go-fish", thing="hat")
    with pytest.raises(InvalidAction, match="Name an accessory"):
        play(state, 0, "go-fish", target=1, thing="cats")


def test_rule_only_skip_draw_three_and_go_fish_are_played() -> None:
    ann = ["cant-see-me", "hang-in-there", "double-trouble", "hat-red-1", "skip"]
    state = bid(new([NO_HATS, ann], "glasses-green-1", deck_set="deluxe"), 0, 1, "red")
    with pytest.raises(IllegalAction, match="Can't See Me works from your hand"):
        play(state, 1, "cant-see-me")
    with pytest.raises(IllegalAction, match="Only Skip, Draw 3 and Go Fish are played"):
        play(state, 1, "hat-red-1")
    with pytest.raises(IllegalAction, match="You do not hold a Go Fish"):
        play(state, 1, "go-fish", target=0, thing="hat")
    with pytest.raises(InvalidAction, match="not a Kitten Me! card"):
        play(state, 1, "joker")
    plays = [a for a in GAME.legal_actions(state, 1) if a["type"] == "play"]
    assert plays == [{"type": "play", "card": "skip"}]


def test_rule_no_special_card_on_a_bid_at_the_table_maximum() -> None:
    bea = ["skip", *NO_HATS[:4]]
    state = bid(new([TWO_HATS, bea], "hat-red-1", deck_set="deluxe", max_bid=5), 0, 5, "hat")
    with pytest.raises(IllegalAction, match="highest allowed: challenge it"):
        play(state, 1, "skip")
    assert GAME.legal_actions(state, 1) == [{"type": "challenge"}]


# Hang In There -------------------------------------------------------------------------


def test_rule_hang_in_there_challenger_correct_gains_a_card() -> None:
    bea = ["hang-in-there", *NO_HATS[:4]]
    state = bid(new([TWO_HATS, bea], "glasses-green-1", deck_set="deluxe"), 0, 3, "hat")
    after, events = act(state, 1, type="challenge")
    assert after.deal_sizes == [4, 6]
    assert "Bea gains a card (Hang In There)" in events[-2].text


def test_rule_hang_in_there_bidder_correct_gains_a_card() -> None:
    ann = ["hang-in-there", "hat-blue-1", "hat-red-1", *NO_HATS[:2]]
    state = bid(new([ann, NO_HATS], "glasses-green-1", deck_set="deluxe"), 0, 2, "hat")
    assert call(state, 1).deal_sizes == [6, 4]


def test_rule_hang_in_there_helps_only_the_side_that_was_right() -> None:
    ann = ["hang-in-there", "hat-blue-1", "hat-red-1", *NO_HATS[:2]]
    state = bid(new([ann, NO_HATS], "glasses-green-1", deck_set="deluxe"), 0, 3, "hat")
    assert call(state, 1).deal_sizes == [4, 5]


def test_rule_hang_in_there_stacks_with_purrfect() -> None:
    bea = ["hang-in-there", *NO_HATS[:4]]
    state = new([TWO_HATS, bea], "glasses-green-1", deck_set="deluxe", purrfect=True)
    assert call(bid(state, 0, 2, "hat"), 1, "purrfect").deal_sizes == [4, 7]
    # A wrong Purrfect: the bidder was right, and Hang In There in the bidder's hand pays.
    ann = ["hang-in-there", "hat-blue-1", "hat-red-1", *NO_HATS[:2]]
    state = new([ann, NO_HATS], "glasses-green-1", deck_set="deluxe", purrfect=True)
    assert call(bid(state, 0, 1, "hat"), 1, "purrfect").deal_sizes == [6, 4]


# Rounds, deal sizes, elimination, the end ---------------------------------------------------


def test_rule_loser_deals_the_next_round_and_opens() -> None:
    state = bid(new([TWO_HATS, NO_HATS, NO_HATS], "glasses-green-1"), 0, 1, "hat")
    after = call(state, 1)
    assert (after.round, after.dealer, after.turn) == (2, 1, 1)
    assert GAME.phase(after) == "open" and after.bids == [] and after.played == []


def test_rule_lost_card_lowers_the_deal_size_for_the_rest_of_the_game() -> None:
    state = call(bid(new([TWO_HATS, NO_HATS, NO_HATS], "glasses-green-1"), 0, 9, "hat"), 1)
    assert state.deal_sizes == [4, 5, 5] and [len(h) for h in state.hands] == [4, 5, 5]
    state = call(bid(state, 0, 30, "red"), 1)
    assert state.deal_sizes == [3, 5, 5] and [len(h) for h in state.hands] == [3, 5, 5]
    assert GAME.scores(state) == [3, 5, 5]


def test_rule_gained_card_raises_the_deal_size() -> None:
    state = new([TWO_HATS, NO_HATS], "glasses-green-1", purrfect=True)
    after = call(bid(state, 0, 2, "hat"), 1, "purrfect")
    assert [len(hand) for hand in after.hands] == [4, 6]


def test_rule_every_card_is_collected_and_reshuffled_each_round() -> None:
    state = new([["draw-3", *NO_HATS[:4]], NO_HATS], "glasses-green-1", deck_set="deluxe", dealer=1)
    state = play(bid(state, 1, 1, "hat"), 0, "draw-3")
    after = call(bid(state, 1, 2, "hat"), 0)
    every = [*after.deck, *(card for hand in after.hands for card in hand)]
    assert Counter(every) == Counter(deck("deluxe")) and after.played == []


def test_rule_explicit_deck_per_round() -> None:
    first = order([TWO_HATS, NO_HATS], "glasses-green-1")
    second = list(reversed(first))
    state = GAME.new_game(NAMES[:2], 1, {"deck": [first, second]})
    state = at(state, dealer=0, turn=0)
    after = call(bid(state, 0, 9, "hat"), 1)
    assert after.hands == [second[:4], second[4:9]] and after.deck == second[9:]


def test_rule_player_out_at_zero_cards_and_the_player_to_their_left_deals() -> None:
    # Dan (seat 3) deals; Bea (1 card left) bids badly; Cy skips; Dan challenges.
    cy = ["skip", *NO_HATS[:4]]
    bea = ["hat-red-1", "glasses-red-2", "bowtie-red-2", "glasses-red-3", "bowtie-red-3"]
    dan = [
        "glasses-green-1",
        "glasses-green-2",
        "bowtie-green-2",
        "glasses-blue-2",
        "bowtie-blue-2",
    ]
    state = new([NO_HATS, bea, cy, dan], "glasses-green-3", deck_set="deluxe", dealer=0)
    state = at(state, deal_sizes=[5, 1, 5, 5], hands=[NO_HATS, ["hat-red-1"], cy, dan])
    state = play(bid(bid(state, 0, 1, "hat"), 1, 3, "hat"), 2, "skip")
    after, events = act(state, 3, type="challenge")
    assert after.deal_sizes == [5, 0, 5, 5]
    assert after.dealer == 2 and after.turn == 2
    assert after.hands[1] == [] and "Bea is out." in events[-2].text
    assert GAME.view(after, 0)["out"] == [1]


def test_rule_last_player_with_cards_wins() -> None:
    state = new([TWO_HATS, NO_HATS], "glasses-green-1")
    state = at(state, deal_sizes=[1, 5], hands=[["hat-red-1"], NO_HATS])
    after, events = act(bid(state, 0, 4, "hat"), 1, type="challenge")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (1,) and outcome.scores == (0, 5)
    assert events[-1].text == "Bea is the last player with cards and wins!"
    assert GAME.phase(after) == "over" and GAME.legal_actions(after, 1) == []
    with pytest.raises(GameOver):
        bid(after, 1, 1, "hat")


def test_rule_a_gain_the_deck_cannot_deal_is_not_granted() -> None:
    state = new([TWO_HATS, NO_HATS], "glasses-green-1", purrfect=True)
    state = at(state, deal_sizes=[28, 27])
    after, events = act(bid(state, 0, 2, "hat"), 1, type="purrfect")
    assert after.deal_sizes == [27, 27] and len(after.deck) == FLIP_RESERVE
    assert "the deck has none to spare" in events[-2].text
    assert after.last_reveal is not None and after.last_reveal["refused"]


# Views and secrecy ---------------------------------------------------------------------------


def test_view_shows_own_hand_and_only_counts_of_the_others() -> None:
    state = new([TWO_HATS, NO_HATS, NO_HATS], "glasses-green-1")
    view = GAME.view(state, 0)
    assert sorted(view["hand"]) == sorted(TWO_HATS)
    assert view["hand_counts"] == [5, 5, 5] and view["deck_count"] == 40
    assert "hands" not in view and "deck" not in view
    assert GAME.view(state, None)["hand"] is None and GAME.view(state, None)["legal"] == []


def test_hidden_names_other_hands_and_the_deck_until_a_reveal() -> None:
    ann = ["hat-blue-3", "hat-red-3", "wild-1", "glasses-green-2", "bowtie-red-3"]
    state = new([ann, NO_HATS], "glasses-blue-3")
    hidden = GAME.hidden(state, 1)
    assert hidden["hat-blue-3"] == "Triple Blue Hat" and "glasses-blue-3" in hidden
    assert "bowtie-red-1" not in hidden  # Bea holds one herself
    after = call(bid(state, 0, 1, "hat"), 1)
    assert "hat-blue-3" not in GAME.hidden(after, 1)  # the reveal showed it


def test_draw_three_cards_are_seen_by_the_drawer_only() -> None:
    top = ["hat-blue-3", "wild-3", "hat-green-2"]
    bea = ["draw-3", *NO_HATS[:4]]
    state = new([TWO_HATS, bea], "bowtie-green-1", deck_set="deluxe", top=top)
    after, events = act(bid(state, 0, 3, "hat"), 1, type="play", card="draw-3")
    assert [event.seats for event in events] == [None, (1,)]
    assert events[1].text == "You drew Triple Blue Hat, Triple Wild, Double Green Hat."
    assert "cards" not in GAME.view(after, 0)["played"][-1]
    assert set(top) <= set(GAME.hidden(after, 0))


def test_state_round_trips_through_plain_data() -> None:
    state = bid(new([TWO_HATS, NO_HATS], "glasses-green-1", purrfect=True), 0, 2, "hat")
    state = call(state, 1, "purrfect")
    assert GAME.from_data(GAME.to_data(state)) == state


def test_assumptions_name_every_assumed_value() -> None:
    text = " ".join(ASSUMPTIONS)
    for needle in ("deck_set", "purrfect", "max_bid", str(MAX_BID), "Hang In There", "Go Fish"):
        assert needle in text
    assert GAME.assumptions == ASSUMPTIONS
    assert GAME.bots[0] == ("normal", "engine.games.kitten.bot:KittenBot")


def test_hidden_comes_from_the_game_records_not_from_the_log() -> None:
    ann = ["hat-blue-3", "hat-red-3", "wild-1", "glasses-green-2", "bowtie-red-3"]
    state = new([ann, NO_HATS], "glasses-blue-3")
    # A stray log line naming a secret does not make it stop being one (so a leak is caught).
    state.record([], "hint", "Psst: Triple Blue Hat.", card="hat-blue-3")
    assert GAME.hidden(state, 1)["hat-blue-3"] == "Triple Blue Hat"


def test_names_told_to_a_seat_are_no_longer_its_secrets() -> None:
    top = ["hat-blue-3", "wild-3", "hat-green-2"]
    bea = ["draw-3", *NO_HATS[:4]]
    state = new([TWO_HATS, bea], "bowtie-green-1", deck_set="deluxe", top=top)
    state = play(bid(state, 0, 3, "hat"), 1, "draw-3")
    assert set(top) <= set(state.named_to[1]) and not set(top) & set(state.named)
    assert "draw-3" in state.named

"""The Kitten Me! coach: one test per rule it explains, then a whole coached first game.

The unit tests stage positions from an explicit deck (the engine's hidden ``deck``
option, through the engine tests' helpers) and read the coach's words for Ann (seat 0):
the moves and keys it names, the raising rule with the numbers, and each reveal explained
with its count. The last test plays ``clowder learn kitten`` through Pilot by keys.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

import pytest

from engine.bots import make_bot
from engine.games.kitten.rules import CHALLENGE, GAME, KittenState, KittenView
from tests.engine.games.kitten.helpers import NO_HATS, at, bid, call, new, play
from tests.tui.solo import (
    answered,
    coach_advice,
    coach_log,
    learn_app,
    leave_the_results,
    table_of,
)
from tui.coach import PANEL_ROWS, PANEL_WIDTH, rows
from tui.games.kitten.coach import KittenCoach
from tui.games.kitten.screen import KittenTable, RevealScreen
from tui.screens.results import ResultsScreen
from tui.widgets.coach import MARK, CoachPanel

pytestmark = pytest.mark.timeout(120)

COACH = KittenCoach()
TWO_HATS = ["hat-blue-1", "hat-red-1", *NO_HATS[:3]]
"""Two single hats (one blue, one red) and three cards showing no hat."""
FIVE_HATS = ["hat-blue-3", "hat-red-1", "hat-green-1", "bowtie-green-1", "glasses-red-1"]


def view_of(state: KittenState, seat: int = 0) -> KittenView:
    """What ``seat`` sees (Ann by default), as the coach reads it."""
    return cast(KittenView, GAME.view(state, seat))


def three(
    hands: list[list[str]] | None = None, flip: str = "glasses-green-1", **options: Any
) -> KittenState:
    """Ann, Bea and Cy; Cy deals, so Cy opens and Ann answers first."""
    return new(hands or [TWO_HATS, NO_HATS, NO_HATS], flip, dealer=2, **options)


def explained(state: KittenState, seat: int, action: dict[str, Any], viewer: int = 0) -> list[str]:
    """What the coach tells ``viewer`` after ``seat`` makes ``action``."""
    before = view_of(state, viewer)
    after, _ = GAME.apply(state, seat, action, 0.0)
    return COACH.after(before, view_of(after, viewer))


# The table a first game is played at ---------------------------------------------------


def test_first_game_is_three_players_with_the_white_deck_and_no_purrfect() -> None:
    assert KittenCoach.seats == 3
    assert KittenCoach.first_game == {"deck_set": "base", "purrfect": False}
    state = GAME.new_game(["Ann", "Bea", "Cy"], 1, dict(KittenCoach.first_game))
    assert state.options["deck_set"] == "base" and not state.options["purrfect"]


def test_opening_words_say_the_aim_and_the_keys_of_the_bid_bar() -> None:
    lines = COACH.opening(view_of(three()))
    assert "last player with cards wins" in lines[0]
    assert "b opens the bid bar" in lines[1] and "c challenges" in lines[1]
    assert lines[-1] == "Press r at any time for the rules; q leaves."


# What may be done now ----------------------------------------------------------------------


def test_the_dealer_opens_with_any_count_of_one_thing_and_hears_their_best_thing() -> None:
    state = new([FIVE_HATS, NO_HATS, NO_HATS], "glasses-green-1", dealer=0)
    advice = COACH.now(view_of(state))
    assert advice[0] == "You open round 1: b, then a count and a thing, enter."
    assert advice[1] == "A bid counts all hands + 1 card flipped at a call."
    assert advice[2].startswith("Your best: 5 hats in hand, ~")


def test_a_bid_must_rise_four_hats_to_five_hats_or_five_of_anything() -> None:
    advice = COACH.now(view_of(bid(three(), 2, 4, "hat")))
    assert advice[0] == "Bids must rise: 4 hats -> 5 hats, or 5 of anything (b)."


def test_a_challenge_risks_a_card_on_either_side_named_with_the_bid() -> None:
    advice = COACH.now(view_of(bid(three(), 2, 4, "hat")))
    assert advice[1] == "c: under 4 -> Cy loses a card, else you do."


def test_the_odds_weigh_your_hand_and_the_unseen_cards_against_the_bid() -> None:
    low = COACH.now(view_of(bid(three(), 2, 1, "hat")))
    assert low[-1].startswith("You hold 2 hats, expect ~") and low[-1].endswith("1 looks likely.")
    high = COACH.now(view_of(bid(three(), 2, 15, "hat")))
    assert high[-1].endswith("15 looks high.")
    one = COACH.now(
        view_of(bid(three([["hat-blue-1", *NO_HATS[:4]], NO_HATS, NO_HATS]), 2, 9, "hat"))
    )
    assert one[-1].startswith("You hold 1 hat, expect ~")


def test_your_own_bid_coming_back_can_only_be_raised() -> None:
    hands = [["hat-blue-1", *NO_HATS[:4]], ["skip", *NO_HATS[:4]]]
    state = play(bid(new(hands, "hat-red-1", deck_set="deluxe"), 0, 1, "hat"), 1, "skip")
    advice = COACH.now(view_of(state))
    assert advice[0] == "Your own bid came back: you can't challenge it, only raise."
    assert advice[1] == "Bids must rise: 1 hat -> 2 hats, or 2 of anything (b)."
    assert not any(line.startswith("c:") for line in advice)


def test_the_top_bid_allowed_can_only_be_challenged() -> None:
    advice = COACH.now(view_of(bid(three(max_bid=5), 2, 5, "hat")))
    assert advice[0] == "Cy's 5 hats is the top bid allowed."
    assert advice[1] == "c: under 5 -> Cy loses a card, else you do."
    assert not any("(b)" in line for line in advice)


def test_purrfect_is_offered_with_its_stakes_when_the_table_plays_it() -> None:
    advice = COACH.now(view_of(bid(three(purrfect=True), 2, 2, "hat")))
    assert "p Purrfect: exactly 2 -> you gain a card, Cy loses one." in advice
    plain = COACH.now(view_of(bid(three(), 2, 2, "hat")))
    assert not any("Purrfect" in line for line in plain)


def test_skip_draw_three_and_go_fish_are_named_with_their_keys() -> None:
    ann = ["skip", "draw-3", "go-fish", *NO_HATS[:2]]
    state = three([ann, NO_HATS, NO_HATS], deck_set="deluxe")
    advice = COACH.now(view_of(bid(state, 2, 2, "hat")))
    assert "Or s Skip, d Draw 3 or g Go Fish: no bid this turn." in advice


def test_waiting_names_who_acts_and_the_bid_they_face() -> None:
    state = three()
    assert COACH.now(view_of(state)) == ["Wait: Cy opens round 1 with a bid."]
    state = bid(bid(state, 2, 2, "hat"), 0, 3, "red")
    assert COACH.now(view_of(state)) == ["Wait: Bea raises your 3 red or challenges it."]
    state = bid(state, 1, 4, "red")
    assert COACH.now(view_of(state)) == ["Wait: Cy raises Bea's 4 red or challenges it."]


def test_a_player_out_of_cards_is_told_to_watch_and_the_game_over_says_nothing() -> None:
    state = call(bid(at(three(), deal_sizes=[1, 5, 5]), 2, 1, "hat"), 0)
    assert COACH.now(view_of(state)) == ["You are out of cards: watch the others play on."]
    state = call(
        bid(at(new([TWO_HATS, NO_HATS], "glasses-green-1"), deal_sizes=[5, 1]), 0, 1, "hat"), 1
    )
    assert GAME.outcome(state) is not None
    assert COACH.now(view_of(state)) == []


def test_the_advice_fits_the_panel_over_whole_games_with_every_card_and_call() -> None:
    names = ["Bot Felix", "Bot Oscar", "Bot Simba"]
    for seed in (1, 2, 3):
        state = GAME.new_game(names, seed, {"deck_set": "both", "purrfect": True})
        bots = [make_bot("kitten", "easy", seat) for seat in range(3)]
        while GAME.outcome(state) is None:
            for seat in range(3):
                advice = COACH.now(view_of(state, seat))
                assert rows(advice) <= PANEL_ROWS, f"{PANEL_WIDTH} columns: {advice}"
            action = bots[state.turn].choose(GAME.view(state, state.turn))
            assert action is not None
            state, _ = GAME.apply(state, state.turn, action, 0.0)


# What a reveal meant --------------------------------------------------------------------------


def test_a_failed_bid_is_explained_with_the_count_and_the_bidder_loses() -> None:
    state = bid(three(flip="hat-green-1"), 2, 4, "hat")
    lines = explained(state, 0, {"type": CHALLENGE})
    assert lines == [
        "You challenged Cy's 4 hats. Count of hats: hands 2 (you 2) + flipped card 1 = 3.",
        "3 is fewer than the 4 bid, so the bid failed: Cy, who bid it, loses a card.",
        "Cy now has 4 cards; the loser deals next: Cy deals and opens round 2.",
    ]


def test_a_held_bid_is_explained_with_the_count_and_the_challenger_loses() -> None:
    state = bid(three(flip="hat-green-1"), 2, 3, "hat")
    lines = explained(state, 0, {"type": CHALLENGE})
    assert lines[1] == "3 is at least the 3 bid, so the bid held: you, who challenged, lose a card."
    assert lines[-1] == "You now have 4 cards; the loser deals next: you deal and open round 2."


def test_a_call_between_others_is_explained_to_you_too() -> None:
    state = bid(bid(three(flip="hat-green-1"), 2, 2, "hat"), 0, 3, "hat")
    lines = explained(state, 1, {"type": CHALLENGE})
    assert (
        lines[0]
        == "Bea challenged your 3 hats. Count of hats: hands 2 (you 2) + flipped card 1 = 3."
    )
    assert (
        lines[1] == "3 is at least the 3 bid, so the bid held: Bea, who challenged, loses a card."
    )


def test_wilds_count_as_everything_and_doubles_two_in_the_explanation() -> None:
    bea = ["hat-green-2", *NO_HATS[:4]]
    state = bid(three([TWO_HATS, bea, NO_HATS], flip="wild-1"), 2, 3, "hat")
    lines = explained(state, 0, {"type": CHALLENGE})
    assert lines[0].endswith("Count of hats: hands 4 (you 2) + flipped card 1 = 5.")
    assert lines[2] == "A Wild counts as every accessory and colour. A Double counts 2, a Triple 3."


def test_doubles_and_triples_are_explained_in_the_first_rounds_only() -> None:
    bea = ["hat-green-2", *NO_HATS[:4]]
    state = bid(three([TWO_HATS, bea, NO_HATS]), 2, 3, "hat")
    assert explained(state, 0, {"type": CHALLENGE})[2] == "A Double counts 2, a Triple 3."
    later = explained(at(state, round=3), 0, {"type": CHALLENGE})
    assert len(later) == 3 and not any("Double" in line for line in later)


def test_cant_see_me_and_double_trouble_in_hands_are_explained() -> None:
    bea = ["cant-see-me", "hat-green-1", *NO_HATS[:3]]
    cy = ["double-trouble", "hat-red-1", *NO_HATS[:3]]
    state = bid(three([TWO_HATS, bea, cy], deck_set="deluxe"), 2, 5, "hat")
    lines = explained(state, 0, {"type": CHALLENGE})
    assert lines[0].endswith("Count of hats: hands 4 (you 2) + flipped card 0 = 4.")
    assert lines[2] == (
        "Can't See Me made Bea's hand count 0. Double Trouble doubled Cy's hand: 1x2 = 2."
    )


def test_a_flipped_double_trouble_doubles_and_a_flipped_cant_see_me_zeroes() -> None:
    state = bid(three(flip="double-trouble", deck_set="deluxe"), 2, 3, "hat")
    lines = explained(state, 0, {"type": CHALLENGE})
    assert lines[0].endswith(
        "Count of hats: hands 2 (you 2), doubled by the flipped Double Trouble = 4."
    )
    state = bid(three(flip="cant-see-me", deck_set="deluxe"), 2, 1, "hat")
    lines = explained(state, 0, {"type": CHALLENGE})
    assert lines[0].endswith(
        "Count of hats: hands 2 (you 2), but the flipped Can't See Me makes it 0."
    )
    assert lines[1].startswith("0 is fewer than the 1 bid, so the bid failed")


def test_hang_in_there_gives_the_side_that_was_right_a_card() -> None:
    ann = ["hang-in-there", "hat-blue-1", *NO_HATS[:3]]
    state = bid(three([ann, NO_HATS, NO_HATS], deck_set="deluxe"), 2, 4, "hat")
    lines = explained(state, 0, {"type": CHALLENGE})
    assert "Hang In There gave you a card for being right." in lines


def test_purrfect_right_and_wrong_are_explained() -> None:
    two = new([TWO_HATS, NO_HATS], "glasses-green-1", purrfect=True)
    lines = explained(bid(two, 0, 2, "hat"), 1, {"type": "purrfect"})
    assert lines[0] == (
        "Bea called Purrfect on your 2 hats. Count of hats: hands 2 (you 2) + flipped card 0 = 2."
    )
    assert lines[1] == "Exactly 2, so Purrfect was right: you lose a card and Bea gains one."
    lines = explained(bid(two, 0, 3, "hat"), 1, {"type": "purrfect"})
    assert lines[1] == "2 is not exactly 3, so Purrfect was wrong: Bea loses a card."


def test_a_player_out_and_the_next_dealer_are_explained() -> None:
    state = bid(at(three(), deal_sizes=[1, 5, 5]), 2, 1, "hat")
    lines = explained(state, 0, {"type": CHALLENGE})
    assert lines[-1] == (
        "You have no cards left: out. Bea deals and opens round 2: the next player still in"
        " after the loser."
    )


def test_the_last_player_with_cards_wins_is_explained() -> None:
    state = bid(at(new([TWO_HATS, NO_HATS], "glasses-green-1"), deal_sizes=[5, 1]), 0, 1, "hat")
    lines = explained(state, 1, {"type": CHALLENGE})
    assert lines[-1] == "Bea has no cards left: out. Only you still have cards, so you win."


# Bids and special cards ------------------------------------------------------------------------


def test_a_raise_to_another_thing_is_explained_once_in_the_first_round() -> None:
    state = bid(three(), 2, 2, "hat")
    lines = explained(state, 0, {"type": "bid", "count": 3, "thing": "red"})
    assert lines[0] == (
        "You went from 2 hats to 3 red: a raise may name any thing; only the count must go up."
    )
    state = bid(bid(state, 0, 3, "red"), 1, 4, "hat")
    assert explained(state, 2, {"type": "bid", "count": 5, "thing": "blue"}) == []


def test_your_first_bid_is_told_what_it_risks() -> None:
    state = bid(three(), 2, 2, "hat")
    lines = explained(state, 0, {"type": "bid", "count": 3, "thing": "hat"})
    assert lines == [
        "Your 3 hats stands. If it is challenged and fewer than 3 are there, you lose a card;"
        " if it is raised, it is no longer yours to defend."
    ]


def test_plain_bids_after_the_first_round_say_nothing() -> None:
    state = call(bid(three(flip="hat-green-1"), 2, 4, "hat"), 0)  # Cy loses and opens round 2
    assert state.round == 2
    assert explained(state, 2, {"type": "bid", "count": 2, "thing": "red"}) == []
    view = view_of(state)
    assert COACH.after(view, view) == []


def test_skip_draw_three_and_go_fish_are_explained() -> None:
    hands = [["hat-blue-1", "hat-red-1", *NO_HATS[:3]], ["skip", "draw-3", "go-fish", *NO_HATS[:2]]]
    state = bid(new(hands, "hat-red-1", deck_set="deluxe"), 0, 1, "hat")
    assert explained(state, 1, {"type": "play", "card": "skip"}) == [
        "Bea played Skip: no bid this turn. Your 1 hat stands."
    ]
    assert explained(state, 1, {"type": "play", "card": "draw-3"}) == [
        "Bea played Draw 3: 3 more cards count in Bea's hand this round only; no bid this turn."
        " Your 1 hat stands."
    ]
    fish = {"type": "play", "card": "go-fish", "target": 0, "thing": "hat"}
    assert explained(state, 1, fish) == [
        "Bea fished your hats: 2 cards moved to Bea's hand for this round (Wilds never move);"
        " no bid this turn."
    ]


# A whole coached first game -----------------------------------------------------------------

MAX_STEPS = 3000
LIKELY = re.compile(r"~(\d+) likely")


async def test_a_whole_coached_first_game_by_the_keys_the_coach_names(tmp_path: Path) -> None:
    """``clowder learn kitten``: at each of Ann's turns the panel says what to do; she
    challenges when the coach says the bid looks high, else opens at what it says is
    likely (b, the count typed, enter) or raises by one (b, enter). Every reveal is explained; the
    results say who won and who went out, in order, and Enter leaves. This is also the
    suite's whole Kitten Me! game by keys through app, host and client."""
    app = learn_app(tmp_path, "kitten")
    async with app.run_test(size=(80, 24)) as pilot:
        table = await table_of(pilot, KittenTable)
        assert table.coach is not None
        await pilot.pause(0.1)
        assert table.query_one(CoachPanel).content_region.width == PANEL_WIDTH
        turns, challenges = 0, 0
        opened: list[int] = []
        """The round of each reveal box the table opened, counted where it opens (the loop
        below polls the screen on top, and a box may come and go between two looks)."""
        open_reveal = table.open_reveal

        def counted(view: Any) -> None:
            opened.append(view["last_reveal"]["round"])
            open_reveal(view)

        table.open_reveal = counted  # type: ignore[method-assign]
        seen: list[tuple[str, ...]] = []
        for _ in range(MAX_STEPS):
            await pilot.pause()
            if isinstance(app.screen, ResultsScreen):
                break
            if isinstance(app.screen, RevealScreen):
                await pilot.press("space")
                continue
            view = table.view
            assert view is not None
            if app.screen is not table or view["turn"] != view["seat"] or view["outcome"]:
                continue
            advice = coach_advice(table)
            seen.append(advice)
            turns += 1
            text = " ".join(advice)
            assert advice, f"the panel is empty at Ann's turn: {view['bid']}"
            assert rows(advice) <= PANEL_ROWS, advice
            if turns == 1:  # the panel shows every row of it
                await pilot.pause()
                assert table.query_one(CoachPanel).content_region.height == rows(advice)
            assert "b" in re.findall(r"\b\w\b", text), f"no key to bid named: {advice}"
            if {"type": CHALLENGE} in view["legal"]:
                assert "c: under" in text, f"the challenge is not offered: {advice}"
            if view["bid"] is None:
                assert text.startswith("You open round"), advice
                likely = LIKELY.search(text)
                count = max(1, int(likely.group(1))) if likely else 3
                await pilot.press("b")  # the bar opens on the likely count of the best thing
                assert likely is None or table.count == count, (advice, table.count)
                await pilot.press("backspace", "backspace", *str(count), "enter")
            elif "looks high" in text and {"type": CHALLENGE} in view["legal"]:
                challenges += 1
                await pilot.press("c")
            else:
                assert "Bids must rise" in text or "Raise:" in text, advice
                await pilot.press("b", "enter")
            await answered(pilot, table, view)
        else:
            raise AssertionError(f"the game did not end; the coach said: {seen[-5:]}")
        said = [line[len(MARK) :] for line in coach_log(table) if line.startswith(MARK)]
        sample = "\n".join(said[:12])
        results = app.screen
        assert isinstance(results, ResultsScreen)
        assert any("last player with cards" in line for line in results.lines)
        assert any(line.startswith("  2.") for line in results.lines)  # two went out, in order
        await leave_the_results(pilot)
        assert said[0] == KittenCoach.welcome, sample
        counts = [line for line in said if "Count of" in line]
        verdicts = [
            line for line in said if "so the bid held" in line or "so the bid failed" in line
        ]
        assert turns >= 3, f"Ann had {turns} turns:\n{sample}"
        reveals = len(set(opened))  # space on the table shows the last one again
        assert reveals >= 9, f"{reveals} reveals:\n{sample}"  # 3 players of 5 cards
        assert len(counts) >= reveals and len(verdicts) >= reveals, f"{reveals} reveals:\n{sample}"
        assert any("wins" in line or "win." in line for line in said), sample
        print(f"{turns} turns, {challenges} challenges, {reveals} reveals; coach lines:")
        print("\n".join(said[:40]))
        print("panel samples:", *seen[:6], sep="\n")

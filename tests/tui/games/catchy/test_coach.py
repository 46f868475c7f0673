"""The Catchy! coach: one test per rule it explains, on views the engine built from fixed
decks, then a whole coached first game (``clowder learn catchy``) played by keys.

Positions come from the engine tests' helpers: ``ready(hand0, hand1)`` is round 1 with
Ann (seat 0) having swapped the Starting card for ``hand0[0]``, her lead; Bea is seat 1.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

import pytest

from engine.games.catchy.rules import GAME, STARTING, CatchyState, CatchyView, card_name
from tests.contract import play as playout
from tests.engine.games.catchy.helpers import act, new, play, ready
from tests.tui.solo import (
    answered,
    coach_advice,
    coach_log,
    learn_app,
    leave_the_results,
    table_of,
)
from tui.coach import PANEL_ROWS, rows
from tui.games.catchy.coach import CatchyCoach
from tui.games.catchy.screen import CatchyTable
from tui.screens.results import ResultsScreen
from tui.widgets.coach import MARK

pytestmark = pytest.mark.timeout(120)

COACH = CatchyCoach()

# Ann leads Red 3; Bea holds Red 2, Red 4 and the Joker (course: Red 3, Green 5, Blue 3).
ANN = ["R3", "R1", "R5", "G2", "G4", "B4", "B5"]
BEA = ["R2", "R4", "JK", "G1", "G3", "B1", "B2"]

SEVEN_TO_ONE_SIDE = [
    "R2", "G1", "R5",
    "G3", "G2", "B5", "JK", "ST", "B2", "R4",
    "B1", "B3", "R1", "G5", "R3", "B4", "G4",
]  # fmt: skip
"""Round 1 with each seat playing its first legal card: 7 tricks, the cat 1 step toward Ann."""
SEVEN_TO_THE_CENTRE = [
    "B3", "R4", "G3",
    "B4", "G1", "G5", "B5", "R5", "G4", "JK",
    "R3", "ST", "B2", "R2", "R1", "B1", "G2",
]  # fmt: skip
"""Round 1 with each seat playing its first legal card: 7 tricks, the cat at the centre."""


def view(state: CatchyState, seat: int) -> CatchyView:
    return cast(CatchyView, GAME.view(state, seat))


def explained(state: CatchyState, seat: int, card: str, viewer: int = 0) -> list[str]:
    """What the coach says to ``viewer`` when ``seat`` plays ``card``."""
    before = view(state, viewer)
    return COACH.after(before, view(play(state, seat, card), viewer))


def first_legal_round(deck: list[str], **options: Any) -> tuple[CatchyView, CatchyView]:
    """Ann's views just before and just after round 1 ends, each seat playing its first legal
    action (the round's end is a view of its own: the next deal comes by the host's timer)."""
    state = GAME.new_game(["Ann", "Bea"], 1, {"deck": deck, **options})
    while True:
        action = GAME.legal_actions(state, state.turn)[0]
        after, _ = GAME.apply(state, state.turn, action, 0.0)
        if after.last_round is not None:
            return view(state, 0), view(after, 0)
        state = after


# The Starting card ---------------------------------------------------------------------


def test_the_starting_card_holder_is_told_to_swap_it_with_keys_1_2_3() -> None:
    state = new(["R3", "G5", "B3"], ["ST", *ANN[1:]], BEA)
    advice = COACH.now(view(state, 0))
    text = " ".join(advice)
    assert "You hold the Starting card. It is never played" in text, advice
    assert "Press 1, 2 or 3" in text and "Then you lead" in text, advice
    assert COACH.now(view(state, 1)) == [
        "Wait: Ann holds the Starting card, swaps it for a course card, then leads."
    ]


def test_the_swap_says_which_card_you_took_and_only_where_the_other_took_it() -> None:
    state = new(["R3", "G5", "B3"], ["ST", *ANN[1:]], BEA)
    swapped, _ = act(state, 0, type="swap", course=1)
    mine = COACH.after(view(state, 0), view(swapped, 0))
    assert mine == [
        "You took Green 5 into your hand; the Starting card lies in its place. The course cards"
        " stay out of play until the round ends."
    ]
    theirs = COACH.after(view(state, 1), view(swapped, 1))
    assert theirs == [
        "Ann swapped the Starting card for course card 2, unseen by you, and now leads the"
        " first trick."
    ]
    assert "Green 5" not in " ".join(theirs)  # the course stays hidden from Bea


# Leading and following -----------------------------------------------------------------


def test_the_leader_may_lead_any_card_and_the_red_cat_goes_to_the_winner() -> None:
    advice = COACH.now(view(ready(ANN, BEA), 0))
    assert advice == [
        "You lead: any card (1-7 picks, enter plays).",
        "Red cat: it goes to the winner. Lead high.",
        "Two odd cards flip it; an even card never does.",
    ]


def test_the_blue_cat_goes_to_the_loser_so_the_leader_is_told_to_lead_low() -> None:
    state = play(play(ready(ANN, BEA), 0, "R3"), 1, "JK")  # Joker and 3: flips, Ann leads again
    advice = COACH.now(view(state, 0))
    assert "You lead: any card (1-6 picks, enter plays)." in advice
    assert "Blue cat: it goes to the loser. Lead low." in advice


def test_must_follow_the_led_colour_names_the_cards_that_follow() -> None:
    state = play(ready(ANN, BEA), 0, "R3")
    advice = COACH.now(view(state, 1))
    # Bea's hand in screen order: R2 R4 G1 G3 B1 B2 JK (keys 1-7).
    assert advice[0] == "You must follow red: you hold Red 2 and Red 4 (Joker too)."
    assert advice[1] == "Keys 1, 2 or 7, then enter."


def test_following_says_which_card_brings_the_cat_to_you() -> None:
    # Red 4 wins and is even (no flip): the red cat comes to its winner. Red 2 loses; the
    # Joker with Ann's 3 keeps the cat still.
    state = play(ready(ANN, BEA), 0, "R3")
    assert COACH.now(view(state, 1))[2] == "Red 4 brings the cat to you."


def test_without_the_led_colour_any_card_follows_and_the_leader_wins() -> None:
    ann = ["R2", "R1", "R3", "R4", "R5", "G4", "B4"]
    bea = ["G1", "G2", "G3", "B1", "B2", "B3", "JK"]
    state = play(ready(ann, bea), 0, "R2")
    advice = COACH.now(view(state, 1))
    assert advice[0] == (
        "You have no red: any card. Off colour, the leader wins; only your Joker (a 3) beats Red 2."
    )
    assert advice[1] == "Any card: 1-7, then enter."


def test_a_led_joker_may_be_followed_by_any_card() -> None:
    ann = ["JK", "R1", "R3", "G2", "G4", "B4", "B5"]
    bea = ["R2", "R4", "R5", "G1", "G3", "B1", "B2"]
    state = play(ready(ann, bea), 0, "JK")
    advice = COACH.now(view(state, 1))
    assert advice[0] == "Ann led the Joker (a 3): play any card. A 4 or 5 beats it."
    assert advice[1] == "Any card: 1-7, then enter."
    # Red 4 wins, no flip; Green 1 and Blue 1 lose, but two odd cards flip the cat to blue.
    assert advice[2] == "Red 4, Green 1 or Blue 1 bring the cat to you."


def test_waiting_says_whose_turn_it_is_and_what_they_must_do() -> None:
    state = ready(ANN, BEA)
    assert COACH.now(view(state, 1)) == [
        "Wait: Ann held the Starting card, so leads the first trick."
    ]
    led = play(state, 0, "R3")
    assert COACH.now(view(led, 0)) == ["Wait: Bea must follow your Red 3 with red if possible."]
    assert COACH.after(view(state, 0), view(led, 0)) == []  # a lead needs no explaining
    won = play(led, 1, "R4")
    assert COACH.now(view(won, 0)) == ["Wait: Bea leads: the cat last moved toward Bea."]


# Who wins a trick, and the cat -----------------------------------------------------------


def test_same_colour_higher_number_wins_and_the_red_cat_walks_to_the_winner() -> None:
    lines = explained(play(ready(ANN, BEA), 0, "R3"), 1, "R4")
    assert lines == [
        "Bea's Red 4 beats your Red 3: same colour, so the higher number wins.",
        "Red 4 is even, so no flip: the red cat walks to the winner, toward Bea. It is 2 steps"
        " from Bea's arms; Bea leads next.",
    ]


def test_off_colour_the_leader_wins_the_trick() -> None:
    ann = ["R2", "R1", "R3", "R4", "R5", "G4", "B4"]
    bea = ["G1", "G2", "G3", "B1", "B2", "B3", "JK"]
    lines = explained(play(ready(ann, bea), 0, "R2"), 1, "G2")
    assert lines[0] == "Bea had no red (Green 2), so the leader wins: you."
    assert lines[1].startswith("Red 2 and Green 2 are even, so no flip: the red cat walks to")
    assert "toward you" in lines[1] and "you lead next" in lines[1]


def test_two_odd_cards_flip_the_cat_and_the_blue_cat_walks_away_from_the_winner() -> None:
    ann = ["R5", "R1", "R4", "G2", "G4", "B4", "B5"]
    bea = ["R3", "R2", "JK", "G1", "G3", "B1", "B2"]
    lines = explained(play(ready(ann, bea), 0, "R5"), 1, "R3")
    assert lines == [
        "Your Red 5 beats Bea's Red 3: same colour, so the higher number wins.",
        "Both cards odd, so the cat flips to blue: the blue cat walks away from the winner,"
        " toward Bea. It is 2 steps from Bea's arms; Bea leads next.",
    ]


def test_the_joker_counts_as_three_whatever_the_colours() -> None:
    ann = ["R2", "R1", "R3", "R4", "R5", "G4", "B4"]
    bea = ["G1", "G2", "G3", "B1", "B2", "B3", "JK"]
    lines = explained(play(ready(ann, bea), 0, "R2"), 1, "JK")
    assert lines[0] == (
        "Bea's Joker beats your Red 2: the Joker counts as 3, and with a Joker the higher"
        " number wins."
    )
    assert lines[1].startswith("Red 2 is even, so no flip: the red cat walks to the winner")
    ann = ["R4", "R1", "R2", "R3", "R5", "G4", "B4"]
    lines = explained(play(ready(ann, bea), 0, "R4"), 1, "JK")
    assert lines[0].startswith("Your Red 4 beats Bea's Joker: the Joker counts as 3")


def test_the_joker_and_a_three_flip_the_cat_but_it_stays_and_the_leader_leads_again() -> None:
    led = play(ready(ANN, BEA), 0, "R3")
    assert explained(led, 1, "JK") == [
        "Joker and a 3 (Red 3): the exception. The cat flips to blue but stays put, and you"
        " lead again."
    ]
    assert explained(led, 1, "JK", viewer=1) == [
        "Joker and a 3 (Red 3): the exception. The cat flips to blue but stays put, and Ann"
        " leads again."
    ]
    again = play(led, 1, "JK")
    assert COACH.now(view(again, 1)) == ["Wait: Ann leads again (Joker and 3: the cat stayed)."]


# The round's end and the game's ---------------------------------------------------------

ARMS_ANN = ["R4", "G4", "B4", "R1", "R3", "G1", "G3"]
ARMS_BEA = ["R2", "G2", "B2", "R5", "G5", "B5", "JK"]
"""Ann wins three tricks with even cards (no flip): the red cat walks into her arms."""


def two_steps_to_the_arms(**options: Any) -> CatchyState:
    state = ready(ARMS_ANN, ARMS_BEA, **options)
    for ann, bea in (("R4", "R2"), ("G4", "G2")):
        state = play(play(state, 0, ann), 1, bea)
    return play(state, 0, "B4")


def test_the_cat_in_your_arms_ends_the_round_and_scores_3() -> None:
    state = two_steps_to_the_arms()
    ended, _ = GAME.apply(state, 1, {"type": "play", "card": "B2"}, 0.0)  # the next deal: later
    lines = COACH.after(view(state, 0), view(ended, 0))
    assert lines == [
        "Your Blue 4 beats Bea's Blue 2: same colour, so the higher number wins.",
        "Blue 4 and Blue 2 are even, so no flip: the red cat walks to the winner, toward you."
        " It is in your arms.",
        "The cat reached your arms after 3 tricks: the round ends and you score 3. Score: you"
        " 3, Bea 0 (first to 7 wins).",
    ]
    assert COACH.now(view(ended, 0)) == ["The round is over: the next one is being dealt."]
    dealt, _ = GAME.tick(ended, 0.0)
    assert COACH.after(view(ended, 0), view(dealt, 0)) == [
        "Round 2: a new deal and a new course; the cat is back at the centre, red side up."
    ]


def test_a_missed_round_end_is_still_explained_with_the_new_deal() -> None:
    state = two_steps_to_the_arms()
    dealt = play(state, 1, "B2")  # the round's end and the next deal, one view for Bea
    lines = COACH.after(view(state, 1), view(dealt, 1))
    assert lines[0] == (
        "The cat reached Ann's arms after 3 tricks: the round ends and Ann scores 3. Score:"
        " you 0, Ann 3 (first to 7 wins)."
    )
    assert lines[1].startswith("Round 2: a new deal")


def test_after_seven_tricks_the_player_the_cat_is_closer_to_scores_2() -> None:
    before, after = first_legal_round(SEVEN_TO_ONE_SIDE)
    lines = COACH.after(before, after)
    assert lines[-1] == (
        "All 7 tricks played; the cat is 1 step toward you, so you, the closer, score 2."
        " Score: you 2, Bea 0 (first to 7 wins)."
    )
    assert "leads next" not in lines[-2] and "lead next" not in lines[-2]  # the round is over


def test_after_seven_tricks_a_cat_at_the_centre_gives_1_point_each() -> None:
    before, after = first_legal_round(SEVEN_TO_THE_CENTRE)
    assert COACH.after(before, after)[-1] == (
        "All 7 tricks played and the cat sits at the centre: 1 point each. Score: you 1,"
        " Bea 1 (first to 7 wins)."
    )


def test_the_game_ends_at_the_target_and_the_higher_score_wins() -> None:
    state = two_steps_to_the_arms(target=3)
    over = play(state, 1, "B2")
    assert view(over, 0)["outcome"] is not None
    mine = COACH.after(view(state, 0), view(over, 0))
    assert mine[-2:] == [
        "The cat reached your arms after 3 tricks: the round ends and you score 3. Score: you"
        " 3, Bea 0.",
        "Game over at 3 points: you win with the higher score.",
    ]
    assert COACH.after(view(state, 1), view(over, 1))[-1].endswith(
        "Game over at 3 points: Ann wins with the higher score."
    )
    assert COACH.now(view(over, 0)) == []


def test_equal_scores_at_the_target_share_the_win() -> None:
    before, after = first_legal_round(SEVEN_TO_THE_CENTRE, target=1)
    assert COACH.after(before, after)[-2:] == [
        "All 7 tricks played and the cat sits at the centre: 1 point each. Score: you 1, Bea 1.",
        "Both on 1, the target reached: you share the win.",
    ]


# The coach's place at the table ---------------------------------------------------------


def test_the_opening_gives_the_aim_the_points_and_the_keys() -> None:
    state = GAME.new_game(["Ann", "Bea"], 1, dict(COACH.first_game))
    lines = COACH.opening(view(state, state.starter))
    assert lines[0] == COACH.welcome and "arms" in lines[0]
    assert "First to 4 points wins." in lines[1] and "in your arms 3" in lines[1]
    assert "1, 2 or 3" in lines[2] and "enter plays" in lines[2] and "r shows the rules" in lines[2]
    assert len(lines) == 3


def test_the_opening_explains_a_swap_made_before_it() -> None:
    swapped, _ = act(new(["R3", "G5", "B3"], ["ST", *ANN[1:]], BEA), 0, type="swap", course=2)
    assert COACH.opening(view(swapped, 1))[-1] == (
        "Ann swapped the Starting card for course card 3, unseen by you, and now leads the"
        " first trick."
    )


def test_the_advice_always_fits_the_coach_panel() -> None:
    """Whatever the hand, the advice wraps into the panel's six rows of 28 columns."""
    for seed in range(12):
        for state, _ in playout(GAME, ["Ann", "Bot Tom"], seed, max_steps=400).states():
            for seat in (0, 1):
                advice = COACH.now(view(state, seat))
                assert rows(advice) <= PANEL_ROWS, f"seed {seed}, seat {seat}: {advice}"


# A whole coached first game ---------------------------------------------------------------

MAX_STEPS = 600
"""Pauses to wait through (the bot's moves come in between the learner's)."""


def named(card: str, text: str) -> bool:
    """Whether ``text`` names ``card``: ``Red 4``, or among ``Red 1, 2, 4 and 5``."""
    if card_name(card) in text:
        return True
    word, digit = card_name(card).split()
    return re.search(rf"{word} [1-5, and]*{digit}", text) is not None


def expected_keys(view: CatchyView, card: str) -> str:
    """The key the coach names for ``card``: its place in the hand (1 = leftmost)."""
    hand = [held for held in view["hand"] or [] if held != STARTING]
    return str(hand.index(card) + 1)


async def test_a_whole_coached_first_game_by_keys(tmp_path: Path) -> None:
    """``clowder learn catchy`` to the results by the keys the coach names, and out with
    Enter (this is also the suite's whole Catchy! game by keys through app, host and
    client)."""
    app = learn_app(tmp_path, "catchy")
    turns: list[tuple[str, tuple[str, ...]]] = []
    async with app.run_test(size=(80, 24)) as pilot:
        table = await table_of(pilot, CatchyTable)
        assert table.coach is not None
        for _ in range(MAX_STEPS):
            await pilot.pause()
            if isinstance(app.screen, ResultsScreen):
                break
            current = table.view
            assert current is not None
            if current["turn"] != current["seat"] or not current["legal"]:
                continue
            advice = coach_advice(table)
            text = " ".join(advice)
            assert advice, f"the coach said nothing at {current['phase']}: {turns[-3:]}"
            if current["phase"] == "swap":
                assert "Press 1, 2 or 3" in text, advice
                turns.append(("swap", advice))
                await pilot.press("1")
            else:
                cards = [action["card"] for action in current["legal"]]
                card = cards[-1]  # a newcomer's pick among what the coach allows
                key = expected_keys(current, card)
                hand = [held for held in current["hand"] or [] if held != STARTING]
                led = current["trick"][0] if current["trick"] else None
                if led is None:
                    assert "You lead: any card" in text or "You lead your last" in text, advice
                elif led != "JK" and any(held[0] == led[0] for held in hand):
                    # Must follow: the cards that follow are named, with their keys.
                    assert "You must follow" in text and named(card, text), advice
                    assert re.search(rf"Keys? [1-7, or]*\b{key}\b", text), (key, advice)
                elif len(hand) > 1:
                    assert "any card" in text and f"Any card: 1-{len(hand)}" in text, advice
                else:
                    assert "Key 1, then enter." in text, advice
                turns.append((card, advice))
                await pilot.press(key, "enter")
            await answered(pilot, table, current)
        else:
            raise AssertionError(f"the game did not end: {turns[-3:]}")
        final = table.view
        assert final is not None and final["outcome"] is not None
        assert max(final["scores"]) >= 4  # the first game is first to 4
        log = coach_log(table)
        results = app.screen
        assert isinstance(results, ResultsScreen)
        assert any("points" in line for line in results.lines)
        await leave_the_results(pilot)
    said = [line[len(MARK) :] for line in log if line.startswith(MARK)]
    game_lines = [line for line in log if not line.startswith(MARK)]
    sample = "\n".join([*said[:8], "...", *said[-6:]])
    deals = [line for line in game_lines if "holds the Starting card." in line]
    tricks = [line for line in game_lines if "wins the trick" in line or "Joker and 3" in line]
    ends = [line for line in game_lines if " ends. " in line]
    swaps = [line for line in said if line.startswith("You took") or "swapped the" in line]
    why = [
        line
        for line in said
        if " beats " in line or "so the leader wins:" in line or line.startswith("Joker and a 3")
    ]
    cat = [line for line in said if "no flip" in line or "flips to" in line]
    scored = [line for line in said if line.startswith(("The cat reached", "All 7 tricks"))]
    assert said[0] == COACH.welcome, sample
    assert any(card != "swap" for card, _ in turns), turns
    assert len(swaps) == len(deals) > 1, f"{len(swaps)} of {len(deals)} swaps:\n{sample}"
    assert len(why) == len(tricks) > 0, f"{len(why)} of {len(tricks)} tricks:\n{sample}"
    assert len(cat) == len(tricks), f"{len(cat)} of {len(tricks)} tricks:\n{sample}"
    assert len(scored) == len(ends) == len(deals), f"{len(scored)} of {len(ends)}:\n{sample}"
    assert said[-1].endswith(("with the higher score.", "you share the win.")), sample

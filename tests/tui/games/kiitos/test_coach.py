"""The Kiitos coach: one test per rule it explains, on views staged from fixed decks, then a
whole coached first game (``clowder learn kiitos``) played by the keys the coach names.

The staged positions use the engine tests' helpers (:mod:`tests.engine.games.kiitos.helpers`):
Ann (seat 0) and Bea (seat 1) are dealt chosen letters and Ann leads CATS.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any, cast

import pytest
from textual import events
from textual.binding import Binding
from textual.pilot import Pilot

from engine.games.kiitos.rules import GAME, KiitosState, KiitosView
from engine.games.kiitos.words import dictionary, frequency
from tests.contract import play as random_game
from tests.engine.games.kiitos.helpers import act, at, challenge, lead, new, pickup, play, say
from tests.tui.solo import (
    answered,
    coach_advice,
    coach_log,
    learn_app,
    leave_the_results,
    table_of,
)
from tui.games.kiitos.coach import KEYS, KiitosCoach
from tui.games.kiitos.screen import KiitosTable
from tui.log_window import new_lines
from tui.screens.results import ResultsScreen
from tui.widgets.coach import MARK

pytestmark = pytest.mark.timeout(120)

COACH = KiitosCoach()
ANN = "CTEEIRNO"
BEA = "ASEIOUDL"
"""Ann leads CATS; Bea holds A and S, Ann holds T: the word can be finished."""
BEA_NO_A = "LOSEIUDR"
"""Bea holds no A: after Ann's C she may say a new word (CLASP, COLD...) or pick up."""
SIMPLE: dict[str, Any] = {"mode": "simple", "rounds": 1}

PANEL_WIDTH = 29
PANEL_ROWS = 6
"""The coach's panel at 80x24: 29 columns, at most six rows of text under its border."""


def view_of(state: KiitosState, seat: int) -> KiitosView:
    """What ``seat`` sees: the coach reads only views, as at a table."""
    return cast(KiitosView, GAME.view(state, seat))


def cats(bea: str = BEA, **options: Any) -> KiitosState:
    """Ann has led CATS (C on the table); Bea is to play."""
    return lead(new([ANN, bea], **{**SIMPLE, **options}), 0, "cats")


def said(before: KiitosState, after: KiitosState, seat: int) -> list[str]:
    """What the coach explains to ``seat`` after the move from ``before`` to ``after``."""
    return COACH.after(view_of(before, seat), view_of(after, seat))


def rows(lines: list[str]) -> int:
    """How many rows ``lines`` take in the panel, each wrapped at its width."""
    return sum(len(textwrap.wrap(line, PANEL_WIDTH)) for line in lines)


# What may be done now -----------------------------------------------------------------------


def test_the_first_game_is_two_players_the_simple_game_one_round() -> None:
    assert KiitosCoach.seats == 2
    assert KiitosCoach.first_game == {"mode": "simple", "rounds": 1, "check": "challenge"}
    state = GAME.new_game(["Ann", "Bot Tom"], 1, dict(KiitosCoach.first_game))
    assert view_of(state, 0)["rules"] == {
        "min_length": 4,
        "positive_x2": False,
        "super_kiitos": False,
    }


def test_the_opening_says_the_aim_the_rule_cards_in_play_and_this_tables_keys() -> None:
    opening = COACH.opening(view_of(new([ANN, BEA], **SIMPLE), 0))
    assert opening[0] == KiitosCoach.welcome and "Kiitos" in opening[0]
    assert opening[1] == (
        "Rule cards: target words need 4+ letters, each kept card scores 1,"
        " letters go on the end only (they stay put this game)."
    )
    assert opening[2] == (
        "Type a word and press Enter to say it; - picks up, ! challenges, * gives an idea,"
        " ? lists the keys (rules too), < leaves."
    )
    full = COACH.opening(view_of(new([ANN, BEA], mode="full"), 0))
    assert full[1].endswith("(each finished word flips one).")


def test_the_lead_plays_the_first_letter_of_a_word_of_4_letters_or_more() -> None:
    view = view_of(new([ANN, BEA], **SIMPLE), 0)
    advice = COACH.now(view)
    assert advice[0] == "Lead a word: 4+ letters, the first one yours."
    legal_words = {str(action["word"]).upper() for action in view["legal"]}
    examples = [word for word in re.findall(r"[A-Z]{4,}", advice[1]) if word in legal_words]
    assert examples and all(word[0] in ANN for word in examples), advice
    assert advice[1].startswith("E.g. type ") and advice[1].endswith(", Enter.")
    assert advice[2] == "If others finish it, its cards are yours."


def test_the_minimum_length_rule_card_on_5_asks_for_5_letters() -> None:
    advice = COACH.now(view_of(new([ANN, BEA], mode="simple", min_length=5), 0))
    assert advice[0] == "Lead a word: 5+ letters, the first one yours."


def test_super_kiitos_lead_may_play_any_letter_of_the_word() -> None:
    view = view_of(new([ANN, BEA], mode="simple", super_kiitos=True), 0)
    advice = COACH.now(view)
    assert advice[0] == "Lead a word: 4+ letters, any one of them yours."
    assert re.search(r"[A-Z]{4,} \(your [A-Z]\)", advice[1]), advice


MOST_USED = 1000
"""Words anyone knows rank within this many by use (the list's exact order may change)."""


def most_used_rank(part: str, hand: str) -> int:
    """The rank by use of the most used common word that ``part`` and a letter of ``hand``
    start (4+ letters, not the letters themselves): the best the coach could suggest."""
    order = frequency()
    starts = tuple(part + letter.lower() for letter in hand)
    return min(
        order.key(word)
        for word in dictionary().common.words
        if word.startswith(starts) and len(word) >= 4 and word not in starts
    )


def test_the_lead_examples_are_the_most_used_words_your_letters_start() -> None:
    """Issue 36, item 9: holding E L M N O P R W the coach said "type RIPS or NEXUS" (a lead
    plays only its first letter, so they were playable, but few would say them): the
    examples were the shortest of two words per letter picked from SCOWL's commoner sizes
    at random. Now they are the most used words the hand's letters start."""
    hand = "ELMNOPRW"
    advice = COACH.now(view_of(new([hand, BEA], **SIMPLE), 0))
    words = re.findall(r"[A-Z]{4,}", advice[1])
    assert advice[1] == f"E.g. type {words[0]} or {words[1]}, Enter."
    order = frequency()
    ranks = [order.key(word.lower()) for word in words]
    assert all(word[0] in hand for word in words), advice
    assert ranks[0] == most_used_rank("", hand) and ranks == sorted(ranks), advice
    assert max(ranks) < MOST_USED, advice


def test_a_new_word_example_is_a_common_word_not_an_obscure_one() -> None:
    """With AL on the table and no S for ALSO, ALIGHTED (SCOWL size 35) could be suggested
    for your I; the coach names the most used words your letters continue AL into."""
    hand = "ACTEEIRN"
    state = play(lead(new([hand, BEA], **SIMPLE), 0, "also"), 1, "L")
    view = view_of(state, 0)
    assert view["hand"] is not None
    advice = COACH.now(view)
    named = re.findall(r"([A-Z]{4,}) \(your ([A-Z])\)", advice[0])
    assert advice[0].startswith("You have no S for ALSO: say a new word, e.g. "), advice
    assert len(named) == 2 and all(word.startswith("AL") for word, _ in named), advice
    order = frequency()
    ranks = [order.key(word.lower()) for word, _ in named]
    assert ranks[0] == most_used_rank("al", "".join(view["hand"])), advice
    assert max(ranks) < 5 * MOST_USED and "ALIGHTED" not in advice[0], advice


def test_you_must_play_the_next_letter_of_the_target_when_you_hold_it() -> None:
    advice = COACH.now(view_of(cats(), 1))
    assert advice == [
        "You must play A, the next letter of CATS.",
        "Press Enter.",
        "Doubt the word? Press ! first (wrong: -1).",
    ]


def test_a_letter_that_finishes_the_word_says_who_keeps_the_cards() -> None:
    state = play(play(cats(), 1, "A"), 0, "T")
    advice = COACH.now(view_of(state, 1))
    assert advice == [
        "You must play S, the next letter of CATS.",
        "Press Enter. It finishes it: Ann keeps 4.",
    ]


def test_super_kiitos_names_the_letters_that_continue_at_either_end() -> None:
    hands = ["ATEEIRNO", "CTSEIODL"]
    state = lead(new(hands, mode="simple", super_kiitos=True), 0, "cats", "A")
    advice = COACH.now(view_of(state, 1))
    assert advice[0] == "You must play C at the start or T at the end: it continues CATS."
    assert advice[1] == "Press Enter, then its number."


def test_without_the_next_letter_you_may_say_a_new_word_or_pick_up() -> None:
    view = view_of(cats(BEA_NO_A), 1)
    advice = COACH.now(view)
    assert advice[0].startswith("You have no A for CATS: say a new word, e.g. ")
    offered = {(str(a["word"]).upper(), str(a["letter"])) for a in view["legal"] if "word" in a}
    named = re.findall(r"([A-Z]{4,}) \(your ([A-Z])\)", advice[0])
    assert named and set(named) <= offered, advice
    assert advice[1] == "Or press -: pick up 1 (-1)."
    assert advice[2] == "! challenges it (wrong: -1)."
    assert rows(advice) <= PANEL_ROWS


def test_a_word_that_failed_its_challenge_must_be_replaced() -> None:
    state = challenge(lead(new([ANN, BEA], **SIMPLE), 0, "cqzz"), 1)
    advice = COACH.now(view_of(state, 0))
    assert advice[0] == "CQZZ was not a word: lead another."


def test_while_others_play_the_coach_says_whose_turn_and_what_they_must_do() -> None:
    assert COACH.now(view_of(cats(), 0)) == ["Wait: Bea may challenge CATS, or play on."]
    state = play(cats(), 1, "A")
    assert COACH.now(view_of(state, 1)) == [
        "Wait: Ann must play the next letter of CATS if they hold it."
    ]


def test_three_players_may_challenge_a_word_out_of_turn() -> None:
    state = lead(new([ANN, BEA, "LOSEIUDR"], **SIMPLE), 0, "cats")
    assert COACH.now(view_of(state, 2)) == [
        "Ann said CATS. Not a word? Press ! (wrong: -1).",
        "Wait: Bea must play the next letter of CATS if they hold it.",
    ]


def test_the_full_game_flip_names_each_card_that_may_turn_and_its_key() -> None:
    state = play(play(play(cats(mode="full"), 1, "A"), 0, "T"), 1, "S")
    assert COACH.now(view_of(state, 0)) == [
        "Kiitos! Flip a rule card that has no lock token:",
        "press 1: 5+ letters, 2: kept cards x2, 3: either end.",
    ]
    locked = at(state, lock="length")
    assert COACH.now(view_of(locked, 0))[1] == "press 2: kept cards x2, 3: either end."


def test_once_the_challenge_cards_are_gone_a_card_from_hand_pays() -> None:
    state = at(lead(new([ANN, BEA], **SIMPLE), 0, "cqzz"), challenge_left=0)
    after = challenge(state, 1)
    assert said(state, after, 0)[0] == (
        "Bea challenged CQZZ: it is not in the dictionary, so you lose and give up a card"
        " from hand, -1 (the challenge cards are gone)."
    )
    advice = COACH.now(view_of(after, 0))
    assert advice[0] == "You lost a challenge and the 8 challenge cards are gone."
    assert advice[1] == "Type a letter of your hand, e.g. C, then Enter: -1."
    given, _ = act(after, 0, type="forfeit", letter="C")
    assert said(after, given, 0) == ["That card pays for the lost challenge: -1 for you."]


def test_the_4_player_rule_is_offered_after_picking_up_4_letters() -> None:
    hands = [ANN, BEA, "LOSEIRDN", "AEEHLPSM"]
    state = at(new(hands, **SIMPLE), pass_lead=True)
    advice = COACH.now(view_of(state, 0))
    assert advice[2] == "Or press >: take -1, your right-hand player leads."


def test_the_lowest_total_chooses_who_leads_the_next_round() -> None:
    state = at(cats(BEA_NO_A, rounds=2), deck=[])
    state = pickup(state, 1)  # Bea -1; nobody can draw: round 1 ends, Bea is lowest
    assert COACH.now(view_of(state, 1)) == [
        "Your total is lowest: choose who leads round 2.",
        "Press 1 Ann, 2 you.",
    ]
    assert COACH.now(view_of(state, 0)) == [
        "Wait: Bea has the lowest score and chooses who leads round 2."
    ]


def test_the_keys_the_coach_names_are_the_ones_the_table_binds() -> None:
    names = {"!": "exclamation_mark", "-": "minus", ">": "greater_than_sign", "*": "asterisk"}
    names |= {"?": "question_mark", "<": "less_than_sign"}
    bound = {
        (key.strip(), binding.action)
        for binding in KiitosTable.BINDINGS
        if isinstance(binding, Binding)
        for key in binding.key.split(",")
    }
    for action, key in KEYS.items():
        assert {(key, action), (names[key], action)} & bound, f"{key!r} does not {action}"


# What just happened ---------------------------------------------------------------------------


def test_a_challenged_real_word_stands_and_the_challenger_takes_a_challenge_card() -> None:
    before = cats()
    after = challenge(before, 1)
    assert said(before, after, 1) == [
        "You challenged CATS, but it is in the dictionary: you lose and take a challenge card,"
        " -1. CATS stands."
    ]
    assert said(before, after, 0)[0].startswith("Bea challenged CATS, but it is in the dictionary:")


def test_a_challenged_non_word_is_taken_back_and_its_sayer_takes_the_card() -> None:
    before = lead(new([ANN, BEA], **SIMPLE), 0, "cqzz")
    after = challenge(before, 1)
    assert said(before, after, 0) == [
        "Bea challenged CQZZ: it is not in the dictionary, so you lose and take a challenge"
        " card, -1.",
        "You take C back and must lead another word.",
    ]
    assert said(before, after, 1)[0].startswith("You challenged CQZZ: it is not in the dictionary")


def test_kiitos_whoever_said_the_word_keeps_its_cards() -> None:
    before = play(play(cats(), 1, "A"), 0, "T")
    after = play(before, 1, "S")
    assert said(before, after, 0) == [
        "Kiitos! Bea had to play the last letter of your CATS: you keep its 4 cards, +4."
        " You lead next."
    ]
    assert said(before, after, 1) == [
        "Kiitos! Your letter finished CATS; Ann said it, so Ann keeps its 4 cards, +4."
        " Ann leads next."
    ]


def test_kiitos_under_positive_pile_x2_counts_double_at_the_round_end() -> None:
    before = play(play(cats(positive_x2=True), 1, "A"), 0, "T")
    assert "+4 (x2 at the round's end)" in said(before, play(before, 1, "S"), 0)[0]


def test_a_pick_up_goes_to_the_negative_pile_and_its_taker_leads() -> None:
    before = cats(BEA_NO_A)
    after = pickup(before, 1)
    assert said(before, after, 0) == [
        "Bea had no A for CATS and no new word, so picks up C: -1. Bea leads next,"
        " once all draw back to 8."
    ]
    assert said(before, after, 1) == [
        "You picked up C: 1 card to your negative pile, -1. You lead next, once all draw back to 8."
    ]


def test_a_new_word_replaces_the_target_because_the_next_letter_was_missing() -> None:
    before = cats(BEA_NO_A)
    after = say(before, 1, "L", "clod")
    assert said(before, after, 0) == [
        "Bea had no A for CATS, so said CLOD: the new target, and their word now."
    ]
    assert said(before, after, 1) == []  # your own word: the advice says what comes next


def test_your_word_stands_once_a_letter_is_played_after_it() -> None:
    before = cats()
    after = play(before, 1, "A")
    assert said(before, after, 0) == [
        "Nobody challenged CATS before the next letter, so it stands."
    ]
    assert said(before, after, 1) == []


def test_a_flipped_rule_card_is_explained_with_the_lock_token() -> None:
    before = play(play(play(cats(mode="full"), 1, "A"), 0, "T"), 1, "S")
    after, _ = act(before, 0, type="flip", card="super")
    assert said(before, after, 1) == [
        "Ann flipped Kiitos to Super-Kiitos: letters go on either end; the table's letters"
        " may sit anywhere in the word, and a lead plays any of its letters.",
        "The lock token now sits on it: it cannot be flipped next time.",
    ]


def test_the_round_ends_when_the_deck_cannot_refill_the_hands_and_scores_are_explained() -> None:
    before = at(cats(BEA_NO_A), deck=[])
    after = pickup(before, 1)
    lines = said(before, after, 0)
    assert lines[0] == (
        "Bea had no A for CATS and no new word, so picks up C: -1."
    )  # the round is over: nobody leads next
    assert lines[1].startswith("Round 1 ends: the deck could not refill every hand to 8.")
    assert "kept cards minus picked-up cards and challenge cards" in lines[1]
    assert lines[2] == "You scored 0 this round."
    assert lines[3] == "You win with 0: the highest total wins."


def test_with_3_players_the_challenger_of_a_non_word_is_named_from_the_log() -> None:
    before = lead(new([ANN, BEA, BEA_NO_A], **SIMPLE), 0, "cqzz")
    after = challenge(before, 2)
    assert said(before, after, 0)[0].startswith(
        "Cy challenged CQZZ: it is not in the dictionary, so you lose"
    )


def test_the_4_player_rule_puts_the_top_card_in_the_negative_pile_and_passes_the_lead() -> None:
    before = at(new([ANN, BEA, "LOSEIRDN", "AEEHLPSM"], **SIMPLE), pass_lead=True)
    after, _ = act(before, 0, type="pass_lead")
    assert said(before, after, 1) == [
        "Ann used the 4-player rule: the deck's top card is -1 for Ann, and Dot leads instead."
    ]


def test_a_nearly_empty_deck_warns_that_the_round_is_about_to_end() -> None:
    before = cats(BEA_NO_A)
    before = at(before, deck=before.deck[:10])
    after = pickup(before, 1)  # Ann draws 1: 9 cards left
    assert said(before, after, 0)[-1] == (
        "Only 9 cards left in the deck: the round ends as soon as a hand cannot be refilled to 8."
    )


def test_a_later_round_says_who_leads_and_the_rule_cards_it_keeps() -> None:
    last = at(cats(BEA_NO_A, mode="full", rounds=2), deck=[])
    ended = pickup(last, 1)  # Bea -1, the lowest: she chooses who leads round 2
    assert said(last, ended, 0)[3] == "The rule cards keep their sides into the next round."
    dealt, _ = act(ended, 1, type="choose", seat=0)
    assert said(ended, dealt, 1) == [
        "Round 2: new hands of 8; Ann leads. Rules: target words need 4+ letters,"
        " each kept card scores 1, letters go on the end only."
    ]


def test_most_moves_need_no_explanation() -> None:
    before = play(cats(), 1, "A")
    assert said(before, play(before, 0, "T"), 1) == []


def test_the_advice_fits_the_panel_through_whole_random_games() -> None:
    names = ["Ann", "Bot Tom", "Bot Felix", "Bot Mia"]
    for options, count in ((SIMPLE, 2), ({"rounds": 1}, 4), ({"super_kiitos": True}, 3)):
        for seed in (1, 2):
            playout = random_game(GAME, names[:count], seed, options, max_steps=250)
            for state, _ in playout.states():
                advice = COACH.now(view_of(state, 0))
                assert rows(advice) <= PANEL_ROWS, f"{options} seed {seed}: {advice}"


# A whole coached first game, by keys -------------------------------------------------------

MAX_STEPS = 3000
REACTION_S = 0.15
"""How long the player waits before challenging (the host refuses reactions under 80 ms)."""
BOT_REACTION_SCALE = 0.03
"""The easy bot's reactions scaled down to the host's floor (about 90 ms): a quick test."""
BLUFF = "QZQZ"
"""Letters no word ends with: a made-up word the easy bot challenges."""


def kinds(view: KiitosView) -> set[str]:
    """The kinds of the seat's legal actions."""
    return {str(action["type"]) for action in view["legal"]}


async def type_word(pilot: Pilot[Any], word: str) -> None:
    """Type ``word`` on the word line and press Enter, as a typist does: the letters go
    through the app's driver one after another, without waiting for the screen to settle
    between them (each :meth:`Pilot.press` waits for it: 0.1 s a key on a busy machine)."""
    driver = pilot.app._driver
    assert driver is not None
    for letter in word.lower():
        driver.send_message(events.Key(letter, letter))
    await pilot.press("enter")


def follow(log: list[str], table: KiitosTable) -> None:
    """Add to ``log`` the lines the table's log shows since (it keeps only its last 300)."""
    shown = coach_log(table)
    extra = new_lines(log, shown)
    assert extra is not None, "the table's log was cleared"
    log.extend(extra)


def named_words(advice: tuple[str, ...], view: KiitosView) -> list[str]:
    """The example words the coach's advice names that the legal actions offer."""
    offered = {str(action["word"]).upper() for action in view["legal"] if "word" in action}
    return [word for word in re.findall(r"[A-Z]{4,}", " ".join(advice)) if word in offered]


async def test_a_coached_first_game_played_by_the_coachs_keys(tmp_path: Path) -> None:
    """``clowder learn kiitos`` to the results, as a newcomer following the coach: Enter for
    the letter it says you must play, the example word it names typed and Enter, ``-``
    (pick up) when it names no word. Once each, to meet every result the coach explains: a made-up
    word (the bot challenges it), a challenge of the bot's word (``!``) and a pick-up. This
    is also the suite's whole Kiitos game by keys through app, host and client: the start
    countdown, a challenge ruled by the host, the results and Enter to leave."""
    app = learn_app(tmp_path, "kiitos", bot_reaction_scale=BOT_REACTION_SCALE)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await table_of(pilot, KiitosTable, lambda screen: screen.playing is not None, 400)
        assert table.coach is not None
        log: list[str] = []
        advised: list[tuple[str, ...]] = []
        bluffed = challenged = picked = False
        for _ in range(MAX_STEPS):
            await pilot.pause()
            follow(log, table)
            if isinstance(app.screen, ResultsScreen):
                break
            view = table.view
            assert view is not None
            if table.starting:
                assert not kinds(view)  # the host counts down before a real-time game begins
                continue
            legal = kinds(view)
            advice = coach_advice(table)
            text = " ".join(advice)
            if "challenge" in legal and not challenged and "!" in text:
                await pilot.pause(REACTION_S)
                if table.view is view:
                    await pilot.press("exclamation_mark")
                    challenged = True
                    await answered(pilot, table, view)
                continue
            own = legal - {"challenge"}
            if view["turn"] != view["seat"] or view["outcome"] is not None or not own:
                continue
            assert advice, f"the coach said nothing on your turn: {legal}"
            advised.append(advice)
            if "play" in own:
                letters = {str(action["letter"]) for action in view["legal"] if "letter" in action}
                assert "You must play" in text and "Enter" in text, advice
                assert all(letter in text for letter in letters), advice
                await pilot.press("enter")
                if table.choices:
                    await pilot.press("1")
            elif own & {"lead", "say"}:
                words = named_words(advice, view)
                assert "Enter" in text, advice
                if view["phase"] == "play":
                    assert f"press -: pick up {len(view['table'])}" in text, advice
                if not bluffed:  # a made-up word once: the bot challenges it
                    action = next(a for a in view["legal"] if a["type"] in ("lead", "say"))
                    start = "".join(view["table"]) if view["phase"] == "play" else ""
                    word = start + str(action["letter"]) + BLUFF
                    await type_word(pilot, word)
                    bluffed = True
                elif view["phase"] == "play" and not picked:
                    await pilot.press("minus")  # once, as the coach offers
                    picked = True
                elif words:
                    await type_word(pilot, words[0])
                else:
                    assert "press -: pick up" in text, advice
                    await pilot.press("minus")
                if table.choices:
                    await pilot.press("1")
            elif "pickup" in own:
                assert "press -: pick up" in text, advice
                await pilot.press("minus")
            elif "forfeit" in own:
                match = re.search(r"e\.g\. ([A-Z])", text)
                assert match, advice
                await pilot.press(match.group(1).lower(), "enter")
            else:
                raise AssertionError(f"no key for {legal}: {advice}")
            await answered(pilot, table, view)
        else:
            raise AssertionError("the game did not end")
        final = table.view
        assert final is not None and final["outcome"] is not None
        follow(log, table)
        award = table.history.last
        assert award is not None and award.ruling is not None, "the challenge was not ruled"
        results = app.screen
        assert isinstance(results, ResultsScreen)
        assert results.lines[2].split() == ["R1", "total"]
        assert any("(you)" in line for line in results.lines)
        await leave_the_results(pilot)
    coach = [line for line in log if line.startswith(MARK)]
    game = [line for line in log if not line.startswith(MARK)]
    sample = "\n".join([*coach[:12], "...", *coach[-6:]])
    assert len(advised) >= 10, f"only {len(advised)} turns:\n{sample}"
    assert bluffed and challenged and picked, sample
    assert coach[0] == MARK + KiitosCoach.welcome, sample
    assert any("Rule cards: target words need 4+ letters" in line for line in coach), sample
    explained = {
        "is complete!": ("Kiitos!",),
        " challenges ": ("in the dictionary",),
        "cannot continue and picks up": ("so picks up", "You picked up"),
        "is over:": ("Round 1 ends",),
        " win": ("the highest total wins",),
    }
    for event, explanations in explained.items():
        happened = sum(event in line for line in game)
        told = sum(any(words in line for words in explanations) for line in coach)
        assert told >= happened, f"{happened} x {event!r}, {told} explained:\n{sample}"
    assert any("is not in the dictionary" in line for line in coach), sample
    assert any("You challenged" in line and "is in the dictionary" in line for line in coach)
    assert any(line.startswith(MARK + "You picked up") for line in coach), sample

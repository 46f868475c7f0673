"""The Katootsie! coach: one test per rule it explains, then a whole coached first game.

The unit tests build views from the engine with a fixed letter pile and fixed categories
(:func:`tests.engine.games.katootsie.helpers.table`) and read what the coach says at each
step, as a coached screen gives it the views of seat 0 (Ann) in order. The last test plays
``clowder learn katootsie`` through Pilot, by keys, to the results.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import pytest
from textual.widgets import Input

from engine.games.katootsie import answers
from engine.games.katootsie import rules as katootsie
from engine.games.katootsie.rules import KatootsieView
from tests.engine.games.katootsie.helpers import Table, table
from tests.engine.games.katootsie.test_rules import tie
from tests.tui.solo import coach_advice, coach_log, learn_app, leave_the_results, table_of
from tui.coach import new_log_lines
from tui.games.katootsie.coach import KatootsieCoach
from tui.games.katootsie.screen import KatootsieTable
from tui.screens.results import ResultsScreen
from tui.widgets.coach import MARK
from tui.widgets.prompt import PromptLine

pytestmark = pytest.mark.timeout(120)


COACH = KatootsieCoach()


def seen(view: dict[str, Any]) -> KatootsieView:
    """An engine view as the coach reads it (its TypedDict)."""
    return cast(KatootsieView, view)


class Coached:
    """A fixed game seen from one seat, as a coached screen sees it: each :meth:`look` gives
    the coach the new view and returns what it explains; :meth:`advice` is its panel now."""

    def __init__(self, game: Table, seat: int = 0) -> None:
        self.game = game
        self.seat = seat
        self.view: dict[str, Any] = game.view(seat)
        self.opening = COACH.opening(seen(self.view))

    def look(self) -> list[str]:
        """What the coach says about everything since the last look."""
        before, self.view = self.view, self.game.view(self.seat)
        return COACH.after(seen(before), seen(self.view))

    def advice(self) -> str:
        """The panel's lines, joined (assertions read words in it)."""
        return " ".join(COACH.now(seen(self.view)))


def coached(
    players: int = 3, first: str = "BB", categories: tuple[str, ...] = ("Fruits",), **options: Any
) -> Coached:
    """A game with these first letters and categories, coached for Ann (seat 0)."""
    return Coached(table(players, first, categories, **options))


def test_the_opening_says_the_aim_and_that_keys_need_esc_while_typing_is_on() -> None:
    game = coached()
    words = " ".join(game.opening)
    assert "first to type an answer that fits both takes the letter" in words
    assert "press / first: then r shows the rules and q leaves" in words


def test_a_category_is_read_before_its_letter_comes() -> None:
    game = coached()
    assert game.advice() == (
        "New category: Fruits. Think of some now: a letter comes in a moment. Each category"
        " gets two letters, then the next category is turned."
    )


def test_a_letter_asks_for_an_answer_in_the_category_that_starts_with_it() -> None:
    game = coached()
    game.game.to_letter()
    game.look()
    advice = COACH.now(seen(game.view))
    assert advice[0] == (
        "Type an answer for Fruits that starts with B, then press Enter: the first answer"
        " that fits takes B."
    )
    assert "! calls Katootsie!: if nobody answers in 10 s, B is yours" in " ".join(advice)


def test_the_first_fitting_answer_takes_the_letter_and_the_coach_says_why() -> None:
    game = coached()
    game.game.to_letter()
    game.look()
    game.game.answer(1, "Banana")
    assert game.look() == [
        "Bea takes B: “Banana” came first, fits Fruits and starts with B (it is in the"
        " game's list, so it counts at once)."
    ]
    assert game.advice() == "Letter 2 of 2 for Fruits comes next: get ready to type."
    game.game.to_letter()
    game.look()
    game.game.answer(0, "blueberry")
    said = game.look()  # the second letter closes Fruits: the next category is on at once
    assert said[0].startswith("You take B: “blueberry” came first, fits Fruits and starts")
    assert game.advice().startswith("New category: ")


def test_q_x_and_z_may_be_anywhere_in_the_answer() -> None:
    game = coached(first="Q", categories=("Colors",))
    game.game.to_letter()
    game.look()
    advice = game.advice()
    assert "Type an answer for Colors that has Q anywhere in it, then press Enter" in advice
    assert "Q is an Anywhere letter: Q, X and Z may be anywhere in the word." in advice
    game.game.answer(1, "aquamarine")
    assert game.look()[0].startswith(
        "Bea takes Q: “aquamarine” came first, fits Colors and has Q anywhere in it"
    )


def test_the_article_rule_the_shining_is_not_an_answer_for_t() -> None:
    game = coached(first="T", categories=("Horror Movies",))
    game.game.to_letter()
    game.look()
    assert "A leading “The” is left out: “The Shining” counts for S, never for T." in (
        game.advice()
    )
    game.game.answer(0, "The Shining")
    assert game.look() == [
        "Your “The Shining” was refused: “The” is left out of every answer, so it counts for"
        " S, not T. You are out for T until the next letter."
    ]
    assert game.advice() == (
        "You are out for T: a refused answer locks you out until the next letter."
    )


def test_the_article_rule_an_answer_after_the_counts_for_its_own_letter() -> None:
    game = coached()
    game.game.to_letter()
    game.look()
    game.game.answer(0, "the banana")
    assert game.look()[0].startswith(
        "You take B: “the banana” came first, fits Fruits and starts with B (“the” left out)"
    )


def test_a_marked_category_reminds_that_a_an_and_the_are_ignored() -> None:
    game = coached(first="R", categories=("Rivers",))
    assert "Ignore A, An and The at the start of an answer" in game.advice()
    game.game.to_letter()
    game.look()
    assert "Ignore A, An and The at the start of an answer" in game.advice()


def test_a_repeated_letter_names_the_answer_that_may_not_be_used_again() -> None:
    game = coached()
    game.game.to_letter()
    game.game.answer(1, "Banana")
    game.game.to_letter()
    game.look()
    assert "Not “Banana”: an answer takes one letter per category, and a repeat is refused." in (
        game.advice()
    )
    game.game.answer(0, "bananas")  # a plural reads as the singular: still a repeat
    assert game.look() == [
        "Your “bananas” was refused: it already took a letter in Fruits, and an answer counts"
        " once per category. You are out for B until the next letter."
    ]


def test_a_refused_answer_locks_its_player_out_of_the_letter() -> None:
    game = coached()
    game.game.to_letter()
    game.look()
    game.game.answer(1, "apple")
    assert game.look() == [
        "Bea is out for B: a refused answer locks its player out of that letter (no more"
        " answers, no Katootsie!)."
    ]
    game.game.answer(0, "cherry")
    assert game.look()[0] == (
        "Your “cherry” was refused: it must start with B. You are out for B until the next letter."
    )


def test_an_empty_answer_is_refused() -> None:
    game = coached()
    game.game.to_letter()
    game.look()
    game.game.answer(0, "")
    assert game.look()[0] == "An empty answer is refused. You are out for B until the next letter."


def test_winning_by_default_when_everyone_else_is_out() -> None:
    game = coached()
    game.game.to_letter()
    game.look()
    game.game.answer(1, "apple")
    game.game.answer(2, "cherry")
    said = game.look()
    assert said[-1] == (
        "You take B by default: everyone else was out, and a refused answer locks its player"
        " out of that letter."
    )
    assert "Bea is out for B" in said[0] and "Cy is out for B" in said[1]


def test_a_disputed_answer_goes_to_the_others_vote_with_y_and_n() -> None:
    game = coached()
    game.game.to_letter()
    game.game.answer(1, "Blue apple")
    game.look()
    assert game.advice() == (
        "Vote: does Bea's “Blue apple” fit Fruits and start with B? Press y to accept, n to"
        " reject. It is not in the game's list, so the table decides: it is rejected only if"
        " most votes cast are against."
    )
    game.game.vote(0, True)
    game.look()
    assert game.advice() == "You voted: wait for the others."


def test_your_own_disputed_answer_waits_for_the_others_vote() -> None:
    game = coached()
    game.game.to_letter()
    game.game.answer(0, "Blue apple")
    game.look()
    assert game.advice() == (
        "Your “Blue apple” is not in the game's list: the others vote. Only a majority"
        " against rejects it."
    )


def test_a_strict_majority_of_votes_against_rejects_with_the_count() -> None:
    game = coached()
    game.game.to_letter()
    game.game.answer(1, "Blue apple")
    game.look()
    game.game.vote(0, False)
    game.game.vote(2, False)
    assert game.look() == [
        "“Blue apple” was voted down: 2 of 2 votes against is a strict majority, so Bea is"
        " out for B."
    ]


def test_a_tied_vote_lets_the_answer_stand() -> None:
    game = coached()
    game.game.to_letter()
    game.game.answer(1, "Blue apple")
    game.look()
    game.game.vote(0, False)
    game.game.vote(2, True)
    assert game.look() == [
        "Bea takes B: “Blue apple” is not in the game's list, but the vote let it stand (a"
        " tied vote); only a majority against rejects."
    ]


def test_katootsie_bets_nobody_answers_in_ten_seconds() -> None:
    game = coached()
    game.game.to_letter()
    game.look()
    game.game.call(1)
    assert game.look() == [
        "Bea bets nobody answers B within 10 s. Answer in time and you take B and one of"
        " Bea's letters."
    ]
    assert game.advice().startswith(
        "Bea called Katootsie!: answer within 10 s to take B and one of Bea's letters."
    )
    assert "Stuck?" not in game.advice()  # one call at a time
    game.game.tick()  # nobody answers
    assert game.look() == [
        "Bea takes B with Katootsie!: the bet was that nobody answers in 10 s, and nobody"
        " else gave a fitting answer in time."
    ]


def test_the_katootsie_caller_may_not_answer() -> None:
    game = coached()
    game.game.to_letter()
    game.look()
    game.game.call(0)
    assert game.look() == [
        "Your bet: nobody answers B within 10 s. Right, B is yours; wrong, the answerer also"
        " takes one of your letters."
    ]
    assert game.advice() == (
        "Your Katootsie! is on: if nobody answers B within 10 s, it is yours. The caller may"
        " not answer."
    )


def test_katootsie_caught_costs_the_caller_a_letter_or_a_debt() -> None:
    game = coached(first="BC")
    game.game.to_letter()
    game.game.call(1)  # Bea has no letter yet
    game.look()
    game.game.answer(0, "banana")
    assert game.look() == [
        "You take B: “banana” came within Bea's 10 s of Katootsie!, so the bet is lost and"
        " Bea had no letter to give, so owes the next one."
    ]
    game.game.to_letter()
    game.game.answer(1, "cherry")  # Bea's next letter pays her debt
    assert game.look()[-1] == (
        "But Bea owed a letter (a Katootsie! lost with none to give), so that letter goes to you."
    )


def test_ties_the_others_vote_who_was_first_by_number() -> None:
    game = coached()
    game.game.to_letter()
    tie(game.game, {1: "banana", 2: "blueberry"})
    game.look()
    assert game.advice() == (
        "Too close to call! Who answered first? Press 1 Bea “banana” or 2 Cy “blueberry”;"
        " 0 says the same time. A strict majority for one player decides; otherwise the tied"
        " players play a tie-break letter."
    )
    game.game.act(0, {"type": "first", "seat": 2})
    assert game.look() == [
        "1 of 1 votes is a strict majority: that player was first, so only their answer is judged.",
        "Cy takes B: “blueberry” came first, fits Fruits and starts with B (it is in the"
        " game's list, so it counts at once).",
    ]


def test_ties_without_a_majority_play_a_tie_break_for_the_letters_at_stake() -> None:
    game = coached(first="BC")
    game.game.to_letter()
    tie(game.game, {1: "banana", 2: "blueberry"})
    game.look()
    game.game.act(0, {"type": "first", "seat": None})
    assert game.look() == [
        "Too close to call, and no majority said who was first: a tie-break. Only Bea and Cy"
        " answer the next letter; its taker also wins B."
    ]
    assert game.advice() == "Tie-break next: only Bea and Cy answer it, and its taker also wins B."
    game.game.to_letter()
    game.look()
    assert game.advice() == "Only Bea and Cy play this letter: watch how it goes."
    game.game.answer(2, "cherry")
    assert game.look() == ["Cy takes B and C: the tie-break's winner takes every letter at stake."]


def test_a_letter_nobody_answers_is_set_aside() -> None:
    game = coached()
    game.game.to_letter()
    game.look()
    game.game.tick()  # no_answer_seconds pass
    assert game.look() == ["Nobody answered B in time: it is set aside, and nobody scores it."]


def test_sudden_death_the_first_to_win_two_letters_wins() -> None:
    game = Coached(table(players=2, first=""))
    turn = 0
    while not game.game.state.sudden:
        game.game.to_letter()
        game.game.answer(turn % 2, "")  # Ann and Bea take letters in turn: 26 each
        game.look()
        turn += 1
    title = game.view["category"]["title"]
    assert game.advice() == (
        f"Sudden death: you and Bea play {title}; the first to win 2 letters wins."
    )
    game.game.to_letter()
    game.look()
    game.game.answer(1, "")  # Ann wins one by default
    said = game.look()
    assert said[-1].startswith("You take ") and "(sudden death: 1 of 2) by default" in said[-1]
    game.game.to_letter()
    game.look()
    game.game.answer(1, "")  # and a second: she wins
    said = game.look()
    assert "(sudden death: 2 of 2)" in said[-2], said
    assert said[-1] == "You win: the first to win 2 letters in sudden death wins."
    assert COACH.now(seen(game.view)) == []


def test_sudden_death_is_explained_when_it_starts() -> None:
    game = Coached(table(players=2, first=""))
    turn = 0
    said: list[str] = []
    while not game.game.state.sudden:
        game.game.to_letter()
        game.look()
        game.game.answer(turn % 2, "")
        said = game.look()
        turn += 1
    assert said[-1] == (
        "The top score is shared, so you and Bea play sudden death: one new category, and the"
        " first to win 2 letters wins."
    )


def test_most_letters_win_at_the_end() -> None:
    game = Coached(table(players=2, first=""))
    said: list[str] = []
    while game.view["outcome"] is None:
        game.game.to_letter()
        game.look()
        game.game.answer(1, "")  # Bea keeps answering blank: Ann takes every letter
        said = game.look()
    assert said[-1] == "You win: the most letters win, and 52 was the most."


def test_the_new_log_lines_are_found_in_a_sliding_window() -> None:
    assert new_log_lines(["a", "b", "c"], ["a", "b", "c", "d"]) == ["d"]
    assert new_log_lines(["a", "b", "c"], ["b", "c", "d", "e"]) == ["d", "e"]
    assert new_log_lines(["a", "b"], ["a", "b"]) == []
    assert new_log_lines(["a"], ["x", "y"]) == ["x", "y"]


# --------------------------------------------------------------------------- a whole first game


GAME_LETTERS = ("B", "B", "S", "S")
"""The letters of the test's game: most categories have several answers for both."""
ANSWERS_EACH = 6
"""The test's categories have at least this many answers in plain letters for each of
:data:`GAME_LETTERS`, so the learner always has one left to type, and the easy bots (each
knowing about a third of the list) nearly always one between them in a tie-break: a
category and letter with one answer, taken already, left a letter that nobody could answer,
and the game waited the rules' 60 s to set it aside."""


def plain(text: str) -> bool:
    """Whether ``text`` is typed with letter keys and spaces only."""
    return all(ch.isascii() and (ch.isalpha() or ch == " ") for ch in text)


def well_known_categories() -> tuple[answers.Category, ...]:
    """The categories with :data:`ANSWERS_EACH` plain answers for every letter of the game."""
    return tuple(
        category
        for category in answers.categories()
        if all(
            sum(plain(text) for text in answers.answers_for(category.code, letter)) >= ANSWERS_EACH
            for letter in set(GAME_LETTERS)
        )
    )


NO_ANSWER_S = 10
"""The fewest seconds the rules allow before a letter nobody answers is set aside (60 by
default): in a tie-break only the two bots may answer, and easy bots know a third of the
answers, so now and then neither knows one."""


@pytest.fixture
def short_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four letters a game, from categories the learner always has an answer for, and short
    pauses, so a whole coached game fits a test; the coach's own options are kept."""
    known = well_known_categories()
    answers.by_code()  # cached over every category first: other tests look any of them up
    monkeypatch.setattr(katootsie, "FULL_LETTERS", GAME_LETTERS)
    # A letter only bots may answer (a tie-break), none knowing an answer: set aside sooner.
    options = {**KatootsieCoach.first_game, "no_answer_seconds": NO_ANSWER_S}
    monkeypatch.setattr(KatootsieCoach, "first_game", options)
    monkeypatch.setattr(answers, "categories", lambda: known)  # the rules deal from these
    monkeypatch.setattr(katootsie, "CATEGORY_PAUSE_S", 0.3)
    monkeypatch.setattr(katootsie, "LETTER_PAUSE_S", 0.3)


def my_answer(view: Mapping[str, Any]) -> str | None:
    """An answer from the category's list nobody took yet, in plain letters (keys to press)."""
    code = view["category"]["code"]
    used = {answers.used_key(text) for text in view["used"]}
    for text in answers.answers_for(code, view["letter"]):
        if plain(text) and answers.used_key(text) not in used:
            return str(text)
    return None


REACTION_S = 0.3
"""The learner answers no sooner than this after a letter shows: the host refuses a claim
quicker than a person can react (80 ms, from the letter drawn to the answer's stamp), and
under load the keys of a whole answer went in under that, refused, the letter held for ever."""
PATIENCE_S = 1.5
"""On the second letter the learner lets the bots try first, for this long at most: the bots
(at a fifth of their coached reaction time) may take it; the learner answers the others at once."""


RESULT_WORDS = (
    "came first",
    "the vote let it stand",
    "with Katootsie!: the bet",
    "of Katootsie!, so the bet is lost",
    "by default: everyone else was out",
    "the tie-break's winner",
    "set aside",
)
"""What the coach says of each way a letter can go (one of these per letter explained)."""


def learner_waits(
    table: KatootsieTable, view: Mapping[str, Any], tried: set[int], answered: dict[int, int]
) -> str:
    """Why the learner types nothing now ("": they may answer)."""
    reveal = view["reveal"]
    if reveal is None:
        return "no letter is open"
    if reveal in tried:
        return "no answer left to type: the bots may take it"
    if table.pending_claim is not None:
        return "an answer waits for the host's ruling"
    if not table.may_answer(view):
        return "may not answer (out for this letter, or not theirs)"
    line = table.query_one("#answer", Input)
    if line.disabled or table.focused is not line:
        return "the answer line is closed or has no focus"
    return ""


def letter_id(view: Mapping[str, Any]) -> tuple[Any, ...]:
    """One letter of the game (a letter reopened after a bad answer is the same letter)."""
    return (view["round"], view["category"]["code"], view["letters_left"], view["letter"])


async def test_a_whole_coached_first_game_by_keys_explains_every_letter(
    tmp_path: Path, short_game: None
) -> None:
    """``clowder learn katootsie`` (four letters a game) to the results, as a newcomer
    following the coach: typed answers, votes and every letter's result explained. This is
    also the suite's whole Katootsie! game by keys through app, host and client: the
    host's rulings reach the screen, the results say who won, and Enter leaves."""
    app = learn_app(tmp_path, "katootsie", bot_reaction_scale=0.2 / KatootsieCoach.bot_pace)
    turns: list[tuple[str, tuple[str, ...]]] = []
    """(what the learner could do, what the panel said then) at each view with legal actions."""
    typed: list[tuple[str, tuple[str, ...]]] = []
    """(letter, the panel's advice) when the learner typed an answer."""
    voted: list[tuple[str, ...]] = []
    """The panel's advice when the learner voted."""
    async with app.run_test(size=(80, 24)) as pilot:
        table = await table_of(pilot, KatootsieTable)
        assert table.coach is not None
        tried: set[int] = set()
        """Reveals on which the learner pressed Enter with no answer (to let the bots go)."""
        answered: dict[int, int] = {}
        """Reveal -> answers sent for it: the host may refuse one without a ruling (typed too
        soon after the letter was drawn), and a person then answers again."""
        letters: list[tuple[Any, ...]] = []
        open_since: dict[int, float] = {}
        seen: object = None
        waits: dict[str, int] = {}
        """Why the learner did nothing, and at how many looks (said if the game does not end)."""
        for _ in range(4000):
            if isinstance(app.screen, ResultsScreen):
                break
            view = table.view
            assert view is not None
            advice = coach_advice(table)  # drawn with this view (both change together)
            if view is not seen and view["legal"]:
                kinds = ",".join(sorted({action["type"] for action in view["legal"]}))
                turns.append((kinds, advice))
            seen = view
            reveal = view["reveal"]
            vote = table.my_vote(view)
            if vote == "vote":
                voted.append(advice)
                await pilot.press("y")  # the coach: "Press y to accept, n to reject"
            elif vote == "first":
                voted.append(advice)
                await pilot.press("0")  # the coach: "0 says the same time"
            elif why := learner_waits(table, view, tried, answered):
                waits[why] = waits.get(why, 0) + 1
            else:
                assert reveal is not None  # learner_waits says so
                line = table.query_one("#answer", Input)
                if letter_id(view) not in letters:
                    letters.append(letter_id(view))
                patient = letters.index(letter_id(view)) == 1
                since = open_since.setdefault(reveal, time.monotonic())
                if patient and table.held:  # held for the learner: Enter lets the bots try
                    await pilot.press("enter")
                elif time.monotonic() - since < REACTION_S:
                    pass  # a person reads the letter first (the host refuses a quicker claim)
                elif not patient or time.monotonic() - since > PATIENCE_S:
                    # Three answers that came to nothing (refused as too quick, or their keys
                    # lost as the letter changed under a loaded machine): a person gives the
                    # letter up, Enter on an empty line, or a letter held for them waits on.
                    text = None
                    if answered.get(reveal, 0) >= 3:
                        waits["three answers came to nothing: gave the letter up"] = 1
                        if line.value:
                            await pilot.press("ctrl+u")
                    else:
                        text = my_answer(view)
                    if text is None:
                        tried.add(reveal)
                    else:
                        answered[reveal] = answered.get(reveal, 0) + 1
                        typed.append((str(view["letter"]), advice))
                        if line.value:  # the end of an answer to the letter before
                            await pilot.press("ctrl+u")
                        await pilot.press(*text.lower())  # typing goes to the answer line
                        now = table.view
                        if line.value != text.lower() or now is None or now["reveal"] != reveal:
                            # A person reads the line before Enter: keys typed as the letter
                            # changed (or before its line opened) went elsewhere.
                            waits["the line lost keys: typed again"] = answered[reveal]
                            await pilot.press("ctrl+u")
                            continue
                    await pilot.press("enter")  # with no answer: lets a held letter go on
            await pilot.pause(0.02)
        log = coach_log(table)
        said = [line.removeprefix(MARK) for line in log if line.startswith(MARK)]
        sample = "\n".join(said[-24:])
        last: Any = table.view or {}
        state = (
            f"screen held={table.held}, view held={last.get('held')!r}, reveal={last.get('reveal')}"
            f", tried={sorted(tried)}, answered={answered}"
            f", legal={[a['type'] for a in last.get('legal') or []]}"
            f", focus={table.focused!r}, may answer={table.may_answer(last) if last else None}"
            f", line={table.query_one('#answer', Input).value!r}"
            f", prompt={str(table.query_one(PromptLine).render())!r}"
            f", the learner waited: {waits}"
        )
        assert isinstance(app.screen, ResultsScreen), (
            "the game did not end (" + state + "):\n" + "\n".join(log)
        )
        sample = f"({state})\n{sample}"  # every message below says how the learner fared
        # The panel had advice whenever the learner could act, and it named what to do.
        assert turns, "the learner never had anything to do"
        for kinds, advice in turns:
            assert advice, f"an empty panel when the learner could {kinds}:\n{sample}"
        assert typed, f"the learner never typed an answer:\n{sample}"
        for letter, advice in typed:
            words = " ".join(advice)
            assert f"starts with {letter}, then press Enter" in words, (advice, sample)
        for advice in voted:
            words = " ".join(advice)
            assert "Press y to accept" in words or "0 says the same time" in words, advice
        # The opening, one explanation for each letter that went somewhere, and the end.
        assert said[0].startswith("Win letters: a category shows, then a letter"), sample
        results = [line for line in said if any(why in line for why in RESULT_WORDS)]
        revealed = [line for line in log if line.startswith("Letter ")]
        tie_breaks = [line for line in said if "a tie-break." in line]
        assert len(results) >= len(revealed) - len(tie_breaks) >= 1, "\n".join(log)
        assert any(line.startswith("You take ") for line in results), sample
        assert any(" win: " in line or " wins: " in line for line in said[-3:]), sample
        assert table.history.awards, "no ruling reached the screen"
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        assert any("win" in line for line in screen.lines[:1])
        await leave_the_results(pilot)

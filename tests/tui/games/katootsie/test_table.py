"""The Katootsie! table driven with fixed views: what it shows and the intents it sends."""

from __future__ import annotations

import time
from typing import Any

import pytest

from engine.games.katootsie.rules import GAME
from tests.engine.games.katootsie.helpers import Table, table
from tests.tui.harness import TableHarness
from tui.games.katootsie import screen as katootsie_screen
from tui.games.katootsie.screen import (
    CLOSED_AS_TYPED,
    HELD_LETTERS,
    AnswerInput,
    KatootsieTable,
    big_letter,
    letters_text,
)
from tui.screens.info import InfoScreen
from tui.screens.rules import RulesScreen
from tui.widgets.prompt import PromptLine
from tui.widgets.timer import Countdown

SIZE = (80, 24)
PHONE = (48, 40)
TEN = ["Ann", "Bea", "Cy", "Dot", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo"]


def text_of(widget: object) -> str:
    return str(widget.render())  # type: ignore[attr-defined]


def harness(view: dict[str, Any]) -> TableHarness:
    return TableHarness(view, presence=[], screen=KatootsieTable)


def letter_open(
    first: str = "BB", categories: tuple[str, ...] = ("Fruits",), players: int = 3
) -> Table:
    game = table(players=players, first=first, categories=categories)
    game.to_letter()
    return game


def board(app: TableHarness) -> str:
    return "\n".join(
        text_of(app.table.query_one(f"#{name}"))
        for name in ("title", "category", "timer-label", "news", "scores")
    )


async def test_the_answer_line_has_the_focus_and_enter_claims_with_the_start_of_typing() -> None:
    game = letter_open()
    view = game.view(0)
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        table_screen = app.table
        assert table_screen.focused is table_screen.query_one("#answer")
        before = time.monotonic_ns()
        await pilot.press("b", "a", "n")
        await pilot.pause(0.3)  # a pause before the rest: typing time does not count
        await pilot.press("a", "n", "a")
        enter = time.monotonic_ns()
        await pilot.press("enter")
        assert app.actions == [{"type": "answer", "text": "banana", "reveal": view["reveal"]}]
        stamps = app.stamps[0]
        assert stamps is not None and stamps.reveal == view["reveal"]
        assert stamps.drawn_ns <= before <= stamps.acted_ns
        assert enter - stamps.acted_ns >= 300_000_000  # stamped at the first key, not Enter
        assert "the host is comparing" in text_of(table_screen.query_one(PromptLine))


async def test_the_answer_line_has_a_steady_cursor() -> None:
    """A blinking cursor was two frames a second at every open letter, for every player."""
    app = harness(letter_open().view(0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        line = app.table.query_one(AnswerInput)
        assert app.table.focused is line and line.cursor_blink is False


async def test_ctrl_k_calls_katootsie_while_typing_and_is_in_the_footer() -> None:
    view = letter_open().view(0)
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b", "ctrl+k")
        assert app.actions == [{"type": "katootsie", "reveal": view["reveal"]}]
        assert app.stamps[0] is not None
        assert app.table.query_one("#answer").value == "b"  # type: ignore[attr-defined]
        keys = {binding.key for _, binding, *_ in app.active_bindings.values()}
        assert "ctrl+k" in keys


async def test_the_category_and_letter_are_big_with_anywhere_and_ignore_articles() -> None:
    view = letter_open(first="QQ", categories=("Rivers",)).view(0)
    app = harness(view)
    async with app.run_test(size=SIZE):
        shown = board(app)
        assert "RIVERS" in shown and "Ignore A/An/The" in shown
        assert "Anywhere: Q may be anywhere" in shown
        letter = text_of(app.table.query_one("#letter"))
        assert len(letter.splitlines()) == 5 and "██" in letter
    assert str(big_letter("Q")) != str(big_letter("O"))


async def test_the_ten_second_bar_runs_after_a_katootsie_call() -> None:
    game = letter_open()
    game.call(1)
    app = harness(game.view(0))
    before = time.monotonic()
    async with app.run_test(size=SIZE):
        timer = app.table.query_one("#timer", Countdown)
        assert timer.display
        # Ten seconds from when the view was shown, however long the app took to start.
        assert timer.deadline is not None
        assert before + 10.0 - 0.01 <= timer.deadline <= time.monotonic() + 10.0
        assert timer.left_s() is not None
        assert "Answer now! Katootsie! by Bea" in board(app)
        assert "K!" in text_of(app.table.query_one("#scores"))


async def test_an_unanswered_letter_shows_the_time_until_it_is_set_aside() -> None:
    """A letter nobody answers is set aside after ``no_answer_seconds`` (60 by default):
    with no bar, a coached X waited a silent minute (issue 36 walk-through)."""
    view = letter_open().view(0)
    assert view["quiet_until"] is not None and view["call"] is None
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        timer = app.table.query_one("#timer", Countdown)
        assert timer.display and timer.deadline is not None
        assert 50 < timer.total_s <= view["quiet_until"] - view["opened_at"]  # a minute
        assert "Unanswered: set aside at 0" in board(app)


async def test_the_katootsie_bar_label_fits_at_80x24() -> None:
    """Seen in lan-sim: 'Katootsie! by Fay · answer in' lost its last word at 80 columns."""
    game = letter_open()
    game.call(1)
    for seat, words in ((0, "Answer now! Katootsie! by Bea"), (1, "Your Katootsie! · hold on")):
        app = harness(game.view(seat))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            label = app.table.query_one("#timer-label")
            assert words in text_of(label)
            assert label.size.width >= len(words)


@pytest.mark.parametrize("size", [SIZE, (48, 40)])
async def test_a_long_callers_name_keeps_the_call_on_the_bar(size: tuple[int, int]) -> None:
    """A 32-character name cut the label's end ("Answer now! Katootsie! by Bartholome"):
    the call and the name's start stay, the name cut with an ellipsis if need be."""
    game = letter_open()
    game.call(1)
    view = game.view(0)
    long_name = "Bartholomew Fitzgerald-Wolfe III"
    view["players"] = [view["players"][0], long_name, *view["players"][2:]]
    app = harness(view)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        label = app.table.query_one("#timer-label")
        text = text_of(label)
        assert text.startswith("Katootsie! by Barth") or text.startswith("Answer now!"), text
        assert len(text.rstrip()) <= label.size.width, text
        assert long_name in text or text.rstrip().endswith("…"), text


async def test_a_disputed_answer_is_voted_with_y_n_or_ctrl_y_ctrl_n() -> None:
    game = letter_open()
    game.answer(1, "Bluebell fruit")  # not in the list: the others vote
    view = game.view(0)
    assert view["phase"] == "vote"
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        assert "Accept it?" in board(app)
        await pilot.press("y")
        await pilot.press("ctrl+n")
        assert app.actions == [{"type": "vote", "accept": True}, {"type": "vote", "accept": False}]
        assert app.stamps == [None, None]
        keys = footer(app)  # the plain keys (a phone's keyboard has no ctrl); ctrl+y/n unshown
        assert keys.get("y") == "yes" and keys.get("n") == "no"
        assert "ctrl+y" not in keys and "ctrl+n" not in keys
        assert "exclamation_mark" not in keys  # no call while a vote is on


def footer(app: TableHarness) -> dict[str, str]:
    """The keys the footer shows now: key -> description."""
    shown = app.active_bindings.values()
    return {b.key: b.description for _, b, enabled, _ in shown if enabled and b.show}


def tied() -> Table:
    """A letter open, and Bea's and Cy's answers too close to call: the others vote."""
    game = letter_open()
    moment = GAME.reveal(game.state)
    claims = [
        {"seat": 1, "action": {"type": "answer", "reveal": moment, "text": "Banana"}},
        {"seat": 2, "action": {"type": "answer", "reveal": moment, "text": "Blueberry"}},
    ]
    game.act(1, {"type": "tie", "reveal": moment, "claims": claims})
    return game


async def test_a_tie_is_voted_by_number_and_zero_says_the_same_time() -> None:
    game = tied()
    view = game.view(0)
    assert view["phase"] == "first_vote"
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        assert "Who was first?" in board(app) and "1 Bea" in board(app)
        await pilot.press("2", "0")
        assert app.actions == [{"type": "first", "seat": 2}, {"type": "first", "seat": None}]
        keys = footer(app)
        assert keys.get("1") == "who was first" and "y" not in keys


async def test_a_tie_break_says_who_is_in_it_and_what_it_decides_not_old_news() -> None:
    game = tied()
    for seat in range(3):
        if any(action["type"] == "first" for action in game.view(seat)["legal"]):
            game.act(seat, {"type": "first", "seat": None})  # "the same time": a tie-break
    view = game.view(0)
    assert view["phase"] == "between" and view["tiebreak"] == {"players": [1, 2], "stake": ["B"]}
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = board(app)
        assert "Tie-break between Bea and Cy for B." in text
        assert "The next letter decides: its taker takes B too. Only they answer." in text
        assert "The tie-break letter comes next" in text and "of 2 comes next" not in text


async def test_while_a_letter_is_open_the_footer_offers_the_call_and_no_vote() -> None:
    app = harness(letter_open().view(0))
    async with app.run_test(size=SIZE):
        keys = footer(app)
        assert keys.get("exclamation_mark") == "Katootsie!"  # ! on the empty answer line
        assert "y" not in keys and "1" not in keys


async def test_ten_players_and_their_letters_fit_80x24() -> None:
    game = table(players=5, first="BBCC")
    game.state.players = TEN
    game.state.won = [[], ["B", "C"], *[[] for _ in range(8)]]
    game.state.round_points = [[0] for _ in TEN]
    game.state.debts = [[] for _ in TEN]
    game.state.sudden_wins = [0 for _ in TEN]
    game.state.players_in = list(range(10))
    game.to_letter()
    app = harness(game.view(0))
    async with app.run_test(size=SIZE):
        scores = text_of(app.table.query_one("#scores"))
        assert all(name in scores for name in TEN)
        assert "BC" in scores
    assert letters_text(list("ABCDEFGHIJKLMNOP")) == "+6 GHIJKLMNOP"


async def test_a_spectator_cannot_type_or_call() -> None:
    view = letter_open().view(None)
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        assert app.table.query_one("#answer").disabled
        await pilot.press("ctrl+k")
        assert app.actions == []
        # the keys are not offered (check_action); the prompt says why
        assert "watching" in text_of(app.table.query_one(PromptLine)).lower()


async def test_who_got_the_letter_by_how_many_ms_and_w_explains() -> None:
    game = letter_open()
    view = game.view(0)
    reveal = view["reveal"]
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        claim = {
            "kind": "claim",
            "text": "Bea got reveal #1 with a reaction that counted as 1.2 s, 43 ms ahead of you.",
            "data": {
                "reveal_id": reveal,
                "chosen": 1,
                "tie": False,
                "claims": [
                    {"seat": 1, "credited_ns": 1_200_000_000},
                    {"seat": 0, "credited_ns": 1_243_000_000},
                ],
            },
        }
        lost = {"kind": "claim_lost", "data": {"reveal_id": reveal, "behind_ns": 43_000_000}}
        game.answer(1, "Banana")
        answer = next(e for e in game.events if e.kind == "answer")
        app.table.happened(
            [claim, lost, {"kind": "answer", "text": answer.text, "data": answer.data}]
        )
        app.table.view = game.view(0)
        await pilot.pause()
        screen = app.table
        assert isinstance(screen, KatootsieTable)
        assert "B → Bea (“Banana”), 43 ms ahead of you" in screen.history.lines
        assert "43 ms ahead of you" in board(app)
        await pilot.press("escape", "w")
        assert isinstance(app.screen, InfoScreen)


async def test_the_prompt_offers_w_why_only_once_the_host_has_ruled_on_a_claim() -> None:
    """Before any ruling ``w`` does nothing (the footer hides it), so no prompt names it: the
    first letter's ``/`` prompt said "w why" and ``w`` then said nothing to explain."""
    game = letter_open()
    app = harness(game.view(0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash")
        prompt = app.table.query_one(PromptLine)
        assert text_of(prompt).startswith("Keys: r rules · t chat")
        assert "w why" not in text_of(prompt) and "w" not in footer(app)
        reveal = game.view(0)["reveal"]
        claim = {
            "kind": "claim",
            "text": "Bea got reveal #1.",
            "data": {
                "reveal_id": reveal,
                "chosen": 1,
                "tie": False,
                "claims": [{"seat": 1, "credited_ns": 1_200_000_000}],
            },
        }
        game.answer(1, "Banana")
        answer = next(e for e in game.events if e.kind == "answer")
        app.table.happened([claim, {"kind": "answer", "text": answer.text, "data": answer.data}])
        app.table.view = game.view(0)
        await pilot.pause()
        assert text_of(prompt) == "Get ready: the letter comes next · w why · r rules · q leaves"
        assert "w" in footer(app)


async def test_the_rules_show_the_engines_assumptions() -> None:
    view = letter_open().view(0)
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("escape", "r")
        assert isinstance(app.screen, RulesScreen)
    assert tuple(KatootsieTable().assumptions) == GAME.assumptions


def test_results_name_the_winner_and_everyones_letters() -> None:
    view = letter_open().view(0)
    view["won"] = [["B", "C"], ["D"], []]
    view["outcome"] = {"scores": [2, 1, 0], "winners": [0]}
    view["sudden_death"] = {"players": [0, 1], "wins": [2, 0]}
    screen = KatootsieTable()
    lines = screen.results_lines(view)
    assert lines[0] == "You win!"
    assert "After sudden death between you and Bea." in lines
    assert "Ann (you): 2  BC" in lines and "Cy: 0  -" in lines


def katootsie_snapshot_view() -> dict[str, Any]:
    """Five players, Fruits: Bea took B with Banana; B again, Cy is out after a bad answer."""
    game = letter_open(first="BBC", players=5)
    game.answer(1, "Banana")
    game.to_letter()
    game.answer(2, "Cherry")
    view: dict[str, Any] = game.view(0)
    view["quiet_until"] = None  # its minute's bar moves while the picture is taken
    return view


async def test_the_footer_offers_no_call_key_to_a_spectator() -> None:
    app = harness(letter_open().view(None))
    async with app.run_test(size=SIZE):
        keys = {active.binding.action for active in app.table.active_bindings.values()}
        assert "katootsie" not in keys and "leave" in keys


async def test_an_answer_that_locks_you_out_leaves_the_line_saying_so() -> None:
    game = letter_open()
    app = harness(game.view(0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("A", "p", "p", "l", "e")
        answer = app.table.query_one("#answer")
        assert answer.value == "Apple"  # type: ignore[attr-defined]
        game.answer(0, "Apple")  # not a B: the host rules Ann out for this letter
        view = game.view(0)
        assert 0 in view["locked"]
        app.table.view = view
        await pilot.pause()
        assert answer.value == ""  # type: ignore[attr-defined]
        assert "out for this letter" in answer.placeholder  # type: ignore[attr-defined]


async def test_letters_typed_before_the_letter_shows_are_held_not_taken_as_table_keys() -> None:
    """A player typing ahead (q, r, g...) never opens the leave dialog or gives the seat up."""
    game = table(players=3, first="BB", categories=("Fruits",))
    view = game.view(0)
    assert view["phase"] != "letter"  # the answer line is closed
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        await pilot.press(*"square-rigger", "enter")
        await pilot.pause(0.05)
        assert app.screen is app.table and app.actions == [] and not app.left
        assert HELD_LETTERS in text_of(app.table.query_one(PromptLine))
        await pilot.press("escape", "q")  # asked for: the table's keys work after Esc
        await pilot.pause(0.05)
        assert app.left


async def test_letters_typed_as_a_vote_closes_the_line_do_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Typing "sacramento" as a tie went to the vote: the letters after the line closed were
    meant for the answer, but its ``r`` opened the rules over the vote (a ``q`` would have
    asked to leave, a ``y`` voted). Now they do nothing and the prompt says why; keys pressed
    once the player could see the vote are the table's again."""
    game = letter_open()
    typing_view = game.view(0)
    moment = GAME.reveal(game.state)
    claims = [
        {"seat": 1, "action": {"type": "answer", "reveal": moment, "text": "Banana"}},
        {"seat": 2, "action": {"type": "answer", "reveal": moment, "text": "Blueberry"}},
    ]
    game.act(1, {"type": "tie", "reveal": moment, "claims": claims})
    vote_view = game.view(0)
    assert vote_view["phase"] == "first_vote"
    app = harness(typing_view)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        await pilot.press("s", "a")
        app.table.received(vote_view)
        await pilot.press("r")
        await pilot.pause(0.05)
        assert app.screen is app.table and app.actions == []
        assert CLOSED_AS_TYPED in text_of(app.table.query_one(PromptLine))
        monkeypatch.setattr(katootsie_screen, "TYPED_ON_S", 0.0)  # as if read a moment later
        await pilot.press("r")
        await pilot.pause(0.05)
        assert isinstance(app.screen, RulesScreen)


# Plain keys: a phone's on-screen keyboard has no ctrl chords and often no Esc -------------


async def test_katootsie_has_a_plain_key_for_phone_keyboards() -> None:
    """``!`` on the empty answer line calls Katootsie! (no answer starts with it)."""
    view = letter_open().view(0)
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        line = app.table.query_one("#answer")
        assert app.table.focused is line
        assert "! on an empty line: Katootsie!" in text_of(app.table.query_one(PromptLine))
        before = time.monotonic_ns()
        await pilot.press("exclamation_mark")
        assert app.actions == [{"type": "katootsie", "reveal": view["reveal"]}]
        stamps = app.stamps[0]
        assert stamps is not None and stamps.drawn_ns <= before <= stamps.acted_ns
        assert line.value == ""  # type: ignore[attr-defined]


async def test_an_answer_may_hold_the_plain_keys_signs_once_begun() -> None:
    """Once the answer has begun, ``!`` and ``/`` are typed like any sign (AC/DC, Yahoo!)."""
    app = harness(letter_open().view(0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        line = app.table.query_one("#answer")
        await pilot.press("b", "exclamation_mark", "slash", "b")
        assert line.value == "b!/b"  # type: ignore[attr-defined]
        assert app.actions == [] and app.table.focused is line
        assert "exclamation_mark" not in footer(app) and "slash" not in footer(app)
        await pilot.press(*["backspace"] * 4)
        assert footer(app).get("exclamation_mark") == "Katootsie!"
        assert footer(app).get("slash") == "table keys"


async def test_leaving_the_answer_line_has_a_plain_key_for_phone_keyboards() -> None:
    """``/`` on the empty line leaves it as Esc does: the single keys act (r rules)."""
    app = harness(letter_open().view(0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        line = app.table.query_one("#answer", AnswerInput)
        await pilot.press("slash")
        focus = [app.table.focused]
        assert "Keys: r rules" in text_of(app.table.query_one(PromptLine))
        assert "slash" not in footer(app)  # left already
        await pilot.press("r")
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("q")  # back to the table (the rules' own plain key)
        await pilot.press("b")  # a letter goes back to the answer
        focus.append(app.table.focused)
        assert focus == [None, line] and line.value == "b"


@pytest.mark.parametrize("size", [SIZE, PHONE])
async def test_the_first_letter_typed_after_leaving_the_line_is_kept(size: tuple[int, int]) -> None:
    """Seen in the LAN walk-through: after ``/``, ``nosferatu`` went as ``osferatu`` (the
    letter that brought typing back was typed, then the line took the focus and selected it,
    and the next letter replaced it); after Esc, the same with an answer begun."""
    view = letter_open().view(0)
    app = harness(view)
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.05)
        line = app.table.query_one("#answer", AnswerInput)
        await pilot.press("slash", *"nosferatu")
        assert line.value == "nosferatu"
        await pilot.press("escape", *"s")  # Esc on an answer begun: the next letter adds to it
        assert line.value == "nosferatus"
        await pilot.press("backspace", "enter")
        assert app.actions == [{"type": "answer", "text": "nosferatu", "reveal": view["reveal"]}]


@pytest.mark.parametrize("size", [SIZE, PHONE])
async def test_typing_again_after_slash_brings_the_typing_prompt_back_at_once(
    size: tuple[int, int],
) -> None:
    """The prompt said "Keys: r rules · ... · other letters type" while the letters typed,
    until the host's next view: it and the footer follow the line at the letter itself."""
    app = harness(letter_open().view(0))
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.05)
        prompt = app.table.query_one(PromptLine)
        await pilot.press("slash")
        assert text_of(prompt).startswith("Keys: ")
        assert {"r", "q"} <= set(footer(app)) and "slash" not in footer(app)
        await pilot.press("b")
        assert text_of(prompt).startswith("Type an answer with B, Enter sends it")
        assert app.table.focused is app.table.query_one("#answer")
        assert not {"r", "q"} & set(footer(app))  # letters type
        await pilot.press("backspace")  # the empty line again: ! and / are the table's
        assert footer(app).get("slash") == "table keys"
        assert footer(app).get("exclamation_mark") == "Katootsie!"


async def test_held_letters_give_way_to_the_table_keys_after_the_plain_key() -> None:
    """With the line closed, letters are held; ``/`` (no Esc needed) makes them keys."""
    game = table(players=3, first="BB", categories=("Fruits",))
    app = harness(game.view(0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        await pilot.press("q")
        assert not app.left and HELD_LETTERS in text_of(app.table.query_one(PromptLine))
        assert "/ (or Esc) for keys" in HELD_LETTERS
        assert footer(app).get("slash") == "table keys"
        await pilot.press("slash", "q")
        await pilot.pause(0.05)
        assert app.left


async def test_votes_have_plain_keys_for_phone_keyboards() -> None:
    game = letter_open()
    game.answer(1, "Bluebell fruit")
    app = harness(game.view(0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "y")
        assert app.actions == [{"type": "vote", "accept": False}, {"type": "vote", "accept": True}]
        assert "y yes · n no" in board(app) and "ctrl" not in board(app)

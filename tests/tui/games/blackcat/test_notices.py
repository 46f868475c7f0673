"""Every notice the Black Cat table shows is read whole at 80x24 (issue 36, item 4).

The prompt line was one line: a refusal from the host (``Too early to call: ...``, some
100 characters) and the screen's own hint for a card nobody takes were cut at the 80th
column. Each notice is put where the table shows it, at 80x24 with four players (the
fullest board), and its whole text must be on screen there: the prompt's texts in every
state, every refusal (the screen's, the real-time base's and the engine's own words), the
line under the top card (who got the last card, how close it was, who called), the call's
toast and the results.
"""

from __future__ import annotations

from typing import Any, cast

import pytest
from textual.widgets._toast import Toast

from engine.core import IllegalAction
from engine.games.blackcat import rules as blackcat
from engine.games.blackcat.rules import CALL_PHRASE, BlackCatView
from tests.tui.harness import (
    BLACKCAT_DECK,
    TableHarness,
    blackcat_view,
    flat,
    shown_in,
    shown_whole,
)
from tui.games.blackcat.screen import BlackCatTable
from tui.screens.results import ResultsScreen
from tui.widgets.prompt import PromptLine
from tui.widgets.rulings import Award, Ruling

SIZE = (80, 24)
PLAYERS = ["Ann", "Bartholomew", "Cy", "Dan"]
"""Four players (the most), one with a long name."""
TAKES = [(0, 0), (1, 0), (2, 1), (3, 1), (0, 1)]
"""Grabs from the fixed deck (8♠ 2♣ 3♠ 10♦ 2♥; 5♣ on top after)."""


def view_of(**changes: Any) -> dict[str, Any]:
    """Ann's view after :data:`TAKES`, with ``changes``."""
    return {**blackcat_view(TAKES, players=PLAYERS), **changes}


def host_refusals() -> list[str]:
    """The engine's words for each Black Cat move it refuses."""
    game = blackcat.GAME
    refusals = []

    def refused(state: Any, action: dict[str, Any], now: float) -> None:
        with pytest.raises(IllegalAction) as caught:
            game.apply(state, 0, action, now)
        refusals.append(str(caught.value))

    state = game.new_game(PLAYERS, 7, {"deck": BLACKCAT_DECK, "stall": 10})
    refused(state, {"type": "call"}, 0.0)  # before the first card's moment
    state, _ = game.tick(state, 0.0)
    refused(state, {"type": "call"}, 3.0)
    refused(state, {"type": "take", "pile": 2, "reveal": state.reveal}, 3.0)
    refused(state, {"type": "take", "pile": 0, "reveal": state.reveal + 1}, 3.0)
    late = state.reveal
    state, _ = game.apply(state, 1, {"type": "take", "pile": 0, "reveal": late}, 3.0)
    refused(state, {"type": "take", "pile": 0, "reveal": late}, 3.0)
    state, _ = game.apply(state, 1, {"type": "take", "pile": 0, "reveal": state.reveal}, 3.0)
    refused(state, {"type": "take", "pile": 0, "reveal": late}, 3.0)
    assert len(set(refusals)) == len(refusals)
    return refusals


async def test_every_prompt_is_read_whole_at_80x24() -> None:
    """The prompt in each state of the game (its texts are made for the state; the line
    shows each in turn)."""
    app = TableHarness(view_of(), presence=[], screen=BlackCatTable)
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        assert isinstance(table, BlackCatTable)
        await pilot.pause()

        def prompt_for(view: dict[str, Any] | None = None, **changes: Any) -> str:
            table.view = cast(BlackCatView, {**(view or view_of()), **changes})
            assert table.view is not None
            return table.prompt_text(table.view)

        texts = [prompt_for()]  # a call allowed in a few seconds
        # Said of this card (the rule counts each card's quiet seconds afresh), not as a
        # clock for the game: "calling the end allowed in 5 s" seemed to restart at random.
        assert "c c calls the end after" in texts[0] and "s untaken" in texts[0]
        texts.append(prompt_for(stalled=True))
        texts.append(prompt_for({k: v for k, v in view_of().items() if k != "stall_s"}))
        table.calling = True
        texts.append(prompt_for())
        table.calling = False
        table._claimed = {int(view_of()["reveal"]): {"type": "take", "pile": 1}}
        texts.append(prompt_for())
        table._claimed = {}
        table.starting, table.starts_in = True, 3.0
        texts.append(prompt_for())
        table.starts_in = None
        texts.append(prompt_for())
        table.starting = False
        texts.append(prompt_for(seat=None))
        texts.append(prompt_for(top=None))
        texts.append(table.prompt_text(cast(BlackCatView, view_of(phase="over"))))
        assert len(set(texts)) == len(texts), texts
        prompt = table.query_one(PromptLine)
        cut = []
        for text in texts:
            # The table re-prompts as its seconds tick (a call's wait): then it says this too.
            table.prompt_text = lambda view, text=text: text  # type: ignore[method-assign,misc]
            prompt.prompt(text)
            if not await shown_whole(pilot, app, prompt, text):
                cut.append(text)
        assert cut == [], "prompts cut at 80x24"


async def test_every_refusal_is_read_whole_at_80x24() -> None:
    """Each refusal, the host's in the engine's own words, as the prompt line shows it."""
    reasons = [
        *host_refusals(),
        "You are watching: only players grab cards",
        "You are watching: only players call the end",
        "You already grabbed 5♣ for pile 2; the host is deciding",
        "You pressed before 5♣ was on screen (2♥ had just gone)",
        "The host has not ruled on a claim yet: nothing to explain",
        "Nothing waits for you now",
        # A host's words may be longer than the line (these were an older host's): they wrap.
        "Too early to call: the first card has just turned up; a call is allowed once a card"
        " has lain untaken for 10 s",
        "Too early to call: 10♥ has lain untaken for 3 s; the game has stalled (and a call is"
        " allowed) after 10 s",
    ]
    app = TableHarness(view_of(), presence=[], screen=BlackCatTable)
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        await pilot.pause()
        prompt = table.query_one(PromptLine)
        cut = []
        for reason in reasons:
            table.refused(reason)
            if not await shown_whole(pilot, app, prompt, f"! {reason}"):
                cut.append(reason)
        assert cut == [], "refusals cut at 80x24"
        board = table.query_one("#others")
        assert "Dan" in shown_in(app, board)  # the board keeps its last player's piles


def awards() -> list[Award]:
    """The last grab as the host may rule it: uncontested, won by a margin or by a tie,
    and lost by Ann by a margin or in a tie."""
    by = 43_000_000
    return [
        Award(6, 1, "2♥", None, "pile 1"),
        Award(6, 1, "2♥", Ruling(6, 1, 1, None, None, False, ""), "pile 1"),
        Award(6, 1, "2♥", Ruling(6, 1, 2, 3, by, False, ""), "pile 1"),
        Award(6, 1, "2♥", Ruling(6, 1, 2, 3, 1_900_000, True, ""), "pile 1"),
        Award(6, 1, "2♥", Ruling(6, 1, 2, 0, by, False, ""), "pile 1", lost_by_ns=by),
        Award(6, 3, "2♥", Ruling(6, 3, 2, 1, 0, True, ""), "pile 1", lost_by_ns=0, lost_tie=True),
    ]


async def test_who_got_the_last_card_and_who_called_are_read_whole_at_80x24() -> None:
    """The lines beside the top card: the last grab's ruling (``w: why``) and the call."""
    app = TableHarness(view_of(), presence=[], screen=BlackCatTable)
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        assert isinstance(table, BlackCatTable)
        await pilot.pause()
        info = table.query_one("#top-info")
        cut = []
        for called_by in (None, 1):
            for award in awards():
                table.history.awards = [award]
                table.show(cast(BlackCatView, view_of(called_by=called_by)))
                headline = table.history.headline(award, PLAYERS, 0)
                if not await shown_whole(pilot, app, info, headline):
                    cut.append(headline)
                shown = shown_in(app, info)
                if award.ruling is not None and "w: why" not in shown:
                    cut.append(f"w: why after {headline}")
                if called_by is not None and "Bartholomew called: “Black cat" not in shown:
                    cut.append(f"the call after {headline}")
        assert cut == [], "lines cut beside the top card at 80x24"


async def test_the_call_and_the_results_are_read_whole_at_80x24() -> None:
    """The toast of a call (the rhyme) and the results' lines, the closest contest too."""
    app = TableHarness(view_of(stalled=True), presence=[], screen=BlackCatTable)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        table = app.table
        assert isinstance(table, BlackCatTable)
        await pilot.pause()
        await pilot.press("c", "c")
        assert app.actions == [{"type": "call"}]
        for _ in range(20):
            await pilot.pause()
            if app.screen.query(Toast):
                break
        (toast,) = app.screen.query(Toast)
        assert flat(CALL_PHRASE) in shown_in(app, toast)
        table.history.awards = awards()
        over = view_of(phase="over", ended="call", called_by=1)
        over["outcome"] = {"scores": over["scores"], "winners": [1]}
        table.view = cast(BlackCatView, over)
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, ResultsScreen):
                break
        results = app.screen
        assert isinstance(results, ResultsScreen)
        lines = table.results_lines(cast(BlackCatView, over))
        assert any("contested; the closest was" in line for line in lines)
        shown = shown_in(app, results.query_one("#results-body"))
        assert [line for line in lines if flat(line) not in shown] == [], shown

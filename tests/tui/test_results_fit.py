"""The results screen at 80x24 with a long game's results (issue 31's evening on lan-sim).

After a game of You Gotta Be Kitten Me! with three people the results body (who went out,
the last call, three ratings) took every row of the box at 80x24, and the proposal to play
again and tonight's standings below it fell past the box's edge: the players saw neither
who had answered nor the time left, only the footer's keys. The body now scrolls in the
rows the proposal and the standings leave, and every line of it can still be scrolled to.
"""

from __future__ import annotations

import re
from typing import Any

from textual.app import App
from textual.containers import VerticalScroll
from textual.screen import Screen

from tui.app import ClowderApp
from tui.screens.results import ResultsScreen, again_lines

SIZE = (80, 24)

KITTEN = "You Gotta Be Kitten Me!"

BODY = [
    "Bot Tom wins: the last player with cards.",
    "11 rounds played.",
    "",
    "Out, in order:",
    "  1. Ann, round 10",
    "  2. sam (you), round 11",
    "",
    "Bot Tom ends with 4 cards.",
    "",
    "The last call (round 11):",
    "You challenged Bot Tom's 3 glasses; total 4: you -1 (out)",
    "",
    "Escape: back to the table (v shows the last reveal).",
    "",
    "Ratings here (change this game):",
    "  Ann: 1,482 (-18)",
    "  sam (you): 1,482 (-18)",
    "  Bot Tom: 1,596 (+96)",
]

AGAIN: dict[str, Any] = {
    "game": "kitten",
    "title": KITTEN,
    "table": "t4",
    "by": "Ann",
    "ends_in": 30.0,
    "seats": [
        {"seat": 0, "name": "Ann", "bot": False, "answer": "yes"},
        {"seat": 1, "name": "sam", "bot": False, "answer": "waiting"},
        {"seat": 2, "name": "Bot Tom", "bot": True, "answer": "yes"},
    ],
    "free": 0,
}

TONIGHT: dict[str, Any] = {
    "games": 2,
    "standings": [
        {"name": "sam", "games": 2, "wins": 1},
        {"name": "Ann", "games": 2, "wins": 0},
    ],
}


def drawn(screen: Screen[Any]) -> str:
    """The screen as drawn, row by row (what the player sees)."""
    update = screen._compositor.render_full_update()
    return "\n".join("".join(strip.text for strip in row) for row in update.strips)


class Results(App[None]):
    CSS_PATH = ClowderApp.CSS_PATH

    def __init__(self, screen: ResultsScreen) -> None:
        super().__init__()
        self.results = screen

    def on_mount(self) -> None:
        self.push_screen(self.results)


async def test_the_proposal_and_tonight_stay_on_screen_and_the_body_scrolls_at_80x24() -> None:
    results = ResultsScreen(KITTEN, BODY, my_seat=1, again=AGAIN, tonight=TONIGHT)
    app = Results(results)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        shown = drawn(results)
        # The countdown runs on the wall clock: under load a second may pass before the draw.
        assert re.search(r"Ann asks to play You Gotta Be Kitten Me! again \((30|29|28) s\):", shown)
        assert "Ann ✓  you …  Bot Tom ✓" in shown
        assert "a: yes, play again   x: no thanks" in shown
        assert "Tonight: 2 games" in shown and "Ann: 0 wins of 2" in shown
        assert "Bot Tom wins: the last player with cards." in shown  # the body's top
        scroll = results.query_one("#results-scroll", VerticalScroll)
        evening = results.query_one("#results-evening")
        assert scroll.region.bottom <= evening.region.y  # the body never runs under them
        scroll.scroll_end(animate=False)
        await pilot.pause()
        shown = drawn(results)
        assert "Bot Tom: 1,596 (+96)" in shown  # the body's last line can be read
        assert "a: yes, play again   x: no thanks" in shown


async def test_short_results_keep_a_small_box() -> None:
    results = ResultsScreen("Catchy!", ["sam wins."], my_seat=0, tonight=TONIGHT)
    app = Results(results)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        box = results.query_one("#results")
        assert box.region.height < 16  # it does not stretch to the whole screen
        assert "sam wins." in drawn(results) and "Tonight: 2 games" in drawn(results)


def test_another_game_is_asked_for_next_not_again() -> None:
    lines = again_lines(AGAIN, 29.6, 1, finished="Catchy!")
    assert lines[0] == "Ann asks to play You Gotta Be Kitten Me! next (30 s):"
    assert lines[-1] == "  a: yes, play it   x: no thanks"
    same = again_lines(AGAIN, 12.0, 1, finished=KITTEN)
    assert same[0] == "Ann asks to play You Gotta Be Kitten Me! again (12 s):"


async def test_results_pushed_just_before_the_app_closes_do_not_fail() -> None:
    """The screen can be mounted before the lines inside its box are (an app that closes just
    after pushing it, as a game's last view does when the player quits): it drew the proposal
    into lines it looked up then, and failed with NoMatches; it keeps them instead."""
    app = Results(ResultsScreen("Catchy!", ["sam wins."], my_seat=0, tonight=TONIGHT))
    async with app.run_test(size=SIZE):
        app.push_screen(ResultsScreen(KITTEN, BODY, my_seat=1, again=AGAIN, tonight=TONIGHT))

"""The game log (tui.widgets.log): only new lines appended, and lines wrapped again when the
log's width changes."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from tui.log_window import new_lines
from tui.widgets.log import GameLog

pytestmark = pytest.mark.timeout(30)

LINE = "Round 1: Bea deals (Bot Tom 5, Ann 5, Bea 5) and opens the bidding."


def test_only_the_lines_after_the_overlap_are_new() -> None:
    assert new_lines(["a", "b"], ["b", "c"]) == ["c"]
    assert new_lines([], ["a"]) == ["a"]
    assert new_lines(["a"], ["x", "y"]) is None


class Narrow(App[None]):
    CSS = "GameLog { width: 12; } GameLog.wide { width: 40; }"

    def compose(self) -> ComposeResult:
        yield GameLog()


async def test_a_log_laid_out_narrow_wraps_its_lines_again_when_it_widens() -> None:
    app = Narrow()
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.query_one(GameLog)
        log.show([LINE])
        log.write(Text("» Ann: gg"))
        await pilot.pause()
        narrow = len(log.lines)
        assert narrow > 5  # cut at ten or so columns
        log.add_class("wide")
        await pilot.pause()
        await pilot.pause()
        rows = [strip.text.rstrip() for strip in log.lines]
        assert len(rows) == 3 and rows[-1] == "» Ann: gg"  # the chat line is kept too
        assert " ".join(rows[:2]) == LINE


class Squeezed(App[None]):
    """A log below a panel whose height changes (as the coach's does with its advice)."""

    CSS = "GameLog { height: 1fr; } #above { height: 2; } #above.tall { height: 8; }"

    def compose(self) -> ComposeResult:
        yield Static("", id="above")
        yield GameLog()


async def test_a_log_that_shows_its_end_keeps_it_in_view_when_squeezed() -> None:
    """Textual keeps a log's top row when it gets shorter: its newest rows went out of
    sight below (issue 36, item 9). One scrolled back to older lines stays there."""
    app = Squeezed()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(GameLog)
        log.show([f"line {number}" for number in range(30)])
        await pilot.pause()
        above = app.query_one("#above")
        above.add_class("tall")
        await pilot.pause()
        assert log.scroll_offset.y + log.scrollable_content_region.height == len(log.lines)
        above.remove_class("tall")
        await pilot.pause()
        log.scroll_to(y=5, animate=False, immediate=True)
        above.add_class("tall")
        await pilot.pause()
        assert log.scroll_offset.y == 5

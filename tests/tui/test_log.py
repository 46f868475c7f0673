"""The game log (tui.widgets.log): only new lines appended, and lines wrapped again when the
log's width changes."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.app import App, ComposeResult

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

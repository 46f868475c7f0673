"""The game log (tui.widgets.log): only new lines appended, and lines wrapped again when the
log's width changes, or wrapped at its width while the log is hidden."""

from __future__ import annotations

from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.events import Resize
from textual.geometry import Size
from textual.widgets import Static

from engine import registry
from tests.tui.harness import TableHarness
from tui.games import screen_class
from tui.log_window import new_lines
from tui.widgets.log import GameLog, runs

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


CHAT = Text("» Bea: hello there, are we playing a game tonight or what?")


class Beside(App[None]):
    """Two logs of one width: ``#kept`` in a box that may be hidden, ``#seen`` always shown."""

    CSS = "GameLog { width: 28; height: 10; } #box.hidden { display: none; }"

    def __init__(self, *, hidden: bool = False) -> None:
        super().__init__()
        self.hidden = hidden

    def compose(self) -> ComposeResult:
        with Vertical(id="box", classes="hidden" if self.hidden else ""):
            yield GameLog(id="kept")
        yield GameLog(id="seen")


def rows(log: GameLog) -> list[str]:
    return [strip.text.rstrip() for strip in log.lines]


async def test_lines_written_while_the_log_is_hidden_wrap_at_its_width() -> None:
    """A waiting room over a board that was laid out: the log has no width while hidden,
    RichLog cut its lines at ten columns, and shown again at the same size nothing wrapped
    them again (one or two words a line)."""
    app = Beside()
    async with app.run_test(size=(80, 24)) as pilot:
        kept, seen = app.query_one("#kept", GameLog), app.query_one("#seen", GameLog)
        for log in (kept, seen):
            log.show([LINE])
        await pilot.pause()
        app.query_one("#box").add_class("hidden")
        await pilot.pause()
        assert not kept.scrollable_content_region.width
        for log in (kept, seen):
            log.write(CHAT)
        app.query_one("#box").remove_class("hidden")
        await pilot.pause()
        await pilot.pause()
        assert rows(kept) == rows(seen)
        assert min(len(row) for row in rows(seen)[:2]) > 20


async def test_a_first_size_that_comes_once_the_log_is_hidden_is_not_kept() -> None:
    """The log's first Resize read once it was hidden again: the lines written before it
    were wrapped with no width (ten columns), and the next width wraps them again."""
    app = Beside(hidden=True)
    async with app.run_test(size=(80, 24)) as pilot:
        kept, seen = app.query_one("#kept", GameLog), app.query_one("#seen", GameLog)
        assert not kept.region.width  # never laid out
        for log in (kept, seen):
            log.show([LINE])
            log.write(CHAT)
        size = Size(28, 10)
        kept.post_message(Resize(size, size, size))
        await pilot.pause()
        assert kept._size_known and len(kept.lines) > len(seen.lines)  # cut at ten columns
        app.query_one("#box").remove_class("hidden")
        await pilot.pause()
        await pilot.pause()
        assert rows(kept) == rows(seen)


def waiting_for(view: dict[str, Any]) -> dict[str, Any]:
    """The host's waiting room for this view's seat: one seat taken, the others free."""
    seats = [{"name": view["players"][0]}, *({"name": None} for _ in view["players"][1:])]
    return {"seats": seats, "seat": view["seat"]}


async def table_log_rows(name: str, size: tuple[int, int], covered: bool) -> list[str]:
    """The rows of seat 0's log at a new ``name`` table once a chat line came: with
    ``covered``, the waiting room was over the board (laid out) when it came."""
    game = registry.get(name)
    players = ["Ann", "Bea", "Cy"][: max(game.min_players, 2)]
    view = game.view(game.new_game(players, 3, {}), 0)
    presence = [
        {"name": player, "bot": False, "human": True, "connected": True, "covered": False}
        for player in players
    ]
    app = TableHarness(view, presence=presence, screen=screen_class(name))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if covered:
            app.table.received(None, waiting=waiting_for(view))
            await pilot.pause()
        app.table.said_line(CHAT)
        app.table.received(view)
        for _ in range(4):
            await pilot.pause()
        return rows(app.table.query_one(GameLog))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("name", registry.names())
async def test_a_table_log_written_behind_its_waiting_room_reads_as_any_other(
    name: str, size: tuple[int, int]
) -> None:
    covered = await table_log_rows(name, size, covered=True)
    assert covered == await table_log_rows(name, size, covered=False)


def test_rows_the_log_lacks_are_asked_for_run_by_run() -> None:
    """A top border and the newest row are two rows to make, not the log's whole height."""
    assert list(runs([0, 14])) == [(0, 1), (14, 15)]
    assert list(runs([3, 4, 5, 9, 10, 12])) == [(3, 6), (9, 11), (12, 13)]
    assert list(runs([])) == []

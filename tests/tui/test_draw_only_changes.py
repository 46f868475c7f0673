"""A view that changes one part of the table repaints that part's widgets and nothing else.

For every game, a mid-game view of a seeded random game (seat 0) is drawn, then the same
view with one field changed that only one panel shows (the deck or letters left in the
title, Catchy!'s scores on the scoreboard). Every ``refresh`` made while the screen takes
that view is counted per widget: only the expected widget repaints, and nothing asks for
a new layout of the screen. The same view again repaints nothing at all.

A widget repaints only the rows that changed (a panel's lines, the log's scroll bar), so a
row it failed to mark would stay stale on the terminal: after each of a random game's
consecutive views, every widget's kept rows must be the rows a whole repaint makes.

The prompt keeps the rows it grew to, so a prompt or refusal of another length lays
nothing out again.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from textual.widget import Widget

from engine import registry
from tests.contract import play, players_for
from tests.tui.harness import TableHarness
from tests.tui.test_random_views import SIZE, presence_of, show, watches
from tui.games import screen_class
from tui.widgets.log import GameLog
from tui.widgets.prompt import PromptLine
from tui.widgets.timer import Countdown

CHANGES: dict[str, tuple[str, str]] = {
    "catchy": ("scores", "scores"),
    "blackcat": ("deck_left", "title"),
    "kitten": ("deck_count", "title"),
    "kiitos": ("deck_count", "title"),
    "katootsie": ("letters_left", "title"),
}
"""Per game: the view's field changed, and the id of the one widget that shows it."""


def changed(view: dict[str, Any], field: str) -> dict[str, Any]:
    """``view`` with ``field`` changed (a number one less, or every score one more)."""
    new = copy.deepcopy(view)
    value = new[field]
    new[field] = [score + 1 for score in value] if isinstance(value, list) else value - 1
    return new


def mid_game(name: str) -> dict[str, Any]:
    """A view of seat 0 from the middle of a random game (not over, not the deal)."""
    watch = next(watch for watch in watches(name) if watch.seat == 0)
    playing = [view for _, view in watch.views if view["outcome"] is None]
    return playing[len(playing) // 2]


class Refreshes:
    """Counts ``Widget.refresh`` calls (by widget id or class) while :attr:`on` is set."""

    def __init__(self) -> None:
        self.on = False
        self.repaints: Counter[str] = Counter()
        self.layouts: Counter[str] = Counter()

    def counted(self, monkeypatch: pytest.MonkeyPatch) -> None:
        original = Widget.refresh
        counts = self

        def refresh(widget: Widget, *args: Any, **kwargs: Any) -> Any:
            if counts.on and widget.is_mounted:
                name = widget.id or type(widget).__name__
                counts.repaints[name] += 1
                if kwargs.get("layout"):
                    counts.layouts[name] += 1
            return original(widget, *args, **kwargs)

        monkeypatch.setattr(Widget, "refresh", refresh)

    def during(self) -> Iterator[None]:
        self.repaints.clear()
        self.layouts.clear()
        self.on = True
        yield
        self.on = False


@pytest.mark.parametrize("name", registry.names())
async def test_a_view_changing_one_part_repaints_only_that_part(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    field, widget_id = CHANGES[name]
    view = mid_game(name)
    app = TableHarness(view, presence=presence_of(view["players"]), screen=screen_class(name))
    refreshes = Refreshes()
    refreshes.counted(monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        show(app, view)  # settle anything the first view left to do
        await pilot.pause()
        for _ in refreshes.during():
            show(app, copy.deepcopy(view))
        assert not refreshes.repaints, f"{name}: the same view repainted {refreshes.repaints}"
        for _ in refreshes.during():
            show(app, changed(view, field))
        assert set(refreshes.repaints) == {widget_id}, (
            f"{name}: {field} changed, repainted {dict(refreshes.repaints)}"
        )
        assert not refreshes.layouts, f"{name}: laid out again for {dict(refreshes.layouts)}"
        await pilot.pause()
        assert app.table.query_one(f"#{widget_id}").display


KEPT_ROWS_SEED = 29
KEPT_ROWS_VIEWS = 20
"""The random game whose consecutive views the stale-rows test draws, and how many."""


def consecutive_views(name: str, count: int) -> list[dict[str, Any]]:
    """Seat 0's views of a seeded random game, step after step (at most ``count``)."""
    game = registry.get(name)
    players = max(game.min_players, min(game.max_players, 4))
    playout = play(game, players_for(players), KEPT_ROWS_SEED, max_steps=400)
    return [game.view(state, 0) for state, _ in playout.states()][:count]


def stale_rows(screen: Widget) -> list[str]:
    """The widgets under ``screen`` whose kept rows (what the terminal last got: a widget
    repaints only the rows it marked changed) differ from the rows it draws afresh. The
    countdown is left out: it follows the clock, not the view (``tests/tui/test_countdown.py``)."""
    stale = []
    bars = [log.vertical_scrollbar for log in screen.query(GameLog)]
    for widget in [*screen.query("*"), *bars]:
        if not widget.display or not widget.size or isinstance(widget, Countdown):
            continue
        whole = widget.size.region
        kept = widget.render_lines(whole)
        Widget.refresh(widget)  # Textual's whole repaint (the log's scroll bar has its own)
        fresh = widget.render_lines(whole)
        if kept != fresh:
            rows = [y for y, (a, b) in enumerate(zip(kept, fresh, strict=True)) if a != b]
            stale.append(f"{widget.id or type(widget).__name__} rows {rows}")
    return stale


@pytest.mark.parametrize("name", registry.names())
async def test_a_repaint_of_changed_rows_leaves_no_row_stale(name: str) -> None:
    """Panels repaint only the rows whose line changed (``TextLines.repaint_changed``): after
    each of a random game's views, every widget's kept rows are the rows drawn afresh."""
    views = consecutive_views(name, KEPT_ROWS_VIEWS)
    app = TableHarness(
        views[0], presence=presence_of(views[0]["players"]), screen=screen_class(name)
    )
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for step, view in enumerate(views[1:], start=1):
            show(app, view)
            await pilot.pause()
            if app.screen is not app.table:
                app.screen.dismiss(None)  # a reveal or the results: the table's rows are checked
                await pilot.pause()
            stale = stale_rows(app.table)
            assert not stale, f"{name}, seed {KEPT_ROWS_SEED}, step {step}: stale {stale}"


async def test_a_prompt_keeps_its_rows_so_a_refusal_lays_nothing_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A prompt that needs two rows, then a refusal or a prompt of one, keeps its two rows:
    the screen is laid out once, not every time the prompt's length changes (Black Cat's
    grab prompt and "too late" laid it out twice a card). A new width fits it again."""
    view = mid_game("blackcat")
    app = TableHarness(view, presence=presence_of(view["players"]), screen=screen_class("blackcat"))
    refreshes = Refreshes()
    refreshes.counted(monkeypatch)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        prompt = app.table.query_one(PromptLine)
        long = "Grab the card into pile 1, 2 or 3 with its key, " * 2
        prompt.prompt(long)
        await pilot.pause()
        assert prompt.size.height == 2
        for _ in refreshes.during():
            for _round in range(3):
                prompt.refuse("Too late")
                await pilot.pause()
                prompt.prompt("Wait")
                await pilot.pause()
                prompt.prompt(long)
                await pilot.pause()
        assert prompt.size.height == 2
        assert not refreshes.layouts, f"laid out again for {dict(refreshes.layouts)}"
        prompt.prompt("Wait")
        await pilot.resize_terminal(120, 24)
        await pilot.pause()
        assert prompt.size.height == 1  # a new width: the rows its text needs there
        prompt.prompt(long)
        await pilot.pause()
        assert prompt.size.height == 1  # one row holds it at 120 columns

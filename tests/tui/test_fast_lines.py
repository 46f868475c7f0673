"""Lines drawn the fast way (:class:`tui.widgets.lines.TextLines`, the log's scroll bar, the
log's finished rows) are Textual's own, exactly.

Every game's table screen shows views of a seeded random game
(:func:`tests.tui.test_random_views.watches`, a player's seat); after each is drawn,
every widget on the screen that draws its lines itself gives them both ways, its own and
Textual's text path, and they must be the same strips (text, styles, offsets). Widgets
that cannot take the fast way (a line wider than the widget, centred text) say so by
falling back, which is allowed: the test also checks the fast way was taken at all.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.geometry import Region
from textual.strip import Strip

from engine import registry
from tests.tui.harness import TableHarness
from tests.tui.test_random_views import SIZE, presence_of, show, watches
from tui.games import screen_class
from tui.widgets.footer import TableFooter
from tui.widgets.lines import TextLines
from tui.widgets.log import GameLog, LogScrollBar

VIEWS = 24
"""Views of each game compared (every widget of each), spread over its first random game."""


def both_ways(widget: TextLines | LogScrollBar) -> tuple[list[Strip], list[Strip], bool]:
    """The widget's lines its own way and Textual's, and whether its own way was taken."""
    widget.fast_lines = True
    widget.refresh()
    own = [widget.render_line(y) for y in range(widget.size.height)]
    fast = widget._lines is not None if isinstance(widget, TextLines) else True
    widget.fast_lines = False
    widget.refresh()
    textual = [widget.render_line(y) for y in range(widget.size.height)]
    widget.fast_lines = True
    widget.refresh()
    return own, textual, fast


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", registry.names())
async def test_fast_lines_are_textual_s_lines(name: str) -> None:
    watch = next(watch for watch in watches(name) if watch.seat == 0)
    views = watch.views[:: max(1, len(watch.views) // VIEWS)][:VIEWS]
    first = views[0][1]
    app = TableHarness(first, presence=presence_of(first["players"]), screen=screen_class(name))
    compared = fast = logs = 0
    async with app.run_test(size=SIZE) as pilot:
        for step, view in views:
            show(app, view)
            await pilot.pause()
            bars = [log.vertical_scrollbar for log in app.screen.query(GameLog)]
            for widget in [*app.screen.query(TextLines), *bars]:
                if not widget.display or not widget.size:
                    continue
                own, textual, taken = both_ways(widget)
                where: Any = (name, step, widget)
                assert own == textual, f"{where}: drawn differently"
                compared += 1
                fast += taken
            for log in app.screen.query(GameLog):
                if log.display and log.size:
                    assert finished_both_ways(log), f"{name}, view {step}: log drawn differently"
                    logs += 1
    assert compared and fast, f"{name}: no widget drew its lines the fast way"
    assert logs, f"{name}: no log compared"


def finished_both_ways(log: GameLog) -> bool:
    """Whether the log's rows as the screen takes them (kept finished, :meth:`GameLog.render_lines`)
    are the rows Textual makes afresh, whole and cropped as the compositor crops them."""
    width, height = log.size
    crops = [Region(0, 0, width, height), Region(1, 1, max(1, width - 2), max(1, height - 1))]
    own = [log.render_lines(crop) for crop in crops]
    log.fast_lines = False
    log.refresh()
    textual = [log.render_lines(crop) for crop in crops]
    log.fast_lines = True
    return own == textual


async def test_the_footer_s_kept_keys_follow_a_new_theme_and_a_dimmed_key() -> None:
    """The footer keeps each key as drawn (:class:`tui.widgets.footer.TableFooter`): a theme
    changed, or a key dimmed, draws it again, as Textual would."""
    watch = next(watch for watch in watches("catchy") if watch.seat == 0)
    first = watch.views[len(watch.views) // 2][1]
    app = TableHarness(first, presence=presence_of(first["players"]), screen=screen_class("catchy"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(TableFooter)
        own, textual, taken = both_ways(footer)
        assert taken and own == textual
        before = own
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await pilot.pause()
        own, textual, taken = both_ways(footer)
        assert taken and own == textual and own != before
        key = footer.drawn[0]
        key._disabled = True
        key.set_class(True, "-disabled")
        await pilot.pause()
        dimmed, textual, taken = both_ways(footer)
        assert taken and dimmed == textual and dimmed != own

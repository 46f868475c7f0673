"""A partial frame renders the widgets that touch a change, and writes the same as Textual's;
a screen under an opaque one draws nothing until it is on top again.

Textual renders every widget inside the rectangle around all of a frame's changes; the
tables' :class:`tui.compositor.ChangedOnlyCompositor` renders only the widgets that touch
one of them (issue 35). Three rows of text, the first and the last changed in one frame:
the middle row is not rendered again, and what the frame writes to the terminal is what
Textual's own compositor writes for the same screen.
"""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

import pytest
from rich.console import Console
from textual._compositor import ChopsUpdate
from textual.app import App, ComposeResult
from textual.screen import ModalScreen, Screen
from textual.strip import Strip
from textual.widgets import Static

from tui.compositor import ChangedOnlyCompositor, QuietWhenCovered

RENDERED: Counter[str] = Counter()


class CountedRow(Static):
    """A row that counts the times its lines are rendered."""

    DEFAULT_CSS = "CountedRow { height: 1; width: 1fr; }"  # a new text lays nothing out

    def render_lines(self, crop: Any) -> list[Strip]:
        RENDERED[str(self.id)] += 1
        return super().render_lines(crop)


class Rows(Screen[None]):
    def __init__(self, changed_only: bool) -> None:
        super().__init__()
        if changed_only:
            self._compositor = ChangedOnlyCompositor()
        self.frames: list[str] = []
        """What each partial frame wrote to the terminal."""

    def compose(self) -> ComposeResult:
        for name in ("top", "middle", "bottom"):
            yield CountedRow(f"{name} row", id=name)


class RowsApp(App[None]):
    def __init__(self, changed_only: bool) -> None:
        super().__init__()
        self.rows = Rows(changed_only)

    def _display(self, screen: Screen[Any], renderable: Any) -> None:
        if isinstance(renderable, ChopsUpdate):
            console = Console(width=40, color_system=None)
            self.rows.frames.append(renderable.render_segments(console))
        super()._display(screen, renderable)

    def on_mount(self) -> None:
        self.push_screen(self.rows)


async def frame_after_changing_top_and_bottom(changed_only: bool) -> tuple[list[str], Counter[str]]:
    app = RowsApp(changed_only)
    async with app.run_test(size=(40, 6)) as pilot:
        for _ in range(3):  # the first frames after mounting are whole ones
            await pilot.pause()
        RENDERED.clear()
        app.rows.frames.clear()
        app.rows.query_one("#top", Static).update("top changed", layout=False)
        app.rows.query_one("#bottom", Static).update("bottom changed", layout=False)
        await pilot.pause()
        return list(app.rows.frames), Counter(RENDERED)


@pytest.mark.parametrize("changed_only", [False, True], ids=["textual", "changed-only"])
async def test_a_frame_renders_only_the_widgets_a_change_touches(changed_only: bool) -> None:
    frames, rendered = await frame_after_changing_top_and_bottom(changed_only)
    assert frames, "the changes were drawn as a partial frame"
    assert rendered["top"] and rendered["bottom"]
    if changed_only:
        assert rendered["middle"] == 0
    else:
        assert rendered["middle"] > 0  # Textual's: the rectangle around both changes


async def test_what_a_frame_writes_is_what_textual_writes() -> None:
    textual, _ = await frame_after_changing_top_and_bottom(False)
    ours, _ = await frame_after_changing_top_and_bottom(True)
    assert ours == textual
    assert "top changed" in "".join(ours) and "bottom changed" in "".join(ours)


class CoveredRows(QuietWhenCovered[None]):
    def compose(self) -> ComposeResult:
        yield CountedRow("table row", id="table-row")


class Opaque(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static("results page")


class SeeThrough(ModalScreen[None]):
    DEFAULT_CSS = "SeeThrough { align: center middle; } SeeThrough Static { width: 12; }"

    def compose(self) -> ComposeResult:
        yield Static("a dialog")


class CoveredApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.table = CoveredRows()
        self.frames: list[tuple[Screen[Any], str]] = []
        """Each frame: the screen it was for and the text it wrote."""

    def _display(self, screen: Screen[Any], renderable: Any) -> None:
        if renderable is not None:
            console = Console(width=40, color_system=None, record=True, file=io.StringIO())
            console.print(renderable)
            self.frames.append((screen, console.export_text()))
        super()._display(screen, renderable)

    def on_mount(self) -> None:
        self.push_screen(self.table)


@pytest.mark.parametrize("cover", [Opaque, SeeThrough], ids=["opaque", "see-through"])
async def test_a_screen_under_an_opaque_one_draws_nothing_until_it_is_on_top_again(
    cover: type[Screen[None]],
) -> None:
    app = CoveredApp()
    async with app.run_test(size=(40, 6)) as pilot:
        await app.push_screen(cover())
        for _ in range(3):
            await pilot.pause()
        app.frames.clear()
        app.table.query_one("#table-row", Static).update("table changed", layout=False)
        for _ in range(3):
            await pilot.pause()
        drawn_while_covered = list(app.frames)
        if cover is Opaque:
            assert drawn_while_covered == [], "the page on top was drawn again for a change below"
        else:  # the table shows through a dialog: its change is drawn
            assert any("table changed" in text for _, text in drawn_while_covered)
        app.pop_screen()
        for _ in range(3):
            await pilot.pause()
        assert any(
            screen is app.table and "table changed" in text for screen, text in app.frames
        ), "the table on top again shows what changed under the page"

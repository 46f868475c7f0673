"""A partial frame renders the widgets that touch a change, and writes the same as Textual's.

Textual renders every widget inside the rectangle around all of a frame's changes; the
tables' :class:`tui.compositor.ChangedOnlyCompositor` renders only the widgets that touch
one of them (issue 35). Three rows of text, the first and the last changed in one frame:
the middle row is not rendered again, and what the frame writes to the terminal is what
Textual's own compositor writes for the same screen.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from rich.console import Console
from textual._compositor import ChopsUpdate
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.strip import Strip
from textual.widgets import Static

from tui.compositor import ChangedOnlyCompositor

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

"""The create dialog after a game is chosen (issue 36, item 11): the focus goes on to the
next field; it was left nowhere, so Tab went back to the game's list."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from textual.app import App
from textual.widgets import Select

from engine import registry
from tui.screens.dialogs import CreateDialog
from tui.styles import TCSS_DIR


class DialogApp(App[None]):
    CSS_PATH: ClassVar[list[Any]] = [TCSS_DIR / "app.tcss"]

    def on_mount(self) -> None:
        self.push_screen(CreateDialog())


@pytest.mark.parametrize("game", registry.names())
async def test_choosing_a_game_moves_on_to_its_seats(game: str) -> None:
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.screen
        chooser = dialog.query_one("#game", Select)
        other = next(name for name in registry.names() if name != chooser.value)
        for choice in dict.fromkeys([other, game]):  # a change each time
            chooser = dialog.query_one("#game", Select)
            chooser.value = choice
            await pilot.pause()
            await pilot.pause()
        assert dialog.query_one("#game", Select).value == game
        assert dialog.focused is dialog.query_one("#seats", Select)
        await pilot.press("tab")
        assert dialog.focused is not dialog.query_one("#game", Select)
        assert not dialog.query_one("#game", Select).expanded

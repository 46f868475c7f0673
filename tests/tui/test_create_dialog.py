"""The create dialog after a game is chosen (issue 36, item 11): the focus goes on to the
next field; it was left nowhere, so Tab went back to the game's list."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from textual.app import App
from textual.widgets import Select, Static

from engine import registry
from tui.screens.dialogs import HERE, CreateDialog, NewTable, Place
from tui.styles import TCSS_DIR


class DialogApp(App[None]):
    CSS_PATH: ClassVar[list[Any]] = [TCSS_DIR / "app.tcss"]

    def on_mount(self) -> None:
        self.push_screen(CreateDialog())


@pytest.mark.parametrize("game", registry.names())
async def test_after_choosing_a_game_tab_moves_on_to_its_seats(game: str) -> None:
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
        assert dialog.focused is dialog.query_one("#game", Select)  # closed: Tab goes on
        await pilot.press("tab")
        assert dialog.focused is dialog.query_one("#seats", Select)
        assert not dialog.query_one("#game", Select).expanded


BEAS_BOX = Place("lan:Bea's box", "Bea's box", "198.18.0.1", 7707, "198.18.0.1:7707")


class PlacesApp(App[None]):
    CSS_PATH: ClassVar[list[Any]] = [TCSS_DIR / "app.tcss"]

    def __init__(self, dialog: CreateDialog) -> None:
        super().__init__()
        self.dialog = dialog
        self.results: list[NewTable | None] = []

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.results.append)


async def test_the_highlighted_lan_host_is_the_first_choice_and_the_result_names_it() -> None:
    """Issue 36's LAN walk-through: a table made at Bea's box is one her SSH and browser
    players can join; the dialog says where it goes."""
    app = PlacesApp(CreateDialog("catchy", places=[BEAS_BOX], chosen=BEAS_BOX.key))
    async with app.run_test(size=(48, 40)) as pilot:
        await pilot.pause()
        dialog = app.screen
        assert not dialog.query("#head")  # the list says where, after "New table at"
        shown = dialog.query_one("#where SelectCurrent #label", Static).render()
        assert str(shown) == "Bea's box (198.18.0.1:7707)"
        assert dialog.focused is dialog.query_one("#where", Select)  # first, on the keyboard
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.results[0] is not None and app.results[0].at == ("198.18.0.1", 7707)


async def test_with_the_player_s_own_host_highlighted_this_computer_comes_first() -> None:
    app = PlacesApp(CreateDialog("catchy", places=[BEAS_BOX], chosen="yours"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.screen
        assert dialog.query_one("#where", Select).value == HERE
        shown = dialog.query_one("#where SelectCurrent #label", Static).render()
        assert str(shown) == "this computer"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.results[0] is not None and app.results[0].at is None


async def test_a_lobby_of_one_host_only_offers_no_choice() -> None:
    """An SSH or browser player's tables are always made at their host."""
    app = PlacesApp(CreateDialog("catchy", at="198.18.0.1:7707", places=[BEAS_BOX]))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.screen.query("#where")
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.results[0] is not None and app.results[0].at is None

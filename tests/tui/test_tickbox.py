"""The create dialog's yes/no options say ticked or not in characters (issue 36, item 10):
Textual's checkbox drew ``▐X▌`` both ways, told apart by a colour only."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App

from tui.screens.dialogs import CreateDialog
from tui.styles import TCSS_DIR
from tui.widgets.tickbox import TICKED, UNTICKED, TickBox


def text_of(box: TickBox) -> str:
    return str(box.render())


class DialogApp(App[None]):
    CSS_PATH: ClassVar[list[Any]] = [TCSS_DIR / "app.tcss"]

    def on_mount(self) -> None:
        self.push_screen(CreateDialog("blackcat"))


def ticked(box: TickBox) -> bool:
    """The box's value, read afresh (a key press changes it between two reads)."""
    return box.value


async def test_an_unticked_box_reads_empty_and_a_ticked_one_reads_x() -> None:
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lucky = app.screen.query_one("#option-lucky_tom", TickBox)
        assert lucky.value is False
        assert text_of(lucky).startswith(UNTICKED) and TICKED not in text_of(lucky)
        lucky.focus()
        await pilot.press("space")
        await pilot.pause()
        assert ticked(lucky) and text_of(lucky).startswith(TICKED)
        mute = app.screen.query_one("#mute-spectators", TickBox)
        assert text_of(mute).startswith(UNTICKED)

"""Work a table screen does "once drawn" is done even if a dialog over it closes at once.

Textual's ``call_after_refresh`` gives the callback to the screen on top when its message is
handled; a dialog opened just then and closed before its next frame (Kitten Me!'s reveal box,
closed by a key as it opened) took the coach's lines for that call with it: the whole
coached game's test saw 9 of 11 calls explained. ``TableScreen.after_refresh`` keeps the
callback on the table's own screen.
"""

from __future__ import annotations

import asyncio

from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

from tests.tui.harness import TableHarness, blackcat_view
from tui.games.blackcat.screen import BlackCatTable


class Box(ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield Static("a box")


async def test_a_callback_survives_a_dialog_opened_and_closed_before_its_first_frame() -> None:
    """(With Textual's ``call_after_refresh`` in its place, ``ran`` stays empty here.)"""
    app = TableHarness(blackcat_view([]), presence=[], screen=BlackCatTable)
    ran: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        box = Box()
        app.table.after_refresh(ran.append, "the coach's lines")
        app.push_screen(box)  # as a reveal box opens with the view that brought the lines
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        box.dismiss()  # a key already typed closes it
        for _ in range(30):
            await pilot.pause(0.01)
        assert ran == ["the coach's lines"]

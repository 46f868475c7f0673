"""A table the host holds because it cannot save it (``view.paused``, protocol 4) says so,
offers no move while held, and says when it goes on (issue 30, finding 2: the player was
told "The host failed on this 'action' (OSError); it is a bug")."""

from __future__ import annotations

from tests.tui.harness import TableHarness, catchy_view
from tui.widgets.prompt import PromptLine

HELD = (
    "The host cannot save this table: its disk is full. The game waits, and goes on by itself "
    "once the host can save again."
)


async def test_a_held_table_says_why_offers_no_move_and_says_when_it_goes_on() -> None:
    view = catchy_view()
    assert view["legal"]
    app = TableHarness(view)
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.table
        table.received(view, paused=HELD)
        await pilot.pause()
        assert table.view is not None and table.view["legal"] == []
        assert "its disk is full" in str(table.query_one(PromptLine).render())
        assert [n.message for n in app._notifications] == [HELD]
        await pilot.press("1", "enter")  # a card key does nothing while held
        assert app.actions == []
        table.received(view, paused=HELD)  # the same hold again: said once
        assert len(app._notifications) == 1
        table.received(view)
        await pilot.pause()
        assert table.view is not None and table.view["legal"] == view["legal"]
        assert list(app._notifications)[-1].message == "The host can save again: the game goes on."


async def test_the_waiting_room_of_a_table_that_plays_again_names_who_is_deciding() -> None:
    """Issue 31: seats held for people still deciding whether to play again are not free
    seats, and the waiting room says whose they are."""
    from textual.widgets import Static

    app = TableHarness(catchy_view())
    async with app.run_test(size=(80, 24)) as pilot:
        seats = [
            {"name": "Ann", "bot": False, "human": True, "connected": True},
            {"name": "Bea", "bot": False, "human": False, "connected": False, "reserved": True},
        ]
        app.table.received(None, waiting={"seats": seats, "seat": 0})
        await pilot.pause()
        shown = str(app.table.query_one("#waiting", Static).render())
        assert "Seated: Ann" in shown
        assert "Deciding whether to play again: Bea" in shown
        assert "free" not in shown

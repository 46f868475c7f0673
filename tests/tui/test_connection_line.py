"""The connection line after a drop (issue 36, item 11): "Reconnected to ..." is news for
a moment, then the line names the table's place again (it stayed until the game's end)."""

from __future__ import annotations

import pytest

import tui.screens.table as table_module
from tests.tui.harness import TableHarness, catchy_view
from tui.widgets.connection import ConnectionLine


async def test_reconnected_is_said_then_the_place_comes_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(table_module, "RECONNECTED_SHOWN_S", 0.05)
    app = TableHarness(catchy_view(3))
    async with app.run_test(size=(80, 24)) as pilot:
        line = app.table.query_one(ConnectionLine)
        assert (line.connected, line.detail) == (True, "127.0.0.1:7707")
        app.table.link(False, "Connection lost; reconnecting...")
        await pilot.pause()
        assert not line.connected and "reconnecting" in str(line.render())
        app.table.link(True, "Reconnected to 127.0.0.1:7707")
        await pilot.pause()
        assert "Reconnected" in str(line.render())
        for _ in range(100):  # the timer's 0.05 s, however busy the machine
            await pilot.pause(0.02)
            if line.detail == "127.0.0.1:7707":
                break
        assert (line.connected, line.detail) == (True, "127.0.0.1:7707")
        assert "Reconnected" not in str(line.render())


async def test_a_drop_while_reconnected_is_shown_keeps_the_line_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(table_module, "RECONNECTED_SHOWN_S", 0.05)
    app = TableHarness(catchy_view(3))
    async with app.run_test(size=(80, 24)) as pilot:
        line = app.table.query_one(ConnectionLine)
        app.table.link(True, "Reconnected to 127.0.0.1:7707")
        app.table.link(False, "Connection lost; reconnecting...")
        await pilot.pause(0.3)
        assert not line.connected  # the old timer did not put the place back over the drop

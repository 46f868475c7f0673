"""A host of another protocol version: the lobby says so, naming both versions, in full.

The host here is a real :class:`net.doors.host.Host` on 127.0.0.1 that speaks the next
protocol version (its :data:`net.wire.protocol.SUPPORTED_VERSIONS` patched), as a host of
a newer Clowder release would; this Clowder speaks :data:`net.wire.messages.PROTOCOL_VERSION`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget

from net.doors.host import Host
from net.wire import protocol as protocol_module
from net.wire.messages import PROTOCOL_VERSION
from tui.app import ClowderApp

pytestmark = pytest.mark.timeout(60)

NEWER = PROTOCOL_VERSION + 1


async def until(pilot: Pilot[Any], check: Any, what: str, rounds: int = 300) -> None:
    for _ in range(rounds):
        if check():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def shown(widget: Widget) -> str:
    """The widget's lines as drawn on the screen, joined by spaces (what a player reads)."""
    width, height = widget.size
    return " ".join(
        strip.text.strip() for strip in widget.render_lines(Region(0, 0, width, height))
    )


async def test_joining_a_host_of_another_version_shows_both_versions_in_the_lobby(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(protocol_module, "SUPPORTED_VERSIONS", frozenset({NEWER}))
    host = Host(name="Bea", bind="127.0.0.1", port=0, log=lambda _: None)
    await host.start()
    try:
        app = ClowderApp(
            name="Ann",
            config_dir=tmp_path,
            join=("127.0.0.1", host.port),
            discovery=None,
            advertise=False,
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.lobby is not None and app.screen is app.lobby, "lobby")
            lobby = app.lobby
            assert lobby is not None
            await until(pilot, lambda: bool(lobby.problems), "the host's refusal")
            (problem,) = lobby.problems.values()
            assert problem == (
                f"This host speaks protocol {NEWER}; your Clowder speaks {PROTOCOL_VERSION}: "
                "update one of them"
            )
            await pilot.pause()
            status = shown(lobby.query_one("#lobby-status", Widget))
            # The whole sentence is on screen at 80x24 (the status line wraps; nothing is cut).
            assert " ".join(problem.split()) in " ".join(status.split())
            # Trying again by itself cannot help: not said, and not done at every tick.
            assert "trying again" not in status and "r: try again" in status
            listings: list[None] = []

            async def listing() -> None:
                listings.append(None)

            monkeypatch.setattr(app, "_list_selected", listing)
            for _ in range(8):
                await app._timed_listing()
            assert listings == []
            await pilot.press("r")  # asked for: tried again at once
            await until(pilot, lambda: bool(listings), "the listing asked for")
    finally:
        await host.close()

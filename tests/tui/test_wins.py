"""The lobby shows the selected host's wins per game (its scoreboard), and only that host's."""

from __future__ import annotations

from pathlib import Path

import pytest

from net.client import Client
from tests.net.hosting import running_host
from tests.tui.harness import LobbyHarness
from tui.widgets.wins import HostWins, fetch_wins

pytestmark = pytest.mark.timeout(30)


async def test_the_selected_hosts_wins_show_under_its_tables() -> None:
    app = LobbyHarness()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        wins = app.lobby.query_one(HostWins)
        shown = [wins.display]
        app.lobby.set_wins("yours", ["Catchy!: Ann 3, Bea 1 (wins; most played 5)"])
        app.lobby.set_wins("lan:bea", ["Kiitos: Cy 2 (wins; most played 2)"])
        await pilot.pause()
        shown.append(wins.display)
        assert shown == [False, True] and "Ann 3" in str(wins.render())
        await pilot.press("down")  # Bea's laptop
        await pilot.pause()
        assert "Cy 2" in str(wins.render()) and "Ann 3" not in str(wins.render())


async def test_wins_are_fetched_from_a_host_and_none_without_scores(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        client = Client("127.0.0.1", host.port, "Ann", reconnect=False)
        await client.connect()
        assert await fetch_wins(client) == []
        await client.close()

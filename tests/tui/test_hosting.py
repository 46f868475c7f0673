"""The host a player's own Clowder runs advertises by the same rule as ``clowder host``."""

from __future__ import annotations

from unittest import mock

from net.client.discovery import TableSummary
from net.doors.advertise import advertised_tables
from tests import toy_game
from tui.hosting import EmbeddedHost


async def test_the_embedded_host_advertises_live_tables_by_the_rule_in_net() -> None:
    with toy_game.registered():
        embedded = EmbeddedHost(name="ads", advertise=True)
        advertiser = embedded.advertiser = mock.Mock(running=True)
        embedded.host.on_tables_changed = embedded._tables_changed
        try:
            playing = embedded.host.create_table("toy", {"mode": "stuck"}, seats=2, bots=2)
            waiting = embedded.host.create_table("toy", {"mode": "stuck"}, seats=3, bots=1)
            tables = advertiser.update.call_args.kwargs["tables"]
            assert tables == advertised_tables(embedded.host)
            assert tables == [
                TableSummary(playing.table.id, "toy", 0),
                TableSummary(waiting.table.id, "toy", 2),
            ]
        finally:
            await embedded.host.close()

"""Which tables a host advertises on the LAN: one rule,
:func:`net.doors.advertise.advertised_tables`."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from net.client.discovery import TableSummary, encode_txt
from net.doors.advertise import advertised_tables
from net.doors.host import Host
from tests import toy_game


@pytest.fixture
async def host() -> AsyncIterator[Host]:
    """A host that is never started (no socket): only its tables matter here."""
    with toy_game.registered():
        host = Host(name="ads", bind="127.0.0.1", port=0, log=lambda _: None)
        try:
            yield host
        finally:
            await host.close()


def finish(host: Host, table_id: str) -> None:
    table = host.runners[table_id].table
    seat = next(s for s in range(len(table.seats)) if table.game.legal_actions(table.state, s))
    table.act(seat, table.game.legal_actions(table.state, seat)[0], 0.0)
    assert table.outcome is not None


async def test_waiting_and_playing_tables_are_advertised_finished_ones_are_not(
    host: Host,
) -> None:
    waiting = host.create_table("toy", {"mode": "stuck"}, seats=3, bots=1).table.id
    playing = host.create_table("toy", {"mode": "stuck"}, seats=2, bots=2).table.id
    over = host.create_table("toy", {"mode": "tie"}, seats=2, bots=2).table.id
    finish(host, over)

    assert advertised_tables(host) == [
        TableSummary(waiting, "toy", 2),
        TableSummary(playing, "toy", 0),
    ]


async def test_the_txt_record_counts_live_tables_and_lists_the_open_ones(host: Host) -> None:
    host.create_table("toy", {"mode": "stuck"}, seats=2, bots=2)
    waiting = host.create_table("toy", {"mode": "stuck"}, seats=2).table.id
    over = host.create_table("toy", {"mode": "tie"}, seats=2, bots=2).table.id
    finish(host, over)

    txt = encode_txt(protocol_version=1, name="ads", games=["toy"], tables=advertised_tables(host))
    assert txt["tables"] == "2"
    assert txt["free"] == f"{waiting}:toy:2"

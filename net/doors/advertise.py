"""Advertise a running :class:`~net.doors.host.Host` on the LAN and keep its TXT current.

The glue between the host (which knows its tables) and
:class:`~net.client.discovery.Advertiser` (which speaks mDNS): every table change
updates the advertised tables; the advertiser coalesces bursts of changes.
Registration takes about a second (name probing), so it runs alongside the
host, which is already accepting connections by address.

:func:`advertised_tables` is the one rule for what a host advertises, used
by ``clowder host`` (:func:`advertise_host`) and by the host a player's own
Clowder runs (:class:`tui.hosting.EmbeddedHost`).
"""

from __future__ import annotations

from collections.abc import Callable

from engine import registry
from net.client.discovery import Advertiser, DiscoveryError, TableSummary
from net.doors.host import Host
from net.wire.messages import PROTOCOL_VERSION


def advertised_tables(host: Host) -> list[TableSummary]:
    """What the LAN hears about ``host``'s tables: every table not over yet, with its free seats.

    A table waiting for players and a table being played are both counted
    (TXT ``tables``); only a waiting table has free seats, and those tables
    are the ones listed to join (TXT ``free``, see :func:`net.client.discovery.encode_txt`).
    A finished table is not advertised at all.
    """
    return [
        TableSummary(runner.table.id, runner.table.game.name, runner.table.free_seats)
        for runner in host.runners.values()
        if runner.table.outcome is None
    ]


async def advertise_host(
    host: Host,
    log: Callable[[str], None] = print,
    ssh_port: int | None = None,
    web_port: int | None = None,
) -> Advertiser | None:
    """Start advertising ``host``; ``None`` (and a log line) if mDNS cannot start here.

    ``ssh_port``: the host's SSH gateway (``clowder host --ssh``), advertised in TXT ``ssh``;
    ``web_port``: its page for browsers (``clowder host --web``), in TXT ``web``.
    """
    advertiser = Advertiser(
        port=host.port,
        protocol_version=PROTOCOL_VERSION,
        name=host.name,
        bind=host.bind,
        games=registry.names(),
        tables=advertised_tables(host),
        ssh_port=ssh_port,
        web_port=web_port,
    )
    try:
        await advertiser.start()
    except (DiscoveryError, OSError) as error:
        log(f"Not advertised on the LAN ({error}); players can still join by address")
        return None
    host.on_tables_changed = lambda: advertiser.update(tables=advertised_tables(host))
    host.on_tables_changed()  # what changed while the name was being registered
    log(f"Advertised on the LAN as {advertiser.instance!r} ({', '.join(advertiser.addresses)})")
    return advertiser

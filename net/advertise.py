"""Advertise a running :class:`~net.host.Host` on the LAN and keep its TXT current.

The glue between the host (which knows its tables) and
:class:`~net.discovery.Advertiser` (which speaks mDNS): every table change
updates the advertised tables; the advertiser coalesces bursts of changes.
Registration takes about a second (name probing), so it runs alongside the
host, which is already accepting connections by address.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import registry
from net.discovery import Advertiser, DiscoveryError, TableSummary
from net.host import Host
from net.messages import PROTOCOL_VERSION


def table_summaries(host: Host) -> list[TableSummary]:
    """The host's unfinished tables, as discovery advertises them."""
    return [
        TableSummary(runner.table.id, runner.table.game.name, runner.table.free_seats)
        for runner in host.runners.values()
        if runner.table.outcome is None
    ]


async def advertise_host(host: Host, log: Callable[[str], None] = print) -> Advertiser | None:
    """Start advertising ``host``; ``None`` (and a log line) if mDNS cannot start here."""
    advertiser = Advertiser(
        port=host.port,
        protocol_version=PROTOCOL_VERSION,
        name=host.name,
        bind=host.bind,
        games=registry.names(),
        tables=table_summaries(host),
    )
    try:
        await advertiser.start()
    except (DiscoveryError, OSError) as error:
        log(f"Not advertised on the LAN ({error}); players can still join by address")
        return None
    host.on_tables_changed = lambda: advertiser.update(tables=table_summaries(host))
    log(f"Advertised on the LAN as {advertiser.instance!r} ({', '.join(advertiser.addresses)})")
    return advertiser

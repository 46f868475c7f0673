"""Finding Clowder hosts on the LAN: mDNS / DNS-SD with python-zeroconf's asyncio API.

A host advertises one ``_clowder._tcp.local.`` service (:class:`Advertiser`);
lobbies browse for them (:class:`Browser`, or :func:`discover` once, for
``clowder discover``). Discovery is a convenience: joining by ``host:port``
always works without it, since multicast is often blocked.

TXT record (every ``key=value`` string fits the 255-byte DNS limit; values
are cut at whole items, never mid-item)::

    pv=1                        protocol version (net.wire.protocol)
    name=Bea's laptop           host name shown in lobbies
    games=catchy,blackcat       games the host offers
    tables=3                    tables on the host, full or not
    free=t1:catchy:1,t2:blackcat:2
                                tables with free seats: id:game:free seats,
                                percent-encoded (``,`` ``:`` ``%`` never appear raw)
    more=4                      tables with free seats left out of ``free``
                                (absent when none were)
    ssh=2222                    the host also lets players in by ``ssh -p 2222
                                NAME@ADDRESS`` (``clowder host --ssh``; absent when not)
    web=8080                    ...and from a browser at ``http://ADDRESS:8080/``
                                (``clowder host --web``; absent when not)

Asking fast (``python -m tests.perf discovery``: two network namespaces on a
bridge, this machine; UDP multicast round trip baseline p50 0.04 ms):

- Browser start -> lists a running host. zeroconf's browser sends its first
  query 20-120 ms after start (RFC 6762 5.2 anti-synchronisation jitter):
  p50 67 ms, p90 107 ms. We also ask at once (a person opening a lobby is not
  a synchronised herd), a QU question and then the same question QM: a
  python-zeroconf host answers QU without its aggregation delay, so the
  list fills after p50 2.1 ms, p90 2.6 ms. The QM copy is for a host on the
  same machine: its unicast answer to QU goes to port 5353 here, which the
  kernel may hand to the host's own socket (several mDNS sockets share the
  port); its multicast answer to QM reaches every socket (measured 2.4 ms
  p50 there; 30-120 ms when the unicast is lost; at worst zeroconf's own
  QM query about 1.1 s after start).
- Host start -> a running browser lists it: bound by the host's probing
  for a unique name (a 150-250 ms random wait, then three probes 500 ms
  apart, RFC 6762 8.1): p50 1,204 ms, p90 1,239 ms. The first announcement
  carries PTR, SRV, TXT and A together, so resolving it is a cache hit.
- On every added or updated service the browser calls
  ``AsyncServiceInfo.async_request`` with a short timeout: it returns at
  once from the cache when the announcement was complete, and asks (QU)
  when a responder sent only part of the records.

IPv4 only (``IPVersion.V4Only``): players join by an IPv4 ``host:port``;
IPv6 would double every packet on dual-stack LANs and its link-local
addresses need scope ids that a ``host:port`` cannot carry; zeroconf cannot
use IPv6 on loopback, which is where single-machine play and CI run.

Interfaces: the host's non-loopback IPv4 interfaces that are up and
multicast-capable (in ``lan-sim`` that is ``eth0``; a machine's own browser
still hears its own host through multicast loopback). Where there are none
(a lone ``unshare -n``, as in CI, or an offline laptop) ``127.0.0.1`` is used,
which works even when ``lo`` lacks the MULTICAST flag. A host bound to one
address advertises on that address only.

A host that dies without saying goodbye stays listed until its records
expire (python-zeroconf keeps a PTR at least 1125 s); a lobby should show
``last_seen`` and let a failed join say so.
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import ipaddress
import logging
import secrets
import shlex
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Final, Self
from urllib.parse import quote, unquote

import ifaddr
from zeroconf import (  # type: ignore[attr-defined]  # DNSOutgoing, DNSQuestion: not in __all__
    BadTypeInNameException,
    DNSOutgoing,
    DNSQuestion,
    IPVersion,
    NotRunningException,
    ServiceStateChange,
    Zeroconf,
)
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

__all__ = [
    "DEFAULT_DISCOVER_TIMEOUT_S",
    "SERVICE_TYPE",
    "Advertiser",
    "Browser",
    "ChangeKind",
    "DiscoveryError",
    "HostEvent",
    "HostInfo",
    "TableSummary",
    "advertised_addresses",
    "choose_interfaces",
    "decode_txt",
    "discover",
    "encode_txt",
]

log = logging.getLogger(__name__)

SERVICE_TYPE = "_clowder._tcp.local."
"""The DNS-SD service type every Clowder host registers."""

DEFAULT_DISCOVER_TIMEOUT_S = 1.5
"""How long :func:`discover` listens: the immediate query is answered in
milliseconds; 1.5 s also covers zeroconf's second query (sent ~1 s after
start) for a host that missed the first one."""

TXT_STRING_MAX = 255
"""A TXT record is a list of strings of at most 255 bytes each (RFC 6763 6.1)."""

_INSTANCE_LABEL_MAX = 56
"""Bytes kept of an instance label (DNS labels hold 63): room for zeroconf's
``-2``, ``-3``... suffix when another host already has the name."""

_FREE_ENTRIES_PARSED_MAX = 64
_DNS_TYPE_PTR = 12  # RFC 1035 3.2.2
_DNS_CLASS_IN = 1  # RFC 1035 3.2.4
_DNS_FLAGS_QUERY = 0x0000  # RFC 1035 4.1.1: QR=0, a standard query
_IFF_UP = 0x1  # linux/if.h
_IFF_MULTICAST = 0x1000  # linux/if.h
_ANY_IPV4 = ("", "0.0.0.0")


class DiscoveryError(Exception):
    """mDNS discovery could not start or run; the message says why and what still works."""


class ChangeKind(enum.Enum):
    """What happened to a host in a :class:`HostEvent`."""

    ADDED = "added"
    UPDATED = "updated"
    REMOVED = "removed"


@dataclass(frozen=True, slots=True)
class TableSummary:
    """One table as a lobby needs it: which game, how many seats are free."""

    table_id: str
    game: str
    free_seats: int

    def __post_init__(self) -> None:
        if not self.table_id:
            raise ValueError("a table needs a non-empty id")
        if not self.game:
            raise ValueError(f"table {self.table_id!r} needs a game name")
        if self.free_seats < 0:
            raise ValueError(f"table {self.table_id!r} cannot have {self.free_seats} free seats")


@dataclass(frozen=True, slots=True)
class HostInfo:
    """A host as seen by a browser: where to connect and what it offers.

    ``instance`` is the service name (unique on the LAN, the key to compare
    by); ``name`` is the display name from TXT. ``open_tables`` lists tables
    with free seats, ``open_tables_omitted`` counts those that did not fit in
    TXT. ``last_seen`` is ``time.time()`` when its records last arrived.
    ``protocol_version`` is None when the TXT carries no readable ``pv``.
    ``ssh_port`` is where the host's SSH gateway listens (None: it has none);
    ``web_port`` where its web page is served (None: it serves none).
    """

    instance: str
    name: str
    addresses: tuple[str, ...]
    port: int
    protocol_version: int | None
    games: tuple[str, ...]
    table_count: int
    open_tables: tuple[TableSummary, ...]
    open_tables_omitted: int
    last_seen: float
    ssh_port: int | None = None
    web_port: int | None = None

    @property
    def endpoint(self) -> str:
        """``address:port`` to join (the first advertised address)."""
        return f"{self.addresses[0]}:{self.port}"

    @property
    def ssh_command(self) -> str | None:
        """What to type to play there with nothing installed, or None (no SSH gateway)."""
        return None if self.ssh_port is None else ssh_command(self.addresses[0], self.ssh_port)

    @property
    def web_url(self) -> str | None:
        """The page to open in a browser to play there, or None (no web page)."""
        return None if self.web_port is None else web_url(self.addresses[0], self.web_port)

    def same_content(self, other: HostInfo) -> bool:
        """Equal in everything but ``last_seen``: used to report real updates only."""
        return dataclasses.replace(other, last_seen=self.last_seen) == self


@dataclass(frozen=True, slots=True)
class HostEvent:
    """A host appeared, changed, or left; ``host`` is its latest (or last) info."""

    kind: ChangeKind
    host: HostInfo


# --- TXT encoding -------------------------------------------------------------------------


def _fits(key: str, value: str) -> bool:
    return len(f"{key}={value}".encode()) <= TXT_STRING_MAX


def _truncate_utf8(text: str, max_bytes: int) -> str:
    """Cut ``text`` to at most ``max_bytes`` of UTF-8 without splitting a character."""
    return text.encode()[:max_bytes].decode(errors="ignore")


def _join_fitting(key: str, items: Iterable[str]) -> tuple[str, int]:
    """Comma-join whole items while ``key=value`` fits; return it and how many were left out."""
    kept: list[str] = []
    items = list(items)
    for item in items:
        if not _fits(key, ",".join([*kept, item])):
            break
        kept.append(item)
    return ",".join(kept), len(items) - len(kept)


def _quote(text: str) -> str:
    return quote(text, safe="")


SSH_USER: Final = "NAME"
"""The user part of an SSH invitation: it becomes the player's name, so it reads as what to
put there. (It was ``you``: typed as it stood, it named the player "you".) Typed literally,
it is a stand-in the gateway asks a name for (:func:`net.wire.text.stand_in_name`)."""


def ssh_command(address: str, port: int, user: str = SSH_USER) -> str:
    """``ssh -p 2222 NAME@198.18.0.1``: how to reach a host's SSH gateway (no ``-p`` for 22);
    ``user``: a player's own login, where the command is their own way back."""
    option = "" if port == 22 else f"-p {port} "
    return f"ssh {option}{shlex.quote(f'{user}@{address}')}"  # quoted as a shell needs it


def web_url(address: str, port: int) -> str:
    """``http://198.18.0.1:8080/``: a host's page for browsers (no port shown for 80)."""
    shown = f"[{address}]" if ":" in address else address
    return f"http://{shown}/" if port == 80 else f"http://{shown}:{port}/"


def encode_txt(
    *,
    protocol_version: int,
    name: str,
    games: Iterable[str],
    tables: Iterable[TableSummary],
    ssh_port: int | None = None,
    web_port: int | None = None,
) -> dict[str, str]:
    """The TXT properties for a host (see the module docstring for the format).

    ``tables`` are all the host's tables; those with free seats go in
    ``free`` in the order given, as many as fit; ``more`` counts the rest.
    """
    tables = list(tables)
    open_tables = [table for table in tables if table.free_seats > 0]
    games_value, _ = _join_fitting("games", (_quote(game) for game in dict.fromkeys(games)))
    free_value, omitted = _join_fitting(
        "free",
        (f"{_quote(t.table_id)}:{_quote(t.game)}:{t.free_seats}" for t in open_tables),
    )
    properties = {
        "pv": str(protocol_version),
        "name": _truncate_utf8(name, TXT_STRING_MAX - len("name=")),
        "games": games_value,
        "tables": str(len(tables)),
        "free": free_value,
    }
    if omitted:
        properties["more"] = str(omitted)
    if ssh_port is not None:
        properties["ssh"] = str(ssh_port)
    if web_port is not None:
        properties["web"] = str(web_port)
    return properties


def _text(properties: Mapping[bytes, bytes | None], key: str) -> str | None:
    raw = properties.get(key.encode())
    return None if raw is None else raw.decode(errors="replace")


def _non_negative_int(text: str | None) -> int | None:
    if text is None or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def _decode_table(item: str) -> TableSummary | None:
    parts = item.split(":")
    if len(parts) != 3:
        return None
    table_id, game, free_text = (unquote(part) for part in parts)
    free_seats = _non_negative_int(free_text)
    if not table_id or not game or not free_seats:
        return None
    return TableSummary(table_id, game, free_seats)


@dataclass(frozen=True, slots=True)
class _TxtFields:
    protocol_version: int | None
    name: str | None
    games: tuple[str, ...]
    table_count: int
    open_tables: tuple[TableSummary, ...]
    open_tables_omitted: int
    ssh_port: int | None = None
    web_port: int | None = None


def _port(text: str | None) -> int | None:
    number = _non_negative_int(text)
    return number if number is not None and 0 < number < 65536 else None


def decode_txt(properties: Mapping[bytes, bytes | None]) -> _TxtFields:
    """Read TXT properties from another host, tolerating anything malformed.

    The input comes from the network: a field that cannot be read becomes
    its empty default and a bad ``free`` item is skipped, never an error.
    """
    games_text = _text(properties, "games") or ""
    games = tuple(unquote(game) for game in games_text.split(",") if game)
    free_text = _text(properties, "free") or ""
    items = [item for item in free_text.split(",") if item][:_FREE_ENTRIES_PARSED_MAX]
    open_tables = tuple(table for item in items if (table := _decode_table(item)) is not None)
    table_count = _non_negative_int(_text(properties, "tables"))
    omitted = _non_negative_int(_text(properties, "more")) or 0
    return _TxtFields(
        protocol_version=_non_negative_int(_text(properties, "pv")),
        name=_text(properties, "name") or None,
        games=games,
        table_count=len(open_tables) + omitted if table_count is None else table_count,
        open_tables=open_tables,
        open_tables_omitted=omitted,
        ssh_port=_port(_text(properties, "ssh")),
        web_port=_port(_text(properties, "web")),
    )


def _host_info(info: AsyncServiceInfo, seen_at: float) -> HostInfo | None:
    """A :class:`HostInfo` from a resolved service, or None if it lacks a port or address."""
    addresses = tuple(info.parsed_addresses(IPVersion.V4Only))
    if info.port is None or not addresses:
        return None
    fields = decode_txt(info.properties)
    label = info.name.removesuffix("." + SERVICE_TYPE)
    return HostInfo(
        instance=info.name,
        name=fields.name or label,
        addresses=addresses,
        port=info.port,
        protocol_version=fields.protocol_version,
        games=fields.games,
        table_count=fields.table_count,
        open_tables=fields.open_tables,
        open_tables_omitted=fields.open_tables_omitted,
        last_seen=seen_at,
        ssh_port=fields.ssh_port,
        web_port=fields.web_port,
    )


# --- interfaces ---------------------------------------------------------------------------


def _interface_usable(name: str) -> bool:
    """Up and multicast-capable, per Linux's sysfs flags; True where sysfs is absent."""
    try:
        flags = int((Path("/sys/class/net") / name / "flags").read_text().strip(), 16)
    except (OSError, ValueError):
        return True
    return bool(flags & _IFF_UP) and bool(flags & _IFF_MULTICAST)


def _lan_addresses() -> list[str]:
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        if not _interface_usable(str(adapter.name)):
            continue
        for ip in adapter.ips:
            if not ip.is_IPv4 or not isinstance(ip.ip, str):
                continue
            if ipaddress.IPv4Address(ip.ip).is_loopback or ip.ip in found:
                continue
            found.append(ip.ip)
    return found


def _parse_bind(bind: str) -> ipaddress.IPv4Address | None:
    """The bound IPv4 address, or None for all addresses."""
    if bind in _ANY_IPV4:
        return None
    try:
        return ipaddress.IPv4Address(bind)
    except ValueError:
        raise DiscoveryError(
            f"Cannot advertise a host bound to {bind!r}: discovery needs an IPv4 address "
            "(or 0.0.0.0). Use --no-discovery and join by host:port."
        ) from None


def choose_interfaces(bind: str = "0.0.0.0") -> list[str]:
    """IPv4 addresses of the interfaces to run mDNS on (see the module docstring)."""
    address = _parse_bind(bind)
    if address is not None:
        return [str(address)]
    return _lan_addresses() or ["127.0.0.1"]


def advertised_addresses(bind: str = "0.0.0.0") -> list[str]:
    """The addresses a host bound to ``bind`` tells browsers to connect to."""
    return choose_interfaces(bind)


def _start_zeroconf(interfaces: Sequence[str]) -> AsyncZeroconf:
    try:
        return AsyncZeroconf(interfaces=list(interfaces), ip_version=IPVersion.V4Only)
    except (OSError, RuntimeError) as error:
        raise DiscoveryError(
            f"Cannot start mDNS discovery on {', '.join(interfaces)}: {error}. "
            "Joining by host:port still works."
        ) from error


def _instance_label(name: str) -> str:
    """A DNS-SD instance label from a display name: no dots or control characters, fits a label."""
    cleaned = "".join(ch if ch.isprintable() and ch != "." else "-" for ch in name).strip(" -")
    return _truncate_utf8(cleaned, _INSTANCE_LABEL_MAX).strip() or "clowder"


# --- advertising --------------------------------------------------------------------------


class Advertiser:
    """Registers this host's ``_clowder._tcp.local.`` service and keeps its TXT current.

    ``start()`` probes for a unique instance name (``name``, or ``name-2``...
    when another host has it) and returns once registered, about 1.2 s
    later: start it alongside the TCP listener rather than before it.
    ``update()`` may be called on every table change: updates are coalesced
    and sent at most once per ``min_update_interval_s`` (each update is
    three multicast packets), always ending with the latest state.
    ``stop()`` sends goodbyes so browsers drop the host at once.
    Use ``async with`` or ``start()``/``stop()``.

    Pass ``zeroconf`` to share one ``AsyncZeroconf`` with a :class:`Browser`
    in the same process (it is then not closed here).
    """

    def __init__(
        self,
        *,
        port: int,
        protocol_version: int,
        name: str | None = None,
        bind: str = "0.0.0.0",
        games: Iterable[str] = (),
        tables: Iterable[TableSummary] = (),
        min_update_interval_s: float = 1.0,
        zeroconf: AsyncZeroconf | None = None,
        ssh_port: int | None = None,
        web_port: int | None = None,
    ) -> None:
        if not 0 < port < 65536:
            raise ValueError(f"port must be 1..65535, not {port}")
        for what, door in (("ssh_port", ssh_port), ("web_port", web_port)):
            if door is not None and not 0 < door < 65536:
                raise ValueError(f"{what} must be 1..65535, not {door}")
        self.ssh_port = ssh_port
        self.web_port = web_port
        if min_update_interval_s < 0:
            raise ValueError("min_update_interval_s cannot be negative")
        self.port = port
        self.protocol_version = protocol_version
        self.name = name or socket.gethostname() or "clowder"
        self.interfaces = choose_interfaces(bind)
        self.addresses = list(self.interfaces)
        self.min_update_interval_s = min_update_interval_s
        self._games = tuple(games)
        self._tables = tuple(tables)
        self._shared_zeroconf = zeroconf
        self._zeroconf: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._published: dict[str, str] | None = None
        self._last_publish = 0.0
        self._worker: asyncio.Task[None] | None = None
        self._broadcasts: set[asyncio.Future[object]] = set()

    @property
    def instance(self) -> str:
        """The registered service name, e.g. ``Bea's laptop._clowder._tcp.local.``."""
        if self._info is None:
            raise DiscoveryError("The host is not advertised yet (call start() first).")
        return self._info.name

    @property
    def running(self) -> bool:
        """True between a successful ``start()`` and ``stop()``."""
        return self._info is not None

    def _properties(self) -> dict[str, str]:
        return encode_txt(
            protocol_version=self.protocol_version,
            name=self.name,
            games=self._games,
            tables=self._tables,
            ssh_port=self.ssh_port,
            web_port=self.web_port,
        )

    def _service_info(self, name: str, server: str, properties: dict[str, str]) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            SERVICE_TYPE,
            name,
            port=self.port,
            properties=properties,
            server=server,
            addresses=[socket.inet_aton(address) for address in self.addresses],
        )

    def _keep(self, broadcast: object) -> None:
        """Hold zeroconf's broadcast task until it is done (asyncio keeps only weak references)."""
        if isinstance(broadcast, asyncio.Future):
            self._broadcasts.add(broadcast)
            broadcast.add_done_callback(self._broadcasts.discard)

    async def start(self) -> None:
        """Register the service (probing for a unique name); DiscoveryError if mDNS cannot run."""
        if self._info is not None:
            return
        zeroconf = self._shared_zeroconf or _start_zeroconf(self.interfaces)
        self._zeroconf = zeroconf
        label = _instance_label(self.name)
        server = f"{_instance_label(socket.gethostname())}-{secrets.token_hex(3)}.local."
        properties = self._properties()
        info = self._service_info(f"{label}.{SERVICE_TYPE}", server, properties)
        try:
            broadcast = await zeroconf.async_register_service(info, allow_name_change=True)
        except (OSError, NotRunningException, BadTypeInNameException) as error:
            await self._close_zeroconf()
            raise DiscoveryError(
                f"Cannot advertise {self.name!r} on {', '.join(self.interfaces)}: {error}. "
                "Joining by host:port still works."
            ) from error
        self._keep(broadcast)
        self._info = info
        self._published = properties
        self._last_publish = time.monotonic()
        log.info("advertising %s on %s port %d", info.name, ", ".join(self.addresses), self.port)

    def update(
        self,
        *,
        tables: Iterable[TableSummary] | None = None,
        games: Iterable[str] | None = None,
        name: str | None = None,
    ) -> None:
        """Change what the TXT says; sent soon, coalesced and rate-limited (event loop only).

        The instance name stays as registered; ``name`` changes only the TXT.
        """
        if tables is not None:
            self._tables = tuple(tables)
        if games is not None:
            self._games = tuple(games)
        if name is not None:
            self.name = name
        if self._info is None:
            return
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._publish_latest())

    async def _publish_latest(self) -> None:
        """Send the latest TXT once the rate limit allows, until nothing is left to send."""
        while self._info is not None and self._zeroconf is not None:
            wait = self._last_publish + self.min_update_interval_s - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            properties = self._properties()
            if properties == self._published:
                return
            info = self._service_info(self._info.name, self._info.server or "", properties)
            self._last_publish = time.monotonic()
            self._keep(await self._zeroconf.async_update_service(info))
            self._info = info
            self._published = properties

    async def flush(self) -> None:
        """Wait until the latest ``update()`` has been sent (rate limit included)."""
        if self._worker is not None:
            await asyncio.shield(self._worker)
        if self._broadcasts:
            await asyncio.gather(*self._broadcasts, return_exceptions=True)

    async def stop(self) -> None:
        """Say goodbye (browsers drop the host at once), then close zeroconf if it is ours."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.cancel()
            await asyncio.wait([worker])  # a cancel of stop() itself still ends stop()
        info, self._info = self._info, None
        if info is not None and self._zeroconf is not None:
            try:
                goodbye = await self._zeroconf.async_unregister_service(info)
                await goodbye
            except (OSError, NotRunningException) as error:
                log.warning("could not send the goodbye for %s: %s", info.name, error)
        await self._close_zeroconf()

    async def _close_zeroconf(self) -> None:
        zeroconf, self._zeroconf = self._zeroconf, None
        for broadcast in list(self._broadcasts):
            broadcast.cancel()
        self._broadcasts.clear()
        if zeroconf is not None and zeroconf is not self._shared_zeroconf:
            await zeroconf.async_close()

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()


# --- browsing -----------------------------------------------------------------------------


class Browser:
    """Lists Clowder hosts live: a snapshot (``hosts``) and a stream of :class:`HostEvent`.

    Hosts are reported once resolved (address, port and TXT known): ADDED
    first, UPDATED when anything but ``last_seen`` changed (a TXT update),
    REMOVED on a goodbye or when the records expire. Consume events with
    ``async for event in browser`` / ``browser.events()`` (each iterator gets
    every event from its creation on, the hosts already known first, and
    ends when the browser stops) or with the ``on_event`` callback (runs in
    the event loop; keep it short).

    ``immediate_query`` asks at start (QU, then QM), on top of zeroconf's
    own jittered queries: it is what makes the list fill in milliseconds
    (see the module docstring for the figures).
    """

    def __init__(
        self,
        *,
        interfaces: Sequence[str] | None = None,
        on_event: Callable[[HostEvent], None] | None = None,
        resolve_timeout_s: float = 1.0,
        immediate_query: bool = True,
        zeroconf: AsyncZeroconf | None = None,
    ) -> None:
        self.interfaces = list(interfaces) if interfaces is not None else choose_interfaces()
        self.resolve_timeout_s = resolve_timeout_s
        self.immediate_query = immediate_query
        self._on_event = on_event
        self._shared_zeroconf = zeroconf
        self._zeroconf: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._hosts: dict[str, HostInfo] = {}
        self._resolving: dict[str, asyncio.Task[None]] = {}
        self._queues: list[asyncio.Queue[HostEvent | None]] = []
        self._stopped = False

    @property
    def hosts(self) -> list[HostInfo]:
        """The hosts known now, by display name."""
        return sorted(self._hosts.values(), key=lambda host: (host.name.casefold(), host.instance))

    async def start(self) -> None:
        """Start browsing; raises DiscoveryError if mDNS cannot run here."""
        if self._browser is not None:
            return
        self._stopped = False
        zeroconf = self._shared_zeroconf or _start_zeroconf(self.interfaces)
        self._zeroconf = zeroconf
        try:
            await zeroconf.zeroconf.async_wait_for_start()
        except NotRunningException as error:
            await self._close_zeroconf()
            raise DiscoveryError(
                f"mDNS discovery did not start on {', '.join(self.interfaces)}. "
                "Joining by host:port still works."
            ) from error
        self._browser = AsyncServiceBrowser(
            zeroconf.zeroconf, SERVICE_TYPE, handlers=[self._on_service_state_change]
        )
        if self.immediate_query:
            self._ask_now(zeroconf.zeroconf)

    @staticmethod
    def _ask_now(zeroconf: Zeroconf) -> None:
        """Ask for every host at once: a QU question, then the same question QM.

        Hosts on other machines answer the QU question immediately. A host
        on this machine answers it by unicast to port 5353 here, which the
        kernel may hand to the host's own socket rather than ours (several
        mDNS sockets share the port); its multicast answer to the QM
        question (after zeroconf's 20-120 ms aggregation) reaches everyone.
        """
        for unicast in (True, False):
            question = DNSQuestion(SERVICE_TYPE, _DNS_TYPE_PTR, _DNS_CLASS_IN)
            question.unicast = unicast
            out = DNSOutgoing(_DNS_FLAGS_QUERY, multicast=True)
            out.add_question(question)
            zeroconf.async_send(out)

    async def stop(self) -> None:
        """Stop browsing and end every event iterator."""
        self._stopped = True
        browser, self._browser = self._browser, None
        if browser is not None:
            await browser.async_cancel()
        tasks = list(self._resolving.values())
        self._resolving.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self._close_zeroconf()
        for queue in self._queues:
            queue.put_nowait(None)
        self._queues.clear()

    async def _close_zeroconf(self) -> None:
        zeroconf, self._zeroconf = self._zeroconf, None
        if zeroconf is not None and zeroconf is not self._shared_zeroconf:
            await zeroconf.async_close()

    def events(self) -> AsyncIterator[HostEvent]:
        """Events from now on, starting with an ADDED for every host already known."""
        queue: asyncio.Queue[HostEvent | None] = asyncio.Queue()
        for host in self.hosts:
            queue.put_nowait(HostEvent(ChangeKind.ADDED, host))
        if self._stopped:
            queue.put_nowait(None)
        else:
            self._queues.append(queue)
        return self._drain(queue)

    def __aiter__(self) -> AsyncIterator[HostEvent]:
        return self.events()

    async def _drain(self, queue: asyncio.Queue[HostEvent | None]) -> AsyncIterator[HostEvent]:
        try:
            while (event := await queue.get()) is not None:
                yield event
        finally:
            if queue in self._queues:
                self._queues.remove(queue)

    def _emit(self, event: HostEvent) -> None:
        for queue in self._queues:
            queue.put_nowait(event)
        if self._on_event is not None:
            try:
                self._on_event(event)
            except Exception:
                log.exception("on_event callback failed for %s", event)

    def _on_service_state_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        """zeroconf's callback (event loop): resolve additions and updates, report removals."""
        previous = self._resolving.pop(name, None)
        if previous is not None:
            previous.cancel()
        if state_change is ServiceStateChange.Removed:
            host = self._hosts.pop(name, None)
            if host is not None:
                self._emit(HostEvent(ChangeKind.REMOVED, host))
            return
        task = asyncio.get_running_loop().create_task(self._resolve(zeroconf, name))
        self._resolving[name] = task

    async def _resolve(self, zeroconf: Zeroconf, name: str) -> None:
        """Read the service's records (from the cache, or by asking) and report what changed."""
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        try:
            found = await info.async_request(zeroconf, self.resolve_timeout_s * 1000)
        except NotRunningException:
            return
        finally:
            if self._resolving.get(name) is asyncio.current_task():
                del self._resolving[name]
        host = _host_info(info, time.time()) if found else None
        if host is None:
            log.debug("could not resolve %s within %.1f s", name, self.resolve_timeout_s)
            return
        previous = self._hosts.get(name)
        self._hosts[name] = host
        if previous is None:
            self._emit(HostEvent(ChangeKind.ADDED, host))
        elif not previous.same_content(host):
            self._emit(HostEvent(ChangeKind.UPDATED, host))

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()


async def discover(
    timeout_s: float = DEFAULT_DISCOVER_TIMEOUT_S,
    *,
    interfaces: Sequence[str] | None = None,
) -> list[HostInfo]:
    """Browse for ``timeout_s`` seconds; the hosts found, by name (``clowder discover``)."""
    if timeout_s <= 0:
        raise ValueError(f"timeout_s must be positive, not {timeout_s}")
    async with Browser(interfaces=interfaces) as browser:
        await asyncio.sleep(timeout_s)
        return browser.hosts

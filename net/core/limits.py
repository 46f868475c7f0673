"""How much one host takes on, so that running out is a refusal and never an exit.

Every budget here is a named default and a ``clowder host`` flag
(``--max-connections`` and so on). When a budget is spent the newcomer is
told, with an ``error`` whose code says which (see PROTOCOL.md, "Limits"):

* ``host_full`` (closes): a connection over :attr:`HostLimits.max_connections`,
  over :attr:`HostLimits.max_connections_per_address` from one address, or
  over what the process's file-descriptor limit (``RLIMIT_NOFILE``) can
  hold (:meth:`HostLimits.connection_budget`);
* ``too_many_tables``: a ``create_table`` over the host's open tables
  (:attr:`HostLimits.max_tables`) or over the open tables this connection
  created (:attr:`HostLimits.max_tables_per_connection`); tables that are
  over do not count;
* ``handshake_timeout`` (closes): no ``hello`` within
  :attr:`HostLimits.handshake_timeout_s` of connecting (a slow-loris client
  dribbling bytes gets no more time than a silent one);
* ``idle_timeout`` (closes): no whole message for :attr:`HostLimits.idle_timeout_s`
  while the host's pings go unanswered (a client that answers pings is
  never idle, however quiet its player; bytes dribbled into a frame that
  never completes do not count).

File descriptors: each connection holds one; table journals do not hold
one each, they share a bounded cache of open files
(:attr:`HostLimits.max_open_journals`, least recently written closed
first, see :class:`net.store.journal.OpenFiles`); :data:`FD_RESERVE` are kept for
everything else (standard streams, the listening socket, discovery's
sockets, the event loop, a refusal's own short-lived socket).
"""

from __future__ import annotations

import math
import resource
from dataclasses import dataclass, fields
from typing import Final

from net.store.journal import MAX_OPEN_JOURNALS

MAX_CONNECTIONS: Final = 2000
"""Connections one host serves at once (the file-descriptor budget may lower it)."""

MAX_CONNECTIONS_PER_ADDRESS: Final = 128
"""Connections from one IP address at once: one machine cannot take every seat in the house."""

MAX_TABLES: Final = 500
"""Tables not yet over on one host."""

MAX_TABLES_PER_CONNECTION: Final = 8
"""Tables not yet over that one connection created."""

FD_RESERVE: Final = 64
"""File descriptors kept for the process itself (see the module docstring)."""

HANDSHAKE_TIMEOUT_S: Final = 10.0
"""Seconds a new connection has to complete its ``hello``."""

IDLE_TIMEOUT_S: Final = 300.0
"""Seconds without a whole message, with pings unanswered, before a connection is dropped."""

IDLE_UNANSWERED_PINGS: Final = 2
"""Pings in a row without an answer before a quiet connection counts as idle."""

MESSAGES_PER_TURN: Final = 16
"""Messages of one connection handled before the host lets the other connections go first
(fair service: a busy client's backlog waits its turn, others' round trips do not)."""

MAX_TAKEOVER_S: Final = 3600.0
"""Longest ``takeover`` a table accepts (seconds before a bot covers a dropped player)."""


def nofile_limit() -> int:
    """This process's soft limit on open file descriptors (``RLIMIT_NOFILE``)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 1 << 20 if soft == resource.RLIM_INFINITY else int(soft)


@dataclass(frozen=True, slots=True)
class HostLimits:
    """A host's budgets; every field is checked (whole numbers >= 1, finite seconds > 0)."""

    max_connections: int = MAX_CONNECTIONS
    max_connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS
    max_tables: int = MAX_TABLES
    max_tables_per_connection: int = MAX_TABLES_PER_CONNECTION
    max_open_journals: int = MAX_OPEN_JOURNALS
    handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S
    idle_timeout_s: float = IDLE_TIMEOUT_S

    def __post_init__(self) -> None:
        flags = {name: flag for name, flag, _what in FLAGS}
        for item in fields(self):
            value = getattr(self, item.name)
            label = f"{flags[item.name]} ({item.name})" if item.name in flags else item.name
            if item.name.endswith("_s"):
                ok = (
                    isinstance(value, int | float)
                    and not isinstance(value, bool)
                    and math.isfinite(value)
                    and value > 0
                )
                if not ok:
                    raise ValueError(f"{label} is a positive number of seconds, not {value!r}")
            elif isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{label} is a whole number of at least 1, not {value!r}")

    def connection_budget(self, nofile: int | None = None) -> int:
        """Connections this host accepts at once with ``nofile`` descriptors (default: ours).

        The smaller of :attr:`max_connections` and what is left of ``nofile``
        after the journals' cache and :data:`FD_RESERVE`; at least 1.
        """
        nofile = nofile_limit() if nofile is None else nofile
        return max(1, min(self.max_connections, nofile - FD_RESERVE - self.max_open_journals))


FLAGS: Final = (
    ("max_connections", "--max-connections", "connections at once, lowered to fit `ulimit -n`"),
    (
        "max_connections_per_address",
        "--max-connections-per-address",
        "connections at once from one IP address",
    ),
    ("max_tables", "--max-tables", "tables not over, on this host"),
    (
        "max_tables_per_connection",
        "--max-tables-per-connection",
        "tables not over that one connection may create",
    ),
    (
        "max_open_journals",
        "--max-open-journals",
        "table journal files kept open at once (the others reopen when written)",
    ),
    ("handshake_timeout_s", "--handshake-timeout", "seconds a new connection has to say hello"),
    (
        "idle_timeout_s",
        "--idle-timeout",
        "seconds of silence, with pings unanswered, before a connection is dropped",
    ),
)
"""Each :class:`HostLimits` field, its ``clowder host`` flag, and what it bounds (``--help``)."""

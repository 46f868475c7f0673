"""The journal store the simulated host writes to: memory, with a crash point and listeners.

:class:`SimStore` is the core's :class:`net.core.store.MemoryStore` (the
same bytes a file journal holds) with three additions the simulator needs:

* **Listeners** see every whole record as it is kept, and every table as it
  is archived. The shadow replay (:mod:`tests.sim.shadow`) is fed from
  here, so it holds exactly what the host wrote, not what it meant to write.
* **A crash point**: when the ``crash_at``-th record is written the store
  raises :class:`SimulatedCrash` (a ``BaseException``, so no ``except
  Exception`` in the host can swallow it), after keeping the whole record
  or only its first ``crash_keep`` bytes (a record torn mid-write, which
  the next host cuts off when it reads the journal).
* **A skip rule** (``skip``), for the ``skip-journal`` break: that record
  is silently not kept, as a host that forgot to journal would do.
* **A full disk** (:meth:`fill`): from a given write on, each record keeps
  only its first bytes and the write fails (``ENOSPC``), as the host's file
  journal reports it, until space is freed some seconds later. Only whole
  records reach the listeners: with the ``unchecked-write`` break (the
  store's ``checked`` off) the torn part stays and the write "succeeds",
  but the shadow never hears of the record.
* **A hook on reading** (``on_read``), for the ``forget-token`` break: what
  a restarted host reads back may be changed there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgpack

from net.core.store import MemoryStore
from net.store.journal import JournalWriteError

RecordListener = Callable[[str, dict[str, Any]], None]
"""Called with a table id and one record, once the record is kept."""

ArchiveListener = Callable[[str], None]
"""Called with a table id when the host archives (closes) that table."""


class SimulatedCrash(BaseException):
    """The simulated host process dies here (raised from inside a journal write)."""


class SimStore(MemoryStore):
    """A :class:`MemoryStore` with listeners, a crash point and a skip point."""

    def __init__(self) -> None:
        super().__init__()
        self.on_record: list[RecordListener] = []
        self.on_archive: list[ArchiveListener] = []
        self.on_discard: list[ArchiveListener] = []
        """Told when a journal is thrown away (a table refused as it was being made)."""
        self.writes = 0
        """Records the host tried to write, kept or not (what ``crash_at`` counts)."""
        self.crash_at: int | None = None
        self.crash_keep: int | None = None
        """Bytes of the crashing record that are kept (``None``: all of it)."""
        self.skip: Callable[[str, bytes], bool] | None = None
        """Says which record not to keep (the ``skip-journal`` break); ``None``: keep all."""
        self.skipped: tuple[str, dict[str, Any]] | None = None
        self.crashed = 0
        self.clock: Callable[[], int] = lambda: 0
        """The simulator's clock (virtual ns), for how long the disk stays full."""
        self.full_from: int | None = None
        """The disk fills at this write (``None``: it does not, or was freed)."""
        self.full_keep = 0
        self.full_for_ns = 0
        self.full_until_ns: int | None = None
        self.fills = 0
        """How often the disk filled up in this run."""
        self.on_read: Callable[[str, list[dict[str, Any]]], list[dict[str, Any]]] | None = None
        self.room = self._room

    def fill(self, at_write: int, keep: int, for_ns: int) -> None:
        """The disk fills at write number ``at_write`` and is freed ``for_ns`` later."""
        self.full_from, self.full_keep, self.full_for_ns = at_write, keep, for_ns
        self.full_until_ns = None

    def _room(self, table_id: str, data: bytes) -> int | None:
        if self.full_from is None or self.writes < self.full_from:
            return None
        now = self.clock()
        if self.full_until_ns is None:
            self.full_until_ns = now + self.full_for_ns
            self.fills += 1
        if now >= self.full_until_ns:
            self.full_from = None  # space is free again
            return None
        return self.full_keep

    @property
    def full(self) -> bool:
        """Whether the disk is full now (as far as the last write found)."""
        return self.full_from is not None and self.full_until_ns is not None

    def write(self, table_id: str, data: bytes) -> None:
        self.writes += 1
        if self.skip is not None and self.skip(table_id, data):
            self.skipped = (table_id, _decode(data))
            return
        if self.writes == self.crash_at:
            self.crashed += 1
            keep = self.crash_keep
            if keep is None:
                try:
                    super().write(table_id, data)
                except JournalWriteError:
                    pass  # the disk is full as well: nothing of the record stays
                else:
                    if not self.last_torn:
                        self._tell(table_id, data)
            else:
                self.keep_part(table_id, data[: max(0, min(keep, len(data) - 1))])
            raise SimulatedCrash(f"host crashed at journal record {self.writes}")
        super().write(table_id, data)  # a full disk raises JournalWriteError here
        if not self.last_torn:
            self._tell(table_id, data)

    def read(self, table_id: str) -> list[dict[str, Any]]:
        records = super().read(table_id)
        return records if self.on_read is None else self.on_read(table_id, records)

    def _tell(self, table_id: str, data: bytes) -> None:
        if self.on_record:
            record = _decode(data)
            for listener in self.on_record:
                listener(table_id, record)

    def discard(self, table_id: str) -> None:
        super().discard(table_id)
        for listener in self.on_discard:
            listener(table_id)

    def archive(self, table_id: str) -> str | None:
        archived = super().archive(table_id)
        for listener in self.on_archive:
            listener(table_id)
        return archived


def _decode(data: bytes) -> dict[str, Any]:
    record = msgpack.unpackb(data, raw=False, use_list=True, strict_map_key=True)
    if not isinstance(record, dict):
        raise TypeError(f"a journal record that is not a map: {record!r:.80}")
    return record

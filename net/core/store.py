"""Where the host core keeps its tables' journals: a folder on disk, or memory.

The core only appends records and, at start, reads them back; it does not
care where they live. :class:`net.store.journal.StateDir` keeps them in files (the
real host); :class:`MemoryStore` keeps the same bytes in memory, so the
simulator can crash a host at any record, cut the last record in half, and
start a new host on what was written, without touching a disk.
"""

from __future__ import annotations

import errno
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import msgpack

from net.store.journal import JournalWriteError, parse_records


class JournalSink(Protocol):
    """One table's journal, as the core writes it."""

    def append(self, record: dict[str, Any]) -> None:
        """Keep ``record`` whole, or raise :class:`~net.store.journal.JournalWriteError` with
        no part of it kept (a full disk): the core then refuses the change it records."""

    def close(self) -> None: ...


class JournalStore(Protocol):
    """The tables' journals, as the core reads and writes them (see :class:`MemoryStore`)."""

    @property
    def root(self) -> Path | None:
        """The folder replays are read from (``None``: none on disk)."""

    def describe(self, table_id: str) -> str:
        """Where a table's journal lives, for the log (a file's path)."""

    def create(self, table_id: str) -> JournalSink:
        """A new table's journal; raises :class:`FileExistsError` if the id was ever used."""

    def open(self, table_id: str) -> JournalSink:
        """An existing table's journal, to append to after resuming it."""

    def used(self, table_id: str) -> bool:
        """Whether ``table_id`` was ever used here (so it is never handed out again)."""

    def highest_number(self) -> int:
        """The largest ``N`` of a ``tN`` journal here (0: none)."""

    def table_ids(self) -> list[str]:
        """The tables to resume, oldest first."""

    def read(self, table_id: str) -> list[dict[str, Any]]:
        """A table's whole records; a torn last record is dropped. Raises JournalError."""

    def discard(self, table_id: str) -> None:
        """Delete a journal just created for a table that was then refused (its id is free)."""

    def archive(self, table_id: str) -> object | None:
        """Put a closed table's journal away (kept for replays; its id stays used)."""

    def set_aside(self, table_id: str) -> str:
        """Move a damaged journal out of the way; returns the name it is kept under."""


_NUMBERED = re.compile(r"t(\d+)$")


class MemoryJournal:
    """One table's journal bytes in a :class:`MemoryStore`."""

    def __init__(self, store: MemoryStore, table_id: str) -> None:
        self._store = store
        self._table_id = table_id
        self._packer = msgpack.Packer(use_bin_type=True)

    def append(self, record: dict[str, Any]) -> None:
        self._store.write(self._table_id, self._packer.pack(record))

    def close(self) -> None:
        """Nothing to release (kept for the :class:`JournalSink` protocol)."""


class MemoryStore:
    """Journals kept as msgpack bytes in memory, exactly as :class:`net.store.journal.TableJournal`
    writes them to a file.

    ``before_write`` sees every record's bytes before they are kept and may
    raise to stop the host there (the simulator's crash), after keeping only
    a prefix of them with :meth:`keep_part` (a record cut mid-write).

    ``room`` plays a full disk: told a record's table and bytes, it says how many
    of them fit (``None``: all). A record that does not fit is written in part,
    then cut off again, and the write raises ``ENOSPC`` as
    :class:`~net.store.journal.TableJournal` does; with ``checked`` off the part
    stays and the write returns as if it had succeeded (a host that does not
    check its writes: the simulator's ``unchecked-write`` break).
    """

    def __init__(self) -> None:
        self.journals: dict[str, bytearray] = {}
        """Live tables' journals by table id."""
        self.archived: dict[str, bytes] = {}
        self.damaged: dict[str, bytes] = {}
        self.before_write: Callable[[str, bytes], None] | None = None
        self.room: Callable[[str, bytes], int | None] | None = None
        self.checked = True
        self.records_written = 0
        """Records appended since this store was made (the simulator counts crash points)."""
        self.refused_writes = 0
        """Records refused for want of room (:attr:`room`)."""
        self.last_torn = False
        """The last write kept only part of its record and said nothing (``checked`` off)."""

    @property
    def root(self) -> Path | None:
        return None

    def write(self, table_id: str, data: bytes) -> None:
        if self.before_write is not None:
            self.before_write(table_id, data)
        journal = self.journals[table_id]
        fits = None if self.room is None else self.room(table_id, data)
        self.last_torn = False
        if fits is not None and fits < len(data):
            whole = len(journal)
            journal += data[: max(0, fits)]  # what a full disk takes before it refuses
            if not self.checked:
                self.records_written += 1
                self.last_torn = True
                return
            del journal[whole:]
            self.refused_writes += 1
            raise JournalWriteError(errno.ENOSPC, "No space left on device")
        journal += data
        self.records_written += 1

    def keep_part(self, table_id: str, data: bytes) -> None:
        """Keep only ``data`` (a prefix of a record): what a kill mid-write leaves."""
        self.journals[table_id] += data

    def describe(self, table_id: str) -> str:
        return f"memory:{table_id}"

    def create(self, table_id: str) -> MemoryJournal:
        if self.used(table_id):
            raise FileExistsError(f"table id {table_id!r} was used before")
        self.journals[table_id] = bytearray()
        return MemoryJournal(self, table_id)

    def open(self, table_id: str) -> MemoryJournal:
        self.journals.setdefault(table_id, bytearray())
        return MemoryJournal(self, table_id)

    def used(self, table_id: str) -> bool:
        return any(table_id in kept for kept in (self.journals, self.archived, self.damaged))

    def highest_number(self) -> int:
        found = (_NUMBERED.match(i) for i in (*self.journals, *self.archived, *self.damaged))
        return max((int(match.group(1)) for match in found if match), default=0)

    def table_ids(self) -> list[str]:
        return sorted(self.journals, key=lambda i: (len(i), i))

    def read(self, table_id: str) -> list[dict[str, Any]]:
        records, good = parse_records(bytes(self.journals[table_id]), table_id)
        del self.journals[table_id][good:]  # a torn last record is cut off, as on disk
        return records

    def archive(self, table_id: str) -> str | None:
        data = self.journals.pop(table_id, None)
        if data is None:
            return None
        self.archived[table_id] = bytes(data)
        return f"archive/{table_id}"

    def discard(self, table_id: str) -> None:
        self.journals.pop(table_id, None)

    def set_aside(self, table_id: str) -> str:
        self.damaged[table_id] = bytes(self.journals.pop(table_id))
        return f"{table_id}.damaged"

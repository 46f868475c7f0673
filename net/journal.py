"""Each table's append-only log on disk, so a restarted host resumes its tables.

One file per table, ``<state-dir>/tables/<id>.log``: a stream of msgpack
maps (see :mod:`net.tables` for the records). A record is written and
flushed to the operating system before the change it describes is broadcast,
so a host killed at any moment loses nothing a player has seen. (Surviving a
power cut as well would need an fsync per record; ``durable=True`` does it.)

A host killed in the middle of a write leaves a partial last record; reading
stops cleanly before it and the file is cut back to the last whole record.
Anything else that is not a stream of maps (garbage, a record that is not a
map) is a :class:`JournalError`; nothing is cut then.

Records have no size limit of their own, and a journal is read whole into
memory: each record is one seat change or one accepted action, already
bounded by the protocol's frame limit when it arrived (see
:mod:`net.framing`), so a journal grows with the game, not with what a
client sends. Seat tokens are stored here, so the directory is made private
(0700).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


class JournalError(ValueError):
    """A journal file that cannot be read as records."""


class TableJournal:
    """The append-only record file of one table."""

    def __init__(self, path: Path, durable: bool = False) -> None:
        self.path = path
        self.durable = durable
        self._file = open(path, "ab", buffering=0)  # noqa: SIM115 - lives as long as the table
        self._packer = msgpack.Packer(use_bin_type=True)

    def append(self, record: dict[str, Any]) -> None:
        """Write one record and hand it to the OS before returning."""
        self._file.write(self._packer.pack(record))
        if self.durable:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def read_records(path: Path) -> list[dict[str, Any]]:
    """Every whole record of a journal; a torn last record is cut off the file."""
    data = path.read_bytes()
    unpacker = msgpack.Unpacker(
        use_list=True, raw=False, strict_map_key=True, max_buffer_size=max(len(data), 1)
    )
    unpacker.feed(data)
    records: list[dict[str, Any]] = []
    good = 0
    try:
        for record in unpacker:
            if not isinstance(record, dict):
                raise JournalError(f"{path.name}: record {len(records) + 1} is not a map")
            records.append(record)
            good = unpacker.tell()
    except (msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, ValueError) as error:
        if isinstance(error, JournalError):
            raise
        raise JournalError(f"{path.name}: unreadable after {len(records)} records") from None
    if good < len(data):
        # A partial record from a kill mid-write: drop it so appends start clean.
        with open(path, "r+b") as file:
            file.truncate(good)
    return records


class StateDir:
    """The host's state directory: one journal per table under ``tables/``."""

    def __init__(self, root: Path, durable: bool = False) -> None:
        self.root = root
        self.durable = durable
        self.tables = root / "tables"
        self.tables.mkdir(parents=True, exist_ok=True)
        os.chmod(root, 0o700)

    def open(self, table_id: str) -> TableJournal:
        if not TABLE_ID.match(table_id):
            raise JournalError(f"{table_id!r} is not a valid table id")
        return TableJournal(self.tables / f"{table_id}.log", self.durable)

    def existing(self) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        """Every table journal on disk, oldest table first."""
        paths = sorted(self.tables.glob("*.log"), key=lambda p: (len(p.stem), p.stem))
        for path in paths:
            yield path.stem, read_records(path)

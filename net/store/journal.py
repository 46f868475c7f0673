"""Each table's append-only log on disk, so a restarted host resumes its tables.

One file per table, ``<state-dir>/tables/<id>.log``: a stream of msgpack
maps (see :mod:`net.core.tables` for the records). A record is written and
flushed to the operating system before the change it describes is broadcast,
so a host killed at any moment loses nothing a player has seen. (Surviving a
power cut as well would need an fsync per record; ``durable=True`` does it.)

A write is checked: a record is on file whole, or not at all. A full disk
(or a failing one) can write part of a record and then refuse the rest; the
part is cut off again at once and :class:`JournalWriteError` says why, so
the host refuses the change instead of showing it. If even the cut fails,
the journal remembers where its last whole record ends and cuts there before
its next write: nothing is ever written after a torn record.

A host killed in the middle of a write leaves a partial last record; reading
stops cleanly before it and the file is cut back to the last whole record.
Anything else that is not a stream of maps (garbage, a record that is not a
map) is a :class:`JournalError`; nothing is cut then.

Records have no size limit of their own, and a journal is read whole into
memory: each record is one seat change or one accepted action, already
bounded by the protocol's frame limit when it arrived (see
:mod:`net.wire.framing`), so a journal grows with the game, not with what a
client sends. Seat tokens are stored here, so the directory is made private
(0700).
"""

from __future__ import annotations

import errno
import os
import re
from collections import OrderedDict
from pathlib import Path
from typing import Any, BinaryIO, Final

import msgpack

MAX_OPEN_JOURNALS: Final = 64
"""Journal files kept open at once; others are reopened on their next write (the host's
``--max-open-journals``, :class:`net.core.limits.HostLimits`)."""

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")

DAMAGED_SUFFIX = ".damaged"
"""A journal that cannot be replayed is renamed ``<id>.log.damaged`` (then ``.damaged.2``...):
kept for a person to look at, never overwritten, never resumed, its id never handed out again."""

_NUMBERED = re.compile(r"^t(\d+)\.log")
"""The ids the host hands out (``t1``, ``t2``...) as they appear in file names, damaged or not."""


class JournalError(ValueError):
    """A journal file that cannot be read as records."""


FULL_ERRNOS: Final = frozenset({errno.ENOSPC, errno.EDQUOT})
"""Write errors that mean "no room": the disk (or the user's quota) is full."""


class JournalWriteError(OSError):
    """A record could not be written whole; the journal holds no part of it.

    ``reason`` is for players: "its disk is full" or "it cannot write to its disk (...)".
    """

    def __init__(self, error_number: int, strerror: str) -> None:
        super().__init__(error_number, strerror)
        self.full = error_number in FULL_ERRNOS
        self.reason = (
            "its disk is full" if self.full else f"it cannot write to its disk ({strerror})"
        )


def write_error(error: OSError) -> JournalWriteError:
    """``error`` (from writing, cutting or syncing a journal) as a :class:`JournalWriteError`."""
    if isinstance(error, JournalWriteError):
        return error
    number = error.errno if error.errno is not None else errno.EIO
    return JournalWriteError(number, error.strerror or str(error) or "write failed")


class OpenFiles:
    """A bounded set of journal files open for appending; the least recently written is
    closed first and reopened on its next write.

    A host with hundreds of tables would otherwise hold a file descriptor per
    table for good, and run out of them (see :mod:`net.core.limits`).
    """

    def __init__(self, limit: int = MAX_OPEN_JOURNALS) -> None:
        self.limit = max(1, limit)
        self._files: OrderedDict[Path, BinaryIO] = OrderedDict()

    def get(self, path: Path) -> BinaryIO:
        """``path`` open for appending (unbuffered), opened now if it is not."""
        file = self._files.get(path)
        if file is not None:
            self._files.move_to_end(path)
            return file
        while len(self._files) >= self.limit:
            _path, oldest = self._files.popitem(last=False)
            oldest.close()
        file = open(path, "ab", buffering=0)  # noqa: SIM115 - kept in the cache
        self._files[path] = file
        return file

    def close(self, path: Path) -> None:
        file = self._files.pop(path, None)
        if file is not None:
            file.close()

    def __len__(self) -> int:
        return len(self._files)


class TableJournal:
    """The append-only record file of one table (opened when written: :class:`OpenFiles`)."""

    def __init__(self, path: Path, durable: bool = False, files: OpenFiles | None = None) -> None:
        self.path = path
        self.durable = durable
        self._files = files if files is not None else OpenFiles(1)
        self._packer = msgpack.Packer(use_bin_type=True)
        self._whole: int | None = None
        """Where the last whole record ends (``None``: not known yet, the file's size)."""
        self._torn = False
        """Bytes of a refused record may still follow :attr:`_whole` (a cut that failed)."""

    def append(self, record: dict[str, Any]) -> None:
        """Write one record whole and hand it to the OS before returning, or raise
        :class:`JournalWriteError` with the file as it was (see the module docstring)."""
        data = self._packer.pack(record)
        try:
            file = self._files.get(self.path)
            descriptor = file.fileno()
            whole = self._whole
            if whole is None:
                whole = self._whole = os.fstat(descriptor).st_size
            if self._torn:
                os.ftruncate(descriptor, whole)  # before anything else is written after it
                self._torn = False
        except OSError as error:
            raise write_error(error) from None
        try:
            self._write_all(descriptor, data)
            if self.durable:
                os.fsync(descriptor)
        except OSError as error:
            self._torn = True
            try:
                os.ftruncate(descriptor, whole)
                self._torn = False
            except OSError:
                pass  # cut before the next write (see _torn)
            raise write_error(error) from None
        self._whole = whole + len(data)

    @staticmethod
    def _write_all(descriptor: int, data: bytes) -> None:
        """Write every byte of ``data`` (a short write is followed by the rest, or by the
        error that stopped it: ``ENOSPC`` once the disk is full)."""
        view = memoryview(data)
        while view:
            written = os.write(descriptor, view)
            if written <= 0:
                raise OSError(errno.EIO, "the journal's write wrote nothing")
            view = view[written:]

    def close(self) -> None:
        self._files.close(self.path)


def parse_records(data: bytes, name: str) -> tuple[list[dict[str, Any]], int]:
    """The whole records in a journal's bytes, and how many bytes they take.

    Bytes after the last whole record are a record torn by a kill mid-write:
    the caller cuts them off. Raises :class:`JournalError` for anything else.
    """
    unpacker = msgpack.Unpacker(
        use_list=True, raw=False, strict_map_key=True, max_buffer_size=max(len(data), 1)
    )
    unpacker.feed(data)
    records: list[dict[str, Any]] = []
    good = 0
    try:
        for record in unpacker:
            if not isinstance(record, dict):
                raise JournalError(f"{name}: record {len(records) + 1} is not a map")
            records.append(record)
            good = unpacker.tell()
    except (msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, ValueError) as error:
        if isinstance(error, JournalError):
            raise
        raise JournalError(f"{name}: unreadable after {len(records)} records") from None
    return records, good


def read_records(path: Path) -> list[dict[str, Any]]:
    """Every whole record of a journal; a torn last record is cut off the file."""
    data = path.read_bytes()
    records, good = parse_records(data, path.name)
    if good < len(data):
        # A partial record from a kill mid-write: drop it so appends start clean.
        with open(path, "r+b") as file:
            file.truncate(good)
    return records


class StateDir:
    """The host's state directory: one journal per table under ``tables/``."""

    def __init__(
        self, root: Path, durable: bool = False, max_open: int = MAX_OPEN_JOURNALS
    ) -> None:
        self.root = root
        self.durable = durable
        self.tables = root / "tables"
        self.tables.mkdir(parents=True, exist_ok=True)
        self.archive_dir = root / "archive"
        """Journals of closed tables (over, or abandoned), kept for replays; never resumed."""
        os.chmod(root, 0o700)
        self.files = OpenFiles(max_open)
        """The open journal files, shared by every table of this directory."""

    def describe(self, table_id: str) -> str:
        """A table's journal file, for the log."""
        return str(self.tables / f"{table_id}.log")

    def open(self, table_id: str) -> TableJournal:
        if not TABLE_ID.match(table_id):
            raise JournalError(f"{table_id!r} is not a valid table id")
        return TableJournal(self.tables / f"{table_id}.log", self.durable, self.files)

    def create(self, table_id: str) -> TableJournal:
        """A new table's journal; raises :class:`FileExistsError` if the id was ever used."""
        if self.used(table_id):
            raise FileExistsError(f"table id {table_id!r} was used before")
        journal = self.open(table_id)
        with open(journal.path, "xb"):  # never append to another table's records
            pass
        return journal

    def used(self, table_id: str) -> bool:
        """Whether ``table_id`` has a journal here, whole or set aside as damaged."""
        name = f"{table_id}.log"
        return (
            (self.tables / name).exists()
            or (self.archive_dir / name).exists()
            or any(self.tables.glob(f"{name}{DAMAGED_SUFFIX}*"))
        )

    def highest_number(self) -> int:
        """The largest ``N`` of a ``tN`` journal here, damaged ones included (0: none)."""
        archived = self.archive_dir.iterdir() if self.archive_dir.is_dir() else iter(())
        found = (_NUMBERED.match(path.name) for path in (*self.tables.iterdir(), *archived))
        return max((int(match.group(1)) for match in found if match), default=0)

    def table_ids(self) -> list[str]:
        """Every table journal to resume, oldest table first."""
        paths = sorted(self.tables.glob("*.log"), key=lambda p: (len(p.stem), p.stem))
        return [path.stem for path in paths]

    def read(self, table_id: str) -> list[dict[str, Any]]:
        """A table's whole records (a torn last record is cut off); raises :class:`JournalError`."""
        return read_records(self.tables / f"{table_id}.log")

    def discard(self, table_id: str) -> None:
        """Delete a journal just created for a table that was then refused (its id is free)."""
        path = self.tables / f"{table_id}.log"
        self.files.close(path)
        path.unlink(missing_ok=True)

    def archive(self, table_id: str) -> Path | None:
        """Move a closed table's journal to ``archive/`` (for replays); its id stays used.

        Returns the archived file (``None``: the table had no journal here).
        """
        source = self.tables / f"{table_id}.log"
        self.files.close(source)
        if not source.exists():
            return None
        self.archive_dir.mkdir(mode=0o700, exist_ok=True)
        target = self.archive_dir / source.name
        os.replace(source, target)
        return target

    def set_aside(self, table_id: str) -> str:
        """Rename a damaged journal to ``<name>.damaged`` (``.damaged.2``... if taken).

        The new name is claimed with a hard link, which fails rather than
        replace a file, so an earlier damaged copy is never overwritten.
        Returns the name it is kept under.
        """
        path = self.tables / f"{table_id}.log"
        self.files.close(path)
        for number in range(1, 10_000):
            suffix = DAMAGED_SUFFIX if number == 1 else f"{DAMAGED_SUFFIX}.{number}"
            target = path.with_name(path.name + suffix)
            try:
                os.link(path, target)
            except FileExistsError:
                continue
            path.unlink()
            return target.name
        raise JournalError(f"{path.name}: too many damaged copies already")

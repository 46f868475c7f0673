"""A journal record is on file whole or not at all, even when the disk fills up mid-write
(issue 30, finding 1: a 100-byte write returned 42, the host showed the move anyway, and a
later record after the torn one cost the whole table on restart)."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import msgpack
import pytest

from net.store.journal import JournalWriteError, OpenFiles, StateDir, TableJournal, read_records


class Disk:
    """``os.write`` and ``os.ftruncate`` as a filling disk does them: at most ``room`` more
    bytes fit; a write past that writes what fits (a short write) and the next one raises
    ``ENOSPC``; a truncate may be made to fail (``EIO``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, room: int) -> None:
        self.room = room
        self.truncate_fails = False
        self.real_write = os.write
        self.real_truncate = os.ftruncate
        monkeypatch.setattr(os, "write", self.write)
        monkeypatch.setattr(os, "ftruncate", self.ftruncate)

    def write(self, descriptor: int, data: Any) -> int:
        data = bytes(data)
        if self.room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        part = data[: self.room]
        written = self.real_write(descriptor, part)
        self.room -= written
        return written

    def ftruncate(self, descriptor: int, size: int) -> None:
        if self.truncate_fails:
            raise OSError(errno.EIO, "Input/output error")
        before = os.fstat(descriptor).st_size
        self.real_truncate(descriptor, size)
        self.room += max(0, before - size)


def records(path: Path) -> list[dict[str, Any]]:
    return read_records(path)


def journal(tmp_path: Path) -> TableJournal:
    return TableJournal(tmp_path / "t1.log", files=OpenFiles(4))


def test_a_record_is_written_whole_across_short_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = journal(tmp_path)
    calls: list[int] = []
    real = os.write

    def dribble(descriptor: int, data: Any) -> int:  # a writer that takes 3 bytes at a time
        calls.append(len(data))
        return real(descriptor, bytes(data)[:3])

    monkeypatch.setattr(os, "write", dribble)
    log.append({"r": "act", "seat": 0, "action": {"type": "play", "card": "R3"}, "now": 1.5})
    monkeypatch.undo()
    assert len(calls) > 5
    assert records(log.path) == [
        {"r": "act", "seat": 0, "action": {"type": "play", "card": "R3"}, "now": 1.5}
    ]


def test_a_record_the_disk_cannot_hold_is_cut_off_and_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = journal(tmp_path)
    log.append({"r": "table", "id": "t1"})
    size = log.path.stat().st_size
    disk = Disk(monkeypatch, room=5)  # part of the next record fits, then the disk is full
    with pytest.raises(JournalWriteError) as refused:
        log.append({"r": "act", "seat": 0, "action": {"type": "long" * 20}, "now": 2.0})
    assert refused.value.errno == errno.ENOSPC and refused.value.full
    assert refused.value.reason == "its disk is full"
    assert log.path.stat().st_size == size  # nothing of it stays
    disk.room = 1000  # space is back: the next record follows the last whole one
    log.append({"r": "tick", "now": 3.0})
    monkeypatch.undo()
    assert records(log.path) == [{"r": "table", "id": "t1"}, {"r": "tick", "now": 3.0}]


def test_nothing_is_written_after_a_torn_record_even_when_the_cut_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = journal(tmp_path)
    log.append({"r": "table", "id": "t1"})
    disk = Disk(monkeypatch, room=7)
    disk.truncate_fails = True  # the disk refuses even the cut: the torn part stays for now
    with pytest.raises(JournalWriteError):
        log.append({"r": "chat", "text": "x" * 40})
    assert log.path.stat().st_size > len(msgpack.packb({"r": "table", "id": "t1"}))
    with pytest.raises(JournalWriteError):  # still cannot cut: nothing is added after it
        log.append({"r": "chat", "text": "y"})
    disk.truncate_fails = False
    disk.room = 1000
    log.append({"r": "chat", "text": "z"})  # cut first, then written
    monkeypatch.undo()
    assert records(log.path) == [{"r": "table", "id": "t1"}, {"r": "chat", "text": "z"}]


def test_a_failing_disk_is_named_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = journal(tmp_path)

    def broken(descriptor: int, data: Any) -> int:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "write", broken)
    with pytest.raises(JournalWriteError) as refused:
        log.append({"r": "table", "id": "t1"})
    assert not refused.value.full
    assert refused.value.reason == "it cannot write to its disk (Input/output error)"


def test_a_resumed_journal_appends_after_its_last_whole_record(tmp_path: Path) -> None:
    state = StateDir(tmp_path)
    first = state.create("t1")
    first.append({"r": "table", "id": "t1"})
    first.close()
    with open(state.tables / "t1.log", "ab") as file:  # a kill mid-write left half a record
        file.write(msgpack.packb({"r": "tick", "now": 1.0})[:3])
    assert state.read("t1") == [{"r": "table", "id": "t1"}]  # the torn tail is cut on reading
    again = state.open("t1")
    again.append({"r": "tick", "now": 2.0})
    assert state.read("t1") == [{"r": "table", "id": "t1"}, {"r": "tick", "now": 2.0}]

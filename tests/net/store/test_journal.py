"""A table's journal on disk: whole records back, a torn last record cut off, garbage refused."""

from __future__ import annotations

from pathlib import Path

import msgpack
import pytest

from net.store.journal import JournalError, StateDir, read_records


def journal_path(tmp_path: Path, *records: dict[str, object]) -> Path:
    journal = StateDir(tmp_path).open("t1")
    for record in records:
        journal.append(dict(record))
    journal.close()
    return journal.path


def test_records_come_back_in_order(tmp_path: Path) -> None:
    path = journal_path(tmp_path, {"r": "table", "n": 1}, {"r": "seat", "n": 2})
    assert read_records(path) == [{"r": "table", "n": 1}, {"r": "seat", "n": 2}]


def test_a_torn_last_record_is_cut_off_the_file(tmp_path: Path) -> None:
    path = journal_path(tmp_path, {"r": "table"}, {"r": "seat"})
    whole = path.stat().st_size
    with open(path, "ab") as file:
        file.write(msgpack.packb({"r": "act", "now": 1.0})[:-3])
    assert read_records(path) == [{"r": "table"}, {"r": "seat"}]
    assert path.stat().st_size == whole


def test_a_big_record_is_read_back_as_written(tmp_path: Path) -> None:
    # There is no per-record limit: what the host wrote, it reads back.
    big: dict[str, object] = {"r": "act", "action": {"text": "x" * (2 << 20)}}
    path = journal_path(tmp_path, {"r": "table"}, big)
    assert read_records(path) == [{"r": "table"}, big]


@pytest.mark.parametrize("garbage", [b"\xc1\xc1", b"\x01", msgpack.packb([1, 2])])
def test_what_is_not_a_stream_of_maps_is_refused_and_left_alone(
    tmp_path: Path, garbage: bytes
) -> None:
    path = journal_path(tmp_path, {"r": "table"})
    with open(path, "ab") as file:
        file.write(garbage)
    size = path.stat().st_size
    with pytest.raises(JournalError):
        read_records(path)
    assert path.stat().st_size == size


def test_the_state_directory_is_private(tmp_path: Path) -> None:
    StateDir(tmp_path / "state")
    assert (tmp_path / "state").stat().st_mode & 0o777 == 0o700

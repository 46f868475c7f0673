"""The simulated journal store: crash points keep a whole or a torn record, as a killed host
leaves a file, and the next host reads back exactly the whole records."""

from __future__ import annotations

from typing import Any

import pytest

from tests.sim.store import SimStore, SimulatedCrash


def write(store: SimStore, count: int) -> None:
    journal = store.open("t1")
    for number in range(count):
        journal.append({"r": "tick", "now": float(number)})


@pytest.mark.parametrize("keep", [None, 0, 3, 40])
def test_a_crash_keeps_the_record_whole_or_torn(keep: int | None) -> None:
    store = SimStore()
    seen: list[dict[str, Any]] = []
    store.on_record.append(lambda _table, record: seen.append(record))
    store.create("t1").append({"r": "table", "id": "t1"})
    store.crash_at, store.crash_keep = 4, keep
    with pytest.raises(SimulatedCrash):
        write(store, 10)
    whole = 4 if keep is None else 3  # the header, two ticks, and the crashing one if whole
    assert len(seen) == whole, "the listeners saw a record the store did not keep whole"
    records = store.read("t1")
    assert records == seen
    store.crash_at = None
    write(store, 1)  # a restarted host appends after the cut
    assert store.read("t1")[-1] == {"r": "tick", "now": 0.0}
    assert len(store.read("t1")) == whole + 1


def test_a_skipped_record_is_never_kept_nor_seen() -> None:
    store = SimStore()
    seen: list[dict[str, Any]] = []
    store.on_record.append(lambda _table, record: seen.append(record))
    store.skip = lambda _table, data: b"now\xcb@\x00" in data  # the tick at now=2.0
    store.create("t1")
    write(store, 4)
    assert [r["now"] for r in store.read("t1")] == [0.0, 1.0, 3.0] == [r["now"] for r in seen]
    assert store.skipped == ("t1", {"r": "tick", "now": 2.0})

"""The client's estimate of the table clock from views that carry the host's now."""

from __future__ import annotations

import math

import pytest

from net.client.tableclock import NS_PER_S, TableClock

MS = 1_000_000


def test_the_least_lag_sample_wins_and_maps_both_ways() -> None:
    clock = TableClock()
    assert not clock.ready and clock.local_ns(1.0) is None and clock.table_s(0) is None
    offset = 5_000 * NS_PER_S
    for table_s, lag_ms in ((10.0, 7), (12.0, 2), (14.0, 30)):
        clock.observe(table_s, round(table_s * NS_PER_S) + offset + lag_ms * MS)
    assert clock.offset_ns == offset + 2 * MS
    assert clock.local_ns(20.0) == 20 * NS_PER_S + offset + 2 * MS
    assert clock.table_s(20 * NS_PER_S + offset + 2 * MS) == pytest.approx(20.0)
    now = 15 * NS_PER_S + offset
    left = clock.seconds_until(25.0, now)
    assert left is not None and left == pytest.approx(10.002)


def test_old_samples_leave_the_window_so_a_moved_table_clock_is_followed() -> None:
    clock = TableClock(window_ns=10 * NS_PER_S)
    clock.observe(0.0, 1 * NS_PER_S)  # offset 1 s
    clock.observe(100.0, 30 * NS_PER_S)  # the table clock jumped ahead (a host restart)
    assert clock.offset_ns == 30 * NS_PER_S - 100 * NS_PER_S


def test_garbage_is_ignored() -> None:
    clock = TableClock()
    clock.observe(math.nan, 5)
    clock.observe(math.inf, 5)
    assert clock.offset_ns is None
    clock.observe(1.0, 2 * NS_PER_S)
    clock.observe(1.5, 1 * NS_PER_S)  # local clock went back: a caller's mistake
    assert clock.local_ns(0.0) == 1 * NS_PER_S
    with pytest.raises(ValueError):
        TableClock(window_ns=0)

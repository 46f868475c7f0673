"""The per-connection clock estimate: exact geometry, the window, garbage, jitter, drift."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from net.core.clock import (
    FAST_PING_INTERVAL_NS,
    JITTER_TAIL_FACTOR,
    MAX_RTT_NS,
    PING_INTERVAL_NS,
    ClockEstimate,
    PingSample,
    SampleProblem,
)

MS = 1_000_000
S = 1_000_000_000


@dataclass
class SimLink:
    """A simulated connection: fixed path delays plus exponential jitter, and a client
    clock with its own origin and rate (``drift_ppm`` faster than the host's)."""

    up_ns: int
    down_ns: int
    jitter_mean_ns: float
    offset_ns: int
    drift_ppm: float
    rng: random.Random

    def client_clock(self, host_ns: float) -> int:
        return round(host_ns + self.offset_ns + self.drift_ppm * host_ns / 1e6)

    def true_offset(self, host_ns: float) -> float:
        return self.offset_ns + self.drift_ppm * host_ns / 1e6

    def jitter(self) -> float:
        if self.jitter_mean_ns == 0:
            return 0.0
        return self.rng.expovariate(1 / self.jitter_mean_ns)

    def ping(self, sent_ns: int) -> tuple[int, int, int]:
        at_client = sent_ns + self.down_ns + self.jitter()
        received = at_client + self.up_ns + self.jitter()
        return sent_ns, self.client_clock(at_client), round(received)


def feed(estimate: ClockEstimate, link: SimLink, count: int, start_ns: int = S) -> int:
    """Ping once a second; returns the host time after the last ping."""
    now = start_ns
    for _ in range(count):
        result = estimate.add_sample(*link.ping(now))
        assert result.accepted, result.message
        now += PING_INTERVAL_NS
    return now


def test_one_sample_geometry() -> None:
    sample = PingSample(sent_ns=1_000 * MS, client_ns=5_000 * MS, received_ns=1_040 * MS)
    assert sample.rtt_ns == 40 * MS
    assert sample.midpoint_ns == 1_020 * MS
    assert sample.offset_ns == 3_980 * MS


def test_figures_are_none_until_a_sample_then_ready_after_three() -> None:
    empty = ClockEstimate()
    assert (empty.rtt_ns, empty.one_way_ns, empty.offset_ns, empty.jitter_ns) == (None,) * 4
    assert not empty.ready
    estimate = ClockEstimate()
    estimate.add_sample(0, 500 * MS, 30 * MS)
    assert estimate.rtt_ns == 30 * MS
    assert estimate.one_way_ns == 15 * MS
    assert estimate.offset_ns == 485 * MS
    assert estimate.jitter_ns == 0
    assert not estimate.ready
    estimate.add_sample(1 * S, 1_500 * MS, 1 * S + 30 * MS)
    assert not estimate.ready
    estimate.add_sample(2 * S, 2_500 * MS, 2 * S + 30 * MS)
    assert estimate.ready


def test_the_least_delay_sample_wins() -> None:
    estimate = ClockEstimate()
    # True offset 1000 ms; symmetric paths except where queueing hits one way.
    estimate.add_sample(0, 1_000 * MS + 40 * MS, 50 * MS)  # 50 ms trip, 15 ms extra outbound
    estimate.add_sample(1 * S, 1 * S + 1_000 * MS + 10 * MS, 1 * S + 20 * MS)  # clean
    estimate.add_sample(2 * S, 2 * S + 1_000 * MS + 10 * MS, 2 * S + 80 * MS)  # 60 ms extra back
    assert estimate.rtt_ns == 20 * MS
    assert estimate.best == PingSample(1 * S, 1 * S + 1_010 * MS, 1 * S + 20 * MS)
    assert estimate.offset_ns == 1_000 * MS


def test_jitter_is_the_spread_of_recent_round_trips() -> None:
    estimate = ClockEstimate()
    for i, rtt_ms in enumerate([20, 22, 21, 35, 20, 24, 20, 23, 20, 60]):
        estimate.add_sample(i * S, i * S + 10 * MS, i * S + rtt_ms * MS)
    # The slowest of the window (60 ms) minus the least (20 ms): a lag spike seen lately is
    # still credited to a claim that meets one (a faster player is not robbed by it).
    assert estimate.jitter_ns == 40 * MS


def test_jitter_is_at_least_a_tail_of_the_mean_queueing_delay() -> None:
    """A window whose slowest ping understates the tail: the mean excess sets the floor.

    Round trips of 20 ms plus 0-16 ms of queueing: the slowest is 16 ms over the least,
    the mean 8 ms over it, so a claim is allowed 4 x 8 = 32 ms of jitter, not 16.
    """
    estimate = ClockEstimate()
    for i, extra_ms in enumerate([0, 16, 8, 8, 16, 0, 8, 8]):
        estimate.add_sample(i * S, i * S + 10 * MS, i * S + (20 + extra_ms) * MS)
    assert estimate.rtt_ns == 20 * MS
    assert estimate.jitter_ns == JITTER_TAIL_FACTOR * 8 * MS


def test_window_is_bounded_by_count_and_a_slower_connection_shows() -> None:
    estimate = ClockEstimate(window_samples=4)
    estimate.add_sample(0, 10 * MS, 10 * MS)
    for i in range(1, 4):
        estimate.add_sample(i * S, i * S + 25 * MS, i * S + 50 * MS)
    assert estimate.rtt_ns == 10 * MS
    estimate.add_sample(4 * S, 4 * S + 25 * MS, 4 * S + 50 * MS)
    assert len(estimate.samples) == 4
    assert estimate.rtt_ns == 50 * MS


def test_window_is_bounded_by_age() -> None:
    estimate = ClockEstimate(window_age_ns=10 * S)
    estimate.add_sample(0, 10 * MS, 10 * MS)
    estimate.add_sample(5 * S, 5 * S + 25 * MS, 5 * S + 50 * MS)
    assert estimate.rtt_ns == 10 * MS
    estimate.add_sample(11 * S, 11 * S + 25 * MS, 11 * S + 50 * MS)
    assert [s.sent_ns for s in estimate.samples] == [5 * S, 11 * S]
    assert estimate.rtt_ns == 50 * MS


def ready_estimate() -> ClockEstimate:
    estimate = ClockEstimate()
    for i in range(3):
        estimate.add_sample(i * S, i * S + 510 * MS, i * S + 20 * MS)
    return estimate


@pytest.mark.parametrize(
    ("sample", "problem"),
    [
        ((10 * S, 10 * S + 510 * MS, 10 * S - 1 * MS), SampleProblem.NEGATIVE_RTT),
        ((10 * S, 10 * S + 510 * MS, 10 * S + MAX_RTT_NS + 1), SampleProblem.RTT_TOO_LONG),
        ((2 * S, 2 * S + 510 * MS, 2 * S + 20 * MS), SampleProblem.NOT_NEWER),
        ((1 * S, 1 * S + 510 * MS, 1 * S + 15 * MS), SampleProblem.NOT_NEWER),
        ((10 * S, 2 * S, 10 * S + 20 * MS), SampleProblem.CLIENT_CLOCK_BACKWARDS),
        ((10 * S, 10 * S + 900 * MS, 10 * S + 20 * MS), SampleProblem.OFFSET_INCONSISTENT),
    ],
)
def test_garbage_samples_are_ignored_with_a_reason(
    sample: tuple[int, int, int], problem: SampleProblem
) -> None:
    estimate = ready_estimate()
    before = (estimate.samples, estimate.rtt_ns, estimate.offset_ns, estimate.jitter_ns)
    result = estimate.add_sample(*sample)
    assert not result.accepted
    assert result.problem is problem
    assert result.message
    assert (estimate.samples, estimate.rtt_ns, estimate.offset_ns, estimate.jitter_ns) == before
    assert estimate.rejected[problem] == 1


def test_an_offset_within_the_round_trip_bounds_is_consistent() -> None:
    estimate = ready_estimate()
    # Best sample: offset 500 ms +- 10 ms. A 100 ms trip may be 50 ms off on its own.
    result = estimate.add_sample(10 * S, 10 * S + 50 * MS + 545 * MS, 10 * S + 100 * MS)
    assert result.accepted


def test_a_real_clock_jump_is_accepted_after_repeated_evidence() -> None:
    estimate = ready_estimate()
    results = [
        estimate.add_sample(t * S, t * S + 10 * MS + 2_000 * MS, t * S + 20 * MS)
        for t in (10, 11, 12)
    ]
    assert [r.accepted for r in results] == [False, False, True]
    assert estimate.offset_ns == 2_000 * MS
    assert len(estimate.samples) == 1


def test_converges_under_jitter() -> None:
    rng = random.Random(7)
    link = SimLink(
        up_ns=18 * MS,
        down_ns=22 * MS,
        jitter_mean_ns=5 * MS,
        offset_ns=-3_700 * S,
        drift_ppm=0.0,
        rng=rng,
    )
    estimate = ClockEstimate()
    raw_rtts = [link.ping(i * S) for i in range(16)]
    for sample in raw_rtts:
        assert estimate.add_sample(*sample).accepted
    true_rtt = 40 * MS
    mean_rtt = sum(r - s for s, _, r in raw_rtts) / len(raw_rtts)
    assert estimate.rtt_ns is not None
    assert estimate.offset_ns is not None
    assert estimate.jitter_ns is not None
    # The minimum filter removes nearly all queueing; the mean would not.
    assert true_rtt <= estimate.rtt_ns <= true_rtt + 8 * MS
    assert mean_rtt - true_rtt > 5 * MS
    # NTP's bound: the offset is off by at most half the excess delay plus the
    # path asymmetry (22 - 18 ms here, of which half shows in the offset).
    excess = estimate.rtt_ns - true_rtt
    offset_error = abs(estimate.offset_ns - link.true_offset(0))
    assert offset_error <= excess / 2 + 2 * MS + 1
    assert 0 < estimate.jitter_ns < 40 * MS
    assert estimate.rejected.total() == 0


def test_tracks_drift() -> None:
    rng = random.Random(11)
    link = SimLink(
        up_ns=2 * MS,
        down_ns=2 * MS,
        jitter_mean_ns=0.1 * MS,
        offset_ns=12 * S,
        drift_ppm=300.0,
        rng=rng,
    )
    estimate = ClockEstimate()
    now = feed(estimate, link, 40)
    assert estimate.drift_ppm == pytest.approx(300.0, abs=30.0)
    # The offset as of the newest sample follows the drifting clock, even though
    # the least-delay sample may be many seconds old.
    newest = estimate.samples[-1]
    assert estimate.offset_ns == pytest.approx(link.true_offset(newest.midpoint_ns), abs=1 * MS)
    # Without drift the best sample's raw offset would be stale by over a millisecond.
    best = estimate.best
    assert best is not None
    assert newest.midpoint_ns - best.midpoint_ns >= 5 * S
    assert abs(best.offset_ns - link.true_offset(newest.midpoint_ns)) > 1 * MS
    # Mapping a client reading back onto the host clock.
    host_ns = now - PING_INTERVAL_NS
    mapped = estimate.to_host_ns(link.client_clock(host_ns))
    assert mapped == pytest.approx(host_ns, abs=1 * MS)


def test_no_drift_fitted_on_a_steady_clock() -> None:
    link = SimLink(3 * MS, 3 * MS, 0.2 * MS, 5 * S, 0.0, random.Random(3))
    estimate = ClockEstimate()
    feed(estimate, link, 20)
    assert estimate.drift_ppm == pytest.approx(0.0, abs=60.0)


def test_ping_schedule_is_fast_until_ready_then_steady() -> None:
    estimate = ClockEstimate()
    assert estimate.next_ping_ns(now_ns=123) == 123
    estimate.note_ping_sent(1 * S)
    assert estimate.next_ping_ns(now_ns=1 * S) == 1 * S + FAST_PING_INTERVAL_NS
    for i in range(3):
        estimate.add_sample(i * S, i * S + 5 * MS, i * S + 10 * MS)
    estimate.note_ping_sent(3 * S)
    assert estimate.next_ping_ns(now_ns=3 * S) == 3 * S + PING_INTERVAL_NS
    # A lost answer does not stall the schedule: it follows pings sent.
    assert estimate.next_ping_ns(now_ns=9 * S) == 3 * S + PING_INTERVAL_NS


@pytest.mark.parametrize(
    "kwargs",
    [
        {"window_samples": 0},
        {"min_samples": 5, "window_samples": 4},
        {"window_age_ns": 0},
        {"ping_interval_ns": -1},
        {"fast_ping_interval_ns": 0},
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        ClockEstimate(**kwargs)

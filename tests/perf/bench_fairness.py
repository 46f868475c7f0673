"""Fairness: how often the truly faster player gets the card.

Simulated players on connections whose one-way latencies differ (0 to 150 ms
each way, a little asymmetric, with exponential jitter of 0.5 to 10 ms mean
per packet) race for a reveal; one of the two truly reacts faster by a chosen
margin. Every contest goes through the real :class:`net.clock.ClockEstimate`
(each connection is first measured with 16 simulated pings, paced by its
``next_ping_ns``, from a client clock with its own origin and drift) and the
real :class:`net.arbiter.Arbiter`, driven as a host would drive it: a claim
that arrives after the deadline finds the reveal already decided.

The timeline of one claim, in host time::

    arrival = sent + down + draw + reaction + up

``draw`` (1 to 25 ms) is the client's rendering before it stamps "drawn";
the reported reaction is the true one plus the error of two stamps (up to
1 ms each). The baseline, in the same run on the same contests, is the
arrival-order rule: the first packet to reach the host wins.

Rows: ``margin_ms``; ``fair_win_rate`` (the faster player got it alone);
``ties`` (the arbiter called a tie); ``arrival_order_win_rate``;
``too_late`` (claims that arrived after the decision); settle-window figures.
The random generator is seeded, so a run is reproducible; each margin replays
the same connections, pairings and reactions, only the margin differs.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from typing import Any

from net.arbiter import Accepted, Arbiter, RefusalReason
from net.clock import ClockEstimate
from tests.perf.report import Report

MS = 1_000_000
S = 1_000_000_000
SEED = 20240607
MARGINS_MS = (10, 20, 50)
FULL = {"contests": 10_000, "connections": 200}
QUICK = {"contests": 500, "connections": 40}
PINGS = 16
MAX_ONE_WAY_MS = 150.0
GRAB = {"type": "grab"}


@dataclass
class Connection:
    """One simulated player's link and clock."""

    down_ns: float
    up_ns: float
    jitter_mean_ns: float
    clock_offset_ns: int
    drift_ppm: float
    estimate: ClockEstimate

    def delay(self, base_ns: float, rng: random.Random) -> float:
        return base_ns + rng.expovariate(1 / self.jitter_mean_ns)

    def client_clock(self, host_ns: float) -> int:
        return round(host_ns + self.clock_offset_ns + self.drift_ppm * host_ns / 1e6)


def connect(rng: random.Random) -> Connection:
    """A connection with random latency, measured by pings until the window is full."""
    one_way = rng.uniform(0, MAX_ONE_WAY_MS) * MS
    connection = Connection(
        down_ns=one_way,
        up_ns=min(MAX_ONE_WAY_MS * MS, one_way * rng.uniform(0.8, 1.2)),
        jitter_mean_ns=rng.uniform(0.5, 10) * MS,
        clock_offset_ns=rng.randrange(-(10**12), 10**12),
        drift_ppm=rng.uniform(-100, 100),
        estimate=ClockEstimate(),
    )
    estimate = connection.estimate
    now = rng.randrange(S, 100 * S)
    while len(estimate.samples) < PINGS:
        now = estimate.next_ping_ns(now)
        estimate.note_ping_sent(now)
        at_client = now + connection.delay(connection.down_ns, rng)
        back = at_client + connection.delay(connection.up_ns, rng)
        estimate.add_sample(now, connection.client_clock(at_client), round(back))
    return connection


@dataclass
class Tally:
    fair_wins: int = 0
    ties: int = 0
    arrival_wins: int = 0
    too_late: int = 0
    contests: int = 0

    def __post_init__(self) -> None:
        self.settle_ns: list[int] = []


def contest(
    arbiter: Arbiter,
    reveal_id: int,
    pair: tuple[Connection, Connection],
    fast_seat: int,
    reaction_ns: float,
    margin_ns: float,
    rng: random.Random,
    tally: Tally,
) -> None:
    """One reveal, two claims, driven in host-time order."""
    sent = 1_000 * S + reveal_id * 10 * S
    arbiter.open(reveal_id, sent, {0: pair[0].estimate, 1: pair[1].estimate})
    claims: list[tuple[int, int, int]] = []  # (arrival, seat, reported)
    for seat, connection in enumerate(pair):
        true_reaction = reaction_ns + (0 if seat == fast_seat else margin_ns)
        arrival = (
            sent
            + connection.delay(connection.down_ns, rng)
            + rng.uniform(1, 25) * MS
            + true_reaction
            + connection.delay(connection.up_ns, rng)
        )
        stamp_error = rng.uniform(0, 1) * MS - rng.uniform(0, 1) * MS
        claims.append((round(arrival), seat, round(true_reaction + stamp_error)))
    claims.sort()
    decision = None
    for arrival, seat, reported in claims:
        deadline = arbiter.deadline_ns()
        if decision is None and deadline is not None and deadline < arrival:
            decision = arbiter.decide(deadline)
        result = arbiter.claim(reveal_id, seat, GRAB, reported, arrival)
        if not isinstance(result, Accepted):
            if result.reason is not RefusalReason.TOO_LATE:
                raise AssertionError(f"an honest claim was refused: {result.message}")
            tally.too_late += 1
    if decision is None:
        deadline = arbiter.deadline_ns()
        assert deadline is not None
        decision = arbiter.decide(deadline)
    assert decision is not None
    tally.contests += 1
    tally.settle_ns.append(decision.settle_ns)
    if decision.tie:
        tally.ties += 1
    elif decision.winner == fast_seat:
        tally.fair_wins += 1
    if claims[0][1] == fast_seat:
        tally.arrival_wins += 1


def run_margin(pool: list[Connection], margin_ms: int, contests: int) -> dict[str, Any]:
    rng = random.Random(SEED + 1)  # the same contests for every margin
    arbiter = Arbiter()
    tally = Tally()
    for reveal_id in range(contests):
        first, second = rng.sample(range(len(pool)), 2)
        contest(
            arbiter,
            reveal_id,
            (pool[first], pool[second]),
            fast_seat=rng.randrange(2),
            reaction_ns=rng.uniform(150, 450) * MS,
            margin_ns=margin_ms * MS,
            rng=rng,
            tally=tally,
        )
    settle = sorted(tally.settle_ns)
    return {
        "margin_ms": margin_ms,
        "contests": tally.contests,
        "fair_win_rate": tally.fair_wins / tally.contests,
        "ties": tally.ties,
        "arrival_order_win_rate": tally.arrival_wins / tally.contests,
        "too_late": tally.too_late,
        "mean_settle_ms": statistics.fmean(settle) / MS,
        "p99_settle_ms": settle[min(len(settle) - 1, round(0.99 * len(settle)))] / MS,
    }


def measure(quick: bool) -> Report:
    sizes = QUICK if quick else FULL
    pool_rng = random.Random(SEED)
    pool = [connect(pool_rng) for _ in range(sizes["connections"])]
    rows = [run_margin(pool, margin, sizes["contests"]) for margin in MARGINS_MS]
    rtts = sorted(c.estimate.rtt_ns or 0 for c in pool)
    return Report(
        name="fairness",
        columns=[
            "margin_ms",
            "contests",
            "fair_win_rate",
            "ties",
            "arrival_order_win_rate",
            "too_late",
            "mean_settle_ms",
            "p99_settle_ms",
        ],
        rows=rows,
        notes=[
            f"{len(pool)} connections, one-way 0-{MAX_ONE_WAY_MS:.0f} ms with jitter; measured "
            f"round trips {rtts[0] / MS:.1f} to {rtts[-1] / MS:.1f} ms "
            f"(median {rtts[len(rtts) // 2] / MS:.1f} ms)",
            "fair: net.arbiter with net.clock estimates; baseline: first packet to arrive wins",
            "goal: fair_win_rate >= 0.99 at a 20 ms margin",
        ],
    )

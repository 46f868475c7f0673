"""The arbiter: crediting lag, the settle window, ties, refusals and explanations."""

from __future__ import annotations

from collections.abc import Mapping

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from net.core.arbiter import (
    DRAW_ALLOWANCE_NS,
    HUMAN_MIN_REACTION_NS,
    MAX_LAG_CREDIT_NS,
    MAX_SETTLE_NS,
    MIN_SETTLE_NS,
    NO_LAG,
    TIE_THRESHOLD_NS,
    Accepted,
    Arbiter,
    ArbiterUsageError,
    Decision,
    LagSource,
    RefusalReason,
    Refused,
    SeatLag,
)
from net.core.clock import ClockEstimate

MS = 1_000_000
S = 1_000_000_000
SENT = 100 * S  # the host's clock when the reveal went out
GRAB = {"type": "grab", "pile": 1}
NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}


def lag(rtt_ms: float | None, jitter_ms: float = 0) -> SeatLag:
    return SeatLag(
        rtt_ns=None if rtt_ms is None else round(rtt_ms * MS), jitter_ns=round(jitter_ms * MS)
    )


def opened(seats: Mapping[int, LagSource], **settings: int) -> Arbiter:
    arbiter = Arbiter(**settings)
    arbiter.open(1, SENT, seats)
    return arbiter


def accepted(result: Accepted | Refused) -> Accepted:
    assert isinstance(result, Accepted), result
    return result


def refused(result: Accepted | Refused) -> Refused:
    assert isinstance(result, Refused), result
    return result


def decided(arbiter: Arbiter, now_ns: int) -> Decision:
    decision = arbiter.decide(now_ns)
    assert decision is not None
    return decision


# --------------------------------------------------------------------------- exact cases


def test_the_faster_reaction_wins_although_its_packet_arrives_later() -> None:
    # Ann: 10 ms each way, draws in 5 ms, reacts in 250 ms -> arrives at +275 ms.
    # Bob: 100 ms each way, draws in 5 ms, reacts in 230 ms -> arrives at +435 ms.
    arbiter = opened({0: lag(20), 1: lag(200)})
    ann = accepted(arbiter.claim(1, 0, GRAB, 250 * MS, SENT + 275 * MS))
    assert ann.claim.credited_ns == 250 * MS
    # Bob could still win if his claim arrives by S + 250 + tie + (200 + 30) ms.
    assert ann.deadline_ns == SENT + (250 + 5 + 230) * MS
    assert arbiter.deadline_ns() == ann.deadline_ns
    assert arbiter.decide(ann.deadline_ns - 1) is None
    bob = accepted(arbiter.claim(1, 1, GRAB, 230 * MS, SENT + 435 * MS))
    assert bob.claim.credited_ns == 230 * MS
    assert bob.claim.lag_credited_ns == 205 * MS
    assert bob.deadline_ns == SENT + 435 * MS  # everyone has claimed
    decision = decided(arbiter, SENT + 435 * MS)
    assert decision.winner == 1
    assert decision.winners == (1,)
    assert not decision.tie
    assert decision.margin_ns == 20 * MS
    assert decision.behind_ns(0) == 20 * MS
    assert decision.behind_ns(1) == 0
    assert decision.behind_ns(2) is None
    assert decision.settle_ns == 160 * MS
    assert [claim.seat for claim in decision.claims] == [1, 0]
    assert arbiter.current_reveal is None
    assert arbiter.last_decision is decision


def test_explain_gives_the_figures() -> None:
    arbiter = opened({0: lag(20), 1: lag(200, jitter_ms=8)})
    arbiter.claim(1, 0, GRAB, 250 * MS, SENT + 275 * MS)
    arbiter.claim(1, 1, GRAB, 230 * MS, SENT + 435 * MS)
    text = decided(arbiter, SENT + 435 * MS).explain(NAMES)
    assert text.splitlines()[0] == (
        "Bob got reveal #1 with a reaction that counted as 230 ms, 20 ms ahead of Ann (250 ms)."
    )
    assert "Bob reported 230 ms; the claim arrived 435 ms after the reveal was sent" in text
    assert "round trip 200 ms + jitter 8.0 ms + 30 ms for drawing" in text
    assert "The host waited 160 ms after the first claim" in text


def test_explain_without_names_uses_seats() -> None:
    arbiter = opened({1: lag(10)})
    arbiter.claim(1, 1, GRAB, 200 * MS, SENT + 220 * MS)
    text = decided(arbiter, SENT + 220 * MS).explain()
    assert text.startswith("seat 1 got reveal #1 with a reaction that counted as 200 ms;")
    assert "nobody else claimed it in time" in text


def test_a_single_claim_waits_for_the_others_then_wins() -> None:
    arbiter = opened({0: lag(10), 1: lag(50)})
    first = accepted(arbiter.claim(1, 0, GRAB, 300 * MS, SENT + 320 * MS))
    assert first.deadline_ns == SENT + (300 + 5 + 80) * MS
    assert arbiter.decide(first.deadline_ns - 1) is None
    decision = decided(arbiter, first.deadline_ns)
    assert decision.winner == 0
    assert decision.margin_ns is None
    assert decision.decided_ns == first.deadline_ns


# --------------------------------------------------------------------------- ties


def test_claims_within_the_tie_threshold_are_a_tie() -> None:
    arbiter = opened({0: lag(10), 1: lag(10), 2: lag(10)})
    arbiter.claim(1, 0, GRAB, 200 * MS, SENT + 215 * MS)
    arbiter.claim(1, 1, GRAB, 200 * MS + TIE_THRESHOLD_NS, SENT + 220 * MS)
    arbiter.claim(1, 2, GRAB, 200 * MS + TIE_THRESHOLD_NS + 1, SENT + 221 * MS)
    decision = decided(arbiter, SENT + 221 * MS)
    assert decision.tie
    assert decision.winners == (0, 1)
    assert decision.winner is None
    assert decision.margin_ns == TIE_THRESHOLD_NS
    text = decision.explain(NAMES)
    assert text.startswith("Ann and Bob tied for reveal #1")
    assert "5.0 ms tie threshold" in text


def test_a_zero_tie_threshold_still_ties_equal_reactions() -> None:
    arbiter = opened({0: lag(10), 1: lag(10)}, tie_threshold_ns=0)
    arbiter.claim(1, 1, GRAB, 200 * MS, SENT + 215 * MS)
    arbiter.claim(1, 0, GRAB, 200 * MS, SENT + 216 * MS)
    decision = decided(arbiter, SENT + 216 * MS)
    assert decision.winners == (1, 0)  # the earlier arrival is listed first


# --------------------------------------------------------------------------- lag credit, cheating


def test_a_cheater_claiming_a_tiny_reaction_is_not_credited_beyond_the_cap() -> None:
    # Mallory delays her pongs so her round trip measures 1 s, and claims the
    # fastest reaction allowed. Her claim arrives 1.2 s after the reveal.
    arbiter = opened({0: lag(1000), 1: lag(0)})
    mallory = accepted(arbiter.claim(1, 0, GRAB, HUMAN_MIN_REACTION_NS, SENT + 1_200 * MS))
    assert mallory.claim.lag.capped
    assert mallory.claim.lag_credited_ns == MAX_LAG_CREDIT_NS
    assert mallory.claim.credited_ns == 1_200 * MS - MAX_LAG_CREDIT_NS
    assert mallory.claim.raised
    honest = accepted(arbiter.claim(1, 1, GRAB, 700 * MS, SENT + 702 * MS))
    assert not honest.claim.raised
    decision = decided(arbiter, SENT + 1_200 * MS)
    assert decision.winner == 1
    text = decision.explain({0: "Mallory", 1: "Bob"})
    assert "Mallory reported 80 ms, but the claim arrived 1200 ms after" in text
    assert "capped at 400 ms), so it counts as 800 ms." in text


def test_a_host_on_time_does_not_wait_for_a_claim_beyond_the_cap() -> None:
    # The same cheat, with the host deciding at the deadline as it should.
    arbiter = opened({0: lag(1000), 1: lag(0)})
    honest = accepted(arbiter.claim(1, 1, GRAB, 700 * MS, SENT + 702 * MS))
    assert honest.deadline_ns == SENT + (700 + 5) * MS + MAX_LAG_CREDIT_NS
    decision = decided(arbiter, honest.deadline_ns)
    assert decision.winner == 1
    late = refused(arbiter.claim(1, 0, GRAB, HUMAN_MIN_REACTION_NS, SENT + 1_200 * MS))
    assert late.reason is RefusalReason.TOO_LATE


def test_a_low_lag_liar_gains_only_her_small_allowance() -> None:
    arbiter = opened({0: lag(4, jitter_ms=1), 1: lag(4)})
    liar = accepted(arbiter.claim(1, 0, GRAB, 100 * MS, SENT + 300 * MS))
    assert liar.claim.credited_ns == (300 - 35) * MS


def test_an_unmeasured_connection_gets_the_cap() -> None:
    arbiter = opened({0: lag(None), 1: lag(10)})
    assert arbiter.lag_of(0) is not None
    assert not arbiter.lag_of(0).measured  # type: ignore[union-attr]
    claim = accepted(arbiter.claim(1, 0, GRAB, 100 * MS, SENT + 900 * MS)).claim
    assert claim.credited_ns == 900 * MS - MAX_LAG_CREDIT_NS
    arbiter.claim(1, 1, GRAB, 600 * MS, SENT + 620 * MS)
    text = decided(arbiter, SENT + 900 * MS).explain(NAMES)
    assert "connection not measured yet, so the 400 ms cap" in text


def test_a_clock_estimate_is_a_lag_source() -> None:
    estimate = ClockEstimate()
    for i, rtt_ms in enumerate([30, 40, 30, 30, 30]):
        estimate.add_sample(i * S, i * S + 15 * MS, i * S + rtt_ms * MS)
    arbiter = opened({0: estimate, 1: NO_LAG})
    figures = arbiter.lag_of(0)
    assert figures is not None
    assert figures.rtt_ns == 30 * MS
    assert figures.jitter_ns == 10 * MS
    assert figures.allowance_ns == 30 * MS + 10 * MS + DRAW_ALLOWANCE_NS


@given(
    rtt_ms=st.integers(0, 300),
    jitter_ms=st.integers(0, 50),
    draw_share=st.floats(0, 1),
    lag_share=st.floats(0, 1),
    reaction_ms=st.integers(80, 3000),
)
def test_honest_claims_keep_their_reported_reaction(
    rtt_ms: int, jitter_ms: int, draw_share: float, lag_share: float, reaction_ms: int
) -> None:
    """Whatever part of its measured lag a path uses, an honest reaction stands (below the cap)."""
    seat_lag = lag(rtt_ms, jitter_ms)
    arbiter = opened({0: seat_lag})
    path_ns = round(((rtt_ms + jitter_ms) * lag_share) * MS)
    draw_ns = round(DRAW_ALLOWANCE_NS * draw_share)
    arrival = SENT + path_ns + draw_ns + reaction_ms * MS
    claim = accepted(arbiter.claim(1, 0, GRAB, reaction_ms * MS, arrival)).claim
    if rtt_ms + jitter_ms + DRAW_ALLOWANCE_NS // MS <= MAX_LAG_CREDIT_NS // MS:
        assert claim.credited_ns == reaction_ms * MS
    assert claim.credited_ns >= claim.since_reveal_ns - MAX_LAG_CREDIT_NS


@given(
    rtt_ms=st.integers(0, 2000),
    since_ms=st.integers(80, 5000),
    reported_ms=st.integers(80, 5000),
)
def test_no_claim_is_credited_more_lag_than_its_allowance(
    rtt_ms: int, since_ms: int, reported_ms: int
) -> None:
    arbiter = opened({0: lag(rtt_ms)})
    result = arbiter.claim(1, 0, GRAB, reported_ms * MS, SENT + since_ms * MS)
    if reported_ms > since_ms + 2 + since_ms // 1000:
        assert refused(result).reason is RefusalReason.SLOWER_THAN_POSSIBLE
        return
    claim = accepted(result).claim
    assert claim.credited_ns >= claim.reported_ns
    assert claim.lag_credited_ns <= min(MAX_LAG_CREDIT_NS, rtt_ms * MS + DRAW_ALLOWANCE_NS)


# --------------------------------------------------------------------------- the settle window


def test_the_settle_window_has_a_floor() -> None:
    arbiter = opened({0: NO_LAG, 1: NO_LAG}, draw_allowance_ns=0, tie_threshold_ns=0)
    first = accepted(arbiter.claim(1, 0, GRAB, 300 * MS, SENT + 300 * MS))
    assert first.deadline_ns == SENT + 300 * MS + MIN_SETTLE_NS


def test_the_settle_window_has_a_ceiling() -> None:
    arbiter = opened({0: lag(10), 1: lag(None)}, lag_cap_ns=3 * S)
    first = accepted(arbiter.claim(1, 0, GRAB, 300 * MS, SENT + 310 * MS))
    assert first.deadline_ns == SENT + 310 * MS + MAX_SETTLE_NS


def test_a_better_claim_brings_the_deadline_forward() -> None:
    arbiter = opened({0: lag(10), 1: lag(10), 2: lag(100)})
    slow = accepted(arbiter.claim(1, 0, GRAB, 400 * MS, SENT + 420 * MS))
    assert slow.deadline_ns == SENT + (400 + 5 + 130) * MS
    fast = accepted(arbiter.claim(1, 1, GRAB, 390 * MS, SENT + 425 * MS))
    assert fast.claim.credited_ns == 390 * MS
    assert fast.deadline_ns == SENT + (390 + 5 + 130) * MS


@given(
    lags_ms=st.lists(st.integers(0, 300), min_size=2, max_size=4),
    reactions_ms=st.lists(st.integers(120, 600), min_size=4, max_size=4),
    paths=st.lists(st.floats(0, 1), min_size=4, max_size=4),
)
def test_nothing_that_arrives_after_the_deadline_could_have_won(
    lags_ms: list[int], reactions_ms: list[int], paths: list[float]
) -> None:
    """The deadline is the latest a claim that could still win or tie may arrive."""
    seats = {seat: lag(rtt) for seat, rtt in enumerate(lags_ms)}
    arrivals = sorted(
        (SENT + round(rtt * paths[seat] * MS) + reactions_ms[seat] * MS, seat)
        for seat, rtt in enumerate(lags_ms)
    )
    arbiter = opened(seats)
    best: int | None = None
    for arrival, seat in arrivals:
        deadline = arbiter.deadline_ns()
        claim = accepted(arbiter.claim(1, seat, GRAB, reactions_ms[seat] * MS, arrival)).claim
        if deadline is not None and arrival > deadline:
            assert best is not None
            assert claim.credited_ns > best + TIE_THRESHOLD_NS
        best = claim.credited_ns if best is None else min(best, claim.credited_ns)


def test_decide_waits_for_a_claim() -> None:
    arbiter = opened({0: lag(10)})
    assert arbiter.deadline_ns() is None
    assert arbiter.decide(SENT + 10 * S) is None
    assert Arbiter().decide(SENT) is None


# --------------------------------------------------------------------------- refusals


def test_each_implausible_claim_is_refused_with_its_reason() -> None:
    arbiter = opened({0: lag(10), 1: lag(10), 2: lag(10)})
    cases = [
        (arbiter.claim(7, 0, GRAB, 200 * MS, SENT + 230 * MS), RefusalReason.NOT_CURRENT),
        (arbiter.claim(1, 5, GRAB, 200 * MS, SENT + 230 * MS), RefusalReason.NOT_A_PLAYER),
        (arbiter.claim(1, 0, GRAB, -3 * MS, SENT + 230 * MS), RefusalReason.NEGATIVE_REACTION),
        (arbiter.claim(1, 0, GRAB, 79 * MS, SENT + 230 * MS), RefusalReason.TOO_FAST),
        (
            arbiter.claim(1, 0, GRAB, 240 * MS, SENT + 230 * MS),
            RefusalReason.SLOWER_THAN_POSSIBLE,
        ),
    ]
    for result, reason in cases:
        refusal = refused(result)
        assert refusal.reason is reason
        assert refusal.message
    # A refused claim does not use up the seat's claim.
    accepted(arbiter.claim(1, 0, GRAB, 210 * MS, SENT + 230 * MS))
    duplicate = refused(arbiter.claim(1, 0, GRAB, 150 * MS, SENT + 231 * MS))
    assert duplicate.reason is RefusalReason.DUPLICATE
    assert duplicate.message == "You already claimed reveal #1; only your first claim counts."
    decision = decided(arbiter, SENT + 10 * S)
    assert [r.reason for r in decision.refused] == [
        RefusalReason.NOT_A_PLAYER,
        RefusalReason.NEGATIVE_REACTION,
        RefusalReason.TOO_FAST,
        RefusalReason.SLOWER_THAN_POSSIBLE,
        RefusalReason.DUPLICATE,
    ]
    text = decision.explain(NAMES)
    assert "A claim by Ann was refused: A reaction of 79 ms is faster than a person" in text


def test_the_human_floor_is_an_argument() -> None:
    arbiter = opened({0: lag(10)}, min_reaction_ns=50 * MS)
    accepted(arbiter.claim(1, 0, GRAB, 60 * MS, SENT + 80 * MS))
    arbiter = opened({0: lag(10)}, min_reaction_ns=150 * MS)
    assert refused(arbiter.claim(1, 0, GRAB, 140 * MS, SENT + 160 * MS)).reason is (
        RefusalReason.TOO_FAST
    )


def test_the_next_reveal_can_open_at_once_and_late_claims_are_told() -> None:
    arbiter = opened({0: lag(10), 1: lag(10)})
    arbiter.claim(1, 0, GRAB, 200 * MS, SENT + 220 * MS)
    arbiter.claim(1, 1, GRAB, 250 * MS, SENT + 270 * MS)
    first = decided(arbiter, SENT + 270 * MS)
    late = refused(arbiter.claim(1, 1, GRAB, 250 * MS, SENT + 275 * MS))
    assert late.reason is RefusalReason.TOO_LATE
    assert late.decision is first
    arbiter.open(2, SENT + 271 * MS, {0: lag(10), 1: lag(10)})
    assert arbiter.current_reveal == 2
    assert refused(arbiter.claim(1, 0, GRAB, 250 * MS, SENT + 280 * MS)).reason is (
        RefusalReason.TOO_LATE
    )
    stale = refused(arbiter.claim(0, 0, GRAB, 250 * MS, SENT + 280 * MS))
    assert stale.reason is RefusalReason.NOT_CURRENT
    assert stale.message == "Reveal #0 is not in play (#2 is)."
    accepted(arbiter.claim(2, 1, GRAB, 200 * MS, SENT + 500 * MS))


def test_host_mistakes_raise() -> None:
    arbiter = opened({0: lag(10)})
    with pytest.raises(ArbiterUsageError, match="still open"):
        arbiter.open(2, SENT, {0: lag(10)})
    with pytest.raises(ArbiterUsageError, match="before the reveal was sent"):
        arbiter.claim(1, 0, GRAB, 200 * MS, SENT - 1)
    arbiter.abandon()
    assert arbiter.current_reveal is None
    with pytest.raises(ArbiterUsageError, match="no seats"):
        arbiter.open(2, SENT, {})
    arbiter.open(2, SENT, {0: lag(10)})
    with pytest.raises(ValueError, match="cannot be negative"):
        Arbiter(tie_threshold_ns=-1)
    with pytest.raises(ValueError, match="above max_settle_ns"):
        Arbiter(min_settle_ns=2 * S, max_settle_ns=1 * S)


def test_a_decision_is_msgpack_ready() -> None:
    arbiter = opened({0: lag(10), 1: lag(None)})
    arbiter.claim(1, 0, GRAB, 70 * MS, SENT + 90 * MS)
    arbiter.claim(1, 0, GRAB, 200 * MS, SENT + 220 * MS)
    arbiter.claim(1, 1, GRAB, 210 * MS, SENT + 230 * MS)
    decision = decided(arbiter, SENT + 230 * MS)
    data = decision.to_data()
    assert msgpack.unpackb(msgpack.packb(data)) == data
    assert data["winners"] == [0]
    assert data["margin_ns"] == 10 * MS
    assert data["claims"][1]["lag"]["rtt_ns"] is None
    assert data["refused"][0]["reason"] == "too_fast"


def test_in_simulated_contests_the_faster_player_wins_far_more_than_by_arrival() -> None:
    """A seeded quick run of the fairness benchmark, checked for its shape and its verdict."""
    from tests.perf import bench_fairness

    report = bench_fairness.measure(quick=True)
    grabs = [row for row in report.rows if row["contest"] == "grab"]
    assert [row["margin_ms"] for row in grabs] == [10, 20, 50]
    for row in grabs:
        assert row["fair_win_rate"] > row["arrival_order_win_rate"] + 0.2
        assert row["fair_win_rate"] >= 0.98
    typed = {(row["contest"], row["margin_ms"]): row for row in report.rows}
    assert typed[("typed", 150)]["fair_win_rate"] >= 0.99
    assert typed[("typed", 150)]["today_host_win_rate"] >= 0.99  # the host as wired
    trick, honest = typed[("letter-trick", "0-500")], typed[("letter-honest", "0-500")]
    assert trick["fair_win_rate"] <= honest["fair_win_rate"]

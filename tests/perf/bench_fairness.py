"""Fairness: how often the truly faster player gets the card.

Simulated players on connections whose one-way latencies differ (0 to 150 ms
each way, a little asymmetric, with exponential jitter of 0.5 to 10 ms mean
per packet) race for a reveal; one of the two truly reacts faster by a chosen
margin. Every contest goes through the real :class:`net.core.clock.ClockEstimate`
(each connection is first measured with 16 simulated pings, paced by its
``next_ping_ns``, from a client clock with its own origin and drift) and the
real :class:`net.core.arbiter.Arbiter`, driven as a host would drive it: a claim
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

Typed answers (Katootsie!, :mod:`net.core.typed`). Rows ``typed``: two simulated
typists on the same connections race to answer a letter. Each has a typing
pace (90-300 ms a key, each key varying around it; the key after the shifted
first letter slower), an answer of 3 to 18 characters drawn independently of
the other's, and a true thinking time (1 to 4 s from the letter being drawn
to the first key); one thinks faster by the margin. Each keystroke is
stamped on the client's own clock (its origin and drift, up to 1 ms of
error) and the stamp is computed by the real :class:`net.core.typed.TypedAnswer`.
Three rules rank the same contests: ``fair_win_rate`` is the typed-answer
design (the run's start, checked by the real arbiter against the arrival of
the typing notice, the host waiting for the answers of typists within the
tie threshold); ``today_host_win_rate`` is the host as wired: the real
:class:`net.core.realtime.Referee` (what :mod:`net.core.table` drives) fed each typing
notice and each answer at its arrival, deciding at its deadline (held by its
``TypingWatch``); ``no_notice_win_rate`` is the same host when the clients
send no notices (each answer checked against its own arrival, which adds the
typing time back); ``arrival_order_win_rate`` is the first answer to arrive.
``too_late`` (typed rows): answers that reached the wired host after it had
decided, the loser's (whose notice could no longer win or tie). Both host
columns use the arbiter's default 5 ms tie threshold, like ``fair``. ``typed-slow``
rows: both typists at 300-500 ms a key. ``letter-trick`` rows: the first
player types the revealed letter 200-350 ms after it is drawn, then thinks
and types the rest; the rates are that player's wins, next to the same
contests played honestly (``letter-honest``), thinking times within 0.5 s
of each other (and, as everywhere here, at least 1 s: the trick gains only
when the answer comes within ``LETTER_PAUSE_NS`` of typing the letter).
``within_tie_ms``: contests whose counted times were within Katootsie's
default ``tie_ms`` (150 ms): the table would vote who was first.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from net.core.arbiter import Accepted, Arbiter, Decision, LagSource, RefusalReason
from net.core.clock import ClockEstimate
from net.core.realtime import Referee
from net.core.typed import TypedAnswer
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
    spread_only: ClockEstimate
    """The same pings, with jitter the window's spread alone (the estimate before its
    tail floor): the ``spread_only_win_rate`` baseline."""

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
        spread_only=ClockEstimate(jitter_tail_factor=0),
    )
    estimate = connection.estimate
    now = rng.randrange(S, 100 * S)
    while len(estimate.samples) < PINGS:
        now = estimate.next_ping_ns(now)
        estimate.note_ping_sent(now)
        at_client = now + connection.delay(connection.down_ns, rng)
        back = at_client + connection.delay(connection.up_ns, rng)
        sample = (now, connection.client_clock(at_client), round(back))
        estimate.add_sample(*sample)
        connection.spread_only.add_sample(*sample)
    return connection


@dataclass
class Tally:
    fair_wins: int = 0
    spread_only_wins: int = 0
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
    decision, too_late = _decide(arbiter, reveal_id, claims)
    tally.too_late += too_late
    tally.contests += 1
    tally.settle_ns.append(decision.settle_ns)
    if decision.tie:
        tally.ties += 1
    elif decision.winner == fast_seat:
        tally.fair_wins += 1
    baseline = Arbiter()
    baseline.open(reveal_id, sent, {0: pair[0].spread_only, 1: pair[1].spread_only})
    spread_only, _ = _decide(baseline, reveal_id, claims)
    if not spread_only.tie and spread_only.winner == fast_seat:
        tally.spread_only_wins += 1
    if claims[0][1] == fast_seat:
        tally.arrival_wins += 1


def _decide(
    arbiter: Arbiter, reveal_id: int, claims: list[tuple[int, int, int]]
) -> tuple[Decision, int]:
    """Feed ``claims`` (arrival order) to an open reveal as a host would: its decision, and
    how many claims came after it."""
    decision = None
    too_late = 0
    for arrival, seat, reported in claims:
        deadline = arbiter.deadline_ns()
        if decision is None and deadline is not None and deadline < arrival:
            decision = arbiter.decide(deadline)
        result = arbiter.claim(reveal_id, seat, GRAB, reported, arrival)
        if not isinstance(result, Accepted):
            if result.reason is not RefusalReason.TOO_LATE:
                raise AssertionError(f"an honest claim was refused: {result.message}")
            too_late += 1
    if decision is None:
        deadline = arbiter.deadline_ns()
        assert deadline is not None
        decision = arbiter.decide(deadline)
    assert decision is not None
    return decision, too_late


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
        "spread_only_win_rate": tally.spread_only_wins / tally.contests,
        "ties": tally.ties,
        "arrival_order_win_rate": tally.arrival_wins / tally.contests,
        "too_late": tally.too_late,
        "mean_settle_ms": statistics.fmean(settle) / MS,
        "p99_settle_ms": settle[min(len(settle) - 1, round(0.99 * len(settle)))] / MS,
    }


# Typed answers ---------------------------------------------------------------------

TYPED_MARGINS_MS = (50, 150, 300)
TYPED_QUICK = 500
TYPED_FULL = 5_000
KATOOTSIE_TIE_MS = 150
ANSWER = {"type": "answer"}
FILLER = "bcdfghjklmnprstvwy"


@dataclass
class Typist:
    """One player's answer for one letter: pace, length and how they type it."""

    connection: Connection
    pace_ms: float
    length: int
    think_ns: float
    trick: bool = False


@dataclass(frozen=True)
class Typed:
    """One typed answer as the host sees it."""

    seat: int
    reported_ns: int
    drawn_ns: int
    """The client's stamps (its own clock): the notice and the answer carry both."""
    acted_ns: int
    notice_arrival: int
    answer_arrival: int
    true_ns: float
    length: int


def type_answer(typist: Typist, seat: int, sent: int, rng: random.Random) -> Typed:
    """Simulate the keystrokes of one answer; stamp them with the real TypedAnswer."""
    link = typist.connection
    drawn_host = sent + link.delay(link.down_ns, rng) + rng.uniform(1, 25) * MS
    text = "B" + "".join(rng.choice(FILLER) for _ in range(typist.length - 1))
    # The honest keystrokes: the first key when the answer is found, then the typist's pace.
    at = drawn_host + typist.think_ns
    keys: list[tuple[float, str]] = [(at, text[:1])]
    for index in range(1, len(text)):
        at += typist.pace_ms * MS * rng.lognormvariate(0, 0.25) * (1.2 if index == 1 else 1.0)
        keys.append((at, text[: index + 1]))
    enter = keys[-1][0] + typist.pace_ms * MS * rng.lognormvariate(0, 0.25)
    letter_at = drawn_host + rng.uniform(200, 350) * MS  # drawn either way: the same noise
    # Each stamp's error (up to 1 ms): the first key of the answer gets the same error
    # whether or not the letter was typed before it, so the two ways compare exactly.
    errors = [round(rng.uniform(0, 1) * MS) for _ in range(len(keys) + 3)]
    key_errors = errors[: len(keys)]
    if typist.trick:
        # The letter at once; once the answer is found the rest is typed from there,
        # so everything after the letter comes one keystroke earlier than honest typing.
        saved = keys[1][0] - keys[0][0]
        keys = [(letter_at, text[:1]), *[(t - saved, v) for t, v in keys[1:]]]
        key_errors = [errors[len(keys)], *errors[: len(keys) - 1]]
        enter -= saved

    line = TypedAnswer()
    drawn_client = link.client_clock(drawn_host) + errors[-1]
    line.open("B", drawn_client)
    for (host_at, value), error in zip(keys, key_errors, strict=True):
        line.edit(value, link.client_clock(host_at) + error)
    stamps = line.stamps(link.client_clock(enter) + errors[-2])
    assert stamps is not None
    acted_host = drawn_host + (stamps.acted_ns - drawn_client)  # the run's first key, host time
    return Typed(
        seat=seat,
        reported_ns=stamps.acted_ns - drawn_client,
        drawn_ns=drawn_client,
        acted_ns=stamps.acted_ns,
        notice_arrival=round(acted_host + link.delay(link.up_ns, rng)),
        answer_arrival=round(enter + link.delay(link.up_ns, rng)),
        true_ns=typist.think_ns,
        length=typist.length,
    )


@dataclass
class TypedTally:
    fair: int = 0
    today: int = 0
    arrival: int = 0
    no_notice: int = 0
    ties: int = 0
    within_tie: int = 0
    too_late: int = 0
    contests: int = 0

    def __post_init__(self) -> None:
        self.waits_ns: list[int] = []
        self.errors: list[tuple[int, float]] = []
        """(answer length, counted minus true thinking time) under the typed design."""


def typed_contest(
    reveal_id: int, typists: tuple[Typist, Typist], seed: int, tally: TypedTally
) -> tuple[int | None, int | None, int, int | None]:
    """One letter, two typed answers, ranked by the four rules: the winners' seats.

    Each seat's noise comes from its own generator (``seed``, the reveal and
    the seat), so one player typing differently changes nothing else.
    """
    sent = 1_000 * S + reveal_id * 20 * S
    answers = [
        type_answer(typist, seat, sent, random.Random(seed * 1_000_003 + reveal_id * 2 + seat))
        for seat, typist in enumerate(typists)
    ]
    lags = {seat: typist.connection.estimate for seat, typist in enumerate(typists)}
    # The typed-answer design: the arbiter checks each stamp against its notice's arrival;
    # the host holds the decision until every typist who could win or tie has answered.
    design = Arbiter()
    design.open(reveal_id, sent, lags)
    credited: dict[int, int] = {}
    for typed in sorted(answers, key=lambda typed: typed.notice_arrival):
        result = design.claim(
            reveal_id, typed.seat, ANSWER, typed.reported_ns, typed.notice_arrival
        )
        if not isinstance(result, Accepted):
            raise AssertionError(f"an honest typed answer was refused: {result.message}")
        credited[typed.seat] = result.claim.credited_ns
    deadline = design.deadline_ns()
    assert deadline is not None
    decision = design.decide(max(deadline, *(typed.answer_arrival for typed in answers)))
    assert decision is not None
    best = decision.best.credited_ns
    awaited = [
        t.answer_arrival for t in answers if credited[t.seat] <= best + design.tie_threshold_ns
    ]
    decided_at = max(deadline, *awaited)
    first_answer = min(typed.answer_arrival for typed in answers)
    tally.waits_ns.append(max(0, decided_at - first_answer))
    for typed in answers:
        tally.errors.append((typed.length, credited[typed.seat] - typed.true_ns))
    gap = abs(credited[0] - credited[1])
    tally.within_tie += gap <= KATOOTSIE_TIE_MS * MS
    tally.ties += decision.tie
    fair = decision.winner
    today, too_late = wired_host(reveal_id, sent, lags, answers, notices=True)
    tally.too_late += too_late
    no_notice, _ = wired_host(reveal_id, sent, lags, answers, notices=False)
    arrival = min(answers, key=lambda typed: typed.answer_arrival).seat
    tally.contests += 1
    return fair, today, arrival, no_notice


def wired_host(
    reveal_id: int,
    sent: int,
    lags: Mapping[int, LagSource],
    answers: list[Typed],
    *,
    notices: bool,
) -> tuple[int | None, int]:
    """The host as wired (net.core.realtime.Referee, as net.core.table drives it): winner and
    late answers.

    Typing notices (if the clients send them) and answers reach it at their
    arrival times; whenever the next one arrives after the referee's
    deadline (held for typists by its TypingWatch), the decision comes first.
    """
    referee = Referee(Arbiter(), frozenset({"answer"}))
    referee.sync(reveal_id, sent, lags)
    names = {typed.seat: f"seat {typed.seat}" for typed in answers}
    timeline = [(typed.answer_arrival, 1, typed) for typed in answers]
    if notices:
        timeline += [(typed.notice_arrival, 0, typed) for typed in answers]
    ruling = None
    too_late = 0
    for at, kind, typed in sorted(timeline, key=lambda item: (item[0], item[1], item[2].seat)):
        due = referee.deadline_ns()
        if ruling is None and due is not None and due <= at:
            ruling = referee.decide(due, names)
        if ruling is not None:
            too_late += kind
            continue
        if kind == 0:
            refused = referee.notice(typed.seat, reveal_id, typed.drawn_ns, typed.acted_ns, at)
            if refused is not None:
                raise AssertionError(f"the host refused an honest notice: {refused.message}")
            continue
        stamps = (typed.drawn_ns, typed.acted_ns)
        result = referee.claim(typed.seat, ANSWER, reveal_id, typed.reported_ns, at, stamps)
        if not isinstance(result, Accepted):
            raise AssertionError(f"the host refused an honest answer: {result.message}")
    if ruling is None:
        due = referee.deadline_ns()
        assert due is not None
        ruling = referee.decide(due, names)
    assert ruling is not None
    return ruling.decision.winner, too_late


def typist(
    pool: list[Connection], index: int, pace: tuple[float, float], rng: random.Random
) -> Typist:
    return Typist(pool[index], rng.uniform(*pace), rng.randint(3, 18), 0.0)


def run_typed(
    pool: list[Connection], margin_ms: int, contests: int, pace: tuple[float, float], label: str
) -> dict[str, Any]:
    rng = random.Random(SEED + 2)  # the same contests for every margin
    tally = TypedTally()
    for reveal_id in range(contests):
        first, second = rng.sample(range(len(pool)), 2)
        pair = (typist(pool, first, pace, rng), typist(pool, second, pace, rng))
        fast = rng.randrange(2)
        base = rng.uniform(1.0, 4.0) * S
        for seat, player in enumerate(pair):
            player.think_ns = base + (0 if seat == fast else margin_ms * MS)
        fair, today, arrival, no_notice = typed_contest(reveal_id, pair, SEED + 5, tally)
        tally.fair += fair == fast
        tally.today += today == fast
        tally.arrival += arrival == fast
        tally.no_notice += no_notice == fast
    return typed_row(
        label, margin_ms, tally, tally.fair, tally.today, tally.arrival, tally.no_notice
    )


def typed_row(
    label: str,
    margin: int | str,
    tally: TypedTally,
    fair: int,
    today: int,
    arrival: int,
    no_notice: int,
) -> dict[str, Any]:
    waits = sorted(tally.waits_ns)
    count = tally.contests
    return {
        "contest": label,
        "margin_ms": margin,
        "contests": count,
        "fair_win_rate": fair / count,
        "ties": tally.ties,
        "within_tie_ms": tally.within_tie / count,
        "arrival_order_win_rate": arrival / count,
        "today_host_win_rate": today / count,
        "no_notice_win_rate": no_notice / count,
        "too_late": tally.too_late,
        "mean_settle_ms": statistics.fmean(waits) / MS,
        "p99_settle_ms": waits[min(len(waits) - 1, round(0.99 * len(waits)))] / MS,
    }


def run_trick(pool: list[Connection], contests: int) -> list[dict[str, Any]]:
    """The same contests with player 0 typing the letter at once, then honestly."""
    rows = []
    for trick in (True, False):
        rng = random.Random(SEED + 3)
        tally = TypedTally()
        wins = [0, 0, 0, 0]
        for reveal_id in range(contests):
            first, second = rng.sample(range(len(pool)), 2)
            pair = (typist(pool, first, (90, 300), rng), typist(pool, second, (90, 300), rng))
            base = rng.uniform(1.0, 4.0) * S
            pair[0].think_ns = base + rng.uniform(0, 500) * MS
            pair[1].think_ns = base + rng.uniform(0, 500) * MS
            pair[0].trick = trick
            results = typed_contest(reveal_id, pair, SEED + 6, tally)
            for rule, winner in enumerate(results):
                wins[rule] += winner == 0
        label = "letter-trick" if trick else "letter-honest"
        rows.append(typed_row(label, "0-500", tally, *wins))
    return rows


def length_bias_ms(tally_rows: list[tuple[int, float]]) -> tuple[float, float]:
    """Mean counted-minus-true time for long (12+) and short (3-5) answers, in ms."""
    long = [error for length, error in tally_rows if length >= 12]
    short = [error for length, error in tally_rows if length <= 5]
    return statistics.fmean(long) / MS, statistics.fmean(short) / MS


def measure_typed(pool: list[Connection], quick: bool) -> tuple[list[dict[str, Any]], list[str]]:
    contests = TYPED_QUICK if quick else TYPED_FULL
    rows = [run_typed(pool, m, contests, (90, 300), "typed") for m in TYPED_MARGINS_MS]
    rows.append(run_typed(pool, 150, contests, (300, 500), "typed-slow"))
    rows += run_trick(pool, contests)
    # The stated bias: how far the counted time is from the true thinking time, by length.
    rng = random.Random(SEED + 4)
    tally = TypedTally()
    for reveal_id in range(contests):
        first, second = rng.sample(range(len(pool)), 2)
        pair = (typist(pool, first, (90, 300), rng), typist(pool, second, (90, 300), rng))
        for player in pair:
            player.think_ns = rng.uniform(1.0, 4.0) * S
        typed_contest(reveal_id, pair, SEED + 7, tally)
    long, short = length_bias_ms(tally.errors)
    notes = [
        "typed: fair = typed-answer design (net.core.typed stamps, arbiter checks against the "
        "typing notice); today_host = the host as wired (net.core.realtime.Referee: notices, "
        "TypingWatch); no_notice = the same host, clients sending no notices; "
        "arrival = first answer in",
        f"typed length bias (counted minus true thinking, typed design): long answers (12+) "
        f"{long:+.1f} ms, short (3-5) {short:+.1f} ms, difference {long - short:+.1f} ms",
        "typed too_late: answers reaching the wired host after its decision (losers whose notice "
        "could no longer win or tie)",
        "goal (typed): fair_win_rate and today_host_win_rate >= 0.99 at a 150 ms margin; "
        "letter-trick no higher than letter-honest",
    ]
    return rows, notes


def measure(quick: bool) -> Report:
    sizes = QUICK if quick else FULL
    pool_rng = random.Random(SEED)
    pool = [connect(pool_rng) for _ in range(sizes["connections"])]
    rows = [
        {"contest": "grab", **run_margin(pool, margin, sizes["contests"])} for margin in MARGINS_MS
    ]
    typed_rows, typed_notes = measure_typed(pool, quick)
    rows += typed_rows
    rtts = sorted(c.estimate.rtt_ns or 0 for c in pool)
    return Report(
        name="fairness",
        columns=[
            "contest",
            "margin_ms",
            "contests",
            "fair_win_rate",
            "spread_only_win_rate",
            "ties",
            "within_tie_ms",
            "arrival_order_win_rate",
            "today_host_win_rate",
            "no_notice_win_rate",
            "too_late",
            "mean_settle_ms",
            "p99_settle_ms",
        ],
        rows=rows,
        notes=[
            f"{len(pool)} connections, one-way 0-{MAX_ONE_WAY_MS:.0f} ms with jitter; measured "
            f"round trips {rtts[0] / MS:.1f} to {rtts[-1] / MS:.1f} ms "
            f"(median {rtts[len(rtts) // 2] / MS:.1f} ms)",
            "fair: net.core.arbiter with net.core.clock estimates; "
            "baseline: first packet to arrive wins",
            "spread_only (grab): the same claims, jitter the window's spread alone, without "
            "net.core.clock.JITTER_TAIL_FACTOR's floor (the estimator before it)",
            "goal (grab): fair_win_rate >= 0.999 at a 20 ms margin",
            *typed_notes,
        ],
    )

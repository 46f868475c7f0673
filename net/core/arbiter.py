"""Who was first: the host's referee for real-time moments (pure: every time is passed in).

The model. The host sends a reveal at host time ``S``. The client gets it
after a one-way lag ``L1``, draws it (``D``), the player reacts (``R``), and
the claim travels back (``L2``), arriving at host time::

    A = S + L1 + D + R + L2

The client measures ``R`` itself, from "drawn on screen" to "acted", on its own
monotonic clock: one machine, one clock, no clock comparison. The host cannot
see ``R``, but it can bound it. An honest claim always satisfies::

    R <= A - S                          (nobody reacts before the reveal is sent)
    R >= (A - S) - (L1 + D + L2)

and ``L1 + D + L2`` is what the connection's clock estimate says lag and
drawing take: its least round trip, plus its recent jitter, plus an allowance
for drawing, never more than :data:`MAX_LAG_CREDIT_NS` (the way Lichess caps
the lag compensation it grants). So each claim is *credited* with::

    credited = max(reported, (A - S) - allowance)
    allowance = min(rtt + jitter + draw allowance, cap)

An honest claim keeps its reported reaction. A client that lies ("0 ms!")
gains at most what its lag allowance covers, never more than the cap.

The settle window. Once the first claim has arrived, another seat ``j`` can
still beat it only if its claim's credited reaction is at most the best so
far plus the tie threshold. Its credited reaction is at least ``(A_j - S) -
allowance_j``, so such a claim arrives by ``S + best + tie + allowance_j``.
The deadline is the latest of those over the seats that have not claimed yet,
bounded by :data:`MIN_SETTLE_NS` and :data:`MAX_SETTLE_NS` after the first
arrival; when every seat has claimed there is nothing left to wait for. The
window is thus as short as the players' measured latency allows.

Claims whose credited reactions are within :data:`TIE_THRESHOLD_NS` of the
best are a tie, which the game's rules settle. Every decision is a
:class:`Decision` record holding all the figures, with :meth:`Decision.explain`
writing them as sentences ("why did Ann get it?").

One :class:`Arbiter` serves one table and holds one open reveal at a time;
after a decision the game may open the next reveal at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from engine.core import Action, Seat

NS_PER_MS = 1_000_000

HUMAN_MIN_REACTION_NS = 80 * NS_PER_MS
"""Claims faster than this are refused: below the fastest human visual
reactions (athletics counts under 100 ms as a false start), so it can only be
anticipation or a forged figure. Configurable per arbiter."""

TIE_THRESHOLD_NS = 5 * NS_PER_MS
"""Credited reactions this close are a tie: below what a terminal, a keyboard
and an event loop can time faithfully."""

MAX_LAG_CREDIT_NS = 400 * NS_PER_MS
"""The most lag (and drawing time) a claim is ever credited with. Covers a
150 ms one-way path with jitter; beyond it, a very slow connection is at a
disadvantage instead of everyone waiting for it, and a forged reaction gains
no more than this."""

DRAW_ALLOWANCE_NS = 30 * NS_PER_MS
"""Time allowed between a reveal reaching the client and being drawn (the
client stamps "drawn" after its render; a terminal UI renders at about 60 Hz)."""

MIN_SETTLE_NS = 10 * NS_PER_MS
"""Shortest wait after the first claim: even a seat with no measured lag (a
bot, a loopback player) may have its claim queued in the same event-loop turn."""

MAX_SETTLE_NS = 500 * NS_PER_MS
"""Longest wait after the first claim, whatever the estimates say."""

REACTION_SLACK_NS = 2 * NS_PER_MS
"""Room when checking a reported reaction against the time since the reveal
was sent (stamping granularity)."""

CLOCK_RATE_TOLERANCE_PPM = 1000
"""Two machines' clocks may tick at slightly different rates; this bounds the
difference, as a further room in the same check."""


class RefusalReason(StrEnum):
    """Why a claim was refused."""

    NOT_CURRENT = "not_current"
    TOO_LATE = "too_late"
    NOT_A_PLAYER = "not_a_player"
    DUPLICATE = "duplicate"
    NEGATIVE_REACTION = "negative_reaction"
    TOO_FAST = "too_fast"
    SLOWER_THAN_POSSIBLE = "slower_than_possible"


class ArbiterUsageError(RuntimeError):
    """The host called the arbiter in a way that cannot be right (a bug, not a player's doing)."""


class LagSource(Protocol):
    """What the arbiter needs from a connection's clock estimate (``ClockEstimate`` fits)."""

    @property
    def rtt_ns(self) -> int | None: ...

    @property
    def jitter_ns(self) -> int | None: ...


@dataclass(frozen=True, slots=True)
class SeatLag:
    """A fixed lag figure, e.g. :data:`NO_LAG` for a bot playing inside the host."""

    rtt_ns: int | None
    jitter_ns: int | None = 0


NO_LAG = SeatLag(rtt_ns=0, jitter_ns=0)


def format_ms(ns: int) -> str:
    """Nanoseconds as milliseconds for people: one decimal below 10 ms."""
    ms = ns / NS_PER_MS
    return f"{ms:.1f} ms" if abs(ms) < 10 else f"{ms:.0f} ms"


def _name(seat: Seat, names: Mapping[Seat, str] | None) -> str:
    if names is not None and seat in names:
        return names[seat]
    return f"seat {seat}"


def _join(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


@dataclass(frozen=True, slots=True)
class LagFigures:
    """The lag allowance of one seat for one reveal, and how it was derived."""

    rtt_ns: int | None
    jitter_ns: int
    draw_ns: int
    cap_ns: int

    @property
    def measured(self) -> bool:
        """Whether the connection had a round-trip measurement."""
        return self.rtt_ns is not None

    @property
    def uncapped_ns(self) -> int | None:
        """Round trip + jitter + drawing, before the cap (``None`` if not measured)."""
        if self.rtt_ns is None:
            return None
        return self.rtt_ns + self.jitter_ns + self.draw_ns

    @property
    def capped(self) -> bool:
        """Whether the cap limited the allowance (an unmeasured seat gets the cap)."""
        uncapped = self.uncapped_ns
        return uncapped is None or uncapped > self.cap_ns

    @property
    def allowance_ns(self) -> int:
        """The most of a claim's elapsed time that may be put down to lag and drawing."""
        uncapped = self.uncapped_ns
        return self.cap_ns if uncapped is None else min(uncapped, self.cap_ns)

    def describe(self) -> str:
        if self.rtt_ns is None:
            return f"connection not measured yet, so the {format_ms(self.cap_ns)} cap"
        parts = (
            f"round trip {format_ms(self.rtt_ns)} + jitter {format_ms(self.jitter_ns)}"
            f" + {format_ms(self.draw_ns)} for drawing"
        )
        if self.capped:
            return f"{parts}, capped at {format_ms(self.cap_ns)}"
        return parts

    def to_data(self) -> dict[str, Any]:
        return {
            "rtt_ns": self.rtt_ns,
            "jitter_ns": self.jitter_ns,
            "draw_ns": self.draw_ns,
            "cap_ns": self.cap_ns,
            "allowance_ns": self.allowance_ns,
        }


@dataclass(frozen=True, slots=True)
class ClaimFigures:
    """One accepted claim and how it was credited."""

    seat: Seat
    action: Action
    reported_ns: int
    """The reaction the client measured, from drawn to acted."""
    arrived_ns: int
    """Host clock, when the claim arrived."""
    since_reveal_ns: int
    """``arrived - sent``: everything, lag, drawing and reaction together."""
    lag: LagFigures
    credited_ns: int
    """The reaction the claim is ranked by."""
    noticed_ns: int | None = None
    """Host clock, when a typing notice with the claim's stamps arrived (a typed answer):
    ``since_reveal_ns`` is then measured to it, not to the answer's arrival."""

    @property
    def lag_credited_ns(self) -> int:
        """How much of the elapsed time was put down to lag and drawing."""
        return self.since_reveal_ns - self.credited_ns

    @property
    def raised(self) -> bool:
        """Whether the reported reaction was too fast for the claim's arrival and was raised."""
        return self.credited_ns > self.reported_ns

    def to_data(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "action": dict(self.action),
            "reported_ns": self.reported_ns,
            "arrived_ns": self.arrived_ns,
            "since_reveal_ns": self.since_reveal_ns,
            "lag": self.lag.to_data(),
            "lag_credited_ns": self.lag_credited_ns,
            "credited_ns": self.credited_ns,
            **({} if self.noticed_ns is None else {"noticed_ns": self.noticed_ns}),
        }


@dataclass(frozen=True, slots=True)
class Accepted:
    """A claim was taken; the decision comes at :attr:`deadline_ns` or later."""

    reveal_id: int
    claim: ClaimFigures
    deadline_ns: int
    """When the host should call :meth:`Arbiter.decide` (as of this claim)."""

    @property
    def seat(self) -> Seat:
        return self.claim.seat


@dataclass(frozen=True, slots=True)
class Refused:
    """A claim was not taken. ``message`` is written for the player who made it."""

    reveal_id: int
    seat: Seat
    reason: RefusalReason
    message: str
    reported_ns: int
    arrived_ns: int
    decision: Decision | None = None
    """For :attr:`RefusalReason.TOO_LATE`: the decision already made."""

    def to_data(self) -> dict[str, Any]:
        return {
            "reveal_id": self.reveal_id,
            "seat": self.seat,
            "reason": str(self.reason),
            "message": self.message,
            "reported_ns": self.reported_ns,
            "arrived_ns": self.arrived_ns,
        }


@dataclass(frozen=True, slots=True)
class Decision:
    """The record of one reveal's outcome, with every figure that led to it."""

    reveal_id: int
    sent_at_ns: int
    claims: tuple[ClaimFigures, ...]
    """Accepted claims, best credited reaction first."""
    winners: tuple[Seat, ...]
    """The seats within the tie threshold of the best (one, unless a tie)."""
    first_arrival_ns: int
    deadline_ns: int
    decided_ns: int
    tie_threshold_ns: int
    refused: tuple[Refused, ...] = field(default=())
    """Claims refused while the reveal was open."""

    @property
    def tie(self) -> bool:
        return len(self.winners) > 1

    @property
    def winner(self) -> Seat | None:
        """The seat that got it, or ``None`` on a tie (the game's rules settle those)."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def best(self) -> ClaimFigures:
        return self.claims[0]

    @property
    def margin_ns(self) -> int | None:
        """How far the runner-up was behind the best (``None`` with a single claim)."""
        if len(self.claims) < 2:
            return None
        return self.claims[1].credited_ns - self.claims[0].credited_ns

    @property
    def settle_ns(self) -> int:
        """How long the host waited after the first claim arrived."""
        return self.deadline_ns - self.first_arrival_ns

    def claim_of(self, seat: Seat) -> ClaimFigures | None:
        for claim in self.claims:
            if claim.seat == seat:
                return claim
        return None

    def behind_ns(self, seat: Seat) -> int | None:
        """How far ``seat``'s credited reaction was behind the best (``None``: no claim)."""
        claim = self.claim_of(seat)
        return None if claim is None else claim.credited_ns - self.best.credited_ns

    def explain(self, names: Mapping[Seat, str] | None = None) -> str:
        """The decision in sentences, with its figures: "why did Ann get it?"."""
        best = self.best
        lines: list[str] = []
        if self.tie:
            who = _join([_name(seat, names) for seat in self.winners])
            counted = _join(
                [format_ms(claim.credited_ns) for claim in self.claims[: len(self.winners)]]
            )
            lines.append(
                f"{who} tied for reveal #{self.reveal_id}: their reactions counted as "
                f"{counted}, within the {format_ms(self.tie_threshold_ns)} tie threshold, "
                "so the game's rules settle it."
            )
        else:
            head = (
                f"{_name(best.seat, names)} got reveal #{self.reveal_id} with a reaction "
                f"that counted as {format_ms(best.credited_ns)}"
            )
            if len(self.claims) == 1:
                lines.append(f"{head}; nobody else claimed it in time.")
            else:
                runner = self.claims[1]
                margin = runner.credited_ns - best.credited_ns
                lines.append(
                    f"{head}, {format_ms(margin)} ahead of {_name(runner.seat, names)} "
                    f"({format_ms(runner.credited_ns)})."
                )
        for claim in self.claims:
            lines.append(_explain_claim(claim, names))
        lines.append(
            f"The host waited {format_ms(self.settle_ns)} after the first claim "
            "for faster claims still in flight."
        )
        for refusal in self.refused:
            lines.append(f"A claim by {_name(refusal.seat, names)} was refused: {refusal.message}")
        return "\n".join(lines)

    def to_data(self) -> dict[str, Any]:
        """Every figure, msgpack-ready (for the table's log and for clients)."""
        return {
            "reveal_id": self.reveal_id,
            "sent_at_ns": self.sent_at_ns,
            "claims": [claim.to_data() for claim in self.claims],
            "winners": list(self.winners),
            "tie": self.tie,
            "margin_ns": self.margin_ns,
            "first_arrival_ns": self.first_arrival_ns,
            "deadline_ns": self.deadline_ns,
            "settle_ns": self.settle_ns,
            "decided_ns": self.decided_ns,
            "tie_threshold_ns": self.tie_threshold_ns,
            "refused": [refusal.to_data() for refusal in self.refused],
        }


def _explain_claim(claim: ClaimFigures, names: Mapping[Seat, str] | None) -> str:
    who = _name(claim.seat, names)
    what = "the claim" if claim.noticed_ns is None else "its typing notice"
    arrival = (
        f"{what} arrived {format_ms(claim.since_reveal_ns)} after the reveal was sent, "
        f"and at most {format_ms(claim.lag.allowance_ns)} of that is put down to lag "
        f"and drawing ({claim.lag.describe()})"
    )
    if claim.raised:
        return (
            f"{who} reported {format_ms(claim.reported_ns)}, but {arrival}, "
            f"so it counts as {format_ms(claim.credited_ns)}."
        )
    return f"{who} reported {format_ms(claim.reported_ns)}; {arrival}, so that stands."


@dataclass(slots=True)
class _OpenReveal:
    reveal_id: int
    sent_at_ns: int
    lags: dict[Seat, LagFigures]
    claims: dict[Seat, ClaimFigures] = field(default_factory=dict)
    refused: list[Refused] = field(default_factory=list)


def _ranking_key(claim: ClaimFigures) -> tuple[int, int, int]:
    return (claim.credited_ns, claim.arrived_ns, claim.seat)


class Arbiter:
    """Collects claims for one reveal at a time and decides who was first.

    The host calls :meth:`open` when it sends a reveal, :meth:`claim` for each
    claim that arrives, and :meth:`decide` once :meth:`deadline_ns` has passed
    (and again whenever a new claim moves the deadline).
    """

    def __init__(
        self,
        *,
        min_reaction_ns: int = HUMAN_MIN_REACTION_NS,
        tie_threshold_ns: int = TIE_THRESHOLD_NS,
        lag_cap_ns: int = MAX_LAG_CREDIT_NS,
        draw_allowance_ns: int = DRAW_ALLOWANCE_NS,
        min_settle_ns: int = MIN_SETTLE_NS,
        max_settle_ns: int = MAX_SETTLE_NS,
    ) -> None:
        figures = {
            "min_reaction_ns": min_reaction_ns,
            "tie_threshold_ns": tie_threshold_ns,
            "lag_cap_ns": lag_cap_ns,
            "draw_allowance_ns": draw_allowance_ns,
            "min_settle_ns": min_settle_ns,
            "max_settle_ns": max_settle_ns,
        }
        negative = [name for name, value in figures.items() if value < 0]
        if negative:
            raise ValueError(f"arbiter settings cannot be negative: {', '.join(negative)}")
        if min_settle_ns > max_settle_ns:
            raise ValueError(
                f"min_settle_ns ({min_settle_ns}) is above max_settle_ns ({max_settle_ns})"
            )
        self.min_reaction_ns = min_reaction_ns
        self.tie_threshold_ns = tie_threshold_ns
        self.lag_cap_ns = lag_cap_ns
        self.draw_allowance_ns = draw_allowance_ns
        self.min_settle_ns = min_settle_ns
        self.max_settle_ns = max_settle_ns
        self._open: _OpenReveal | None = None
        self._last_decision: Decision | None = None

    # ------------------------------------------------------------------ state

    @property
    def current_reveal(self) -> int | None:
        """The id of the open reveal, if any."""
        return None if self._open is None else self._open.reveal_id

    @property
    def last_decision(self) -> Decision | None:
        return self._last_decision

    def lag_of(self, seat: Seat) -> LagFigures | None:
        """The lag allowance ``seat`` has for the open reveal."""
        return None if self._open is None else self._open.lags.get(seat)

    # ------------------------------------------------------------------ calls

    def open(self, reveal_id: int, sent_at_ns: int, seats: Mapping[Seat, LagSource]) -> None:
        """Start collecting claims for a reveal sent at ``sent_at_ns`` to ``seats``.

        Each seat's lag (round trip and jitter) is read now and kept for the
        whole reveal, so one decision uses one consistent set of figures.
        """
        if self._open is not None:
            raise ArbiterUsageError(
                f"reveal #{self._open.reveal_id} is still open; decide or abandon it "
                f"before opening #{reveal_id}"
            )
        if not seats:
            raise ArbiterUsageError(f"reveal #{reveal_id} has no seats to claim it")
        lags = {
            seat: LagFigures(
                rtt_ns=source.rtt_ns,
                jitter_ns=source.jitter_ns or 0,
                draw_ns=self.draw_allowance_ns,
                cap_ns=self.lag_cap_ns,
            )
            for seat, source in seats.items()
        }
        self._open = _OpenReveal(reveal_id=reveal_id, sent_at_ns=sent_at_ns, lags=lags)

    def abandon(self) -> None:
        """Close the open reveal without a decision (e.g. the game ended meanwhile)."""
        self._open = None

    def claim(
        self,
        reveal_id: int,
        seat: Seat,
        action: Action,
        reaction_ns: int,
        arrived_ns: int,
        noticed_ns: int | None = None,
    ) -> Accepted | Refused:
        """Take a claim that arrived at host time ``arrived_ns``, or refuse it with a reason.

        ``reaction_ns`` is what the client measured on its own clock, from the
        reveal being drawn to the player acting. ``noticed_ns``: when a
        typing notice with the same stamps arrived (a typed answer, see
        ``Typed answers`` in ``net/PROTOCOL.md``); the stamps are then checked
        and credited against it instead of the answer's own arrival, which
        came only after the typing.
        """
        current = self._open
        checked = self._check(reveal_id, seat, reaction_ns, arrived_ns, noticed_ns, record=True)
        if isinstance(checked, Refused):
            return checked
        assert current is not None
        lag, since_reveal, credited = checked
        figures = ClaimFigures(
            seat=seat,
            action=action,
            reported_ns=reaction_ns,
            arrived_ns=arrived_ns,
            since_reveal_ns=since_reveal,
            lag=lag,
            credited_ns=credited,
            noticed_ns=noticed_ns,
        )
        current.claims[seat] = figures
        deadline = self.deadline_ns()
        assert deadline is not None  # a claim is in
        return Accepted(reveal_id=reveal_id, claim=figures, deadline_ns=deadline)

    def notice(
        self, reveal_id: int, seat: Seat, reaction_ns: int, arrived_ns: int
    ) -> int | Refused:
        """Check a typing notice as a claim would be checked: its credited reaction, or why not.

        Nothing is recorded: a notice only announces the stamps of an answer
        still being typed (the host keeps it, :mod:`net.core.realtime`).
        """
        checked = self._check(reveal_id, seat, reaction_ns, arrived_ns, None, record=False)
        return checked if isinstance(checked, Refused) else checked[2]

    def _check(
        self,
        reveal_id: int,
        seat: Seat,
        reaction_ns: int,
        arrived_ns: int,
        noticed_ns: int | None,
        *,
        record: bool,
    ) -> Refused | tuple[LagFigures, int, int]:
        """A claim's (or a notice's) refusal, or its lag, time since the reveal and credit."""
        current = self._open

        def refuse(reason: RefusalReason, message: str) -> Refused:
            refusal = Refused(
                reveal_id=reveal_id,
                seat=seat,
                reason=reason,
                message=message,
                reported_ns=reaction_ns,
                arrived_ns=arrived_ns,
                decision=self._last_decision if reason is RefusalReason.TOO_LATE else None,
            )
            if record and current is not None and current.reveal_id == reveal_id:
                current.refused.append(refusal)
            return refusal

        if current is None or current.reveal_id != reveal_id:
            last = self._last_decision
            if last is not None and last.reveal_id == reveal_id:
                return refuse(
                    RefusalReason.TOO_LATE,
                    f"Too late: reveal #{reveal_id} was already decided.",
                )
            now_open = "none is open" if current is None else f"#{current.reveal_id} is"
            return refuse(
                RefusalReason.NOT_CURRENT,
                f"Reveal #{reveal_id} is not in play ({now_open}).",
            )
        bound = arrived_ns if noticed_ns is None else noticed_ns
        if bound < current.sent_at_ns or bound > arrived_ns:
            raise ArbiterUsageError(
                f"a claim for reveal #{reveal_id} arrived at {arrived_ns} ns (noticed at "
                f"{bound} ns), before the reveal was sent at {current.sent_at_ns} ns "
                "or before its notice"
            )
        lag = current.lags.get(seat)
        if lag is None:
            return refuse(
                RefusalReason.NOT_A_PLAYER,
                f"Seat {seat} is not taking part in reveal #{reveal_id}.",
            )
        if seat in current.claims:
            return refuse(
                RefusalReason.DUPLICATE,
                f"You already claimed reveal #{reveal_id}; only your first claim counts.",
            )
        if reaction_ns < 0:
            return refuse(
                RefusalReason.NEGATIVE_REACTION,
                f"A reaction time cannot be negative (got {format_ms(reaction_ns)}).",
            )
        if reaction_ns < self.min_reaction_ns:
            return refuse(
                RefusalReason.TOO_FAST,
                f"A reaction of {format_ms(reaction_ns)} is faster than a person can react "
                f"(the limit is {format_ms(self.min_reaction_ns)}): too early.",
            )
        since_reveal = bound - current.sent_at_ns
        slack = REACTION_SLACK_NS + since_reveal * CLOCK_RATE_TOLERANCE_PPM // 1_000_000
        if reaction_ns > since_reveal + slack:
            return refuse(
                RefusalReason.SLOWER_THAN_POSSIBLE,
                f"A reaction of {format_ms(reaction_ns)} is longer than the "
                f"{format_ms(since_reveal)} since reveal #{reveal_id} was sent.",
            )
        return lag, since_reveal, max(reaction_ns, since_reveal - lag.allowance_ns)

    def best_credited_ns(self) -> int | None:
        """The best credited reaction among the open reveal's claims (``None``: no claim)."""
        current = self._open
        if current is None or not current.claims:
            return None
        return min(claim.credited_ns for claim in current.claims.values())

    def deadline_ns(self) -> int | None:
        """When the open reveal can be decided (host clock), or ``None`` before any claim.

        See the module's docstring: the latest moment a claim that could still
        win or tie may arrive, bounded after the first arrival.
        """
        current = self._open
        if current is None or not current.claims:
            return None
        claims = current.claims.values()
        first = min(claim.arrived_ns for claim in claims)
        pending = [lag for seat, lag in current.lags.items() if seat not in current.claims]
        if not pending:
            return max(claim.arrived_ns for claim in claims)
        best = min(claim.credited_ns for claim in claims)
        latest_useful = (
            current.sent_at_ns
            + best
            + self.tie_threshold_ns
            + max(lag.allowance_ns for lag in pending)
        )
        return max(first + self.min_settle_ns, min(latest_useful, first + self.max_settle_ns))

    def decide(self, now_ns: int) -> Decision | None:
        """The decision, once ``now_ns`` has reached the deadline; ``None`` before.

        The reveal is then closed: later claims for it are refused as too late,
        and the next reveal may be opened at once.
        """
        current = self._open
        deadline = self.deadline_ns()
        if current is None or deadline is None or now_ns < deadline:
            return None
        ranked = tuple(sorted(current.claims.values(), key=_ranking_key))
        best = ranked[0].credited_ns
        winners = tuple(
            claim.seat for claim in ranked if claim.credited_ns - best <= self.tie_threshold_ns
        )
        decision = Decision(
            reveal_id=current.reveal_id,
            sent_at_ns=current.sent_at_ns,
            claims=ranked,
            winners=winners,
            first_arrival_ns=min(claim.arrived_ns for claim in ranked),
            deadline_ns=deadline,
            decided_ns=now_ns,
            tie_threshold_ns=self.tie_threshold_ns,
            refused=tuple(current.refused),
        )
        self._open = None
        self._last_decision = decision
        return decision

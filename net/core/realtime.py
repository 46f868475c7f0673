"""Real-time moments at one table: the host's glue between a game's reveals and the arbiter.

The arbiter (:mod:`net.core.arbiter`) decides who was first for one reveal; the
engine (e.g. Black Cat) only knows which card is on top and refuses a grab
aimed at another. This module sits between them, without any I/O or clock
of its own (every time is passed in), so the host's rules can be tested on
their own:

* **Which reveal is open.** A game is *real-time* when it says so
  (:attr:`engine.core.Game.realtime`). After every broadcast the host calls
  :meth:`Referee.sync` with the game's open reveal (:meth:`Game.reveal`):
  a new id opens the arbiter for it (the seats that may claim are the bots
  playing inside the host, with no lag, and the attached players, with
  their connection's clock estimate; a dropped player's seat simply may
  not claim), ``None`` (none is open, or the game is over) closes it. A
  seat that becomes able to claim while the reveal is open (a player
  reconnects, a bot covers a dropped player) is let in by opening the same
  reveal again with the *same* send time, but only while nobody has claimed
  yet, so no claim already counted is lost.
* **Claims.** :meth:`Referee.claim` passes a claim to the arbiter;
  :func:`claim_problem` catches a claim whose action names another reveal
  than its stamps, and :func:`refusal_text` words a refusal for its sender
  (for "too late": who got it, and by how much).
* **Decisions.** :meth:`Referee.decide` turns the arbiter's decision into a
  :class:`Ruling`: the one claim whose action the host applies, and the
  events that explain it, one for the whole table and one for each player
  whose claim lost, saying who won and by how many milliseconds.

A game whose rules say what a tie means settles it itself
(:meth:`engine.core.Game.settle_tie`: Katootsie's tie-break letters); for
the others, an assumption (the rulebook and the arbiter leave it to the
host): **a tie goes to the tied claim that reached the host first** (then
the lower seat). The
tie threshold (5 ms) is below what the stamps can measure, so neither player
was truly faster; arrival order is at least a fact the host saw, and it is
deterministic. The explanation says so.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.bots import DEFAULT_REACTION_S, Bot
from engine.core import Action, Event, Seat
from net.core.arbiter import (
    Accepted,
    Arbiter,
    ClaimFigures,
    Decision,
    LagSource,
    RefusalReason,
    Refused,
    SeatLag,
    format_ms,
)
from net.core.typed import TypingWatch
from net.wire.messages import MAX_ERROR_TEXT

MAX_BOT_REACTION_S = 60.0
"""A bot reaction above this is a bot bug; the default is used instead."""

BOT_REACTION_MARGIN_NS = 10_000_000
"""A scaled-down bot reaction is kept this far above the arbiter's human bound."""

UNMEASURED = SeatLag(rtt_ns=None, jitter_ns=None)
"""The lag of a peer that has no clock estimate: the arbiter grants it the cap."""

STAMPS_NEEDED = (
    "A grab needs its drawn/acted stamps: send 'reveal', 'drawn_ns' and 'acted_ns' "
    "with the action (see 'Fair real-time play' in PROTOCOL.md)."
)

TIE_RULE = "earliest_arrival"
GAME_TIE_RULE = "game"
"""``claim.data.tie_rule`` when the game settled a tie itself (:meth:`Game.settle_tie`)."""

TieSettler = Callable[[int, Sequence[tuple[Seat, Action]]], Action | None]
"""A game's :meth:`~engine.core.Game.settle_tie`."""


def rtt_only_sample(sent_ns: int, received_ns: int) -> tuple[int, int, int]:
    """A ping exchange for :meth:`ClockEstimate.add_sample` when the pong has no client clock.

    A ``pong`` without ``at`` (a minimal client) echoes only the pinger's own
    stamp, so the host knows the round trip but not the client's clock.
    Putting the client stamp at the exchange's midpoint makes every offset
    zero: the offset and drift figures then mean nothing, but the round trip
    and jitter (all the arbiter uses) are exact. Midpoints of successive
    answers on one connection only grow (pings leave in order and their
    answers come back in order), so the estimator's sanity checks hold.
    """
    return sent_ns, (sent_ns + received_ns) // 2, received_ns


def claim_problem(action: Mapping[str, Any], reveal: int) -> str | None:
    """Why a claim's action contradicts its stamps (the action names another reveal), if so."""
    named = action.get("reveal")
    if "reveal" in action and named != reveal:
        return (
            f"The action names reveal {named!r} but its stamps are for reveal #{reveal}; "
            "send the same id in both."
        )
    return None


def bot_reaction_ns(bot: Bot, scale: float, min_reaction_ns: int) -> int:
    """How long an in-host bot takes to claim: its ``reaction_s`` (after its last choice).

    ``scale`` speeds bots up for tests and demos; a scaled reaction never
    drops below the arbiter's human bound (plus a margin), where it would be
    refused as too fast.
    """
    reaction_s = bot.reaction_s
    if not 0 <= reaction_s < MAX_BOT_REACTION_S:  # NaN fails too
        reaction_s = DEFAULT_REACTION_S  # a bot bug must not stall or speed up the table
    return max(round(reaction_s * scale * 1e9), min_reaction_ns + BOT_REACTION_MARGIN_NS)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_ERROR_TEXT else text[: MAX_ERROR_TEXT - 1] + "…"


class Sync(enum.Enum):
    """What :meth:`Referee.sync` did."""

    OPENED = "opened"
    """A new reveal is open (any earlier one was dropped)."""
    REOPENED = "reopened"
    """The same reveal was opened again to let more seats claim."""
    UNCHANGED = "unchanged"
    CLOSED = "closed"
    """No reveal is open now (the game is over, or nobody can claim)."""


NO_TYPED_CLAIMS = "This game takes no typing notices (only typed answers have them)."


@dataclass(frozen=True, slots=True)
class Notice:
    """A seat's typing notice for the open reveal: the stamps of an answer being typed."""

    drawn_ns: int
    acted_ns: int
    arrived_ns: int
    """Host clock, when the notice arrived."""


@dataclass(frozen=True, slots=True)
class Ruling:
    """A decision as the host acts on it: the claim it applies and the events explaining it."""

    decision: Decision
    chosen: ClaimFigures
    """The claim whose seat acts (the winner; on a tie, the earliest arrival)."""
    events: tuple[Event, ...]
    """A public ``claim`` event, then a ``claim_lost`` event per other claimant (theirs only)."""
    settlement: Action | None = None
    """On a tie the game settles itself (:meth:`Game.settle_tie`): the action applied instead."""

    @property
    def seat(self) -> Seat:
        return self.chosen.seat

    @property
    def action(self) -> Action:
        return self.chosen.action if self.settlement is None else self.settlement


def choose(decision: Decision) -> ClaimFigures:
    """The claim the host applies: the winner, or among tied winners the earliest arrival."""
    tied = [claim for claim in decision.claims if claim.seat in decision.winners]
    return min(tied, key=lambda claim: (claim.arrived_ns, claim.seat))


def _name(seat: Seat, names: Mapping[Seat, str]) -> str:
    return names.get(seat, f"seat {seat}")


def public_data(decision: Decision, chosen: ClaimFigures, by_game: bool) -> dict[str, Any]:
    """The decision's figures for everyone: the losers' actions (their pile choices) left out."""
    data = decision.to_data()
    for claim in data["claims"]:
        if claim["seat"] != chosen.seat:
            del claim["action"]
    data["chosen"] = chosen.seat
    data["tie_rule"] = GAME_TIE_RULE if by_game else TIE_RULE
    return data


def explain(
    decision: Decision, chosen: ClaimFigures, names: Mapping[Seat, str], by_game: bool
) -> str:
    """The arbiter's explanation, plus how the host settled a tie."""
    text = decision.explain(names)
    if decision.tie and not by_game:
        text += (
            f"\nThe tie goes to {_name(chosen.seat, names)}, whose claim reached the host "
            "first (the host's rule for ties)."
        )
    return text


def loser_text(
    decision: Decision,
    chosen: ClaimFigures,
    loser: ClaimFigures,
    names: Mapping[Seat, str],
    by_game: bool,
) -> str:
    """What one player whose claim lost is told: who got it, and by how many milliseconds."""
    winner = _name(chosen.seat, names)
    gap = loser.credited_ns - chosen.credited_ns
    if loser.seat in decision.winners and by_game:
        return (
            f"You tied for reveal #{decision.reveal_id} ({format_ms(abs(gap))} apart, within "
            f"the {format_ms(decision.tie_threshold_ns)} threshold): the game's rules settle it."
        )
    if loser.seat in decision.winners:
        return (
            f"{winner} got reveal #{decision.reveal_id}: your reactions tied "
            f"({format_ms(abs(gap))} apart, within the "
            f"{format_ms(decision.tie_threshold_ns)} threshold) and {winner}'s claim "
            "reached the host first."
        )
    return (
        f"{winner} got reveal #{decision.reveal_id}, {format_ms(gap)} faster than you: "
        f"their reaction counted as {format_ms(chosen.credited_ns)}, "
        f"yours as {format_ms(loser.credited_ns)}."
    )


def rule(decision: Decision, names: Mapping[Seat, str], settle: TieSettler | None = None) -> Ruling:
    """The :class:`Ruling` for an arbiter decision (``settle``: the game's rule for ties)."""
    chosen = choose(decision)
    settlement = None
    if decision.tie and settle is not None:
        tied = [claim for claim in decision.claims if claim.seat in decision.winners]
        settlement = settle(decision.reveal_id, [(claim.seat, claim.action) for claim in tied])
        if settlement is not None:
            chosen = tied[0]
    by_game = settlement is not None
    events = [
        Event(
            "claim",
            explain(decision, chosen, names, by_game),
            public_data(decision, chosen, by_game),
        )
    ]
    for claim in decision.claims:
        if claim.seat == chosen.seat:
            continue
        events.append(
            Event(
                "claim_lost",
                loser_text(decision, chosen, claim, names, by_game),
                {
                    "reveal_id": decision.reveal_id,
                    "winner": chosen.seat,
                    "behind_ns": claim.credited_ns - chosen.credited_ns,
                    "tie": claim.seat in decision.winners,
                },
                seats=(claim.seat,),
            )
        )
    return Ruling(decision=decision, chosen=chosen, events=tuple(events), settlement=settlement)


class Referee:
    """The real-time side of one table: the open reveal, its claims, its rulings."""

    def __init__(
        self, arbiter: Arbiter | None = None, typed_claims: frozenset[str] = frozenset()
    ) -> None:
        self.arbiter = arbiter or Arbiter()
        self.typed_claims = typed_claims
        """The game's claim types stamped where typing started (:attr:`Game.typed_claims`):
        only they are checked against a typing notice, and only such games take notices."""
        self.sent_at_ns: int | None = None
        """When the open reveal was first sent (host clock)."""
        self.last_ruling: Ruling | None = None
        self.notices: dict[Seat, Notice] = {}
        """Typing notices for the open reveal, the newest of each seat."""
        self.watch = TypingWatch(tie_ns=self.arbiter.tie_threshold_ns)
        """Seats whose answer is still being typed and could win or tie."""

    @property
    def current_reveal(self) -> int | None:
        return self.arbiter.current_reveal

    def takes_part(self, seat: Seat) -> bool:
        """Whether ``seat`` may claim the open reveal."""
        return self.arbiter.lag_of(seat) is not None

    def sync(self, reveal: int | None, now_ns: int, seats: Mapping[Seat, LagSource]) -> Sync:
        """Follow the table's reveal after a broadcast sent at ``now_ns`` (see the module doc)."""
        current = self.arbiter.current_reveal
        if reveal is None or not seats:
            if current is None:
                return Sync.UNCHANGED
            if reveal is not None and self.arbiter.deadline_ns() is not None:
                return Sync.UNCHANGED  # claims are in: decide them, whoever left meanwhile
            self.abandon()
            return Sync.CLOSED
        if reveal == current:
            missing = [seat for seat in seats if not self.takes_part(seat)]
            if not missing or self.arbiter.deadline_ns() is not None or self.sent_at_ns is None:
                return Sync.UNCHANGED
            sent_at = self.sent_at_ns
            self.arbiter.abandon()
            self.arbiter.open(reveal, sent_at, seats)
            return Sync.REOPENED
        self.arbiter.abandon()
        self._forget_notices()
        self.arbiter.open(reveal, now_ns, seats)
        self.sent_at_ns = now_ns
        return Sync.OPENED

    def restart(self, now_ns: int, seats: Mapping[Seat, LagSource]) -> None:
        """The open reveal starts again at ``now_ns`` (a moment held for a learner goes on):
        reactions count from now. Claims already in keep it as it was."""
        reveal = self.arbiter.current_reveal
        if reveal is None or self.arbiter.deadline_ns() is not None or not seats:
            return
        self.arbiter.abandon()
        self._forget_notices()
        self.arbiter.open(reveal, now_ns, seats)
        self.sent_at_ns = now_ns

    def abandon(self) -> None:
        self.arbiter.abandon()
        self._forget_notices()
        self.sent_at_ns = None

    def _forget_notices(self) -> None:
        self.notices.clear()
        self.watch.typing.clear()

    def notice(
        self, seat: Seat, reveal: int, drawn_ns: int, acted_ns: int, arrived_ns: int
    ) -> Refused | None:
        """Take a typing notice (``None``), or refuse it as the arbiter would refuse its claim.

        The answer that follows with the same stamps is credited against this
        arrival; until it comes (at most :data:`net.core.typed.MAX_TYPING_NS`), a
        decision that this seat could still win or tie waits for it. The
        caller checks first that the game takes notices (:attr:`typed_claims`).
        """
        credited = self.arbiter.notice(reveal, seat, acted_ns - drawn_ns, arrived_ns)
        if isinstance(credited, Refused):
            return credited
        self.notices[seat] = Notice(drawn_ns=drawn_ns, acted_ns=acted_ns, arrived_ns=arrived_ns)
        self.watch.notice(seat, credited, arrived_ns)
        return None

    def claim(
        self,
        seat: Seat,
        action: Action,
        reveal: int,
        reaction_ns: int,
        arrived_ns: int,
        stamps: tuple[int, int] | None = None,
    ) -> Accepted | Refused:
        """Pass a claim to the arbiter; ``stamps`` (``drawn_ns``, ``acted_ns``) find its notice.

        A typed claim (:attr:`typed_claims`) whose stamps equal the seat's
        typing notice for the open reveal is checked and credited against the
        notice's arrival; any other is credited against its own arrival.
        """
        noticed = None
        if reveal == self.current_reveal:
            self.watch.done(seat)
            notice = self.notices.get(seat)
            if (
                notice is not None
                and stamps == (notice.drawn_ns, notice.acted_ns)
                and action.get("type") in self.typed_claims
            ):
                noticed = notice.arrived_ns
        return self.arbiter.claim(reveal, seat, action, reaction_ns, arrived_ns, noticed)

    def deadline_ns(self) -> int | None:
        """The arbiter's deadline, held while a seat that could win or tie is still typing."""
        deadline = self.arbiter.deadline_ns()
        best = self.arbiter.best_credited_ns()
        if deadline is None or best is None:
            return deadline
        hold = self.watch.hold_until_ns(best)
        return deadline if hold is None else max(deadline, hold)

    def decide(
        self, now_ns: int, names: Mapping[Seat, str], settle: TieSettler | None = None
    ) -> Ruling | None:
        """The ruling once the deadline has passed (``None`` before); closes the reveal."""
        deadline = self.deadline_ns()
        if deadline is None or now_ns < deadline:
            return None
        decision = self.arbiter.decide(now_ns)
        if decision is None:
            return None
        self._forget_notices()
        self.sent_at_ns = None
        self.last_ruling = rule(decision, names, settle)
        return self.last_ruling

    def refusal_text(self, refused: Refused, names: Mapping[Seat, str]) -> str:
        """The refusal for its sender; a late claim also learns who got it and by how much."""
        text = refused.message
        ruling = self.last_ruling
        if (
            refused.reason is RefusalReason.TOO_LATE
            and ruling is not None
            and ruling.decision.reveal_id == refused.reveal_id
        ):
            chosen = ruling.chosen
            slower = refused.reported_ns - chosen.credited_ns
            text += (
                f" {_name(chosen.seat, names)} got it with a reaction that counted as "
                f"{format_ms(chosen.credited_ns)}; you reported {format_ms(refused.reported_ns)}"
                + (f", {format_ms(slower)} slower." if slower >= 0 else ", but arrived too late.")
            )
        return _cut(text)

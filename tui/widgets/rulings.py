"""Who got each real-time moment, and by how many milliseconds: the host's rulings, in words.

A game's log says *that* Bea took the 8♦ (or became the challenger, or won
the letter); only the host's arbiter knows *why* Bea and not you. It says so
in the events that come with each view (:mod:`net.core.realtime`): a public
``claim`` event (every claimant's counted reaction, best first, and the
chosen seat), a private ``claim_lost`` event for each loser, then the game's
own event applying the winning claim.

:class:`RulingHistory` keeps the host's events by reveal id. The game's
screen says what a ruling means in its own words: when its event for a
moment arrives it calls :meth:`RulingHistory.award` (``8♦``, ``pile 2``),
and the history pairs that with the ruling and words the log line, the
headline and the ``w`` explanation. It is pure (events in, text out) so it
is tested without a screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from tui.you import YOU, Ours, capital

NS_PER_MS = 1_000_000
KEEP = 200
"""How many awards, lines and explanations are remembered (a two-deck Black Cat has 104 cards)."""


def ms(ns: int) -> str:
    """``43 ms`` (whole milliseconds from 10 ms up, one decimal below)."""
    value = ns / NS_PER_MS
    return f"{value:.0f} ms" if abs(value) >= 10 else f"{value:.1f} ms"


def who(seat: int | None, names: Sequence[str], me: int | None) -> str:
    """A seat as the player reads it: ``you``, a name, or ``nobody``."""
    if seat is None:
        return Ours("nobody")
    if seat == me:
        return YOU
    return names[seat] if 0 <= seat < len(names) else Ours(f"seat {seat + 1}")


@dataclass(frozen=True, slots=True)
class Ruling:
    """How the host decided one reveal: the winner and the runner-up's distance."""

    reveal: int
    winner: int
    claimants: int
    runner_up: int | None
    margin_ns: int | None
    """How much later the runner-up's counted reaction was."""
    tie: bool
    explanation: str


@dataclass(frozen=True, slots=True)
class Award:
    """One real-time moment as it ended: who got what, and how the host ruled."""

    reveal: int
    seat: int
    label: str
    """What was won, in the game's words (``8♦``, ``the challenge``)."""
    ruling: Ruling | None
    note: str = ""
    """A detail in brackets after the label (``pile 2``), or nothing."""
    lost_by_ns: int | None = None
    """Set when this player also claimed it: how far behind they were."""
    lost_tie: bool = False

    @property
    def contested(self) -> bool:
        return self.lost_by_ns is not None or (
            self.ruling is not None and self.ruling.runner_up is not None
        )

    def what(self) -> str:
        """``8♦ (pile 2)``."""
        return f"{self.label} ({self.note})" if self.note else self.label


class RulingHistory:
    """The rulings seen at this table and the awards they decided, newest last."""

    def __init__(self, claimed: str = "claimed") -> None:
        self.claimed = claimed
        """The game's verb for claiming, in the past (``grabbed``): "nobody else grabbed"."""
        self.awards: list[Award] = []
        self.explained: list[tuple[str, str]] = []
        """(what was ruled, the host's explanation) for each ruling, oldest first."""
        self._rulings: dict[int, Ruling] = {}
        self._lost: dict[int, tuple[int, bool]] = {}
        self._lines: list[str] = []

    # The host's events -------------------------------------------------------------

    def note(self, event: Mapping[str, Any]) -> bool:
        """Keep a ``claim`` or ``claim_lost`` event; ``False`` for any other (a game's own)."""
        kind = event.get("kind")
        data = event.get("data")
        if kind not in ("claim", "claim_lost"):
            return False
        if not isinstance(data, Mapping):
            return True
        if kind == "claim":
            ruling = _ruling(data, str(event.get("text", "")))
            if ruling is not None:
                self._rulings[ruling.reveal] = ruling
        else:
            reveal = data.get("reveal_id")
            if isinstance(reveal, int):
                self._lost[reveal] = (int(data.get("behind_ns") or 0), bool(data.get("tie")))
        return True

    # The game's words --------------------------------------------------------------

    def award(
        self,
        reveal: int,
        seat: int,
        label: str,
        names: Sequence[str],
        me: int | None,
        note: str = "",
    ) -> Award:
        """The game applied ``seat``'s claim on ``reveal``: log it with the host's ruling."""
        lost = self._lost.pop(reveal, None)
        award = Award(
            reveal,
            seat,
            label,
            self._rulings.pop(reveal, None),
            note,
            None if lost is None else lost[0],
            False if lost is None else lost[1],
        )
        self.awards = [*self.awards[-(KEEP - 1) :], award]
        self.say(self.log_line(award, names, me))
        if award.ruling is not None:
            self._explain(self.headline(award, names, me), award.ruling.explanation)
        return award

    def said(self, line: str, seat: int) -> None:
        """A game event that is not an award (a call) but may have been ruled as a claim."""
        self.say(line)
        won = [reveal for reveal, ruling in self._rulings.items() if ruling.winner == seat]
        if won:
            self._explain(line, self._rulings.pop(max(won)).explanation)

    def say(self, line: str) -> None:
        self._lines = [*self._lines[-(KEEP - 1) :], line]

    def _explain(self, what: str, explanation: str) -> None:
        self.explained = [*self.explained[-(KEEP - 1) :], (what, explanation)]

    # Reading -----------------------------------------------------------------------

    @property
    def lines(self) -> list[str]:
        """One line per award or remark, oldest first, for the table's log."""
        return list(self._lines)

    @property
    def last(self) -> Award | None:
        return self.awards[-1] if self.awards else None

    @property
    def last_explanation(self) -> str:
        """The newest ruling's full explanation ("why did Bea get it?")."""
        return self.explained[-1][1] if self.explained else ""

    def explain_recent(self, count: int = 5) -> str:
        """The newest ``count`` rulings, newest first, each under what it decided."""
        parts = [f"▶ {what}\n{why}" for what, why in reversed(self.explained[-count:])]
        return "\n\n".join(parts)

    def log_line(self, award: Award, names: Sequence[str], me: int | None) -> str:
        """``8♦ → Bea (pile 2), 43 ms ahead of you`` (margins only when contested)."""
        head = f"{award.label} → {who(award.seat, names, me)}"
        if award.note:
            head += f" ({award.note})"
        return head + self.margin_words(award, names, me) if award.contested else head

    def headline(self, award: Award | None, names: Sequence[str], me: int | None) -> str:
        """The newest award in one sentence: ``Bea got 8♦ (pile 2), 43 ms ahead of you.``"""
        if award is None:
            return ""
        margin = self.margin_words(award, names, me)
        return f"{capital(who(award.seat, names, me))} got {award.what()}{margin}."

    def margin_words(self, award: Award, names: Sequence[str], me: int | None) -> str:
        ruling = award.ruling
        if award.lost_by_ns is not None:
            if award.lost_tie:
                return ", tied with you: first to arrive wins"
            return f", {ms(award.lost_by_ns)} ahead of you"
        if ruling is None:
            return ""
        if ruling.runner_up is None or ruling.margin_ns is None:
            return f", nobody else {self.claimed}"
        runner = who(ruling.runner_up, names, me)
        if ruling.tie:
            return f", tied with {runner}: first to arrive wins"
        return f", {ms(ruling.margin_ns)} ahead of {runner}"

    def closest(self) -> tuple[int, str] | None:
        """How many awards were contested, and the closest: ``a tie (1.9 ms apart)``."""
        contested = [
            award.ruling
            for award in self.awards
            if award.ruling is not None and award.ruling.margin_ns is not None
        ]
        if not contested:
            return None
        closest = min(contested, key=lambda ruling: abs(ruling.margin_ns or 0))
        return len(contested), how_close(closest.margin_ns or 0, closest.tie)


def how_close(gap_ns: int, tie: bool) -> str:
    """A contest's margin in words: ``won by 4.0 ms``, ``a tie (1.9 ms apart)``."""
    gap = ms(abs(gap_ns))
    return f"a tie ({gap} apart)" if tie else f"won by {gap}"


class HostContests(NamedTuple):
    """The host's count of a finished real-time game's contested moments (``view.contests``),
    checked (:func:`checked_contests`)."""

    contested: int
    closest_ns: int | None
    """``None`` exactly when none was contested."""
    tie: bool


def checked_contests(value: Any) -> HostContests | None:
    """``view.contests`` as the host sends it (``{"contested": int ≥ 0, "closest_ns": int ≥ 0
    or nil, "tie": bool}``), or ``None`` for anything else: data from the network is checked
    and, when it is not that, ignored (the results then count this session's rulings)."""
    if not isinstance(value, Mapping):
        return None
    count, gap, tie = value.get("contested"), value.get("closest_ns"), value.get("tie")
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        return None
    if not isinstance(tie, bool):
        return None
    if gap is None:
        return HostContests(0, None, tie) if count == 0 else None
    if isinstance(gap, bool) or not isinstance(gap, int) or gap < 0 or count == 0:
        return None
    return HostContests(count, gap, tie)


def host_closest(contests: HostContests) -> tuple[int, str] | None:
    """:meth:`RulingHistory.closest` from the host's count (the table's, the whole game's):
    ``None`` when none was contested."""
    if contests.closest_ns is None:
        return None
    return contests.contested, how_close(contests.closest_ns, contests.tie)


def _ruling(data: Mapping[str, Any], text: str) -> Ruling | None:
    """A :class:`Ruling` from a ``claim`` event's data (``None`` if it is not one)."""
    claims = data.get("claims")
    reveal = data.get("reveal_id")
    winner = data.get("chosen")
    if not isinstance(claims, list) or not isinstance(reveal, int) or not isinstance(winner, int):
        return None
    ranked = [claim for claim in claims if isinstance(claim, Mapping)]
    best = next((claim for claim in ranked if claim.get("seat") == winner), None)
    others = [claim for claim in ranked if claim.get("seat") != winner]
    runner = others[0] if others else None
    margin = None
    if best is not None and runner is not None:
        margin = int(runner.get("credited_ns", 0)) - int(best.get("credited_ns", 0))
    return Ruling(
        reveal=reveal,
        winner=winner,
        claimants=len(ranked),
        runner_up=None if runner is None else int(runner.get("seat", -1)),
        margin_ns=margin,
        tie=bool(data.get("tie")),
        explanation=text,
    )

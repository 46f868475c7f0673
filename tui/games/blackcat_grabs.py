"""Who got each Black Cat card, and by how many milliseconds: the host's rulings, in words.

The engine's log says *that* Bea took the 8♦; only the host's arbiter knows
*why* Bea and not you. It says so in the events that come with each view: a
public ``claim`` event (every claimant's counted reaction, best first), a
private ``claim_lost`` event for each loser, then the engine's ``take``.
:class:`GrabHistory` folds those events into :class:`Grab` records and the
sentences the table shows. It is pure (events in, text out) so it is tested
without a screen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.blackcat_scoring import card_label

NS_PER_MS = 1_000_000
KEEP = 200
"""How many grabs are remembered (a two-deck game has 104 cards)."""


def ms(ns: int) -> str:
    """``43 ms`` (whole milliseconds from 10 ms up, one decimal below)."""
    value = ns / NS_PER_MS
    return f"{value:.0f} ms" if abs(value) >= 10 else f"{value:.1f} ms"


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
class Grab:
    """One card taken: by whom, into which pile, and how the host ruled."""

    reveal: int
    seat: int
    card: str
    pile: int
    ruling: Ruling | None
    lost_by_ns: int | None = None
    """Set when this player also claimed the card: how far behind they were."""
    lost_tie: bool = False


class GrabHistory:
    """The grabs seen at this table, newest last, and what to say about them."""

    def __init__(self) -> None:
        self.grabs: list[Grab] = []
        self.explained: list[tuple[str, str]] = []
        """(what was ruled, the host's explanation) for each ruling, oldest first."""
        self._rulings: dict[int, Ruling] = {}
        self._lost: dict[int, tuple[int, bool]] = {}
        self._lines: list[str] = []

    # Feeding ---------------------------------------------------------------------

    def feed(
        self, events: Iterable[Mapping[str, Any]], names: Sequence[str], me: int | None
    ) -> None:
        """Take the events that came with one view (in the order the host sent them)."""
        for event in events:
            kind = event.get("kind")
            data = event.get("data") or {}
            if not isinstance(data, Mapping):
                continue
            if kind == "claim":
                ruling = _ruling(data, str(event.get("text", "")))
                if ruling is not None:
                    self._rulings[ruling.reveal] = ruling
            elif kind == "claim_lost":
                reveal = data.get("reveal_id")
                if isinstance(reveal, int):
                    self._lost[reveal] = (int(data.get("behind_ns") or 0), bool(data.get("tie")))
            elif kind == "take":
                self._take(data, names, me)
            elif kind == "call" and isinstance(data.get("seat"), int):
                self._call(int(data["seat"]), names, me)

    def _call(self, seat: int, names: Sequence[str], me: int | None) -> None:
        """A call; one made as a claim on the top card (bots do) has a ruling too."""
        line = f"{_capital(_who(seat, names, me))} called the end."
        self._lines.append(line)
        won = [reveal for reveal, ruling in self._rulings.items() if ruling.winner == seat]
        if won:
            self._explain(line, self._rulings.pop(max(won)).explanation)

    def _take(self, data: Mapping[str, Any], names: Sequence[str], me: int | None) -> None:
        try:
            reveal, seat = int(data["reveal"]), int(data["seat"])
            card, pile = str(data["card"]), int(data["pile"])
        except (KeyError, TypeError, ValueError):
            return
        lost = self._lost.pop(reveal, None)
        grab = Grab(
            reveal,
            seat,
            card,
            pile,
            self._rulings.pop(reveal, None),
            None if lost is None else lost[0],
            False if lost is None else lost[1],
        )
        self.grabs = [*self.grabs[-(KEEP - 1) :], grab]
        line = log_line(grab, names, me)
        self._lines = [*self._lines[-(KEEP - 1) :], line]
        if grab.ruling is not None:
            self._explain(headline(grab, names, me), grab.ruling.explanation)

    def _explain(self, what: str, explanation: str) -> None:
        self.explained = [*self.explained[-(KEEP - 1) :], (what, explanation)]

    # Reading ---------------------------------------------------------------------

    @property
    def lines(self) -> list[str]:
        """One line per grab or call, oldest first, for the table's log."""
        return list(self._lines)

    @property
    def last(self) -> Grab | None:
        return self.grabs[-1] if self.grabs else None

    @property
    def last_explanation(self) -> str:
        """The newest ruling's full explanation ("why did Bea get it?")."""
        return self.explained[-1][1] if self.explained else ""

    def explain_recent(self, count: int = 5) -> str:
        """The newest ``count`` rulings, newest first, each under what it decided."""
        parts = [f"▶ {what}\n{why}" for what, why in reversed(self.explained[-count:])]
        return "\n\n".join(parts)


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


def _who(seat: int | None, names: Sequence[str], me: int | None) -> str:
    if seat is None:
        return "nobody"
    if seat == me:
        return "you"
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def log_line(grab: Grab, names: Sequence[str], me: int | None) -> str:
    """``8♦ → Bea (pile 2), 43 ms ahead of you`` for the log (margins only when contested)."""
    head = f"{card_label(grab.card)} → {_who(grab.seat, names, me)} (pile {grab.pile + 1})"
    contested = grab.lost_by_ns is not None or (
        grab.ruling is not None and grab.ruling.runner_up is not None
    )
    return head + _margin_words(grab, names, me) if contested else head


def _margin_words(grab: Grab, names: Sequence[str], me: int | None) -> str:
    ruling = grab.ruling
    if grab.lost_by_ns is not None:
        if grab.lost_tie:
            return ", tied with you: first to arrive wins"
        return f", {ms(grab.lost_by_ns)} ahead of you"
    if ruling is None:
        return ""
    if ruling.runner_up is None or ruling.margin_ns is None:
        return ", nobody else grabbed"
    runner = _who(ruling.runner_up, names, me)
    if ruling.tie:
        return f", tied with {runner}: first to arrive wins"
    return f", {ms(ruling.margin_ns)} ahead of {runner}"


def headline(grab: Grab | None, names: Sequence[str], me: int | None) -> str:
    """The newest grab in one sentence, for beside the top card."""
    if grab is None:
        return "Nobody has taken a card yet."
    who = _capital(_who(grab.seat, names, me))
    margin = _margin_words(grab, names, me)
    return f"{who} got {card_label(grab.card)} (pile {grab.pile + 1}){margin}."

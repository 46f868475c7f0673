"""A table's contested real-time moments: how many, and the closest (``view.contests``).

Each ruling the host makes on a real-time moment is journaled and counted at once (a
``ruling`` record holding its public ``claim`` event, :meth:`net.core.tables.Table.ruling`),
so a table's tally is rebuilt from its journal when the host resumes it
(:class:`net.core.tables.Replayer`). A moment is
*contested* when two seats or more claimed it; how close it was is the gap between the
chosen claim's credited reaction and the nearest other claim's. The host sends the tally
with the views of a finished game (``view.contests`` in ``net/PROTOCOL.md``), so a
results screen counts every contest at the table, not only those its own session saw
(a player who joined late, or came back in a new SSH session).

Pure: events in, figures out; anything malformed in a record is skipped, never raised
(a journal written by another version still resumes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard


def _whole(value: Any) -> TypeGuard[int]:
    """Whether ``value`` is a whole number as JSON carries one (``True`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def contest_of(data: Mapping[str, Any]) -> tuple[int, int, bool] | None:
    """A ``claim`` event's data as ``(reveal, gap_ns, tie)``, or ``None``: one claimant only,
    or not a claim event's data.

    ``gap_ns``: how far the nearest other claim's credited reaction was from the chosen
    claim's (never negative: on a tie the chosen claim may be the slower one)."""
    ruled = _ruled(data)
    if ruled is None or ruled[1] is None:
        return None
    return ruled[0], ruled[1], data.get("tie") is True


def _ruled(data: Mapping[str, Any]) -> tuple[int, int | None] | None:
    """A ``claim`` event's data as ``(reveal, gap_ns)``, ``gap_ns`` ``None`` when the chosen
    claim was the only one; ``None`` when it is not a well-formed claim event's data (the
    chosen seat's claim missing among them included)."""
    reveal, chosen, claims = data.get("reveal_id"), data.get("chosen"), data.get("claims")
    if not _whole(reveal) or not _whole(chosen) or not isinstance(claims, list):
        return None
    credited: dict[int, int] = {}
    for claim in claims:
        if not isinstance(claim, Mapping):
            return None
        seat, reaction = claim.get("seat"), claim.get("credited_ns")
        if not _whole(seat) or not _whole(reaction):
            return None
        credited.setdefault(seat, reaction)
    best = credited.pop(chosen, None)
    if best is None:
        return None
    gap = min((abs(reaction - best) for reaction in credited.values()), default=None)
    return reveal, gap


@dataclass(slots=True)
class Contests:
    """The contested moments of one game at a table (see the module docstring)."""

    moments: dict[int, tuple[int, bool]] = field(default_factory=dict)
    """Reveal id -> (gap in ns, tie), for each contested moment. Keyed by the reveal so
    that a moment ruled again (its winning claim could not be saved, the table was held
    and the moment reopened) counts once, as last ruled."""

    def add(self, events: Any) -> None:
        """Count the ``claim`` events among a ruling's public events (as journaled)."""
        if not isinstance(events, list | tuple):
            return  # a damaged record: skipped
        for event in events:
            if not isinstance(event, Mapping) or event.get("kind") != "claim":
                continue
            data = event.get("data")
            if not isinstance(data, Mapping):
                continue
            ruled = _ruled(data)
            if ruled is None:
                continue  # damaged: what was counted stands
            reveal, gap = ruled
            if gap is None:
                self.moments.pop(reveal, None)  # ruled again, with one claimant this time
            else:
                self.moments[reveal] = (gap, data.get("tie") is True)

    @property
    def count(self) -> int:
        return len(self.moments)

    def closest(self) -> tuple[int, bool] | None:
        """The closest contest's gap and whether it was a tie (``None``: none contested)."""
        if not self.moments:
            return None
        return min(self.moments.values(), key=lambda moment: (moment[0], not moment[1]))

    def to_data(self) -> dict[str, Any]:
        """``view.contests``: ``{"contested": int, "closest_ns": int or nil, "tie": bool}``."""
        closest = self.closest()
        return {
            "contested": self.count,
            "closest_ns": None if closest is None else closest[0],
            "tie": closest is not None and closest[1],
        }

"""When a table rings the terminal's bell: it became your turn, or a card or letter was
turned for everyone to go for.

A player looking at another window (a browser tab, their editor) misses a turn that
waits for them, or a real-time moment that is over in a second; the bell (a terminal's
attention signal: a beep, a flash or a marked tab, as the terminal is set) calls them
back. Rung only for a seated player, never for the first view of a table (joining is not
news), and at most once per view. Players who want quiet turn it off in the lobby (``b``,
kept in their settings) or with ``--no-bell``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _turn_moves(view: Mapping[str, Any]) -> bool:
    """The seat has a move of its own to make (a legal action that is not a claim on a
    real-time moment: a Kiitos challenge is open to all, it is nobody's turn)."""
    return any("reveal" not in action for action in view.get("legal") or ())


def attention_due(
    before: Mapping[str, Any] | None, after: Mapping[str, Any], *, reveals: bool = True
) -> str | None:
    """Why ``after`` (a seated player's view, as drawn) wants the player's attention after
    ``before``: ``"reveal"`` (``reveals``: the game turns cards or letters for everyone,
    and a new one is open), ``"turn"`` (the player has a move to make and had none), or
    ``None``."""
    if before is None or after.get("seat") is None or after.get("outcome") is not None:
        return None
    reveal = after.get("reveal")
    if reveals and reveal is not None and reveal != before.get("reveal"):
        return "reveal"
    if _turn_moves(after) and not _turn_moves(before):
        return "turn"
    return None

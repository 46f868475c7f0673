"""Logs that come as windows: each view carries the newest lines of a growing log.

Shared by the log widget (which appends only what it has not shown) and the coaches
(which explain what is new); no Textual here, so a coach can use it.
"""

from __future__ import annotations

from collections.abc import Sequence


def new_lines(shown: Sequence[str], latest: Sequence[str]) -> list[str] | None:
    """The lines of ``latest`` after what ``shown`` ends with, or ``None`` if they do not join.

    ``latest`` is a window over the same growing log: the longest tail of
    ``shown`` that is a head of ``latest`` is where they overlap.
    """
    if not shown:
        return list(latest)
    for overlap in range(min(len(shown), len(latest)), 0, -1):
        if list(shown[-overlap:]) == list(latest[:overlap]):
            return list(latest[overlap:])
    return None

"""``you``: the word for the viewer's own seat, told apart from a name by its type.

A screen or a coach says ``you`` (``your``, ``you take``) for the seat the view is for,
and a name for every other seat. Deciding that by comparing the text with ``"you"``
goes wrong for a player actually called "you" (an SSH login typed as the invitation
read when it said ``you`` where ``NAME`` now stands): every other player read "beating
your Katootsie!" for that player's call. So the word is made from a seat comparison
only (:data:`YOU`, returned by ``who``/``Coach.name`` when the seat is the viewer's),
and later choices ask :func:`is_you`, never the text. ``tests/tui/test_you_by_seat.py``
checks both: no TUI source compares a string with ``"you"``, and every game's screens
read the same for a player called "you" as for any other name.
"""

from __future__ import annotations

from typing import Final


class You(str):
    """The viewer's own seat in a sentence (``you``, or ``You`` starting one)."""

    __slots__ = ()


YOU: Final = You("you")


def is_you(word: str) -> bool:
    """Whether ``word`` stands for the viewer's own seat (made as :data:`YOU`), whatever
    its text: a player's name ``"you"`` is not."""
    return isinstance(word, You)


def capital(text: str) -> str:
    """``text`` with its first letter upper case (``str.capitalize`` would lower the rest);
    :data:`YOU` stays the viewer's word (``You``)."""
    raised = text[:1].upper() + text[1:]
    return You(raised) if isinstance(text, You) else raised

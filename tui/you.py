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

The same holds at a sentence start: a name is shown as its player typed it ("bea won",
never "Bea won"), and only our own words are raised there (``You``, ``Nobody``,
``Your 3 hats``). Which is which is known where the text is made, not from its letters,
so our words carry a type (:class:`Ours`, :class:`You`) and :func:`capital` raises
nothing else: a text of unknown kind is left as it is. ``tests/tui/test_names_as_typed.py``
checks every game's screens and coach for a player called in lower case.
"""

from __future__ import annotations

from typing import Final


class Ours(str):
    """A text that starts with a word of our own (``nobody``, ``your``, ``seat 3``), not
    with a player's name: :func:`capital` may raise its first letter."""

    __slots__ = ()


class You(Ours):
    """The viewer's own seat in a sentence (``you``, or ``You`` starting one)."""

    __slots__ = ()


YOU: Final = You("you")


def is_you(word: str) -> bool:
    """Whether ``word`` stands for the viewer's own seat (made as :data:`YOU`), whatever
    its text: a player's name ``"you"`` is not."""
    return isinstance(word, You)


def capital(text: str) -> str:
    """``text`` to start a sentence: our own words with their first letter upper case
    (``You``, ``Nobody``, ``Your 3 hats``), anything else as it is, so a player's name
    reads as typed (``bea``). ``str.capitalize`` would lower the rest; :data:`YOU` stays
    the viewer's word."""
    if not isinstance(text, Ours):
        return text
    return type(text)(text[:1].upper() + text[1:])


def phrase(first: str, rest: str) -> str:
    """``first`` then ``rest``, of ``first``'s kind at a sentence start: ``your 3 hats``
    is ours to raise (:class:`Ours`, no longer :data:`YOU`), ``bea's 3 hats`` is not."""
    text = first + rest
    return Ours(text) if isinstance(first, Ours) else text

"""The engine's typed errors: each with a message a player can read and a stable ``code``
that the protocol forwards (python-chess style: callers catch the kind they handle)."""

from __future__ import annotations

from typing import ClassVar


class IllegalAction(ValueError):
    """An action that the rules do not allow now.

    The message is written for the player ("It is Bea's turn", "You must
    follow red"). ``code`` is a stable machine-readable reason that the
    protocol forwards with the message.
    """

    code: ClassVar[str] = "illegal_action"


class NotYourTurn(IllegalAction):
    """The seat acted when it was not theirs to act."""

    code = "not_your_turn"


class InvalidAction(IllegalAction):
    """The action is malformed: not a map, unknown type, missing or bad field."""

    code = "invalid_action"


class GameOver(IllegalAction):
    """The game has ended; no further action is accepted."""

    code = "game_over"


class StaleReveal(IllegalAction):
    """Real-time games: a claim aimed at a moment that is not open now (passed, or not yet).

    A claim names the reveal it reacts to (:meth:`Game.reveal`), so one that
    arrives after another claim took the card is refused with this, instead
    of taking whatever is open now.
    """

    code = "stale_reveal"


class InvalidOptions(ValueError):
    """Table options (or the player list) that a game cannot be set up with."""

    code: ClassVar[str] = "invalid_options"

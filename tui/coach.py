"""The coach of a first game: what may be done now and why, and what just happened.

A coached table (``clowder learn GAME``, or ``l`` in the lobby) is a solo table
against easy bots. At each view the screen asks its game's coach two things:

- :meth:`Coach.now`: what this seat may do now, and the rule that makes it so
  ("You must follow Red: you hold R2 and R4"), read from the view's legal
  actions. The screen shows it in a panel above the log, replaced each view.
- :meth:`Coach.after`: what the last change means ("Bot Tom's B5 beats your
  B2: same colour, higher number"), from the view before and the view now.
  The screen writes it into the log once, marked as the coach's.

A coach is pure and sees only what the player sees: the seat's own views,
never the engine's state, so it cannot say more than the player could know.
It has no Textual in it, so each game's coach is tested over whole random
games without an app. Each game's coach lives with its screen, in
``tui/games/<game>/coach.py`` (:func:`tui.games.coach_class` finds it); a game
without one gets :class:`Coach` itself, which reads out the legal actions.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar, cast

from engine.core import BaseView
from net.wire.text import clean_text
from tui.log_window import new_lines
from tui.you import YOU, Ours, is_you, phrase

V = TypeVar("V", bound=BaseView)

FIRST_GAME_LEVEL = "easy"
"""The bots' level at a coached table."""
PANEL_WIDTH = 28
"""The coach panel's text width at 80x24 when it sits in a table's side column (30 columns
less the column's border and padding). A screen whose log is on the board (Katootsie!'s) has
a wider panel: its coach passes its own width to :func:`fit`."""
PANEL_ROWS = 6
"""The panel's text rows at most (:class:`tui.widgets.coach.CoachPanel` adds its top border):
at 80x24 the log below keeps a few rows."""
MOST_LINES = 4
"""Lines a coach says at once at most (advice or explanations)."""
LONGEST = 160
"""A coach line at most: a very long player name or answer is cut to keep to it."""


class Coach(Generic[V]):
    """Reads one seat's views and says what may be done and what happened, in plain words.

    A game's coach subclasses this with its ``game`` and its view type
    (``class CatchyCoach(Coach[CatchyView])``) and overrides :meth:`now` and
    :meth:`after`; the defaults read the legal actions and the new log lines,
    which any game has.
    """

    game: ClassVar[str] = ""
    """The engine's name for the game (how :func:`tui.games.coach_class` finds it)."""
    seats: ClassVar[int] = 2
    """How many seats a first game has: the learner and easy bots in the others."""
    first_game: ClassVar[dict[str, Any]] = {}
    """Table options for a first game (a shorter game, say), checked by the engine."""
    panel_width: ClassVar[int] = PANEL_WIDTH
    """The width of this game's coach panel at 80x24 (its table's side column, or wider where
    the log sits on the board)."""
    welcome: ClassVar[str] = ""
    """The first thing the coach says, when the cards are dealt: the aim of the game."""
    held_moments: ClassVar[int] = 0
    """A real-time game: how many of the first moments the learner may claim in wait for them
    (the host holds each until they act or go on: ``learn`` in net/PROTOCOL.md), so that
    the first cards or letters are learnt step by step, with time to read the coach."""
    bot_pace: ClassVar[int] = 1
    """A real-time game: the bots take this many times as long to claim as at any table
    (then the game runs by itself, slower than for people who know it)."""

    # What a screen calls ------------------------------------------------------------

    def now(self, view: V) -> list[str]:
        """What this seat may do now and why; empty when there is nothing to do.

        The default names the legal actions (the generic table's menu labels them).
        """
        if view["seat"] is None or view["outcome"] is not None:
            return []
        legal = view["legal"]
        if not legal:
            return [self.waiting_line(view)]
        kinds = sorted({str(action.get("type", "?")) for action in legal})
        return [f"You may: {', '.join(kinds)}."]

    def after(self, before: V, view: V) -> list[str]:
        """What changed from ``before`` to ``view``, explained; empty when nothing needs it.

        The default says nothing: the game's log already tells what happened.
        """
        return []

    def opening(self, view: V) -> list[str]:
        """What the coach says at the deal: :attr:`welcome`, and how to read the rules."""
        lines = [self.welcome] if self.welcome else []
        return [*lines, "Press r at any time for the rules; q leaves."]

    # Helpers for a game's coach ---------------------------------------------------

    @staticmethod
    def name(view: BaseView, seat: int | None) -> str:
        """A seat's name as the coach says it: ``you``, or the player's name (cleaned)."""
        if seat is None:
            return Ours("nobody")
        if seat == view["seat"]:
            return YOU
        players = view["players"]
        if 0 <= seat < len(players):
            return clean_text(str(players[seat]))
        return Ours(f"seat {seat + 1}")

    @classmethod
    def possessive(cls, view: BaseView, seat: int | None) -> str:
        """``your`` or ``Bot Tom's`` (raised at a sentence start only if ours)."""
        who = cls.name(view, seat)
        return Ours("your") if is_you(who) else phrase(who, "'s")

    def waiting_line(self, view: V) -> str:
        """What to say while others act (a game whose views name a ``turn`` says whose)."""
        turn = cast(Mapping[str, Any], view).get("turn")
        if isinstance(turn, int) and turn != view["seat"]:
            return f"Wait: it is {self.possessive(view, turn)} turn."
        return "Wait for the others."

    @staticmethod
    def listed(items: Sequence[str], last: str = "and") -> str:
        """``a``, ``a and b``, ``a, b and c``: raised at a sentence start as ``a`` is."""
        items = list(items)
        if len(items) <= 1:
            return items[0] if items else ""
        middle = "".join(f", {item}" for item in items[1:-1])
        return phrase(items[0], f"{middle} {last} {items[-1]}")


# Words every game's coach uses --------------------------------------------------------------


def rows(lines: Sequence[str], width: int = PANEL_WIDTH) -> int:
    """How many panel rows ``lines`` take once wrapped at ``width``."""
    return sum(max(1, len(textwrap.wrap(line, width))) for line in lines)


def clip(line: str) -> str:
    """``line`` cut to :data:`LONGEST` characters."""
    return line if len(line) <= LONGEST else line[: LONGEST - 3].rstrip() + "..."


def fit(needed: Sequence[str], extra: Sequence[str] = (), *, width: int = PANEL_WIDTH) -> list[str]:
    """``needed``, then each of ``extra`` (in order) that the panel still shows whole.

    The panel clips what does not fit, so a hint that would push the move itself (or its
    keys) out of sight is left out rather than cut. At most :data:`MOST_LINES` lines.
    """
    lines = [clip(line) for line in needed][:MOST_LINES]
    for line in extra:
        if len(lines) < MOST_LINES and rows([*lines, clip(line)], width) <= PANEL_ROWS:
            lines.append(clip(line))
    return lines


def new_log_lines(before: Sequence[str], now: Sequence[str]) -> list[str]:
    """The log lines ``now`` adds to ``before`` (both the newest lines of one log: a window
    that slides); all of ``now`` when they do not overlap."""
    fresh = new_lines(before, now)
    return list(now) if fresh is None else fresh

"""A player's name reads as its player typed it, even starting a sentence (issue 36, item 11).

A player who typed "bea" read "Bea won", "Bea called the end.", "Bea's 3 hats is the top
bid allowed.": the screens raised the first letter of every sentence, names included.
Only our own words are raised now (``You``, ``Nobody``, ``Your 3 hats``: see
:mod:`tui.you`). For every game of ``registry.names()``, a seeded random game is played
with every name in lower case, as in ``test_you_by_seat.py``:

* what the coach says to each seat (and a spectator) at every step, and what seat 1's
  table screen draws at a sample of steps (Pilot, 80x24), never shows a name raised
  ("Bea" for "bea");
* the coach still starts a sentence about the viewer with ``You``/``Your``, never
  ``you``, and says so at least once a game.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import registry
from tests.contract import Playout, play
from tests.tui.test_you_by_seat import moments, screens_drawn, views
from tui.games import coach_class
from tui.games.catchy.screen import trick_summary
from tui.you import YOU, capital, is_you

NAMES = ("ann", "bea", "cy", "dot")
SEED = 11
MAX_STEPS = 160
RAISED = re.compile(r"\b(?:" + "|".join(name.capitalize() for name in NAMES) + r")\b")
"""A name of :data:`NAMES` with its first letter raised, anywhere in a text."""
LOWER_YOU = re.compile(r"(?:^|[.!?]\s+)your?\b")
"""``you``/``your`` starting a coach line or a sentence in one."""
RAISED_YOU = re.compile(r"(?:^|[.!?]\s+)Your?\b")


def playout(name: str) -> Playout:
    """A seeded random game of ``name`` between lower-case players (as many as it takes,
    up to four)."""
    game = registry.get(name)
    count = min(game.max_players, max(game.min_players, len(NAMES)))
    return play(game, list(NAMES[:count]), SEED, max_steps=MAX_STEPS)


def coach_lines(name: str, game: Playout, seat: int | None) -> list[str]:
    """Everything the coach says to ``seat`` over the game: its opening, what changed at
    each step and what to do now."""
    coach = coach_class(name)()
    said: list[str] = []
    before: Any = None
    for view, _ in views(game, seat):
        said += coach.opening(view) if before is None else coach.after(before, view)
        said += coach.now(view)
        before = view
    return said


@pytest.mark.parametrize("name", registry.names())
def test_every_coach_says_a_name_as_typed_and_you_raised(name: str) -> None:
    game = playout(name)
    for seat in [*range(len(game.players)), None]:
        said = coach_lines(name, game, seat)
        raised = [line for line in said if RAISED.search(line)]
        assert not raised, f"{name}, seat {seat}: a name raised:\n" + "\n".join(raised)
        lower = [line for line in said if LOWER_YOU.search(line)]
        assert not lower, f"{name}, seat {seat}: a sentence starts 'you':\n" + "\n".join(lower)
        if seat is not None:
            assert any(RAISED_YOU.search(line) for line in said), f"{name}, seat {seat}: no 'You'"


@pytest.mark.parametrize("name", registry.names())
async def test_every_screen_shows_a_name_as_typed(name: str) -> None:
    game = playout(name)
    steps = moments(game)
    for step, text in zip(steps, await screens_drawn(name, game, steps), strict=True):
        rows = [row for row in text.splitlines() if RAISED.search(row)]
        assert not rows, f"{name}, seat 1, step {step}: a name raised:\n" + "\n".join(rows)


def test_capital_raises_only_our_words() -> None:
    from tui.you import Ours, phrase

    assert capital("bea") == "bea"
    assert capital("you") == "you"  # a player called "you" is a name too
    assert capital(YOU) == "You" and is_you(capital(YOU))
    assert capital(Ours("nobody")) == "Nobody"
    assert capital(phrase(Ours("your"), " 3 hats")) == "Your 3 hats"
    assert capital(phrase("bea", "'s 3 hats")) == "bea's 3 hats"
    assert not is_you(phrase(YOU, " and bea"))


def test_a_catchy_trick_is_won_by_bea_or_by_you() -> None:
    """The report's own words: "Bea won" for a player who typed "bea"."""
    view: Any = {"seat": 1, "players": ["bea", "cy"]}
    trick = {"winner": 0, "side": "red", "toward": 0, "flipped": False}
    assert trick_summary(view, trick).startswith("bea won.")
    assert trick_summary(view, {**trick, "winner": 1}).startswith("You won.")

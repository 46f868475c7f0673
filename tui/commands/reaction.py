"""``--bot-reaction S``: how fast bots react at real-time tables, for every command.

Bots' reaction times are drawn around a typical figure with jitter, and are
longer for cards they only half want (:mod:`engine.games.blackcat.bot`). This
option moves the typical figure: the host (or the network bot) multiplies
every drawn reaction by ``S / default``. Beginners may want 1.5; a quick
table 0.5. Turn-based games ignore it.
"""

from __future__ import annotations

import argparse

from engine.bots import DEFAULT_REACTION_S
from tui.commands import UsageError

FASTEST_S = 0.3
SLOWEST_S = 10.0


def add_bot_reaction(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bot-reaction",
        type=float,
        default=DEFAULT_REACTION_S,
        metavar="S",
        help="real-time games: a bot's typical reaction in seconds; larger is slower"
        " (default: %(default)s)",
    )


def reaction_scale(seconds: float) -> float:
    """What the host multiplies bots' reaction times by; a clear error when out of range."""
    if not FASTEST_S <= seconds <= SLOWEST_S:
        raise UsageError(
            f"--bot-reaction is {FASTEST_S} to {SLOWEST_S} seconds (a person takes about"
            f" {DEFAULT_REACTION_S}), not {seconds:g}"
        )
    return seconds / DEFAULT_REACTION_S

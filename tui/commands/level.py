"""``--bot-level LEVEL``: how well the bots play, for ``play``, ``host`` and ``bot``.

Every game has three bot levels (:data:`engine.bots.LEVELS`), each its own
strategy: ``easy`` for a first game, ``normal`` (the default), ``hard``. The
ladder (``python -m tests.perf ladder``) measures that each beats the one below.
"""

from __future__ import annotations

import argparse

from engine.bots import DEFAULT_LEVEL, LEVELS


def level_name(text: str) -> str:
    """``text`` as a level; a typo is one clear line that lists the levels."""
    level = text.strip().lower()
    if level not in LEVELS:
        raise argparse.ArgumentTypeError(
            f"there is no bot level {text!r} (levels: {', '.join(LEVELS)})"
        )
    return level


def add_bot_level(parser: argparse.ArgumentParser, what: str = "the bots") -> None:
    """Add ``--bot-level`` (``None`` when not given: the default, or the host's)."""
    parser.add_argument(
        "--bot-level",
        type=level_name,
        metavar="LEVEL",
        help=f"how well {what} play: {', '.join(LEVELS)} (default: {DEFAULT_LEVEL})",
    )

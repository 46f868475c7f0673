"""Black Cat: its rules (``rules.py``), bots and data; ``GAME`` is what the registry finds."""

from engine.games.blackcat.rules import GAME

__all__ = ["GAME"]

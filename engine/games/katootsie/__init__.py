"""Katootsie!: its rules (``rules.py``), bots and data; ``GAME`` is what the registry finds."""

from engine.games.katootsie.rules import GAME

__all__ = ["GAME"]

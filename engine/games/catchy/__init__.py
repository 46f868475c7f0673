"""Catchy!: its rules (``rules.py``), bot and data; ``GAME`` is what the registry finds."""

from engine.games.catchy.rules import GAME

__all__ = ["GAME"]

"""Kiitos: its rules (``rules.py``), bots and data; ``GAME`` is what the registry finds."""

from engine.games.kiitos.rules import GAME

__all__ = ["GAME"]

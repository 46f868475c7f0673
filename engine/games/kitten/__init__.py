"""You Gotta Be Kitten Me!: its rules (``rules.py``), bots and data.

``GAME`` is what the registry finds.
"""

from engine.games.kitten.rules import GAME

__all__ = ["GAME"]

"""Toy: its rules (``rules.py``) and notes (``RULES.md``); ``GAME`` is what the registry finds.

Imports inside the package are relative, so the same files load as
``tests.sixth.engine.games.toy`` (the tests' own toy) and, once
``tests/sixth/engine/games`` joins ``engine.games.__path__``, as
``engine.games.toy``: the name a shipped sixth game would have.
"""

from .rules import GAME

__all__ = ["GAME"]

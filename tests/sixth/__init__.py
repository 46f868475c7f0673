"""A sixth game, laid out exactly as a shipped one, to show what adding a game touches.

``engine/games/toy/`` here is what ``engine/games/<new>/`` would be in the
project: ``tests/sixth/test_sixth_game.py`` puts this folder on the
registry's scan path and plays the game through the host core and the
generic table with nothing else in ``engine/``, ``net/`` or ``tui/``
changed. ``engine/__init__.py`` and ``engine/games/__init__.py`` here only
stand for the project's existing packages.
"""

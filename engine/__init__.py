"""Clowder's rules engine: pure, sans-I/O game logic, bots and game data.

See :mod:`engine.core` for the contract every game follows and
:mod:`engine.registry` for the games by name.
"""

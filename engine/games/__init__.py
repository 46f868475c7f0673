"""The games, one package each: ``engine/games/<name>/``.

A game's package holds everything of it below the network: ``rules.py``
(the :class:`~engine.core.Game` object, ``GAME``, and its state), its bots
(``bot.py``), its data access and data files (``data/``), and ``RULES.md``,
the rulebook's gaps and how this engine fills them. The package re-exports
``GAME``; :mod:`engine.registry` finds every package here that does, so adding
a game is adding its package.
"""

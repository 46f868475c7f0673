"""Python's cycle collector kept out of the frames a player is waiting for.

A full (oldest-generation) collection walks every object the process holds: the
imported Textual, Rich and Clowder, the screen's widgets and their caches, about
77,000 objects at a table. At a table that took 20-100 ms of one frame, a few
times a game (measured: six full collections in 150 Black Cat views, 380 ms in
all, which made the p99 of a view's drawing 87 ms against a p50 of 7 ms); a
Black Cat card waits for it before it is drawn.

:func:`settle` collects once, at a moment nobody waits on (a table's first view
drawn: the deal, or a real-time game's start countdown), then moves every object
alive into the permanent generation (:func:`gc.freeze`), where later collections
do not walk it. They walk only what the game made since, so they stay short.

The cost: a frozen object that later becomes part of a garbage cycle is not
reclaimed until the next :func:`settle` (garbage without cycles is freed at
once, by reference counting, as ever). Each settle first unfreezes, so an old
table's widgets are collected when the next table begins: the memory held back
is at most one table's worth.
"""

from __future__ import annotations

import gc

enabled = True
"""Off in the test suite (``tests/conftest.py``): one process draws hundreds of tables
there, and each settle would walk pytest's whole heap too."""


def settle() -> None:
    """Collect every generation now, then freeze what is left (see the module doc)."""
    if not enabled:
        return
    gc.unfreeze()
    gc.collect()
    gc.freeze()

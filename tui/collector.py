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

Before collecting, :func:`settle` also empties one of Textual's caches that keeps
widgets' drawings alive after the widgets are gone: ``StylesCache.get_inner_outer`` is
an ``lru_cache`` on a method, so each of its 1,024 entries holds a widget's whole
``StylesCache`` (every line it drew, each with its own caches) in its key (Textual
issue 6665). A Black Cat table left about 27 of them behind. ``python -m tests.perf tui
--evening`` draws 18 Black Cat tables in one process: without this, the objects alive
after a settle grew from 178,000 (tables 2-4) to 315,000 (the last three), the process
from 77 to 96 MiB, and each settle from 129-150 to 227-228 ms, still growing; with it,
167,000 to 163,000 objects and 75 to 78 MiB. The cache only maps two colours to two
styles, and fills again as the next frame draws.

A settle also spaces the young generation's collections out
(:data:`YOUNG_COLLECTION_EVERY`). Python collects the young generation every 700 new
container objects, and a view at a table makes several thousand (texts, segments,
strips, messages): about three collections a view, and each one moves what happens to
be alive at that instant (a frame's half-built lines) to an older generation, whose
collections then walk it again, until a full one (20-50 ms) comes about every 50-80
views. Collected every 10,000, most of a view's objects are gone by the time the
collector looks, and full collections during play become rare.
"""

from __future__ import annotations

import gc

from textual._styles_cache import StylesCache

YOUNG_COLLECTION_EVERY = 10_000
"""New container objects between two collections of the young generation at a table
(Python's default is 700; see the module doc). Measured on 150 views of each game, three
runs of each in turn (``gc.callbacks``, the settles left out), automatic collection a
view, 700 against 10,000: Black Cat 0.78-1.23 ms against 0.34-0.56, Catchy! 0.87-1.12
against 0.34-0.37, Katootsie! 0.70-0.78 against 0.33-0.39, Kiitos 0.61-0.66 against
0.40-0.59, Kitten Me! 0.89-1.28 against 0.52-0.67. Full collections during play, in each
game's 150 views: one to three before, none after (Black Cat: one)."""

enabled = True
"""Off in the test suite (``tests/conftest.py``): one process draws hundreds of tables
there, and each settle would walk pytest's whole heap too."""


def settle() -> None:
    """Collect every generation now, then freeze what is left, and collect the young
    generation less often from now on (see the module doc)."""
    if not enabled:
        return
    forget_drawings_of_gone_widgets()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, *gc.get_threshold()[1:])
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def forget_drawings_of_gone_widgets() -> None:
    """Empty Textual's per-widget colour cache, which keeps gone widgets' lines alive (see
    the module doc). Nothing to do on a Textual without it (a fixed or older version)."""
    cached = getattr(StylesCache, "get_inner_outer", None)
    clear = getattr(cached, "cache_clear", None)
    if callable(clear):
        clear()

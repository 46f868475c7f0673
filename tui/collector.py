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
"""

from __future__ import annotations

import gc

from textual._styles_cache import StylesCache

enabled = True
"""Off in the test suite (``tests/conftest.py``): one process draws hundreds of tables
there, and each settle would walk pytest's whole heap too."""


def settle() -> None:
    """Collect every generation now, then freeze what is left (see the module doc)."""
    if not enabled:
        return
    forget_drawings_of_gone_widgets()
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

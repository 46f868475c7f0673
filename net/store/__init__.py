"""What a host keeps on disk and reads back: table journals, replays, scores and ratings.

It may import :mod:`net.wire` and the engine, never :mod:`net.core` (the core writes
through the store's interfaces, not the other way round), nor an event loop or a
socket. The core and the doors import it.
"""

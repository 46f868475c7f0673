"""The host's rules without I/O: lobby, tables, seats, timers, clocks, the arbiter, chat, budgets.

Plain objects fed ``(connection, message or event, now)`` that return effects
(frames to send, records to write, the next deadline), driven by the asyncio
host (:mod:`net.doors.host`) and by the simulator alike. It may import
:mod:`net.wire`, :mod:`net.store` and the engine; never an event loop, a socket,
a clock or another room. Only :mod:`net.doors` (and tests) import it.
"""

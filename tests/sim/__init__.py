"""A deterministic simulator of a whole Clowder host: every game, many clients, faults.

One process, one seeded virtual clock and network. The host core
(:mod:`net.core.host`) is driven exactly as the asyncio adapter drives it,
but every ``now`` comes from the virtual clock and every byte crosses a
simulated link with a seeded delay. Simulated players and spectators speak
the real protocol (:class:`net.wire.protocol.ClientProtocol`); faults (dropped
and half-open connections, killed clients, duplicate hellos, host crashes at
a journal record, skewed client clocks) come from the same seed. After
every step the invariants in :mod:`tests.sim.invariants` are checked, and a
failure names its seed and the command that replays it.

Modules, one job each:

``clock``       the virtual clock and its event queue
``network``     links: ordered bytes with seeded delays, chunking, resets, black holes
``store``       the journal store the host writes to, with crash and skip points
``faults``      which faults a run gets, drawn from its seed
``shadow``      the offline replay of each table's journal, version by version
``clients``     simulated people: players and spectators on the real protocol
``invariants``  the checks, and the error that carries the replay command
``profiles``    the quick profile (the test suite) and the long one (soak runs)
``breaks``      deliberately broken hosts, to prove the checks catch them
``world``       one run: the host core, the clients, the event loop
``runner``      many runs, and the figures printed at the end

Run it as ``python -m tests.sim --games all --seeds 200`` (``--help`` for the
rest); a failure prints the one-line command that replays it, such as
``python -m tests.sim --game kitten --seed 161``. ``tests/sim/test_sim.py``
runs the quick profile in the test suite.
"""

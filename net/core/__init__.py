"""The host's rules without I/O (see :mod:`net.core.host`): what the asyncio host and the
simulator both drive."""

"""The ways into a host, each a thin adapter around :mod:`net.core`: the asyncio host
(TCP), the SSH and web gateways, and advertising on the LAN.

The only room of the host with sockets and an event loop. It may import every other
room; the TUI (which starts hosts) and tests import it.
"""

"""A player's side of the wire: the client connection, finding hosts on the LAN, network
bots, and the table clock a screen shows.

It may import :mod:`net.wire` only (and :mod:`net.client.discovery` is shared with the
host's advertiser in :mod:`net.doors`); the TUI imports it.
"""

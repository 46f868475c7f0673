"""The one parser of a host's address, for ``clowder join``, ``clowder bot`` and the lobby.

``box``, ``box:7707``, ``198.18.0.1:7707``, ``::1``, ``[::1]`` and
``[::1]:7707`` all work; without a port the host's default (7707) is used.
An IPv6 address with a port needs its brackets (``::1:7707`` is itself an
IPv6 address). Anything else is refused with a sentence saying what is
wrong, as :class:`BadAddress` (a ``ValueError``): the lobby's dialog shows
it, the commands print it and exit with status 2.
"""

from __future__ import annotations

import ipaddress

from net.doors import DEFAULT_PORT

__all__ = ["ADDRESS_HELP", "DEFAULT_PORT", "BadAddress", "address_text", "parse_address"]

EXAMPLE = "192.168.1.20 or 192.168.1.20:7707"
ADDRESS_HELP = (
    f"the host: HOST, HOST:PORT, [IPV6] or [IPV6]:PORT (port {DEFAULT_PORT} if not given)"
)
"""The ``HOST[:PORT]`` argument's help, the same in every command."""


class BadAddress(ValueError):
    """Text that is not ``HOST``, ``HOST:PORT``, ``[IPV6]`` or ``[IPV6]:PORT``."""


def address_text(host: str, port: int) -> str:
    """``host:port`` as :func:`parse_address` reads it back (``[::1]:7707`` for IPv6)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``(host, port)`` for ``text``; :class:`BadAddress` with a readable sentence if it is bad.

    IPv6 hosts come back without their brackets (``"[::1]:9000"`` is
    ``("::1", 9000)``), ready for :func:`asyncio.open_connection`.
    """
    text = text.strip()
    if not text:
        raise BadAddress(f"Type an address such as {EXAMPLE}")
    if text.startswith("["):
        host, closed, rest = text[1:].partition("]")
        if not closed:
            raise BadAddress(f"{text!r} opens '[' but never closes it with ']'")
        if rest and not rest.startswith(":"):
            raise BadAddress(f"{text!r} has {rest!r} after ']' (write [host]:port)")
        if not host:
            raise BadAddress(f"{text!r} has no address between '[' and ']'")
        if not _is_ipv6(host):
            raise BadAddress(f"{host!r} in {text!r} is not an IPv6 address")
        return host, (_port(text, rest[1:], default_port) if rest else default_port)
    if text.count(":") > 1:
        if _is_ipv6(text):
            return text, default_port
        raise BadAddress(
            f"{text!r} has more than one ':' (an IPv6 address with a port is written [::1]:7707)"
        )
    host, colon, port_text = text.partition(":")
    if not host:
        raise BadAddress(f"{text!r} has a port but no host")
    if any(char.isspace() or not char.isprintable() or char in "[]" for char in host):
        raise BadAddress(f"{host!r} is not a host name or address")
    return host, (_port(text, port_text, default_port) if colon else default_port)


def _is_ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


def _port(text: str, port_text: str, default_port: int) -> int:
    if not port_text:
        raise BadAddress(f"{text!r} ends with ':' but no port (leave it out for {default_port})")
    if not (port_text.isascii() and port_text.isdigit()):
        raise BadAddress(f"The port must be a number, not {port_text!r}")
    port = int(port_text)
    if not 0 < port < 65536:
        raise BadAddress(f"The port must be 1 to 65535, not {port}")
    return port

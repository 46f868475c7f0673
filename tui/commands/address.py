"""Parsing ``HOST[:PORT]`` arguments the same way in every command."""

from __future__ import annotations

from tui.commands import UsageError

DEFAULT_PORT = 7707


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``"box"``, ``"box:7707"``, ``"198.18.0.1:7707"`` or ``"[::1]:7707"`` to (host, port)."""
    text = text.strip()
    host, port_text = text, ""
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest.removeprefix(":")
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    if not host:
        raise UsageError(f"{text!r} has no host name or address")
    if not port_text:
        return host, default_port
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise UsageError(f"{port_text!r} is not a port number (1-65535)")
    return host, int(port_text)

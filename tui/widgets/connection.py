"""The connection line: our link to the host, and each seat's presence and round trip."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


def seat_text(seat: dict[str, Any], *, you: bool) -> Text:
    """``Ann 3ms`` / ``Tom bot`` / ``Bea away (bot covers)`` for one seat of ``Presence``."""
    name = seat.get("name") or "(free)"
    out = Text(name + ("*" if you else ""), style="bold" if you else "")
    if seat.get("bot") and not seat.get("human"):
        out.append(" bot", style="bright_black")
    elif not seat.get("connected"):
        cover = " (bot covers)" if seat.get("covered") else ""
        out.append(f" away{cover}", style="bold bright_red")
    else:
        rtt = seat.get("rtt_ms")
        out.append(" ●", style="bright_green")
        out.append(f" {rtt:.0f}ms" if isinstance(rtt, int | float) else " --ms")
    return out


class ConnectionLine(Widget):
    """``● 127.0.0.1:7707 · Ann* 1ms · Tom bot``; ``○ reconnecting...`` when the link is down."""

    DEFAULT_CSS = """
    ConnectionLine { height: 1; }
    """

    connected: reactive[bool] = reactive(True)
    detail: reactive[str] = reactive("")
    seats: reactive[tuple[dict[str, Any], ...]] = reactive(tuple)
    you: reactive[int | None] = reactive(None)

    def set_link(self, connected: bool, detail: str) -> None:
        self.connected = connected
        self.detail = detail

    def set_seats(self, seats: Sequence[dict[str, Any]], you: int | None) -> None:
        self.you = you
        self.seats = tuple(dict(seat) for seat in seats)

    def render(self) -> Text:
        if self.connected:
            out = Text("● ", style="bright_green")
            out.append(self.detail or "connected")
        else:
            out = Text("○ ", style="bold bright_red")
            out.append(self.detail or "disconnected", style="bold bright_red")
        for index, seat in enumerate(self.seats):
            out.append(" · ", style="bright_black")
            out.append_text(seat_text(seat, you=index == self.you))
        return out

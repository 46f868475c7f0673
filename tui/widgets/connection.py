"""The connection line: our link to the host, and each seat's presence and round trip."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.reactive import reactive

from net.wire.text import clean_text
from tui.widgets.lines import TextLines
from tui.widgets.look import PLAIN, Look, component_classes, read_look

LOOKS = ("up", "down", "muted")
"""Connected (●), gone (○, away: bold too, so it reads without colour), separators and bots."""


def seat_text(seat: dict[str, Any], *, you: bool, look: Look = PLAIN) -> Text:
    """``Ann 3ms`` / ``Tom bot`` / ``Bea dropped (bot covers)`` / ``Bea stepped away`` /
    ``(free seat)`` for one seat of ``Presence``."""
    if not seat.get("name"):
        return Text("(free seat)", style=look("muted"))
    name = clean_text(str(seat.get("name")))
    out = Text(name + ("*" if you else ""), style="bold" if you else "")
    if seat.get("bot") and not seat.get("human"):
        out.append(" bot", style=look("muted"))
    elif not seat.get("connected"):
        # Left on purpose ("leave for now") or lost the connection: the others can tell.
        gone = " stepped away" if seat.get("stepped_away") else " dropped"
        cover = " (bot covers)" if seat.get("covered") else ""
        out.append(f"{gone}{cover}", style=look("down"))
    else:
        rtt = seat.get("rtt_ms")
        out.append(" ●", style=look("up"))
        out.append(f" {rtt:.0f}ms" if isinstance(rtt, int | float) else " --ms")
    return out


class ConnectionLine(TextLines):
    """``● 127.0.0.1:7707 · Ann* 1ms · Tom bot``; ``○ reconnecting...`` when the link is down."""

    COMPONENT_CLASSES: ClassVar[set[str]] = component_classes("connection", LOOKS)

    DEFAULT_CSS = """
    ConnectionLine { height: 1; }
    ConnectionLine > .connection--up { color: $success; }
    ConnectionLine > .connection--down { color: $error; text-style: bold; }
    ConnectionLine > .connection--muted { color: $text-muted; }
    """

    connected: reactive[bool] = reactive(True)
    detail: reactive[str] = reactive("")
    seats: reactive[tuple[dict[str, Any], ...]] = reactive(tuple)
    you: reactive[int | None] = reactive(None)

    def watch_connected(self) -> None:
        self.follow_height()

    def watch_detail(self) -> None:
        self.follow_height()

    def watch_seats(self) -> None:
        self.follow_height()

    def set_link(self, connected: bool, detail: str) -> None:
        self.connected = connected
        self.detail = detail

    def set_seats(self, seats: Sequence[dict[str, Any]], you: int | None) -> None:
        """Show ``seats``; repainted only when what the line says changes (each round trip
        is shown in whole milliseconds, and the host sends them every two seconds)."""
        self.you = you
        self.seats = tuple(_as_shown(seat) for seat in seats)

    def render(self) -> Text:
        look = read_look(self, "connection", LOOKS)
        if self.connected:
            out = Text.assemble(("● ", look("up")), self.detail or "connected")
        else:
            out = Text.assemble(("○ ", look("down")), (self.detail or "disconnected", look("down")))
        for index, seat in enumerate(self.seats):
            out.append(" · ", style=look("muted"))
            out.append_text(seat_text(seat, you=index == self.you, look=look))
        return out


def _as_shown(seat: dict[str, Any]) -> dict[str, Any]:
    """A seat with its round trip as the line shows it (whole milliseconds)."""
    shown = dict(seat)
    rtt = shown.get("rtt_ms")
    if isinstance(rtt, int | float) and not isinstance(rtt, bool):
        shown["rtt_ms"] = round(rtt)
    return shown

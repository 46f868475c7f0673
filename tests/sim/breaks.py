"""Deliberately broken hosts: each must be caught by an invariant, with a seed that replays it.

A break wraps the host from outside, never by editing it: it changes the
core's output frames on their way to the network, or what the journal
store keeps. Each fires once, at the first chance it gets:

``drop-frame``    one view to one player is never sent (the first that gives that
                  player something to do); the ``no_gap`` or ``screen`` check sees it
``leak-card``     one view to a seated player also carries a card hidden from that seat
                  (a code from ``game.hidden`` of the state it shows); ``secrecy`` sees it
``skip-journal``  one ``act`` record is not kept; the next view is of a version the
                  journal does not hold (``replay``)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.sim.clients import Pipe

if TYPE_CHECKING:
    from tests.sim.world import World

BREAKS = ("drop-frame", "leak-card", "skip-journal")


class Break:
    """No break: frames pass unchanged (the base of the others)."""

    name: str | None = None

    def __init__(self) -> None:
        self.fired = False

    def arm(self, world: World) -> None:
        """Called once the world is built (a break on the journal sets its trap here)."""

    def frames(self, world: World, pipe: Pipe, frames: list[bytes]) -> list[bytes]:
        """The frames the host wrote to ``pipe`` in one go, as they are to be sent."""
        return frames


class DropFrame(Break):
    name = "drop-frame"

    def frames(self, world: World, pipe: Pipe, frames: list[bytes]) -> list[bytes]:
        from tests.sim.world import decode_frame, frame_type

        if self.fired or pipe.seat is None:
            return frames
        for index in range(len(frames) - 1, -1, -1):
            if frame_type(frames[index]) != "view":
                continue
            message = decode_frame(frames[index])
            view = message.get("view") or {}
            if view.get("legal") and not message.get("starting"):
                self.fired = True
                return frames[:index] + frames[index + 1 :]
            break  # only the newest view of the batch: an older one is overtaken anyway
        return frames


class LeakCard(Break):
    name = "leak-card"

    def frames(self, world: World, pipe: Pipe, frames: list[bytes]) -> list[bytes]:
        from tests.sim.world import decode_frame, encode_frame, frame_type

        if self.fired or pipe.seat is None:
            return frames
        out = []
        for original in frames:
            frame = original
            if not self.fired and frame_type(frame) == "view":
                message: dict[str, Any] = decode_frame(frame)
                table = world.shadows.tables.get(str(message.get("table")))
                version = message.get("version")
                secrets = (
                    {}
                    if table is None or not isinstance(version, int)
                    else (table.hidden(version, pipe.seat))
                )
                view = message.get("view")
                if secrets and isinstance(view, dict) and "game" in view:
                    code = sorted(secrets)[0]
                    message["view"] = {**view, "peek": code}
                    frame = encode_frame(message)
                    self.fired = True
            out.append(frame)
        return out


class SkipJournal(Break):
    name = "skip-journal"

    def arm(self, world: World) -> None:
        world.store.skip = self._skip

    def _skip(self, table_id: str, data: bytes) -> bool:
        if self.fired or data[1:7] != b"\xa1r\xa3act":
            return False  # an act record is a map whose first key is "r" (net.core.tables)
        self.fired = True
        return True


def make_break(name: str | None) -> Break | None:
    if name is None:
        return None
    kinds: dict[str, type[Break]] = {
        "drop-frame": DropFrame,
        "leak-card": LeakCard,
        "skip-journal": SkipJournal,
    }
    try:
        return kinds[name]()
    except KeyError:
        raise ValueError(f"no break {name!r} (breaks: {', '.join(BREAKS)})") from None

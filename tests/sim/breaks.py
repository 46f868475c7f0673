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
``unchecked-write`` the disk fills early in the run and the host does not check its
                  writes: a record the disk took only part of is taken as written, and
                  the change is shown though the journal does not hold it (``replay``)
``forget-token``  the host crashes early, and on restart it reads one seat's token
                  wrong: the player who comes back with their token is told
                  ``bad_token`` for a seat the journal says is theirs (``tokens``)
``arrival-order`` the arbiter credits every claim with its arrival (first packet in wins,
                  stamps ignored): a truly faster player behind a slower link loses
                  (``fairness``)
"""

from __future__ import annotations

import dataclasses
from collections import deque
from typing import TYPE_CHECKING, Any

from net.core.arbiter import Decision
from tests.sim.clients import Pipe
from tests.sim.clock import ns
from tests.sim.faults import Crash

if TYPE_CHECKING:
    from net.core.host import HostCore
    from net.core.table import TableRunner
    from tests.sim.world import World

BREAKS = (
    "drop-frame",
    "leak-card",
    "skip-journal",
    "unchecked-write",
    "forget-token",
    "arrival-order",
)


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

    def core_made(self, world: World, core: HostCore) -> None:
        """Called with each host core the world makes (the first, and after each crash)."""


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


class UncheckedWrite(Break):
    name = "unchecked-write"

    FULL_AT_WRITE = 6
    KEEP_BYTES = 5
    FULL_FOR_S = 10.0

    def arm(self, world: World) -> None:
        world.store.checked = False
        world.store.fill(self.FULL_AT_WRITE, self.KEEP_BYTES, ns(self.FULL_FOR_S))
        self.fired = True


class ForgetToken(Break):
    name = "forget-token"

    CRASH_AT_WRITE = 12

    def arm(self, world: World) -> None:
        world.crashes = deque([Crash(self.CRASH_AT_WRITE, None, 1.0)])
        world._arm_crash()
        world.store.on_read = self._read

    def _read(self, table_id: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if self.fired:
            return records
        out = []
        for record in records:
            if not self.fired and record.get("r") == "seat" and isinstance(record["token"], str):
                out.append({**record, "token": record["token"][::-1]})  # read back wrong
                self.fired = True
            else:
                out.append(record)
        return out


class ArrivalOrder(Break):
    name = "arrival-order"

    def core_made(self, world: World, core: HostCore) -> None:
        make_runner = core._runner

        def runner_by_arrival(table: Any, clock_start: float = 0.0) -> TableRunner:
            runner = make_runner(table, clock_start)
            arbiter = runner.referee.arbiter
            honest = arbiter.decide

            def by_arrival(now_ns: int) -> Decision | None:
                decision = honest(now_ns)
                if decision is None or len(decision.claims) < 2:
                    return decision
                self.fired = True
                ranked = tuple(sorted(decision.claims, key=lambda c: (c.arrived_ns, c.seat)))
                return dataclasses.replace(decision, claims=ranked, winners=(ranked[0].seat,))

            arbiter.decide = by_arrival  # type: ignore[method-assign]
            return runner

        core._runner = runner_by_arrival  # type: ignore[method-assign]


def make_break(name: str | None) -> Break | None:
    if name is None:
        return None
    kinds: dict[str, type[Break]] = {
        "drop-frame": DropFrame,
        "leak-card": LeakCard,
        "skip-journal": SkipJournal,
        "unchecked-write": UncheckedWrite,
        "forget-token": ForgetToken,
        "arrival-order": ArrivalOrder,
    }
    try:
        return kinds[name]()
    except KeyError:
        raise ValueError(f"no break {name!r} (breaks: {', '.join(BREAKS)})") from None

"""The invariants checked after every step of a run, and the failure that names its seed.

Each check states one promise of the host (DESIGN.md, PROTOCOL.md) in terms
the simulator can see from outside: frames on the wire, the journal's bytes,
the core's tables and connections. None of them trusts the host's own
bookkeeping where the journal or the wire can answer instead.

``secrecy``      no frame to a seat (or a spectator) holds what ``game.hidden`` says it
                 must not see at that frame's version, nor another seat's token
``replay``       every view equals the engine's view of the journal's replay at the
                 frame's version, exactly (the host's own fields are beside it); its
                 events are the replay's events that seat may see
``no_gap``       a connection is sent a view for every change it could see: between two
                 views it received, no version changed what that seat sees
``screen``       a player's or spectator's screen catches up: once nothing is on its way
                 to it, its last view shows the table as the journal has it now
``once``         a (non-claim) action that reached the host is journaled exactly once,
                 or refused with an error carrying its ``ref`` and journaled not at all
``progress``     a started table that someone attends and that is not over keeps moving
                 (its journal grows), and every table ends or is closed by the host
``fairness``     of two claims decided together, the faster true reaction wins whenever
                 the margin is over the tie window and both claimers' real lag was
                 within what the arbiter credits
``connections``  the core's open connections are exactly those the network has open;
                 a half-open one is dropped by the idle timeout; a close follows a
                 closing error; after the run the core holds no table and no connection
``protocol``     every byte the host sends is a valid frame a client accepts, and a
                 second ``hello`` is refused with ``out_of_order``
``tokens``       a seat's token holds that seat for as long as its table lives, across
                 host restarts: ``bad_token`` for a token the journal says still holds a
                 seat at a table not closed is a failure
``storage``      with the disk full, nothing is shown that the journal does not hold
                 whole (``replay`` checks every view against the whole records only), and a
                 refused change is answered ``host_storage`` (``once``)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event
from net.wire.messages import ERRORS, Act, Error, Joined, Message, Ping, View, to_wire
from tests.contract import leaks, where
from tests.secrecy import strings
from tests.sim.clients import ClaimTruth, Pipe
from tests.sim.clock import NS_PER_MS, seconds
from tests.sim.shadow import ShadowTable

HOST_EVENT_KINDS = frozenset({"claim", "claim_lost"})
"""Events the host adds to a view (a real-time ruling), not the engine's."""

FAIRNESS_SLACK_NS = 1 * NS_PER_MS
"""Room for the clients' clock drift (at most 200 ppm of a reaction) and stamp rounding."""

HALF_OPEN_SLACK_S = 10.0
"""How long past the idle timeout a half-open connection may linger (pings are once a second,
and two must go unanswered)."""


def replay_command(
    game: str, seed: int, profile: str, breaking: str | None, known_bugs: bool = False
) -> str:
    command = f"python -m tests.sim --game {game} --seed {seed}"
    if profile != "quick":
        command += f" --profile {profile}"
    if breaking is not None:
        command += f" --break {breaking}"
    if known_bugs:
        command += " --known-bugs"
    return command


class SimFailure(AssertionError):
    """An invariant did not hold; the message names the seed and how to replay it."""

    def __init__(
        self,
        invariant: str,
        detail: str,
        *,
        game: str,
        seed: int,
        profile: str,
        breaking: str | None,
        at_s: float,
        context: str = "",
        known_bugs: bool = False,
    ) -> None:
        self.invariant = invariant
        self.detail = detail
        self.game = game
        self.seed = seed
        self.command = replay_command(game, seed, profile, breaking, known_bugs)
        text = (
            f"[{invariant}] game {game}, seed {seed}, t={at_s:.3f} s: {detail}\n"
            f"  replay: {self.command}"
        )
        if context:
            text += "\n" + context
        super().__init__(text)


class Violation(Exception):
    """Raised by a check; the world turns it into a :class:`SimFailure` with its context."""

    def __init__(self, invariant: str, detail: str) -> None:
        super().__init__(f"{invariant}: {detail}")
        self.invariant = invariant
        self.detail = detail


def without(view: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    drop = set(keys)
    return {key: value for key, value in view.items() if key not in drop}


@dataclass
class FairnessTally:
    """How many rulings the fairness check could judge, and how many it did."""

    rulings: int = 0
    judged_pairs: int = 0


@dataclass
class FrameChecks:
    """Checks of every frame a client receives: secrecy, replay, gaps (module docstring)."""

    tables: Mapping[str, ShadowTable]
    views_checked: int = 0
    frames_checked: int = 0
    _clean: set[tuple[str, int, int | None]] = field(default_factory=set)
    """(table, version, seat) whose engine view was scanned for secrets already."""

    def frame(self, pipe: Pipe, message: Message) -> None:
        self.frames_checked += 1
        if isinstance(message, Ping):
            return  # two integers: nothing to leak
        if isinstance(message, View):
            self._view(pipe, message)
        else:
            if isinstance(message, Error) and message.code == "bad_token":
                self._bad_token(pipe)
            self._other(pipe, message)

    def _bad_token(self, pipe: Pipe) -> None:
        """``bad_token``: the token this connection presented must not hold a seat at a live
        table, by the journal (a host that forgot a token on restart fails here)."""
        token = pipe.hello_token
        if token is None:
            return
        for table in self.tables.values():
            if table.closed_ns is None and token in table.tokens.values():
                seat = next(s for s, t in table.tokens.items() if t == token)
                raise Violation(
                    "tokens",
                    f"{_who(pipe)} was told bad_token for the token of seat {seat} at "
                    f"{table.id}, which the journal says still holds that seat",
                )

    def _table(self, name: str | None) -> ShadowTable | None:
        return None if name is None else self.tables.get(name)

    def _other(self, pipe: Pipe, message: Message) -> None:
        """A frame that is not a view: scanned against the latest version the pipe saw."""
        table = self._table(getattr(message, "table", None) or pipe.table)
        if table is None:
            return
        wire = to_wire(message)
        if isinstance(message, Joined) and message.token is not None:
            seat_token = table.tokens.get(message.seat) if message.seat is not None else None
            if message.token != seat_token:
                raise Violation(
                    "secrecy",
                    f"{_who(pipe)} was given a token that is not seat {message.seat}'s "
                    f"at table {table.id} in its journal",
                )
            wire = {**wire, "token": None}  # its own seat's token: the one frame allowed it
        self._tokens(pipe, table, wire)
        version = pipe.last_version
        if version is None:
            return
        secrets = table.hidden(version, pipe.seat)
        found = leaks(wire, secrets)
        if found:
            raise Violation(
                "secrecy",
                f"{_who(pipe)} got a {message.TYPE!r} frame at version {version} of "
                f"{table.id} holding hidden things: " + "; ".join(where(wire, found)),
            )

    def _tokens(self, pipe: Pipe, table: ShadowTable, value: Any) -> None:
        own = table.tokens.get(pipe.seat) if pipe.seat is not None else None
        others = table.every_token - {own} if own is not None else table.every_token
        if not others:
            return
        seen = strings(value) & others
        if seen:
            raise Violation(
                "secrecy", f"{_who(pipe)} was sent another seat's token at table {table.id}"
            )

    def _view(self, pipe: Pipe, message: View) -> None:
        table = self._table(message.table)
        if table is None:
            raise Violation(
                "replay",
                f"{_who(pipe)} got a view of {message.table!r}, a table the journal does not hold",
            )
        self.views_checked += 1
        seat = pipe.seat
        view = message.view
        version = message.version
        self._tokens(pipe, table, message.events)
        if view is None:
            if table.start_version is not None and version >= table.start_version:
                raise Violation(
                    "replay",
                    f"{_who(pipe)} got the waiting room at version {version} of {table.id}, "
                    f"which the journal started at version {table.start_version}",
                )
            if message.waiting is None or message.starting or message.starts_in is not None:
                raise Violation(
                    "protocol",
                    f"{_who(pipe)} got a view of {table.id} with neither a game view nor "
                    "a waiting room (or a countdown without a game)",
                )
            self._tokens(pipe, table, message.waiting)
            self._gap(pipe, table, version)
            return
        if message.waiting is not None:
            raise Violation(
                "protocol", f"{_who(pipe)} got a game view of {table.id} and a waiting room"
            )
        expected = table.view(version, seat)
        if expected is None:
            raise Violation(
                "replay",
                f"{_who(pipe)} got a view at version {version} of {table.id}; the journal "
                f"holds versions up to {table.version} (started at {table.start_version})",
            )
        counting = bool(message.starting)
        pipe.counting_down = counting
        if message.starts_in is not None and not counting:
            raise Violation(
                "protocol", f"{_who(pipe)} got a countdown of {table.id} that is not starting"
            )
        # The view is exactly the game's (version 2): the host's fields are beside it.
        shown, wanted = view, expected
        # Secrecy first: a leak must be reported as a leak, not as a mismatch.
        key = (table.id, version, seat)
        secrets = table.hidden(version, seat)
        if shown != wanted or key not in self._clean:
            scanned = without(view, ("log",))
            found = leaks(scanned, secrets)
            if found:
                raise Violation(
                    "secrecy",
                    f"{_who(pipe)} got version {version} of {table.id} showing what it must "
                    "not see: " + "; ".join(where(scanned, found)),
                )
            if shown == wanted:
                self._clean.add(key)
        game_events = [e for e in message.events if e.get("kind") not in HOST_EVENT_KINDS]
        if secrets and message.events:
            found = leaks(message.events, secrets)
            if found:
                raise Violation(
                    "secrecy",
                    f"{_who(pipe)} got events at version {version} of {table.id} telling what "
                    "it must not see: " + "; ".join(where(message.events, found)),
                )
        if shown != wanted:
            raise Violation(
                "replay",
                f"{_who(pipe)} got a view at version {version} of {table.id} that differs from "
                f"the journal's replay: {_diff(shown, wanted)}",
            )
        if game_events:
            replayed = _visible(table.events.get(version, []), seat)
            if game_events != replayed:
                raise Violation(
                    "replay",
                    f"{_who(pipe)} got events at version {version} of {table.id} that are not "
                    f"the replay's: {game_events!r:.300} != {replayed!r:.300}",
                )
        self._gap(pipe, table, version)

    def _gap(self, pipe: Pipe, table: ShadowTable, version: int) -> None:
        """No change this seat could see was skipped since the pipe's previous view."""
        last = pipe.last_version
        pipe.last_version = version if last is None else max(last, version)
        if last is None or table.start_version is None:
            return
        if version < last:
            raise Violation(
                "no_gap", f"{_who(pipe)} got version {version} of {table.id} after {last}"
            )
        seat = pipe.seat
        before = table.view(last, seat)
        for between in range(max(last + 1, table.start_version), version):
            now = table.view(between, seat)
            if before is not None and now is not None and now != before:
                raise Violation(
                    "no_gap",
                    f"{_who(pipe)} got version {version} of {table.id} after {last}, but version "
                    f"{between} changed what it sees and was never sent to it "
                    f"({_diff(now, before)})",
                )
            before = now


def _visible(events: list[Event], seat: int | None) -> list[dict[str, Any]]:
    return [event.to_data() for event in events if event.visible_to(seat)]


def _who(pipe: Pipe) -> str:
    conn = "?" if pipe.conn is None else pipe.conn
    return f"{pipe.client.describe()} on connection {conn}"


def _diff(shown: Mapping[str, Any], wanted: Mapping[str, Any]) -> str:
    keys = sorted(set(shown) | set(wanted))
    parts = []
    for key in keys:
        a, b = shown.get(key, "<absent>"), wanted.get(key, "<absent>")
        if a != b:
            parts.append(f"{key}: sent {a!r:.120} but the replay has {b!r:.120}")
    return "; ".join(parts[:4]) or "(types differ)"


# --------------------------------------------------------------------------- actions


@dataclass
class ActCheck:
    """Non-claim actions delivered in one step, against the records that step kept."""

    delivered: list[tuple[Pipe, Act]] = field(default_factory=list)
    refused: set[tuple[int, int]] = field(default_factory=set)
    """(id of the pipe, ref) of every error the host sent this step."""
    closed: set[int] = field(default_factory=set)
    """Ids of pipes the host closed (or lost) this step: their messages may go unanswered."""

    def check(self, records: list[tuple[str, dict[str, Any]]]) -> int:
        """Raise if an action was lost or doubled; returns how many were checked."""
        if not self.delivered:
            return 0
        acted: dict[tuple[str, int, str], int] = defaultdict(int)
        for table_id, record in records:
            if record.get("r") == "act":
                acted[(table_id, record["seat"], _key(record["action"]))] += 1
        wanted: dict[tuple[str, int, str], int] = defaultdict(int)
        seen: set[tuple[str, int, str]] = set()
        for pipe, act in self.delivered:
            if id(pipe) in self.closed or pipe.seat is None:
                continue
            key = (act.table, pipe.seat, _key(act.action))
            seen.add(key)
            if (id(pipe), act.ref or -1) not in self.refused:
                wanted[key] += 1
        for key in seen:
            if acted[key] != wanted[key]:
                table_id, seat, action = key
                raise Violation(
                    "once",
                    f"seat {seat} of {table_id} sent {action} and the host "
                    + ("refused it" if not wanted[key] else "did not refuse it")
                    + f", yet the journal got {acted[key]} such record(s) in that step "
                    f"(expected {wanted[key]})",
                )
        return len(seen)


def _key(action: Mapping[str, Any]) -> str:
    return repr(sorted(action.items()))


# --------------------------------------------------------------------------- fairness


def check_ruling(
    record: dict[str, Any],
    truths: Mapping[tuple[str, int, int, int], ClaimTruth],
    table_id: str,
    tally: FairnessTally,
) -> None:
    """The fastest true reaction wins when the margin is over the tie window (module doc)."""
    claim_event = next((e for e in record.get("events", []) if e.get("kind") == "claim"), None)
    if claim_event is None:
        raise Violation("fairness", f"a ruling record of {table_id} without its claim event")
    data = claim_event["data"]
    tally.rulings += 1
    reveal = data["reveal_id"]
    sent = data["sent_at_ns"]
    tie = data["tie_threshold_ns"]
    winners = set(data["winners"])
    chosen = data["chosen"]
    honest: list[tuple[int, int]] = []  # (true reaction, seat)
    for claim in data["claims"]:
        seat = claim["seat"]
        allowance = claim["lag"]["allowance_ns"]
        truth = truths.get((table_id, seat, reveal, claim["reported_ns"]))
        if truth is None:
            if claim["lag"]["rtt_ns"] != 0:
                continue  # not a claim this simulation made nor a bot's: nothing known
            reaction = claim["reported_ns"]  # a bot inside the host: no lag, no clock
            arrived = claim["arrived_ns"]
        else:
            reaction = truth.reaction_ns
            noticed = claim.get("noticed_ns")
            arrived = noticed if noticed is not None else claim["arrived_ns"]
        lag = (arrived - sent) - reaction
        if lag <= allowance:
            honest.append((reaction, seat))
    honest.sort()
    for index, (fast, fast_seat) in enumerate(honest):
        for slow, slow_seat in honest[index + 1 :]:
            margin = slow - fast
            slack = FAIRNESS_SLACK_NS + slow * 400 // 1_000_000
            if margin <= tie + slack:
                continue
            tally.judged_pairs += 1
            if slow_seat in winners or slow_seat == chosen:
                raise Violation(
                    "fairness",
                    f"reveal #{reveal} of {table_id} went to seat {chosen} (winners "
                    f"{sorted(winners)}): seat {fast_seat} truly reacted in "
                    f"{fast / 1e6:.1f} ms and seat {slow_seat} in {slow / 1e6:.1f} ms, "
                    f"{margin / 1e6:.1f} ms apart, over the {tie / 1e6:.1f} ms tie window, both "
                    f"within their lag allowance; ruling: {claim_event.get('text', '')!r:.400}",
                )


# --------------------------------------------------------------------------- the close rule


def check_close(pipe: Pipe) -> None:
    """The host closes a connection only right after an error whose code closes it."""
    last = pipe.last_host_frame
    code = None if last is None or last.get("type") != "error" else last.get("code")
    entry = ERRORS.get(code) if isinstance(code, str) else None
    if entry is None or not entry.closes:
        shown = "nothing" if last is None else f"{last.get('type')!r} {last.get('code', '')}"
        raise Violation(
            "protocol",
            f"the host closed connection {pipe.conn} ({pipe.client.describe()}) right after "
            f"{shown}, not after a closing error",
        )


def describe_s(ns_: int) -> str:
    return f"{seconds(ns_):.1f} s"

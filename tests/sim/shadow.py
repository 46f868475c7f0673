"""The offline replay of every table's journal, kept in step with the host as it writes.

The simulator's notion of the truth: each record the host keeps (seen
through :class:`tests.sim.store.SimStore`) is applied here, independently
of the host, the way :func:`net.core.tables.restore` replays a journal (an
``act`` fires the timers due by its time, then applies the action; a
``tick`` fires the timers). Every change of the table gets the next
*version*, as the host's :class:`net.core.tables.Table` counts them, so a frame
that says "version 17" can be checked against the engine state the journal
gives at version 17: engine states are never mutated once made, so keeping
one per version costs a reference each.

A record that does not replay (an action the engine refuses, a record out
of order) means the journal no longer rebuilds what the host showed:
:class:`JournalDiverged` is raised, and the simulator reports it as a
failed invariant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import registry
from engine.core import Event, Game, IllegalAction, Secrets
from net.store.replays import NOTE_KINDS


class JournalDiverged(ValueError):
    """A journal record that the offline replay cannot apply."""


@dataclass
class ShadowTable:
    """One table rebuilt from its journal, version by version."""

    id: str
    game: Game[Any]
    seed: int
    options: dict[str, Any]
    seats: int
    version: int = 0
    state: Any = None
    states: dict[int, Any] = field(default_factory=dict)
    """Engine state after each version, from the start on."""
    events: dict[int, list[Event]] = field(default_factory=dict)
    """The engine's events of the change that made each version."""
    start_version: int | None = None
    tokens: dict[int, str] = field(default_factory=dict)
    """Each seat's token now (seats given up lose theirs)."""
    every_token: set[str] = field(default_factory=set)
    """Every token ever handed out at this table."""
    bot_seats: set[int] = field(default_factory=set)
    """Seats a bot holds for good (bot records, seats given up)."""
    records: list[dict[str, Any]] = field(default_factory=list)
    last_record_ns: int = 0
    created_ns: int = 0
    closed_ns: int | None = None
    """When the host archived the table (its documented end), if it has."""
    now: float = 0.0
    again_of: str | None = None
    """The finished table whose people this table plays again with (its table record)."""
    _views: dict[tuple[int, int | None], dict[str, Any]] = field(default_factory=dict)
    _hidden: dict[tuple[int, int | None], Secrets] = field(default_factory=dict)

    @classmethod
    def from_header(cls, record: dict[str, Any], now_ns: int) -> ShadowTable:
        if record.get("r") != "table":
            raise JournalDiverged(f"a journal starts with {record.get('r')!r}, not 'table'")
        table = cls(
            id=str(record["id"]),
            game=registry.get(record["game"]),
            seed=int(record["seed"]),
            options=dict(record["options"] or {}),
            seats=int(record["seats"]),
        )
        table.records.append(record)
        table.last_record_ns = table.created_ns = now_ns
        again_of = record.get("again_of")
        table.again_of = again_of if isinstance(again_of, str) else None
        return table

    # Queries -----------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def over(self) -> bool:
        return self.state is not None and self.game.outcome(self.state) is not None

    def state_at(self, version: int) -> Any:
        """The engine state at ``version`` (``None``: not started then, or no such version)."""
        return self.states.get(version)

    def view(self, version: int, seat: int | None) -> dict[str, Any] | None:
        """The engine's view for ``seat`` at ``version`` (cached: frames share versions)."""
        key = (version, seat)
        cached = self._views.get(key)
        if cached is None:
            state = self.states.get(version)
            if state is None:
                return None
            cached = self._views[key] = self.game.view(state, seat)
        return cached

    def hidden(self, version: int, seat: int | None) -> Secrets:
        """What ``seat`` must not see at ``version`` (cached)."""
        key = (version, seat)
        cached = self._hidden.get(key)
        if cached is None:
            state = self.states.get(version)
            cached = self._hidden[key] = {} if state is None else self.game.hidden(state, seat)
        return cached

    # Feeding -----------------------------------------------------------------

    def feed(self, record: dict[str, Any], now_ns: int) -> None:
        """Apply one kept record (see the module docstring)."""
        self.records.append(record)
        self.last_record_ns = now_ns
        kind = record.get("r")
        number = len(self.records)
        try:
            if kind in NOTE_KINDS or kind in ("resume", "again"):
                return  # said around the game, a held table going on, whose table it plays
                # again (net.core.again): not a change
            if kind == "seat":
                self.tokens[record["seat"]] = record["token"]
                self.every_token.add(record["token"])
            elif kind == "bot":
                self.bot_seats.add(record["seat"])
            elif kind == "unseat":
                self.tokens.pop(record["seat"], None)
            elif kind == "reserve":
                self.tokens.pop(record["seat"], None)  # held for someone deciding: no token
            elif kind == "shrink":
                keep = list(record["keep"])
                self.tokens = {
                    new: self.tokens[old] for new, old in enumerate(keep) if old in self.tokens
                }
                self.bot_seats = {new for new, old in enumerate(keep) if old in self.bot_seats}
                self.seats = len(keep)
            elif kind == "give_up":
                self.tokens.pop(record["seat"], None)
                self.bot_seats.add(record["seat"])
            elif kind == "start":
                if self.state is not None:
                    raise JournalDiverged("a second 'start' record")
                self.state = self.game.new_game(record["players"], self.seed, self.options)
            elif kind in ("act", "tick"):
                self._play(record)
            else:
                raise JournalDiverged(f"unknown record kind {kind!r}")
        except (KeyError, TypeError, IllegalAction) as error:
            raise JournalDiverged(
                f"table {self.id}, record {number} ({kind}) does not replay: {error!r}"
            ) from None
        self.version += 1
        if self.state is not None:
            if self.start_version is None:
                self.start_version = self.version
                self.events[self.version] = []
            self.states[self.version] = self.state

    def _play(self, record: dict[str, Any]) -> None:
        if self.state is None:
            raise JournalDiverged(f"a {record['r']!r} record before the start")
        now = float(record["now"])
        if now < self.now:
            raise JournalDiverged(f"time goes back from {self.now} to {now}")
        self.now = now
        state, events = self.game.tick(self.state, now)
        if record["r"] == "act":
            state, more = self.game.apply(state, record["seat"], record["action"], now)
            events = events + more
        self.state = state
        self.events[self.version + 1] = events


class Shadows:
    """Every table's shadow, fed by the store's listeners."""

    def __init__(self) -> None:
        self.tables: dict[str, ShadowTable] = {}
        self.now_ns = 0
        """The simulator's clock, set before each step (records are stamped with it)."""
        self.step_records: list[tuple[str, dict[str, Any]]] = []
        """Records kept during the current step (the simulator clears it per step)."""

    def record(self, table_id: str, record: dict[str, Any]) -> None:
        self.step_records.append((table_id, record))
        table = self.tables.get(table_id)
        if table is None:
            table = self.tables[table_id] = ShadowTable.from_header(record, self.now_ns)
            twins = [
                other.id
                for other in self.tables.values()
                if table.again_of is not None and other.again_of == table.again_of
            ]
            if len(twins) > 1:
                raise JournalDiverged(
                    f"tables {', '.join(twins)} both play {table.again_of} again: two asks "
                    "made two tables"
                )
        else:
            table.feed(record, self.now_ns)

    def discarded(self, table_id: str) -> None:
        """A table refused while it was being made (its creator was told): never was."""
        self.tables.pop(table_id, None)

    def archived(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is not None:
            table.closed_ns = self.now_ns

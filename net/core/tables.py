"""A table: one game, its seats, and the authoritative engine state.

This module is the host's bookkeeping without any I/O, so it can be tested
and replayed on its own. Every change that must survive a restart is first
handed to the table's *journal* (a callable the host points at the on-disk
log, see :mod:`net.store.journal`) and only then applied; :func:`restore` rebuilds
a table from those records exactly.

Seats are held by secret tokens. A player who drops keeps the seat; after
the table's takeover grace period a bot may play for them, and hands the seat
back the moment they return with the token.
"""

from __future__ import annotations

import hmac
import math
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import registry
from engine.bots import DEFAULT_LEVEL, LEVELS, bot_levels, check_level, default_bot
from engine.core import Event, Game, IllegalAction, InvalidOptions, Outcome, parse_options
from net.core.contests import Contests
from net.core.limits import MAX_TAKEOVER_S

Journal = Callable[[dict[str, Any]], None]
"""Where a table writes the records that let it be rebuilt (see :mod:`net.store.journal`)."""

BOT_NAMES = ("Tom", "Mia", "Felix", "Luna", "Oscar", "Cleo", "Milo", "Nala", "Simba", "Kiki")
"""Bots are named after cats, with a "Bot" prefix so nobody mistakes them for people."""

TIME_TOLERANCE_S = 1e-6
"""Two table times this close are the same moment (float sums of times differ by ~1e-12 s:
a grace period that ends "6e-12 s from now" has ended)."""

DEFAULT_TAKEOVER_S = 30.0
"""Assumed: how long a dropped player's seat waits before a bot plays for them."""

TOKEN_BYTES = 16


def new_token() -> str:
    """A fresh secret seat token from the OS's randomness."""
    return secrets.token_urlsafe(TOKEN_BYTES)


class TableError(ValueError):
    """A request the table cannot grant (full, unknown seat, wrong token...).

    ``code`` is the protocol error code the host sends with the message.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(slots=True)
class SeatInfo:
    """Who holds a seat. ``bot`` is set for bot seats and for seats a bot covers."""

    name: str | None = None
    token: str | None = None
    bot: str | None = None
    level: str | None = None
    """A bot seat's level (``easy``, ``normal``, ``hard``: :data:`engine.bots.LEVELS`), which
    the ratings key its results by (``bot:<game>:<level>``); ``None``: not a bot seat, or
    one from before levels (rated as ``normal``)."""
    human: bool = False
    connected: bool = False
    dropped_at: float | None = None
    stepped_away: bool = False
    """The player left "for now" (``leave`` with ``for_now``): the seat waits for them."""
    player: str | None = None
    """A hash of the player's own key (``hello.player``): who the scoreboard counts."""
    gave_up: bool = False
    """A person gave this seat up (``give_up``): a bot plays it, but the result is still
    theirs on the scoreboard (the rating asks how much of the game they played)."""
    covered_s: float = 0.0
    """Table time a bot played this person's seat, in spells that have ended. Plain data in
    table time (the core's clock, standing still while the table is paused), so a person
    a bot covered for most of a game is not rated for it (:meth:`Table.covered_shares`)."""
    covered_from: float | None = None
    """Table time the current spell of a bot playing for this person began (``None``: none)."""
    reserved: bool = False
    """Held for :attr:`name`, who sat here at the game this table plays again and has not
    answered yet (:mod:`net.core.again`): not free, and nobody else's."""

    @property
    def free(self) -> bool:
        return self.name is None

    def public(self) -> dict[str, Any]:
        """What everyone may know about the seat (never the token)."""
        seat = {
            "name": self.name,
            "bot": self.bot is not None,
            "human": self.human,
            "connected": self.connected or (self.bot is not None and not self.human),
            "covered": self.human and self.bot is not None,
            "stepped_away": self.stepped_away and not self.connected,
        }
        if self.reserved:
            seat["reserved"] = True
        return seat


@dataclass
class Table:
    """A game table. Create with :func:`create` or :func:`restore`."""

    id: str
    game: Game[Any]
    options: dict[str, Any]
    seed: int
    seats: list[SeatInfo]
    takeover_s: float
    journal: Journal
    state: Any = None
    version: int = 0
    """Counts journaled changes only, so a restored table has the version it had."""
    created_by: str | None = None
    again_of: str | None = None
    """The finished table whose people this table plays again with (``None``: a new one)."""
    spectators: int = 0
    make_token: Callable[[], str] = new_token
    """Where seat tokens come from (a simulated host gives a seeded source)."""
    contests: Contests = field(default_factory=Contests, compare=False)
    """The game's contested real-time moments, from its rulings (:meth:`ruling`); rebuilt
    from the journal on resume."""
    _outcome_of: tuple[Any, Outcome | None] = field(
        default=(None, None), init=False, repr=False, compare=False
    )
    """The last state asked about and its outcome: states are never changed in place, and
    the host asks several times per action (broadcast, schedule, the lobby's line)."""

    # Queries -----------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def outcome(self) -> Outcome | None:
        state = self.state
        if state is None:
            return None
        known, outcome = self._outcome_of
        if known is not state:
            outcome = self.game.outcome(state)
            self._outcome_of = (state, outcome)
        return outcome

    @property
    def free_seats(self) -> int:
        return sum(seat.free for seat in self.seats)

    def summary(self) -> dict[str, Any]:
        """The lobby's line for this table (a fixed deck is flagged, its cards are not shown)."""
        fixed = fixed_deal_options(self.game, self.options)
        outcome = self.outcome
        status = "waiting" if not self.started else ("over" if outcome else "playing")
        summary = {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": {k: v for k, v in self.options.items() if k not in fixed},
            "fixed_deck": bool(fixed),
            "seats": [seat.public() for seat in self.seats],
            "free": self.free_seats,
            "status": status,
            "spectators": self.spectators,
            "takeover": self.takeover_s,  # what a leaving player is told (issue 36, item 4)
        }
        if self.state is not None:  # what anyone watching sees: the phase and the scores
            summary["phase"] = str(self.game.phase(self.state))
            summary["scores"] = list(self.game.scores(self.state))
            if outcome is not None:
                summary["winners"] = list(outcome.winners)
        if self.again_of is not None:
            summary["again_of"] = self.again_of
        return summary

    def view(self, seat: int | None) -> dict[str, Any] | None:
        """The engine's view for ``seat`` (``None``: spectator), or ``None`` before the start."""
        if self.state is None:
            return None
        view: dict[str, Any] = self.game.view(self.state, seat)
        return view

    def seat_of(self, token: str) -> int | None:
        """The seat ``token`` holds, compared in constant time."""
        found = None
        for index, seat in enumerate(self.seats):
            if seat.token is not None and hmac.compare_digest(seat.token, token):
                found = index
        return found

    def deadline(self) -> float | None:
        return None if self.state is None else self.game.deadline(self.state)

    def bot_seats(self) -> list[int]:
        """Seats a bot plays now: bot seats, and dropped humans' seats it covers."""
        return [index for index, seat in enumerate(self.seats) if seat.bot is not None]

    # Seating -----------------------------------------------------------------

    def sit(
        self,
        name: str,
        seat: int | None = None,
        player: str | None = None,
        token: str | None = None,
    ) -> tuple[int, str]:
        """Seat a new human player; returns the seat and its secret token.

        ``player``: the hash of the player's key, when they sent one (kept for the scoreboard).
        ``token``: the token the player already holds (their seat at the table this one plays
        again, which moves here: :mod:`net.core.again`); ``None``: a new one. A seat reserved
        for ``name`` is taken by them only.
        """
        if self.started:
            raise TableError("table_started", f"Table {self.id} has already started")
        if seat is not None and 0 <= seat < len(self.seats) and self.seats[seat].reserved:
            if self.seats[seat].name != name:
                raise TableError("seat_taken", f"Seat {seat} at table {self.id} is held")
            return self._sit_reserved(seat, player, token)
        if seat is None:
            seat = next((i for i, info in enumerate(self.seats) if info.free), None)
            if seat is None:
                raise TableError("table_full", f"Table {self.id} has no free seat")
        elif not 0 <= seat < len(self.seats):
            raise TableError(
                "no_such_seat", f"Table {self.id} has seats 0 to {len(self.seats) - 1}"
            )
        elif not self.seats[seat].free:
            raise TableError("seat_taken", f"Seat {seat} at table {self.id} is taken")
        taken = {info.name for info in self.seats if info.name}
        if name in taken:
            raise TableError("name_taken", f"Someone at table {self.id} is already called {name!r}")
        token = self.make_token()
        record = {"r": "seat", "seat": seat, "name": name, "token": token}
        self.journal(record if player is None else {**record, "player": player})
        self.seats[seat] = SeatInfo(
            name=name, token=token, human=True, connected=True, player=player
        )
        self.version += 1
        return seat, token

    def _sit_reserved(self, seat: int, player: str | None, token: str | None) -> tuple[int, str]:
        info = self.seats[seat]
        assert info.name is not None
        token = token or self.make_token()
        record = {"r": "seat", "seat": seat, "name": info.name, "token": token}
        self.journal(record if player is None else {**record, "player": player})
        self.seats[seat] = SeatInfo(
            name=info.name, token=token, human=True, connected=True, player=player
        )
        self.version += 1
        return seat, token

    def reserve(self, seat: int, name: str) -> None:
        """Hold a free seat for ``name`` (who decides whether to play again)."""
        if self.started or not self.seats[seat].free:
            raise TableError("seat_taken", f"Seat {seat} at table {self.id} is not free")
        self.journal({"r": "reserve", "seat": seat, "name": name})
        self.seats[seat] = SeatInfo(name=name, reserved=True)
        self.version += 1

    def shrink(self, keep: list[int]) -> None:
        """Keep only the seats ``keep`` (in that order): a table that plays again without
        the seats nobody took (the game allows that many players)."""
        if self.started:
            raise TableError("table_started", f"Table {self.id} has already started")
        if sorted(set(keep)) != sorted(keep) or any(not 0 <= i < len(self.seats) for i in keep):
            raise TableError("no_such_seat", f"Table {self.id} cannot keep seats {keep}")
        if not self.game.min_players <= len(keep) <= self.game.max_players:
            raise TableError("bad_table", f"{self.game.title} is not for {len(keep)} players")
        self.journal({"r": "shrink", "keep": list(keep)})
        self.seats = [self.seats[i] for i in keep]
        self.version += 1

    def unsit(self, seat: int) -> None:
        """Free a seat before the game starts (its player left the table)."""
        if self.started:
            raise TableError("table_started", f"Table {self.id} has already started")
        self.journal({"r": "unseat", "seat": seat})
        self.seats[seat] = SeatInfo()
        self.version += 1

    def add_bot(
        self,
        bot: str | None = None,
        level: str | None = None,
        seat: int | None = None,
        name: str | None = None,
    ) -> int:
        """Put a bot in the first free seat (or ``seat``): the bot ``bot``, or the game's bot
        of ``level``, named ``name`` (a bot that plays again keeps its name) or after a cat.

        The seat carries its level, so the ratings rate it as that level; a bot named by
        something else than a level (an alias, ``random``) counts as ``normal``. An
        unknown level is refused with the levels the game has.
        """
        if seat is None:
            seat = next((i for i, info in enumerate(self.seats) if info.free), None)
        elif not (0 <= seat < len(self.seats) and self.seats[seat].free):
            seat = None
        if seat is None:
            raise TableError("table_full", f"Table {self.id} has no free seat")
        if level is not None:
            try:
                check_level(self.game, level)
            except ValueError as error:
                raise TableError("invalid_options", str(error)) from None
        bot = bot or level or default_bot(self.game.name)
        level = level or (bot if bot in LEVELS else DEFAULT_LEVEL)
        taken = {info.name for info in self.seats if info.name}
        if name is None or name in taken:
            name = next(
                f"Bot {cat}"
                for cat in (*BOT_NAMES, *map(str, range(99)))
                if f"Bot {cat}" not in taken
            )
        self.journal({"r": "bot", "seat": seat, "name": name, "bot": bot, "level": level})
        self.seats[seat] = SeatInfo(name=name, bot=bot, level=level)
        self.version += 1
        return seat

    def start_if_full(self) -> bool:
        """Deal the game once every seat is taken (none free, none still held for someone
        deciding whether to play again). Returns whether it started now."""
        if self.started or self.free_seats or any(seat.reserved for seat in self.seats):
            return False
        players = [seat.name or "" for seat in self.seats]
        self.journal({"r": "start", "players": players})
        self.state = self.game.new_game(players, self.seed, self.options)
        self.version += 1
        return True

    def connect(self, seat: int, now: float) -> None:
        """A seat's player is (back) online: a covering bot steps aside."""
        info = self.seats[seat]
        info.connected, info.dropped_at, info.stepped_away = True, None, False
        if info.human:
            info.bot = None
            if info.covered_from is not None:
                info.covered_s += max(0.0, now - info.covered_from)
                info.covered_from = None

    def disconnect(self, seat: int, now: float) -> None:
        """A seat's player dropped: the seat stays theirs."""
        info = self.seats[seat]
        info.connected, info.dropped_at = False, now

    def takeover_due(self, now: float) -> list[int]:
        """Dropped seats whose grace period has run out and that no bot covers yet."""
        if self.takeover_s <= 0 or not self.started or self.outcome is not None:
            return []
        return [
            index
            for index, info in enumerate(self.seats)
            if info.human
            and info.bot is None
            and info.dropped_at is not None
            and now - info.dropped_at >= self.takeover_s - TIME_TOLERANCE_S
        ]

    def cover(self, seat: int, now: float | None = None) -> None:
        """Let the game's default bot play for a dropped player until they return.

        ``now``: the table time, from which the bot's spell is counted (``None``: not timed).
        """
        info = self.seats[seat]
        info.bot = self.covering_bot()
        if now is not None and info.covered_from is None:
            info.covered_from = now

    def covering_bot(self) -> str:
        """The bot that plays for a person who dropped or gave up: at the level of the
        table's own bots (a table made against easy bots stays easy when a person leaves
        it), else the game's default bot."""
        levels = [info.level for info in self.seats if info.level in LEVELS and not info.human]
        level = levels[0] if levels else None
        return (
            level
            if level is not None and level in bot_levels(self.game)
            else default_bot(self.game.name)
        )

    def give_up(self, seat: int, now: float | None = None) -> None:
        """A player gives their seat up for good in a game under way: a bot plays it now.

        The token is forgotten (journaled), so the seat never comes back to it. ``now``:
        the table time, from which the bot's spell is counted (``None``: not timed).
        """
        self.journal({"r": "give_up", "seat": seat})
        info = self.seats[seat]
        info.token, info.human, info.connected, info.dropped_at = None, False, False, None
        info.stepped_away = False
        info.bot = self.covering_bot()
        info.gave_up = True
        if now is not None and info.covered_from is None:
            info.covered_from = now
        self.version += 1

    def covered_shares(self, end: float) -> list[float]:
        """Per seat, the share of the game (table time 0 to ``end``) a bot played for a
        person: 0 for bots' own seats and for people no bot covered."""
        shares = []
        for info in self.seats:
            covered = info.covered_s
            if info.covered_from is not None:
                covered += max(0.0, end - info.covered_from)
            shares.append(min(1.0, covered / end) if end > 0 else 0.0)
        return shares

    @property
    def humans_seated(self) -> int:
        """Seats held by people (connected or not), bots covering them included."""
        return sum(info.human for info in self.seats)

    # Playing -----------------------------------------------------------------

    def act(self, seat: int, action: Mapping[str, Any], now: float) -> list[Event]:
        """Apply a seat's action: journal it, then change the state. Raises on illegal input."""
        if self.state is None:
            raise TableError("not_started", f"Table {self.id} is waiting for players")
        state, events = self.game.tick(self.state, now)
        # Validate first: a refused action must leave no trace in the journal.
        new_state, applied = self.game.apply(state, seat, action, now)
        events = events + applied
        self.journal({"r": "act", "seat": seat, "action": dict(action), "now": now})
        self.state = new_state
        self.version += 1
        return events

    def ruling(self, seat: int, events: list[dict[str, Any]]) -> None:
        """Journal a real-time ruling (its public events, ``seat`` the chosen claim's) and
        count it in :attr:`contests`. A note, not a change: the move it chose follows."""
        self.journal({"r": "ruling", "seat": seat, "events": events})
        self.contests.add(events)

    def tick(self, now: float) -> list[Event]:
        """Fire due timers; journals a tick only when something happened."""
        if self.state is None:
            return []
        new_state, events = self.game.tick(self.state, now)
        if events or new_state is not self.state:
            self.journal({"r": "tick", "now": now})
            self.state = new_state
            self.version += 1
        return events


def create(
    table_id: str,
    game_name: str,
    options: Mapping[str, Any] | None,
    seed: int,
    journal: Journal,
    *,
    seats: int | None = None,
    takeover_s: float = DEFAULT_TAKEOVER_S,
    created_by: str | None = None,
    again_of: str | None = None,
) -> Table:
    """A new empty table. Options are checked now, so a bad one never creates a table.

    ``again_of``: the finished table whose people this one plays again with (kept in the
    table record, so a restarted host links them again)."""
    try:
        game = registry.get(game_name)
    except registry.UnknownGame as error:
        raise TableError("unknown_game", str(error)) from None
    count = game.min_players if seats is None else seats
    if isinstance(count, bool) or not isinstance(count, int):
        raise TableError("bad_table", "The number of seats is a whole number")
    if not game.min_players <= count <= game.max_players:
        raise TableError(
            "bad_table",
            f"{game.title} is for {game.min_players} to {game.max_players} players, not {count}",
        )
    check_takeover(takeover_s)
    options = dict(options or {})
    try:
        # A throwaway game with placeholder names proves the options are valid.
        game.new_game([f"P{i}" for i in range(count)], seed, options)
        # Kept as the game reads them (``--table catchy:target=5`` gives the text "5"), so
        # table summaries say 5, of the type the game's option describes in ``welcome``.
        parsed = parse_options(game.name, game.option_specs, options)
        options = {name: parsed[name] for name in options}
    except InvalidOptions as error:
        raise TableError("invalid_options", str(error)) from None
    record = {
        "r": "table",
        "id": table_id,
        "game": game_name,
        "options": options,
        "seed": seed,
        "seats": count,
        "takeover_s": takeover_s,
        "created_by": created_by,
    }
    if again_of is not None:
        record["again_of"] = again_of
    journal(record)
    return Table(
        id=table_id,
        game=game,
        options=options,
        seed=seed,
        again_of=again_of,
        seats=[SeatInfo() for _ in range(count)],
        takeover_s=takeover_s,
        journal=journal,
        created_by=created_by,
    )


class CorruptJournal(ValueError):
    """A table's records cannot be replayed (the message says which and why)."""


def restore(records: Iterable[Mapping[str, Any]], journal: Journal) -> Table:
    """Rebuild a table from its journal records (the ``table`` record first).

    Restored players are marked as dropped (at their table's current time),
    so they keep their seats and reconnect with their tokens.
    """
    iterator = iter(records)
    header = next(iterator, None)
    if header is None:
        raise CorruptJournal("A table journal must start with its table record")
    replayer = Replayer(header)
    for record in iterator:
        replayer.feed(record)
    table = replayer.table
    for info in table.seats:
        if info.human:
            info.connected, info.dropped_at = False, replayer.now
    table.journal = journal
    return table


class Replayer:
    """A table rebuilt one journal record at a time (what :func:`restore` and the
    simulator's check that every view equals the journal's replay share).

    ``table`` is the table as the records so far make it; ``now`` the table
    time of the last timed record. Raises :class:`CorruptJournal` for a record
    that does not replay.
    """

    def __init__(self, header: Mapping[str, Any]) -> None:
        if header.get("r") != "table":
            raise CorruptJournal("A table journal must start with its table record")
        try:
            self.table = create(
                header["id"],
                header["game"],
                header["options"],
                header["seed"],
                lambda record: None,
                seats=header["seats"],
                takeover_s=header.get("takeover_s", DEFAULT_TAKEOVER_S),
                created_by=header.get("created_by"),
                again_of=header.get("again_of"),
            )
        except KeyError as error:
            raise CorruptJournal(f"The table record has no {error}") from None
        except (TypeError, ValueError) as error:  # TableError included
            raise CorruptJournal(f"The table record does not replay: {error}") from None
        self.now = 0.0
        self.number = 1
        """How many records were fed, the table record included."""

    def feed(self, record: Mapping[str, Any]) -> None:
        """Apply one more record to :attr:`table`."""
        self.number += 1
        table = self.table
        kind = record.get("r")
        try:
            if kind == "seat":
                player = record.get("player")
                table.seats[record["seat"]] = SeatInfo(
                    name=record["name"],
                    token=record["token"],
                    human=True,
                    player=player if isinstance(player, str) else None,
                )
                table.version += 1
            elif kind == "bot":
                level = record.get("level")  # absent in journals from before bot levels
                table.seats[record["seat"]] = SeatInfo(
                    name=record["name"],
                    bot=record["bot"],
                    level=level if isinstance(level, str) and level in LEVELS else None,
                )
                table.version += 1
            elif kind == "unseat":
                table.seats[record["seat"]] = SeatInfo()
                table.version += 1
            elif kind == "reserve":
                table.seats[record["seat"]] = SeatInfo(name=record["name"], reserved=True)
                table.version += 1
            elif kind == "shrink":
                keep = record["keep"]
                table.seats = [table.seats[index] for index in keep]
                table.version += 1
            elif kind == "give_up":
                table.give_up(record["seat"], self.now)  # the spell counts from the last time
            elif kind == "start":
                table.start_if_full()
            elif kind == "act":
                self.now = _later(record["now"], self.now)
                table.act(record["seat"], record["action"], self.now)
            elif kind == "tick":
                self.now = _later(record["now"], self.now)
                table.tick(self.now)
            elif kind == "ruling":
                table.contests.add(record.get("events"))  # a note: only counted
            elif kind in ("chat", "chat_rule", "resume", "again"):
                pass  # said around the game (net.store.replays.NOTE_KINDS), or the table going
                # on after it could not be saved (net.core.table): not a change of it
            else:
                raise CorruptJournal(
                    f"Record {self.number} of table {table.id} is of unknown kind {kind!r}"
                )
        except CorruptJournal:
            raise
        except (KeyError, TypeError, ValueError, IndexError, IllegalAction) as error:
            raise CorruptJournal(
                f"Record {self.number} of table {table.id} does not replay: {error}"
            ) from None


def _later(now: Any, before: float) -> float:
    """A journaled table time: a finite number, never earlier than the one before it."""
    if isinstance(now, bool) or not isinstance(now, int | float) or not math.isfinite(now):
        raise ValueError(f"the time {now!r} is not a finite number")
    if now < before:
        raise ValueError(f"the time {now!r} is earlier than the record before ({before!r})")
    return float(now)


def check_takeover(takeover_s: Any) -> float:
    """A table's ``takeover``: finite seconds from 0 (never) to :data:`MAX_TAKEOVER_S`."""
    ok = (
        isinstance(takeover_s, int | float)
        and not isinstance(takeover_s, bool)
        and math.isfinite(takeover_s)
        and 0 <= takeover_s <= MAX_TAKEOVER_S
    )
    if not ok:
        raise TableError(
            "invalid_options",
            f"takeover is seconds from 0 (never) to {MAX_TAKEOVER_S:g}, not {takeover_s!r}",
        )
    return float(takeover_s)


def fixed_deal_options(game: Game[Any], options: Mapping[str, Any]) -> list[str]:
    """The options in ``options`` that fix the deal instead of the shuffle.

    Those are the game's list-valued options (:data:`engine.core.DECK_OPTION`
    and any equivalent explicit order: the core parses list options as card
    orders, "cards separated by commas or spaces, rounds by '/'"), when given.
    They are testing aids: a host refuses them unless started with
    ``--allow-fixed-deck``, and a table's summary always says whether it has one.
    """
    return [
        spec.name
        for spec in game.option_specs
        if spec.kind is list and options.get(spec.name) is not None
    ]

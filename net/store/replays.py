"""Replays of finished games, read from the journals a host archived.

A closed table's journal is moved to ``<state-dir>/archive/<id>.log`` (see
:meth:`net.store.journal.StateDir.archive`). Every game replays exactly from its
seed, options and the accepted actions and timer ticks, so a replay is only
those records, stripped of anything secret (seat tokens), plus what the
table said around the moves (chat lines, real-time rulings) for the screen.

Only games that are *over* are replayed: a game still under way (or one
abandoned before its end) would show every hand, so it is refused
(:class:`ReplayError` ``not_finished``). The host serves the same records
over the protocol (``list_replays`` / ``get_replay``, see PROTOCOL.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import registry
from engine.core import Event, Game, IllegalAction, InvalidOptions
from net.store.journal import TABLE_ID, JournalError, read_records

NOTE_KINDS = frozenset({"chat", "ruling", "chat_rule"})
"""Journal records that are not changes of the game: restore and replay step over them."""

MAX_LISTED = 200
"""The most replays one ``list_replays`` answer names (the newest)."""


class ReplayError(ValueError):
    """A replay that cannot be given; ``code`` is the protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(slots=True)
class Step:
    """One change of the game: a seat's action, or a timer firing (``seat`` ``None``)."""

    seat: int | None
    action: dict[str, Any] | None
    now: float

    def to_data(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": self.action, "now": self.now}


@dataclass(slots=True)
class GameRecord:
    """Everything a replay needs, and nothing secret: no seat tokens."""

    table: str
    game: str
    options: dict[str, Any]
    seed: int
    players: list[str]
    steps: list[Step] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)
    """Chat lines and rulings, each with ``after``: how many steps were applied before it."""

    def to_data(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "game": self.game,
            "options": dict(self.options),
            "seed": self.seed,
            "players": list(self.players),
            "steps": [step.to_data() for step in self.steps],
            "notes": [dict(note) for note in self.notes],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> GameRecord:
        """Read a replay received over the wire (checked: a bad one is a ReplayError)."""
        try:
            steps = [
                Step(item["seat"], item["action"], float(item["now"])) for item in data["steps"]
            ]
            return cls(
                table=str(data["table"]),
                game=str(data["game"]),
                options=dict(data["options"] or {}),
                seed=int(data["seed"]),
                players=[str(name) for name in data["players"]],
                steps=steps,
                notes=[dict(note) for note in data.get("notes") or []],
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ReplayError("bad_replay", f"The replay is not well formed ({error})") from None


def record_of(records: Iterable[Mapping[str, Any]]) -> GameRecord:
    """A game's record from its journal records (the ``table`` record first)."""
    iterator = iter(records)
    header = next(iterator, None)
    if header is None or header.get("r") != "table":
        raise ReplayError("bad_replay", "A table journal must start with its table record")
    names: list[str | None] = [None] * int(header.get("seats") or 0)
    game = GameRecord(
        table=str(header.get("id")),
        game=str(header.get("game")),
        options=dict(header.get("options") or {}),
        seed=int(header.get("seed") or 0),
        players=[],
    )
    for record in iterator:
        kind = record.get("r")
        if kind in ("seat", "bot") and 0 <= record.get("seat", -1) < len(names):
            names[record["seat"]] = str(record.get("name"))
        elif kind == "unseat" and 0 <= record.get("seat", -1) < len(names):
            names[record["seat"]] = None
        elif kind == "start":
            game.players = [str(name) for name in record.get("players") or names]
        elif kind == "act":
            game.steps.append(Step(record["seat"], dict(record["action"]), float(record["now"])))
        elif kind == "tick":
            game.steps.append(Step(None, None, float(record["now"])))
        elif kind in NOTE_KINDS:
            note = {k: v for k, v in record.items() if k != "r"}
            # A ruling is journaled just before the move it explains: shown with that move.
            after = len(game.steps) + (1 if kind == "ruling" else 0)
            game.notes.append({"kind": kind, "after": after, **note})
    return game


@dataclass(slots=True)
class Frame:
    """The game after ``index`` steps, and the events the last step made."""

    index: int
    state: Any
    events: list[Event]
    step: Step | None


class Replayer:
    """Every state of a recorded game, rebuilt once (as :func:`engine.core.replay` does)."""

    def __init__(self, record: GameRecord) -> None:
        try:
            self.game: Game[Any] = registry.get(record.game)
        except registry.UnknownGame as error:
            raise ReplayError("unknown_game", str(error)) from None
        self.record = record
        try:
            state = self.game.new_game(record.players, record.seed, record.options)
        except InvalidOptions as error:
            raise ReplayError("bad_replay", f"The game does not start: {error}") from None
        self.frames = [Frame(0, state, [], None)]
        for step in record.steps:
            state, events = self.game.tick(state, step.now)
            if step.seat is not None and step.action is not None:
                try:
                    state, more = self.game.apply(state, step.seat, step.action, step.now)
                except IllegalAction as error:
                    number = len(self.frames)
                    raise ReplayError(
                        "bad_replay", f"Move {number} does not replay: {error}"
                    ) from None
                events = events + more
            self.frames.append(Frame(len(self.frames), state, events, step))

    def __len__(self) -> int:
        return len(self.frames)

    @property
    def last(self) -> int:
        return len(self.frames) - 1

    @property
    def finished(self) -> bool:
        return self.game.outcome(self.frames[-1].state) is not None

    def view(self, index: int, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = self.game.view(self.frames[index].state, seat)
        return view

    def phase(self, index: int) -> str:
        return str(self.game.phase(self.frames[index].state))

    def rounds(self) -> list[int]:
        """Frame indexes where a round (or a phase) begins: the first frame, then each change.

        A ``round`` key in the views is used when the game has one, else the phase.
        """
        starts = [0]
        before = self._round_key(0)
        for index in range(1, len(self.frames)):
            key = self._round_key(index)
            if key != before:
                starts.append(index)
            before = key
        return starts

    def _round_key(self, index: int) -> Any:
        view = self.view(index, None)
        for key in ("round", "round_number", "hand_number"):
            if key in view:
                return view[key]
        return view.get("phase")

    def notes_until(self, index: int) -> list[dict[str, Any]]:
        """Chat lines and rulings said before step ``index`` was over."""
        return [note for note in self.record.notes if int(note.get("after", 0)) <= index]

    def public_log(self) -> list[dict[str, Any]]:
        """The whole game's public events, in order (what a spectator saw)."""
        return [
            event.to_data()
            for frame in self.frames
            for event in frame.events
            if event.visible_to(None)
        ]


def archive_dir(state_dir: Path) -> Path:
    return state_dir / "archive"


def read_archived(state_dir: Path, table_id: str) -> GameRecord:
    """The record of archived table ``table_id``: refused unless its game is over."""
    if not TABLE_ID.match(table_id):
        raise ReplayError("no_such_replay", f"{table_id!r} is not a table id")
    path = archive_dir(state_dir) / f"{table_id}.log"
    if not path.is_file():
        raise ReplayError("no_such_replay", f"This host has no finished table {table_id!r}")
    try:
        record = record_of(read_records(path))
    except (JournalError, KeyError, TypeError, ValueError) as error:
        if isinstance(error, ReplayError):
            raise
        raise ReplayError(
            "bad_replay", f"Table {table_id}'s journal is damaged ({error})"
        ) from None
    check_finished(record)
    return record


def check_finished(record: GameRecord) -> Replayer:
    """The record's replayer, or ``not_finished`` for a game not over (its hands are secret)."""
    replayer = Replayer(record)
    if not record.players or not replayer.finished:
        raise ReplayError(
            "not_finished",
            f"Table {record.table}'s game is not over: replays are for finished games only",
        )
    return replayer


def summary(record: GameRecord, replayer: Replayer | None = None) -> dict[str, Any]:
    """One line of ``list_replays``: the table, its game, players, winners and length."""
    replayer = replayer or Replayer(record)
    outcome = replayer.game.outcome(replayer.frames[-1].state)
    return {
        "table": record.table,
        "game": record.game,
        "title": replayer.game.title,
        "players": list(record.players),
        "winners": [] if outcome is None else [record.players[s] for s in outcome.winners],
        "scores": [] if outcome is None else list(outcome.scores),
        "moves": len(record.steps),
    }


def list_archived(state_dir: Path, limit: int = MAX_LISTED) -> list[dict[str, Any]]:
    """The finished games archived under ``state_dir``, newest first (damaged or unfinished
    journals are left out)."""
    folder = archive_dir(state_dir)
    if not folder.is_dir():
        return []
    paths = sorted(folder.glob("*.log"), key=lambda p: (len(p.stem), p.stem), reverse=True)
    found: list[dict[str, Any]] = []
    for path in paths:
        if len(found) >= limit:
            break
        row = _summary_of(path)
        if row is not None:
            found.append(row)
    return found


_SUMMARIES: dict[tuple[str, int, int], dict[str, Any] | None] = {}
"""Archived journals' summaries by (path, mtime, size): an archive does not change, and
replaying every game on each ``list_replays`` would stall the host."""


def _summary_of(path: Path) -> dict[str, Any] | None:
    """A finished game's summary (``None``: damaged or not finished), cached."""
    try:
        info = path.stat()
    except OSError:
        return None
    key = (str(path), info.st_mtime_ns, info.st_size)
    if key not in _SUMMARIES:
        try:
            record = record_of(read_records(path))
            _SUMMARIES[key] = summary(record, check_finished(record))
        except (ReplayError, JournalError, KeyError, TypeError, ValueError):
            _SUMMARIES[key] = None
        if len(_SUMMARIES) > 4 * MAX_LISTED:
            _SUMMARIES.pop(next(iter(_SUMMARIES)))
    return _SUMMARIES[key]


def export_lines(record: GameRecord) -> list[dict[str, Any]]:
    """The JSON lines of ``clowder replay --export``: a header, each step, the public log."""
    replayer = Replayer(record)
    lines: list[dict[str, Any]] = [
        {
            "kind": "game",
            "table": record.table,
            "game": record.game,
            "seed": record.seed,
            "options": record.options,
            "players": record.players,
        }
    ]
    lines += [{"kind": "action", "index": i + 1, **s.to_data()} for i, s in enumerate(record.steps)]
    lines += [{"kind": "note", "note": note} for note in record.notes]
    lines += [{"kind": "log", "event": event} for event in replayer.public_log()]
    outcome = replayer.game.outcome(replayer.frames[-1].state)
    if outcome is not None:
        lines.append(
            {"kind": "outcome", "scores": list(outcome.scores), "winners": list(outcome.winners)}
        )
    return lines


def host_list(state_dir: Path | None, over_open: Iterable[str] = ()) -> list[dict[str, Any]]:
    """What a host answers to ``list_replays``: archived finished games, and the tables still
    open whose game is over (``over_open``), newest first."""
    if state_dir is None:
        return []
    found: list[dict[str, Any]] = []
    for table_id in over_open:
        try:
            found.append(summary(read_open(state_dir, table_id)))
        except ReplayError:
            continue
    found.sort(key=lambda row: (len(row["table"]), row["table"]), reverse=True)
    return (found + list_archived(state_dir))[:MAX_LISTED]


def read_open(state_dir: Path, table_id: str) -> GameRecord:
    """The record of a table still open (its results on show): refused unless it is over."""
    path = state_dir / "tables" / f"{table_id}.log"
    try:
        record = record_of(read_records(path))
    except (OSError, JournalError, KeyError, TypeError, ValueError) as error:
        if isinstance(error, ReplayError):
            raise
        raise ReplayError("bad_replay", f"Table {table_id}'s journal cannot be read") from None
    check_finished(record)
    return record


def local_list(state_dir: Path) -> list[dict[str, Any]]:
    """``clowder replay --state-dir``: what :func:`host_list` would answer, read from the
    folder alone (a host may be running on it, or not): the open tables' journals whose
    game is over (results still on show), then the archive."""
    folder = state_dir / "tables"
    over = [
        path.stem
        for path in (folder.glob("*.log") if folder.is_dir() else [])
        if TABLE_ID.match(path.stem) and _summary_of(path) is not None
    ]
    return host_list(state_dir, over)


def local_get(state_dir: Path, table_id: str) -> GameRecord:
    """``clowder replay TABLE --state-dir``: archived, or open with its game over (a game
    still on is refused, ``not_finished``, as a host would)."""
    if TABLE_ID.match(table_id) and (state_dir / "tables" / f"{table_id}.log").is_file():
        return read_open(state_dir, table_id)
    return read_archived(state_dir, table_id)


def host_get(state_dir: Path | None, table_id: str, open_ids: Iterable[str]) -> GameRecord:
    """What a host answers to ``get_replay``; a table still open must be over (else refused)."""
    if state_dir is None:
        raise ReplayError("no_such_replay", "This host keeps no journals (no state folder)")
    if table_id in set(open_ids):
        return read_open(state_dir, table_id)
    return read_archived(state_dir, table_id)

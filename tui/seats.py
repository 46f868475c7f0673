"""The seats this player holds, kept between runs so a crashed or closed Clowder comes back.

A seat is held by its secret token (``joined.token``). The client keeps each
token it holds, per host (``address:port``) and table, in ``seats.json`` in
the platform's state folder (``platformdirs.user_state_dir("clowder")``, or
``$CLOWDER_STATE_DIR``, which tests use). Starting Clowder again, the lobby
marks those tables "your seat" and Enter (or ``clowder join HOST``) returns
to them with ``hello.token``. A token is dropped when the game is over, when
the player gives the seat up, and when the host says it holds no seat.

Each seat is kept with the name it was taken under, and only a Clowder
playing under that name goes back to it: two terminals of one user
(``clowder --name Ann`` and ``clowder --name Bea``, one state folder) are two
players, and the second never takes the first's seat with its token. A
rename in the lobby carries the held seats over to the new name.

The file is private (0600) and replaced atomically (written beside it, then
renamed), so a crash mid-write leaves the old list, never half a file. An
unreadable file is the same as none: the worst case is a seat a bot keeps.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

STATE_DIR_ENV = "CLOWDER_STATE_DIR"
SEATS_FILE = "seats.json"
MAX_SEATS = 200
"""Oldest seats are forgotten beyond this many (a file that never grows without end)."""


def state_dir() -> Path:
    """Where the seats live: ``$CLOWDER_STATE_DIR`` or the platform's state folder."""
    override = os.environ.get(STATE_DIR_ENV)
    if override:
        return Path(override)
    from platformdirs import user_state_dir

    return Path(user_state_dir("clowder"))


@dataclass(frozen=True, slots=True)
class HeldSeat:
    """One seat this player holds: where, which table and game, and its token."""

    host: str
    """``address:port`` as the player reached it."""
    table: str
    token: str
    game: str = ""
    host_name: str = ""
    name: str = ""
    """The player name the seat was taken under ("": kept before names were, anyone's)."""

    def for_name(self, name: str | None) -> bool:
        """Whether a player called ``name`` may take this seat back (``None``: any name)."""
        return name is None or not self.name or self.name == name


class SeatStore:
    """The held seats, read from and written straight back to ``seats.json``."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else state_dir()
        self.path = self.directory / SEATS_FILE
        self.problem = ""
        """Why the last write failed (empty: it did not)."""

    def all(self) -> list[HeldSeat]:
        try:
            data: Any = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        rows = data.get("seats") if isinstance(data, dict) else None
        seats = []
        for row in rows if isinstance(rows, list) else []:
            try:
                seat = HeldSeat(**{k: str(v) for k, v in row.items()})
            except (TypeError, AttributeError):
                continue
            if seat.host and seat.table and seat.token:
                seats.append(seat)
        return seats

    def find(self, host: str, table: str, name: str | None = None) -> HeldSeat | None:
        """The seat held at ``host``'s ``table`` (by ``name``, when given)."""
        return next(
            (s for s in self.all() if (s.host, s.table) == (host, table) and s.for_name(name)),
            None,
        )

    def tables_at(self, host: str, name: str | None = None) -> set[str]:
        """The tables of ``host`` where this player (``name``, when given) holds a seat."""
        return {seat.table for seat in self.all() if seat.host == host and seat.for_name(name)}

    def keep(self, seat: HeldSeat) -> None:
        """Remember ``seat``, replacing any earlier token for that host and table held by the
        same name, by no name (kept before names were: it must not go to another name
        now), or with the same token."""
        where = (seat.host, seat.table)
        others = [
            s
            for s in self.all()
            if (s.host, s.table) != where
            or (s.name not in ("", seat.name) and s.token != seat.token)
        ]
        self._write([*others, seat][-MAX_SEATS:])

    def drop(self, host: str, table: str, name: str | None = None) -> None:
        """Forget the seat at ``host``'s ``table`` (over, given up, or unknown to the host);
        with ``name``, only the one held under that name."""
        seats = self.all()
        kept = [s for s in seats if (s.host, s.table) != (host, table) or not s.for_name(name)]
        if len(kept) != len(seats):
            self._write(kept)

    def rename(self, old: str, new: str) -> None:
        """The player renamed: the seats held as ``old`` are now held as ``new``."""
        seats = self.all()
        if any(s.name == old for s in seats) and old != new:
            self._write([replace(s, name=new) if s.name == old else s for s in seats])

    def _write(self, seats: list[HeldSeat]) -> None:
        text = json.dumps({"seats": [asdict(seat) for seat in seats]}, indent=1) + "\n"
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=".seats-", dir=self.directory)
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as file:
                    file.write(text)
                    file.flush()
                    os.fsync(file.fileno())
                os.chmod(temporary, 0o600)
                os.replace(temporary, self.path)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError as error:
            self.problem = f"Could not save your seat: {error.strerror or error}"
            return
        self.problem = ""

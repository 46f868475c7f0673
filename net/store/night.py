"""Tonight's standings: the games played on this host this evening, and who won them.

A LAN party is an evening of several games with the same people; the lobby, every
results screen, the room screen and ``clowder scores --tonight`` show how the night
stands: per person, the games played, the games won, and the rating change each game
brought. It is kept in the state folder as ``night.json`` (0600, replaced atomically), so
a host restarted in the middle of the evening keeps it.

When a night begins: with ``clowder host --new-night``; otherwise when the host starts
more than :data:`NIGHT_GAP_S` (12 hours) after the night's last game ended or its last
table was opened (the next evening); otherwise a restarted host goes on with the same
night. Times are wall-clock seconds, given by the caller (the store reads no clock).

A seat is the person's own row when their client sent its player key (the scoreboard's
``player_id``), else their name; bots are rows of their own, marked.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

FILE_NAME: Final = "night.json"
FORMAT: Final = 1
NIGHT_GAP_S: Final = 12 * 3600.0
"""A host started this long after the night's last activity begins a new night."""
MAX_GAMES: Final = 500
"""Games kept per night (the oldest go first): far more than an evening plays."""


@dataclass
class NightGame:
    """One finished game of the night."""

    table: str
    game: str
    title: str
    ended_at: float
    seats: list[dict[str, Any]]
    """Per seat: ``name``, ``key`` (the row it counts for), ``bot``, ``won``, ``change``
    (its rating change, ``None`` when not rated)."""

    def to_data(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "game": self.game,
            "title": self.title,
            "ended_at": self.ended_at,
            "seats": self.seats,
        }


@dataclass
class Night:
    """Tonight on this host (see the module docstring)."""

    path: Path | None
    started_at: float
    last_activity: float
    games: list[NightGame] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    """Lines for the host's log (a night file set aside, a new night begun)."""

    @classmethod
    def open(cls, state_dir: Path | None, now: float, *, new_night: bool = False) -> Night:
        """Tonight as kept in ``state_dir`` (``None``: kept in memory only), or a new one."""
        path = None if state_dir is None else state_dir / FILE_NAME
        night = cls(path, started_at=now, last_activity=now)
        if path is None or new_night:
            if new_night:
                night.notices.append(
                    "A new night begins (--new-night): tonight's standings are empty"
                )
            night._save()
            return night
        kept = _read(path)
        if kept is None:
            if path.exists():
                night.notices.append(f"{path} could not be read; tonight's standings start afresh")
            night._save()
            return night
        last = kept.last_activity
        if now - last > NIGHT_GAP_S:
            night.notices.append(
                f"A new night begins: nothing happened here for {(now - last) / 3600:.0f} hours"
            )
            night._save()
            return night
        kept.path, kept.last_activity = path, max(last, now)
        return kept

    def touch(self, now: float) -> None:
        """Something happened (a table opened): the night is still on."""
        if now > self.last_activity:
            self.last_activity = now
            self._save()

    def record(
        self,
        table: Any,
        covered: Sequence[float],
        changes: Sequence[dict[str, int] | None] | None,
        now: float,
    ) -> bool:
        """Count a finished table once (its id); returns whether it was new.

        ``changes``: each seat's rating change (``{"rating", "change"}``), if rated.
        ``covered``: each seat's share of the game a bot played for its person (a seat a bot
        played for most of the game counts as the bot's, not the person's win).
        """
        if any(game.table == table.id for game in self.games):
            return False
        outcome = table.outcome
        if outcome is None:
            return False
        seats = []
        for index, info in enumerate(table.seats):
            share = covered[index] if index < len(covered) else 0.0
            person = info.human or info.gave_up
            given = changes[index] if changes is not None and index < len(changes) else None
            change = None if given is None else int(given["change"])
            seats.append(
                {
                    "name": info.name or f"seat {index}",
                    "key": _row_key(info, person),
                    "bot": not person,
                    "won": index in outcome.winners and share < 0.5,
                    "change": change,
                }
            )
        self.games.append(NightGame(table.id, table.game.name, table.game.title, now, seats))
        del self.games[:-MAX_GAMES]
        self.last_activity = max(self.last_activity, now)
        self._save()
        return True

    def standings(self) -> list[dict[str, Any]]:
        """Per person (people first, then bots; most wins, then fewest games, then name):
        ``name``, ``bot``, ``games``, ``wins`` and ``changes`` (per game played, in order:
        ``{"game", "change"}``, the change ``None`` where not rated)."""
        rows: dict[str, dict[str, Any]] = {}
        for game in self.games:
            for seat in game.seats:
                row = rows.setdefault(
                    seat["key"],
                    {
                        "name": seat["name"],
                        "bot": seat["bot"],
                        "games": 0,
                        "wins": 0,
                        "changes": [],
                    },
                )
                row.setdefault("changes", [])
                row["name"] = seat["name"]  # the name they last played under
                row["games"] += 1
                row["wins"] += int(seat["won"])
                row["changes"].append({"game": game.game, "change": seat["change"]})
        return sorted(
            rows.values(), key=lambda r: (r["bot"], -r["wins"], r["games"], r["name"].lower())
        )

    def to_data(self) -> dict[str, Any]:
        """What ``clowder scores --tonight`` and the room screen show (msgpack-ready)."""
        return {
            "started_at": self.started_at,
            "games": len(self.games),
            "standings": self.standings(),
        }

    def _save(self) -> None:
        if self.path is None:
            return
        data = {
            "format": FORMAT,
            "started_at": self.started_at,
            "last_activity": self.last_activity,
            "games": [game.to_data() for game in self.games],
        }
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, name = tempfile.mkstemp(prefix=".night-", dir=self.path.parent)
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as file:
                    json.dump(data, file)
                os.chmod(name, 0o600)
                os.replace(name, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(name)
                raise
        except OSError as error:  # a full disk costs tonight's file, never a game
            self.notices.append(f"Tonight's standings not saved ({error.strerror or error})")


def read_night(state_dir: Path) -> Night | None:
    """Tonight as kept in ``state_dir``, read only (``None``: none kept, or unreadable)."""
    return _read(state_dir / FILE_NAME)


def _row_key(info: Any, person: bool) -> str:
    if not person:
        return f"bot:{info.name}"
    player = getattr(info, "player", None)
    return f"key:{player}" if player else f"name:{info.name}"


def _read(path: Path) -> Night | None:
    """The night kept in ``path`` (``None``: none, or not readable: a new night begins)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    try:
        games = [
            NightGame(
                str(game["table"]),
                str(game["game"]),
                str(game["title"]),
                float(game["ended_at"]),
                [_seat(seat) for seat in game["seats"]],
            )
            for game in data["games"]
        ]
        return Night(path, float(data["started_at"]), float(data["last_activity"]), games)
    except (KeyError, TypeError, ValueError):
        return None


def _seat(seat: Any) -> dict[str, Any]:
    if not isinstance(seat, dict) or not isinstance(seat.get("name"), str):
        raise ValueError("a seat that is not a map with a name")
    change = seat.get("change")
    return {
        "name": seat["name"],
        "key": str(seat.get("key") or f"name:{seat['name']}"),
        "bot": bool(seat.get("bot")),
        "won": bool(seat.get("won")),
        "change": change if isinstance(change, int) and not isinstance(change, bool) else None,
    }


def tonight_lines(data: dict[str, Any], width: int = 60) -> list[str]:
    """The night's standings as short lines for people (results screens, the lobby)."""
    standings = data.get("standings") or []
    games = int(data.get("games") or 0)
    if not games:
        return ["Tonight: no game finished yet"]
    lines = [f"Tonight: {games} game{'s' if games != 1 else ''}"]
    for row in standings:
        changes = [c["change"] for c in row.get("changes", []) if c.get("change") is not None]
        total = f", rating {sum(changes):+d}" if changes else ""
        wins = row["wins"]
        line = f"  {row['name']}: {wins} win{'s' if wins != 1 else ''} of {row['games']}{total}"
        lines.append(line[:width])
    return lines

"""The host's scoreboard: who played and won which game, across games and restarts.

Kept in the state folder as ``scores.json`` (0600, replaced atomically),
per game, one row per player. A player whose client sent its player key
(``hello.player``) is known by a hash of it (:func:`player_id`; never the
key): one row under the name they last played with, so a player who renames
keeps their results and two people of the same name stay apart. Otherwise a
seat (a bot's too) is known by its name. Each finished table is counted
once (its id is remembered), also when the host restarts with the table's
results still on show. ``clowder host --reset-scores`` deletes the file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

FILE_NAME = "scores.json"
FORMAT = 2
"""The file's format: 2 keys rows by player (``key:...``) or name (``name:...``); 1 (no
``format``) keyed them by name only, and is read as names. A newer one is left alone."""
KEEP_TABLE_IDS = 1000
"""How many counted table ids are remembered (the newest): enough to never count one twice."""
MAX_ROWS = 50
"""The most rows per game a ``scores`` answer carries (the most wins first)."""


def player_id(key: str) -> str:
    """A short, one-way name for a player key (the key itself is the player's secret)."""
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def row_key(name: str, player: str | None) -> str:
    """Where a seat's result is counted: its player's hash where known, else its name."""
    return f"key:{player}" if player else f"name:{name}"


def _count(value: Any) -> int | None:
    """A row's ``played``/``wins``: a whole number from 0 (``None``: not one)."""
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    return value if ok else None


def _row(name: Any, row: Any) -> dict[str, Any] | None:
    """A stored row, checked (``None``: damaged, left out)."""
    if not isinstance(row, dict) or not isinstance(name, str) or not name:
        return None
    played, wins = _count(row.get("played", 0)), _count(row.get("wins", 0))
    if played is None or wins is None:
        return None
    return {"name": name, "played": played, "wins": wins, "bot": bool(row.get("bot"))}


def _cleaned(data: dict[str, Any], version: int) -> dict[str, Any]:
    """A file's results as format 2, each row checked: a damaged row or game is left out
    (a hand-edited or half-written file costs those rows, never the host's start).
    Format 1 rows were keyed by name and had no ``name`` field."""
    games: dict[str, dict[str, Any]] = {}
    stored = data.get("games")
    for game, rows in stored.items() if isinstance(stored, dict) else ():
        if not isinstance(game, str) or not isinstance(rows, dict):
            continue
        kept = games.setdefault(game, {})
        for stored_key, row in rows.items():
            if version == 1:
                checked, key = _row(stored_key, row), row_key(str(stored_key), None)
            elif isinstance(stored_key, str) and stored_key.startswith(("key:", "name:")):
                name = row.get("name") if isinstance(row, dict) else None
                checked, key = _row(name, row), stored_key
            else:
                continue
            if checked is not None:
                kept[key] = checked
    tables = data.get("tables")
    ids = [t for t in tables if isinstance(t, str)] if isinstance(tables, list) else []
    return {"format": FORMAT, "games": games, "tables": ids[-KEEP_TABLE_IDS:]}


class Scoreboard:
    """Results by game and player, in ``<state-dir>/scores.json``."""

    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / FILE_NAME
        self.frozen = False
        """The file is of a newer format than this Clowder's: it is neither read nor
        overwritten (a newer Clowder's results are kept for it)."""
        self.data: dict[str, Any] = self._load()

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        if not isinstance(data, dict):
            return _cleaned({}, FORMAT)
        version = data.get("format", 1)
        if not isinstance(version, int) or isinstance(version, bool) or version > FORMAT:
            self.frozen = True
            return _cleaned({}, FORMAT)
        return _cleaned(data, version)

    def record(self, table: Any) -> bool:
        """Count a finished table's result (once); returns whether it was counted now."""
        outcome = table.outcome
        if outcome is None or table.id in self.data["tables"]:
            return False
        rows = self.data["games"].setdefault(table.game.name, {})
        for seat, info in enumerate(table.seats):
            name = info.name or f"seat {seat}"
            new = {"name": name, "played": 0, "wins": 0, "bot": False}
            row = rows.setdefault(row_key(name, getattr(info, "player", None)), new)
            row["name"] = name  # the name they played under last
            row["bot"] = not info.human  # a person's seat a bot covered is still theirs
            row["played"] += 1
            row["wins"] += 1 if seat in outcome.winners else 0
        self.data["tables"] = [*self.data["tables"], table.id][-KEEP_TABLE_IDS:]
        self._save()
        return True

    def _save(self) -> None:
        if self.frozen:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=".scores-", dir=self.path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(self.data, out, indent=1, sort_keys=True)
            os.chmod(name, 0o600)
            os.replace(name, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(name)
            raise

    def summary(self, limit: int = MAX_ROWS) -> dict[str, list[dict[str, Any]]]:
        """Per game, the players by wins (then fewest games): name, wins, played, bot."""
        result: dict[str, list[dict[str, Any]]] = {}
        for game, rows in sorted(self.data["games"].items()):
            ordered = sorted(rows.values(), key=lambda row: (-row["wins"], row["played"]))
            result[game] = [
                {
                    "name": row["name"],
                    "wins": row["wins"],
                    "played": row["played"],
                    "bot": bool(row.get("bot")),
                }
                for row in ordered[:limit]
            ]
        return result


def reset(state_dir: Path) -> bool:
    """Forget every result (``clowder host --reset-scores``); whether there was a file."""
    try:
        (state_dir / FILE_NAME).unlink()
    except FileNotFoundError:
        return False
    return True


def wins_line(summary: dict[str, list[dict[str, Any]]], titles: dict[str, str]) -> list[str]:
    """The lobby's lines: ``Catchy!: Ann 3, Bea 1 (of 5)`` per game, people before bots."""
    lines = []
    for game, rows in summary.items():
        people = [row for row in rows if row["wins"]]
        if not people:
            continue
        played = max(row["played"] for row in rows)
        best = ", ".join(f"{row['name']} {row['wins']}" for row in people[:4])
        lines.append(f"{titles.get(game, game)}: {best} (wins; most played {played})")
    return lines

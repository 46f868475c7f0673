"""The host's scoreboard: who played and won which game, and their ratings, across restarts.

Kept in the state folder as ``scores.json`` (0600, replaced atomically),
per game, one row per player. A player whose client sent its player key
(``hello.player``) is known by a hash of it (:func:`player_id`; never the
key): one row under the name they last played with, so a player who renames
keeps their results and two people of the same name stay apart. Otherwise a
seat (a bot's too) is known by its name. Each finished table is counted
once (its id is remembered), also when the host restarts with the table's
results still on show. ``clowder host --reset-scores`` deletes the file.

Ratings (:mod:`net.store.ratings`, when openskill is installed) live in the same
file, per game, under the same keys, bots under their level's key
(``bot:<game>:<level>``); each rated table's per-seat changes are kept for
a while, so a table whose results are still on show after a restart shows
them again. A file that is not a JSON map at all is set aside as
``scores.json.damaged`` (as a damaged table journal is) and counting starts
afresh; a damaged row in a good file costs that row only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from net.store import ratings

FILE_NAME = "scores.json"
DAMAGED_SUFFIX = ".damaged"
FORMAT = 3
"""The file's format: 3 adds ``ratings`` and ``rated``; 2 keys rows by player (``key:...``)
or name (``name:...``); 1 (no ``format``) keyed them by name only, and is read as names.
Older formats are read (with no ratings yet); a newer one is left alone."""
KEEP_TABLE_IDS = 1000
"""How many counted table ids are remembered (the newest): enough to never count one twice."""
KEEP_RATED = 200
"""How many tables' rating changes are kept (the newest): more than can be on show at once."""
MAX_ROWS = 50
"""The most rows per game a ``scores`` answer carries (the most wins first)."""
RATING_PREFIXES = ("key:", "name:", "bot:")


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
    checked = {"name": name, "played": played, "wins": wins, "bot": bool(row.get("bot"))}
    level = row.get("level")
    if isinstance(level, str) and level:
        checked["level"] = level  # a bot's seat: rated under its level (net.store.ratings.bot_key)
    return checked


def _ratings(stored: Any) -> dict[str, dict[str, dict[str, Any]]]:
    """Format 3's ``ratings``, each row checked (a damaged one is left out)."""
    kept: dict[str, dict[str, dict[str, Any]]] = {}
    for game, rows in stored.items() if isinstance(stored, dict) else ():
        if not isinstance(game, str) or not isinstance(rows, dict):
            continue
        good = {
            key: row
            for key, raw in rows.items()
            if isinstance(key, str)
            and key.startswith(RATING_PREFIXES)
            and (row := ratings.checked_row(raw)) is not None
        }
        if good:
            kept[game] = good
    return kept


def _rated(stored: Any) -> list[dict[str, Any]]:
    """Format 3's ``rated``: the newest tables' per-seat changes, each entry checked."""
    kept = []
    for entry in stored if isinstance(stored, list) else ():
        if not isinstance(entry, dict) or not isinstance(entry.get("table"), str):
            continue
        seats = ratings.checked_changes(entry.get("seats"))
        if seats is not None:
            kept.append({"table": entry["table"], "seats": seats})
    return kept[-KEEP_RATED:]


def _cleaned(data: dict[str, Any], version: int) -> dict[str, Any]:
    """A file's results as the current format, each row checked: a damaged row or game is
    left out (a hand-edited or half-written file costs those rows, never the host's start).
    Format 1 rows were keyed by name and had no ``name`` field; 1 and 2 had no ratings."""
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
    return {
        "format": FORMAT,
        "games": games,
        "tables": ids[-KEEP_TABLE_IDS:],
        "ratings": _ratings(data.get("ratings")) if version >= 3 else {},
        "rated": _rated(data.get("rated")) if version >= 3 else [],
    }


def _bot_name(level: str) -> str:
    """How a bot level's rating row is named (``Bot (normal)``)."""
    return f"Bot ({level})"


class Scoreboard:
    """Results and ratings by game and player, in ``<state-dir>/scores.json``.

    ``read_only``: only read (``clowder scores``): a damaged file is reported, not moved.
    """

    def __init__(self, state_dir: Path, *, read_only: bool = False) -> None:
        self.path = state_dir / FILE_NAME
        self.read_only = read_only
        self.frozen = False
        """The file is of a newer format than this Clowder's, or could not be read or set
        aside: it is not overwritten (a newer Clowder's results are kept for it)."""
        self.notices: list[str] = []
        """What the host should log once (a file set aside, ratings off); see
        :meth:`take_notices`."""
        self.data: dict[str, Any] = self._load()
        self.ratings_on = ratings.available()
        """Whether finished games are rated (openskill is installed): without it, wins are
        counted as before, no rating is shown or sent, and stored ratings are kept as they
        are for a host that has it."""
        if not self.ratings_on and not read_only:
            self.notices.append(ratings.UNAVAILABLE)

    def take_notices(self) -> list[str]:
        """The lines to log now (each said once)."""
        lines, self.notices = self.notices, []
        return lines

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return _cleaned({}, FORMAT)
        except ValueError as error:  # not UTF-8, or not JSON
            return self._damaged(f"it is not JSON: {error}")
        except OSError as error:
            self.frozen = True
            self.notices.append(
                f"Scores file {self.path} could not be read ({error.strerror or error}); "
                "it is left alone and this run's results are not saved"
            )
            return _cleaned({}, FORMAT)
        if not isinstance(data, dict):
            return self._damaged("it is not a JSON map")
        version = data.get("format", 1)
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            return self._damaged(f"its format {version!r} is not a version number")
        if version > FORMAT:
            self.frozen = True
            return _cleaned({}, FORMAT)
        return _cleaned(data, version)

    def _damaged(self, why: str) -> dict[str, Any]:
        """Set a damaged file aside and start afresh; if it cannot be moved, leave it alone
        (and save nothing over it)."""
        empty = _cleaned({}, FORMAT)
        if self.read_only:
            self.notices.append(f"Scores file {self.path} is damaged ({why})")
            return empty
        try:
            kept = _set_aside(self.path)
        except OSError as error:
            self.frozen = True
            self.notices.append(
                f"Damaged scores file {self.path} ({why}) could not be set aside "
                f"({error.strerror or error}); it is left alone and this run's results "
                "are not saved"
            )
            return empty
        self.notices.append(
            f"Damaged scores file {self.path.name} ({why}) kept as {kept}; "
            "results are counted afresh"
        )
        return empty

    def record(self, table: Any, covered: Sequence[float] = ()) -> bool:
        """Count a finished table's result (once) and rate it; returns whether it was
        counted now. ``covered``: per seat, the share of the game a bot played for a person
        (:meth:`net.core.tables.Table.covered_shares`; missing: none)."""
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
            if _person(info):
                row.pop("level", None)
            else:
                row["level"] = ratings.seat_level(info)  # its rating is its level's
            row["played"] += 1
            row["wins"] += 1 if seat in outcome.winners else 0
        self.data["tables"] = [*self.data["tables"], table.id][-KEEP_TABLE_IDS:]
        if self.ratings_on:
            self._rate(table, covered)
        self._save()
        return True

    def _rate(self, table: Any, covered: Sequence[float]) -> None:
        """Move the ratings of the seats a finished table rates (:mod:`net.store.ratings`)."""
        game = table.game.name
        winners = table.outcome.winners
        entrants = []
        for seat, info in enumerate(table.seats):
            won = seat in winners
            level = ratings.seat_level(info)
            name = info.name or f"seat {seat}"
            if not _person(info):
                entrant = ratings.Entrant(
                    ratings.bot_key(game, level), _bot_name(level), won, bot=True
                )
            elif ratings.covered_too_long(covered[seat] if seat < len(covered) else 0.0):
                # Played mostly by the bot: it takes part at the bot's strength, unrated.
                entrant = ratings.Entrant(
                    ratings.bot_key(game, level), _bot_name(level), won, rated=False
                )
            else:
                key = row_key(name, getattr(info, "player", None))
                entrant = ratings.Entrant(key, name, won)
            entrants.append(entrant)
        known = self.data["ratings"].get(game, {})
        try:
            moved, changes = ratings.rate(known, entrants)
        except Exception as error:  # a rating bug must not cost the game's result
            self.notices.append(f"[{table.id}] not rated: {type(error).__name__}: {error}")
            return
        if moved:
            self.data["ratings"].setdefault(game, {}).update(moved)
        seats = [None if change is None else change.to_data() for change in changes]
        self.data["rated"] = [*self.data["rated"], {"table": table.id, "seats": seats}][
            -KEEP_RATED:
        ]

    def table_ratings(self, table_id: str) -> list[dict[str, int] | None] | None:
        """A rated table's per-seat changes (``None``: not rated, or ratings are off)."""
        if not self.ratings_on:
            return None
        for entry in reversed(self.data["rated"]):
            if entry["table"] == table_id:
                return list(entry["seats"])
        return None

    def _save(self) -> None:
        if self.frozen or self.read_only:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=".scores-", dir=self.path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(self.data, out, indent=1, sort_keys=True)
                out.flush()
                os.fsync(out.fileno())  # the new file is whole before it replaces the old
            os.chmod(name, 0o600)
            os.replace(name, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(name)
            raise

    def rating_of(self, game: str, row_key_: str, row: dict[str, Any]) -> int | None:
        """The shown rating of a wins row (a bot's: its level's), if it has one."""
        level = row.get("level")
        key = ratings.bot_key(game, level) if isinstance(level, str) else row_key_
        rated = self.data["ratings"].get(game, {}).get(key)
        return None if rated is None else ratings.row_rating(rated)

    def summary(self, limit: int = MAX_ROWS) -> dict[str, list[dict[str, Any]]]:
        """Per game, the players by wins (then fewest games): name, wins, played, bot, and
        ``rating`` where the player is rated (only while ratings are on)."""
        result: dict[str, list[dict[str, Any]]] = {}
        for game, rows in sorted(self.data["games"].items()):
            ordered = sorted(rows.items(), key=lambda item: (-item[1]["wins"], item[1]["played"]))
            result[game] = []
            for key, row in ordered[:limit]:
                line = {
                    "name": row["name"],
                    "wins": row["wins"],
                    "played": row["played"],
                    "bot": bool(row.get("bot")),
                }
                rating = self.rating_of(game, key, row) if self.ratings_on else None
                if rating is not None:
                    line["rating"] = rating
                result[game].append(line)
        return result

    def standings(self, game: str) -> list[dict[str, Any]]:
        """``clowder scores``' rows for ``game``, best rating first, then the unrated by wins:
        ``name``, ``rating`` (or ``None``), ``rated`` (games rated), ``wins``, ``played``,
        ``bot``. A bot level is one row (its seats' wins summed); a person is one row per
        key. Stored ratings are shown whether or not this Clowder can rate."""
        rated = self.data["ratings"].get(game, {})
        rows = self.data["games"].get(game, {})
        out: dict[str, dict[str, Any]] = {}
        for key, row in rated.items():
            out[key] = {
                "name": row["name"],
                "rating": ratings.row_rating(row),
                "rated": row["games"],
                "wins": 0,
                "played": 0,
                "bot": row["bot"] or key.startswith("bot:"),
            }
        for key, row in rows.items():
            level = row.get("level")
            where = ratings.bot_key(game, level) if isinstance(level, str) else key
            line = out.setdefault(
                where,
                {
                    "name": _bot_name(level) if isinstance(level, str) else row["name"],
                    "rating": None,
                    "rated": 0,
                    "wins": 0,
                    "played": 0,
                    "bot": bool(row.get("bot")),
                },
            )
            if not isinstance(level, str):
                line["name"] = row["name"]  # the name they last played under
            line["wins"] += row["wins"]
            line["played"] += row["played"]
        return sorted(
            out.values(),
            key=lambda line: (
                line["rating"] is None,
                -(line["rating"] or 0),
                -line["wins"],
                line["name"],
            ),
        )


def _set_aside(path: Path) -> str:
    """Rename ``path`` to ``<name>.damaged`` (``.damaged.2``... if taken), as a damaged table
    journal is: the new name is claimed with a hard link, which fails rather than replace
    a file, so an earlier damaged copy is never overwritten. Returns the new name; raises
    OSError when it cannot."""
    for number in range(1, 1000):
        suffix = DAMAGED_SUFFIX if number == 1 else f"{DAMAGED_SUFFIX}.{number}"
        target = path.with_name(path.name + suffix)
        try:
            os.link(path, target)
        except FileExistsError:
            continue
        path.unlink()
        return target.name
    raise OSError(f"{path.name}: too many damaged copies already")


def _person(info: Any) -> bool:
    """Whether a seat is a person's (also one they gave up to a bot): not a bot's own."""
    return bool(info.human or getattr(info, "gave_up", False))


def reset(state_dir: Path) -> bool:
    """Forget every result (``clowder host --reset-scores``); whether there was a file."""
    try:
        (state_dir / FILE_NAME).unlink()
    except FileNotFoundError:
        return False
    return True


def wins_line(summary: dict[str, list[dict[str, Any]]], titles: dict[str, str]) -> list[str]:
    """The lobby's lines, per game: ``Catchy!: Ann 3 wins (rated 1,612) · Bea 1 win``: the
    winners, most wins first, each with their rating where the host rates them, in words a
    newcomer reads without a legend."""
    lines = []
    for game, rows in summary.items():
        people = [row for row in rows if row["wins"]]
        if not people:
            continue
        best = " · ".join(_winner(row) for row in people[:4])
        lines.append(f"{titles.get(game, game)}: {best}")
    return lines


def _shown_rating(row: dict[str, Any]) -> int | None:
    """A row's ``rating`` if it is a whole number (a host's answer is not trusted)."""
    rating = row.get("rating")
    return rating if isinstance(rating, int) and not isinstance(rating, bool) else None


def _winner(row: dict[str, Any]) -> str:
    """``Ann 3 wins (rated 1,612)``."""
    rating = _shown_rating(row)
    wins = int(row["wins"])
    text = f"{row['name']} {wins} win{'s' if wins != 1 else ''}"
    return text if rating is None else f"{text} (rated {ratings.as_text(rating)})"

"""Ratings: a skill estimate per player per game, kept by each host with its scoreboard.

The math is openskill's Plackett-Luce model (PyPI ``openskill``, v6): it
rates any number of players at once (Clowder's tables hold 2 to 10) and
takes shared places, which Elo (two players) does not and TrueSkill (patent
encumbered) would. openskill is an optional dependency (the ``ratings``
extra) because only this feature needs it: without it :func:`available` is
false, the host counts wins as before and says so once in its log, and the
ratings already stored are kept untouched for a host that has it.

What is rated. A game's outcome names its winners but not, in every game, a
full order of the others (Kitten Me!'s scores are deal sizes), so a game has
two places: the winners share the first, everyone else shares the second.
Each seat is a team of one. People are rated under the key the scoreboard
counts them by (``key:<hash>`` or ``name:<name>``); bots by game and level
(:func:`bot_key`), so every "normal" bot of a game shares one rating, which
says how strong that level plays. When several seats of one game are the
same bot level, its rating moves by the mean of their changes (two normal
bots beating each other leave it where it was). A person whose seat a bot
covered for more than half of the game (:data:`MAX_COVERED_SHARE`) is not
rated for it: their seat still takes part, played at the covering bot
level's strength, so the others' results stay fair, but nobody's rating
moves for that seat.

What is shown (:func:`shown`): openskill's ``ordinal()`` (``mu - 3 sigma``,
a cautious estimate that rises as the model grows sure of a player) on a
familiar scale: ``1500 + SCALE * ordinal``. A newcomer (``mu`` 25, ``sigma``
25/3) has ordinal 0, so everyone starts at 1,500. :data:`SCALE` makes a gap
between two settled players read as in Elo: 400 points is 10 to 1 odds.
The shown figure needs no openskill (``clowder scores`` works without it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

MU = 25.0
"""A newcomer's mean skill (openskill's default)."""
SIGMA = MU / 3
"""A newcomer's uncertainty (openskill's default)."""
BETA = SIGMA / 2
"""How much one game's performance varies around a player's skill (openskill's default)."""
Z = 3.0
"""The ordinal's caution: skill is shown as ``mu - Z * sigma`` (openskill's ``ordinal()``)."""
START = 1500
"""The shown rating of a newcomer (ordinal 0)."""
SCALE = 400 / (math.sqrt(2) * BETA * math.log(10))
"""Shown points per unit of skill (about 29.5). Plackett-Luce gives two players whose
``sigma`` is small odds of ``exp((mu_a - mu_b) / (sqrt(2) * BETA))``; Elo gives
``10 ** (gap / 400)``. Equal odds for equal gaps make this the factor."""
MAX_COVERED_SHARE = 0.5
"""A person whose seat a bot played for more than this share of the game is not rated."""
DEFAULT_LEVEL = "normal"
"""A bot's level when its seat does not say (a seat from a journal older than bot levels,
or a bot covering a person); a bot seat names its level, ``SeatInfo.level``, and is rated
at that level (``engine.bots.DEFAULT_LEVEL`` too)."""
MAX_MU = 1e4
"""Stored skills beyond these bounds are damaged rows (no real history gets near them)."""
MAX_SIGMA = 1e3


def available() -> bool:
    """Whether openskill can be imported (``pip install 'clowder-cards[ratings]'``)."""
    try:
        from openskill.models import PlackettLuce  # noqa: F401
    except ImportError:
        return False
    return True


UNAVAILABLE = (
    "Ratings are off: the openskill package is not installed "
    "(pip install 'clowder-cards[ratings]'); wins are counted as before"
)
"""The host's one log line when :func:`available` is false."""


def bot_key(game: str, level: str | None = None) -> str:
    """Where a bot of ``level`` at ``game`` is rated: ``bot:<game>:<level>``."""
    return f"bot:{game}:{level or DEFAULT_LEVEL}"


def seat_level(seat: Any) -> str:
    """The level of the bot at ``seat`` (a :class:`net.core.tables.SeatInfo`): what the seat
    says (``level``, set when the bot sat down), else :data:`DEFAULT_LEVEL`."""
    level = getattr(seat, "level", None)
    return level if isinstance(level, str) and level else DEFAULT_LEVEL


def shown(mu: float, sigma: float) -> int:
    """The rating people see: ``1500 + SCALE * (mu - 3 sigma)``, rounded (module docstring).

    Equal to openskill's ``rating.ordinal(alpha=SCALE, target=START)``, rounded.
    """
    return round(START + SCALE * (mu - Z * sigma))


def as_text(rating: int, change: int | None = None) -> str:
    """``1,512`` or, with its change in the last game, ``1,512 (+24)``."""
    text = f"{rating:,}"
    return text if change is None else f"{text} ({change:+,})"


def _number(value: Any, low: float, high: float) -> float | None:
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    return float(value) if ok and math.isfinite(value) and low <= value <= high else None


def checked_row(row: Any) -> dict[str, Any] | None:
    """A stored rating row, checked: ``name``, ``mu``, ``sigma``, ``games``, ``bot``
    (``None``: damaged; the caller leaves it out, so the player starts afresh)."""
    if not isinstance(row, dict):
        return None
    name, games = row.get("name"), row.get("games", 0)
    mu = _number(row.get("mu"), -MAX_MU, MAX_MU)
    sigma = _number(row.get("sigma"), 1e-9, MAX_SIGMA)
    whole = isinstance(games, int) and not isinstance(games, bool) and games >= 0
    if not isinstance(name, str) or not name or mu is None or sigma is None or not whole:
        return None
    return {"name": name, "mu": mu, "sigma": sigma, "games": games, "bot": bool(row.get("bot"))}


def row_rating(row: Mapping[str, Any]) -> int:
    """A stored row's shown rating."""
    return shown(float(row["mu"]), float(row["sigma"]))


@dataclass(frozen=True, slots=True)
class Entrant:
    """One seat of a finished game, as the rating sees it."""

    key: str
    """Whose rating plays this seat: the person's scoreboard key, or the bot level's
    (:func:`bot_key`; also for a person a bot covered most of the game)."""
    name: str
    """The name a new rating row is given (the seat's name; a bot level's own)."""
    won: bool
    rated: bool = True
    """Whether this game moves ``key``'s rating (false: a person covered by a bot)."""
    bot: bool = False


@dataclass(frozen=True, slots=True)
class Change:
    """A seat's rating after the game and how far it moved (both as shown)."""

    rating: int
    change: int

    def to_data(self) -> dict[str, int]:
        return {"rating": self.rating, "change": self.change}


def rate(
    known: Mapping[str, Mapping[str, Any]], entrants: Sequence[Entrant]
) -> tuple[dict[str, dict[str, Any]], list[Change | None]]:
    """Rate one finished game: the new rows of the keys it moves, and each seat's change
    (``None``: that seat is not rated). ``known``: the game's rows so far, by key (checked
    ones, :func:`checked_row`); a key without one starts as a newcomer.

    Raises ImportError without openskill (check :func:`available` first).
    """
    from openskill.models import PlackettLuce

    if len(entrants) < 2 or not any(entrant.rated for entrant in entrants):
        return {}, [None] * len(entrants)
    model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)
    before: dict[str, tuple[float, float]] = {}
    for entrant in entrants:
        row = known.get(entrant.key)
        before[entrant.key] = (
            (MU, SIGMA) if row is None else (float(row["mu"]), float(row["sigma"]))
        )
    teams = [[model.rating(mu=before[e.key][0], sigma=before[e.key][1])] for e in entrants]
    after = model.rate(teams, ranks=[1 if entrant.won else 2 for entrant in entrants])
    moves: dict[str, list[tuple[float, float]]] = {}
    for entrant, (rating, *_) in zip(entrants, after, strict=True):
        if entrant.rated:
            mu, sigma = before[entrant.key]
            moves.setdefault(entrant.key, []).append((rating.mu - mu, rating.sigma - sigma))
    rows: dict[str, dict[str, Any]] = {}
    for key, deltas in moves.items():
        mu, sigma = before[key]
        entrant = next(e for e in entrants if e.key == key and e.rated)
        previous = known.get(key, {})
        rows[key] = {
            "name": entrant.name,
            "mu": mu + sum(d[0] for d in deltas) / len(deltas),
            "sigma": max(1e-6, sigma + sum(d[1] for d in deltas) / len(deltas)),
            "games": int(previous.get("games", 0)) + 1,
            "bot": entrant.bot,
        }
    changes: list[Change | None] = []
    for entrant in entrants:
        if not entrant.rated:
            changes.append(None)
            continue
        now = row_rating(rows[entrant.key])
        changes.append(Change(now, now - shown(*before[entrant.key])))
    return rows, changes


def covered_too_long(share: float) -> bool:
    """Whether a person whose seat a bot played for ``share`` of the game goes unrated."""
    return share > MAX_COVERED_SHARE


def _whole(value: Any) -> int | None:
    """``value`` if it is a whole number of a sane size (``None``: not one)."""
    ok = isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**9
    return value if ok else None


def checked_changes(value: Any, seats: int | None = None) -> list[dict[str, int] | None] | None:
    """A table's per-seat changes as stored or received (``None``: not a valid list).

    Each is ``{"rating": int, "change": int}`` or ``None`` (that seat was not rated).
    """
    if not isinstance(value, list) or (seats is not None and len(value) != seats):
        return None
    out: list[dict[str, int] | None] = []
    for item in value:
        if item is None:
            out.append(None)
            continue
        if not isinstance(item, dict):
            return None
        rating, change = _whole(item.get("rating")), _whole(item.get("change"))
        if rating is None or change is None:
            return None
        out.append({"rating": rating, "change": change})
    return out

"""Whole games between bots, with no network, no UI and no clock.

Selfplay is how bots are measured and how the engine is benchmarked and
soak-tested. It drives a :class:`~engine.core.Game` the way the host does,
but with a *simulated* clock: ``now`` starts at 0 and advances by
:data:`STEP_SECONDS` per accepted action, and jumps straight to a pending
deadline when every bot is waiting. So a real-time game plays out in
microseconds and the same seed always gives the same game.

Each bot sees only ``view(state, seat)`` (which carries ``"legal"``), exactly
as a remote player would: a bot cannot cheat here either.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import registry
from engine.bots import Bot, make_bot
from engine.core import Action, Game, IllegalAction, Outcome, Rng, Seat

STEP_SECONDS = 0.5
"""Simulated seconds that pass with each accepted action."""

MAX_STEPS = 100_000
"""Default bound on actions plus timer ticks in one game (a runaway game is a bug)."""

_BOT_SALT = 0xB07
_GAME_SALT = 0x6A3E
_ORDER_SALT = 0x0D3E


class SelfplayError(RuntimeError):
    """A game between bots could not be played to its end."""


class StuckGameError(SelfplayError):
    """No bot acts and no timer is pending: the game would wait forever."""


class TooManyStepsError(SelfplayError):
    """The game did not end within the step bound."""


class BotMistakeError(SelfplayError):
    """A bot chose an action the rules refused."""


def derive_seed(seed: int, *salts: int) -> int:
    """A 64-bit seed derived from ``seed`` and ``salts``, well mixed and reproducible.

    Bots and the games of a series get seeds that are unrelated to each
    other (and to the game's own shuffle), yet fixed by the one seed a
    person types.
    """
    rng = Rng.from_seed(seed)
    for salt in salts:
        rng = Rng.from_seed(rng.next_u64() ^ (salt & ((1 << 64) - 1)))
    return rng.next_u64()


def player_names(bot_names: Sequence[str]) -> list[str]:
    """Distinct seat names such as ``"random 1"``, ``"catchy 2"`` (unique, short)."""
    return [f"{name[:24]} {seat + 1}" for seat, name in enumerate(bot_names)]


@dataclass(slots=True)
class Playout:
    """One finished game: its last state and outcome, and how it got there.

    ``entries`` (kept only when asked for) is the log of ``(seat, action,
    now)`` a host would write; ``seat`` is ``None`` for a timer tick. It
    replays the game exactly with :func:`engine.core.replay`.
    """

    state: Any
    outcome: Outcome
    actions: int
    ticks: int
    entries: list[tuple[Seat | None, Action | None, float]] = field(default_factory=list)


def run_game(
    game: Game[Any],
    bot_names: Sequence[str],
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    max_steps: int = MAX_STEPS,
    record: bool = False,
) -> Playout:
    """Play one game of ``game`` between the named bots (one per seat) to its end.

    The game is set up from ``seed``; each bot's generator is seeded from
    ``seed`` and its seat. When several seats may act at once, the one asked
    first is drawn from a generator seeded from ``seed`` too, so in
    simultaneous games no seat always gets in first; in turn-based games only
    one seat has legal actions anyway.
    """
    bots: list[Bot] = [
        make_bot(game, name, derive_seed(seed, _BOT_SALT, seat))
        for seat, name in enumerate(bot_names)
    ]
    state = game.new_game(player_names(bot_names), seed, options)
    order = Rng.from_seed(derive_seed(seed, _ORDER_SALT))
    now = 0.0
    actions = ticks = 0
    entries: list[tuple[Seat | None, Action | None, float]] = []
    outcome_of, deadline_of, apply = game.outcome, game.deadline, game.apply
    for _ in range(max_steps):
        outcome = outcome_of(state)
        if outcome is not None:
            return Playout(state, outcome, actions, ticks, entries)
        deadline = deadline_of(state)
        if deadline is not None and now >= deadline:
            state, _ = game.tick(state, now)
            ticks += 1
            if record:
                entries.append((None, None, now))
            continue
        chosen = _first_choice(game, state, bots, order)
        if chosen is None:
            if deadline is None:
                raise StuckGameError(
                    f"{game.title}: no bot acts and no timer is pending "
                    f"after {actions} actions (seed {seed})"
                )
            now = deadline
            continue
        seat, action = chosen
        try:
            state, _ = apply(state, seat, action, now)
        except IllegalAction as error:
            raise BotMistakeError(
                f"{game.title}: bot {bot_names[seat]!r} at seat {seat} chose "
                f"{dict(action)!r}, which was refused: {error} (seed {seed})"
            ) from error
        actions += 1
        if record:
            entries.append((seat, action, now))
        now += STEP_SECONDS
    raise TooManyStepsError(f"{game.title}: no end after {max_steps} steps (seed {seed})")


def _first_choice(
    game: Game[Any], state: Any, bots: Sequence[Bot], order: Rng
) -> tuple[Seat, Action] | None:
    """The first seat whose bot acts, with its action, or ``None`` when all wait.

    When several seats may act (a simultaneous game), they are asked in
    turn order from a starting seat drawn from ``order``: the harness's own
    generator, so no seat is systematically first and the run stays
    reproducible. ``legal_actions`` is asked before building a view so that
    seats with nothing to do cost little; the bot itself sees only the view.
    """
    legal_actions = game.legal_actions
    # One loop, no comprehensions: this runs on every step of every game.
    ready: list[tuple[Seat, list[dict[str, Any]]]] = []
    for seat in range(len(bots)):
        legal = legal_actions(state, seat)
        if legal:
            ready.append((seat, legal))
    if len(ready) > 1:
        start = order.below(len(ready))
        ready = ready[start:] + ready[:start]
    view = game.view
    for seat, legal in ready:
        action = bots[seat].choose(view(state, seat, legal=legal))
        if action is not None:
            return seat, action
    return None


def play_game(
    game: Game[Any],
    bot_names: Sequence[str],
    seed: int,
    options: Mapping[str, Any] | None = None,
    max_steps: int = MAX_STEPS,
) -> tuple[Any, Outcome]:
    """Play one game between bots; return its final state and outcome."""
    playout = run_game(game, bot_names, seed, options, max_steps=max_steps)
    return playout.state, playout.outcome


@dataclass(frozen=True, slots=True)
class Summary:
    """What a series of selfplay games came to.

    ``wins[seat]`` counts every game the seat won, shared wins included;
    ``shared_wins[seat]`` counts those it shared with another seat;
    ``shared_games`` is the number of games with more than one winner and
    ``draws`` the number with no winner at all.
    """

    game: str
    bots: tuple[str, ...]
    games: int
    seed: int
    wins: tuple[int, ...]
    shared_wins: tuple[int, ...]
    shared_games: int
    draws: int
    actions: int

    def win_rate(self, seat: Seat) -> float:
        """The share of games ``seat`` won (shared wins included), 0 to 1."""
        return self.wins[seat] / self.games if self.games else 0.0


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) in a series started from ``seed``."""
    return derive_seed(seed, _GAME_SALT, index)


def play_many(
    game_name: str,
    bot_names: Sequence[str],
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> Summary:
    """Play ``games`` games of ``game_name`` between the named bots and count the results."""
    if games < 1:
        raise ValueError(f"A series needs at least one game, not {games}")
    game = registry.get(game_name)
    seats = len(bot_names)
    wins = [0] * seats
    shared = [0] * seats
    shared_games = draws = actions = 0
    for index in range(games):
        playout = run_game(game, bot_names, game_seed(seed, index), options)
        actions += playout.actions
        winners = playout.outcome.winners
        if not winners:
            draws += 1
        if len(winners) > 1:
            shared_games += 1
        for seat in winners:
            wins[seat] += 1
            if len(winners) > 1:
                shared[seat] += 1
    return Summary(
        game=game_name,
        bots=tuple(bot_names),
        games=games,
        seed=seed,
        wins=tuple(wins),
        shared_wins=tuple(shared),
        shared_games=shared_games,
        draws=draws,
        actions=actions,
    )

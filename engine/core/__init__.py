"""The engine contract every Clowder game follows, and the machinery they share.

A game is a :class:`Game` object registered by name in :mod:`engine.registry`.
It is *sans-I/O*: it never reads a clock (``now`` is passed in, as seconds on
the host's clock), never touches the global :mod:`random` generator, never
does I/O. A game is played through six calls:

``new_game(players, seed, options) -> State``
    Deterministic from ``seed`` and ``options``.
``apply(state, seat, action, now) -> (State, events)``
    The only way state changes. The input state is never modified; a new one
    is returned. An illegal action raises :class:`IllegalAction` (a
    :class:`ValueError`) whose message a player can read.
``tick(state, now) -> (State, events)``
    Fires timers that are due. :meth:`Game.deadline` says when to call it.
``view(state, seat) -> dict``
    What ``seat`` may see, msgpack-ready. ``seat=None`` is a spectator.
``legal_actions(state, seat) -> list[dict]``
    What ``seat`` may do now.
``outcome(state) -> Outcome | None``
    ``None`` while the game is on.

A table needs a few more, which describe a game rather than change it:
:meth:`Game.deadline` (when to call ``tick``), :meth:`Game.hidden` (what a
seat must not see), :meth:`Game.reveal`, :meth:`Game.is_claim`,
:meth:`Game.tie_threshold_s` and :meth:`Game.settle_tie` (the real-time
moments the host arbitrates), and the two below that save and load a state.

Randomness lives in the state (:class:`Rng`), so ``(players, seed, options,
accepted actions)`` replays a game exactly (:func:`replay`). States are
dataclasses of plain data; :meth:`Game.to_data` and :meth:`Game.from_data`
turn them into msgpack-ready maps and back, which is how the host logs and
resumes tables.

Secrecy is the engine's job: an :class:`Event` says which seats may see it,
and views are built per seat, so the network layer only ever forwards what
the engine already filtered.
"""

from __future__ import annotations

from engine.core.actions import action_field, action_type
from engine.core.copying import clone, dump, load
from engine.core.errors import (
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    NotYourTurn,
    StaleReveal,
)
from engine.core.game import Game, Secrets, replay
from engine.core.options import (
    DECK_OPTION,
    MAX_NAME_LENGTH,
    Option,
    check_deck,
    check_players,
    deck_for_round,
    deck_orders,
    parse_options,
)
from engine.core.rng import Rng
from engine.core.state import (
    BASE_VIEW_KEYS,
    LOG_LIMIT,
    LOG_VIEW_LIMIT,
    SHARED,
    Action,
    BaseView,
    Event,
    GameState,
    Outcome,
    OutcomeData,
    Seat,
    quick_init,
    visible_events,
    winners_by_score,
)

__all__ = [
    "BASE_VIEW_KEYS",
    "DECK_OPTION",
    "LOG_LIMIT",
    "LOG_VIEW_LIMIT",
    "MAX_NAME_LENGTH",
    "SHARED",
    "Action",
    "BaseView",
    "Event",
    "Game",
    "GameOver",
    "GameState",
    "IllegalAction",
    "InvalidAction",
    "InvalidOptions",
    "NotYourTurn",
    "Option",
    "Outcome",
    "OutcomeData",
    "Rng",
    "Seat",
    "Secrets",
    "StaleReveal",
    "action_field",
    "action_type",
    "check_deck",
    "check_players",
    "clone",
    "deck_for_round",
    "deck_orders",
    "dump",
    "load",
    "parse_options",
    "quick_init",
    "replay",
    "visible_events",
    "winners_by_score",
]

"""The contract every game follows (:class:`Game`), and :func:`replay`, which plays a
recorded game again (see :mod:`engine.core` for the whole contract in brief)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic

from engine.core.copying import _COPIERS, clone, dump, load
from engine.core.errors import GameOver, InvalidAction, InvalidOptions
from engine.core.options import DECK_OPTION, Option, check_players, parse_options
from engine.core.rng import Rng
from engine.core.state import (
    _BASE_VIEW_SIZE,
    BASE_VIEW_KEYS,
    Action,
    BaseView,
    Event,
    Outcome,
    S,
    Seat,
)

Secrets = Mapping[str, str]
"""What a seat must not see now, as ``{code: words}`` (see :meth:`Game.hidden`)."""


class Game(ABC, Generic[S]):
    """One game's rules, and everything the other layers need to know about it.

    Subclasses declare the class variables below and implement the hooks;
    shared checks (seat range, game over, action shape), the copy that keeps
    :meth:`apply` pure and the common view keys are done here, once. Nothing
    else lists a game: :mod:`engine.registry` finds every engine module with
    a module-level ``GAME``, and the bots, the assumptions and the real-time
    behaviour are read from that object.
    """

    name: ClassVar[str]
    """The registered name (``"blackcat"``): table specs, protocol, commands."""
    title: ClassVar[str]
    """The name people read (``"Black Cat"``)."""
    short_title: ClassVar[str] = ""
    """The name where a long title does not fit (a lobby's column): ``"Kitten Me!"``; empty:
    the title is short enough."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_type: type[S]
    option_specs: ClassVar[tuple[Option, ...]] = (DECK_OPTION,)
    assumptions: ClassVar[tuple[str, ...]] = ()
    """Where the rulebook is silent and this engine chose; shown with the rules."""
    bots: ClassVar[tuple[tuple[str, str], ...]] = ()
    """The game's bots as ``(name, "module:factory")``, strongest first; a
    factory takes an :class:`Rng`. ``"random"`` exists for every game without
    being listed. Strings, so that loading a game does not load its bots."""
    realtime: ClassVar[bool] = False
    """Whether the game has real-time moments: a card or letter revealed to
    everyone at once, which the first to react takes. At such a table the
    host arbitrates :meth:`is_claim` actions for the open :meth:`reveal`
    by measured reaction times instead of arrival order."""
    claim_types: ClassVar[frozenset[str]] = frozenset()
    """Real-time games: the action types that race for the open reveal."""
    typed_claims: ClassVar[frozenset[str]] = frozenset()
    """Claim types the player types (Katootsie's answers): their ``acted_ns`` is when
    typing started, and the host takes *typing notices* for them (the stamps sent
    ahead of the text, checked against the notice's arrival; ``Typed answers`` in
    ``net/PROTOCOL.md``). A subset of :attr:`claim_types`; empty for key-press claims."""
    host_actions: ClassVar[frozenset[str]] = frozenset()
    """Action types only the host applies (how a tie was settled); a player's is refused."""
    view_type: ClassVar[type[Any]] = BaseView
    """The ``TypedDict`` of this game's views (:class:`BaseView` and the keys :meth:`_view`
    adds), declared next to its rules: the game's screen is typed with it, and the contract
    tests hold every view of every game to its keys, so the type cannot drift from
    what :meth:`view` returns."""

    def new_game(
        self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None
    ) -> S:
        """A new game for ``players`` (seat order), deterministic from ``seed``.

        The game starts at host time 0.0: timers set up here count from 0, and
        the host's table clock reads 0 when the game is dealt.
        """
        names = check_players(self.title, players, self.min_players, self.max_players)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidOptions(f"The seed is a whole number, not {seed!r}")
        parsed = parse_options(self.name, self.option_specs, options)
        return self._setup(names, Rng.from_seed(seed), parsed)

    def apply(self, state: S, seat: Seat, action: Action, now: float) -> tuple[S, list[Event]]:
        """Apply ``seat``'s ``action`` at host time ``now``; the input state is untouched."""
        if type(seat) is not int or not 0 <= seat < len(state.players):
            self._check_seat(state, seat)  # says what is wrong (or accepts an int subclass)
        if self.outcome(state) is not None:
            raise GameOver("The game is over")
        if type(action) is not dict and not isinstance(action, Mapping):
            raise InvalidAction("An action is a map with a 'type' field")
        copier = _COPIERS.get(type(state))  # clone()'s own first step, without its checks
        new = clone(state) if copier is None else copier(state)
        events: list[Event] = []
        self._apply(new, seat, action, now, events)
        return new, events

    def tick(self, state: S, now: float) -> tuple[S, list[Event]]:
        """Fire the timers due at ``now``. Games without timers change nothing."""
        deadline = self.deadline(state)
        if deadline is None or now < deadline:
            return state, []
        new = clone(state)
        events: list[Event] = []
        self._tick(new, now, events)
        return new, events

    def deadline(self, state: S) -> float | None:
        """When :meth:`tick` next has something to do (host seconds), or ``None``."""
        return None

    def view(
        self, state: S, seat: Seat | None, *, legal: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), msgpack-ready.

        The common keys (:class:`BaseView`) are built here; the game adds its
        own with :meth:`_view`, which may not override them. ``legal`` is
        ``legal_actions(state, seat)`` when the caller has just asked for it
        (the view takes that list as it is), so it is not worked out twice.
        """
        outcome = self.outcome(state)
        if seat is None or outcome is not None:
            legal = []
        elif legal is None:
            legal = self.legal_actions(state, seat)
        common: BaseView = {
            "game": self.name,
            "seat": seat,
            "players": [*state.players],
            "phase": "over" if outcome is not None else self.phase(state),
            "legal": legal,
            "log": state.log_view(seat),
            "scores": [*self.scores(state)],
            "outcome": None if outcome is None else outcome.to_data(),
            "reveal": self.reveal(state) if outcome is None else None,
        }
        own = self._view(state, seat)
        # The game's keys go after the common ones, in the same dict (no merged copy);
        # a key of its own that is a common one too shows as a dict smaller than the sum.
        view: dict[str, Any] = common  # type: ignore[assignment]
        view.update(own)
        if len(view) != _BASE_VIEW_SIZE + len(own):
            clash = sorted(BASE_VIEW_KEYS.intersection(own))
            raise TypeError(f"{self.name}._view sets common view keys: {clash}")
        return view

    def reveal(self, state: S) -> int | None:
        """Real-time games: the id of the moment open for claims now, or ``None``.

        Ids only grow during a game; a claim names the id it reacts to, so a
        claim aimed at a moment that has passed is refused, not misapplied.
        """
        return None

    def is_claim(self, action: Action) -> bool:
        """Whether ``action`` races for the open reveal (needs reaction stamps)."""
        return self.realtime and action.get("type") in self.claim_types

    def tie_threshold_s(self, options: Mapping[str, Any]) -> float | None:
        """Real-time games: reactions closer than this are a tie (``None``: the host's own).

        A game whose rules say what a tie means (Katootsie's tie-break
        letters) may want a wider threshold than the host's, which only
        covers what the stamps cannot measure.
        """
        return None

    def settle_tie(self, reveal: int, claims: Sequence[tuple[Seat, Action]]) -> Action | None:
        """Real-time games: the action that settles ``claims`` that tied for ``reveal``.

        ``claims`` are the tied seats' actions, best credited reaction first.
        The host applies the returned action (a type in :attr:`host_actions`)
        for the first of them. ``None`` leaves it to the host's rule: the
        tied claim that reached the host first is applied.
        """
        return None

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[dict[str, Any]]:
        """Every action ``seat`` may take now (empty when it is not theirs to act)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """``None`` while playing, else the final scores and winners."""

    @abstractmethod
    def phase(self, state: S) -> str:
        """What the table is doing now, for the view (``"over"`` is set by :meth:`view`)."""

    @abstractmethod
    def scores(self, state: S) -> list[int]:
        """Each seat's score now, in seat order."""

    @abstractmethod
    def hidden(self, state: S, seat: Seat | None) -> Secrets:
        """What ``seat`` (``None``: a spectator) must not see now: ``{code: words}``.

        No ``code`` may occur as a whole string, and no ``words`` inside any
        text, in anything that seat receives: its view, its events, its log.
        A game leaves out a secret whose code is also visible to the seat
        elsewhere (two decks hold two Queens of spades). The contract test
        suite checks every game against this over whole games, and on the wire.
        """

    def to_data(self, state: S) -> dict[str, Any]:
        """The state as msgpack-ready data (for the host's log and resume)."""
        data: dict[str, Any] = dump(state)
        return data

    def from_data(self, data: Mapping[str, Any]) -> S:
        """The state :meth:`to_data` produced."""
        state: S = load(self.state_type, data)
        return state

    def describe(self) -> dict[str, Any]:
        """Name, title, player counts and options, for lobbies and help."""
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "realtime": self.realtime,
            "options": [spec.describe() for spec in self.option_specs],
        }

    # Hooks -----------------------------------------------------------------

    @abstractmethod
    def _setup(self, players: list[str], rng: Rng, options: dict[str, Any]) -> S:
        """Build the first state from validated players and options."""

    @abstractmethod
    def _apply(self, state: S, seat: Seat, action: Action, now: float, events: list[Event]) -> None:
        """Change ``state`` (a private copy) in place, or raise :class:`IllegalAction`."""

    @abstractmethod
    def _view(self, state: S, seat: Seat | None) -> dict[str, Any]:
        """The game's own view keys for ``seat`` (the common ones are added by :meth:`view`)."""

    def _tick(self, state: S, now: float, events: list[Event]) -> None:
        """Change ``state`` (a private copy) for the timers due at ``now``."""

    def _check_seat(self, state: S, seat: Seat) -> None:
        valid = type(seat) is int or (isinstance(seat, int) and not isinstance(seat, bool))
        if not valid or not 0 <= seat < len(state.players):
            raise InvalidAction(f"There is no seat {seat!r} at this table")


def replay(
    game: Game[S],
    players: Sequence[str],
    seed: int,
    options: Mapping[str, Any] | None,
    entries: Iterable[tuple[Seat | None, Action | None, float]],
    on_step: Callable[[S, list[Event]], None] | None = None,
) -> S:
    """Rebuild a game from its seed, options and log of ``(seat, action, now)`` entries.

    Timers due by ``now`` fire before each entry, as they do on the host; an
    entry whose seat is ``None`` is a timer tick on its own.
    """
    state = game.new_game(players, seed, options)
    for seat, action, now in entries:
        state, events = game.tick(state, now)
        if seat is not None and action is not None:
            state, more = game.apply(state, seat, action, now)
            events = events + more
        if on_step is not None:
            on_step(state, events)
    return state

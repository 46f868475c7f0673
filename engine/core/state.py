"""What every game is made of: seats and actions, events and their visibility, the outcome,
the keys every view has, and the base state with its log."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict, TypeVar

from engine.core.rng import Rng

Seat = int
"""A seat is the index of a player in ``state.players`` (0-based)."""

Action = Mapping[str, Any]
"""A msgpack-ready map with a ``"type"`` field, e.g. ``{"type": "play", "card": "R3"}``."""

LOG_LIMIT = 200
"""How many log entries a state keeps (older ones are dropped)."""

LOG_VIEW_LIMIT = 40
"""How many of the newest visible log lines a view carries."""


C = TypeVar("C", bound=type)


def quick_init(cls: C) -> C:
    """Give a frozen, slotted dataclass a faster ``__init__`` with the same signature.

    The ``__init__`` that :mod:`dataclasses` writes for a frozen class sets
    each field through ``object.__setattr__`` (plain assignment is refused);
    this one calls the slots' own descriptors, about 40% faster. Worth it for
    the records made on every action (events, tricks). Apply it above
    ``@dataclass(frozen=True, slots=True)``.
    """
    fields = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__") or not all(spec.init for spec in fields):
        raise TypeError(f"quick_init does not handle {cls.__name__}'s fields")
    namespace: dict[str, Any] = {"missing": dataclasses.MISSING}
    positional: list[str] = []
    keywords: list[str] = []
    body: list[str] = []
    for spec in fields:
        name = spec.name
        parameter = name
        if spec.default is not dataclasses.MISSING:
            namespace[f"default_{name}"] = spec.default
            parameter = f"{name}=default_{name}"
        elif spec.default_factory is not dataclasses.MISSING:
            namespace[f"factory_{name}"] = spec.default_factory
            parameter = f"{name}=missing"
            body.append(f"    if {name} is missing: {name} = factory_{name}()")
        (keywords if spec.kw_only else positional).append(parameter)
        namespace[f"set_{name}"] = cls.__dict__[name].__set__
        body.append(f"    set_{name}(self, {name})")
    parameters = ", ".join(["self", *positional, *(["*", *keywords] if keywords else [])])
    source = "\n".join([f"def __init__({parameters}):", *body])
    exec(source, namespace)  # the source is built above from the field names
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]
    return cls


@quick_init
@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, with a sentence for people and data for programs.

    ``seats`` is ``None`` for a public event, or the seats allowed to see it.
    Events are immutable; they also serve as the entries of a state's log.
    """

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    seats: tuple[Seat, ...] | None = None

    def visible_to(self, seat: Seat | None) -> bool:
        """Whether ``seat`` (``None``: a spectator) may see this event."""
        return self.seats is None or (seat is not None and seat in self.seats)

    def to_data(self) -> dict[str, Any]:
        """The msgpack-ready form sent to clients (without the visibility list)."""
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}


def visible_events(events: Iterable[Event], seat: Seat | None) -> list[dict[str, Any]]:
    """The events ``seat`` may see, msgpack-ready."""
    return [event.to_data() for event in events if event.visible_to(seat)]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game: final scores and the winning seats (ties share)."""

    scores: tuple[int, ...]
    winners: tuple[Seat, ...]

    def to_data(self) -> OutcomeData:
        return {"scores": list(self.scores), "winners": list(self.winners)}


class OutcomeData(TypedDict):
    """:class:`Outcome` as it travels in views and messages."""

    scores: list[int]
    winners: list[Seat]


class BaseView(TypedDict):
    """The keys every game's view has, built once by :meth:`Game.view`.

    A game's own view type extends this one (``class BlackCatView(BaseView)``)
    with the keys its :meth:`Game._view` adds. The TUI reads views through
    these types, so a key that every game has is never guarded with ``get``.
    """

    game: str
    """The game's registered name."""
    seat: Seat | None
    """Whose view this is; ``None`` for a spectator."""
    players: list[str]
    """The players' names in seat order."""
    phase: str
    """What the table is doing (each game names its phases); ``"over"`` once it has ended."""
    legal: list[dict[str, Any]]
    """What this seat may do now (empty for a spectator)."""
    log: list[str]
    """The newest log lines this seat may see."""
    scores: list[int]
    """Each seat's score now, in seat order."""
    outcome: OutcomeData | None
    """``None`` while the game is on."""
    reveal: int | None
    """Real-time games: the id of the open real-time moment (:meth:`Game.reveal`);
    always ``None`` in turn-based games."""


BASE_VIEW_KEYS: frozenset[str] = frozenset(BaseView.__annotations__)
"""The common keys; a game's :meth:`Game._view` must not set them."""
_BASE_VIEW_SIZE = len(BASE_VIEW_KEYS)


def winners_by_score(scores: Sequence[int]) -> tuple[Seat, ...]:
    """Every seat holding the top score (a shared win when several do)."""
    best = max(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == best)


SHARED: Mapping[str, Any] = types.MappingProxyType({"clowder.shared": True})
"""Field metadata (``field(metadata=SHARED)``): copies of a state share the field's value.

For fields that are set and later *replaced*, never changed in place: the
players and options (set up once), a finished round's summary. :func:`clone`
then copies a state without walking them. Changing such a value in place
would change every earlier state too; ``tests/engine/test_copies.py`` plays
every game and checks that no state changes after it was made."""


@dataclass(slots=True)
class GameState:
    """Fields every game's state has. Games subclass it with their own fields.

    Every field must be plain data (int, float, str, bool, None, lists, dicts
    with string keys, nested dataclasses) so that :func:`dump` and
    :func:`load` can convert it and :func:`clone` can copy it quickly.
    :func:`clone` copies a state by its fields' declared types (``list[str]``:
    one slice; a frozen dataclass or a tuple of them: shared), so declare
    them exactly; ``Any`` is walked generically. A field that is only ever
    replaced, never changed in place, may be marked :data:`SHARED`.
    """

    players: list[str] = field(metadata=SHARED)
    options: dict[str, Any] = field(metadata=SHARED)
    """The parsed table options: never changed after setup."""
    rng: Rng
    log: list[Event] = field(default_factory=list)

    def name(self, seat: Seat) -> str:
        return self.players[seat]

    def record(
        self,
        events: list[Event],
        kind: str,
        text: str,
        seats: Iterable[Seat] | None = None,
        **data: Any,
    ) -> Event:
        """Create an event, add it to this apply's ``events`` and to the log."""
        event = Event(kind, text, data, None if seats is None else tuple(seats))
        events.append(event)
        log = self.log
        log.append(event)
        if len(log) > LOG_LIMIT:
            del log[: len(log) - LOG_LIMIT]
        return event

    def log_view(self, seat: Seat | None) -> list[str]:
        """The newest log lines ``seat`` may see."""
        # The newest entries hold the view's lines: most entries are public, so a
        # tail a little longer than the view usually fills it; otherwise walk back.
        # (``None in seats`` is false: a spectator sees public entries only.)
        log = self.log
        tail = log[-(LOG_VIEW_LIMIT + LOG_VIEW_LIMIT // 5) :]
        lines = [event.text for event in tail if event.seats is None or seat in event.seats]
        if len(lines) >= LOG_VIEW_LIMIT or len(tail) == len(log):
            return lines[-LOG_VIEW_LIMIT:]
        lines = []
        for event in reversed(log):
            if event.seats is None or seat in event.seats:
                lines.append(event.text)
                if len(lines) == LOG_VIEW_LIMIT:
                    break
        lines.reverse()
        return lines


S = TypeVar("S", bound=GameState)
"""A game's own state type."""

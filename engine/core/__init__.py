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

import dataclasses
import types
import typing
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypedDict, TypeVar

Seat = int
"""A seat is the index of a player in ``state.players`` (0-based)."""

Action = Mapping[str, Any]
"""A msgpack-ready map with a ``"type"`` field, e.g. ``{"type": "play", "card": "R3"}``."""

LOG_LIMIT = 200
"""How many log entries a state keeps (older ones are dropped)."""

LOG_VIEW_LIMIT = 40
"""How many of the newest visible log lines a view carries."""

MAX_NAME_LENGTH = 32


# --------------------------------------------------------------------------- errors


class IllegalAction(ValueError):
    """An action that the rules do not allow now.

    The message is written for the player ("It is Bea's turn", "You must
    follow red"). ``code`` is a stable machine-readable reason that the
    protocol forwards with the message.
    """

    code: ClassVar[str] = "illegal_action"


class NotYourTurn(IllegalAction):
    """The seat acted when it was not theirs to act."""

    code = "not_your_turn"


class InvalidAction(IllegalAction):
    """The action is malformed: not a map, unknown type, missing or bad field."""

    code = "invalid_action"


class GameOver(IllegalAction):
    """The game has ended; no further action is accepted."""

    code = "game_over"


class StaleReveal(IllegalAction):
    """Real-time games: a claim aimed at a moment that is not open now (passed, or not yet).

    A claim names the reveal it reacts to (:meth:`Game.reveal`), so one that
    arrives after another claim took the card is refused with this, instead
    of taking whatever is open now.
    """

    code = "stale_reveal"


class InvalidOptions(ValueError):
    """Table options (or the player list) that a game cannot be set up with."""

    code: ClassVar[str] = "invalid_options"


# --------------------------------------------------------------------------- randomness


_MASK64 = (1 << 64) - 1
_2_64 = 1 << 64
_LIMITS_SIZE = 128
_LIMITS: tuple[int, ...] = (0, *(_2_64 - (_2_64 % n) for n in range(1, _LIMITS_SIZE)))
"""``_LIMITS[n]``: the rejection bound :meth:`Rng.below` works out for ``n`` (the largest
multiple of ``n`` up to 2**64), looked up by shuffles (every deal) instead of worked out
per card."""


@dataclass(slots=True)
class Rng:
    """A small seeded generator (SplitMix64) whose whole state is one integer.

    It lives inside game states so that a state can be saved, copied and
    replayed exactly, and it gives the same numbers on every Python version
    (unlike :class:`random.Random`, whose derived methods may change).
    """

    state: int = 0

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """A generator for ``seed`` (any integer; negative and huge seeds are folded)."""
        return cls(seed & _MASK64)

    def next_u64(self) -> int:
        """The next 64-bit value."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _LIMITS[n] if n < _LIMITS_SIZE else _2_64 - (_2_64 % n)
        while True:
            # next_u64(), inlined: shuffles and bots draw a lot.
            z = self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            value = z ^ (z >> 31)
            if value < limit:
                return value % n

    def random(self) -> float:
        """A uniform float in [0, 1)."""
        return (self.next_u64() >> 11) / float(1 << 53)

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates): ``j = below(i + 1)`` for each ``i``
        from the last down, :meth:`below` inlined (every deal shuffles a deck)."""
        z = self.state
        limits = _LIMITS
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = limits[n] if n < _LIMITS_SIZE else _2_64 - (_2_64 % n)
            while True:
                z = state = (z + 0x9E3779B97F4A7C15) & _MASK64
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                value = z ^ (z >> 31)
                z = state
                if value < limit:
                    break
            j = value % n
            items[i], items[j] = items[j], items[i]
        self.state = z

    def choice(self, items: Sequence[Any]) -> Any:
        """One element of a non-empty sequence: ``items[below(len(items))]``, with
        :meth:`below` inlined for short sequences (every random bot's move is a choice)."""
        n = len(items)
        if not 0 < n < _LIMITS_SIZE:
            return items[self.below(n)]
        limit = _LIMITS[n]
        while True:
            z = self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            value = z ^ (z >> 31)
            if value < limit:
                return items[value % n]


# --------------------------------------------------------------------------- records


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


# --------------------------------------------------------------------------- events and outcome


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


# --------------------------------------------------------------------------- state


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
T = TypeVar("T")


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_HINTS: dict[type, dict[str, Any]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(cls))
        _FIELD_NAMES[cls] = names
    return names


# --------------------------------------------------------------------------- copies

_SHARED: set[type] = {str, int, float, bool, complex, bytes, type(None), tuple, frozenset}
"""Types whose values :func:`clone` shares instead of copying: nothing can change them.
Frozen dataclasses (events) join the first time one is met; so do other types that
:func:`clone` does not know how to copy (as before: it copies lists, dicts, sets and
non-frozen dataclasses only)."""

_COPIERS: dict[type, Callable[[Any], Any]] = {}
"""Each non-frozen dataclass's copier, compiled from its fields' types on first use."""


def clone(value: T) -> T:
    """A deep copy of plain state data, much faster than :func:`copy.deepcopy`.

    Lists, dicts, sets and non-frozen dataclasses are copied; everything else
    is shared (strings, numbers, tuples, frozen dataclasses such as events:
    nothing changes them). A dataclass is copied by a function compiled once
    from its fields' declared types (:func:`_compile_copier`): a ``list[str]``
    field is one slice, a ``list[Event]`` log one slice too, and only fields
    typed ``Any`` (or a dataclass) go through this generic walk.
    """
    kind = type(value)
    if kind is list:
        return [item if type(item) in _SHARED else clone(item) for item in value]  # type: ignore[attr-defined, return-value]
    if kind is dict:
        return {
            key: item if type(item) in _SHARED else clone(item)
            for key, item in value.items()  # type: ignore[attr-defined]
        }  # type: ignore[return-value]
    if kind in _SHARED:
        return value
    copier = _COPIERS.get(kind)
    if copier is None:
        copier = _copier(kind)
    result: T = copier(value)
    return result


def _copier(kind: type) -> Callable[[Any], Any]:
    """How :func:`clone` copies values of ``kind`` (compiled and remembered on first use)."""
    params = getattr(kind, "__dataclass_params__", None)
    if params is not None and not params.frozen:
        copier = _compile_copier(kind)
    elif kind is set:
        copier = _copy_set
    else:
        _SHARED.add(kind)
        return _share
    _COPIERS[kind] = copier
    return copier


def _share(value: T) -> T:
    return value


def _copy_set(value: set[Any]) -> set[Any]:
    return {item if type(item) in _SHARED else clone(item) for item in value}


_IMMUTABLE_HINTS: frozenset[Any] = frozenset(
    {str, int, float, bool, complex, bytes, type(None), None}
)


def _immutable(hint: Any) -> bool:
    """Whether a value of the declared type ``hint`` can never change (so copies share it)."""
    if hint in _IMMUTABLE_HINTS:
        return True
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return True
    if origin is typing.Annotated:
        return _immutable(typing.get_args(hint)[0])
    if origin in (types.UnionType, typing.Union, tuple, frozenset):
        args = [arg for arg in typing.get_args(hint) if arg is not Ellipsis]
        return bool(args) and all(_immutable(arg) for arg in args)
    if isinstance(hint, type):
        params = getattr(hint, "__dataclass_params__", None)
        return params is not None and bool(params.frozen)
    return False


class _CopierSource:
    """The names a compiled copier's source uses: fresh variables and constants."""

    def __init__(self) -> None:
        self.count = 0
        self.namespace: dict[str, Any] = {
            "new": object.__new__,
            "clone": clone,
            "shared": _SHARED,
            "setattr_": object.__setattr__,
        }

    def fresh(self) -> str:
        self.count += 1
        return f"v{self.count}"

    def constant(self, value: Any) -> str:
        name = f"c{self.count}"
        self.count += 1
        self.namespace[name] = value
        return name


_COMPILING: set[type] = set()
"""Dataclasses whose copier is being compiled (a field of their own type uses clone())."""


def _copy_expression(hint: Any, source: str, names: _CopierSource) -> str:
    """Python source that copies ``source``, a value declared as ``hint``.

    ``names`` supplies fresh variable names and holds the constants used.
    Anything the declared type does not pin down (``Any``, a union of several
    kinds) goes through :func:`clone`; so does a dataclass field whose value
    is not of exactly the declared class.
    """
    if _immutable(hint):
        return source
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Annotated:
        return _copy_expression(args[0], source, names)
    if origin in (types.UnionType, typing.Union):
        options = [arg for arg in args if arg is not type(None)]
        if len(options) == 1:
            inner = _copy_expression(options[0], source, names)
            return f"(None if {source} is None else {inner})"
        return f"clone({source})"
    if hint is list or origin is list:
        item = args[0] if args else Any
        if _immutable(item):
            return f"{source}[:]"
        name = names.fresh()
        return f"[{_copy_item(item, name, names)} for {name} in {source}]"
    if origin is tuple:  # holding something changeable (else it is immutable)
        item = args[0] if len(args) == 2 and args[1] is Ellipsis else Any
        name = names.fresh()
        return f"tuple([{_copy_item(item, name, names)} for {name} in {source}])"
    if hint is dict or origin in (dict, Mapping, typing.Mapping):
        item = args[1] if len(args) == 2 else Any
        if _immutable(item):
            return f"{source}.copy()"
        key, name = names.fresh(), names.fresh()
        return f"{{{key}: {_copy_item(item, name, names)} for {key}, {name} in {source}.items()}}"
    params = getattr(hint, "__dataclass_params__", None)
    if isinstance(hint, type) and params is not None and hint not in _COMPILING:
        copier = _COPIERS.get(hint) or _copier(hint)
        value, call, kind = names.fresh(), names.constant(copier), names.constant(hint)
        return f"({call}({value}) if type({value} := {source}) is {kind} else clone({value}))"
    return f"clone({source})"


def _copy_item(hint: Any, name: str, names: _CopierSource) -> str:
    """Like :func:`_copy_expression` for a plain variable: ``Any`` items are shared inline
    when their type is one :func:`clone` shares, saving a call per string or number."""
    expression = _copy_expression(hint, name, names)
    if expression == f"clone({name})":
        return f"({name} if type({name}) in shared else clone({name}))"
    return expression


def _compile_copier(cls: type) -> Callable[[Any], Any]:
    """A function copying instances of the non-frozen dataclass ``cls``, field by field.

    Built from the fields' declared types (mypy holds the engine's states to
    them): immutable fields are shared, ``list[str]`` is sliced, nested
    containers and dataclasses are copied to the depth their types say, and
    fields marked :data:`SHARED` are shared. A class whose hints cannot be
    resolved is copied with :func:`clone` field by field.
    """
    try:
        hints = typing.get_type_hints(cls, include_extras=True)
    except (NameError, TypeError):
        hints = {}
    names = _CopierSource()
    custom_setattr = cls.__setattr__ is not object.__setattr__  # type: ignore[comparison-overlap]
    lines = ["def copy(value):", f"    new_value = new({names.constant(cls)})"]
    _COMPILING.add(cls)
    try:
        for spec in dataclasses.fields(cls):
            name = spec.name
            if spec.metadata.get("clowder.shared"):
                expression = f"value.{name}"  # replaced, never changed in place: see SHARED
            else:
                expression = _copy_expression(hints.get(name, Any), f"value.{name}", names)
            if custom_setattr:
                lines.append(f"    setattr_(new_value, {name!r}, {expression})")
            else:
                lines.append(f"    new_value.{name} = {expression}")
    finally:
        _COMPILING.discard(cls)
    lines.append("    return new_value")
    exec("\n".join(lines), names.namespace)  # the source is built above from field names
    copier: Callable[[Any], Any] = names.namespace["copy"]
    copier.__qualname__ = f"copy_{cls.__name__}"
    return copier


def dump(value: Any) -> Any:
    """Turn state data (dataclasses included) into msgpack-ready plain data."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: dump(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, list | tuple):
        return [dump(item) for item in value]
    if isinstance(value, dict | types.MappingProxyType):
        return {key: dump(item) for key, item in value.items()}
    return value


def load(kind: Any, data: Any) -> Any:
    """Rebuild a value of type ``kind`` from :func:`dump`'s output.

    Understands the annotations states use: dataclasses, ``list[X]``,
    ``tuple[X, ...]``, ``dict[str, X]``, ``Mapping``, ``X | None`` and ``Any``.
    """
    if kind is Any or kind is object:
        return data
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        if data is None:
            return None
        options = [arg for arg in typing.get_args(kind) if arg is not type(None)]
        return load(options[0], data)
    if origin is list:
        (item,) = typing.get_args(kind)
        return [load(item, value) for value in data]
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(load(args[0], value) for value in data)
        return tuple(load(arg, value) for arg, value in zip(args, data, strict=True))
    if origin in (dict, Mapping, typing.Mapping) or kind is dict:
        args = typing.get_args(kind)
        value_kind = args[1] if args else Any
        return {key: load(value_kind, value) for key, value in data.items()}
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = _HINTS.get(kind)
        if hints is None:
            hints = _HINTS[kind] = typing.get_type_hints(kind)
        values = {name: load(hints[name], data[name]) for name in _field_names(kind)}
        return kind(**values)
    return data


# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class Option:
    """One table option: its name, default, what it means and what it accepts.

    ``kind`` is ``int``, ``bool``, ``str`` or ``list`` (a list of card codes,
    or a list of such lists). Values given as text (from a command line,
    ``target=5``) are converted; anything else wrong raises
    :class:`InvalidOptions` with a sentence saying what is wrong.

    ``label`` and ``hidden`` are for the new-table dialog: the short name it
    shows (``help`` is the sentence under it), and whether it leaves the option
    out (testing aids like a fixed ``deck``). Neither changes what the option
    accepts: a hidden option is still taken from a command line or a host.
    """

    name: str
    default: Any
    help: str
    kind: type = int
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] | None = None
    label: str = ""
    """The option's name for players (``Points to win``); empty: :attr:`name` is shown."""
    hidden: bool = False
    """Not offered in the new-table dialog (a testing or replay aid); still accepted."""

    @property
    def title(self) -> str:
        """What a dialog calls the option: its :attr:`label`, else its :attr:`name`."""
        return self.label or self.name

    def parse(self, value: Any) -> Any:
        if self.kind is bool:
            return self._parse_bool(value)
        if self.kind is int:
            return self._parse_int(value)
        if self.kind is str:
            return self._parse_str(value)
        return self._parse_list(value)

    def _parse_bool(self, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in {"1", "true", "yes", "on"}:
            return True
        if isinstance(value, str) and value.lower() in {"0", "false", "no", "off"}:
            return False
        raise InvalidOptions(f"Option {self.name!r} is yes or no, not {value!r}")

    def _parse_int(self, value: Any) -> int:
        if isinstance(value, str):
            try:
                value = int(value.strip())
            except ValueError:
                message = f"Option {self.name!r} is a whole number, not {value!r}"
                raise InvalidOptions(message) from None
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOptions(f"Option {self.name!r} is a whole number, not {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptions(f"Option {self.name!r} is at least {self.minimum}, not {value}")
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptions(f"Option {self.name!r} is at most {self.maximum}, not {value}")
        return value

    def _parse_str(self, value: Any) -> str:
        if not isinstance(value, str):
            raise InvalidOptions(f"Option {self.name!r} is text, not {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(self.choices)
            raise InvalidOptions(f"Option {self.name!r} is one of {allowed}; not {value!r}")
        return value

    def _parse_list(self, value: Any) -> list[Any]:
        if isinstance(value, str):
            # Text form: cards separated by commas or spaces, rounds by "/".
            parts = [part.replace(",", " ").split() for part in value.split("/")]
            return parts if len(parts) > 1 else parts[0]
        if not isinstance(value, list | tuple):
            raise InvalidOptions(f"Option {self.name!r} is a list, not {value!r}")
        return [list(item) if isinstance(item, list | tuple) else item for item in value]

    def describe(self) -> dict[str, Any]:
        """The msgpack-ready description shown by lobbies and ``--help``."""
        info: dict[str, Any] = {
            "name": self.name,
            "default": self.default,
            "help": self.help,
            "kind": self.kind.__name__,
            "label": self.title,
            "hidden": self.hidden,
        }
        if self.minimum is not None:
            info["minimum"] = self.minimum
        if self.maximum is not None:
            info["maximum"] = self.maximum
        if self.choices is not None:
            info["choices"] = list(self.choices)
        return info


DECK_OPTION = Option(
    "deck",
    None,
    "Explicit card order (top first) replacing the shuffle; a list of lists gives one per round.",
    kind=list,
    label="Fixed deck",
    hidden=True,
)


def parse_options(
    game: str, specs: Sequence[Option], given: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Validate ``given`` against ``specs`` and fill in the defaults."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise InvalidOptions(f"Options are a map of names to values, not {given!r}")
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(str(name) for name in given if name not in by_name)
    if unknown:
        known = ", ".join(sorted(by_name))
        raise InvalidOptions(f"{game} has no option {unknown[0]!r} (its options: {known})")
    parsed = {spec.name: spec.default for spec in specs}
    for name, value in given.items():
        spec = by_name[name]
        parsed[name] = None if value is None and spec.default is None else spec.parse(value)
    return parsed


# --------------------------------------------------------------------------- cards and seats


def check_players(game: str, players: Sequence[str], minimum: int, maximum: int) -> list[str]:
    """Validate the player names of a new game (count, non-empty, unique)."""
    if type(players) is not list and (
        isinstance(players, str) or not isinstance(players, Sequence)
    ):
        raise InvalidOptions("Players are a list of names")
    names = list(players)
    if not minimum <= len(names) <= maximum:
        span = f"{minimum}" if minimum == maximum else f"{minimum} to {maximum}"
        raise InvalidOptions(f"{game} is for {span} players, not {len(names)}")
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise InvalidOptions(f"A player's name must be non-empty text, not {name!r}")
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidOptions(f"A player's name is at most {MAX_NAME_LENGTH} characters")
    if len(set(names)) < len(names):  # (a Counter only when there is a repeat to name)
        repeated = [name for name, count in Counter(names).items() if count > 1]
        raise InvalidOptions(f"Two players are both called {repeated[0]!r}")
    return names


def check_deck(game: str, given: Sequence[Any], full: Sequence[str]) -> list[str]:
    """Check that an explicit deck order is exactly the game's cards, and say what is off."""
    cards = list(given)
    for card in cards:
        if not isinstance(card, str):
            raise InvalidOptions(f"Card codes are text; {card!r} is not a {game} card")
    have, want = Counter(cards), Counter(full)
    unknown = sorted(set(have) - set(want))
    if unknown:
        raise InvalidOptions(f"{unknown[0]!r} is not a {game} card")
    extra = sorted(card for card in have if have[card] > want[card])
    if extra:
        raise InvalidOptions(f"The deck has too many {extra[0]!r}")
    missing = sorted(card for card in want if have[card] < want[card])
    if missing:
        count = f"{len(cards)} of {len(full)} cards"
        raise InvalidOptions(f"The deck is missing {missing[0]!r} ({count})")
    return cards


def deck_orders(option: Any) -> list[list[Any]]:
    """Every explicit deck order the ``deck`` option gives, one per round, checked for shape.

    ``None`` gives none (every round is shuffled). A flat list is the first
    round's order; a list of lists gives one per round. Anything else (an
    empty list, lists mixed with cards) is refused with a sentence.
    """
    if option is None:
        return []
    if not isinstance(option, list) or not option:
        raise InvalidOptions("The deck option is a non-empty list of card codes, top first")
    nested = [isinstance(item, list) for item in option]
    if all(nested):
        if not all(option):
            raise InvalidOptions("Each round's deck order in the deck option needs cards")
        return list(option)
    if any(nested):
        raise InvalidOptions(
            "The deck option is either one list of card codes or a list of them (one per round)"
        )
    return [option]


def deck_for_round(option: Any, round_number: int) -> list[Any] | None:
    """The explicit deck order for ``round_number`` (1-based), if the ``deck`` option gives one.

    A flat list is the first round's order; a list of lists gives one order per
    round. Rounds without one are shuffled.
    """
    if not option:
        return None
    if isinstance(option[0], list):
        return option[round_number - 1] if round_number <= len(option) else None
    return option if round_number == 1 else None


# --------------------------------------------------------------------------- actions


def action_type(action: Any, allowed: Iterable[str]) -> str:
    """The ``type`` of ``action``, checked against the types legal in this game."""
    if type(action) is not dict and not isinstance(action, Mapping):
        raise InvalidAction("An action is a map with a 'type' field")
    kind = action.get("type")
    if type(allowed) is not tuple:
        allowed = list(allowed)
    if kind not in allowed:
        raise InvalidAction(f"Unknown action {kind!r}; this game has {', '.join(allowed)}")
    return str(kind)


def action_field(action: Action, name: str, kind: type[T]) -> T:
    """A required field of ``action`` with the expected type."""
    value = action.get(name)
    if isinstance(value, bool) and kind is not bool:
        value = None
    if not isinstance(value, kind):
        raise InvalidAction(f"The {action.get('type')!r} action needs {name!r} ({kind.__name__})")
    return value


# --------------------------------------------------------------------------- the contract


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

"""The message catalog: every message type, its fields, who sends it, and the error codes.

One table (:data:`CATALOG`) is the schema: each message is a frozen
dataclass whose annotations *are* its wire fields. ``Annotated`` metadata
adds bounds (:class:`Text`, :class:`Whole`); a field with a default is
optional (it may be absent or nil), a field without one is required
(``X | None`` with no default: required, but may be nil). :func:`parse`
checks a decoded map against that table and returns the dataclass;
:func:`to_wire` turns a dataclass back into the map that is sent. Nothing
else validates fields, so the wire format and the Python types cannot drift
apart.

Client messages carry an optional ``ref`` (an integer the client chooses);
the host's reply to that message (and any error it causes) echoes it.

Error codes live in :data:`ERRORS`, also one table: each code says whether
sending it closes the connection.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Final, Literal

from net.wire.text import find_unsafe

PROTOCOL_VERSION: Final = 4
"""The protocol version this code speaks (``hello.protocol`` and ``welcome.protocol``).

Version 2: a ``view`` message's ``view`` is exactly the game's view; the host's own fields
(``waiting``, ``starting``, ``starts_in``) are beside it. Version 3: ``welcome`` says where
the host's SSH gateway and web page are (``ssh``, ``web``), for the waiting room's ways to
join. Version 4: a ``view`` says when the table is held because the host cannot save it
(``paused``), with the ``host_storage`` error; a finished table's people play again or
another game together (``again``, ``again_answer``, ``view.again``, ``joined.moved_from``)
and see tonight's standings (``view.tonight``, ``scores.tonight``) (net/PROTOCOL.md,
"Changes")."""

SUPPORTED_VERSIONS: Final = frozenset({PROTOCOL_VERSION})
"""Versions a host accepts in ``hello``."""

MAX_ERROR_TEXT: Final = 1000
"""The longest ``error.message``, in characters; longer sentences are cut to fit before sending."""

MAX_HELD_MOMENTS: Final = 20
"""``learn.hold`` at most: the first moments of a coached game, not the whole game."""
MAX_LEARNER_PACE: Final = 10
"""``learn.pace`` at most: bots ten times slower than at any table."""

INT64_MIN: Final = -(1 << 63)
INT64_MAX: Final = (1 << 63) - 1


class Side(enum.Enum):
    """Who sends a message: the host or a client."""

    HOST = "host"
    CLIENT = "client"

    @property
    def other(self) -> Side:
        return Side.CLIENT if self is Side.HOST else Side.HOST


# --------------------------------------------------------------------------- field bounds


@dataclass(frozen=True, slots=True)
class Text:
    """A text field of ``low`` to ``high`` characters."""

    low: int = 0
    high: int = 256


@dataclass(frozen=True, slots=True)
class Whole:
    """An integer field from ``low`` to ``high`` inclusive (booleans are not integers)."""

    low: int = INT64_MIN
    high: int = INT64_MAX


class MessageError(ValueError):
    """A decoded value that is not a valid message; ``code`` is the protocol error code.

    ``about`` is the message's type when it had a known one, ``ref`` the
    client's ``ref`` when it had a valid one, so the error reply can echo them.
    """

    def __init__(
        self, code: str, text: str, *, about: str | None = None, ref: int | None = None
    ) -> None:
        super().__init__(text)
        self.code = code
        self.text = text
        self.about = about
        self.ref = ref


Check = Callable[[Any], str | None]
"""A field check: ``None`` when the value is fine, else what it should be (for the error)."""


def _check_for(hint: Any, bound: Text | Whole | None) -> Check:
    """Build the check for one annotation (the few shapes the catalog uses)."""
    origin = typing.get_origin(hint)
    if hint is int:
        low, high = (bound.low, bound.high) if isinstance(bound, Whole) else (INT64_MIN, INT64_MAX)

        def whole(value: Any) -> str | None:
            ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
            return None if ok else f"a whole number from {low} to {high}"

        return whole
    if hint is str:
        short, long = (bound.low, bound.high) if isinstance(bound, Text) else (0, 256)

        def text(value: Any) -> str | None:
            ok = isinstance(value, str) and short <= len(value) <= long
            return None if ok else f"text of {short} to {long} characters"

        return text
    if hint is bool:
        return lambda value: None if isinstance(value, bool) else "true or false"
    if hint is float:

        def number(value: Any) -> str | None:
            ok = isinstance(value, int | float) and not isinstance(value, bool)
            return None if ok and math.isfinite(value) and value >= 0 else "a number from 0"

        return number
    if origin is Literal:
        choices = typing.get_args(hint)
        wanted = " or ".join(repr(choice) for choice in choices)
        return lambda value: None if isinstance(value, str) and value in choices else wanted
    if origin is dict:
        return lambda value: None if isinstance(value, dict) else "a map"
    if origin is list:
        (item_hint,) = typing.get_args(hint)
        item_check = None if item_hint is Any else _check_for(item_hint, None)
        item_words = "" if item_hint is Any else " of " + _plural(item_hint)

        def items(value: Any) -> str | None:
            if not isinstance(value, list | tuple):
                return f"a list{item_words}"
            if item_check is not None and any(item_check(item) for item in value):
                return f"a list{item_words}"
            return None

        return items
    raise TypeError(f"The message catalog does not support fields of type {hint!r}")


def _plural(hint: Any) -> str:
    if hint is int:
        return "whole numbers"
    if typing.get_origin(hint) is dict:
        return "maps"
    return "texts"


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One wire field of a message type."""

    name: str
    required: bool
    nullable: bool
    check: Check


@dataclass(frozen=True, slots=True)
class MessageSpec:
    """One message type: its class, who may send it, its fields."""

    name: str
    cls: type[Message]
    senders: frozenset[Side]
    fields: tuple[FieldSpec, ...]
    by_name: Mapping[str, FieldSpec]


CATALOG: dict[str, MessageSpec] = {}
"""Every message type by its wire ``type``: the one schema of the protocol."""


class Message:
    """Base of every message dataclass; ``TYPE`` is the wire ``type`` field."""

    __slots__ = ()
    TYPE: ClassVar[str]
    SENDERS: ClassVar[frozenset[Side]]


M = typing.TypeVar("M", bound=type[Message])


def _unwrap(hint: Any) -> tuple[Any, Text | Whole | None, bool]:
    """(base type, bound, nullable) from an annotation like ``Annotated[int, Whole(0)] | None``."""
    nullable = False
    bound: Text | Whole | None = None
    if typing.get_origin(hint) is Annotated:
        hint, *extras = typing.get_args(hint)
        bound = next((extra for extra in extras if isinstance(extra, Text | Whole)), None)
    if typing.get_origin(hint) in (types.UnionType, typing.Union):
        options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        nullable = len(options) < len(typing.get_args(hint))
        (hint,) = options
        if typing.get_origin(hint) is Annotated:
            hint, *extras = typing.get_args(hint)
            bound = next((extra for extra in extras if isinstance(extra, Text | Whole)), None)
    return hint, bound, nullable


def message(type_: str, *senders: Side) -> Callable[[M], M]:
    """Register a message dataclass in :data:`CATALOG` under wire type ``type_``."""

    def register(cls: M) -> M:
        if type_ in CATALOG:
            raise ValueError(f"Message type {type_!r} is registered twice")
        hints = typing.get_type_hints(cls, include_extras=True)
        specs = []
        for item in dataclasses.fields(cls):  # type: ignore[arg-type]
            base, bound, nullable = _unwrap(hints[item.name])
            required = item.default is dataclasses.MISSING
            specs.append(FieldSpec(item.name, required, nullable, _check_for(base, bound)))
        cls.TYPE = type_
        cls.SENDERS = frozenset(senders)
        fields = tuple(specs)
        CATALOG[type_] = MessageSpec(
            type_, cls, cls.SENDERS, fields, {spec.name: spec for spec in fields}
        )
        return cls

    return register


# Field shapes used below.
Name = Annotated[str, Text(1, 32)]
TableId = Annotated[str, Text(1, 64)]
Token = Annotated[str, Text(1, 128)]
Ref = Annotated[int, Whole(0, INT64_MAX)]
Stamp = Annotated[int, Whole(0, INT64_MAX)]
Seat = Annotated[int, Whole(0, 63)]
Count = Annotated[int, Whole(0, 64)]
Role = Literal["player", "spectator"]

# --------------------------------------------------------------------------- client -> host


@message("hello", Side.CLIENT)
@dataclass(frozen=True, slots=True, kw_only=True)
class Hello(Message):
    """The first message of every connection: who is there, and which protocol it speaks."""

    protocol: Annotated[int, Whole(0, INT64_MAX)]
    name: Name
    token: Token | None = None
    player: Token | None = None
    """The player's own long-lived secret; the host keeps only a hash (its scoreboard's key)."""
    ref: Ref | None = None


@message("list_tables", Side.CLIENT)
@dataclass(frozen=True, slots=True, kw_only=True)
class ListTables(Message):
    """Ask for the host's tables (answered by ``tables``)."""

    ref: Ref | None = None


@message("create_table", Side.CLIENT)
@dataclass(frozen=True, slots=True, kw_only=True)
class CreateTable(Message):
    """Open a new table of ``game`` (answered by ``created``)."""

    game: Annotated[str, Text(1, 32)]
    options: dict[str, Any] | None = None
    seats: Annotated[int, Whole(1, 64)] | None = None
    bots: Count | None = None
    bot_level: Annotated[str, Text(1, 16)] | None = None
    """The level of the ``bots`` (``easy``, ``normal``, ``hard``); nil: the host's default."""
    ref: Ref | None = None


@message("join", Side.CLIENT)
@dataclass(frozen=True, slots=True, kw_only=True)
class Join(Message):
    """Sit at a table as a player (optionally a given seat) or watch it (answered by ``joined``)."""

    table: TableId
    role: Role
    seat: Seat | None = None
    ref: Ref | None = None


@message("leave", Side.CLIENT)
@dataclass(frozen=True, slots=True, kw_only=True)
class Leave(Message):
    """Leave a table (answered by ``left``).

    A player's seat is given up (a bot plays it, or, before the start, a newcomer
    may take it) unless ``for_now`` is true: then the seat is kept for its token,
    others see the player stepped away, and ``hello`` with the token returns to it.
    """

    table: TableId
    for_now: bool | None = None
    ref: Ref | None = None


@message("action", Side.CLIENT)
@dataclass(frozen=True, slots=True, kw_only=True)
class Act(Message):
    """A player's intent at a table; ``action`` is the game's action map.

    For a real-time moment, ``reveal`` names the reveal being answered and
    ``drawn_ns``/``acted_ns`` are the client's own monotonic clock when that
    reveal was drawn and when the player acted: all three or none.
    """

    table: TableId
    action: dict[str, Any]
    reveal: Stamp | None = None
    drawn_ns: Stamp | None = None
    acted_ns: Stamp | None = None
    ref: Ref | None = None

    def __post_init__(self) -> None:
        given = [self.reveal is not None, self.drawn_ns is not None, self.acted_ns is not None]
        if any(given) and not all(given):
            raise ValueError("give 'reveal', 'drawn_ns' and 'acted_ns' together or not at all")


@message("again", Side.CLIENT)
@dataclass(frozen=True, slots=True, kw_only=True)
class Again(Message):
    """At a finished table, a player asks everyone there to play again: the same game and
    options (``game`` nil), or another game (``game``, with ``options``, ``seats`` and
    ``bots`` as in ``create_table``). The first opens the proposal; the same from another
    player while it is open is their yes (two people asking at once make one table)."""

    table: TableId
    game: Annotated[str, Text(1, 32)] | None = None
    options: dict[str, Any] | None = None
    seats: Annotated[int, Whole(1, 64)] | None = None
    bots: Count | None = None
    ref: Ref | None = None


@message("again_answer", Side.CLIENT)
@dataclass(frozen=True, slots=True, kw_only=True)
class AgainAnswer(Message):
    """A player's answer to the proposal open at their finished table (``again``)."""

    table: TableId
    accept: bool
    ref: Ref | None = None


@message("typing", Side.CLIENT)
@dataclass(frozen=True, slots=True, kw_only=True)
class Typing(Message):
    """A typing notice: the player started typing an answer to ``reveal`` (optional).

    The stamps the answer will carry, sent ahead of its text, so the host can
    check them against this arrival rather than the answer's, which comes only
    after the typing (``Typed answers`` in ``PROTOCOL.md``). No reply.
    """

    table: TableId
    reveal: Stamp
    drawn_ns: Stamp
    acted_ns: Stamp
    ref: Ref | None = None


@message("learn", Side.CLIENT)
@dataclass(frozen=True, slots=True, kw_only=True)
class Learn(Message):
    """A person alone with bots learns the game (a coached first game): the host waits
    for them to read (optional). No reply.

    ``hold``: how many of the next real-time moments in which this player may claim are
    held for them: table time stands still, bots and timers wait, until the player claims
    or sends ``learn`` again (nil keeps the count and only lets a held moment go on; 0
    holds no more). ``pace``: the table's bots react this many times slower (nil keeps it;
    1: as at any table). ``Learning`` in ``PROTOCOL.md``.
    """

    table: TableId
    hold: Annotated[int, Whole(0, MAX_HELD_MOMENTS)] | None = None
    pace: Annotated[int, Whole(1, MAX_LEARNER_PACE)] | None = None
    ref: Ref | None = None


@message("list_replays", Side.CLIENT)
@dataclass(frozen=True, slots=True, kw_only=True)
class ListReplays(Message):
    """Ask for the finished games this host keeps (answered by ``replays``)."""

    ref: Ref | None = None


@message("get_scores", Side.CLIENT)
@dataclass(frozen=True, slots=True, kw_only=True)
class GetScores(Message):
    """Ask for the host's scoreboard: wins and ratings per game and player (answered by
    ``scores``)."""

    ref: Ref | None = None


@message("get_replay", Side.CLIENT)
@dataclass(frozen=True, slots=True, kw_only=True)
class GetReplay(Message):
    """Ask for one finished game's record (answered by ``replay``; a game not over is refused)."""

    table: TableId
    ref: Ref | None = None


# --------------------------------------------------------------------------- both ways


@message("ping", Side.CLIENT, Side.HOST)
@dataclass(frozen=True, slots=True, kw_only=True)
class Ping(Message):
    """Ask the peer for a ``pong`` echoing ``id`` and ``t`` (the sender's clock, ns)."""

    id: Annotated[int, Whole(0, INT64_MAX)]
    t: Annotated[int, Whole(INT64_MIN, INT64_MAX)]


@message("pong", Side.CLIENT, Side.HOST)
@dataclass(frozen=True, slots=True, kw_only=True)
class Pong(Message):
    """The answer to a ``ping``: its ``id`` and ``t``, unchanged, and the answerer's own clock.

    ``at`` (the answerer's monotonic clock when it answered, ns) lets the
    pinger estimate the offset and drift between the two clocks; without it
    the round trip is still exact.
    """

    id: Annotated[int, Whole(0, INT64_MAX)]
    t: Annotated[int, Whole(INT64_MIN, INT64_MAX)]
    at: Annotated[int, Whole(INT64_MIN, INT64_MAX)] | None = None


@message("chat", Side.CLIENT, Side.HOST)
@dataclass(frozen=True, slots=True, kw_only=True)
class Chat(Message):
    """A chat line at ``table``: from a client, what it says (``name``/``seat`` are ignored);
    from the host, a line said there, with who said it (``seat`` nil: a spectator)."""

    table: TableId
    text: Annotated[str, Text(1, 200)]
    name: Name | None = None
    seat: Seat | None = None
    ref: Ref | None = None


@message("chat_rule", Side.CLIENT, Side.HOST)
@dataclass(frozen=True, slots=True, kw_only=True)
class ChatRule(Message):
    """Whether a table's players hear its spectators' chat while the game is on.

    From a player at ``table``: set the rule (``name``/``seat`` are ignored).
    From the host: the rule now, with who set it (no ``name`` when nobody did:
    the table was created with it).
    """

    table: TableId
    spectator_chat: Literal["shown", "hidden"]
    name: Name | None = None
    seat: Seat | None = None
    ref: Ref | None = None


# --------------------------------------------------------------------------- host -> client


@message("welcome", Side.HOST)
@dataclass(frozen=True, slots=True, kw_only=True)
class Welcome(Message):
    """The host's answer to a good ``hello``: its protocol, its name and its games."""

    protocol: Annotated[int, Whole(0, INT64_MAX)]
    host_name: Annotated[str, Text(1, 64)]
    games: list[dict[str, Any]]
    ssh: Annotated[int, Whole(1, 65535)] | None = None
    """The port of the host's SSH gateway (``clowder host --ssh``), if it has one."""
    web: Annotated[int, Whole(1, 65535)] | None = None
    """The port of the host's page for browsers (``clowder host --web``), if it has one."""


@message("tables", Side.HOST)
@dataclass(frozen=True, slots=True, kw_only=True)
class Tables(Message):
    """The host's tables (one summary map each); sent on request and when they change."""

    tables: list[dict[str, Any]]
    ref: Ref | None = None


@message("created", Side.HOST)
@dataclass(frozen=True, slots=True, kw_only=True)
class Created(Message):
    """A table was created for this client's ``create_table``."""

    table: TableId
    ref: Ref | None = None


@message("joined", Side.HOST)
@dataclass(frozen=True, slots=True, kw_only=True)
class Joined(Message):
    """This connection now sits at ``table`` (``seat`` nil and no token: a spectator)."""

    table: TableId
    role: Role
    seat: Seat | None
    token: Token | None
    ref: Ref | None = None
    moved_from: TableId | None = None
    """Set when the host moved this connection here from a finished table whose people
    play again (its ``again``): the client shows this table instead (no ``left`` comes for
    the other)."""


@message("left", Side.HOST)
@dataclass(frozen=True, slots=True, kw_only=True)
class Left(Message):
    """This connection is no longer at ``table``."""

    table: TableId
    ref: Ref | None = None


@message("view", Side.HOST)
@dataclass(frozen=True, slots=True, kw_only=True)
class View(Message):
    """What this connection may see of a table now, and the events that led there.

    ``view`` is exactly the game's ``view(state, seat)`` (nil before the deal), so a
    screen gets the type its game declares; what the host adds is beside it.
    """

    table: TableId
    version: Annotated[int, Whole(0, INT64_MAX)]
    view: dict[str, Any] | None
    events: list[dict[str, Any]]
    waiting: dict[str, Any] | None = None
    """Before the deal (``view`` nil): ``{"seats": [seat map...], "seat": int or nil}``."""
    starting: bool | None = None
    """True while a dealt real-time game has not begun: nobody may act (``legal`` counts as
    empty, no ``reveal`` as open). Nil (absent) otherwise."""
    starts_in: float | None = None
    """While ``starting``: seconds left in the start countdown (nil while the host still
    waits for every seat's player to be connected)."""
    ratings: list[Any] | None = None
    """Once the game is over and the host rated it: per seat ``{"rating", "change"}`` (as
    shown, ``net.store.ratings``) or nil for a seat not rated. Absent: the host rates nothing."""
    again: dict[str, Any] | None = None
    """A finished table whose people are asked to play again (``again``): ``{"game", "title",
    "table", "by", "ends_in", "free", "seats": [{"seat", "name", "bot", "answer"}]}``
    (``seat``: the seat at this table; ``answer`` one of ``"yes"``, ``"no"``,
    ``"waiting"``). Absent: no proposal is open."""
    tonight: dict[str, Any] | None = None
    """Once the game is over: tonight's standings on this host (``{"games", "standings":
    [{"name", "bot", "games", "wins", "changes"}]}``). Absent: the host keeps none."""
    paused: Annotated[str, Text(1, MAX_ERROR_TEXT)] | None = None
    """Why the table is held (the host cannot save it: its disk is full): nobody may act,
    bots and timers wait, and it goes on by itself when the host can write again. Absent:
    the table is not held."""
    held: bool | None = None
    """True while the open real-time moment is held for the table's learner (``learn``):
    they may claim it, bots and timers wait until they do or let it go on. Absent: not
    held."""
    contests: dict[str, Any] | None = None
    """Once the game is over, at a real-time table: its contested moments (claimed by two
    seats or more), ``{"contested": int, "closest_ns": int or nil, "tie": bool}``, counted
    by the host over the whole game (not only what this connection saw)."""

    @property
    def open_reveal(self) -> int | None:
        """The real-time moment open for claims, as a client reads it: the game view's
        ``reveal``, unless there is no game view yet or the game is ``starting`` or
        ``paused``."""
        if self.view is None or self.starting or self.paused:
            return None
        reveal = self.view.get("reveal")
        return reveal if isinstance(reveal, int) and not isinstance(reveal, bool) else None

    @property
    def game_outcome(self) -> dict[str, Any] | None:
        """The game view's ``outcome`` (``None``: no game view yet, or the game is on)."""
        outcome = None if self.view is None else self.view.get("outcome")
        return outcome if isinstance(outcome, dict) else None


@message("presence", Side.HOST)
@dataclass(frozen=True, slots=True, kw_only=True)
class Presence(Message):
    """Who sits at a table, whether they are connected, and their round trip."""

    table: TableId
    seats: list[dict[str, Any]]


@message("replays", Side.HOST)
@dataclass(frozen=True, slots=True, kw_only=True)
class Replays(Message):
    """The finished games the host keeps, newest first (one summary map each)."""

    replays: list[dict[str, Any]]
    ref: Ref | None = None


@message("scores", Side.HOST)
@dataclass(frozen=True, slots=True, kw_only=True)
class Scores(Message):
    """The host's scoreboard: per game name, rows of ``name``, ``wins``, ``played``, ``bot``,
    and ``rating`` (as shown, ``net.store.ratings``) where the host rates that player."""

    scores: dict[str, Any]
    ref: Ref | None = None
    tonight: dict[str, Any] | None = None
    """Tonight's standings (as ``view.tonight``); absent when the host keeps none."""


@message("replay", Side.HOST)
@dataclass(frozen=True, slots=True, kw_only=True)
class Replay(Message):
    """One finished game: seed, options, players, steps and notes (``net.store.replays``)."""

    replay: dict[str, Any]
    ref: Ref | None = None


@message("error", Side.HOST)
@dataclass(frozen=True, slots=True, kw_only=True)
class Error(Message):
    """Something the client sent was refused; ``code`` is stable, ``message`` is for people."""

    code: Annotated[str, Text(1, 64)]
    message: Annotated[str, Text(1, MAX_ERROR_TEXT)]
    ref: Ref | None = None
    about: Annotated[str, Text(1, 64)] | None = None


# --------------------------------------------------------------------------- parse and build


def _ref_of(value: Mapping[str, Any]) -> int | None:
    ref = value.get("ref")
    if isinstance(ref, int) and not isinstance(ref, bool) and 0 <= ref <= INT64_MAX:
        return ref
    return None


def parse(value: Any, sender: Side) -> Message:
    """The message dataclass for a decoded ``value`` sent by ``sender``.

    Raises :class:`MessageError` (``bad_message``, ``unknown_type`` or
    ``bad_field``) with a sentence saying what is wrong.
    """
    if not isinstance(value, dict):
        raise MessageError("bad_message", "A message is a map with a 'type' field")
    ref = _ref_of(value)
    kind = value.get("type")
    if not isinstance(kind, str):
        raise MessageError("bad_message", "A message needs a 'type' field (text)", ref=ref)
    spec = CATALOG.get(kind)
    if spec is None:
        raise MessageError("unknown_type", f"There is no message type {kind[:64]!r}", ref=ref)
    about = spec.name
    if sender not in spec.senders:
        (owner,) = spec.senders
        raise MessageError(
            "unknown_type",
            f"The {kind!r} message is sent by the {owner.value}, not the {sender.value}",
            about=about,
            ref=ref,
        )
    if sender is Side.CLIENT:
        # Text a client sets reaches other players' terminals: refuse what a terminal obeys.
        unsafe = find_unsafe({k: v for k, v in value.items() if k != "type"})
        if unsafe is not None:
            where, what = unsafe
            raise MessageError(
                "bad_field",
                f"The {kind!r} message has {what} in {where}; "
                "control characters, bidirectional controls and unassigned code points "
                "are not allowed",
                about=about,
                ref=ref,
            )
    values: dict[str, Any] = {}
    for name, given in value.items():
        if name == "type":
            continue
        field_spec = spec.by_name.get(name)
        if field_spec is None:
            raise MessageError(
                "bad_field",
                f"The {kind!r} message has no field {name[:64]!r}",
                about=about,
                ref=ref,
            )
        if given is None and (field_spec.nullable or not field_spec.required):
            continue
        problem = field_spec.check(given)
        if problem is not None:
            raise MessageError(
                "bad_field",
                f"The field {name!r} of {kind!r} must be {problem}",
                about=about,
                ref=ref,
            )
        values[name] = given
    for field_spec in spec.fields:
        if field_spec.name not in values:
            if field_spec.required and not (field_spec.nullable and field_spec.name in value):
                raise MessageError(
                    "bad_field",
                    f"The {kind!r} message needs the field {field_spec.name!r}",
                    about=about,
                    ref=ref,
                )
            values[field_spec.name] = None
    try:
        built: Message = spec.cls(**values)
        return built
    except ValueError as error:
        raise MessageError(
            "bad_field", f"Bad {kind!r} message: {error}", about=about, ref=ref
        ) from None


def to_wire(message: Message) -> dict[str, Any]:
    """The map sent for ``message``; optional fields that are ``None`` are left out.

    Raises :class:`MessageError` (``bad_field``) when a field breaks the
    catalog, so a side never sends what its peer would refuse.
    """
    spec = CATALOG[message.TYPE]
    wire: dict[str, Any] = {"type": spec.name}
    for field_spec in spec.fields:
        value = getattr(message, field_spec.name)
        if value is None:
            if field_spec.required and not field_spec.nullable:
                raise MessageError(
                    "bad_field",
                    f"The {spec.name!r} message needs the field {field_spec.name!r}",
                    about=spec.name,
                )
            if field_spec.required:
                wire[field_spec.name] = None
            continue
        problem = field_spec.check(value)
        if problem is not None:
            raise MessageError(
                "bad_field",
                f"The field {field_spec.name!r} of {spec.name!r} must be {problem}, "
                f"not {value!r:.80}",
                about=spec.name,
            )
        wire[field_spec.name] = value
    return wire


# --------------------------------------------------------------------------- error codes


@dataclass(frozen=True, slots=True)
class ErrorCode:
    """A stable error code: whether sending it closes the connection, and when it is sent."""

    code: str
    closes: bool
    when: str


ERRORS: dict[str, ErrorCode] = {
    entry.code: entry
    for entry in (
        # Framing and decoding (protocol violations: the connection is closed).
        ErrorCode("frame_too_large", True, "A frame header announces more bytes than allowed."),
        ErrorCode("malformed", True, "A frame is not one valid msgpack value of allowed types."),
        ErrorCode("too_deep", True, "Maps and lists nest deeper than allowed."),
        ErrorCode("too_long", True, "A text, list or map is longer than allowed."),
        ErrorCode("flooding", True, "Too many frames in a row were refused for the rate."),
        ErrorCode("handshake_required", True, "The first message was not a valid 'hello'."),
        ErrorCode("unsupported_version", True, "'hello' asks for a protocol the host lacks."),
        # Message level (recoverable: the message is dropped, the connection stays).
        ErrorCode("rate_limited", False, "A frame came faster than the rate limit allows."),
        ErrorCode("bad_message", False, "A message is not a map with a text 'type'."),
        ErrorCode("unknown_type", False, "The type is unknown, or is not the client's to send."),
        ErrorCode("bad_field", False, "A field is missing, unknown, or of the wrong type."),
        ErrorCode("out_of_order", False, "A message that is not valid now (a second 'hello')."),
        # Host decisions (sent by the host's logic; recoverable unless marked).
        ErrorCode("bad_token", False, "'hello' carries a token that holds no seat on this host."),
        ErrorCode("unknown_game", False, "'create_table' names a game the host does not have."),
        ErrorCode("invalid_options", False, "'create_table' options are not valid for the game."),
        ErrorCode("bad_table", False, "'create_table' asks for a seat count the game cannot seat."),
        ErrorCode("no_such_table", False, "A message names a table the host does not have."),
        ErrorCode("table_started", False, "'join' as a player at a table already playing."),
        ErrorCode("table_full", False, "'join' as a player at a table with no free seat."),
        ErrorCode("no_such_seat", False, "'join' asks for a seat number the table lacks."),
        ErrorCode("seat_taken", False, "'join' asks for a seat someone else holds."),
        ErrorCode("name_taken", False, "'join' by a name someone at that table already has."),
        ErrorCode("not_at_table", False, "'action' or 'leave' for a table the client is not at."),
        ErrorCode("not_started", False, "'action' at a table still waiting for players."),
        ErrorCode("illegal_action", False, "The rules do not allow that action now."),
        ErrorCode("not_your_turn", False, "The seat acted when it was not theirs to act."),
        ErrorCode("invalid_action", False, "The action map is malformed for this game."),
        ErrorCode("game_over", False, "The game has ended; no action is accepted."),
        ErrorCode("stale_reveal", False, "A claim for a moment that has passed (or not come)."),
        ErrorCode("too_early", False, "An action allowed only later (Black Cat's call)."),
        ErrorCode("not_a_word", False, "A word the dictionary lacks, at a strict table."),
        ErrorCode("locked_out", False, "Katootsie!: you are locked out of this letter."),
        ErrorCode("claim_refused", False, "A real-time claim's stamps are implausible or stale."),
        ErrorCode("host_shutdown", True, "The host is shutting down."),
        ErrorCode(
            "host_storage", False, "The host cannot save the table (its disk is full); it waits."
        ),
        # Budgets and deadlines (net.core.limits; PROTOCOL.md, "Host budgets").
        ErrorCode("host_full", True, "The host or this address has all the connections it takes."),
        ErrorCode("too_many_tables", False, "'create_table' over the host's or your table budget."),
        ErrorCode("handshake_timeout", True, "No valid 'hello' came in time after connecting."),
        ErrorCode("idle_timeout", True, "Nothing came for too long and pings went unanswered."),
        ErrorCode("seat_taken_over", False, "Your seat's token was presented by a new connection."),
        ErrorCode(
            "internal_error", False, "The host failed on the request (a bug); nothing changed."
        ),
        ErrorCode("table_closed", False, "The table you were at was closed (over, or abandoned)."),
        ErrorCode("chat_refused", False, "A 'chat' line that is empty or said too fast."),
        ErrorCode("players_only", False, "A 'chat_rule' from a spectator: only players set it."),
        ErrorCode("no_such_replay", False, "'get_replay' names no finished table the host keeps."),
        ErrorCode("not_finished", False, "'get_replay' for a game not over: its hands are secret."),
        ErrorCode("bad_replay", False, "'get_replay' for a journal that no longer replays."),
        ErrorCode("not_over", False, "'again' at a table whose game is still on."),
        ErrorCode("proposal_open", False, "'again' for another game while one is asked."),
        ErrorCode("no_proposal", False, "'again_answer' with no proposal open at the table."),
        ErrorCode("not_alone", False, "'learn' at a table where another person plays."),
    )
}
"""Every error code of the protocol; ``closes`` says whether the connection ends after it."""


def closes(code: str) -> bool:
    """Whether an ``error`` with ``code`` ends the connection (unknown codes: no)."""
    entry = ERRORS.get(code)
    return entry is not None and entry.closes

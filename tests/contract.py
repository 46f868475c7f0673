"""The engine contract, checked for any game: playouts and the checks run over them.

:func:`play` plays a seeded random game of any :class:`~engine.core.Game` from its
legal actions (firing its timers on the way, as the host does) and records
every step; the ``check_*`` functions assert one part of the contract on a
state or a step and raise :class:`AssertionError` saying what is wrong.
``tests/engine/test_contract.py`` runs them over every registered game and
the simulator (``tests/sim``) reuses the secrecy scan on every frame the host sends.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgpack

from engine.core import (
    BASE_VIEW_KEYS,
    Event,
    Game,
    IllegalAction,
    Rng,
    Seat,
    Secrets,
    clone,
    replay,
)
from net.wire.framing import CLIENT_LIMITS, HOST_LIMITS, decode_body, encode_frame
from tests.secrecy import strings

NAMES = ("Ann", "Bea", "Cy", "Dot", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou")

LEGAL_SAMPLE = 8
"""At most this many legal actions (of all seats) are applied on a copy per state (the
first, the last and a seeded sample): Kitten Me! offers hundreds of bids at once, and
each apply copies the state."""

ENDING_CHANCE = 0.1
"""How often a playout takes an action that ends the game while others would not:
random play would otherwise call Black Cat's game after a few cards."""

TICK_CHANCE = 0.2
"""How often a playout lets a pending timer fire although someone could act."""

Entry = tuple[Seat | None, dict[str, Any] | None, float]
"""One record of a game, as :func:`engine.core.replay` takes it: ``(seat, action, now)``."""


def players_for(count: int) -> list[str]:
    return list(NAMES[:count])


# --------------------------------------------------------------------------- playouts


@dataclass
class Step:
    """One entry of a playout: what was done, and the state and events it led to."""

    entry: Entry
    before: Any
    state: Any
    events: list[Event]


@dataclass
class Playout:
    """A recorded game: how it was set up and every step, in order."""

    game: Game[Any]
    players: list[str]
    seed: int
    options: dict[str, Any]
    first: Any
    steps: list[Step] = field(default_factory=list)

    @property
    def final(self) -> Any:
        return self.steps[-1].state if self.steps else self.first

    @property
    def entries(self) -> list[Entry]:
        return [step.entry for step in self.steps]

    def states(self) -> Iterable[tuple[Any, list[Event]]]:
        """Every state of the game with the events that led to it (setup's: its log)."""
        yield self.first, list(self.first.log)
        for step in self.steps:
            yield step.state, step.events

    def legal_seen(self) -> list[tuple[Seat, dict[str, Any]]]:
        """Every action played, with its seat."""
        return [(seat, action) for seat, action, _ in self.entries if seat is not None and action]


def play(
    game: Game[Any],
    players: list[str],
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    max_steps: int = 400,
    on_step: Callable[[Step], None] | None = None,
) -> Playout:
    """A seeded random game from the legal actions, timers fired as the host fires them.

    Time moves on by a random 0-3 s per step. Before each action the timers due
    are fired (as :func:`engine.core.replay` does); when nobody can act and a
    timer is pending, time jumps to it. Stops at the game's end or ``max_steps``.
    """
    rng = Rng.from_seed(seed * 7919 + len(players))
    state = game.new_game(players, seed, options)
    playout = Playout(game, list(players), seed, dict(options or {}), state)
    now = 0.0
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            break
        now += rng.random() * 3.0
        # Who can act once the timers due by ``now`` have fired (as the action will find it).
        due, _ = game.tick(state, now)
        acting = [seat for seat in range(len(players)) if game.legal_actions(due, seat)]
        deadline = game.deadline(state)
        entry: Entry
        if deadline is not None and (not acting or rng.random() < TICK_CHANCE):
            now = max(now, deadline)
            entry = (None, None, now)
        else:
            assert acting, f"{game.name}: nobody can act, no timer is pending, the game is on"
            seat = rng.choice(acting)
            entry = (seat, choose(game, state, seat, now, rng), now)
        before = state
        state, events = game.tick(state, now)
        if entry[0] is not None and entry[1] is not None:
            state, more = game.apply(state, entry[0], entry[1], now)
            events = events + more
        step = Step(entry, before, state, events)
        playout.steps.append(step)
        if on_step is not None:
            on_step(step)
    return playout


def choose(game: Game[Any], state: Any, seat: Seat, now: float, rng: Rng) -> dict[str, Any]:
    """A random legal action of ``seat``, rarely one that ends the game when others do not."""
    ticked, _ = game.tick(state, now)
    legal = game.legal_actions(ticked, seat)
    if not legal:  # a timer took the seat's turn away: act as another would have
        legal = game.legal_actions(state, seat)
    ending: set[str] = set()  # action types whose first legal action ends the game
    tried: set[str] = set()
    for action in legal:
        kind = str(action.get("type"))
        if kind not in tried:
            tried.add(kind)
            if game.outcome(game.apply(ticked, seat, action, now)[0]) is not None:
                ending.add(kind)
    going_on = [action for action in legal if str(action.get("type")) not in ending]
    if going_on and len(going_on) < len(legal) and rng.random() >= ENDING_CHANCE:
        legal = going_on
    return dict(rng.choice(legal))


# --------------------------------------------------------------------------- comparing data


def same(a: Any, b: Any) -> bool:
    """Equal with exact types (``True`` is not ``1``, ``1.0`` is not ``1``), recursively."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[key], b[key]) for key in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def matches_legal(action: Any, legal: list[dict[str, Any]]) -> bool:
    """Whether ``action`` is one of ``legal`` (extra keys allowed, exact types)."""
    if not isinstance(action, Mapping):
        return False
    return any(
        all(key in action and same(action[key], value) for key, value in option.items())
        for option in legal
    )


def packed_round_trip(value: Any) -> Any:
    """``value`` through msgpack as the journal writes and reads it."""
    packed = msgpack.packb(value, use_bin_type=True)
    return msgpack.unpackb(packed, raw=False, use_list=True, strict_map_key=True)


def on_the_wire(value: Any) -> Any:
    """``value`` through a host frame (limits, text keys, allowed types), decoded back."""
    frame = encode_frame(value, HOST_LIMITS)
    return decode_body(frame[4:], HOST_LIMITS)


# --------------------------------------------------------------------------- checks


def check_round_trip(game: Game[Any], state: Any) -> None:
    """``to_data``/``from_data`` and msgpack give back the same state."""
    data = game.to_data(state)
    wired = packed_round_trip(data)
    assert wired == data, f"{game.name}: to_data does not survive msgpack unchanged"
    loaded = game.from_data(wired)
    assert loaded == state, f"{game.name}: from_data(to_data(state)) differs from the state"


def check_replay(playout: Playout) -> None:
    """Determinism and exact replay from (players, seed, options, accepted actions)."""
    game = playout.game
    first = game.new_game(playout.players, playout.seed, playout.options)
    assert game.to_data(first) == game.to_data(playout.first), f"{game.name}: setup not seeded"
    expected = iter(playout.steps)

    def compare(state: Any, events: list[Event]) -> None:
        step = next(expected)
        assert state == step.state, f"{game.name}: replay diverges at {step.entry}"
        assert events == step.events, f"{game.name}: replay's events differ at {step.entry}"

    final = replay(
        game, playout.players, playout.seed, playout.options, playout.entries, on_step=compare
    )
    assert game.to_data(final) == game.to_data(playout.final)


def check_view(
    game: Game[Any], state: Any, seat: Seat | None, *, frame: bool = True
) -> dict[str, Any]:
    """The common keys with their types, ``phase``/``outcome`` agreeing, wire-ready.

    ``frame``: also check the view against the host's frame limits (slower than msgpack).
    """
    view = game.view(state, seat)
    missing = BASE_VIEW_KEYS - view.keys()
    assert not missing, f"{game.name}: view lacks {sorted(missing)}"
    count = len(state.players)
    outcome = game.outcome(state)
    assert view["game"] == game.name
    assert same(view["seat"], seat)
    assert same(view["players"], list(state.players))
    assert isinstance(view["phase"], str) and view["phase"]
    assert (view["phase"] == "over") == (outcome is not None), (view["phase"], outcome)
    assert isinstance(view["legal"], list)
    assert all(isinstance(action, dict) and "type" in action for action in view["legal"])
    if seat is None or outcome is not None:
        assert view["legal"] == []
    else:
        assert view["legal"] == game.legal_actions(state, seat)
    assert isinstance(view["log"], list) and all(isinstance(line, str) for line in view["log"])
    scores = view["scores"]
    assert isinstance(scores, list) and len(scores) == count
    assert all(type(score) is int for score in scores), scores
    if outcome is None:
        assert view["outcome"] is None
    else:
        shown = view["outcome"]
        assert same(shown, {"scores": list(outcome.scores), "winners": list(outcome.winners)})
        assert all(type(s) is int for s in shown["scores"]) and len(shown["scores"]) == count
        assert all(type(w) is int and 0 <= w < count for w in shown["winners"])
    reveal = view["reveal"]
    assert reveal is None or type(reveal) is int
    if not game.realtime or outcome is not None:
        assert reveal is None
    # Inside a message map, as the host sends it: the host trusts a view's depth and types
    # (net.wire.framing.encode_shaped_frame) because this check passes for every game.
    wired = on_the_wire({"view": view})["view"] if frame else packed_round_trip(view)
    assert wired == view, f"{game.name}: the view changes on the wire"
    return view


@functools.cache
def declared(typed_dict: Any) -> dict[str, Any]:
    """A TypedDict's keys and their types, resolved once (``typing.get_type_hints`` evaluates
    every annotation anew each call: most of the view-type test's time went there)."""
    return typing.get_type_hints(typed_dict)


def type_problems(value: Any, hint: Any, where: str = "view") -> list[str]:
    """Where ``value`` does not fit the annotation ``hint``, as ``where: what`` lines.

    The shapes view types use: ``TypedDict`` (exactly its keys: every required one, no
    key it does not declare), ``list[X]``, ``dict``, unions with ``None``, ``Literal``,
    ``int`` (not a bool), ``float`` (an int too), ``str``, ``bool`` and ``Any``.
    """
    if hint is Any:
        return []
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return []
        found = [type_problems(value, option, where) for option in options]
        return [] if any(not problems for problems in found) else min(found, key=len)
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r:.60} is not nil"]
    if typing.is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: {value!r:.60} is not a map ({hint.__name__})"]
        hints = declared(hint)
        keys = set(value)
        problems = [f"{where}: lacks {key!r}" for key in sorted(hint.__required_keys__ - keys)]
        problems += [
            f"{where}: has {key!r}, which {hint.__name__} does not declare"
            for key in sorted(keys - set(hints))
        ]
        for key in sorted(keys & set(hints)):
            problems += type_problems(value[key], hints[key], f"{where}.{key}")
        return problems
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r:.60} is not a list"]
        (item,) = typing.get_args(hint) or (Any,)
        return [
            p for index, x in enumerate(value) for p in type_problems(x, item, f"{where}[{index}]")
        ]
    if origin is dict or hint is dict:
        return [] if isinstance(value, dict) else [f"{where}: {value!r:.60} is not a map"]
    if origin is typing.Literal:
        return [] if value in typing.get_args(hint) else [f"{where}: {value!r:.60} is not {hint}"]
    if hint is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r:.60} is not a number"]
    if hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r:.60} is not a whole number"]
    if hint in (str, bool):
        ok = isinstance(value, hint)
        return [] if ok else [f"{where}: {value!r:.60} is not {hint.__name__}"]
    raise TypeError(f"{where}: view types do not use {hint!r}")


def check_view_type(game: Game[Any], view: Mapping[str, Any]) -> None:
    """``view`` is what ``game.view_type`` declares: the same keys (required and optional
    as declared), nested maps included, and values of the declared types."""
    assert typing.is_typeddict(game.view_type), f"{game.name}: view_type is not a TypedDict"
    problems = type_problems(dict(view), game.view_type)
    assert not problems, f"{game.name} ({game.view_type.__name__}): " + "; ".join(problems[:8])


def check_legal_accepted(
    game: Game[Any], state: Any, now: float, rng: Rng, sample: int = LEGAL_SAMPLE
) -> int:
    """Seats' legal actions are accepted (all of them, or a seeded sample of ``sample``
    when there are more); ``apply`` leaves the state untouched.

    Also: every legal action fits in a client's frame, and real-time claims name the
    open reveal. Returns how many actions were applied.
    """
    before = clone(state)
    over = game.outcome(state) is not None
    pairs: list[tuple[Seat, dict[str, Any]]] = []
    for seat in range(len(state.players)):
        legal = game.legal_actions(state, seat)
        assert not (over and legal), f"{game.name}: seat {seat} has legal actions after the end"
        for action in legal:
            encode_frame({"type": "action", "table": "t1", "action": action}, CLIENT_LIMITS)
            if game.is_claim(action):
                assert game.realtime
                assert action.get("reveal") == game.reveal(state), (action, game.reveal(state))
            elif not game.realtime:
                assert not game.is_claim(action)
            pairs.append((seat, action))
    chosen = pairs
    if len(pairs) > sample:
        picks = {0, len(pairs) - 1}
        while len(picks) < sample:
            picks.add(rng.below(len(pairs)))
        chosen = [pairs[index] for index in sorted(picks)]
    for seat, action in chosen:
        try:
            game.apply(state, seat, action, now)
        except IllegalAction as error:
            raise AssertionError(
                f"{game.name}: seat {seat}'s legal action {action} refused: {error}"
            ) from None
    assert state == before, f"{game.name}: apply changed its input state"
    return len(chosen)


def check_refused_or_legal(
    game: Game[Any], state: Any, seat: Any, action: Any, now: float, *, compare: bool = True
) -> bool:
    """``action`` is refused with :class:`IllegalAction`, or is one of the seat's legal actions.

    Any other exception fails, and so does a state changed by the attempt (unless
    ``compare`` is false: the caller compares once after many attempts).
    Returns whether it was accepted.
    """
    before = clone(state) if compare else None
    try:
        game.apply(state, seat, action, now)
    except IllegalAction:
        accepted = False
    except Exception as error:
        raise AssertionError(
            f"{game.name}: seat {seat!r} acting {action!r} raised {type(error).__name__}: {error}"
        ) from error
    else:
        accepted = True
        valid_seat = type(seat) is int and 0 <= seat < len(state.players)
        legal = game.legal_actions(state, seat) if valid_seat else []
        assert matches_legal(action, legal), (
            f"{game.name}: seat {seat!r}'s action {action!r} was accepted but is not legal"
        )
    if compare:
        assert state == before, f"{game.name}: {action!r} changed the state"
    return accepted


JUNK: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    1.5,
    float("nan"),
    2**63,
    -(2**63),
    10**30,
    "",
    "1",
    "x" * 5000,
    "\x00\x1b[2J",
    [],
    [[[[]]]],
    {},
    {"type": {"type": "play"}},
    b"\xff",
)
"""Values that are wrong for almost any field of any action."""


def malformed_actions(legal: list[dict[str, Any]], types: Iterable[str]) -> list[Any]:
    """Non-maps, unknown types, and each legal action with one field broken or missing."""
    actions: list[Any] = [None, 1, "play", [], [{"type": "play"}], b"type", True, 1.5]
    actions += [{}, {"type": None}, {"type": 1}, {"type": ["play"]}, {"type": "fly"}]
    actions += [{"type": kind.upper()} for kind in types]
    actions += [{"type": kind} for kind in types]  # fields missing
    for action in legal[:4]:
        for key in action:
            if key == "type":
                continue
            missing = {k: v for k, v in action.items() if k != key}
            actions.append(missing)
            actions.extend({**action, key: junk} for junk in JUNK)
            value = action[key]
            if type(value) is int:
                actions += [{**action, key: v} for v in (value + 1000, -value - 1, float(value))]
                actions.append({**action, key: bool(value)})
            if isinstance(value, str):
                actions += [{**action, key: value.upper() + "?"}, {**action, key: [value]}]
    return actions


# --------------------------------------------------------------------------- secrecy


def leaks(value: Any, secrets: Secrets) -> dict[str, str]:
    """The secrets that ``value`` gives away: a code as a whole string, or words inside text."""
    if not secrets:
        return {}
    found = strings(value)
    text = "\n".join(found)
    return {code: words for code, words in secrets.items() if code in found or words in text}


def where(value: Any, secrets: Mapping[str, str]) -> list[str]:
    """Where inside ``value`` the leaked ``secrets`` occur, one line per place (lists folded)."""
    places: dict[str, list[str]] = {}

    def walk(item: Any, path: str) -> None:
        if isinstance(item, str):
            hits = [code for code, words in secrets.items() if item == code or words in item]
            if hits:
                places.setdefault(path, []).append(f"{item[:60]!r} ({', '.join(hits)})")
            if path.endswith(":key"):
                return
        elif isinstance(item, dict):
            for key, member in item.items():
                walk(key, f"{path}.{key}:key")
                walk(member, f"{path}.{key}")
        elif isinstance(item, list | tuple):
            for member in item:
                walk(member, f"{path}[]")

    walk(value, "")
    return [
        f"{path}: {found[0]}" + (f" and {len(found) - 1} more" if len(found) > 1 else "")
        for path, found in places.items()
    ]


def check_hidden_shape(game: Game[Any], secrets: Any) -> None:
    assert isinstance(secrets, Mapping), f"{game.name}.hidden returns {type(secrets).__name__}"
    for code, words in secrets.items():
        assert isinstance(code, str) and code, f"{game.name}.hidden: code {code!r}"
        assert isinstance(words, str) and words, f"{game.name}.hidden: words for {code!r}"


def check_secrecy(
    game: Game[Any], state: Any, events: list[Event], *, whole_log: bool = True
) -> int:
    """Nothing ``hidden`` names for a seat (or a spectator) is in its view or events.

    A view's ``log`` is left out of the scan: its lines are the texts of
    events this seat was sent when they happened, each checked then, against
    what was hidden then (:func:`check_log_is_its_events` holds the games to
    that). Scanning old lines against today's secrets would flag a card named
    in an earlier round that the shuffle has since dealt to someone else.
    ``whole_log`` is kept for callers; it changes nothing now.
    Returns how many secrets were checked (so a caller can tell the check was not empty).
    """
    checked = 0
    for seat in [None, *range(len(state.players))]:
        secrets = game.hidden(state, seat)
        check_hidden_shape(game, secrets)
        if not secrets:
            continue
        checked += len(secrets)
        who = "the spectator" if seat is None else f"seat {seat}"
        view = dict(game.view(state, seat))
        shown_log = view.pop("log")
        assert shown_log == state.log_view(seat), f"{game.name}: {who}'s log is not its events"
        received: dict[str, Any] = {
            "view": view,
            "events": [event.to_data() for event in events if event.visible_to(seat)],
        }
        leaked = leaks(received, secrets)
        assert not leaked, f"{game.name}: {who} is shown what it must not see: " + "; ".join(
            where(received, leaked)
        )
    return checked


def check_log_is_its_events(playout: Playout) -> None:
    """Every log entry of every state was an event of the step that made it (or of the setup).

    This is what lets :func:`check_secrecy` check log lines once, as events:
    a game that wrote a line into its log without sending it as an event
    (seen by nobody when it happened, scanned by nobody since) fails here.
    """
    sent = {id(event) for event in playout.first.log}
    for step in playout.steps:
        sent.update(id(event) for event in step.events)
        unsent = [event.text for event in step.state.log if id(event) not in sent]
        assert not unsent, f"{playout.game.name}: log lines never sent as events: {unsent[:3]}"


def check_reveals(playout: Playout) -> None:
    """Real-time: reveal ids only grow and are ``None`` once over; turn-based: always ``None``."""
    game = playout.game
    last: int | None = None
    for state, _ in playout.states():
        reveal = game.reveal(state)
        if not game.realtime or game.outcome(state) is not None:
            assert reveal is None, f"{game.name}: reveal {reveal} (over or turn-based)"
            continue
        if reveal is not None:
            assert type(reveal) is int
            assert last is None or reveal >= last, f"{game.name}: reveal {last} -> {reveal}"
            last = reveal

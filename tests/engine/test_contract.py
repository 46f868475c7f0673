"""One contract suite for every registered game (``registry.names()``), every player count.

A new game gets all of this by being registered. For each game and player
count, a few seeded random games (:func:`tests.contract.play`) are recorded
once and checked:

- determinism and exact replay from (players, seed, options, actions);
- ``to_data``/``from_data`` and msgpack (as the journal stores it) at every step;
- every legal action of every seat is accepted (on a copy; big lists sampled),
  and ``apply`` never changes its input;
- malformed and illegal actions (non-maps, unknown types, broken fields, huge
  numbers, bools for ints, bad seats, other games' and other seats' actions,
  anything after the end), hand-made and from hypothesis, raise
  :class:`IllegalAction` and change nothing, or are legal actions;
- fuzzed options and player lists raise :class:`InvalidOptions` or give a
  playable game; nothing else is raised;
- views: the common keys with their types, ``phase == "over"`` iff there is an
  outcome, spectators and idle seats have no legal actions, views, legal
  actions and events survive a wire frame;
- secrecy: what ``hidden(state, seat)`` names never reaches that seat (or the
  spectator) in its view, the events of the step, or its log; real-time
  reveal ids only grow and end with the game; timers fire as the host fires them.

The checks are in :mod:`tests.contract`; at the end, a leaky copy of every game
(one secret in its view, one in an event) proves that the secrecy check catches a leak.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import registry
from engine.core import BaseView, Event, Game, InvalidOptions, Option, Rng, Seat, clone
from tests.contract import (
    JUNK,
    Playout,
    check_legal_accepted,
    check_log_is_its_events,
    check_refused_or_legal,
    check_replay,
    check_reveals,
    check_round_trip,
    check_secrecy,
    check_view,
    check_view_type,
    malformed_actions,
    on_the_wire,
    packed_round_trip,
    play,
    players_for,
)

GAMES = registry.names()

WORK = 400
"""Roughly how many steps are recorded per game, spread over its player counts and seeds
(each count's first game is played to its end whatever it costs)."""
ROUND_TRIPS = 100
"""How many recorded states per game go through ``to_data``, msgpack and ``from_data``
(every step of small games; a regular sample of long ones: ``to_data`` of a state with
a full log takes milliseconds)."""
MAX_SEEDS = 3
MAX_STEPS = 1000

KNOWN_BUGS: dict[tuple[str, str], str] = {}
"""``(test, game)`` -> why that game is expected to fail that test (a strict xfail)."""


def known_bug(test: str, name: str) -> list[pytest.MarkDecorator]:
    reason = KNOWN_BUGS.get((test, name))
    return [] if reason is None else [pytest.mark.xfail(strict=True, reason=reason)]


def cases(test: str) -> list[Any]:
    """``(game, players)`` for every registered game and player count."""
    return [
        pytest.param(name, count, id=f"{name}-{count}", marks=known_bug(test, name))
        for name in GAMES
        for count in range(registry.get(name).min_players, registry.get(name).max_players + 1)
    ]


def game_cases(test: str) -> list[Any]:
    return [pytest.param(name, id=name, marks=known_bug(test, name)) for name in GAMES]


def options_for(game: Game[Any], seed: int) -> dict[str, Any]:
    """Seed 0 plays the defaults; other seeds vary every option within its spec."""
    if seed == 0:
        return {}
    rng = Rng.from_seed(seed)
    options: dict[str, Any] = {}
    for spec in game.option_specs:
        if spec.kind is bool:
            options[spec.name] = rng.below(2) == 1
        elif spec.kind is int:
            low = spec.default if spec.minimum is None else spec.minimum
            options[spec.name] = rng.choice([spec.default, low])
        elif spec.kind is str and spec.choices:
            options[spec.name] = rng.choice(spec.choices)
    return options


def per_count(game: Game[Any], work: int) -> int:
    """``work`` shared among the player counts of ``game``."""
    return max(1, work // (game.max_players - game.min_players + 1))


@functools.cache
def playouts(name: str, count: int) -> tuple[Playout, ...]:
    """The recorded games of ``name`` with ``count`` players (shared by the tests)."""
    game = registry.get(name)
    budget = per_count(game, WORK)
    games: list[Playout] = []
    used = 0
    for seed in range(MAX_SEEDS):
        if games and used >= budget:
            break
        # The first game is played to its end; more seeds only while the budget lasts.
        steps = MAX_STEPS if not games else max(20, min(MAX_STEPS, budget - used))
        playout = play(game, players_for(count), seed, options_for(game, seed), max_steps=steps)
        used += len(playout.steps) + 1
        games.append(playout)
    return tuple(games)


def states(name: str, count: int) -> Iterator[tuple[Playout, Any, list[Event]]]:
    for playout in playouts(name, count):
        for state, events in playout.states():
            yield playout, state, events


# --------------------------------------------------------------------------- replay and data


@pytest.mark.parametrize(("name", "count"), cases("replay"))
def test_replay_is_exact(name: str, count: int) -> None:
    finished = 0
    for playout in playouts(name, count):
        check_replay(playout)
        finished += playout.game.outcome(playout.final) is not None
    assert finished, f"{name} with {count}: no recorded game reached its end"


@pytest.mark.parametrize(("name", "count"), cases("round_trip"))
def test_state_round_trips_at_every_step(name: str, count: int) -> None:
    game = registry.get(name)
    recorded = [step for playout in playouts(name, count) for step in playout.steps]
    every = max(1, len(recorded) // per_count(game, ROUND_TRIPS))
    check_round_trip(game, playouts(name, count)[0].first)
    for step in recorded[::every]:
        check_round_trip(game, step.state)
        seat, action, now = step.entry
        if seat is not None and action is not None:
            # A state loaded from the journal's bytes plays on exactly like the original.
            loaded = game.from_data(packed_round_trip(game.to_data(step.before)))
            ticked, _ = game.tick(loaded, now)
            after, events = game.apply(ticked, seat, action, now)
            assert after == step.state
            assert events == step.events[len(step.events) - len(events) :]


# --------------------------------------------------------------------------- actions


@pytest.mark.parametrize(("name", "count"), cases("legal"))
def test_every_legal_action_is_accepted(name: str, count: int) -> None:
    game = registry.get(name)
    rng = Rng.from_seed(count)
    applied = 0
    for playout, state, _ in states(name, count):
        now = playout.steps[-1].entry[2] if playout.steps else 0.0
        applied += check_legal_accepted(game, state, now, rng)
    assert applied


def other_games_actions(name: str) -> list[dict[str, Any]]:
    """Legal actions of every other registered game (at its start)."""
    found: list[dict[str, Any]] = []
    for other in GAMES:
        if other == name:
            continue
        game = registry.get(other)
        state = game.new_game(players_for(game.min_players), 1)
        for seat in range(game.min_players):
            found.extend(game.legal_actions(state, seat)[:3])
    return found


BAD_SEATS: tuple[Any, ...] = (-1, -(2**63), 2**63, 99, True, False, None, "0", 0.0, [0])


WHOLE_LOG_EVERY = 10
"""Every this many states the secrecy check also scans each seat's whole log, not only the
newest lines its view carries."""
ILLEGAL_STATES = 12
"""How many recorded states of each game (shared among its player counts, at least one
each) get the whole malformed battery."""


@pytest.mark.parametrize(("name", "count"), cases("illegal"))
def test_malformed_and_illegal_actions_are_refused(name: str, count: int) -> None:
    game = registry.get(name)
    foreign = other_games_actions(name)
    types = {a["type"] for p in playouts(name, count) for _, a in p.legal_seen()}
    recorded = list(states(name, count))
    every = max(1, len(recorded) // per_count(game, ILLEGAL_STATES))
    refused = 0
    for playout, state, _ in recorded[::every]:
        before = game.to_data(state)
        now = playout.steps[-1].entry[2] + 1.0 if playout.steps else 1.0
        legal = {seat: game.legal_actions(state, seat) for seat in range(count)}
        acting = [seat for seat in range(count) if legal[seat]]
        idle = [seat for seat in range(count) if not legal[seat]]
        for seat in {*acting[:1], *idle[:1], count - 1}:
            others = [a for other in range(count) if other != seat for a in legal[other][:10]]
            for action in [*malformed_actions(legal[seat], types), *foreign, *others]:
                refused += not check_refused_or_legal(game, state, seat, action, now, compare=False)
        some = [action for seat in range(count) for action in legal[seat][:2]]
        for seat in BAD_SEATS:
            for action in some[:3]:
                assert not check_refused_or_legal(game, state, seat, action, now, compare=False)
        assert game.to_data(state) == before, f"{name}: refusing actions changed the state"
    assert refused


@pytest.mark.parametrize(("name", "count"), cases("after_end"))
def test_nothing_is_accepted_after_the_end(name: str, count: int) -> None:
    game = registry.get(name)
    for playout in playouts(name, count):
        final = playout.final
        if game.outcome(final) is None:
            continue
        played = [action for _, action in playout.legal_seen()][-20:]
        before = clone(final)
        for seat in range(count):
            assert game.legal_actions(final, seat) == []
            for action in played:
                assert not check_refused_or_legal(game, final, seat, action, 1e9, compare=False)
        assert final == before


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**64), max_value=2**64)
    | st.floats()
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def fuzzed_actions(draw: st.DrawFn, name: str) -> tuple[Any, Any, Any]:
    """A recorded state of ``name``, a seat (sometimes absurd) and an action near a legal one."""
    game = registry.get(name)
    count = draw(st.integers(game.min_players, game.max_players))
    recorded = playouts(name, count)
    playout = recorded[draw(st.integers(0, len(recorded) - 1))]
    all_states = [state for state, _ in playout.states()]
    state = all_states[draw(st.integers(0, len(all_states) - 1))]
    seat = draw(st.integers(-2, count + 1) | st.sampled_from(BAD_SEATS))
    legal = [a for s in range(count) for a in game.legal_actions(state, s)[:30]]
    played = [a for _, a in playout.legal_seen()][:30]
    keys = sorted({key for action in [*legal, *played] for key in action} | {"type"})
    types = sorted({str(action["type"]) for action in [*legal, *played]}) or ["play"]
    base: Any = draw(st.sampled_from([*legal, *played])) if legal or played else {}
    action = draw(
        st.one_of(
            json_values,
            st.dictionaries(st.sampled_from(keys), json_values, max_size=4).map(
                lambda extra: {**base, **extra}
            ),
            st.dictionaries(
                st.sampled_from(keys) | st.text(max_size=6),
                json_values | st.sampled_from(types),
                max_size=5,
            ),
            st.tuples(st.sampled_from(types), st.sampled_from(JUNK)).map(
                lambda pair: {key: pair[1] for key in keys} | {"type": pair[0]}
            ),
        )
    )
    return state, seat, action


@pytest.mark.parametrize("name", game_cases("hypothesis_actions"))
def test_fuzzed_actions_are_refused_or_legal(name: str) -> None:
    game = registry.get(name)

    @settings(
        max_examples=60,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(fuzzed_actions(name))
    def attempt(case: tuple[Any, Any, Any]) -> None:
        state, seat, action = case
        check_refused_or_legal(game, state, seat, action, 1.0)

    attempt()


# --------------------------------------------------------------------------- options and players


def option_values(spec: Option) -> list[Any]:
    """Right and wrong values for one option spec."""
    values: list[Any] = [*JUNK, "5", " 5 ", "5.0", "yes", "off", "maybe", [1], [None]]
    values += [["x"], [["x"]], [["x"], "y"], [[]], [[], []], "/", " , ", ["a", ["b"]], {"a": 1}]
    values += [float("inf"), -0.0, 2.0, ("a", "b"), [[[]]] * 3]
    if spec.kind is int:
        for bound in (spec.minimum, spec.maximum, spec.default):
            if isinstance(bound, int):
                values += [bound, bound - 1, bound + 1, str(bound), float(bound)]
    if spec.choices:
        values += [*spec.choices, *(choice.upper() for choice in spec.choices)]
    return values


@pytest.mark.parametrize("name", game_cases("options"))
def test_fuzzed_options_are_refused_or_playable(name: str) -> None:
    game = registry.get(name)
    players = players_for(game.min_players)
    trials: list[Any] = [None, {}, [], "target=5", 5, {"no_such_option": 1}, {1: 2}, {None: 1}]
    trials += [{"": 0}, {"deck": []}, {"deck": [[]]}, {"deck": [[], []]}, {"deck": [["x"], []]}]
    for spec in game.option_specs:
        trials += [{spec.name: value} for value in option_values(spec)]
    accepted = 0
    for options in trials:
        accepted += playable_or_refused(game, players, options)
    assert accepted


def playable_or_refused(game: Game[Any], players: list[str], options: Any) -> bool:
    """``new_game`` refuses ``options`` with :class:`InvalidOptions`, or the game plays a while."""
    try:
        game.new_game(players, 3, options)
    except InvalidOptions:
        return False
    except Exception as error:
        raise AssertionError(
            f"{game.name}: options {options!r} raised {type(error).__name__}: {error}"
        ) from error
    playout = play(game, players, 3, options, max_steps=8)
    for state, events in playout.states():
        for seat in (None, 0):
            check_view(game, state, seat)
        if ("secrecy", game.name) not in KNOWN_BUGS:
            check_secrecy(game, state, events)
    check_replay(playout)
    return True


@pytest.mark.parametrize("name", game_cases("hypothesis_options"))
def test_hypothesis_options(name: str) -> None:
    game = registry.get(name)
    names = [spec.name for spec in game.option_specs]
    specs = {spec.name: spec for spec in game.option_specs}
    value_for = st.sampled_from(names).flatmap(
        lambda key: st.tuples(
            st.just(key), st.sampled_from(option_values(specs[key])) | json_values
        )
    )

    @settings(max_examples=40, deadline=None, derandomize=True, database=None)
    @given(
        st.lists(value_for, max_size=4).map(dict)
        | st.dictionaries(st.text(max_size=8), json_values, max_size=3)
    )
    def attempt(options: dict[str, Any]) -> None:
        playable_or_refused(game, players_for(game.min_players), options)

    attempt()


@pytest.mark.parametrize("name", game_cases("players"))
def test_wrong_player_lists_are_refused(name: str) -> None:
    game = registry.get(name)
    low, high = game.min_players, game.max_players
    wrong: list[Any] = [
        [],
        players_for(low - 1),
        [*players_for(high), "Zed", "Zoe"][: high + 1],
        ["Ann", "Ann", *players_for(high)[2:low]],
        ["", *players_for(low)[1:]],
        ["   ", *players_for(low)[1:]],
        [None, *players_for(low)[1:]],
        [1, *players_for(low)[1:]],
        [b"Ann", *players_for(low)[1:]],
        [["Ann"], *players_for(low)[1:]],
        ["x" * 33, *players_for(low)[1:]],
        "AnnBea",
        None,
        5,
        dict.fromkeys(players_for(low), 1),
    ]
    for players in wrong:
        with pytest.raises(InvalidOptions):
            game.new_game(players, 1)
    bad_seeds: list[Any] = ["1", 1.5, None, True, [1]]
    for seed in bad_seeds:
        with pytest.raises(InvalidOptions):
            game.new_game(players_for(low), seed)
    for seed in (-5, 2**200, 0):
        game.new_game(players_for(low), seed)
    game.new_game(tuple(players_for(high)), 1)


# --------------------------------------------------------------------------- views and secrecy


@pytest.mark.parametrize(("name", "count"), cases("views"))
def test_views_have_the_common_keys(name: str, count: int) -> None:
    game = registry.get(name)
    for index, (_, state, events) in enumerate(states(name, count)):
        for seat in [None, *range(count)]:
            check_view(game, state, seat, frame=index % 5 == 0)
        assert on_the_wire({"events": [event.to_data() for event in events]}) is not None


@pytest.mark.parametrize(("name", "count"), cases("view_type"))
def test_views_are_of_the_games_view_type(name: str, count: int) -> None:
    """Every view of every seat (and the spectator) has exactly the keys of the game's
    ``view_type``, nested maps included, with values of the declared types: the type the
    game's screen reads views through is what the engine sends (the host adds nothing
    to a view: its own fields are beside it in the ``view`` message)."""
    game = registry.get(name)
    assert game.view_type is not BaseView, f"{name}: declare its view type (Game.view_type)"
    checked = 0
    for _, state, _ in states(name, count):
        for seat in [None, *range(count)]:
            check_view_type(game, game.view(state, seat))
            checked += 1
    assert checked


@pytest.mark.parametrize(("name", "count"), cases("secrecy"))
def test_nothing_hidden_reaches_a_seat(name: str, count: int) -> None:
    game = registry.get(name)
    checked = 0
    for index, (_, state, events) in enumerate(states(name, count)):
        checked += check_secrecy(game, state, events, whole_log=index % WHOLE_LOG_EVERY == 0)
    for playout in playouts(name, count):
        check_reveals(playout)
        check_log_is_its_events(playout)
    assert checked, f"{name}: hidden() never named anything, so nothing was checked"


@pytest.mark.parametrize(("name", "count"), cases("timers"))
def test_timers_fire_only_when_due(name: str, count: int) -> None:
    game = registry.get(name)
    ticks = 0
    for _, state, _ in states(name, count):
        deadline = game.deadline(state)
        if deadline is None:
            later, events = game.tick(state, 1e12)
            assert events == [] and later == state, f"{name}: a timer fired with no deadline"
            continue
        early, events = game.tick(state, deadline - 0.001)
        assert events == [] and early == state, f"{name}: a timer fired before its deadline"
        ticks += 1
    timed = any(seat is None for p in playouts(name, count) for seat, _, _ in p.entries)
    assert not timed or ticks, f"{name}: timers fired but no state had a deadline"


# --------------------------------------------------------------------------- leaks are caught


def another_seat(seat: Seat | None, count: int) -> Seat:
    """The seat after ``seat`` (seat 0 for the spectator)."""
    return 0 if seat is None else (seat + 1) % count


def one_secret(game: Game[Any], state: Any, seat: Seat | None) -> tuple[str, str] | None:
    """One ``(code, words)`` that ``seat`` must not see, preferably one another seat may see.

    What ``seat`` may not see but the next seat may is that seat's hand in a
    game with hands; a game whose secrets are the same for everyone (the deck
    under Black Cat's top card) gives one of those. ``None`` when nothing is hidden.
    """
    secrets = game.hidden(state, seat)
    if not secrets:
        return None
    theirs = game.hidden(state, another_seat(seat, len(state.players)))
    code = next((code for code in secrets if code not in theirs), next(iter(secrets)))
    return code, secrets[code]


def view_leaking(game: Game[Any]) -> Game[Any]:
    """A copy of ``game`` (a subclass, same rules) whose view shows each seat one secret.

    Built from the game's class alone, so every registered game gets one with
    no code of its own: the secrecy check is proven on each, not on a sample.
    """
    base = type(game)

    def _view(self: Game[Any], state: Any, seat: Seat | None) -> dict[str, Any]:
        view: dict[str, Any] = base._view(self, state, seat)
        secret = one_secret(self, state, seat)
        view["leak"] = None if secret is None else secret[0]
        return view

    leaky: Game[Any] = type(f"ViewLeaking{base.__name__}", (base,), {"_view": _view})()
    return leaky


def event_leaking(game: Game[Any]) -> Game[Any]:
    """A copy of ``game`` that, after each action, tells everyone in an event one secret.

    The event names it in words only (as a sentence would), so the check's
    search inside text is what must catch it.
    """
    base = type(game)

    def _apply(
        self: Game[Any], state: Any, seat: Seat, action: Any, now: float, events: list[Event]
    ) -> None:
        base._apply(self, state, seat, action, now, events)
        secret = one_secret(self, state, None) or one_secret(self, state, seat)
        if secret is not None:
            state.record(events, "hint", f"Psst: {secret[1]}")

    leaky: Game[Any] = type(f"EventLeaking{base.__name__}", (base,), {"_apply": _apply})()
    return leaky


LEAK_STEPS = 60
"""How long a leaky game is played: a leak shows within the first few steps."""


def check_whole_game(game: Game[Any], seed: int = 1) -> None:
    """The secrecy check over a seeded game of ``game`` with its fewest players."""
    playout = play(game, players_for(game.min_players), seed, max_steps=LEAK_STEPS)
    for state, events in playout.states():
        check_secrecy(game, state, events)
    check_log_is_its_events(playout)


@pytest.mark.parametrize("name", game_cases("leaks"))
def test_the_secrecy_check_catches_a_leaky_copy_of_every_game(name: str) -> None:
    game = registry.get(name)
    check_whole_game(game)  # the real game passes the very check its leaky copies fail
    with pytest.raises(AssertionError, match=r"must not see: \.view\.leak: "):
        check_whole_game(view_leaking(game))
    with pytest.raises(AssertionError, match=r"must not see: \.events\[\]\.text: 'Psst: "):
        check_whole_game(event_leaking(game))

"""1,000 seeded random Catchy! games, checking invariants after every action.

- all 17 cards are accounted for at every moment of a round;
- no card hidden from a seat (the other hand, the face-down course) appears in
  that seat's view or in any event it can see, and a spectator sees neither;
- scores move only at round ends, by the rulebook's amounts (3, 2, or 1 each);
- the game ends exactly when someone reaches the target, winners are the top scores;
- ``(seed, options, actions)`` replays the game exactly, and states survive msgpack.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgpack

from engine.bots import RandomBot
from engine.core import Event, Rng, replay
from engine.games.catchy.rules import (
    ALL_CARDS,
    GAME,
    STARTING,
    TRICKS_PER_ROUND,
    CatchyState,
    card_name,
)
from tests.secrecy import mentions as mentions_of

GAMES = 400
ROUND_POINTS = {(3, 0), (0, 3), (2, 0), (0, 2), (1, 1)}


def mentions(value: Any, cards: set[str]) -> set[str]:
    return mentions_of(value, cards, card_name)


def hidden_course(state: CatchyState) -> set[str]:
    return {card for card in state.course if card != STARTING}


def check_cards(state: CatchyState) -> None:
    played = [card for trick in state.tricks for card in trick.cards]
    every = [*state.hands[0], *state.hands[1], *state.course, *state.trick, *played]
    assert Counter(every) == Counter(ALL_CARDS)


def check_views(state: CatchyState) -> None:
    for seat in (0, 1):
        view = GAME.view(state, seat)
        current = {k: v for k, v in view.items() if k not in ("log", "last_round")}
        hidden = (set(state.hands[1 - seat]) | hidden_course(state)) - {STARTING}
        assert not mentions(current, hidden), (seat, mentions(current, hidden))
        assert sorted(view["hand"]) == sorted(state.hands[seat])
    spectator = GAME.view(state, None)
    current = {k: v for k, v in spectator.items() if k not in ("log", "last_round")}
    hidden = {*state.hands[0], *state.hands[1], *hidden_course(state)} - {STARTING}
    assert not mentions(current, hidden)


def check_events(
    before: CatchyState, after: CatchyState, card: str | None, events: list[Event]
) -> None:
    """A step reveals the card just played, the taken course card to its taker only,
    and the course at the round's end; nothing else that was hidden."""
    ended = any(event.kind == "round_end" for event in events)
    for viewer in (0, 1, None):
        others = [before.hands[1 - viewer]] if viewer is not None else before.hands
        hidden = (hidden_course(before) | {c for hand in others for c in hand}) - {card, STARTING}
        if viewer is not None and not ended:
            hidden -= set(after.hands[viewer])
        visible = [e.to_data() for e in events if e.visible_to(viewer)]
        cut = next((i for i, e in enumerate(visible) if e["kind"] == "round_end"), len(visible))
        assert not mentions(visible[:cut], hidden), (viewer, visible)
        assert not mentions(visible[cut:], hidden - set(before.course)), (viewer, visible)


def playout(seed: int) -> tuple[CatchyState, list[tuple[int, dict[str, Any], float]]]:
    state = GAME.new_game(["Ann", "Bea"], seed)
    bots = [RandomBot(Rng.from_seed(seed * 2 + seat)) for seat in (0, 1)]
    actions: list[tuple[int, dict[str, Any], float]] = []
    check_cards(state)
    check_views(state)
    while GAME.outcome(state) is None:
        seat = state.turn
        assert GAME.legal_actions(state, 1 - seat) == []
        action = bots[seat].choose(GAME.view(state, seat))
        assert action is not None
        before = state
        now = float(len(actions))
        state, events = GAME.apply(state, seat, action, now)
        state, dealt = GAME.tick(state, now)  # the next round's deal, as the host fires it
        events += dealt
        actions.append((seat, action, now))
        check_events(before, state, action.get("card"), events)
        ended = [e for e in events if e.kind == "round_end"]
        gained = (state.scores[0] - before.scores[0], state.scores[1] - before.scores[1])
        if ended:
            assert gained in ROUND_POINTS
            assert len(before.tricks) + 1 <= TRICKS_PER_ROUND
        else:
            assert gained == (0, 0)
        assert abs(state.cat) <= state.options["arms"]
        if GAME.outcome(state) is None:
            assert max(state.scores) < state.options["target"]
            check_cards(state)
            check_views(state)
    return state, actions


def test_random_playouts_keep_every_invariant() -> None:
    for seed in range(GAMES):
        state, actions = playout(seed)
        outcome = GAME.outcome(state)
        assert outcome is not None
        assert max(outcome.scores) >= 7
        assert set(outcome.winners) == {s for s in (0, 1) if state.scores[s] == max(state.scores)}
        assert state.round <= 13
        if seed % 50 == 0:
            assert replay(GAME, ["Ann", "Bea"], seed, None, actions) == state
            packed = msgpack.packb(GAME.to_data(state))
            assert GAME.from_data(msgpack.unpackb(packed)) == state

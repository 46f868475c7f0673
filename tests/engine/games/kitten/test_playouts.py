"""Seeded random Kitten Me! games (2-10 players, every deck), checked after every action.

- every card of the deck is in a hand, in the deck or played face up, at every moment;
- the deck always keeps a card to flip; hands are dealt at their deal sizes;
- no card a seat may not see (another hand, the deck, cards drawn or handed over
  between others) appears in that seat's view or events, and a spectator sees none:
  checked against the game's own ``hidden`` and against the state directly;
- scores are the deal sizes; they move only at a reveal, as the reveal says;
- every game ends with one player holding cards, its winner;
- ``(seed, options, actions)`` replays the game exactly, and states survive msgpack.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgpack
import pytest

from engine.bots import RandomBot
from engine.core import Event, Rng, replay
from engine.games.kitten.cards import card_name, deck, is_card
from engine.games.kitten.rules import GAME, KittenState
from tests.secrecy import strings

DECK_SETS = ("base", "deluxe", "both")
CASES = [(seed, 2 + seed % 9, DECK_SETS[seed // 9 % 3]) for seed in range(27)]
"""Every player count with every deck."""
MAX_ACTIONS = 3000


def played_codes(state: KittenState) -> list[str]:
    return [entry["card"] for entry in state.played]


def check_cards(state: KittenState) -> None:
    every = [*state.deck, *(c for hand in state.hands for c in hand), *played_codes(state)]
    assert Counter(every) == Counter(deck(state.options["deck_set"]))
    assert len(state.deck) >= 1
    assert GAME.scores(state) == state.deal_sizes


def check_fresh_deal(state: KittenState) -> None:
    assert [len(hand) for hand in state.hands] == state.deal_sizes
    assert state.bids == [] and state.played == []


def allowed_codes(before: KittenState, after: KittenState, seat: int | None) -> set[str]:
    """Codes ``seat`` may meet in this step: its own hands, face-up specials, the cards
    it drew or that changed hands with it, a reveal."""
    allowed = set(played_codes(before)) | set(played_codes(after))
    if seat is not None:
        allowed |= set(before.hands[seat]) | set(after.hands[seat])
        for entry in after.played:
            if seat in (entry["seat"], entry.get("target")):
                allowed |= set(entry.get("cards", ()))
    if after.last_reveal is not None and after.last_reveal is not before.last_reveal:
        allowed |= set(strings(after.last_reveal))
    return allowed


def check_secrecy(before: KittenState, after: KittenState, events: list[Event]) -> None:
    for seat in [*range(len(after.players)), None]:
        view = GAME.view(after, seat)
        # Bids carry a count and a thing, never a card: skip them to keep the scan quick.
        scanned = {**view, "legal": [a for a in view["legal"] if a["type"] != "bid"]}
        assert all(
            set(a) == {"type", "count", "thing"} for a in view["legal"] if a["type"] == "bid"
        )
        visible = [event.to_data() for event in events if event.visible_to(seat)]
        current = strings({k: v for k, v in scanned.items() if k not in ("last_reveal", "log")})
        seen = current | strings([scanned["last_reveal"], scanned["log"], visible])
        text = " ".join([*view["log"], *(event["text"] for event in visible)])
        # The game's own statement of this seat's secrets holds...
        for code, words in GAME.hidden(after, seat).items():
            assert code not in seen, (seat, code)
            assert words not in text, (seat, words)
        # ...and, directly: no card code reaches the seat unless it may see it.
        codes = {item for item in current | strings(visible) if is_card(item)}
        assert codes <= allowed_codes(before, after, seat), (seat, codes)
        if seat is None:
            assert view["hand"] is None and view["legal"] == []
        else:
            assert sorted(view["hand"]) == sorted(after.hands[seat])
            for shown, entry in zip(view["played"], after.played, strict=True):
                involved = seat in (entry["seat"], entry.get("target"))
                assert ("cards" in shown) == (involved and "cards" in entry)


def check_scores(before: KittenState, after: KittenState) -> None:
    if after.last_reveal is before.last_reveal or after.last_reveal == before.last_reveal:
        assert after.deal_sizes == before.deal_sizes
        return
    reveal = after.last_reveal
    assert reveal is not None
    expected = list(before.deal_sizes)
    for change in reveal["changes"]:
        expected[change["seat"]] += change["delta"]
    assert after.deal_sizes == expected == reveal["deal_sizes"]
    assert [change["delta"] for change in reveal["changes"]].count(-1) == 1
    assert sum(after.deal_sizes) <= len(deck(after.options["deck_set"])) - 1


def playout(
    seed: int, players: int, deck_set: str
) -> tuple[KittenState, list[tuple[int | None, dict[str, Any] | None, float]], dict[str, Any]]:
    names = [f"P{seat}" for seat in range(players)]
    options = {"deck_set": deck_set, "purrfect": seed % 2 == 0, "max_bid": 12 + seed % 20}
    state = GAME.new_game(names, seed, options)
    bots = [RandomBot(Rng.from_seed(seed * 17 + seat)) for seat in range(players)]
    entries: list[tuple[int | None, dict[str, Any] | None, float]] = []
    check_cards(state)
    check_fresh_deal(state)
    for step in range(MAX_ACTIONS):
        if GAME.outcome(state) is not None:
            break
        seat = state.turn
        assert all(
            GAME.legal_actions(state, other) == [] for other in range(players) if other != seat
        )
        action = bots[seat].choose(GAME.view(state, seat))
        assert action is not None
        after, events = GAME.apply(state, seat, action, float(step))
        entries.append((seat, action, float(step)))
        check_cards(after)
        check_scores(state, after)
        check_secrecy(state, after, events)
        if after.round != state.round:
            check_fresh_deal(after)
        state = after
    return state, entries, options


@pytest.mark.parametrize(("seed", "players", "deck_set"), CASES)
def test_random_playout_keeps_every_invariant(seed: int, players: int, deck_set: str) -> None:
    state, entries, options = playout(seed, players, deck_set)
    outcome = GAME.outcome(state)
    assert outcome is not None, "the game did not end"
    alive = [seat for seat, size in enumerate(state.deal_sizes) if size]
    assert outcome.winners == tuple(alive) and len(alive) == 1
    assert list(outcome.scores) == state.deal_sizes
    assert GAME.view(state, None)["phase"] == "over"
    assert replay(GAME, state.players, seed, options, entries) == state
    data = msgpack.unpackb(msgpack.packb(GAME.to_data(state)), strict_map_key=False)
    assert GAME.from_data(data) == state


def test_card_names_of_every_deck_are_distinct() -> None:
    names = {card_name(code) for code in set(deck("both"))}
    assert len(names) == len(set(deck("both")))

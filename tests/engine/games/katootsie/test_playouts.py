"""Katootsie! played by its bots the way the host plays it, checking secrecy and invariants.

The driver (:func:`playout`) is a small host: while a moment is open, every
bot that may claim chooses once and the fastest claim (by ``reaction_s``,
measured from the moment's opening) is applied; claims closer than the
table's ``tie_ms`` reach the engine as the host's ``tie`` action; votes are
applied at the table's pace; otherwise the next timer fires.

Secrecy: besides ``hidden()`` (card ids, unrevealed categories), every view,
event and log line is searched for the *order* of the letter pile: the next
letters, written as a run ("BCD", "B C D", "B, C, D" or a list).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.bots import make_bot
from engine.core import Event
from engine.games.katootsie.rules import GAME, TIE_ACTION, KatootsieState, letter_of
from tests.contract import check_secrecy, check_view
from tests.secrecy import strings

RUN = 4
"""How many upcoming letters make a run that must never be sent."""


def upcoming_runs(state: KatootsieState) -> list[str]:
    letters = [letter_of(card) for card in state.letter_cards[:RUN]]
    if len(letters) < RUN:
        return []
    return ["".join(letters), " ".join(letters), ", ".join(letters)]


def check_order_secret(state: KatootsieState, events: list[Event]) -> None:
    runs = upcoming_runs(state)
    for seat in [None, *range(len(state.players))]:
        view = GAME.view(state, seat)
        sent = [view, [event.to_data() for event in events if event.visible_to(seat)]]
        texts = strings(sent)
        for run in runs:
            assert not any(run in text for text in texts if len(text) >= RUN), run
        next_letters = [letter_of(card) for card in state.letter_cards[:RUN]]
        assert not _has_list(sent, next_letters)


def _has_list(value: Any, wanted: list[str]) -> bool:
    if isinstance(value, list):
        if len(wanted) > 1 and value[: len(wanted)] == wanted:
            return True
        return any(_has_list(item, wanted) for item in value)
    if isinstance(value, dict):
        return any(_has_list(item, wanted) for item in value.values())
    return False


def playout(
    seed: int, bots: list[str], options: dict[str, Any] | None = None, check: bool = True
) -> KatootsieState:
    players = [f"P{index}" for index in range(len(bots))]
    state = GAME.new_game(players, seed, options or {})
    agents = [make_bot("katootsie", name, seed * 31 + seat) for seat, name in enumerate(bots)]
    now = 0.0
    tie_s = state.options["tie_ms"] / 1000
    for _ in range(5000):
        if GAME.outcome(state) is not None:
            return state
        events: list[Event] = []
        moment = GAME.reveal(state)
        acted = False
        if moment is not None:
            claims = []
            for seat, bot in enumerate(agents):
                view = GAME.view(state, seat)
                action = bot.choose(view)
                if action is not None:
                    claims.append((bot.reaction_s, seat, action))
            claims.sort(key=lambda claim: (claim[0], claim[1]))
            deadline = GAME.deadline(state)
            opened = state.opened_at or now
            if claims and (deadline is None or opened + claims[0][0] < deadline):
                now = max(now, opened + claims[0][0])
                tied = [claim for claim in claims if claim[0] - claims[0][0] <= tie_s]
                if len(tied) > 1:
                    action = {
                        "type": TIE_ACTION,
                        "reveal": moment,
                        "claims": [{"seat": seat, "action": act} for _, seat, act in tied],
                    }
                    state, events = GAME.apply(state, tied[0][1], action, now)
                else:
                    state, events = GAME.apply(state, claims[0][1], claims[0][2], now)
                acted = True
        else:
            for seat, bot in enumerate(agents):
                action = bot.choose(GAME.view(state, seat))
                if action is not None:
                    now += bot.reaction_s
                    state, events = GAME.apply(state, seat, action, now)
                    acted = True
                    break
        if not acted:
            deadline = GAME.deadline(state)
            assert deadline is not None, "nobody acts and no timer is pending"
            now = max(now, deadline)
            state, events = GAME.tick(state, now)
        if check:
            check_secrecy(GAME, state, events)
            check_order_secret(state, events)
            for viewer in (None, 0):
                check_view(GAME, state, viewer)
        check_invariants(state)
    raise AssertionError("the game did not end")


def check_invariants(state: KatootsieState) -> None:
    won = sum(len(letters) for letters in state.won)
    assert won <= 52 * state.spare_piles  # never more letters than piles were shuffled
    pairs = zip(state.round_points, state.won, strict=True)
    assert all(sum(row) == len(letters) for row, letters in pairs)
    for owed in state.debts:
        assert all(0 <= seat < len(state.players) for seat in owed)
    assert len(set(state.letter_cards)) == len(state.letter_cards)


@pytest.mark.parametrize(
    ("seed", "bots"),
    [
        (1, ["expert", "casual", "casual"]),
        (2, ["expert", "expert"]),
        (3, ["casual", "casual", "expert", "casual", "expert"]),
    ],
)
def test_bots_play_whole_games_and_the_deck_order_never_leaves_the_host(
    seed: int, bots: list[str]
) -> None:
    state = playout(seed, bots)
    assert state.winners
    kinds = {event.kind for event in state.log}
    assert "answer" in kinds or "default" in kinds


def test_bot_games_have_calls_votes_and_ties() -> None:
    kinds: set[str] = set()
    for seed in range(4):
        state = playout(seed, ["expert", "expert", "casual", "casual"], {"tie_ms": 400}, False)
        kinds |= {event.kind for event in state.log}
    assert {"katootsie", "tie", "answer", "letter"} <= kinds


def test_the_same_seed_gives_the_same_bot_game() -> None:
    first = playout(5, ["expert", "casual"], check=False)
    again = playout(5, ["expert", "casual"], check=False)
    assert GAME.to_data(first) == GAME.to_data(again)


def test_experts_beat_casual_players() -> None:
    expert = casual = 0
    for seed in range(6):
        state = playout(seed, ["expert", "casual"], check=False)
        expert += len(state.won[0])
        casual += len(state.won[1])
    assert expert > casual


def test_bots_choose_legal_actions_and_vote_by_their_rule() -> None:
    from tests.engine.games.katootsie.helpers import table

    game = table(players=3)
    game.to_letter()
    bot = make_bot("katootsie", "expert", 1)
    view = game.view(1)
    action = bot.choose(view)
    assert action is None or action["type"] in {"answer", "katootsie"}
    if action is not None and action["type"] == "answer":
        assert action["text"][0].lower() == "b"
        assert action["reveal"] == view["reveal"]
    game.answer(0, "Bramble apple")  # unlisted; ends in a known answer's last word
    vote = bot.choose(game.view(1))
    assert vote == {"type": "vote", "accept": True}
    game.vote(1, True)
    game.vote(2, True)
    game.to_letter()
    game.answer(0, "Bbbzzt")
    assert bot.choose(game.view(1)) == {"type": "vote", "accept": False}


def test_a_bot_takes_longer_for_rare_letters() -> None:
    from engine.core import Rng
    from engine.games.katootsie.bot import ExpertBot

    bot = ExpertBot(Rng.from_seed(1))
    common = sum(bot.think_time(200) for _ in range(50))
    rare = sum(bot.think_time(2) for _ in range(50))
    assert rare > common

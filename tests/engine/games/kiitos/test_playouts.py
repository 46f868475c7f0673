"""Whole Kiitos games: bots, secrecy by redealing what a seat cannot see, and the bot's choices."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import Rng, clone
from engine.games.kiitos.bot import KiitosBot, PlainKiitosBot
from engine.games.kiitos.rules import GAME, KiitosState
from engine.selfplay import run_game
from tests.contract import play as random_playout
from tests.contract import players_for
from tests.engine.games.kiitos.helpers import act, at, lead, new, say

SIMPLE: dict[str, Any] = {"mode": "simple", "rounds": 1}


# --------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("count", [2, 3, 4])
def test_bot_games_reach_the_end(count: int) -> None:
    bots = ["kiitos", "random", "plain", "random"][:count]
    playout = run_game(GAME, bots, 11 + count, {"rounds": 2})
    assert playout.outcome is not None
    assert len(playout.state.round_scores) == 2


def test_the_bot_beats_random() -> None:
    wins = 0
    for seed in range(8):
        bots = ["kiitos", "random"] if seed % 2 == 0 else ["random", "kiitos"]
        outcome = run_game(GAME, bots, seed, {"rounds": 1}).outcome
        wins += (bots.index("kiitos"),) == outcome.winners
    assert wins >= 7


# --------------------------------------------------------------------------- secrecy


def redealt(state: KiitosState, seat: int | None, rng: Rng) -> KiitosState:
    """``state`` with every card ``seat`` cannot see (other hands, the deck) shuffled among
    those places, each keeping its size."""
    copy = clone(state)
    places = [hand for other, hand in enumerate(copy.hands) if other != seat]
    places.append(copy.deck)
    cards = [card for place in places for card in place]
    rng.shuffle(cards)
    for place in places:
        size = len(place)
        place[:] = cards[:size]
        del cards[:size]
    return copy


@pytest.mark.parametrize("count", [2, 4])
def test_secrecy_redealing_what_a_seat_cannot_see_changes_nothing_it_sees(count: int) -> None:
    playout = random_playout(GAME, players_for(count), 5, {"mode": "full"}, max_steps=150)
    rng = Rng.from_seed(3)
    checked = 0
    for index, (state, _) in enumerate(playout.states()):
        if index % 3:
            continue
        for seat in [None, *range(count)]:
            other = redealt(state, seat, rng)
            assert GAME.view(other, seat) == GAME.view(state, seat), (index, seat)
            checked += 1
    assert checked > 100


def test_secrecy_other_seats_see_hand_sizes_and_pile_counts_only() -> None:
    playout = random_playout(GAME, players_for(3), 8, {}, max_steps=120)
    for state, events in playout.states():
        for seat in range(3):
            view = GAME.view(state, seat)
            assert view["hand"] == sorted(card[0] for card in state.hands[seat])
            assert view["hand_counts"] == [len(hand) for hand in state.hands]
            assert "deck" not in view and view["deck_count"] == len(state.deck)
            for event in events:
                if event.seats is not None:
                    assert len(event.seats) == 1  # private events go to one seat
                    assert set(event.data) <= {"letters", "letter", "seat"}


def test_secrecy_card_ids_never_leave_the_host() -> None:
    state = new(["CTEEIRNO", "ASEIOUDL"], **SIMPLE)
    secrets = GAME.hidden(state, 0)
    assert set(secrets) == set(state.hands[1]) | set(state.deck)
    assert all(len(code) == 2 and code[1].isdigit() for code in secrets)


# --------------------------------------------------------------------------- the bot


def view_for(state: KiitosState, seat: int) -> dict[str, Any]:
    return GAME.view(state, seat)


def test_bot_challenges_a_word_the_dictionary_lacks() -> None:
    state = lead(new(["CTEEIRNO", "ASEIOUDL"], **SIMPLE), 0, "cxqzt")
    bot = KiitosBot(Rng.from_seed(1))
    action = bot.choose(view_for(state, 1))
    assert action == {"type": "challenge", "reveal": state.reveal_id}
    assert 0.5 < bot.reaction_s < 2.0


def test_bot_lets_a_real_word_stand_and_plays_the_compelled_letter() -> None:
    state = lead(new(["CTEEIRNO", "ASEIOUDL", "AAAABBCC"], **SIMPLE), 0, "cats")
    bot = KiitosBot(Rng.from_seed(1))
    assert bot.choose(view_for(state, 2)) is None  # not its turn, no reason to challenge
    assert bot.choose(view_for(state, 1)) == {"type": "play", "letter": "A", "side": "end"}
    assert bot.reaction_s > 1.5  # while the word may be challenged, people get time to


def test_bot_says_a_real_word_that_fits_when_free() -> None:
    state = lead(new(["CTEEIRNO", "OLEIUDMN"], **SIMPLE), 0, "cats")
    action = PlainKiitosBot(Rng.from_seed(2)).choose(view_for(state, 1))
    assert action is not None and action["type"] == "say"
    word = action["word"]
    assert word.startswith("c" + action["letter"].lower()) and len(word) >= 4
    assert GAME.apply(state, 1, action, 0.0)[0].target == word


def test_bot_leads_a_common_word_starting_with_a_letter_it_holds() -> None:
    state = new(["CTEEIRNO", "OLEIUDMN"], **SIMPLE)
    action = KiitosBot(Rng.from_seed(3)).choose(view_for(state, 0))
    assert action is not None and action["type"] == "lead"
    assert action["word"][0] == action["letter"].lower() and action["letter"] in "CTEEIRNO"


def test_bot_picks_up_only_when_no_word_fits() -> None:
    state = new(["CTEEIRNO", "XZJKVWYU"], **SIMPLE)
    state = at(state, table=["Q", "Q", "Q"], target="qqqqq", sayer=0, turn=1, phase="play")
    plain = PlainKiitosBot(Rng.from_seed(4)).choose(view_for(state, 1))
    assert plain == {"type": "pickup"}


def test_bluffing_bot_sometimes_says_a_made_up_word_instead_of_picking_up() -> None:
    state = new(["CTEEIRNO", "XZJKVWYU"], **SIMPLE)
    state = at(state, table=["Q", "Q", "Q"], target="qqqqq", sayer=0, turn=1, phase="play")
    choices = [KiitosBot(Rng.from_seed(seed)).choose(view_for(state, 1)) for seed in range(12)]
    kinds = {choice["type"] for choice in choices if choice is not None}
    assert kinds == {"say", "pickup"}
    for choice in choices:
        if choice is not None and choice["type"] == "say":
            GAME.apply(state, 1, choice, 0.0)  # a legal, if made-up, word


def test_bot_never_bluffs_where_the_strict_check_refuses_made_up_words() -> None:
    state = new(["CTEEIRNO", "XZJKVWYU"], **{**SIMPLE, "check": "strict"})
    state = at(state, table=["Q", "Q", "Q"], target="qqqqq", sayer=0, turn=1, phase="play")
    choices = [KiitosBot(Rng.from_seed(seed)).choose(view_for(state, 1)) for seed in range(12)]
    assert {choice["type"] for choice in choices if choice is not None} == {"pickup"}


def test_bot_finishes_its_own_word_and_avoids_finishing_another() -> None:
    # Under Super-Kiitos several letters may be compelled; only the choice matters here.
    view = {"target": "CATS", "table": ["C", "A", "T"], "seat": 1}
    plays = [
        {"type": "play", "letter": "S", "side": "end"},
        {"type": "play", "letter": "E", "side": "start"},
    ]
    bot = KiitosBot(Rng.from_seed(5))
    for _ in range(5):
        assert bot._continue({**view, "sayer": 1}, plays) == plays[0]
        assert bot._continue({**view, "sayer": 0}, plays) == plays[1]


def test_bot_chooses_itself_to_start_and_forfeits_a_doubled_letter() -> None:
    bot = KiitosBot(Rng.from_seed(6))
    state = lead(new(["CTEEIRNO", "ASEIOUDL"], **SIMPLE), 0, "cats")
    state = at(state, challenge_left=0)
    state = act(state, 1, type="challenge", reveal=state.reveal_id)[0]
    state = at(state, hands=[state.hands[0], ["E1", "E2", "A1"]])
    assert bot.choose(view_for(state, 1)) == {"type": "forfeit", "letter": "E"}


def test_bot_does_not_repeat_a_word_that_failed() -> None:
    state = lead(new(["CTEEIRNO", "OLEIUDMN"], **SIMPLE), 0, "cats")
    state = say(state, 1, "O", "coxqz")
    state = act(state, 0, type="challenge", reveal=state.reveal_id)[0]
    action = PlainKiitosBot(Rng.from_seed(7)).choose(view_for(state, 1))
    assert action is not None and action.get("word") != "coxqz"
    GAME.apply(state, 1, action, 0.0)

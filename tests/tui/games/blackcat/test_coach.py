"""The Black Cat coach: what the top card is worth on each pile, what a grab made, the end.

Unit tests build views from the engine with a fixed deck (the ``deck`` option, top
first) and chosen grabs, one test per rule the coach explains, and check its words:
the keys, the cards, the points and the sums. The last test plays a whole coached
first game (``clowder learn blackcat``) by keys through Pilot, against the easy bot
the first game seats, until the results screen.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from engine.games.blackcat import rules as blackcat_rules
from engine.games.blackcat.rules import GAME, BlackCatState, BlackCatView
from engine.games.blackcat.scoring import full_deck
from tests.tui.solo import coach_advice, coach_log, learn_app, table_of
from tui.coach import PANEL_ROWS, rows
from tui.games.blackcat.coach import BlackCatCoach
from tui.games.blackcat.screen import BlackCatTable
from tui.screens.results import ResultsScreen
from tui.screens.table import TableScreen
from tui.widgets.coach import MARK

pytestmark = pytest.mark.timeout(120)

PLAYERS = ["Ann", "Bot Tom"]
ANN, TOM = 0, 1
COACH = BlackCatCoach()


def deck_starting(*top: str) -> list[str]:
    """A full deck order whose first cards are ``top`` (the rest in a fixed order)."""
    rest = full_deck()
    for card in top:
        rest.remove(card)
    return [*top, *rest]


def game(*top: str, players: list[str] | None = None, stall: int = 5) -> BlackCatState:
    """A game from a chosen deck, its first card shown at host time 0 (the first tick)."""
    state = GAME.new_game(players or PLAYERS, 7, {"deck": deck_starting(*top), "stall": stall})
    state, _ = GAME.tick(state, 0.0)
    return state


def grab(state: BlackCatState, seat: int, pile: int, now: float = 1.0) -> BlackCatState:
    """``seat`` takes the top card into ``pile`` (0 or 1)."""
    action = {"type": "take", "pile": pile, "reveal": state.reveal}
    state, _ = GAME.apply(state, seat, action, now)
    return state


def view(state: BlackCatState, seat: int | None = ANN) -> BlackCatView:
    seen: BlackCatView = GAME.view(state, seat)  # type: ignore[assignment]
    return seen


def grabs(state: BlackCatState, *moves: tuple[int, int]) -> BlackCatState:
    """Each (seat, pile) grab in turn."""
    for seat, pile in moves:
        state = grab(state, seat, pile)
    return state


# What the top card is worth now ----------------------------------------------------


def test_tomcat_two_neighbours_adding_to_ten_names_the_key_the_pile_and_the_pair() -> None:
    state = grabs(game("8S", "2C"), (ANN, 0))
    advice = COACH.now(view(state))
    assert advice[0] == "Press 1: pile 1 +3, Tomcat 8♠ 2♣ (8+2=10)."
    assert advice[1] == "Press 2: pile 2 +0 (empty pile)."
    assert "Fastest grab gets the card." in advice


def test_a_card_that_scores_nowhere_says_what_it_would_cover_and_that_it_may_be_left() -> None:
    state = grabs(game("8S", "3H", "4D"), (ANN, 0), (ANN, 1))
    advice = COACH.now(view(state))
    assert advice[0] == "Press 1: pile 1 +0, covers 8♠ (a 2 makes 10)."
    assert advice[1] == "Press 2: pile 2 +0, covers 3♥ (a 7 or Q makes 10)."
    assert advice[2] == "Or leave it: if untaken 5 s, c c may end the game."
    assert rows(advice) <= PANEL_ROWS


def test_a_ten_pairs_with_a_jack_or_king_and_a_face_card_waits_for_a_ten() -> None:
    state = grabs(game("TH", "KS", "2D"), (ANN, 0), (ANN, 1))
    advice = COACH.now(view(state))
    assert advice[0] == "Press 1: pile 1 +0, covers 10♥ (a J or K makes 10)."
    assert advice[1] == "Press 2: pile 2 +0, covers K♠ (a 10 makes 10)."


def test_yowler_any_ten_scores_a_point_on_either_pile() -> None:
    state = grabs(game("5H", "TD"), (ANN, 0))
    advice = COACH.now(view(state))
    assert advice[0] == "Press 1: pile 1 +1, Yowler 10♦."
    assert advice[1] == "Press 2: pile 2 +1, Yowler 10♦."


def test_a_ten_beside_a_jack_is_a_tomcat_and_a_yowler_at_once() -> None:
    state = grabs(game("JH", "TD"), (ANN, 0))
    assert COACH.now(view(state))[0] == "Press 1: pile 1 +4, Tomcat J♥ 10♦ (0+10=10), Yowler 10♦."


def test_black_cat_an_unbroken_black_run_adding_to_thirteen() -> None:
    state = grabs(game("AS", "4C", "8S"), (ANN, 0), (ANN, 0))
    assert COACH.now(view(state))[0] == "Press 1: pile 1 +6, Black Cat A♠ 4♣ 8♠ (1+4+8=13)."


def test_queen_counts_as_seven_or_eleven_whichever_scores() -> None:
    state = grabs(game("QS", "2C"), (ANN, 0))
    assert COACH.now(view(state))[0] == "Press 1: pile 1 +6, Black Cat Q♠ 2♣ (11+2=13)."
    state = grabs(game("QH", "3D"), (ANN, 1))
    assert COACH.now(view(state))[1] == "Press 2: pile 2 +3, Tomcat Q♥ 3♦ (7+3=10)."


def test_jellical_a_face_card_between_two_cards_of_one_rank() -> None:
    state = grabs(game("5H", "KS", "5C"), (ANN, 0), (ANN, 0))
    assert COACH.now(view(state))[0] == "Press 1: pile 1 +2, Jellical K♠ between 5♥ and 5♣."
    state = grabs(game("2H", "QS", "QD", "2C"), (ANN, 1), (ANN, 1), (ANN, 1))
    assert COACH.now(view(state))[1] == "Press 2: pile 2 +4, 2 Jellicals Q♠ Q♦ between 2♥ and 2♣."


def test_the_call_is_offered_once_the_game_has_stalled_with_where_you_stand() -> None:
    state = grabs(game("8S", "2C", "3H", "9D"), (ANN, 0), (ANN, 0))
    assert not any("c c" in line and "end" in line for line in COACH.now(view(state))[:2])
    stalled, _ = GAME.tick(state, 10.0)
    advice = COACH.now(view(stalled))
    assert "Or c c ends the game now: you lead 3 to 0." in advice
    behind = COACH.now(view(stalled, TOM))
    assert "c c would end it, but you trail 0 to 3: grab on." in behind
    assert rows(advice) <= PANEL_ROWS and rows(behind) <= PANEL_ROWS


def test_a_tie_call_is_a_shared_win() -> None:
    state = game("8S", "3H", stall=0)
    assert "c c would end it in a tie at 0 (a shared win)." in COACH.now(view(state))


def test_during_the_start_countdown_it_names_the_first_card_and_the_keys() -> None:
    waiting = {**view(game("8S")), "legal": [], "reveal": None}
    assert COACH.now(waiting) == [  # type: ignore[arg-type]
        "Get ready: 8♠ turns up first. Then press 1 or 2 to grab it."
    ]


def test_a_spectator_and_a_finished_game_get_no_advice() -> None:
    state = grabs(game("8S", "2C", stall=0), (ANN, 0))
    assert COACH.now(view(state, None)) == []
    assert COACH.after(view(state, None), view(state, None)) == []
    over, _ = GAME.apply(state, ANN, {"type": "call"}, 2.0)
    assert COACH.now(view(over)) == []


# What a grab made ------------------------------------------------------------------


def test_your_grab_says_what_it_scored_and_the_pile_total() -> None:
    before = grabs(game("8S", "2C"), (ANN, 0))
    after = grab(before, ANN, 0)
    assert COACH.after(view(before), view(after)) == [
        "You were first to 2♣: pile 1 +3, Tomcat 8♠ 2♣ (8+2=10). Pile 1 now scores 3."
    ]


def test_your_grab_that_scored_nothing_says_what_the_pile_now_waits_for() -> None:
    before = game("8S")
    after = grab(before, ANN, 1)
    assert COACH.after(view(before), view(after)) == [
        "You were first to 8♠: pile 2 +0, no cat yet. Now a 2 on it makes 10."
    ]


def test_a_card_the_bot_got_that_you_could_use_is_explained_by_reaction_time() -> None:
    before = grabs(game("8S", "2C"), (ANN, 0))
    after = grab(before, TOM, 1)
    assert COACH.after(view(before), view(after)) == [
        "Bot Tom was faster to 2♣ (worth +3 on your pile 1): the quickest reaction gets the"
        " card; w shows the timings."
    ]


def test_a_bot_grab_that_scored_for_the_bot_names_the_cat() -> None:
    before = grabs(game("8S", "2C"), (TOM, 1))
    after = grab(before, TOM, 1)
    assert COACH.after(view(before), view(after)) == [
        "Bot Tom got 2♣: Bot Tom's pile 2 +3, Tomcat 8♠ 2♣ (8+2=10)."
    ]


def test_the_first_grab_by_a_bot_explains_the_race_and_later_dull_ones_pass_quietly() -> None:
    start = game("8S", "7H", "4D")
    first = grab(start, TOM, 0)
    assert COACH.after(view(start), view(first)) == [
        "Bot Tom grabbed 8♠ first: everyone grabs at once, and the quickest reaction gets the"
        " card (w shows the timings)."
    ]
    second = grab(first, TOM, 1)
    assert COACH.after(view(first), view(second)) == []


def test_a_stalled_game_explains_why_a_call_is_allowed_now() -> None:
    state = grabs(game("8S", "3H"), (ANN, 0))
    stalled, _ = GAME.tick(state, 10.0)
    assert COACH.after(view(state), view(stalled)) == [
        "Nobody took 3♥ for 5 s: a call (c c) now ends the game and the top score wins."
        " Call only if you lead."
    ]


# The end ---------------------------------------------------------------------------


def test_the_final_scoring_adds_up_each_pile_by_its_cats() -> None:
    state = grabs(game("8S", "2C", "TH", "5C", "8C", stall=0), (ANN, 0), (ANN, 0))
    state = grabs(state, (TOM, 0), (TOM, 1), (TOM, 1))
    over, _ = GAME.apply(state, ANN, {"type": "call"}, 2.0)
    said = COACH.after(view(state), view(over))
    assert said == [
        "You called the end, so the piles are scored now. Bot Tom wins 7 to 3:"
        " the highest total wins.",
        "You: 3 = pile 1 3 (1 Tomcat 3) + pile 2 0 (no cats).",
        "Bot Tom: 7 = pile 1 1 (1 Yowler 1) + pile 2 6 (1 Black Cat 6).",
    ]


def test_the_deck_running_out_ends_the_game_your_last_grab_then_the_tally() -> None:
    deck = deck_starting("8S", "2C")
    state = GAME.new_game(PLAYERS, 7, {"deck": [*deck[2:], *deck[:2]], "stall": 5})
    while len(state.deck) > 2:
        state = grab(state, TOM, 1)
    state = grab(state, ANN, 0)
    said = COACH.after(view(state), view(grab(state, ANN, 0)))
    assert said[0] == (
        "You were first to 2♣: pile 1 +3, Tomcat 8♠ 2♣ (8+2=10). Pile 1 now scores 3."
    )
    assert said[1].startswith("The last card is gone, so the piles are scored. Bot Tom wins")
    assert said[1].endswith(" to 3: the highest total wins.")
    assert said[2] == "You: 3 = pile 1 3 (1 Tomcat 3) + pile 2 0 (no cats)."
    assert said[3].startswith("Bot Tom: ") and "pile 1 0 (no cats) + pile 2 " in said[3]


def test_three_players_tally_yours_in_full_and_the_others_in_one_line() -> None:
    players = ["Ann", "Bot Tom", "Bot Bea"]
    state = grabs(game("8S", "2C", "TH", players=players, stall=0), (ANN, 0), (ANN, 0), (2, 1))
    over, _ = GAME.apply(state, 2, {"type": "call"}, 2.0)
    said = COACH.after(view(state), view(over))
    assert said[0] == (
        "Bot Bea called the end, so the piles are scored now. You win 3 to 1:"
        " the highest total wins."
    )
    assert said[1] == "You: 3 = pile 1 3 (1 Tomcat 3) + pile 2 0 (no cats)."
    assert said[2] == "Bot Tom 0 = 0 + 0; Bot Bea 1 = 0 + 1."


def test_the_welcome_names_the_aim_and_every_cat_with_its_points() -> None:
    opening = COACH.opening(view(game("8S")))
    assert opening[0] == COACH.welcome and "most points wins" in COACH.welcome
    text = " ".join(opening)
    for words in ("Tomcat", "adding to 10 (3 pts)", "any 10 (1 pt)", "adding to 13 (6 pts)"):
        assert words in text
    assert "Jellical" in text and "(2 pts)" in text and "Q is 7 or 11" in text
    assert opening[-1].startswith("The first 5 cards wait for you: read, then grab, or press")
    assert opening[-1].endswith("Press r at any time for the rules; q leaves.")


# A whole coached first game --------------------------------------------------------

ADVICE = re.compile(r"Press ([12]): pile [12] ([+-]\d+)")
BOT_REACTION_SCALE = 0.25 / BlackCatCoach.bot_pace
"""The easy bot reacts in about 0.2 s here instead of ``clowder learn``'s 2.4 s (a quicker
scale than ``--bot-reaction`` allows, with the coach's pace), so 52 cards go by in about ten
seconds; the player (:data:`REACTION_S`) still gets to most cards first."""
REACTION_S = 0.1
"""The player's reaction (the host refuses reactions under 80 ms)."""
TAKE_EVERY = 3
"""Of the cards that score nothing for them, the player grabs every third and leaves the
rest to the bot (whose grabs come quicker than the player's here)."""


def in_play(table: BlackCatTable) -> bool:
    return table.view is not None and table.view["phase"] == "play" and not table.starting


async def next_card(pilot: Pilot[Any], table: BlackCatTable, after: int) -> BlackCatView:
    """The view once a card newer than reveal ``after`` is up (or the game is over)."""
    for _ in range(2000):
        seen = table.view
        assert seen is not None
        if seen["phase"] == "over" or (seen["reveal"] or 0) > after:
            return seen
        await pilot.pause(0.005)
    raise AssertionError(f"no card after reveal {after}")


def half_deck(decks: int = 1) -> list[str]:
    """Every other card of the deck (26, every rank and suit still in it): a whole game by
    keys in half the time (52 cards took 13 s of the suite's wall, near its 15 s a test)."""
    return full_deck(decks)[::2]


async def test_a_whole_coached_first_game_by_the_keys_the_coach_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(blackcat_rules, "full_deck", half_deck)
    app = learn_app(tmp_path, "blackcat", bot_reaction_scale=BOT_REACTION_SCALE)
    started = time.monotonic()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await table_of(pilot, BlackCatTable, in_play)
        assert isinstance(table.coach, BlackCatCoach)
        seen, pressed, advised = 0, 0, []
        while True:
            shown = await next_card(pilot, table, seen)
            if shown["phase"] == "over":
                break
            seen = shown["reveal"] or 0
            await pilot.pause(REACTION_S)
            current = table.view
            if current is None or current["reveal"] != seen:
                continue  # the bot was quicker
            advice = coach_advice(table)
            assert advice, f"the panel was empty at card #{seen}"
            text = " ".join(advice)
            advised.append(text)
            offers = {key: int(points) for key, points in ADVICE.findall(text)}
            assert set(offers) == {"1", "2"}, f"the keys are not named: {advice}"
            alternate = str(seen % 2 + 1)  # when both piles score the same
            key = max(offers, key=lambda k: (offers[k], k == alternate))
            if offers[key] > 0 or seen % TAKE_EVERY == 0:
                await pilot.press(key)
                pressed += 1
            elif table.held:  # the first cards wait for the learner: Enter lets the bot go
                await pilot.press("enter")
        for _ in range(300):
            if isinstance(app.screen, ResultsScreen):
                break
            await pilot.pause(0.01)
        assert isinstance(app.screen, ResultsScreen), "no results screen"
        log = coach_log(table)
        said = [line.removeprefix(MARK) for line in log if line.startswith(MARK)]
        sample = "\n".join([*advised[:4], "--", *said[-12:]])
        over = table.view
        assert over is not None and over["outcome"] is not None
        mine = sum(len(pile["cards"]) for pile in over["piles"][over["seat"] or 0])
        assert pressed and mine, f"the player got no card:\n{sample}"
        assert said[0] == BlackCatCoach.welcome, sample
        firsts = [line for line in said if line.startswith("You were first to ")]
        assert len(firsts) == mine, f"{mine} cards won, {len(firsts)} explained:\n{sample}"
        assert any(line.startswith("Bot Tom ") for line in said), sample
        assert any("The last card is gone, so the piles are scored." in line for line in said)
        assert any(line.startswith("You: ") and " = pile 1 " in line for line in said), sample
        assert any(line.startswith("Bot Tom: ") for line in said), sample
        await pilot.press("enter")
        for _ in range(100):
            if app.return_code is not None:
                break
            await pilot.pause(0.01)
    print(f"whole coached game: {time.monotonic() - started:.1f} s")
    assert isinstance(table, TableScreen)

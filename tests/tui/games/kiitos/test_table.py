"""The Kiitos table driven with fixed views: the word entry's checks as you type, the moves
its keys send, a challenge sent as a stamped claim, a spectator, the results."""

from __future__ import annotations

import time
from typing import Any, cast

from engine.games.kiitos.rules import GAME, KiitosView
from engine.games.kiitos.table import full_deck
from engine.games.kiitos.words import dictionary, frequency
from tests.tui.harness import TableHarness
from tui.games.kiitos.entry import BAD, OK, WAIT, WARN, analyse
from tui.games.kiitos.screen import KiitosTable, players_text, target_text, tiles
from tui.screens.info import InfoScreen
from tui.screens.rules import RulesScreen
from tui.widgets.prompt import PromptLine

SIZE = (80, 24)
PLAYERS = ["Ann", "Bea", "Cy", "Dan"]
ANN = list("ABCDFHIJ")
BEA = list("NOPKMUVW")
CY = list("BDERSSTY")
DAN = list("AEEHLPSU")


def fixed_deck(hands: list[list[str]]) -> list[str]:
    """A whole deck, top first, that deals ``hands`` in seat order (the rest alphabetical)."""
    rest = full_deck()
    for letter in [letter for hand in hands for letter in hand]:
        rest.remove(letter)
    return [letter for hand in hands for letter in hand] + rest


def kiitos_view(
    actions: list[dict[str, Any]] = (),  # type: ignore[assignment]
    seat: int | None = 0,
    players: list[str] | None = None,
    hands: list[list[str]] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """The view for ``seat`` after ``actions`` (each by whoever's turn it is); Ann leads."""
    names = players or PLAYERS
    deal = hands or [ANN, BEA, CY, DAN][: len(names)]
    opts: dict[str, Any] = {"first": 0, "deck": fixed_deck(deal), **options}
    state = GAME.new_game(names, 7, opts)
    for action in actions:
        state, _ = GAME.apply(state, state.turn, action, 0.0)
    view: dict[str, Any] = GAME.view(state, seat)
    return view


BIRD = [{"type": "lead", "word": "brief", "letter": "B"}]
"""Ann leads BRIEF with B: Bea (no R) is free to say a new word from B."""


def harness(view: dict[str, Any]) -> TableHarness:
    return TableHarness(view, presence=[], screen=KiitosTable)


def text_of(widget: object) -> str:
    return str(widget.render())  # type: ignore[attr-defined]


async def ready(app: TableHarness) -> KiitosTable:
    table = app.table
    assert isinstance(table, KiitosTable)
    table.words_ready(dictionary())
    return table


def entry_text(app: TableHarness) -> str:
    return "\n".join(text_of(app.table.query_one(f"#{name}")) for name in ("word", "checks"))


def prompt(app: TableHarness) -> str:
    return text_of(app.table.query_one(PromptLine))


# The word entry, as pure checks --------------------------------------------------------


def test_the_entry_says_length_fit_letter_and_dictionary_for_each_word() -> None:
    view = kiitos_view(BIRD, seat=1)  # Bea: table B, target BRIEF, hand K M N O P U V W
    words = dictionary()
    short = analyse(view, "BO", words)
    assert short.checks[0].mark == BAD and short.checks[0].text == "2 letters (4+)"
    boom = analyse(view, "boom", words)
    assert [check.mark for check in boom.checks] == [OK, OK, OK]
    assert boom.checks[1].text == "plays O"
    assert boom.actions == ({"type": "say", "word": "boom", "letter": "O", "side": "end"},)
    assert boom.plays == frozenset("O") and not boom.problem
    cats = analyse(view, "cats", words)
    assert cats.checks[1].mark == BAD and "does not start with B" in cats.checks[1].text
    bread = analyse(view, "bread", words)
    assert "needs R" in bread.checks[1].text and not bread.actions
    bluff = analyse(view, "bozzle", words)
    assert bluff.checks[2].mark == WARN and bluff.actions  # any word may be said
    loading = analyse(view, "boom", None)
    assert loading.checks[2].mark == WAIT and loading.actions  # no need to wait to say it


def test_a_strict_table_refuses_a_word_the_dictionary_lacks_before_it_is_sent() -> None:
    view = kiitos_view(BIRD, seat=1, check="strict")
    entry = analyse(view, "bozzle", dictionary())
    assert entry.checks[2].mark == BAD and not entry.actions
    assert "does not know BOZZLE" in entry.problem


def test_a_word_finished_by_your_own_card_is_refused() -> None:
    view = dict(kiitos_view(BIRD, seat=1), table=["B", "O", "O"], target="BOOT")
    entry = analyse(view, "book", dictionary())
    assert not entry.actions and entry.checks[1].text == "your K would finish it"
    assert "leave a letter to play" in entry.problem
    assert analyse(view, "books", dictionary()).actions  # K with S still to come


def test_under_super_kiitos_the_entry_says_where_the_letter_goes() -> None:
    hands = [list("ALGBCDFH"), list("NIJKMOPR"), CY, DAN]
    lead = [{"type": "lead", "word": "alga", "letter": "A"}]
    view = kiitos_view(lead, seat=1, hands=hands, super_kiitos=True)
    entry = analyse(view, "nana", dictionary())
    sides = {(action["letter"], action["side"]) for action in entry.actions}
    assert sides == {("N", "end"), ("N", "start")}
    assert entry.checks[1].text == "plays N at the end or N at the start"


# The screen -----------------------------------------------------------------------------


async def test_typing_shows_the_checks_at_once_and_enter_says_the_word() -> None:
    app = harness(kiitos_view(BIRD, seat=1))
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        await pilot.press("b", "o")
        assert "BO" in entry_text(app) and "✗ 2 letters (4+)" in entry_text(app)
        await pilot.press("o", "m")
        shown = entry_text(app)
        assert "✓ 4 letters" in shown and "✓ plays O" in shown and "✓ in the dictionary" in shown
        assert "⏎ says BOOM, playing O" in shown
        hand = text_of(app.table.query_one("#hand"))
        assert "┃ O ┃" in hand  # the O it would play is lit
        await pilot.press("enter")
        assert app.actions == [{"type": "say", "word": "boom", "letter": "O", "side": "end"}]
        assert app.stamps == [None]  # saying a word is not a race
        assert "BOOM" not in text_of(app.table.query_one("#word"))


async def test_a_word_that_does_not_continue_the_table_is_refused_with_the_reason() -> None:
    app = harness(kiitos_view(BIRD, seat=1))
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        await pilot.press("c", "a", "t", "s")
        assert "✗ does not start with B" in entry_text(app)
        await pilot.press("enter")
        assert app.actions == []
        assert "CATS does not start with B" in prompt(app)
        await pilot.press("backspace", "backspace", "escape")
        assert "CA" not in text_of(app.table.query_one("#word"))


async def test_the_letter_you_must_play_is_played_by_enter() -> None:
    lead = [{"type": "lead", "word": "bone", "letter": "B"}]  # Bea holds O: compelled
    app = harness(kiitos_view(lead, seat=1))
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        assert "you must play O" in text_of(app.table.query_one("#hand-label"))
        assert "⏎ plays O" in prompt(app)
        await pilot.press("b", "o", "o", "m", "enter")
        assert app.actions == []
        assert "You hold O: you must continue BONE" in prompt(app)
        await pilot.press("escape", "enter")
        assert app.actions == [{"type": "play", "letter": "O", "side": "end"}]


async def test_several_ways_to_play_are_offered_and_a_digit_picks_one() -> None:
    hands = [list("ALGBCDFH"), list("NIJKMOPR"), CY, DAN]
    lead = [{"type": "lead", "word": "alga", "letter": "A"}]
    app = harness(kiitos_view(lead, seat=1, hands=hands, super_kiitos=True))
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        await pilot.press("n", "a", "n", "a", "enter")
        assert app.actions == []
        checks = text_of(app.table.query_one("#checks"))
        assert "1 N at the end" in checks and "2 N at the start" in checks
        await pilot.press("2")
        assert app.actions == [{"type": "say", "word": "nana", "letter": "N", "side": "start"}]


async def test_tab_fills_in_an_idea_from_the_legal_words_and_ctrl_p_picks_up() -> None:
    view = kiitos_view(BIRD, seat=1)
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        await pilot.press("tab")
        ideas = {str(a["word"]).upper() for a in view["legal"] if a["type"] == "say"}
        by_use = sorted(ideas, key=lambda word: (frequency().key(word.lower()), word))
        table = app.table
        assert isinstance(table, KiitosTable) and table.typed == by_use[0]  # the most used
        await pilot.press("tab")
        assert table.typed == by_use[1]
        await pilot.press("ctrl+p")
        assert app.actions == [{"type": "pickup"}]


async def test_the_prompt_offers_an_idea_only_when_a_word_of_the_list_fits() -> None:
    """The prompt said "New word (* idea)" while no word fitted and ``*`` did nothing and
    said nothing (issue 36 walk-through): without an idea, it asks for a word you know."""
    view = kiitos_view(BIRD, seat=1)
    assert any(a["type"] == "say" for a in view["legal"])
    app = harness(view)
    async with app.run_test(size=SIZE):
        await ready(app)
        assert "* idea" in prompt(app)
    none = dict(view, legal=[a for a in view["legal"] if a["type"] != "say"])
    app = harness(none)
    async with app.run_test(size=SIZE):
        await ready(app)
        assert "*" not in prompt(app) and "A new word if you know one" in prompt(app)
        assert "asterisk" not in footer(app)


async def test_a_challenge_is_a_claim_with_the_reveal_and_reaction_stamps() -> None:
    view = kiitos_view(BIRD, seat=2)  # Cy may challenge Ann's BRIEF, though it is Bea's turn
    assert view["reveal"] is not None
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        await pilot.pause(0.05)
        assert "! challenges BRIEF" in text_of(app.table.query_one("#target"))
        before = time.monotonic_ns()
        await pilot.press("exclamation_mark")
        assert app.actions == [{"type": "challenge", "reveal": view["reveal"]}]
        stamps = app.stamps[0]
        assert stamps is not None and stamps.reveal == view["reveal"]
        assert stamps.drawn_ns <= before <= stamps.acted_ns <= time.monotonic_ns()
        assert "Challenging BRIEF" in prompt(app)
        await pilot.press("exclamation_mark")
        assert len(app.actions) == 1
        assert "already challenged BRIEF" in prompt(app)


async def test_your_own_word_cannot_be_challenged() -> None:
    app = harness(kiitos_view(BIRD, seat=0))
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        await pilot.press("exclamation_mark")
        assert app.actions == []
        assert "your own word" in prompt(app)


async def test_a_late_challenge_is_told_who_challenged_first() -> None:
    """Pressing ! just after another player's challenge names them (no letter was played)."""
    reveal = kiitos_view(BIRD, seat=2)["reveal"]
    view = kiitos_view([*BIRD, {"type": "challenge", "reveal": reveal}], seat=2)
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(app)
        ruled = {
            "kind": "challenge",
            "text": "Bea challenges BRIEF: it is in the dictionary. Bea loses the challenge.",
            "data": {"seat": 1, "announcer": 0, "word": "brief", "valid": True, "loser": 1},
        }
        table.happened([ruled])
        await pilot.pause()
        await pilot.press("exclamation_mark")
        assert app.actions == []
        assert "Bea challenged BRIEF first" in prompt(app)
        assert "a letter was played" not in prompt(app)


async def test_the_ruling_on_a_challenge_is_told_and_w_explains_it() -> None:
    view = kiitos_view(BIRD, seat=2)
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(app)
        reveal = view["reveal"]
        claim = {
            "kind": "claim",
            "text": "Bea got reveal with a reaction of 300 ms, 40 ms ahead of Cy.",
            "data": {
                "reveal_id": reveal,
                "chosen": 1,
                "tie": False,
                "claims": [
                    {"seat": 1, "credited_ns": 300_000_000},
                    {"seat": 2, "credited_ns": 340_000_000},
                ],
            },
        }
        lost = {"kind": "claim_lost", "text": "", "data": {"reveal_id": reveal, "behind_ns": 4e7}}
        ruled = {
            "kind": "challenge",
            "text": "Bea challenges BRIEF: it is in the dictionary. Bea loses the challenge.",
            "data": {"seat": 1, "announcer": 0, "word": "brief", "valid": True, "loser": 1},
        }
        table.happened([claim, lost, ruled])
        await pilot.pause()
        award = table.history.last
        assert award is not None and award.seat == 1 and award.label == "the challenge of BRIEF"
        assert "40 ms ahead of you" in table.history.lines[-1]
        table.view = cast(KiitosView, view)
        await pilot.pause()
        news = text_of(table.query_one("#news"))
        assert news == "Bea challenged BRIEF: a word; Bea takes the -1. First, 40 ms ahead of you."
        await pilot.press("ctrl+w")
        assert isinstance(app.screen, InfoScreen) and "40 ms ahead of Cy" in app.screen.text
        await pilot.press("escape")
        await pilot.press("number_sign")  # the plain key, offered now there is a ruling
        assert isinstance(app.screen, InfoScreen) and "40 ms ahead of Cy" in app.screen.text
        await pilot.press("escape")
        pickup = {"kind": "pickup", "text": "Cy picks up BRIEF.", "data": {"seat": 2}}
        table.happened([pickup])  # the table is picked up: that challenge is old news
        table.view = cast(KiitosView, view)
        await pilot.pause()
        assert text_of(table.query_one("#news")) == ""


async def test_a_spectator_sees_no_hand_and_cannot_type_or_challenge() -> None:
    app = harness(kiitos_view(BIRD, seat=None))
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        assert "hands are hidden" in text_of(app.table.query_one("#hand-label"))
        assert text_of(app.table.query_one("#hand")) == ""
        await pilot.press("b", "o", "o", "m", "enter", "exclamation_mark", "ctrl+p")
        assert app.actions == []
        assert "watching" in prompt(app).lower()
        players = text_of(app.table.query_one("#players"))
        assert all(name in players for name in PLAYERS)


async def test_flip_choose_and_forfeit_by_keys() -> None:
    view = kiitos_view(BIRD, seat=1)
    flip = dict(view, phase="flip", turn=1, legal=[
        {"type": "flip", "card": "length"},
        {"type": "flip", "card": "super"},
    ])  # fmt: skip
    flip["rule_cards"] = [
        dict(card, locked=card["card"] == "positive") for card in view["rule_cards"]
    ]
    app = harness(flip)
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        assert "Flip a rule card" in prompt(app)
        flips = text_of(app.table.query_one("#checks"))
        assert flips == "1 min. length 4 → 5 · 3 Kiitos → Super-Kiitos"
        assert "(lock)" in text_of(app.table.query_one("#rules"))
        await pilot.press("2")
        assert app.actions == []
        await pilot.press("3")
        assert app.actions == [{"type": "flip", "card": "super"}]
    choose = dict(view, phase="choose", turn=1, legal=[
        {"type": "choose", "seat": seat} for seat in range(4)
    ])  # fmt: skip
    app = harness(choose)
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        assert "You have the lowest score: who starts round 1?" in prompt(app)
        assert text_of(app.table.query_one("#checks")) == "1 Ann · 2 you · 3 Cy · 4 Dan"
        await pilot.press("3")
        assert app.actions == [{"type": "choose", "seat": 2}]
    forfeit = dict(view, phase="forfeit", turn=1, legal=[
        {"type": "forfeit", "letter": letter} for letter in sorted(set(BEA))
    ])  # fmt: skip
    app = harness(forfeit)
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        await pilot.press("w", "enter")
        assert app.actions == [{"type": "forfeit", "letter": "W"}]


async def test_the_board_shows_table_target_piles_rule_cards_and_challenge_cards() -> None:
    actions = [*BIRD, {"type": "pickup"}]  # Bea picks up B: 1 card to her negative pile
    app = harness(kiitos_view(actions, seat=0))
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        await pilot.pause()
        title = text_of(app.table.query_one("#title"))
        assert "round 1 of 3" in title and "challenge cards 8" in title
        rules = text_of(app.table.query_one("#rules"))
        assert "Min. length 4" in rules and "Positive pile x1" in rules and "Kiitos" in rules
        players = text_of(app.table.query_one("#players")).splitlines()
        assert players[2].split() == ["▶Bea", "8", "0", "1", "0", "-1"]
        await pilot.press("ctrl+r")  # and on the key list (?)
        assert isinstance(app.screen, RulesScreen)
        assert "Where the rulebook is unclear" in app.screen.page


def test_the_target_marks_the_played_part() -> None:
    view = kiitos_view([*BIRD], seat=1)
    assert target_text(view).plain == "Target [B]RIEF  Ann's word"
    assert "B" in tiles(["B"], 40).plain and tiles(list("ABCDEFGHIJKLMNO"), 40).plain.count(" ") > 5


def test_the_players_panel_counts_each_pile() -> None:
    view = kiitos_view(BIRD, seat=0)
    view = dict(view, positive=[4, 0, 0, 0], negative=[0, 2, 0, 0], challenge_cards=[0, 0, 1, 0])
    rows = players_text(view).plain.splitlines()
    assert rows[1].split() == ["you", "7", "4", "0", "0", "0"]


def test_the_results_give_each_round_and_the_total() -> None:
    view = dict(kiitos_view(BIRD, seat=0, players=PLAYERS[:2]))
    view.update(
        phase="over",
        round_scores=[[5, 3], [2, 4]],
        totals=[7, 7],
        outcome={"scores": [7, 7], "winners": [0, 1]},
    )
    lines = KiitosTable().results_lines(cast(KiitosView, view))
    assert lines[0] == "You share the win (Ann and Bea)!"
    assert lines[2].split() == ["R1", "R2", "total"]
    assert lines[3].split() == ["Ann", "(you)", "5", "2", "7"]
    assert lines[4].split() == ["Bea", "3", "4", "7"]


async def test_any_word_may_be_said_even_when_the_legal_list_offers_none() -> None:
    view = kiitos_view(BIRD, seat=1)
    view = dict(view, legal=[{"type": "pickup"}])  # no dictionary word fits: a bluff is fine
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        await pilot.press("b", "o", "z", "z", "l", "e")
        assert "! not in the dictionary" in entry_text(app)
        await pilot.press("enter")
        assert app.actions == [{"type": "say", "word": "bozzle", "letter": "O", "side": "end"}]


async def test_a_refused_word_comes_back_to_the_line() -> None:
    app = harness(kiitos_view(BIRD, seat=1, check="strict"))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(app)
        await pilot.press("b", "o", "o", "m", "enter")
        assert app.actions and table.typed == ""
        table.refused("The dictionary does not know BOOM")
        await pilot.pause()
        assert table.typed == "BOOM"


async def test_the_countdown_before_a_real_time_game_is_shown() -> None:
    # The game's view as dealt (legal actions included); the host's countdown beside it.
    app = TableHarness(
        kiitos_view(seat=0), presence=[], screen=KiitosTable, starting=True, starts_in=2.9
    )
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        assert "The game begins in 3 s" in prompt(app)
        await pilot.press("c", "a", "b", "s", "enter")
        assert app.actions == []


async def test_a_completed_word_is_told_under_the_target() -> None:
    app = harness(kiitos_view(BIRD, seat=1))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(app)
        done = {
            "kind": "kiitos",
            "text": "",
            "data": {"seat": 0, "word": "brief", "count": 5},
        }
        table.happened([done])
        table.view = table.view
        await pilot.pause()
        assert text_of(table.query_one("#news")) == "Kiitos! BRIEF is complete: Ann takes 5."


# Plain keys: a phone's on-screen keyboard has no Tab, no ctrl chords, often no Esc --------


def footer(app: TableHarness) -> dict[str, str]:
    """The keys the footer shows now: key -> description."""
    shown = app.active_bindings.values()
    return {b.key: b.description for _, b, enabled, _ in shown if enabled and b.show}


async def test_idea_and_pick_up_have_plain_keys_for_phone_keyboards() -> None:
    view = kiitos_view(BIRD, seat=1)
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(app)
        assert "(* idea)" in prompt(app) and "- picks up 1" in prompt(app)
        keys = footer(app)
        assert keys.get("asterisk") == "idea" and keys.get("minus") == "pick up"
        assert not {"tab", "ctrl+p", "ctrl+w", "ctrl+x"} & set(keys)  # they work, unshown
        await pilot.press("asterisk")
        ideas = {str(a["word"]).upper() for a in view["legal"] if a["type"] == "say"}
        assert table.typed in ideas
        await pilot.press("minus")
        assert app.actions == [{"type": "pickup"}]


async def test_a_plain_pick_up_key_says_why_when_it_is_not_yours() -> None:
    app = harness(kiitos_view(BIRD, seat=2))  # Bea's turn, not Cy's
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        await pilot.press("minus", "greater_than_sign")
        assert app.actions == []
        assert "It is Bea's turn" in prompt(app)


async def test_the_4_player_rule_has_a_plain_key_for_phone_keyboards() -> None:
    from tests.engine.games.kiitos.test_rules import four_player_pickup

    view = GAME.view(four_player_pickup(), 0)
    assert {"type": "pass_lead"} in view["legal"]
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        assert "> the 4-player rule" in prompt(app)
        assert footer(app).get("greater_than_sign") == "4-player rule"
        await pilot.press("greater_than_sign")
        assert app.actions == [{"type": "pass_lead"}]


async def test_why_and_leave_have_plain_keys_for_phone_keyboards() -> None:
    app = harness(kiitos_view(BIRD, seat=None))
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        assert "< leaves" in prompt(app)
        # No ruling yet: nothing to explain, so neither the prompt nor the footer offers #
        # (after a challenge's ruling it opens the explanation: the test above).
        assert "# why" not in prompt(app) and "number_sign" not in app.table.active_bindings
        await pilot.press("number_sign")
        assert app.screen is app.table and not app.left
        await pilot.press("less_than_sign")
        await pilot.pause()
        assert app.left


async def test_a_choice_is_cancelled_with_a_plain_key_for_phone_keyboards() -> None:
    hands = [list("ALGBCDFH"), list("NIJKMOPR"), CY, DAN]
    lead = [{"type": "lead", "word": "alga", "letter": "A"}]
    app = harness(kiitos_view(lead, seat=1, hands=hands, super_kiitos=True))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(app)
        await pilot.press("n", "a", "n", "a", "enter")
        assert table.choices and "backspace cancels" in prompt(app)
        await pilot.press("backspace")
        assert table.choices == [] and app.actions == []
        assert "Play which?" not in text_of(app.table.query_one("#checks"))
        await pilot.press("n", "a", "n", "a", "backspace")  # no choice open: erases
        assert table.typed == "NAN"

"""The Black Cat table screen driven with fixed views: what it shows and the claims it sends."""

from __future__ import annotations

import time
from typing import Any, ClassVar, cast

from textual import events
from textual.widgets._footer import FooterKey

from engine.games.blackcat.rules import BlackCatView, PileView
from tests.tui.harness import BLACKCAT_PLAYERS, TableHarness, blackcat_view
from tui.games.blackcat.screen import BlackCatTable, card_marks, fitting, pile_rows
from tui.screens.info import InfoScreen
from tui.screens.keys import KeysScreen
from tui.widgets.log import GameLog
from tui.widgets.prompt import PromptLine
from tui.widgets.rulings import Award, Ruling

SIZE = (80, 24)
# Grabs from the fixed deck 8S 2C 3S TD 2H ...: Ann 8S->1, Bea 2C->1, Ann 3S->2, Bea TD->2.
FOUR = [(0, 0), (1, 0), (0, 1), (1, 1)]
CLAIM = {
    "kind": "claim",
    "text": "Bea got reveal #5 with a reaction that counted as 257 ms, 43 ms ahead of Ann.",
    "data": {
        "reveal_id": 5,
        "chosen": 1,
        "tie": False,
        "claims": [
            {"seat": 1, "credited_ns": 257_000_000},
            {"seat": 0, "credited_ns": 300_000_000},
        ],
    },
}
RULED = [
    CLAIM,
    {"kind": "claim_lost", "text": "...", "data": {"reveal_id": 5, "behind_ns": 43_000_000}},
    {"kind": "take", "text": "", "data": {"seat": 1, "pile": 0, "card": "2H", "reveal": 5}},
]
"""The host's ruling on reveal 5 (Bea 43 ms ahead of Ann) and the grab it gave Bea."""


def text_of(widget: object) -> str:
    return str(widget.render())  # type: ignore[attr-defined]


def harness(view: dict[str, Any]) -> TableHarness:
    return TableHarness(view, presence=[], screen=BlackCatTable)


def board_text(app: TableHarness) -> str:
    return "\n".join(
        str(app.table.query_one(f"#{name}").render())
        for name in ("title", "top-info", "pile-0", "pile-1", "others")
    )


async def test_a_grab_key_claims_the_top_card_with_its_reveal_and_reaction_stamps() -> None:
    view = blackcat_view(FOUR)
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        before = time.monotonic_ns()
        await pilot.press("1")
        assert app.actions == [{"type": "take", "pile": 0, "reveal": view["reveal"]}]
        stamps = app.stamps[0]
        assert stamps is not None and stamps.reveal == view["reveal"]
        assert stamps.drawn_ns <= before <= stamps.acted_ns <= time.monotonic_ns()
        assert "Grabbing 2♥ into pile 1" in text_of(app.table.query_one(PromptLine))


async def test_a_grab_is_drawn_in_one_frame_the_prompt_with_the_card_sent_to_its_pile() -> None:
    """Each frame is repainted for an SSH or web player on the host's machine: the prompt's
    "Grabbing" and the card marked as sent in its pile come in the same one."""
    app = harness(blackcat_view(FOUR))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        table = app.table
        frames: list[set[str | None]] = []
        compose_frame = table._compositor_refresh

        def counted_frame() -> None:
            frames.append({widget.id for widget in table._dirty_widgets})
            compose_frame()

        table._compositor_refresh = counted_frame  # type: ignore[method-assign]
        await pilot.press("1")
        await pilot.pause(0.1)
        assert "Grabbing 2♥ into pile 1" in text_of(table.query_one(PromptLine))
        assert "2♥" in text_of(table.query_one("#pile-0"))
        drawn = [frame for frame in frames if frame & {"prompt", "pile-0"}]
        assert drawn == [{"prompt", "pile-0"}], f"the grab was drawn in frames {drawn}"


async def test_the_right_arrow_grabs_into_pile_two_and_a_second_grab_waits_for_the_ruling() -> None:
    view = blackcat_view(FOUR)
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right")
        await pilot.press("1")
        assert app.actions == [{"type": "take", "pile": 1, "reveal": view["reveal"]}]
        assert "already grabbed 2♥ for pile 2" in text_of(app.table.query_one(PromptLine))


async def test_a_key_pressed_before_the_card_was_drawn_is_not_a_grab_for_it() -> None:
    app = harness(blackcat_view(FOUR))
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        assert isinstance(table, BlackCatTable)
        for _ in range(500):  # under load the first view can take a few frames to be drawn
            reveal = table.view["reveal"] if table.view is not None else None
            if reveal is not None and reveal in table._drawn:
                break
            await pilot.pause(0.01)
        assert reveal is not None and reveal in table._drawn
        early = events.Key("1", "1")
        # The key came in before this card was on screen (however slow the machine).
        early.time = table._drawn[reveal] / 1e9 - 0.5
        table.on_key(early)
        table.action_grab(0)
        assert app.actions == []
        assert "pressed before 2♥ was on screen" in text_of(table.query_one(PromptLine))


async def test_calling_the_end_takes_two_presses_and_escape_takes_it_back() -> None:
    app = harness(blackcat_view(FOUR))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        assert app.actions == []
        assert "Press c again" in text_of(app.table.query_one(PromptLine))
        await pilot.press("escape", "c")
        assert app.actions == []
        await pilot.press("c")
        assert app.actions == [{"type": "call"}] and app.stamps == [None]


async def test_the_gain_of_each_pile_and_the_patterns_are_shown() -> None:
    app = harness(blackcat_view(FOUR))
    async with app.run_test(size=SIZE):
        own = text_of(app.table.query_one("#pile-0"))
        assert "+3 if taken" in own  # 8♠ then 2♥ is a Tomcat
        assert "+0 if taken" in text_of(app.table.query_one("#pile-1"))
        assert "T Tomcat · Y Yowler" in text_of(app.table.query_one("#legend"))
        others = text_of(app.table.query_one("#others"))
        assert "Bea" in others and "10♦" in others and "2♣" in others
    after = blackcat_view([*FOUR, (0, 0)])
    assert card_marks(after["piles"][0][0]) == ["T", "T"]
    assert card_marks(after["piles"][1][1]) == ["Y"]


async def test_a_spectator_sees_every_pile_and_cannot_grab() -> None:
    app = harness(blackcat_view(FOUR, seat=None, players=BLACKCAT_PLAYERS))
    async with app.run_test(size=SIZE) as pilot:
        assert not app.table.query_one("#pile-0").display
        assert not app.table.query_one("#legend").display
        others = text_of(app.table.query_one("#others"))
        assert all(name in others for name in BLACKCAT_PLAYERS)
        await pilot.press("1", "c", "c")
        assert app.actions == []
        # the keys are not offered (check_action); the prompt says why
        assert "watching" in text_of(app.table.query_one(PromptLine)).lower()


async def test_the_host_rulings_fill_the_log_and_w_explains_the_last_one() -> None:
    view = blackcat_view(FOUR)
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        table.happened(RULED)
        table.view = blackcat_view([*FOUR, (1, 0)])
        await pilot.pause()
        assert "Bea got 2♥ (pile 1), 43 ms ahead of you." in text_of(table.query_one("#top-info"))
        assert table.query_one(GameLog).lines
        await pilot.press("w")
        assert isinstance(app.screen, InfoScreen) and "43 ms ahead of Ann" in app.screen.text
        await pilot.press("escape")
        await pilot.press("e")
        assert isinstance(app.screen, InfoScreen)
        assert (
            "Your piles: 0 points" in app.screen.text
            and "Bea's piles: 1 point\n" in app.screen.text
        )


async def test_w_is_offered_only_once_the_host_has_ruled_on_a_claim() -> None:
    """Before any ruling ``w`` has nothing to explain: the footer does not offer it (a key it
    shows is one that works, issue 36, item 7), the key does nothing, and the key list (``?``)
    names it as "not now"; the host's first ruling brings it to the footer."""
    app = harness(blackcat_view([]))
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        assert "w" not in table.active_bindings
        await pilot.press("w")
        assert app.screen is table
        await pilot.press("question_mark")
        keys = app.screen
        assert isinstance(keys, KeysScreen)
        assert [line.enabled for line in keys.lines if line.action == "why"] == [False]
        await pilot.press("q")
        table.happened(RULED)
        await pilot.pause()
        assert table.active_bindings["w"].enabled
        assert any(key.key == "w" for key in table.query(FooterKey))
        await pilot.press("w")
        assert isinstance(app.screen, InfoScreen) and "43 ms ahead of Ann" in app.screen.text


async def test_the_results_say_who_won_how_it_ended_and_each_pile() -> None:
    over = blackcat_view([*FOUR, (0, 0)])
    table = BlackCatTable()
    state_view = dict(over)
    state_view.update(
        phase="over", ended="call", called_by=0, outcome={"scores": [3, 1], "winners": [0]}
    )
    lines = table.results_lines(cast(BlackCatView, state_view))
    assert lines[:2] == ["You win!", "You called the end."]
    assert "Ann (you): 3 (3 + 0)" in lines and "Bea: 1 (0 + 1)" in lines


def test_long_piles_show_their_newest_cards_and_count_the_rest() -> None:
    pile: PileView = {
        "cards": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"],
        "score": 0,
        "cats": [],
        "queens": [],
        "counts": {},
        "explain": "",
        "if_taken": None,
    }
    assert fitting(8, 20) == 4
    cards, _ = pile_rows(pile, 20)
    assert str(cards).split() == ["+4", "5♠", "6♠", "7♠", "8♠"]


def test_what_a_card_would_add_comes_from_the_view() -> None:
    view = blackcat_view(FOUR)  # 2♥ on top; Ann's piles hold 8♠ and 3♠
    assert [pile["if_taken"] for pile in view["piles"][0]] == [3, 0]


async def test_a_card_nobody_takes_brings_a_hint_to_grab_or_call() -> None:
    app = harness(blackcat_view(FOUR))
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        assert isinstance(table, BlackCatTable)
        prompt = table.query_one(PromptLine)
        assert "Nobody wants" not in text_of(prompt)
        reveal, _ = table._open_since
        table._open_since = (reveal, time.monotonic() - 60)
        table._check_stall()
        await pilot.pause()
        assert "Nobody wants 2♥? Grab it (1 or 2), or c c calls the end" in text_of(prompt)


def test_the_results_name_the_closest_contest_without_a_negative_margin() -> None:
    table = BlackCatTable()
    tie = Ruling(5, 1, 2, 2, -1_900_000, True, "")
    clear = Ruling(6, 0, 2, 1, 40_000_000, False, "")
    table.history.awards = [Award(5, 1, "2♥", tie, "pile 1"), Award(6, 0, "5♣", clear, "pile 2")]
    over = dict(blackcat_view(FOUR))
    over.update(phase="over", ended="deck", outcome={"scores": [0, 1], "winners": [1]})
    lines = table.results_lines(cast(BlackCatView, over))
    assert lines[:2] == ["Bea wins.", "The deck ran out."]
    assert "2 cards contested; the closest was a tie (1.9 ms apart)." in lines


class KeyTimes(BlackCatTable):
    """Notes each key event's own timestamp (Textual also runs the table's on_key)."""

    seen: ClassVar[list[int]] = []

    def on_key(self, event: events.Key) -> None:
        self.seen.append(int(event.time * 1_000_000_000))


async def test_the_reaction_ends_at_the_key_event_not_when_the_action_runs() -> None:
    app = TableHarness(blackcat_view(FOUR), presence=[], screen=KeyTimes)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        await pilot.press("2")
        stamps = app.stamps[0]
        assert stamps is not None and stamps.acted_ns == KeyTimes.seen[-1]


async def test_the_footer_offers_no_grab_keys_to_a_spectator() -> None:
    app = harness(blackcat_view(FOUR, seat=None, players=BLACKCAT_PLAYERS))
    async with app.run_test(size=SIZE):
        keys = {active.binding.action for active in app.table.active_bindings.values()}
        assert not any(key.startswith(("grab", "call")) for key in keys) and "leave" in keys
    app = harness(blackcat_view(FOUR, players=BLACKCAT_PLAYERS))
    async with app.run_test(size=SIZE):
        keys = {active.binding.action for active in app.table.active_bindings.values()}
        assert "grab(0)" in keys and "call" in keys

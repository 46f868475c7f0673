"""Who got each moment and by how many milliseconds, from the host's real rulings.

The events fed here come from :mod:`net.core.realtime` itself (a referee deciding
claims with explicit times), so the words are tested against what a host
really sends, not against hand-made dictionaries. Black Cat's screen says
what a ruling means in its words (:func:`tui.games.blackcat.screen.ruled`); the
history itself is the shared real-time base's.
"""

from __future__ import annotations

from typing import Any

from engine.core import visible_events
from net.core.realtime import UNMEASURED, Referee
from tui.games.blackcat.screen import ruled as blackcat_words
from tui.widgets.rulings import Award, RulingHistory, ms

MS = 1_000_000
NAMES = ["Ann", "Bea", "Cy"]


def take_event(seat: int, card: str, pile: int, reveal: int = 1) -> dict[str, Any]:
    return {
        "kind": "take",
        "text": f"{NAMES[seat]} takes {card} into pile {pile + 1}.",
        "data": {"seat": seat, "pile": pile, "card": card, "reveal": reveal},
    }


class GrabHistory(RulingHistory):
    """A Black Cat table's history: the host's events kept, the game's worded."""

    def __init__(self) -> None:
        super().__init__("grabbed")

    def feed(self, events: list[dict[str, Any]], names: list[str], me: int | None) -> None:
        for event in events:
            if not self.note(event):
                blackcat_words(self, event, names, me)


def headline(award: Award | None, names: list[str], me: int | None) -> str:
    return GrabHistory().headline(award, names, me) or "Nobody has taken a card yet."


def ruled(*claims: tuple[int, int, int], seat: int | None) -> list[dict[str, Any]]:
    """The events ``seat`` receives when reveal 1 is claimed by (seat, reaction, arrival)."""
    referee = Referee()
    referee.sync(1, 0, dict.fromkeys(range(len(NAMES)), UNMEASURED))
    for claimant, reaction, arrived in claims:
        action = {"type": "take", "pile": claimant % 2, "reveal": 1}
        referee.claim(claimant, action, 1, reaction, arrived)
    ruling = referee.decide(10**12, dict(enumerate(NAMES)))
    assert ruling is not None
    events = visible_events(ruling.events, seat)
    return [*events, take_event(ruling.seat, "8D", ruling.action["pile"])]


def test_a_loser_is_told_who_got_the_card_and_by_how_many_milliseconds() -> None:
    history = GrabHistory()
    history.feed(ruled((0, 300 * MS, 310 * MS), (1, 257 * MS, 400 * MS), seat=0), NAMES, 0)
    assert history.lines == ["8♦ → Bea (pile 2), 43 ms ahead of you"]
    assert headline(history.last, NAMES, 0) == "Bea got 8♦ (pile 2), 43 ms ahead of you."
    assert history.last_explanation.startswith("Bea got reveal #1")


def test_the_winner_and_onlookers_see_the_margin_over_the_runner_up() -> None:
    claims = ((0, 300 * MS, 310 * MS), (1, 257 * MS, 400 * MS), (2, 420 * MS, 430 * MS))
    mine, theirs = GrabHistory(), GrabHistory()
    mine.feed(ruled(*claims, seat=1), NAMES, 1)
    theirs.feed(ruled(*claims, seat=None), NAMES, None)
    assert mine.lines == ["8♦ → you (pile 2), 43 ms ahead of Ann"]
    assert theirs.lines == ["8♦ → Bea (pile 2), 43 ms ahead of Ann"]


def test_an_uncontested_grab_says_so_beside_the_card_but_not_in_the_log() -> None:
    history = GrabHistory()
    history.feed(ruled((2, 500 * MS, 510 * MS), seat=0), NAMES, 0)
    assert history.lines == ["8♦ → Cy (pile 1)"]
    assert headline(history.last, NAMES, 0) == "Cy got 8♦ (pile 1), nobody else grabbed."


def test_a_tie_names_the_rule_that_settled_it() -> None:
    history = GrabHistory()
    history.feed(ruled((1, 202 * MS, 300 * MS), (2, 200 * MS, 350 * MS), seat=2), NAMES, 2)
    assert history.lines == ["8♦ → Bea (pile 2), tied with you: first to arrive wins"]
    assert "The tie goes to Bea" in history.last_explanation


def test_a_call_is_logged_and_nothing_else_is_invented() -> None:
    history = GrabHistory()
    history.feed([{"kind": "call", "text": "Bea calls", "data": {"seat": 1}}], NAMES, 0)
    assert history.lines == ["Bea called the end."]
    assert history.last is None
    assert headline(None, NAMES, 0) == "Nobody has taken a card yet."


def test_malformed_events_are_ignored_rather_than_shown() -> None:
    history = GrabHistory()
    history.feed(
        [
            {"kind": "claim", "data": {"claims": "nonsense"}},
            {"kind": "claim", "data": None},
            {"kind": "take", "data": {"seat": "x"}},
            {"kind": "claim_lost", "data": {"reveal_id": "1"}},
            {"kind": "reveal", "data": {"reveal": 2}},
        ],
        NAMES,
        0,
    )
    assert history.lines == [] and history.last is None and history.last_explanation == ""


def test_milliseconds_read_naturally() -> None:
    assert ms(43 * MS) == "43 ms"
    assert ms(2 * MS + 400_000) == "2.4 ms"


def test_a_call_made_as_a_claim_is_explained_under_the_call() -> None:
    referee = Referee()
    referee.sync(1, 0, dict.fromkeys(range(len(NAMES)), UNMEASURED))
    referee.claim(2, {"type": "call"}, 1, 400 * MS, 410 * MS)
    ruling = referee.decide(10**12, dict(enumerate(NAMES)))
    assert ruling is not None
    call = {"kind": "call", "text": "Cy calls", "data": {"seat": 2}}
    history = GrabHistory()
    history.feed([*visible_events(ruling.events, 0), call], NAMES, 0)
    assert history.lines == ["Cy called the end."]
    assert history.explained[-1][0] == "Cy called the end."
    assert history.last_explanation.startswith("Cy got reveal #1")


def test_recent_rulings_are_listed_newest_first_under_what_they_decided() -> None:
    history = GrabHistory()
    history.feed(ruled((0, 300 * MS, 310 * MS), seat=0), NAMES, 0)
    history.feed(ruled((1, 250 * MS, 260 * MS), seat=0), NAMES, 0)
    text = history.explain_recent()
    assert text.index("▶ Bea got 8♦") < text.index("▶ You got 8♦")
    assert "Bea got reveal #1 with a reaction that counted as 250 ms" in text

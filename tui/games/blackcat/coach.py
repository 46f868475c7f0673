"""The coach of a first Black Cat: what the top card is worth on each pile now, and why.

Black Cat is played in real time: one deck lies face up, and everyone grabs its top
card at once into one of their two kitty piles (keys ``1``/``←`` and ``2``/``→`` on
:class:`~tui.games.blackcat.screen.BlackCatTable`). The host gives each card to the
fastest reaction (``w`` on the table shows its timings). Piles are never rearranged, so
every card scores only with its neighbours (:mod:`engine.games.blackcat.scoring`):

- Tomcat (3 points): two neighbours adding to 10 (A is 1, J and K are 0, Q is 7 or 11);
- Yowler (1 point): any 10;
- Jellical Cat (2 points): each J, Q or K of a run between two cards of the same rank;
- Black Cat (6 points): an unbroken run of black cards adding to 13.

The game ends when the deck runs out, or when someone calls the end (``c`` twice) once
the top card has lain untaken for the stall time; the most points wins.

The coach reads only this seat's :class:`~engine.games.blackcat.rules.BlackCatView`
(the piles are public, the deck under the top card is hidden from everyone) and runs on
every view, several a second, so it stays cheap: the view already says what the top card
would add to each pile (``if_taken``), and only a pile it would score on is scored again
(:func:`~engine.games.blackcat.scoring.score_pile`, cached) to name the cats it makes.
The host's rulings (who reacted how fast) are not in the view, so after a grab the coach
says who got the card and what it scored, and points to ``w`` for the timings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.games.blackcat.rules import BlackCatView, PileView
from engine.games.blackcat.scoring import (
    BLACK_CAT_SUM,
    CAT_KINDS,
    CAT_NAMES,
    JELLICAL,
    QUEEN_VALUES,
    RANK_VALUES,
    TOMCAT,
    TOMCAT_SUM,
    YOWLER,
    card_label,
    score_pile,
)
from tui.coach import MOST_LINES, PANEL_ROWS, Coach, clip, fit, rows
from tui.you import capital

MOST_CATS = 2
"""Cats named in one line; more are counted (a line stays readable)."""

KEYS: Mapping[int, str] = {0: "1", 1: "2"}
"""The screen's key for each pile (its BINDINGS; the arrows ← and → do the same)."""
CALL_KEYS = "c c"
"""The screen calls the end on the second ``c`` (the first one asks)."""


# Words ---------------------------------------------------------------------------


def plural(count: int, word: str) -> str:
    """``1 point``, ``3 points``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def signed(points: int) -> str:
    """``+3``, ``+0``, ``-1``: what a card changes a pile's score by."""
    return f"+{points}" if points >= 0 else str(points)


def card_value(card: str, queen: int | None = None) -> int:
    """A card's value for Tomcats and Black Cats: A 1, 2-10 face, J and K 0, Q 7 or 11."""
    if card[0] == "Q":
        return QUEEN_VALUES[0] if queen is None else queen
    return RANK_VALUES.get(card[0], 0)


def with_article(rank: str) -> str:
    """``an A``, ``an 8``, ``a 2``: the rank a pile waits for, as said aloud."""
    return f"an {rank}" if rank in ("A", "8") else f"a {rank}"


def waits_for(card: str) -> str:
    """What would make a Tomcat on ``card`` (the end of a pile): a partner adding to 10
    (``a 2``; ``a J or K`` for a 10, which counts 10 + 0; ``a 3`` for a Queen as 7)."""
    if card[0] == "T":
        return "a J or K"
    need = TOMCAT_SUM - card_value(card)
    if need == TOMCAT_SUM:
        return "a 10"
    rank = "A" if need == 1 else str(need)
    return f"{with_article(rank)} or Q" if need == QUEEN_VALUES[0] else with_article(rank)


# Cats ----------------------------------------------------------------------------


def queen_values(pile: Mapping[str, Any]) -> dict[int, int]:
    """Each Queen's position in ``pile`` and the value it counts as (the scoring's choice)."""
    chosen: dict[int, int] = {}
    for queen in pile.get("queens") or []:
        position, value = queen.get("position"), queen.get("value")
        if isinstance(position, int) and isinstance(value, int):
            chosen[position] = value
    return chosen


def describe_cats(pile: Mapping[str, Any], cats: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each cat of ``cats`` (cats of ``pile``, a :class:`PileView`-shaped map) in a few words:
    ``Tomcat 2♣ 8♦ (2+8=10)``, ``Jellical K♠ between 5♥ and 5♣`` (the Jellical Cats of one
    run together: ``2 Jellicals Q♥ Q♠ between 2♣ and 2♦``)."""
    cards: list[str] = list(pile.get("cards") or [])
    queens = queen_values(pile)
    said: list[str | tuple[int, ...]] = []
    """Words for each cat, or the run a Jellical Cat is in (its words come once the run's
    every face card is known)."""
    runs: dict[tuple[int, ...], list[int]] = {}
    for cat in cats:
        kind = str(cat.get("kind"))
        places = [i for i in cat.get("cards") or [] if isinstance(i, int) and 0 <= i < len(cards)]
        if not places:
            continue
        labels = " ".join(card_label(cards[i]) for i in places)
        if kind == JELLICAL:
            between = tuple(cat.get("between") or ())
            if between not in runs:
                said.append(between)
            runs.setdefault(between, []).extend(places)
        elif kind == YOWLER:
            said.append(f"Yowler {labels}")
        else:
            values = [card_value(cards[i], queens.get(i)) for i in places]
            total = TOMCAT_SUM if kind == TOMCAT else BLACK_CAT_SUM
            name = CAT_NAMES.get(kind, (kind, kind))[0]
            said.append(f"{name} {labels} ({'+'.join(map(str, values))}={total})")
    out = [
        item if isinstance(item, str) else jellical_words(cards, item, runs[item]) for item in said
    ]
    if len(out) > MOST_CATS:
        out = [*out[:MOST_CATS], f"{len(out) - MOST_CATS} more"]
    return out


def jellical_words(cards: Sequence[str], between: tuple[int, ...], faces: Sequence[int]) -> str:
    """``Jellical K♠ between 5♥ and 5♣``: a run of face cards and the two cards around it."""
    run = " ".join(card_label(cards[i]) for i in faces)
    name = "Jellical" if len(faces) == 1 else f"{len(faces)} Jellicals"
    if len(between) == 2 and all(0 <= i < len(cards) for i in between):
        left, right = (card_label(cards[i]) for i in between)
        return f"{name} {run} between {left} and {right}"
    return f"{name} {run}"


def cats_with_last(pile: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The cats the pile's newest card is part of (or closes, for a Jellical Cat: the card
    after its run): what putting it there made."""
    last = len(pile.get("cards") or []) - 1
    return [
        cat
        for cat in pile.get("cats") or []
        if last in (cat.get("cards") or []) or last in (cat.get("between") or [])
    ]


def tally(pile: Mapping[str, Any]) -> str:
    """A pile's score by kind of cat: ``2 Tomcats 6, 1 Yowler 1`` (and Queens that mattered)."""
    points: dict[str, int] = {}
    counts: dict[str, int] = {}
    for cat in pile.get("cats") or []:
        kind = str(cat.get("kind"))
        counts[kind] = counts.get(kind, 0) + 1
        points[kind] = points.get(kind, 0) + int(cat.get("points") or 0)
    parts = []
    for kind in CAT_KINDS:
        if counts.get(kind):
            singular, many = CAT_NAMES[kind]
            parts.append(f"{counts[kind]} {singular if counts[kind] == 1 else many} {points[kind]}")
    cards = pile.get("cards") or []
    for queen in pile.get("queens") or []:
        position = queen.get("position")
        if queen.get("matters") and isinstance(position, int) and position < len(cards):
            parts.append(f"{card_label(cards[position])} as {queen.get('value')}")
    return ", ".join(parts) if parts else "no cats"


# The coach ------------------------------------------------------------------------


class BlackCatCoach(Coach[BlackCatView]):
    """Says what the top card would score on each of your piles, and what each grab made."""

    game: ClassVar[str] = "blackcat"
    seats: ClassVar[int] = 2
    """One easy bot: one rival's grabs are easy to follow, and every race is one to one."""
    first_game: ClassVar[dict[str, Any]] = {}
    """The real rules: one deck, no variant, calls after the usual stall time."""
    held_moments: ClassVar[int] = 5
    """The first five cards wait for the learner: read what each would score, then grab it
    or press Enter to let the bot have it."""
    bot_pace: ClassVar[int] = 3
    """Then the easy bot grabs in about 2.4 s (1.7 s at the quickest) instead of 0.8 s: a
    newcomer who has read the coach gets the cards they want first."""
    welcome: ClassVar[str] = (
        "Grab the face-up top card into one of your two piles before the bot does: cards"
        " side by side in a pile form cats that score. The most points wins."
    )

    def opening(self, view: BlackCatView) -> list[str]:
        """The aim, then the four cats in two lines: every later line names them."""
        return [
            self.welcome,
            "Tomcat: two neighbours adding to 10 (3 pts). Yowler: any 10 (1 pt)."
            " Black Cat: black neighbours adding to 13 (6 pts).",
            "Jellical: a J, Q or K between two cards of one rank (2 pts)."
            " A is 1, J and K are 0, Q is 7 or 11.",
            f"The first {self.held_moments} cards wait for you: read, then grab, or press"
            " Enter to let the bot have its go. Press r at any time for the rules; q leaves.",
        ]

    # Now ------------------------------------------------------------------------

    def now(self, view: BlackCatView) -> list[str]:
        """Each pile's key and what the top card adds there, with the cats it makes (or what
        the pile's end waits for); the call when it is allowed, with the scores."""
        seat = view["seat"]
        if seat is None or view["outcome"] is not None:
            return []
        top = view["top"]
        legal = view["legal"]
        if not legal:
            if top is not None:
                return [
                    f"Get ready: {card_label(top)} turns up first. Then press 1 or 2 to grab it."
                ]
            return [self.waiting_line(view)]
        mine = view["piles"][seat]
        lines: list[str] = []
        short: list[str] = []
        extra: list[str] = []
        gains: list[int] = []
        for action in legal:
            pile = action.get("pile")
            if action.get("type") != "take" or not isinstance(pile, int) or top is None:
                continue
            if not 0 <= pile < len(mine):
                continue
            gain = mine[pile]["if_taken"] or 0
            gains.append(gain)
            lines.append(self._take_line(view, mine[pile], pile, top, gain))
            short.append(f"Press {KEYS.get(pile, str(pile + 1))}: pile {pile + 1} {signed(gain)}.")
        can_call = any(action.get("type") == "call" for action in legal)
        if can_call:
            lines.append(self._call_line(view))
            short.append(lines[-1])
        if rows(lines) > PANEL_ROWS:  # the cats named would push a key out of sight
            lines = short
        elif top is not None and gains and max(gains) <= 0:
            stall = view["stall_s"]
            extra.append(f"Or leave it: if untaken {stall} s, {CALL_KEYS} may end the game.")
        elif gains:
            extra.append("Fastest grab gets the card.")
        return fit(lines, extra)

    def _take_line(
        self, view: BlackCatView, pile: PileView, index: int, top: str, gain: int
    ) -> str:
        """``Press 1: pile 1 +3, Tomcat 2♣ 8♦ (2+8=10).`` or what a +0 would cover."""
        head = f"Press {KEYS.get(index, str(index + 1))}: pile {index + 1} {signed(gain)}"
        cards = pile["cards"]
        if gain > 0:
            variants = view["variants"]
            after = score_pile(
                [*cards, top],
                lucky_tom=bool(variants.get("lucky_tom")),
                music_of_the_night=bool(variants.get("music_of_the_night")),
            ).to_data()
            made = describe_cats(after, cats_with_last(after))
            return f"{head}, {', '.join(made)}." if made else f"{head}."
        if not cards:
            return f"{head} (empty pile)."
        return f"{head}, covers {card_label(cards[-1])} ({waits_for(cards[-1])} makes 10)."

    def _call_line(self, view: BlackCatView) -> str:
        """The call, with where you stand: it ends the game at once, so only call when ahead."""
        seat = view["seat"]
        scores = view["scores"]
        if seat is None or not 0 <= seat < len(scores) or len(scores) < 2:
            return f"Or {CALL_KEYS} calls the end."
        mine = scores[seat]
        best = max(score for other, score in enumerate(scores) if other != seat)
        if mine > best:
            return f"Or {CALL_KEYS} ends the game now: you lead {mine} to {best}."
        if mine == best:
            return f"{CALL_KEYS} would end it in a tie at {mine} (a shared win)."
        return f"{CALL_KEYS} would end it, but you trail {mine} to {best}: grab on."

    # After ----------------------------------------------------------------------

    def after(self, before: BlackCatView, view: BlackCatView) -> list[str]:
        """Each grab that matters to you (yours, one that scored, one you could have used),
        a stalled game, and the final scoring with its numbers."""
        seat = view["seat"]
        if seat is None:
            return []
        lines = self._grabs(before, view)
        if view["outcome"] is not None and before["outcome"] is None:
            return [clip(line) for line in [*lines[:1], *self._final(view)][:MOST_LINES]]
        if view["stalled"] and not before["stalled"] and view["top"] is not None:
            lines.append(self._stalled(view))
        return [clip(line) for line in lines[:MOST_LINES]]

    def _grabs(self, before: BlackCatView, view: BlackCatView) -> list[str]:
        """One line per new card in anyone's piles that is worth explaining."""
        seat = view["seat"]
        old_piles, new_piles = before["piles"], view["piles"]
        if seat is None or len(old_piles) != len(new_piles):
            return []
        first = not any(pile["cards"] for piles in old_piles for pile in piles)
        lines = []
        for taker, piles in enumerate(new_piles):
            for index, pile in enumerate(piles):
                old = old_piles[taker][index]
                added = len(pile["cards"]) - len(old["cards"])
                if added <= 0:
                    continue
                line = self._grab_line(before, view, taker, index, added, first)
                if line:
                    lines.append(line)
        return lines

    def _grab_line(
        self,
        before: BlackCatView,
        view: BlackCatView,
        taker: int,
        index: int,
        added: int,
        first: bool,
    ) -> str | None:
        """Who got which card into which pile, what it scored and why; ``None`` for a bot's
        grab that changed nothing for anyone (the log has it)."""
        seat = view["seat"]
        pile = view["piles"][taker][index]
        card = card_label(pile["cards"][-1])
        gain = pile["score"] - before["piles"][taker][index]["score"]
        made = describe_cats(pile, cats_with_last(pile)) if gain > 0 else []
        why = f", {', '.join(made)}" if made else ""
        more = f" ({added} cards)" if added > 1 else ""
        number = index + 1
        if taker == seat:
            if gain > 0:
                return (
                    f"You were first to {card}{more}: pile {number} {signed(gain)}{why}."
                    f" Pile {number} now scores {pile['score']}."
                )
            return (
                f"You were first to {card}{more}: pile {number} +0, no cat yet. Now"
                f" {waits_for(pile['cards'][-1])} on it makes 10."
            )
        who = capital(self.name(view, taker))
        missed = self._worth_to_me(before)
        if missed is not None:
            mine, points = missed
            return (
                f"{who} was faster to {card} (worth {signed(points)} on your pile {mine + 1}):"
                " the quickest reaction gets the card; w shows the timings."
            )
        if gain > 0:
            whose = self.possessive(view, taker)
            return f"{who} got {card}: {whose} pile {number} {signed(gain)}{why}."
        if first:
            return (
                f"{who} grabbed {card} first: everyone grabs at once, and the quickest reaction"
                " gets the card (w shows the timings)."
            )
        return None

    @staticmethod
    def _worth_to_me(view: BlackCatView) -> tuple[int, int] | None:
        """Your pile where the top card of ``view`` would have scored most, and how much."""
        seat = view["seat"]
        if seat is None or view["top"] is None:
            return None
        gains = [(pile["if_taken"] or 0, index) for index, pile in enumerate(view["piles"][seat])]
        points, index = max(gains, default=(0, 0))
        return (index, points) if points > 0 else None

    def _stalled(self, view: BlackCatView) -> str:
        """Why a call is allowed now, and whether it would win."""
        top = card_label(view["top"]) if view["top"] else "the card"
        return (
            f"Nobody took {top} for {view['stall_s']} s: a call ({CALL_KEYS}) now ends the game"
            " and the top score wins. Call only if you lead."
        )

    def _final(self, view: BlackCatView) -> list[str]:
        """How it ended and who won by how much, then each player's piles tallied."""
        seat = view["seat"]
        outcome = view["outcome"]
        scores = list(outcome["scores"]) if outcome is not None else list(view["scores"])
        winners = list(outcome["winners"]) if outcome is not None else []
        if view["ended"] == "call":
            caller = capital(self.name(view, view["called_by"]))
            how = f"{caller} called the end, so the piles are scored now."
        else:
            how = "The last card is gone, so the piles are scored."
        best = max(scores, default=0)
        rest = [score for other, score in enumerate(scores) if other not in winners]
        names = self.listed([self.name(view, other) for other in winners])
        if len(winners) > 1:
            result = f"{capital(names)} share the win with {best}: the highest total wins."
        else:
            runner = max(rest, default=0)
            verb = "win" if winners == [seat] else "wins"
            result = f"{capital(names)} {verb} {best} to {runner}: the highest total wins."
        lines = [f"{how} {result}"]
        order = sorted(range(len(scores)), key=lambda other: other != seat)
        if len(order) <= MOST_LINES - 2:
            for other in order:
                parts = " + ".join(
                    f"pile {index + 1} {pile['score']} ({tally(pile)})"
                    for index, pile in enumerate(view["piles"][other])
                )
                lines.append(f"{capital(self.name(view, other))}: {scores[other]} = {parts}.")
        else:  # three or four players: yours in full, the others' totals on one line
            mine, others = order[0], order[1:]
            parts = " + ".join(
                f"pile {index + 1} {pile['score']} ({tally(pile)})"
                for index, pile in enumerate(view["piles"][mine])
            )
            lines.append(f"{capital(self.name(view, mine))}: {scores[mine]} = {parts}.")
            lines.append(
                "; ".join(
                    f"{self.name(view, other)} {scores[other]} = "
                    + " + ".join(str(pile["score"]) for pile in view["piles"][other])
                    for other in others
                )
                + "."
            )
        return [clip(line) for line in lines]

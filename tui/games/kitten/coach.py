"""The coach of a first You Gotta Be Kitten Me!: what you may bid or call now, and what a
reveal meant.

It reads only this seat's :class:`~engine.games.kitten.rules.KittenView`: your own hand,
everyone's card counts, this round's bids and played specials, and the last reveal with
the engine's own account of the count. Its rules are the engine's:

- A bid claims that all hands together, plus one card flipped from the deck at a call,
  hold at least that many of one accessory or colour. The dealer opens with any count
  (1 or more); every later bid must have a higher count, of any thing at all: 4 hats ->
  5 hats, or 5 of anything (``legal`` lists exactly those bids).
- A challenge ("You Gotta Be Kitten Me!") is on the standing bid of another player:
  below the bid, the bidder loses a card; at or above it, the challenger does. Nobody
  calls on their own bid: when it comes back, they must raise.
- Purrfect (a table option) claims the count is exact: right, the bidder loses a card
  and the caller gains one; wrong, the caller loses one.
- The grey Deluxe cards: Skip, Draw 3 and Go Fish are played instead of a bid (keys
  s, d, g); Can't See Me, Double Trouble and Hang In There work from the hand.

The advice (:meth:`KittenCoach.now`) fits the panel, 28 columns by 6 rows at 80x24
(:func:`fit`); what happened (:meth:`KittenCoach.after`) goes into the log, which scrolls.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.games.kitten.cards import (
    CANT_SEE_ME,
    DOUBLE_TROUBLE,
    DRAW_3,
    FLIP_DOUBLE,
    FLIP_ZERO,
    GO_FISH,
    HANG_IN_THERE,
    SKIP,
    SPECIAL_NAMES,
    THING_WORDS,
    THINGS,
    count_hand,
    deck,
    parse,
    thing_words,
    value,
)
from engine.games.kitten.rules import CHALLENGE, PURRFECT, KittenView, RevealView
from tui.coach import Coach, clip, fit
from tui.you import capital, phrase

DOUBT_MARGIN = 1.0
"""A bid this far above what you can expect "looks high" (the easy bots' own margin)."""

COUNTING_TIP_ROUNDS = 2
"""Doubles and triples are explained at the calls of the first rounds only (by then they
are known; a Wild, rarer, is explained whenever one counted)."""

SPECIAL_KEYS: Mapping[str, str] = {SKIP: "s", DRAW_3: "d", GO_FISH: "g"}
"""The screen's key for each special card played instead of a bid (its BINDINGS)."""


def plural(thing: str) -> str:
    """``hats``, ``bow ties``, ``glasses``, ``blue``."""
    return THING_WORDS[thing][1]


def expected(view: KittenView, thing: str) -> float:
    """How many of ``thing`` a call would likely find: your hand's count, plus the average
    card of the rest of the deck for each card you cannot see (the others' and the flip)."""
    hand = list(view["hand"] or [])
    pool = Counter(deck(view["deck_set"]))
    pool.subtract(hand)
    size = sum(count for count in pool.values() if count > 0)
    total = sum(value(code, thing) * count for code, count in pool.items() if count > 0)
    unseen = max(0, sum(view["hand_counts"]) - len(hand)) + 1
    return count_hand(hand, thing).adds + unseen * total / max(size, 1)


class KittenCoach(Coach[KittenView]):
    """Says what to bid or call now and why, and explains each reveal with its count."""

    game: ClassVar[str] = "kitten"
    seats: ClassVar[int] = 3
    """Two easy bots: bids come from two others, so raising and doubting both get practised."""
    first_game: ClassVar[dict[str, Any]] = {"deck_set": "base", "purrfect": False}
    """The white deck without Purrfect, as the rulebook advises for a first game."""
    welcome: ClassVar[str] = (
        "Bid how many hats, bow ties, glasses, blue, red or green all hands hold together,"
        " or call a bluff. Lose a call, lose a card: the last player with cards wins."
    )

    # What may be done now ------------------------------------------------------------

    def opening(self, view: KittenView) -> list[str]:
        """The aim, then the keys of the bid bar (the panel has no room for them later)."""
        keys = (
            "On your turn: b opens the bid bar (type the count or up/down, left/right or the"
            " thing's letter, enter bids, x cancels); c challenges the last bid."
        )
        return [self.welcome, keys, "Press r at any time for the rules; q leaves."]

    def now(self, view: KittenView) -> list[str]:
        """Your moves, from ``view["legal"]``, with the rule behind each and a count to
        weigh them by; or whose turn it is."""
        seat = view["seat"]
        if seat is None or view["outcome"] is not None:
            return []
        if not view["legal"]:
            return [self.waiting(view)]
        bid = view["bid"]
        if bid is None:
            return self.open_advice(view)
        if bid["seat"] == seat:
            return self.again_advice(view)
        return self.answer_advice(view)

    def waiting(self, view: KittenView) -> str:
        """Whose turn it is and what they must do."""
        seat, turn, bid = view["seat"], view["turn"], view["bid"]
        if seat in view["out"]:
            return "You are out of cards: watch the others play on."
        if turn is None or turn == seat:
            return "Wait for the others."
        who = self.name(view, turn)
        if bid is None:
            return f"Wait: {who} opens round {view['round']} with a bid."
        return f"Wait: {who} raises {self.bid_words(view, bid)} or challenges it."

    def open_advice(self, view: KittenView) -> list[str]:
        """The dealer's opening bid: any count of one thing."""
        needed = [
            f"You open round {view['round']}: b, then a count and a thing, enter.",
            "A bid counts all hands + 1 card flipped at a call.",
        ]
        return fit(needed, [self.best_hint(view)])

    def again_advice(self, view: KittenView) -> list[str]:
        """Your own bid came back: no call on it, only a higher bid."""
        bid = view["bid"]
        assert bid is not None
        head = "Your own bid came back: you can't challenge it, only raise."
        if not self.may("bid", view):
            return [head]
        return self.with_raise([head], bid, [], [self.best_hint(view)])

    def answer_advice(self, view: KittenView) -> list[str]:
        """Another player's bid stands: raise it, call on it, or play a special card."""
        bid = view["bid"]
        assert bid is not None
        count, thing = bid["count"], bid["thing"]
        who = self.name(view, bid["seat"])
        calls: list[str] = []
        if self.may(CHALLENGE, view):
            calls.append(f"c: under {count} -> {who} loses a card, else you do.")
        extra: list[str] = []
        if self.may(PURRFECT, view):
            extra.append(f"p Purrfect: exactly {count} -> you gain a card, {who} loses one.")
        specials = [
            f"{key} {SPECIAL_NAMES[card]}"
            for card, key in SPECIAL_KEYS.items()
            if self.may("play", view, card)
        ]
        if specials:
            extra.append(f"Or {self.listed(specials, 'or')}: no bid this turn.")
        extra.append(self.odds_hint(view, count, thing))
        if not self.may("bid", view):
            top = f"{capital(self.bid_words(view, bid))} is the top bid allowed."
            return fit([top, *calls], extra)
        return self.with_raise([], bid, calls, extra)

    def with_raise(
        self, head: list[str], bid: Mapping[str, Any], calls: list[str], extra: list[str]
    ) -> list[str]:
        """``head``, the rule that a bid must rise, ``calls``, and what of ``extra`` fits;
        the rule said shortly when its long form would crowd a hint out of the panel."""
        count, thing = int(bid["count"]), str(bid["thing"])
        higher = thing_words(thing, count + 1)
        rule = f"Bids must rise: {thing_words(thing, count)} -> {higher}, or {count + 1} of"
        long = fit([*head, f"{rule} anything (b).", *calls], extra)
        short = fit([*head, f"Raise: {higher}, or {count + 1} of anything (b).", *calls], extra)
        return short if len(short) > len(long) else long

    @staticmethod
    def odds_hint(view: KittenView, count: int, thing: str) -> str:
        """What you hold of the bid's thing and what a call would likely find: the reason
        to raise or to challenge (a bid more than a card above it "looks high")."""
        likely = expected(view, thing)
        mine = count_hand(list(view["hand"] or []), thing).adds
        if count > likely + DOUBT_MARGIN:
            looks = "looks high"
        elif count <= likely:
            looks = "looks likely"
        else:
            looks = "is close"
        return (
            f"You hold {thing_words(thing, mine)}, expect ~{round(likely)} in all: {count} {looks}."
        )

    @staticmethod
    def best_hint(view: KittenView) -> str:
        """The thing you can most expect, and how many of it you hold."""
        best = max(THINGS, key=lambda thing: expected(view, thing))
        mine = count_hand(list(view["hand"] or []), best).adds
        likely = round(expected(view, best))
        return f"Your best: {thing_words(best, mine)} in hand, ~{likely} likely in all."

    @staticmethod
    def may(kind: str, view: KittenView, card: str | None = None) -> bool:
        """Whether a move of this kind (and card) is among the legal actions."""
        return any(
            action.get("type") == kind and (card is None or action.get("card") == card)
            for action in view["legal"]
        )

    def bid_words(self, view: KittenView, bid: Mapping[str, Any]) -> str:
        """``Bea's 4 hats`` / ``your 4 hats``."""
        whose = self.possessive(view, int(bid["seat"]))
        return phrase(whose, f" {thing_words(str(bid['thing']), int(bid['count']))}")

    # What just happened --------------------------------------------------------------

    def after(self, before: KittenView, view: KittenView) -> list[str]:
        """A new reveal, explained with its count; else a special card played, or (in the
        first round) what a new bid shows about the raising rule."""
        if view["seat"] is None:
            return []
        reveal, old = view["last_reveal"], before["last_reveal"]
        if reveal is not None and (old is None or old["round"] != reveal["round"]):
            return self.explain_reveal(view, reveal)
        if before["round"] != view["round"]:
            return []
        lines = self.explain_specials(before, view) + self.explain_bids(before, view)
        return [clip(line) for line in lines[:3]]

    def explain_reveal(self, view: KittenView, reveal: RevealView) -> list[str]:
        """The call, the count against the bid, who loses (or gains) a card and why, and
        what comes of it (out, the win, the next deal)."""
        bid = reveal["bid"]
        caller = reveal["caller"]
        verb = "challenged" if reveal["call"] == CHALLENGE else "called Purrfect on"
        lines = [
            f"{capital(self.name(view, caller))} {verb} {self.bid_words(view, bid)}."
            f" Count of {plural(bid['thing'])}: {self.count_words(view, reveal)}.",
            self.verdict(view, reveal),
        ]
        notes = self.card_notes(view, reveal)
        if notes:
            lines.append(" ".join(notes))
        lines.append(self.consequence(view, reveal))
        return [clip(line) for line in lines]

    def count_words(self, view: KittenView, reveal: RevealView) -> str:
        """``hands 4 (you 2) + flipped card 1 = 5``, or what a flipped special did."""
        subtotal = reveal["subtotal"]
        mine = [hand["adds"] for hand in reveal["hands"] if hand["seat"] == view["seat"]]
        hands = f"hands {subtotal}" + (f" (you {mine[0]})" if mine else "")
        effect = reveal["flip_effect"]
        total = reveal["total"]
        if effect == FLIP_ZERO:
            return f"{hands}, but the flipped {SPECIAL_NAMES[CANT_SEE_ME]} makes it 0"
        if effect == FLIP_DOUBLE:
            return f"{hands}, doubled by the flipped {SPECIAL_NAMES[DOUBLE_TROUBLE]} = {total}"
        return f"{hands} + flipped card {reveal['flip_adds']} = {total}"

    def verdict(self, view: KittenView, reveal: RevealView) -> str:
        """The count against the bid, and so who loses a card, by the rule of the call."""
        count, total = reveal["bid"]["count"], reveal["total"]
        bidder, caller = reveal["bid"]["seat"], reveal["caller"]
        if reveal["call"] == CHALLENGE:
            if total < count:
                return (
                    f"{total} is fewer than the {count} bid, so the bid failed:"
                    f" {self.name(view, bidder)}, who bid it, {self.verb(view, bidder, 'lose')}"
                    " a card."
                )
            return (
                f"{total} is at least the {count} bid, so the bid held:"
                f" {self.name(view, caller)}, who challenged, {self.verb(view, caller, 'lose')}"
                " a card."
            )
        if total == count:
            return (
                f"Exactly {count}, so Purrfect was right: {self.name(view, bidder)}"
                f" {self.verb(view, bidder, 'lose')} a card and {self.name(view, caller)}"
                f" {self.verb(view, caller, 'gain')} one."
            )
        return (
            f"{total} is not exactly {count}, so Purrfect was wrong:"
            f" {self.name(view, caller)} {self.verb(view, caller, 'lose')} a card."
        )

    def card_notes(self, view: KittenView, reveal: RevealView) -> list[str]:
        """What special cards did to the count, or how the cards that counted count (Wilds
        always, doubles and triples in the first rounds)."""
        notes = []
        for hand in reveal["hands"]:
            whose = self.possessive(view, hand["seat"])
            if hand["cant_see_me"]:
                notes.append(f"{SPECIAL_NAMES[CANT_SEE_ME]} made {whose} hand count 0.")
            elif hand["doublings"]:
                times = 2 ** hand["doublings"]
                notes.append(
                    f"{SPECIAL_NAMES[DOUBLE_TROUBLE]} doubled {whose} hand:"
                    f" {hand['base']}x{times} = {hand['adds']}."
                )
        for change in reveal["changes"]:
            if change["delta"] > 0 and change["reason"] == SPECIAL_NAMES[HANG_IN_THERE]:
                notes.append(
                    f"{SPECIAL_NAMES[HANG_IN_THERE]} gave {self.name(view, change['seat'])}"
                    " a card for being right."
                )
        if notes:
            return notes
        cards = [code for hand in reveal["hands"] for code in hand["cards"]]
        counted = [
            card
            for card in (parse(code) for code in [*cards, reveal["flipped"]])
            if card is not None and value(card.code, reveal["bid"]["thing"]) > 0
        ]
        if any(card.wild for card in counted):
            notes.append("A Wild counts as every accessory and colour.")
        sized = any(card.count > 1 and not card.wild for card in counted)
        if sized and reveal["round"] <= COUNTING_TIP_ROUNDS:
            notes.append("A Double counts 2, a Triple 3.")
        return notes

    def consequence(self, view: KittenView, reveal: RevealView) -> str:
        """Who is out, who won, or who deals next and with how many cards."""
        loser = reveal["loser"]
        sizes = reveal["deal_sizes"]
        out = [
            f"{capital(self.name(view, seat))} {self.verb(view, seat, 'have')} no cards left: out."
            for seat in reveal["out"]
        ]
        winner = view["winner"]
        if winner is not None:
            who = self.name(view, winner)
            has = self.verb(view, winner, "have")
            return " ".join(
                [*out, f"Only {who} still {has} cards, so {who} {self.verb(view, winner, 'win')}."]
            )
        nxt = reveal["next_dealer"]
        if nxt is None:
            return " ".join(out) or "The round is over."
        round_ = reveal["round"] + 1
        deals = phrase(
            self.name(view, nxt),
            f" {self.verb(view, nxt, 'deal')} and {self.verb(view, nxt, 'open')} round {round_}",
        )
        if nxt == loser:
            left = sizes[loser]
            cards = f"{left} card{'s' * (left != 1)}"
            return (
                f"{capital(self.name(view, loser))} now {self.verb(view, loser, 'have')} {cards};"
                f" the loser deals next: {deals}."
            )
        return " ".join([*out, f"{capital(deals)}: the next player still in after the loser."])

    def explain_specials(self, before: KittenView, view: KittenView) -> list[str]:
        """Each special card played since ``before`` (same round): what it changed."""
        lines = []
        for entry in view["played"][len(before["played"]) :]:
            seat = int(entry.get("seat", -1))
            who = capital(self.name(view, seat))
            card = str(entry.get("card"))
            standing = view["bid"]
            stands = (
                "" if standing is None else f" {capital(self.bid_words(view, standing))} stands."
            )
            if card == SKIP:
                lines.append(f"{who} played Skip: no bid this turn.{stands}")
            elif card == DRAW_3:
                drawn = int(entry.get("count", 0))
                whose = self.possessive(view, seat)
                lines.append(
                    f"{who} played Draw 3: {drawn} more card{'s' * (drawn != 1)} count in"
                    f" {whose} hand this round only; no bid this turn.{stands}"
                )
            elif card == GO_FISH:
                target = int(entry.get("target", -1))
                taken = int(entry.get("count", 0))
                things = plural(str(entry.get("thing")))
                lines.append(
                    f"{who} fished {self.possessive(view, target)} {things}: {taken}"
                    f" card{'s' * (taken != 1)} moved to {self.possessive(view, seat)} hand"
                    " for this round (Wilds never move); no bid this turn."
                )
        return lines

    def explain_bids(self, before: KittenView, view: KittenView) -> list[str]:
        """In the first round only: the first switch of thing (any thing may follow, only
        the count must rise), and what your own first bid risks."""
        if view["round"] != 1:
            return []
        bids = view["bids"]
        lines = []
        for index in range(len(before["bids"]), len(bids)):
            new = bids[index]
            if index and new["thing"] != bids[index - 1]["thing"]:
                earlier = any(bids[i]["thing"] != bids[i - 1]["thing"] for i in range(1, index))
                if not earlier:
                    old = bids[index - 1]
                    lines.append(
                        f"{capital(self.name(view, new['seat']))} went from"
                        f" {thing_words(old['thing'], old['count'])} to"
                        f" {thing_words(new['thing'], new['count'])}: a raise may name any"
                        " thing; only the count must go up."
                    )
            mine = [i for i, bid in enumerate(bids) if bid["seat"] == view["seat"]]
            if new["seat"] == view["seat"] and mine and mine[0] == index:
                words = thing_words(new["thing"], new["count"])
                lines.append(
                    f"Your {words} stands. If it is challenged and fewer than {new['count']}"
                    " are there, you lose a card; if it is raised, it is no longer yours to"
                    " defend."
                )
        return lines

    def verb(self, view: KittenView, seat: int, base: str) -> str:
        """``lose`` for you, ``loses`` for anyone else (``have``/``has``)."""
        if seat == view["seat"]:
            return base
        return "has" if base == "have" else f"{base}s"

"""The coach of a first Catchy!: what you may play now and why, and what each trick did.

It reads only this seat's :class:`~engine.games.catchy.rules.CatchyView`: your own hand,
the trick under way, this round's finished tricks (each with its winner, flip and move)
and the last round's summary. The rules it explains are the engine's
(``engine/games/catchy/rules.py``, the rulebook's trick flowchart):

- The Starting card is never played: its holder swaps it, unseen, for one of the three
  face-down course cards (keys 1, 2, 3), so both hands hold 7 playable cards, then leads.
- The leader may lead any card; the follower must play the led colour if they hold it,
  but the Joker may always be played, and anything may follow a led Joker.
- Same colour: the higher number wins. Different colours: the leader wins. With the
  Joker (a colourless 3) in the trick the higher number wins, whatever the colours.
- Two odd cards (the cards with a cat; the Joker is a 3) flip the cat. Red side up it
  walks one step towards the trick's winner, blue side up towards the loser; the player
  it walked towards leads next. The Joker with a 3 flips it but it stays, and the same
  leader leads again.
- The round ends when the cat reaches a player's Arms (3 points) or after 7 tricks:
  closer to one player, 2 points to them; at the centre, 1 each.

The advice (:meth:`CatchyCoach.now`) is fitted to the panel, 28 columns by 6 rows at
80x24 (:func:`fit`); what happened (:meth:`CatchyCoach.after`) goes into the log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.games.catchy.rules import (
    COLOURS,
    JOKER,
    JOKER_VALUE,
    RED,
    STARTING,
    CatchyView,
    card_name,
    colour,
    number,
    resolve_trick,
)
from tui.coach import Coach, clip, fit
from tui.you import Ours, capital

FULL_NAMES = 3
"""Up to this many cards are named in full (``Red 1, Red 3 and Red 5``); more are grouped
by colour (``Red 1/3/5, Green 2``) so the advice still fits the panel."""


def steps(count: int) -> str:
    """``1 step``, ``2 steps``."""
    return f"{count} step{'' if count == 1 else 's'}"


def colour_word(card: str) -> str:
    """The led colour as a word (``red``); the Joker has none."""
    letter = colour(card)
    return "no colour" if letter is None else COLOURS[letter]


def is_odd(card: str) -> bool:
    """Whether a card shows a cat (odd numbers; the Joker counts as 3)."""
    return number(card) % 2 == 1


class CatchyCoach(Coach[CatchyView]):
    """Says which cards may be played and what they would do to the cat; explains each
    trick (who won, why the cat moved or flipped) and each round's points."""

    game: ClassVar[str] = "catchy"
    seats: ClassVar[int] = 2
    """Catchy! is for two: you and one easy bot."""
    first_game: ClassVar[dict[str, Any]] = {"target": 4}
    """A shorter game: first to 4 points (two or three rounds) instead of 7."""
    welcome: ClassVar[str] = (
        "Lure the cat into your arms: each trick moves it one step. Red side up it goes to"
        " the trick's winner, blue side up to the loser."
    )

    # What may be done now ------------------------------------------------------------

    def opening(self, view: CatchyView) -> list[str]:
        """The aim, the points and the keys (the panel has room only for what applies now);
        and the Starting card's swap if a bot made it before this first view."""
        points = (
            "A round scores where the cat ends: in your arms 3, nearer you 2, at the centre"
            f" 1 each. First to {view['target']} points wins."
        )
        keys = (
            "Keys: 1-7 pick a card, enter plays it; the Starting card's holder presses 1, 2"
            " or 3 to swap it for a course card. r shows the rules, q leaves."
        )
        lines = [self.welcome, points, keys]
        if view["phase"] != "swap" and view["starter"] != view["seat"] and not view["tricks"]:
            lines.append(self.swap_result(view, view))
        return lines

    def now(self, view: CatchyView) -> list[str]:
        """Your move from ``view["legal"]`` with the rule behind it, or whose turn it is."""
        seat = view["seat"]
        if seat is None or view["outcome"] is not None:
            return []
        legal = view["legal"]
        if not legal:
            return [clip(self.waiting(view))]
        if any(action.get("type") == "swap" for action in legal):
            return self.swap_advice()
        cards = [str(action["card"]) for action in legal if action.get("type") == "play"]
        if not view["trick"]:
            return self.lead_advice(view)
        return self.follow_advice(view, cards)

    def waiting(self, view: CatchyView) -> str:
        """Whose turn it is, and what they must do."""
        turn = view["turn"]
        if turn is None:
            return "The round is over: the next one is being dealt."
        who = self.name(view, turn)
        if view["phase"] == "swap":
            return f"Wait: {who} holds the Starting card, swaps it for a course card, then leads."
        trick = view["trick"]
        if trick:
            led = trick[0]
            if led == JOKER:
                return f"Wait: {who} may answer your Joker with any card."
            word = colour_word(led)
            return f"Wait: {who} must follow your {card_name(led)} with {word} if possible."
        tricks = view["tricks"]
        if not tricks:
            return f"Wait: {who} held the Starting card, so leads the first trick."
        if tricks[-1]["winner"] is None:
            return f"Wait: {who} leads again (Joker and 3: the cat stayed)."
        return f"Wait: {who} leads: the cat last moved toward {who}."

    @staticmethod
    def swap_advice() -> list[str]:
        """The Starting card: never played, swapped blind for a course card."""
        return fit(
            [
                "You hold the Starting card. It is never played: swap it for a course card,"
                " so you have 7 to play.",
                "Press 1, 2 or 3 (they are face down). Then you lead.",
            ]
        )

    def lead_advice(self, view: CatchyView) -> list[str]:
        """Any card may be led; the cat's side says whether winning the trick helps."""
        hand = [card for card in view["hand"] or [] if card != STARTING]
        side = view["cat"]["side"]
        if side == RED:
            plan = "Red cat: it goes to the winner. Lead high."
        else:
            plan = "Blue cat: it goes to the loser. Lead low."
        if len(hand) == 1:
            lead = f"You lead your last card, {card_name(hand[0])}: key 1, then enter."
        else:
            lead = f"You lead: any card (1-{len(hand)} picks, enter plays)."
        return fit(
            [lead],
            [plan, "Two odd cards flip it; an even card never does."],
        )

    def follow_advice(self, view: CatchyView, cards: list[str]) -> list[str]:
        """The led colour must be followed if held (the Joker always may be); off colour,
        the leader wins. Then which of the legal cards bring the cat to you."""
        led = view["trick"][0]
        hand = [card for card in view["hand"] or [] if card != STARTING]
        following = [card for card in cards if colour(card) == colour(led)]
        keys = self.keys(hand, cards, free=led == JOKER or not following)
        if led == JOKER:
            rule = (
                f"{capital(self.name(view, view['leader']))} led the Joker (a 3): play any card."
                " A 4 or 5 beats it."
            )
        else:
            word = colour_word(led)
            if following:
                joker = " (Joker too)" if JOKER in cards else ""
                rule = f"You must follow {word}: you hold {self.cards(following)}{joker}."
            else:
                rule = f"You have no {word}: any card. Off colour, the leader wins"
                if JOKER in cards and number(led) < JOKER_VALUE:
                    rule += f"; only your Joker (a 3) beats {card_name(led)}."
                else:
                    rule += "."
        return fit([rule, keys], [self.outcome_hint(view, cards)])

    def keys(self, hand: list[str], cards: list[str], *, free: bool) -> str:
        """The number keys of ``cards`` in the hand as the screen numbers it (1 = leftmost);
        ``free``: any card may be played (else the cards that follow are named by key)."""
        if len(hand) == 1:
            return "Key 1, then enter."
        if free and len(cards) == len(hand):
            return f"Any card: 1-{len(hand)}, then enter."
        numbers = [str(hand.index(card) + 1) for card in cards if card in hand]
        which = "Key" if len(numbers) == 1 else "Keys"
        return f"{which} {self.listed(numbers, 'or')}, then enter."

    def outcome_hint(self, view: CatchyView, cards: list[str]) -> str:
        """Which of ``cards`` bring the cat to you, worked out exactly from the led card."""
        seat = view["seat"]
        assert seat is not None
        leader = view["leader"]
        led = view["trick"][0]
        side = str(view["cat"]["side"])
        mine: list[str] = []
        still: list[str] = []
        for card in cards:
            toward = resolve_trick(leader, led, card, side).toward
            if toward == seat:
                mine.append(card)
            elif toward is None:
                still.append(card)
        other = self.name(view, 1 - seat)
        if len(cards) == 1:
            card = card_name(cards[0])
            if mine:
                return f"{card} brings the cat to you."
            if still:
                return f"{card} keeps the cat where it is."
            return f"{card} sends the cat to {other}."
        if len(mine) == len(cards):
            return "Whatever you play, the cat comes to you."
        if mine:
            verb = "brings" if len(mine) == 1 else "bring"
            return f"{self.cards(mine, 'or')} {verb} the cat to you."
        if still:
            return (
                f"Nothing brings the cat to you; the Joker keeps it still, the rest send it"
                f" to {other}."
            )
        return f"Every card sends the cat to {other} this time."

    def cards(self, cards: Sequence[str], last: str = "and") -> str:
        """Cards by name: in full for a few (``Red 1, Red 3 and Red 5``); more of one colour
        as ``Red 1, 2, 3 and 5``; more of several grouped (``Red 1/3, Green 2 or Joker``)."""
        if len(cards) <= FULL_NAMES:
            return self.listed([card_name(card) for card in cards], last)
        if JOKER not in cards and len({colour(card) for card in cards}) == 1:
            word = card_name(cards[0]).split()[0]
            return f"{word} {self.listed([card[1] for card in cards], last)}"
        groups: dict[str, list[str]] = {}
        for card in cards:
            if card == JOKER:
                groups.setdefault("Joker", [])
            else:
                groups.setdefault(COLOURS[card[0]].capitalize(), []).append(card[1])
        parts = [name if not nums else f"{name} {'/'.join(nums)}" for name, nums in groups.items()]
        return self.listed(parts, last)

    # What happened -------------------------------------------------------------------

    def after(self, before: CatchyView, view: CatchyView) -> list[str]:
        """Explain a swap, the trick just finished, a round's points and the game's end.

        Views come one per change, so at most one trick is new; after a gap (a view
        missed) the newest trick and the newest round are explained.
        """
        if view["seat"] is None:
            return []
        last = view["last_round"]
        ended = last is not None and (
            before["last_round"] is None or before["last_round"]["round"] != last["round"]
        )
        lines: list[str] = []
        if view["round"] == before["round"]:
            if before["phase"] == "swap" and view["phase"] != "swap":
                lines.append(self.swap_result(before, view))
            new = view["tricks"][len(before["tricks"]) :]
            if new:
                lines.extend(self.trick_result(view, new[-1], finished=ended))
            if ended and last is not None:
                lines.extend(self.round_result(view, last))
        else:
            if ended and last is not None:
                lines.extend(self.round_result(view, last))
            lines.append(
                f"Round {view['round']}: a new deal and a new course; the cat is back at the"
                " centre, red side up."
            )
            if view["phase"] != "swap" and view["starter"] != view["seat"]:
                lines.append(self.swap_result(before, view))  # the deal's view was missed
            if view["tricks"]:
                lines.extend(self.trick_result(view, view["tricks"][-1], finished=False))
        return [clip(line) for line in lines[:4]]

    def swap_result(self, before: CatchyView, view: CatchyView) -> str:
        """What the Starting card was swapped for, as far as this seat may know."""
        starter = view["starter"]
        if starter == view["seat"]:
            taken = [card for card in view["hand"] or [] if card not in (before["hand"] or [])]
            got = card_name(taken[0]) if taken else "a course card"
            return (
                f"You took {got} into your hand; the Starting card lies in its place. The"
                " course cards stay out of play until the round ends."
            )
        place = view["course"].index(STARTING) + 1 if STARTING in view["course"] else 0
        who = self.name(view, starter)
        where = f"course card {place}" if place else "a course card"
        return (
            f"{capital(who)} swapped the Starting card for {where}, unseen by you, and now"
            " leads the first trick."
        )

    def trick_result(
        self, view: CatchyView, trick: Mapping[str, Any], *, finished: bool
    ) -> list[str]:
        """Who won the trick and why; whether the cat flipped, where it went, who leads."""
        leader = int(trick["leader"])
        follower = 1 - leader
        led, followed = (str(card) for card in trick["cards"])
        winner = trick["winner"]
        side = str(trick["side"])
        if winner is None:
            three = followed if led == JOKER else led
            return [
                f"Joker and a 3 ({card_name(three)}): the exception. The cat flips to {side}"
                f" but stays put, and {self.name(view, leader)} "
                f"{'lead' if leader == view['seat'] else 'leads'} again."
            ]
        winner = int(winner)
        loser = 1 - winner
        played = {leader: led, follower: followed}
        won, lost = played[winner], played[loser]
        beats = (
            f"{capital(self.possessive(view, winner))} {card_name(won)} beats "
            f"{self.possessive(view, loser)} {card_name(lost)}"
        )
        if JOKER in (led, followed):
            why = f"{beats}: the Joker counts as 3, and with a Joker the higher number wins."
        elif colour(led) == colour(followed):
            why = f"{beats}: same colour, so the higher number wins."
        else:
            why = (
                f"{capital(self.name(view, follower))} had no {colour_word(led)} "
                f"({card_name(followed)}), so the leader wins: {self.name(view, leader)}."
            )
        if trick["flipped"]:
            mood = f"Both cards odd, so the cat flips to {side}"
        else:
            even = [card_name(card) for card in (led, followed) if not is_odd(card)]
            verb = "is" if len(even) == 1 else "are"
            mood = f"{self.listed(even)} {verb} even, so no flip"
        toward = trick["toward"]
        walks = "to the winner" if side == RED else "away from the winner"
        move = f"{mood}: the {side} cat walks {walks}, toward {self.name(view, toward)}."
        where = self.where(view, int(trick["position"]))
        if finished:
            move += f" {capital(where)}."
        else:
            leads = "lead" if toward == view["seat"] else "leads"
            move += f" {capital(where)}; {self.name(view, toward)} {leads} next."
        return [why, move]

    def where(self, view: CatchyView, position: int) -> Ours:
        """Where the cat sits: ``it is at the centre``, ``it is 2 steps from your arms``,
        ``it is in Bea's arms`` (ours to raise at a sentence start)."""
        if position == 0:
            return Ours("it is at the centre")
        holder = 0 if position < 0 else 1
        arms = int(view["cat"]["arms"])
        left = arms - abs(position)
        if left <= 0:
            return Ours(f"it is in {self.possessive(view, holder)} arms")
        return Ours(f"it is {steps(left)} from {self.possessive(view, holder)} arms")

    def round_result(self, view: CatchyView, last: Mapping[str, Any]) -> list[str]:
        """Why the round's points went where they did and the score; the game's end."""
        position = int(last["position"])
        arms = int(view["cat"]["arms"])
        tricks = int(last["tricks"])
        scores = [int(score) for score in last["scores"]]
        if abs(position) >= arms:
            holder = 0 if position < 0 else 1
            who = self.name(view, holder)
            verb = "score" if holder == view["seat"] else "scores"
            why = (
                f"The cat reached {self.possessive(view, holder)} arms after {tricks} tricks:"
                f" the round ends and {who} {verb} 3."
            )
        elif position != 0:
            holder = 0 if position < 0 else 1
            who = self.name(view, holder)
            verb = "score" if holder == view["seat"] else "scores"
            why = (
                f"All {tricks} tricks played; the cat is {steps(abs(position))} toward {who},"
                f" so {who}, the closer, {verb} 2."
            )
        else:
            why = f"All {tricks} tricks played and the cat sits at the centre: 1 point each."
        seat = view["seat"]
        assert seat is not None
        score = (
            f"Score: you {scores[seat]}, {self.name(view, 1 - seat)} {scores[1 - seat]}"
            if len(scores) == 2
            else ""
        )
        outcome = view["outcome"]
        if outcome is None:
            return [f"{why} {score} (first to {view['target']} wins)."]
        winners = list(outcome["winners"])
        if len(winners) > 1:
            end = f"Both on {scores[seat]}, the target reached: you share the win."
        else:
            who = self.name(view, winners[0])
            verb = "win" if winners[0] == seat else "wins"
            end = f"Game over at {view['target']} points: {who} {verb} with the higher score."
        return [f"{why} {score}.", end]

"""Black Cat bots at three levels, each a different strategy (:data:`engine.bots.LEVELS`).

* ``easy`` (:class:`EasyBlackCatBot`): grabs every card, into the first pile
  where it scores now, else onto its shorter pile; calls only when far ahead.
* ``normal`` (:class:`BlackCatBot`, below): takes cards into the pile where
  they score most (with what the pile's new end promises), leaves cards that
  only spoil its piles when behind, calls when comfortably ahead.
* ``hard`` (:class:`HardBlackCatBot`): values its two piles *together* by
  expected score, takes a card when that, plus what it denies the rival who
  matters, is worth it, leaves it otherwise, and calls the moment it leads
  once the game has stalled (a call when ahead is a win).

All three share the reaction model below, so a level's strength is in what it
chooses, not in how fast it claims.

Why normal leaves a spoiling card even when a rival would score with it (issue
34, measured with ``python -m tests.perf ladder``): a normal that kept such cards
from its rivals won about 0.03 more against easy at four players, but it then
played the card game as well as hard does. Hard's edge at four players comes
mostly from its calls: without them it wins about 0.54 of games against normal.
That normal brought hard>normal down from about 0.61 to 0.56. None of the hard
variants tried won that back: a two-card lookahead, a whole-game value of pile
ends, rollouts, other denial weights, and leaving unwanted cards while ahead to
force a stall. So the gap stays, and each level still beats the one below.

The normal bot:

A Black Cat bot: grabs the cards that score for it, calls the end when it is ahead.

Black Cat is played in real time, so a bot is two things: a choice (which
pile, or call, or leave the card) made by the pure :meth:`BlackCatBot.choose`,
and a human-like delay before the claim reaches the table. The bot does not
sleep; after each decision it sets :attr:`BlackCatBot.reaction_s`, and the
network layer waits that long before submitting the claim (a bot that acted
instantly would win every grab). The delay has seeded jitter, and it is
longer when the bot is only half-interested, so a player who really wants the
card usually gets it first.

How it chooses, from the view alone (it never sees the deck). A call is
legal only once the game has stalled (the top card lay untaken for the
table's stall time, :data:`engine.games.blackcat.rules.STALL_SECONDS`), so the bot
considers calling only then, and only while it leads:

1. Ahead by :attr:`call_margin` or more: call the end.
2. The top card scores in one of its piles: take it into the pile where it
   scores most (counting what the pile's new last card promises, below).
3. The game stalls (the card scores nothing for the bot and at most
   :attr:`quiet_gain` for anyone else) while the bot is ahead by enough for
   what is left: call. "Enough" shrinks with the deck, from
   :attr:`call_margin` at the start to 1 point at the end.
4. Otherwise take it where it does the most good, or, when it only spoils the
   bot's piles and the bot is behind, leave it (``None``) for someone else.

"What a pile promises" is the expected score of the next card put on it,
averaged over the cards nobody has seen yet (the full deck minus every pile
and the top card): a 3 on top of a pile waits for a 7 or a Queen.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.bots import DEFAULT_REACTION_S
from engine.core import Rng
from engine.games.blackcat.scoring import full_deck, is_black, score_pile

DEFAULT_JITTER_S = 0.25
MIN_REACTION_S = 0.2
"""No human reacts faster than this; the arbiter refuses claims below its own bound."""

RELUCTANT_FACTOR = 3.0
"""How much slower the bot is to take a card it does not really want."""

CALL_FACTOR = 1.5
"""Saying the rhyme takes longer than grabbing a card."""

POTENTIAL_WEIGHT = 0.5
"""How much a pile's promise counts against points scored now (the next card may go elsewhere)."""


def _card_class(code: str) -> str:
    """One representative per (rank, colour): suits matter to scoring only through colour."""
    return code[0] + ("S" if is_black(code) else "H")


class BlackCatBot:
    """Takes scoring cards into its best pile and calls the end when ahead."""

    def __init__(
        self,
        rng: Rng,
        *,
        reaction_s: float = DEFAULT_REACTION_S,
        jitter_s: float = DEFAULT_JITTER_S,
        call_margin: int = 12,
        quiet_gain: int = 1,
    ) -> None:
        if reaction_s < MIN_REACTION_S:
            raise ValueError(f"A reaction time is at least {MIN_REACTION_S} s, not {reaction_s}")
        if jitter_s < 0:
            raise ValueError(f"Jitter is not negative, not {jitter_s}")
        self.rng = rng
        self.base_reaction_s = reaction_s
        self.jitter_s = jitter_s
        self.call_margin = call_margin
        self.quiet_gain = quiet_gain
        self.reaction_s = reaction_s
        """Seconds the network layer should wait before submitting the last choice."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """A take into the better pile, a call, or ``None`` to leave the card to others."""
        legal: list[dict[str, Any]] = view.get("legal") or []
        seat = view.get("seat")
        top = view.get("top")
        if not legal or seat is None or top is None:
            return None
        variants = view.get("variants") or {}
        lucky = bool(variants.get("lucky_tom"))
        music = bool(variants.get("music_of_the_night"))
        scores: list[int] = view["scores"]
        others = [score for other, score in enumerate(scores) if other != seat]
        lead = scores[seat] - max(others)
        takes = [action for action in legal if action["type"] == "take"]
        call = next((action for action in legal if action["type"] == "call"), None)
        if lead <= 0:
            call = None  # the bot calls only when it believes it leads

        if call is not None and lead >= self.call_margin:
            return self._decide(call, CALL_FACTOR)

        piles: list[list[list[str]]] = [
            [pile["cards"] for pile in seat_piles] for seat_piles in view["piles"]
        ]
        unseen = self._unseen(view, piles, top)
        mine = piles[seat]
        gains = [self._gain(pile, top, lucky, music) for pile in mine]
        values = [
            gain + POTENTIAL_WEIGHT * self._promise_change(pile, top, unseen, lucky, music)
            for gain, pile in zip(gains, mine, strict=True)
        ]
        best = self._best_pile(values, gains)
        take = next((action for action in takes if action["pile"] == best), None)
        if take is not None and gains[best] > 0:
            return self._decide(take, 1.0)

        if call is not None and lead >= max(1, self.call_margin * self._share_left(view)):
            rival_gain = max(
                self._gain(pile, top, lucky, music)
                for other, seat_piles in enumerate(piles)
                if other != seat
                for pile in seat_piles
            )
            if rival_gain <= self.quiet_gain:
                return self._decide(call, CALL_FACTOR)

        if take is None or (values[best] < 0 and lead < 0):
            return None
        return self._decide(take, 1.0 if values[best] > 0 else RELUCTANT_FACTOR)

    # Helpers -----------------------------------------------------------------

    def _decide(self, action: dict[str, Any], factor: float) -> dict[str, Any]:
        """Return ``action`` after drawing this decision's reaction time."""
        spread = (self.rng.random() + self.rng.random() - 1.0) * self.jitter_s
        self.reaction_s = max(MIN_REACTION_S, self.base_reaction_s * factor + spread)
        return action

    def _best_pile(self, values: Sequence[float], gains: Sequence[int]) -> int:
        """The pile with the best value (points now break ties, then a coin)."""
        ranked = sorted(range(len(values)), key=lambda i: (values[i], gains[i]), reverse=True)
        top = [i for i in ranked if (values[i], gains[i]) == (values[ranked[0]], gains[ranked[0]])]
        chosen: int = self.rng.choice(top)
        return chosen

    @staticmethod
    def _share_left(view: dict[str, Any]) -> float:
        """The part of the deck still to come (1.0 at the start, near 0 at the end)."""
        return int(view.get("deck_left", 0)) / max(1, int(view.get("deck_size", 52)))

    @staticmethod
    def _unseen(view: dict[str, Any], piles: list[list[list[str]]], top: str) -> Counter[str]:
        """Card classes nobody has seen yet: the deck minus every pile and the top card."""
        decks = max(1, int(view.get("deck_size", 52)) // 52)
        unseen = Counter(_card_class(card) for card in full_deck(decks))
        seen = [card for seat_piles in piles for pile in seat_piles for card in pile]
        unseen.subtract(_card_class(card) for card in [*seen, top])
        return +unseen

    @staticmethod
    def _gain(pile: list[str], card: str, lucky: bool, music: bool) -> int:
        before = score_pile(pile, lucky_tom=lucky, music_of_the_night=music).total
        after = score_pile([*pile, card], lucky_tom=lucky, music_of_the_night=music).total
        return after - before

    def _promise(self, pile: list[str], unseen: Counter[str], lucky: bool, music: bool) -> float:
        """The expected points of one more unseen card on ``pile``."""
        count = sum(unseen.values())
        if count == 0:
            return 0.0
        total = sum(
            weight * self._gain(pile, card, lucky, music) for card, weight in unseen.items()
        )
        return total / count

    def _promise_change(
        self, pile: list[str], card: str, unseen: Counter[str], lucky: bool, music: bool
    ) -> float:
        return self._promise([*pile, card], unseen, lucky, music) - self._promise(
            pile, unseen, lucky, music
        )


# Easy ---------------------------------------------------------------------------------


class EasyBlackCatBot(BlackCatBot):
    """Grabs the top card every time: the first pile where it scores, else the shorter pile.

    Why this is a fair "easy": it is what a newcomer does (take cards, put them
    where they score right now), so it scores Tomcats and Yowlers, but it never
    thinks about what a pile's end waits for, so it buries its own chances, and it
    takes cards that a stronger player would leave to spoil someone else's pile.
    """

    EASY_CALL_MARGIN = 20
    """Calls only when a stalled game finds it this far ahead (it rarely is)."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal: list[dict[str, Any]] = view.get("legal") or []
        seat = view.get("seat")
        if not legal or seat is None or view.get("top") is None:
            return None
        scores: list[int] = view["scores"]
        lead = scores[seat] - max(score for other, score in enumerate(scores) if other != seat)
        call = next((action for action in legal if action["type"] == "call"), None)
        if call is not None and lead >= self.EASY_CALL_MARGIN:
            return self._decide(call, CALL_FACTOR)
        mine: list[dict[str, Any]] = view["piles"][seat]
        takes = {action["pile"]: action for action in legal if action["type"] == "take"}
        scoring = [pile for pile in sorted(takes) if (mine[pile].get("if_taken") or 0) > 0]
        if scoring:
            return self._decide(takes[scoring[0]], 1.0)
        shorter = min(sorted(takes), key=lambda pile: len(mine[pile]["cards"]))
        return self._decide(takes[shorter], 1.0)


# Hard ---------------------------------------------------------------------------------

SUFFIX = 8
"""Cards at a pile's end the hard bot's lookahead scores with. Every cat is a few
adjacent cards (a Black Cat run of black cards adds to 13, so it is short), so what one
more card adds depends on the end of the pile only; scoring the end keeps it fast."""

DENIAL_WEIGHT = 1.0
"""How much a point the top card would give the rival who matters counts against leaving
it: in a race for the top score, a point to the leader is a point lost."""

OTHER_RIVAL_WEIGHT = 0.5
"""The same for the other rivals (four players): their points matter less."""

TAKE_THRESHOLD = 0.0
"""The value a take must beat; below it the card is left for someone else."""


class HardBlackCatBot(BlackCatBot):
    """Values its two piles together by expected score, and plays for the top score.

    A pile state is worth its score now plus what the next card is expected to
    add, where that card may go on *either* pile (the better one): two piles
    with different ends catch more cards than two that wait for the same. So a
    take is worth the change in that value; leaving a card is worth minus what
    it would give a rival (someone will take it). And since a call ends the game
    and the top score wins, the bot calls as soon as a call is allowed while it
    leads, and never lets a stalled game sit while it trails.
    """

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal: list[dict[str, Any]] = view.get("legal") or []
        seat = view.get("seat")
        top = view.get("top")
        if not legal or seat is None or top is None:
            return None
        variants = view.get("variants") or {}
        lucky = bool(variants.get("lucky_tom"))
        music = bool(variants.get("music_of_the_night"))
        scores: list[int] = view["scores"]
        rivals = [other for other in range(len(scores)) if other != seat]
        leader = max(rivals, key=lambda other: scores[other])
        lead = scores[seat] - scores[leader]
        call = next((action for action in legal if action["type"] == "call"), None)
        if call is not None and lead > 0:
            return self._decide(call, CALL_FACTOR)
        takes = {action["pile"]: action for action in legal if action["type"] == "take"}
        if not takes:
            return None
        piles: list[list[list[str]]] = [
            [pile["cards"] for pile in seat_piles] for seat_piles in view["piles"]
        ]
        unseen = self._unseen(view, piles, top)
        mine = piles[seat]
        now = self._expected(mine[0], mine[1], unseen, lucky, music)
        values = {
            0: self._expected([*mine[0], top], mine[1], unseen, lucky, music) - now,
            1: self._expected(mine[0], [*mine[1], top], unseen, lucky, music) - now,
        }
        denial = 0.0
        for other in rivals:
            gains = [pile.get("if_taken") or 0 for pile in view["piles"][other]]
            weight = DENIAL_WEIGHT if other == leader else OTHER_RIVAL_WEIGHT
            denial = max(denial, weight * max(0, *gains))
        best = max(sorted(takes), key=lambda pile: values[pile])
        worth = values[best] + denial
        stalled = bool(view.get("stalled"))
        if worth > TAKE_THRESHOLD or (stalled and lead <= 0):
            factor = 1.0 if worth > TAKE_THRESHOLD else RELUCTANT_FACTOR
            return self._decide(takes[best], factor)
        return None

    def _expected(
        self, first: list[str], second: list[str], unseen: Counter[str], lucky: bool, music: bool
    ) -> float:
        """Both piles' score now, plus what the next unseen card is expected to add on the
        better of the two."""
        score = (
            score_pile(first, lucky_tom=lucky, music_of_the_night=music).total
            + score_pile(second, lucky_tom=lucky, music_of_the_night=music).total
        )
        count = sum(unseen.values())
        if count == 0:
            return float(score)
        ends = (tuple(first[-SUFFIX:]), tuple(second[-SUFFIX:]))
        total = 0
        for card, weight in unseen.items():
            first_gain = _end_gain(ends[0], card, lucky, music)
            total += weight * max(first_gain, _end_gain(ends[1], card, lucky, music))
        return score + total / count


@functools.lru_cache(maxsize=1 << 16)
def _end_gain(end: tuple[str, ...], card: str, lucky: bool, music: bool) -> int:
    """What ``card`` adds to a pile ending in ``end`` (cached: the same ends recur all game)."""
    before = score_pile(end, lucky_tom=lucky, music_of_the_night=music).total
    after = score_pile((*end, card), lucky_tom=lucky, music_of_the_night=music).total
    return max(0, after - before)

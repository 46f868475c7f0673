"""Catchy! bots at three levels, each a different way of thinking (:data:`engine.bots.LEVELS`).

* ``easy`` (:class:`EasyCatchyBot`): a rule-follower that reads only the cat's
  colour: red, try to win the trick; blue, try to lose it. It leads its
  highest or lowest card for that and, following, plays the cheapest card
  that sends the cat its way this trick. It never thinks about flips to come,
  the score, or what the opponent may hold.
* ``normal`` (:class:`CatchyBot`, below): one trick ahead, with the opponent's
  possible replies.
* ``hard`` (:class:`HardCatchyBot`): searches the rest of the round exactly
  (every trick to the end, both sides playing their best) for each opponent
  hand consistent with what its seat has seen, and plays the card with the
  best average; round results are valued by what they do to the game.

The normal bot reasons one trick ahead from what its seat can see.

It knows its hand, the cards played this round and the follow rule, so it
knows which cards the opponent may still hold (the unseen ones, minus the
colours the opponent has shown to be out of). As follower it knows the led
card and picks the reply whose outcome it likes best. As leader it scores
each card against every card the opponent could answer with, blending the
average (an unpredictable opponent) with the worst case (a sharp one).

Outcomes are valued as round points: a cat in someone's Arms is decided, a
cat after the last trick scores as it stands, otherwise the cat's distance
counts with the tricks still to come discounting it. Among equal choices the
bot keeps its strong cards and the Joker for later.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from engine.core import Rng
from engine.games.catchy.rules import (
    ARMS_POINTS,
    CENTRE_POINTS,
    CLOSER_POINTS,
    JOKER,
    PLAYABLE,
    RED,
    colour,
    number,
    resolve_trick,
)

LEADER_BONUS = 0.15
"""Value of leading the next trick (in round points)."""

WORST_CASE_WEIGHT = 0.5
"""How much a leader fears the opponent's best reply versus an average one."""

SPEND_COST = 0.02
"""Cost per point of strength spent, so ties go to the weaker card."""


class CatchyBot:
    """Plays Catchy! from ``view(state, seat)`` alone."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.reaction_s = 0.0
        """Catchy! is turn-based: the host paces bots with its own delay."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal: list[dict[str, Any]] = view.get("legal") or []
        if not legal:
            return None
        if legal[0]["type"] == "swap":
            # Every face-down course card is equally unknown.
            choice: dict[str, Any] = self.rng.choice(legal)
            return choice
        seat: int = view["seat"]
        scored = [(self._value(view, seat, a["card"]), index) for index, a in enumerate(legal)]
        best = max(value for value, _ in scored)
        ties = [legal[index] for value, index in scored if value >= best - 1e-9]
        pick: dict[str, Any] = self.rng.choice(ties)
        return pick

    # Valuation ------------------------------------------------------------------

    def _value(self, view: dict[str, Any], seat: int, card: str) -> float:
        trick: list[str] = view["trick"]
        side: str = view["cat"]["side"]
        cost = SPEND_COST * (number(card) + (2 if card == JOKER else 0))
        if trick:
            return self._outcome(view, seat, 1 - seat, trick[0], card, side) - cost
        replies = self._possible_replies(view, seat, card)
        if not replies:
            return -cost
        values = [self._outcome(view, seat, seat, card, reply, side) for reply in replies]
        average = sum(values) / len(values)
        worst = min(values)
        return (1 - WORST_CASE_WEIGHT) * average + WORST_CASE_WEIGHT * worst - cost

    def _outcome(
        self, view: dict[str, Any], seat: int, leader: int, led: str, followed: str, side: str
    ) -> float:
        """Round points (ours minus theirs, roughly) after this trick."""
        result = resolve_trick(leader, led, followed, side)
        position: int = view["cat"]["position"]
        if result.toward is not None:
            position += -1 if result.toward == 0 else 1
        mine = -position if seat == 0 else position  # steps towards us
        arms: int = view["cat"]["arms"]
        if abs(mine) >= arms:
            return ARMS_POINTS * (1 if mine > 0 else -1) * 2
        tricks_left = view["tricks_per_round"] - len(view["tricks"]) - 1
        sign = (mine > 0) - (mine < 0)
        if tricks_left == 0:
            return float(CLOSER_POINTS * 2 * sign)
        # With tricks to come the cat's place is less certain; nearer the Arms is better.
        closeness = mine / arms
        value = CLOSER_POINTS * 2 * closeness * (0.5 + 0.5 / tricks_left)
        if result.next_leader == seat:
            value += LEADER_BONUS
        return float(value)

    def _possible_replies(self, view: dict[str, Any], seat: int, led: str) -> list[str]:
        """Cards the opponent might answer ``led`` with, by the follow rule."""
        unseen = self._unseen(view, seat)
        voids = self._opponent_voids(view, seat)
        candidates = [card for card in unseen if colour(card) not in voids]
        led_colour = colour(led)
        if led_colour is None or led_colour in voids:
            return candidates
        following = [c for c in candidates if colour(c) == led_colour or c == JOKER]
        # If they may hold the colour they must follow it; if they may not, anything goes.
        return following if any(colour(c) == led_colour for c in following) else candidates

    def _unseen(self, view: dict[str, Any], seat: int) -> list[str]:
        seen = set(view["hand"] or ())
        for trick in view["tricks"]:
            seen.update(trick["cards"])
        seen.update(view["trick"])
        return [card for card in PLAYABLE if card not in seen]

    def _opponent_voids(self, view: dict[str, Any], seat: int) -> set[str | None]:
        """Colours the opponent showed they lacked by not following them."""
        voids: set[str | None] = set()
        for trick in view["tricks"]:
            led, followed = trick["cards"]
            followed_suit = followed == JOKER or colour(followed) == colour(led)
            if trick["leader"] == seat and colour(led) is not None and not followed_suit:
                voids.add(colour(led))
        return voids


# Easy ---------------------------------------------------------------------------------


class EasyCatchyBot:
    """Follows the cat's colour and nothing else (see the module docstring).

    Why this is a fair "easy": it plays by the rule a newcomer learns first
    (red, the winner gets the cat; blue, the loser does) and so makes sense
    to watch, but it ignores flips (two odd cards turn the cat), the Joker's
    exception, and the position, which the stronger levels exploit.
    """

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.reaction_s = 0.0
        """Catchy! is turn-based: the host paces bots with its own delay."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal: list[dict[str, Any]] = view.get("legal") or []
        if not legal:
            return None
        if legal[0]["type"] == "swap":
            choice: dict[str, Any] = self.rng.choice(legal)
            return choice
        seat: int = view["seat"]
        trick: list[str] = view["trick"]
        side: str = view["cat"]["side"]
        cards = sorted((a["card"] for a in legal), key=number)
        if not trick:
            # Red: lead high to win the trick; blue: lead low to lose it.
            card = cards[-1] if side == RED else cards[0]
        else:
            towards_me = [
                c for c in cards if resolve_trick(1 - seat, trick[0], c, side).toward == seat
            ]
            card = towards_me[0] if towards_me else cards[0]
        return {"type": "play", "card": card}


# Hard ---------------------------------------------------------------------------------

_INDEX: dict[str, int] = {card: index for index, card in enumerate(PLAYABLE)}
_BIT: dict[str, int] = {card: 1 << index for index, card in enumerate(PLAYABLE)}
_JOKER_BIT = _BIT[JOKER]
_COLOUR_MASK: dict[str | None, int] = {
    letter: sum(_BIT[c] for c in PLAYABLE if colour(c) == letter) for letter in "RGB"
}
_CARD_COLOUR: list[str | None] = [colour(card) for card in PLAYABLE]
_SIDES = (RED, "blue")


def _resolution_table() -> list[list[list[tuple[int, int, int]]]]:
    """``[led][followed][side]`` -> (new side, cat move for the leader, leader leads again).

    The cat move is +1 towards the trick's leader, -1 towards the follower, 0 when it
    stays; "leads again" is 1 when the trick's leader leads the next trick. Worked out
    once from the rules' own :func:`resolve_trick`, so the search cannot disagree with them.
    """
    table: list[list[list[tuple[int, int, int]]]] = []
    for led in PLAYABLE:
        row: list[list[tuple[int, int, int]]] = []
        for followed in PLAYABLE:
            cell: list[tuple[int, int, int]] = []
            for side in _SIDES:
                result = resolve_trick(0, led, followed, side)
                move = 0 if result.toward is None else (1 if result.toward == 0 else -1)
                cell.append((_SIDES.index(result.side), move, int(result.next_leader == 0)))
            row.append(cell)
        table.append(row)
    return table


_RESOLVE = _resolution_table()

MAX_DEALS = 36
"""Opponent hands considered per decision. In the play phase two course cards are unseen,
so the opponent's hand is "all the unseen cards but two": at most C(9, 2) = 36 hands,
every one of them listed; the cap only matters for hand-made views."""

VISIT_BUDGET = 5_000
"""Positions the search may look at per decision before it stops taking more opponent
hands (it always finishes the hand under way, and takes at least one). Late in a round
every hand fits; on the first tricks it is a seeded sample of them. About 15-20 ms of
search on a laptop core: the decision p99 stays under the 50 ms goal."""

GAME_WIN_VALUE = 10.0
"""What ending the game as its (sole) winner is worth, in round points: more than any
round can give, so the search goes for the win (and away from a loss) when one is near."""


def _replies(hand: int, led: int) -> int:
    """The cards of ``hand`` (a mask) that may follow card ``led``: the follow rule."""
    led_colour = _CARD_COLOUR[led]
    if led_colour is None:
        return hand
    following = hand & _COLOUR_MASK[led_colour]
    return following | (hand & _JOKER_BIT) if following else hand


_BITS: list[list[int]] = []
"""``_BITS[mask]``: the card indices in ``mask`` (filled lazily; masks are 16 bits)."""


def _bits(mask: int) -> list[int]:
    """The card indices in ``mask``, lowest first (cached: the search asks millions of times)."""
    if not _BITS:
        _BITS.extend([] for _ in range(1 << len(PLAYABLE)))
    found = _BITS[mask]
    if not found and mask:
        rest = mask
        while rest:
            low = rest & -rest
            found.append(low.bit_length() - 1)
            rest ^= low
    return found


class _RoundSearch:
    """Exact minimax over the rest of one round with both hands known (perfect information).

    A round can only end five ways (the cat in my arms, closer to me, at the centre,
    closer to them, in their arms), so a position's value is one of five numbers.
    Rather than compute values, the search answers "is this position worth at least
    ``t``?" (:meth:`at_least`): a yes needs one good card, a no one refutation, so most
    of the tree is never visited. A value is then found by asking about the five
    numbers in turn. Answers are memoised as bounds per (my hand, their hand, who
    leads, cat, side), exact whatever deal led there, so one table serves every
    opponent hand tried for a decision.
    """

    def __init__(self, arms: int, ends: tuple[float, float, float, float, float]) -> None:
        self.arms = arms
        # ends: in my arms, closer to me, centre, closer to them, in their arms.
        self.ends = ends
        self.thresholds = sorted(set(ends))
        self.bounds: dict[int, tuple[float, float]] = {}
        """key -> (value is at least, value is below)."""
        self.visits = 0
        """Positions looked at (memo hits too): the work done, counted so that a decision's
        effort is bounded by a count, not a clock, and stays reproducible."""

    def end_value(self, position: int) -> float:
        """What the round is worth when it ends with the cat ``position`` steps my way."""
        if position >= self.arms:
            return self.ends[0]
        if position <= -self.arms:
            return self.ends[4]
        if position > 0:
            return self.ends[1]
        if position < 0:
            return self.ends[3]
        return self.ends[2]

    def after_at_least(
        self,
        mine: int,
        theirs: int,
        i_led: bool,
        position: int,
        side: int,
        led: int,
        followed: int,
        threshold: float,
    ) -> bool:
        """Whether the position once ``led`` and ``followed`` are played (and out of the
        hands) is worth at least ``threshold``."""
        new_side, move, again = _RESOLVE[led][followed][side]
        position += move if i_led else -move
        if position >= self.arms or position <= -self.arms or not mine:
            return self.end_value(position) >= threshold
        i_lead = i_led if again else not i_led
        return self.at_least(mine, theirs, i_lead, position, new_side, threshold)

    def at_least(
        self, mine: int, theirs: int, i_lead: bool, position: int, side: int, threshold: float
    ) -> bool:
        """Whether the position at the start of a trick is worth at least ``threshold``."""
        self.visits += 1
        key = mine | theirs << 16 | i_lead << 32 | side << 33 | (position + 16) << 34
        bounds = self.bounds
        known = bounds.get(key)
        if known is not None:
            if known[0] >= threshold:
                return True
            if known[1] <= threshold:
                return False
        after = self.after_at_least
        result: bool
        if i_lead:
            result = False
            for led in _bits(mine):
                rest = mine ^ (1 << led)
                for reply in _bits(_replies(theirs, led)):
                    if not after(
                        rest, theirs ^ (1 << reply), True, position, side, led, reply, threshold
                    ):
                        break
                else:
                    result = True
                    break
        else:
            result = True
            for led in _bits(theirs):
                rest = theirs ^ (1 << led)
                for reply in _bits(_replies(mine, led)):
                    if after(
                        mine ^ (1 << reply), rest, False, position, side, led, reply, threshold
                    ):
                        break
                else:
                    result = False
                    break
        low, high = known if known is not None else (-1e9, 1e9)
        if result:
            bounds[key] = (max(low, threshold), high)
        else:
            bounds[key] = (low, min(high, threshold))
        return result

    def value_of(self, holds: Callable[[float], bool]) -> float:
        """The largest of the five end values ``t`` for which ``holds(t)``; the worst if none.

        ``holds`` is monotone (worth at least ``t`` implies worth at least anything lower),
        so the values are tried from the top down until one holds.
        """
        for threshold in reversed(self.thresholds[1:]):
            if holds(threshold):
                return threshold
        return self.thresholds[0]


class HardCatchyBot:
    """Searches the rest of the round for every opponent hand its seat cannot rule out.

    Why: seven tricks with at most seven cards a side are small enough to solve
    exactly once both hands are fixed, and from one seat's view only two course
    cards are unknown besides the opponent's hand, so the opponent's possible hands
    are few (at most 36) and can all be tried (colours the opponent failed to follow
    are ruled out). Each card is scored by its exact value averaged over those hands
    (perfect-information Monte Carlo, here without the Monte Carlo), and a round end
    is valued by what it does to the game: a round that would end the game is worth
    a win or a loss, not just its points. It never sees the state, only its view.
    """

    def __init__(
        self, rng: Rng, max_deals: int = MAX_DEALS, visit_budget: int = VISIT_BUDGET
    ) -> None:
        self.rng = rng
        self.max_deals = max_deals
        self.visit_budget = visit_budget
        self.reaction_s = 0.0
        """Catchy! is turn-based: the host paces bots with its own delay."""
        self._normal = CatchyBot(rng)

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal: list[dict[str, Any]] = view.get("legal") or []
        if not legal:
            return None
        if legal[0]["type"] == "swap":
            # Every face-down course card is equally unknown.
            choice: dict[str, Any] = self.rng.choice(legal)
            return choice
        if len(legal) == 1:
            return legal[0]
        seat: int = view["seat"]
        deals = self._deals(view, seat)
        if not deals:  # a view no deal fits (hand-made): fall back on one trick ahead
            return self._normal.choose(view)
        search = _RoundSearch(int(view["cat"]["arms"]), self._ends(view, seat))
        totals = {action["card"]: 0.0 for action in legal}
        self.rng.shuffle(deals)  # a seeded order: when the budget runs out, a fair sample
        for theirs in deals:
            for card in totals:
                totals[card] += self._card_value(view, seat, search, theirs, card)
            if search.visits >= self.visit_budget:
                break
        best = max(totals.values())
        ties = [card for card, total in totals.items() if total >= best - 1e-9]
        # Equal in every deal: keep the strong cards and the Joker for later.
        ties.sort(key=lambda card: (number(card) + (2 if card == JOKER else 0), card))
        return {"type": "play", "card": ties[0]}

    def _card_value(
        self, view: dict[str, Any], seat: int, search: _RoundSearch, theirs: int, card: str
    ) -> float:
        """The exact round value of playing ``card`` now, against the hand ``theirs``."""
        mine = 0
        for held in view["hand"] or ():
            mine |= _BIT.get(held, 0)
        index = _INDEX[card]
        mine ^= 1 << index
        trick: list[str] = view["trick"]
        position = self._position(view, seat)
        side = _SIDES.index(view["cat"]["side"])
        if trick:  # I follow: the trick ends now
            led = _INDEX[trick[0]]
            return search.value_of(
                lambda t: search.after_at_least(mine, theirs, False, position, side, led, index, t)
            )
        replies = _bits(_replies(theirs, index))

        def holds(threshold: float) -> bool:
            return all(
                search.after_at_least(
                    mine, theirs ^ (1 << reply), True, position, side, index, reply, threshold
                )
                for reply in replies
            )

        return search.value_of(holds)

    @staticmethod
    def _position(view: dict[str, Any], seat: int) -> int:
        """The cat's steps towards ``seat`` (seat 0 sits at the negative end)."""
        position: int = view["cat"]["position"]
        return -position if seat == 0 else position

    @staticmethod
    def _ends(view: dict[str, Any], seat: int) -> tuple[float, float, float, float, float]:
        """What each way the round can end is worth to ``seat``, given the game score.

        Normally the points difference; when the round's points would end the game,
        the game's result instead (a win, a shared win, a loss).
        """
        scores: list[int] = view["scores"]
        target: int = view["target"]
        mine, theirs = scores[seat], scores[1 - seat]
        ends = []
        for gained, lost in (
            (ARMS_POINTS, 0),
            (CLOSER_POINTS, 0),
            (CENTRE_POINTS, CENTRE_POINTS),
            (0, CLOSER_POINTS),
            (0, ARMS_POINTS),
        ):
            a, b = mine + gained, theirs + lost
            if max(a, b) >= target:
                ends.append(GAME_WIN_VALUE if a > b else 0.0 if a == b else -GAME_WIN_VALUE)
            else:
                ends.append(float(gained - lost))
        return (ends[0], ends[1], ends[2], ends[3], ends[4])

    def _deals(self, view: dict[str, Any], seat: int) -> list[int]:
        """Every opponent hand (a mask) consistent with this seat's view, or a sample of them.

        The unseen cards are the opponent's hand and the face-down course; a colour
        the opponent did not follow is not in their hand, so its unseen cards are in
        the course. Deals are listed in a fixed order, so the choice is reproducible.
        """
        unseen = self._normal._unseen(view, seat)
        voids = self._normal._opponent_voids(view, seat)
        count = int(view["hand_counts"][1 - seat])
        if count == 0 or count > len(unseen):
            return []
        open_cards = [card for card in unseen if colour(card) not in voids]
        if len(open_cards) < count:  # the inference failed somehow: forget the voids
            open_cards = unseen
        combos: Callable[[], Any] = lambda: itertools.combinations(open_cards, count)  # noqa: E731
        total = 1
        for k in range(count):
            total = total * (len(open_cards) - k) // (k + 1)
        hands: list[tuple[str, ...]]
        if total <= self.max_deals:
            hands = list(combos())
        else:
            hands = []
            for _ in range(self.max_deals):
                picked = list(open_cards)
                self.rng.shuffle(picked)
                hands.append(tuple(picked[:count]))
        masks = []
        for hand in hands:
            mask = 0
            for card in hand:
                mask |= _BIT[card]
            masks.append(mask)
        return masks

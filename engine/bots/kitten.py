"""Kitten Me! bots: one that samples what the others might hold, and a plain baseline.

:class:`KittenBot` sees only its view. The cards it cannot see (the chosen
deck minus its own hand, the special cards played face up, and the cards it
handed over by Go Fish, which it knows are in the taker's hand) are dealt at
random into the other hands and the flip, many times. Each sample is weighted
by the other players' bids this round (a bidder more likely holds what they
bid), which is how the bot *reads bids*. From the weighted samples it knows,
for every accessory and colour, P(total >= n) and P(total = n), and decides:

- challenge when the standing bid is less likely to hold than its best raise
  is to be true (a raise risks being challenged in turn);
- call Purrfect when the exact total is likely enough to beat both;
- otherwise raise to the most plausible bid, now and then bluffing (a bid
  it believes less, on a thing it lacks, to mislead the bid readers);
- play Skip, Draw 3 or Go Fish when every choice is risky: they pass the
  turn, and Draw 3 and Go Fish also show it cards.

Its level of play is set by its parameters (samples, bluff rate, caution).

:class:`PlainKittenBot` is the baseline the sampler is measured against: it
bids what its own hand supports plus the average of the unseen cards, and
challenges a bid above that expected count (plus a fixed margin).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from engine.core import Rng
from engine.kitten_cards import (
    CANT_SEE_ME,
    DOUBLE_TROUBLE,
    DRAW_3,
    GO_FISH,
    SKIP,
    THINGS,
    apply_flip,
    count_hand,
    deck,
    value,
)

SAMPLES = 240
"""Deals of the unseen cards sampled per decision."""
BID_SHARPNESS = 1.5
"""How much a bid tells about its bidder's hand: a player is taken to bid a thing
with probability proportional to exp(BID_SHARPNESS x how many of it their hand shows)."""
BELIEF_CAP = 8
"""Beyond this many of a thing in hand, more does not make a bid of it likelier."""
BLUFF_RATE = 0.08
"""How often a raise is a bluff (a thing it believes less)."""
BLUFF_FLOOR = 0.35
"""A bluff still needs this chance of being true."""
CHALLENGE_FEAR = 0.75
"""How likely a raise is to be challenged, as the bot weighs a raise against a challenge."""
PASS_BELOW = -0.3
"""Play Skip, Draw 3 or Go Fish when the best bid or call is worth less than this."""
PURRFECT_MARGIN = 0.05
"""Purrfect must beat the other choices by this much (a wrong call costs a card)."""
RAISE_SPAN = 3
"""How far above the lowest legal count the bot considers raising."""

_THING_INDEX = {thing: index for index, thing in enumerate(THINGS)}


def _vector(code: str) -> tuple[int, ...]:
    return tuple(value(code, thing) for thing in THINGS)


class Belief:
    """Weighted samples of the round's totals, per thing, from one seat's view."""

    def __init__(self, view: dict[str, Any], rng: Rng, samples: int) -> None:
        seat: int = view["seat"]
        self.hand: list[str] = list(view["hand"] or [])
        counts: list[int] = view["hand_counts"]
        known: dict[int, list[str]] = {}
        unseen = Counter(deck(view["deck_set"]))
        unseen.subtract(self.hand)
        for entry in view["played"]:
            unseen[entry["card"]] -= 1
            given = entry.get("cards")
            if given and entry.get("target") == seat:
                # Go Fish on us: we know those cards sit in the taker's hand.
                known.setdefault(entry["seat"], []).extend(given)
                unseen.subtract(given)
        pool = [code for code, count in unseen.items() for _ in range(max(count, 0))]
        others = [
            (other, counts[other] - len(known.get(other, [])))
            for other in range(len(counts))
            if other != seat and counts[other]
        ]
        bids_by: dict[int, list[dict[str, Any]]] = {}
        for bid in view["bids"]:
            if bid["seat"] != seat:
                bids_by.setdefault(bid["seat"], []).append(bid)
        mine = [count_hand(self.hand, thing).adds for thing in THINGS]
        self.totals: list[list[int]] = [[] for _ in THINGS]
        self.weights: list[float] = []
        needed = min(sum(max(free, 0) for _, free in others) + 1, len(pool))
        for _ in range(samples):
            _partial_shuffle(pool, needed, rng)
            position = 0
            sums = list(mine)
            weight = 1.0
            for other, free in others:
                cards = [*known.get(other, []), *pool[position : position + max(free, 0)]]
                position += max(free, 0)
                adds = _hand_adds(cards)
                for index in range(len(THINGS)):
                    sums[index] += adds[index]
                bids = bids_by.get(other)
                if bids:
                    weight *= _bid_likelihood(adds, bids)
            flip = pool[position] if position < len(pool) else SKIP
            for index, thing in enumerate(THINGS):
                self.totals[index].append(apply_flip(sums[index], flip, thing))
            self.weights.append(weight)
        self.mass = sum(self.weights) or 1.0

    def at_least(self, thing: str, count: int) -> float:
        """P(total >= count) for ``thing``."""
        totals = self.totals[_THING_INDEX[thing]]
        hit = sum(w for total, w in zip(totals, self.weights, strict=True) if total >= count)
        return hit / self.mass

    def exactly(self, thing: str, count: int) -> float:
        """P(total == count) for ``thing``."""
        totals = self.totals[_THING_INDEX[thing]]
        hit = sum(w for total, w in zip(totals, self.weights, strict=True) if total == count)
        return hit / self.mass

    def mean(self, thing: str) -> float:
        totals = self.totals[_THING_INDEX[thing]]
        return sum(t * w for t, w in zip(totals, self.weights, strict=True)) / self.mass


def _bid_likelihood(adds: list[int], bids: list[dict[str, Any]]) -> float:
    """How likely a player holding ``adds`` (per thing) made ``bids``: each bid picks a
    thing with probability growing as exp(BID_SHARPNESS x what the hand shows of it)."""
    capped = [min(amount, BELIEF_CAP) for amount in adds]
    scale = sum(math.exp(BID_SHARPNESS * amount) for amount in capped)
    weight = 1.0
    for bid in bids:
        weight *= math.exp(BID_SHARPNESS * capped[_THING_INDEX[bid["thing"]]]) / scale
    return weight


def _partial_shuffle(items: list[str], needed: int, rng: Rng) -> None:
    """Shuffle only the first ``needed`` places (uniform for them, and much cheaper)."""
    size = len(items)
    for index in range(needed):
        other = index + rng.below(size - index)
        items[index], items[other] = items[other], items[index]


def _hand_adds(cards: list[str]) -> list[int]:
    """Each thing's contribution of a hand (Can't See Me and Double Trouble applied)."""
    if CANT_SEE_ME in cards:
        return [0] * len(THINGS)
    sums = [0] * len(THINGS)
    for code in cards:
        for index, amount in enumerate(_VECTORS.get(code) or _vector(code)):
            sums[index] += amount
    factor = 2 ** cards.count(DOUBLE_TROUBLE)
    return [amount * factor for amount in sums]


_VECTORS: dict[str, tuple[int, ...]] = {code: _vector(code) for code in set(deck("both"))}


def _legal_keys(legal: list[dict[str, Any]]) -> set[tuple[Any, ...]]:
    return {tuple(sorted(action.items())) for action in legal}


def _is_legal(action: dict[str, Any], keys: set[tuple[Any, ...]]) -> bool:
    return tuple(sorted(action.items())) in keys


class KittenBot:
    """Bluffs, reads bids, and calls from sampled deals (see the module docstring)."""

    reaction_s: float = 0.0
    """Turn-based: the bot answers at once."""

    def __init__(
        self,
        rng: Rng,
        *,
        samples: int = SAMPLES,
        bluff_rate: float = BLUFF_RATE,
        challenge_fear: float = CHALLENGE_FEAR,
    ) -> None:
        self.rng = rng
        self.samples = samples
        self.bluff_rate = bluff_rate
        self.challenge_fear = challenge_fear

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal: list[dict[str, Any]] = view.get("legal") or []
        if not legal:
            return None
        keys = _legal_keys(legal)
        belief = Belief(view, self.rng, self.samples)
        standing: dict[str, Any] | None = view["bid"]
        bid_action, bid_p = self._best_bid(view, belief, keys)
        options: list[tuple[float, dict[str, Any]]] = []
        if bid_action is not None:
            options.append((-self.challenge_fear * (1.0 - bid_p), bid_action))
        if standing is not None and _is_legal({"type": "challenge"}, keys):
            holds = belief.at_least(standing["thing"], standing["count"])
            options.append((-holds, {"type": "challenge"}))
            if _is_legal({"type": "purrfect"}, keys):
                exact = belief.exactly(standing["thing"], standing["count"])
                options.append((2 * exact - 1 - PURRFECT_MARGIN, {"type": "purrfect"}))
        if not options:
            fallback: dict[str, Any] = self.rng.choice(legal)
            return fallback
        best_value, best = max(options, key=lambda option: option[0])
        if best_value < PASS_BELOW:
            special = self._special(view, belief, keys)
            if special is not None:
                return special
        return best

    # Bids ---------------------------------------------------------------------

    def _best_bid(
        self, view: dict[str, Any], belief: Belief, keys: set[tuple[Any, ...]]
    ) -> tuple[dict[str, Any] | None, float]:
        """The raise the bot likes best (sometimes a bluff) and its chance of being true."""
        standing: dict[str, Any] | None = view["bid"]
        low = 1 if standing is None else standing["count"] + 1
        candidates: list[tuple[float, int, str]] = []
        for thing in THINGS:
            for count in range(low, low + RAISE_SPAN):
                action = {"type": "bid", "count": count, "thing": thing}
                if _is_legal(action, keys):
                    candidates.append((belief.at_least(thing, count), count, thing))
        if not candidates:
            return None, 0.0
        if standing is None:
            return self._opening(belief, keys)
        # Prefer the likeliest bid; among near-equals, the higher count (more pressure).
        candidates.sort(key=lambda c: (round(c[0], 2), c[1]), reverse=True)
        p, count, thing = candidates[0]
        if self.rng.random() < self.bluff_rate:
            bluffs = [c for c in candidates if BLUFF_FLOOR <= c[0] < p]
            if bluffs:
                p, count, thing = self.rng.choice(bluffs)
        return {"type": "bid", "count": count, "thing": thing}, p

    def _opening(
        self, belief: Belief, keys: set[tuple[Any, ...]]
    ) -> tuple[dict[str, Any] | None, float]:
        """The opening bid: a count the bot is fairly sure of, on its best thing."""
        things = sorted(THINGS, key=belief.mean, reverse=True)
        thing = things[0]
        if self.rng.random() < self.bluff_rate:
            thing = self.rng.choice(things[1:4])
        count = 1
        while belief.at_least(thing, count + 1) >= 0.6 and count < 60:
            count += 1
        action = {"type": "bid", "count": count, "thing": thing}
        if not _is_legal(action, keys):
            return None, 0.0
        return action, belief.at_least(thing, count)

    # Special cards --------------------------------------------------------------

    def _special(
        self, view: dict[str, Any], belief: Belief, keys: set[tuple[Any, ...]]
    ) -> dict[str, Any] | None:
        """Draw 3 (cards and a pass), then Go Fish on the bidder, then Skip."""
        if _is_legal({"type": "play", "card": DRAW_3}, keys):
            return {"type": "play", "card": DRAW_3}
        standing: dict[str, Any] | None = view["bid"]
        if standing is not None:
            fish = {
                "type": "play",
                "card": GO_FISH,
                "target": standing["seat"],
                "thing": standing["thing"],
            }
            if _is_legal(fish, keys):
                return fish
        if _is_legal({"type": "play", "card": SKIP}, keys):
            return {"type": "play", "card": SKIP}
        return None


class PlainKittenBot:
    """The baseline: its own hand plus the unseen cards' average, a fixed challenge margin."""

    reaction_s: float = 0.0
    margin: float = 1.0
    """Challenge a bid more than this far above the expected count."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal: list[dict[str, Any]] = view.get("legal") or []
        if not legal:
            return None
        keys = _legal_keys(legal)
        expected = self._expected(view)
        standing: dict[str, Any] | None = view["bid"]
        challenge = {"type": "challenge"}
        doubtful = standing is not None and (
            standing["count"] > expected[standing["thing"]] + self.margin
        )
        if doubtful and _is_legal(challenge, keys):
            return challenge
        low = 1 if standing is None else standing["count"] + 1
        thing = max(THINGS, key=lambda t: expected[t])
        count = max(low, int(expected[thing]) - 1) if standing is None else low
        action = {"type": "bid", "count": count, "thing": thing}
        if _is_legal(action, keys):
            return action
        if _is_legal(challenge, keys):
            return challenge
        fallback: dict[str, Any] = self.rng.choice(legal)
        return fallback

    @staticmethod
    def _expected(view: dict[str, Any]) -> dict[str, float]:
        hand: list[str] = list(view["hand"] or [])
        unseen = Counter(deck(view["deck_set"]))
        unseen.subtract(hand)
        pool = [code for code, count in unseen.items() for _ in range(max(count, 0))]
        hidden_cards = sum(view["hand_counts"]) - len(hand) + 1
        expected: dict[str, float] = {}
        for thing in THINGS:
            mean = sum(value(code, thing) for code in pool) / max(len(pool), 1)
            expected[thing] = count_hand(hand, thing).adds + mean * hidden_cards
        return expected

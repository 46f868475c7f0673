"""Kitten Me! bots at three levels: a plain rule, belief sampling, and sampling for the win.

The levels (the game's ``bots``): ``easy`` is :class:`PlainKittenBot` (its
own hand plus the deck's average, a fixed challenge threshold); ``normal``
is :class:`KittenBot` (described below); ``hard`` is :class:`HardKittenBot`,
the same sampled beliefs scored by what each choice does to the bot's chance
of being the last player holding cards.

:class:`KittenBot` sees only its view. The cards it cannot see (the chosen
deck minus its own hand, the special cards played face up, and the cards it
handed over by Go Fish, which it knows are in the taker's hand) are dealt at
random into the other hands and the flip, many times. Each sample is weighted
by the other players' bids this round (a bidder more likely holds what they
bid), which is how the bot *reads bids*, and by the public side of every Go
Fish it was not part of (the taker holds at least as many of the thing as were
handed over; the giver has no normal card showing it left). From the weighted
samples it knows, for every accessory and colour, P(total >= n) and
P(total = n), and it scores each choice by the chance that it costs the bot a
card this round:

- a challenge loses when the bid holds; Purrfect loses unless it is exact;
- a raise is played out in the samples (:class:`Rollouts`): the players after
  the bot answer in turn as sensible players who see only their own hand
  (they doubt a bid above what their hand shows plus the deck's average for
  the cards they cannot see, and otherwise raise by one on their best thing).
  The raise costs the bot a card when the next player challenges it and it
  fails; a call further on costs someone else a card, which counts a little
  in the raise's favour; a bid that comes all the way back around leaves the
  bot facing it. So the bot weighs where its bid will land, not just whether
  it is true;
- Skip, Draw 3 and Go Fish pass the turn; they are played out the same way.

It takes the least risky choice, now and then bluffing (a raise on something
it believes less, if that costs little). Its level of play is set by its
parameters (samples, rollouts, bluff rate, how it models the others).
Its openings sit near the expected total of its best thing (about half the
cards in play with the base deck, whose 55 cards show 28 of each thing), so "10 blue" with
20 cards dealt is sound, not a slip.

:class:`PlainKittenBot` is the baseline the sampler is measured against: it
bids what its own hand supports plus the average of the unseen cards, and
challenges a bid above that expected count (plus a fixed margin).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from engine.core import Rng
from engine.games.kitten.cards import (
    CANT_SEE_ME,
    DOUBLE_TROUBLE,
    DRAW_3,
    GO_FISH,
    HANG_IN_THERE,
    SKIP,
    THINGS,
    count_hand,
    deck,
    matches,
    value,
)

SAMPLES = 240
"""Deals of the unseen cards sampled per decision."""
SAMPLED_CARDS = 4800
"""At big tables fewer deals are sampled: at most this many cards dealt per decision..."""
MIN_SAMPLES = 120
"""...but never fewer deals than this (4 players: all SAMPLES; 10 players: about 170)."""
BID_SHARPNESS = 1.5
"""How much a bid tells about its bidder's hand: a player is taken to bid a thing
with probability proportional to exp(BID_SHARPNESS x how many of it their hand shows)."""
BELIEF_CAP = 8
"""Beyond this many of a thing in hand, more does not make a bid of it likelier."""
FISH_MISMATCH = 0.05
"""A sample's weight is multiplied by this for each public Go Fish fact it contradicts."""
BLUFF_RATE = 0.08
"""How often a raise is a bluff (a thing it believes less)."""
BLUFF_SLACK = 0.04
"""A bluff may add at most this much to the chance of losing a card."""
DOUBT_MARGIN = 1.0
"""The next player is taken to doubt a bid this far above what they can expect to see..."""
DOUBT_SCALE = 0.75
"""...softly: the chance they challenge is a logistic curve this wide around that point."""
LATER_RISK = 1.0
"""A raise let pass, or a pass, still risks LATER_RISK / (players still in) of a card."""
THEIR_LOSS = 0.3
"""What the next player losing a card (a wrong challenge of our raise) is worth to the bot."""
PURRFECT_MARGIN = 0.05
"""Purrfect must beat the other choices by this much (a wrong call costs a card)."""
SPECIAL_COST = 0.02
"""Playing a special card spends it: a pass must beat the best other choice by this much."""
ROLLOUTS = 120
"""How many of the samples each raise is played out in."""
ROLLOUT_DEPTH = 4
"""How many players after the bot a rollout follows (then LATER_RISK stands in)."""
RETURN_RISK = 0.35
"""A bid that comes back around risks at most this (the bot can raise again)..."""
RAISE_SPAN = 3
"""How far above the lowest legal count the bot considers raising."""
OPEN_THINGS = 3
"""An opening bid is on one of the things the bot expects most of (a few, for bluffs)."""
OPEN_SPAN = 4
"""An opening bid is weighed at most this far from the expected total (lower ones are safe
from a challenge anyway, and leave the next player an easy raise)."""

_THING_INDEX = {thing: index for index, thing in enumerate(THINGS)}


def _vector(code: str) -> tuple[int, ...]:
    return tuple(value(code, thing) for thing in THINGS)


class Belief:
    """Weighted samples of the round's totals, per thing, from one seat's view.

    Each sample also keeps what every other player's hand adds to each thing
    (:attr:`adds`), so a bid can be judged by how the others would see it.

    The sampling works on packed counts (:data:`_PACKS`): one integer per card
    holds its count of every thing, whether it is Can't See Me or Double
    Trouble, and which things Go Fish would take from it, each in a lane of
    :data:`_LANE` bits. So a hand's counts are one ``sum()`` of integers.
    """

    def __init__(self, view: dict[str, Any], rng: Rng, samples: int) -> None:
        seat: int = view["seat"]
        self.hand: list[str] = list(view["hand"] or [])
        counts: list[int] = view["hand_counts"]
        known: dict[int, list[str]] = {}
        facts: dict[int, list[tuple[int, int, bool]]] = {}
        unseen = Counter(deck(view["deck_set"]))
        unseen.subtract(self.hand)
        for entry in view["played"]:
            unseen[entry["card"]] -= 1
            given = entry.get("cards")
            if given and entry.get("target") == seat:
                # Go Fish on us: we know those cards sit in the taker's hand.
                known.setdefault(entry["seat"], []).extend(given)
                unseen.subtract(given)
            if entry["card"] == GO_FISH and "cards" not in entry:
                _note_fish(facts, entry)
            elif entry["card"] == GO_FISH and entry["seat"] == seat:
                # We took: the giver has no normal card of that thing left.
                facts.setdefault(entry["target"], []).append(
                    (_THING_INDEX[entry["thing"]], 0, True)
                )
        pool = [_PACKS[code] for code, count in unseen.items() for _ in range(max(count, 0))]
        others = [
            (other, counts[other] - len(known.get(other, [])))
            for other in range(len(counts))
            if other != seat and counts[other]
        ]
        bids_by: dict[int, list[dict[str, Any]]] = {}
        for bid in view["bids"]:
            if bid["seat"] != seat:
                bids_by.setdefault(bid["seat"], []).append(bid)
        mine = _adds(sum(map(_PACKS.__getitem__, self.hand)))
        self.totals: list[list[int]]
        self.weights: list[float] = []
        self._adds: dict[int, list[int]] = {other: [] for other, _ in others}
        """Per other player and sample, their hand's packed contribution."""
        needed = min(sum(max(free, 0) for _, free in others) + 1, len(pool))
        samples = min(samples, max(MIN_SAMPLES, SAMPLED_CARDS // max(needed, 1)))
        # Per other player: the packed cards known to be in their hand, where their hand
        # is in each deal, how likely their bids are for given counts (remembered: hands
        # repeat), their Go Fish facts, and where their samples' counts go.
        players: list[_Other] = []
        position = 0
        for other, size in others:
            base = sum(map(_PACKS.__getitem__, known.get(other, [])))
            bids = bids_by.get(other)
            likely: tuple[dict[int, float], list[dict[str, Any]]] | None = (
                ({}, bids) if bids else None
            )
            end = position + max(size, 0)
            players.append((base, position, end, likely, facts.get(other), self._adds[other]))
            position = end
        rows: list[int] = []
        # The bot's own generator seeds a stdlib one: its C-backed sampling is twice as fast.
        shuffler = random.Random(rng.next_u64())
        draw = shuffler.sample
        skip = _PACKS[SKIP]
        for _ in range(samples):
            drawn = draw(pool, needed)
            sums = mine
            weight = 1.0
            for base, start, end, likely, fish, kept in players:
                packed = base + sum(drawn[start:end])
                adds = _adds(packed)
                sums += adds
                if likely is not None:
                    seen, bids = likely
                    chance = seen.get(adds)
                    if chance is None:
                        chance = seen[adds] = _bid_likelihood(_unpack(adds), bids)
                    weight *= chance
                if fish:
                    weight *= _fish_likelihood(packed, fish)
                kept.append(adds)
            flip = drawn[position] if position < len(drawn) else skip
            if flip & _HIDES_LANE:
                rows.append(0)
            elif flip & _DOUBLES_LANE:
                rows.append(sums << 1)
            else:
                rows.append(sums + (flip & _COUNTS))
            self.weights.append(weight)
        self.totals = [[(row >> shift) & _MASK for row in rows] for shift in _SHIFTS]
        self.mass = sum(self.weights) or 1.0

    @property
    def adds(self) -> dict[int, list[list[int]]]:
        """Per other player and sample, what their hand adds to each thing."""
        return {other: [_unpack(adds) for adds in kept] for other, kept in self._adds.items()}

    def adds_of(self, other: int, samples: int) -> list[list[int]]:
        """:attr:`adds` of one player, for the first ``samples`` samples only."""
        return [_unpack(adds) for adds in self._adds[other][:samples]]

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


_Other = tuple[
    int,
    int,
    int,
    "tuple[dict[int, float], list[dict[str, Any]]] | None",
    "list[tuple[int, int, bool]] | None",
    list[int],
]
"""One other player in :class:`Belief`'s sampling (see there)."""


def _note_fish(facts: dict[int, list[tuple[int, int, bool]]], entry: dict[str, Any]) -> None:
    """The public side of a Go Fish we were not part of: ``(thing, count, is_giver)`` facts."""
    thing = _THING_INDEX[entry["thing"]]
    facts.setdefault(entry["target"], []).append((thing, 0, True))
    if entry.get("count"):
        facts.setdefault(entry["seat"], []).append((thing, entry["count"], False))


def _fish_likelihood(packed: int, facts: list[tuple[int, int, bool]]) -> float:
    """Down-weight a sampled hand (its packed cards) for each Go Fish fact it contradicts:
    a giver still holding a normal card of the thing, a taker holding fewer of them than
    were handed over."""
    weight = 1.0
    for thing, count, giver in facts:
        showing = (packed >> _MATCH_SHIFTS[thing]) & _MASK
        if (giver and showing) or (not giver and showing < count):
            weight *= FISH_MISMATCH
    return weight


def _bid_likelihood(adds: list[int], bids: list[dict[str, Any]]) -> float:
    """How likely a player holding ``adds`` (per thing) made ``bids``: each bid picks a
    thing with probability growing as exp(BID_SHARPNESS x what the hand shows of it)."""
    odds = [_ODDS[min(amount, BELIEF_CAP)] for amount in adds]
    scale = sum(odds)
    weight = 1.0
    for bid in bids:
        weight *= odds[_THING_INDEX[bid["thing"]]] / scale
    return weight


_ODDS = [math.exp(BID_SHARPNESS * amount) for amount in range(BELIEF_CAP + 1)]


_LANE = 16
"""Bits per count in a packed card (:data:`_PACKS`); every count stays far below 2**16."""
_MASK = (1 << _LANE) - 1
_SHIFTS = tuple(_LANE * index for index in range(len(THINGS)))
"""Lanes 0-5: the card's count of each thing (in :data:`THINGS` order)."""
_COUNTS = (1 << (_LANE * len(THINGS))) - 1
_HIDES_SHIFT = _LANE * len(THINGS)
"""Lane 6: Can't See Me cards."""
_DOUBLES_SHIFT = _HIDES_SHIFT + _LANE
"""Lane 7: Double Trouble cards."""
_HIDES_LANE = _MASK << _HIDES_SHIFT
_DOUBLES_LANE = _MASK << _DOUBLES_SHIFT
_MATCH_SHIFTS = tuple(_DOUBLES_SHIFT + _LANE * (1 + index) for index in range(len(THINGS)))
"""Lanes 8-13: whether Go Fish for each thing would take the card (a normal card of it)."""


def _pack(code: str) -> int:
    """One card's counts, kind and Go Fish matches in one integer (see :data:`_LANE`)."""
    packed = sum(value(code, thing) << shift for thing, shift in zip(THINGS, _SHIFTS, strict=True))
    packed += (code == CANT_SEE_ME) << _HIDES_SHIFT
    packed += (code == DOUBLE_TROUBLE) << _DOUBLES_SHIFT
    for thing, shift in zip(THINGS, _MATCH_SHIFTS, strict=True):
        packed += matches(code, thing) << shift
    return packed


def _adds(packed: int) -> int:
    """A hand's packed counts from the sum of its packed cards: zero with Can't See Me,
    doubled for each Double Trouble (each lane doubles: a shift of the whole integer)."""
    if packed & _HIDES_LANE:
        return 0
    return (packed & _COUNTS) << ((packed >> _DOUBLES_SHIFT) & _MASK)


def _unpack(packed: int) -> list[int]:
    """Packed counts as a list, one per thing."""
    return [(packed >> shift) & _MASK for shift in _SHIFTS]


_VECTORS: dict[str, tuple[int, ...]] = {code: _vector(code) for code in set(deck("both"))}
_PACKS: dict[str, int] = {code: _pack(code) for code in set(deck("both"))}


def _deck_means(deck_set: str) -> list[float]:
    """Each thing's average per card of a deck: what a player expects of a card unseen."""
    cards = deck(deck_set)
    return [
        sum(_VECTORS[code][index] for code in cards) / len(cards) for index in range(len(THINGS))
    ]


_MEANS: dict[str, list[float]] = {}


def _legal_keys(legal: list[dict[str, Any]]) -> set[tuple[Any, ...]]:
    return {tuple(sorted(action.items())) for action in legal}


def _is_legal(action: dict[str, Any], keys: set[tuple[Any, ...]]) -> bool:
    return tuple(sorted(action.items())) in keys


def _order_after(view: dict[str, Any]) -> list[int]:
    """The other players still holding cards, in the order they answer this seat's bid."""
    counts: list[int] = view["hand_counts"]
    seat: int = view["seat"]
    seats = ((seat + step) % len(counts) for step in range(1, len(counts)))
    return [other for other in seats if counts[other]]


class KittenBot:
    """Bluffs, reads bids, and calls from sampled deals (see the module docstring)."""

    reaction_s: float = 0.0
    """Turn-based: the bot answers at once."""
    raise_span: int = RAISE_SPAN
    """How far above the lowest legal count it considers raising."""

    def __init__(
        self,
        rng: Rng,
        *,
        samples: int = SAMPLES,
        bluff_rate: float = BLUFF_RATE,
        rollouts: int = ROLLOUTS,
        doubt_margin: float = DOUBT_MARGIN,
        later_risk: float = LATER_RISK,
        return_risk: float = RETURN_RISK,
    ) -> None:
        self.rng = rng
        self.samples = samples
        self.rollouts = rollouts
        self.bluff_rate = bluff_rate
        self.doubt_margin = doubt_margin
        self.later_risk = later_risk
        self.return_risk = return_risk

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal: list[dict[str, Any]] = view.get("legal") or []
        if not legal:
            return None
        keys = _legal_keys(legal)
        belief = Belief(view, self.rng, self.samples)
        standing: dict[str, Any] | None = view["bid"]
        players_in = sum(1 for size in view["deal_sizes"] if size)
        later = self.later_risk / max(players_in, 2)
        rollouts = Rollouts(view, belief, self, later)
        options: list[tuple[float, dict[str, Any]]] = []
        bids = self._bids(view, belief, keys, rollouts)
        if bids:
            options.append(self._pick_bid(bids))
        if standing is not None and _is_legal({"type": "challenge"}, keys):
            holds = belief.at_least(standing["thing"], standing["count"])
            options.append((holds, {"type": "challenge"}))
            if _is_legal({"type": "purrfect"}, keys):
                exact = belief.exactly(standing["thing"], standing["count"])
                options.append((1 - 2 * exact + PURRFECT_MARGIN, {"type": "purrfect"}))
        special = self._special(view, keys)
        if special is not None and standing is not None:
            order = rollouts.order
            first_calls = not order or order[0] != standing["seat"]
            index = _THING_INDEX[standing["thing"]]
            passed = rollouts.risk(standing["count"], index, mine=False, first_calls=first_calls)
            options.append((passed + SPECIAL_COST, special))
        if not options:
            fallback: dict[str, Any] = self.rng.choice(legal)
            return fallback
        return min(options, key=lambda option: option[0])[1]

    # Bids ---------------------------------------------------------------------

    def _bids(
        self, view: dict[str, Any], belief: Belief, keys: set[tuple[Any, ...]], rollouts: Rollouts
    ) -> list[tuple[float, int, str]]:
        """Every raise worth weighing, as ``(risk, count, thing)`` (:meth:`Rollouts.risk`)."""
        standing: dict[str, Any] | None = view["bid"]
        rows: list[tuple[float, int, str]] = []
        means = {thing: belief.mean(thing) for thing in THINGS}
        openers = sorted(THINGS, key=means.__getitem__, reverse=True)[:OPEN_THINGS]
        for index, thing in enumerate(THINGS):
            if standing is None and thing not in openers:
                continue
            if standing is None:
                middle = int(means[thing])
                span = range(max(1, middle - OPEN_SPAN), middle + OPEN_SPAN + 1)
            else:
                low = standing["count"] + 1
                span = range(low, low + self.raise_span)
            for count in span:
                if _is_legal({"type": "bid", "count": count, "thing": thing}, keys):
                    rows.append((rollouts.risk(count, index, mine=True), count, thing))
        return rows

    def _pick_bid(self, rows: list[tuple[float, int, str]]) -> tuple[float, dict[str, Any]]:
        """The least risky raise, or now and then a bluff on another thing that costs little."""
        rows.sort(key=lambda row: (round(row[0], 3), -row[1]))
        risk, count, thing = rows[0]
        if self.rng.random() < self.bluff_rate:
            bluffs = [row for row in rows if row[2] != thing and row[0] <= risk + BLUFF_SLACK]
            if bluffs:
                risk, count, thing = self.rng.choice(bluffs)
        return risk, {"type": "bid", "count": count, "thing": thing}

    # Special cards --------------------------------------------------------------

    def _special(self, view: dict[str, Any], keys: set[tuple[Any, ...]]) -> dict[str, Any] | None:
        """The special card to pass with: Draw 3 (it shows cards), Go Fish on the bidder, Skip."""
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


class Rollouts:
    """The rest of the round played out in the samples, after a bid or a pass.

    In each sample the players after the bot answer in turn, each as a
    sensible player who sees only their own hand: they challenge a bid
    softly more often the further it is above what they can expect (their
    hand plus the deck's average for the cards they cannot see, plus the
    doubt margin), and otherwise raise by one on what their hand shows most.
    The bot's own bid costs it a card when the first of them challenges it and
    it fails; a later call costs someone else one; a bid that comes all the
    way back leaves the bot facing it (see :meth:`risk`).
    """

    def __init__(self, view: dict[str, Any], belief: Belief, bot: KittenBot, later: float) -> None:
        counts: list[int] = view["hand_counts"]
        deck_set: str = view["deck_set"]
        means = _MEANS.get(deck_set)
        if means is None:
            means = _MEANS[deck_set] = _deck_means(deck_set)
        order = _order_after(view)
        self.around = len(order) == len(belief._adds)
        self.order = order[:ROLLOUT_DEPTH]
        self.samples = min(len(belief.weights), bot.rollouts)
        self.weights = belief.weights[: self.samples]
        self.mass = sum(self.weights) or 1.0
        self.belief = belief
        self.later = later
        self.return_risk = bot.return_risk
        things = range(len(THINGS))
        # Per player and sample: the count they doubt, per thing, and the thing they raise on.
        self.doubts: list[list[list[float]]] = []
        self.raises: list[list[int]] = []
        for other in self.order:
            unseen = sum(counts) + 1 - counts[other]
            doubt_rows, raise_rows = [], []
            for adds in belief.adds_of(other, self.samples):
                expect = [adds[t] + means[t] * unseen for t in things]
                doubt_rows.append([value + bot.doubt_margin for value in expect])
                raise_rows.append(max(things, key=expect.__getitem__))
            self.doubts.append(doubt_rows)
            self.raises.append(raise_rows)
        self.returned: dict[tuple[int, int], float] = {}

    def risk(self, count: int, index: int, *, mine: bool, first_calls: bool = True) -> float:
        """The bot's expected loss (a card it loses is 1, one another player loses is
        -THEIR_LOSS) once ``count`` of ``THINGS[index]`` stands, by the bot (``mine``) or by
        another player; ``first_calls`` False: the next player made that bid and must raise."""
        totals = self.belief.totals[index]
        steps, sharpness, exp = len(self.order), 1.0 / DOUBT_SCALE, math.exp
        risk = 0.0
        for sample in range(self.samples):
            reach, value, bid, on, first = 1.0, 0.0, count, index, True
            for step in range(steps):
                excess = (bid - self.doubts[step][sample][on]) * sharpness
                if excess < -30.0 or (first and not first_calls):
                    chance = 0.0
                else:
                    chance = 1.0 if excess > 30.0 else 1.0 / (1.0 + exp(-excess))
                if chance:
                    fails = (totals if on == index else self.belief.totals[on])[sample] < bid
                    value += reach * chance * (1.0 if first and mine and fails else -THEIR_LOSS)
                    reach *= 1.0 - chance
                if reach < 0.01:
                    break
                first = False
                bid, on = bid + 1, self.raises[step][sample]
            else:
                value += reach * self._back(bid, on)
            risk += self.weights[sample] * value
        return risk / self.mass

    def _back(self, count: int, index: int) -> float:
        """What a bid that got past every player followed costs the bot."""
        if not self.order or not self.around:
            return self.later
        key = (count, index)
        if key not in self.returned:
            held = self.belief.at_least(THINGS[index], count)
            self.returned[key] = min(held, self.return_risk)
        return self.returned[key]


class PlainKittenBot:
    """Easy: its own hand plus the unseen cards' average, a fixed challenge margin.

    It reads nothing from the bids and plays nothing out: it challenges a bid
    more than :attr:`margin` above the count its own hand and the deck's
    average make likely, and otherwise raises by one on the thing it expects
    most of. Simple enough to read, and easy to push into a bad challenge.
    """

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


HARD_RAISE_SPAN = 6
""":class:`HardKittenBot` weighs raises this far above the lowest legal count."""
HARD_DOUBT_MARGIN = 2.0
""":class:`HardKittenBot`'s model of the next player: they doubt a bid this far above what
they can expect to see (measured against :class:`KittenBot` players, 1.0 to 4.5: 2.0 best)."""


class HardKittenBot(KittenBot):
    """Hard: belief sampling that weighs every choice by the bot's chance to win the game.

    It samples the hidden hands as :class:`KittenBot` does (consistent with
    its own hand, the bids, the played cards and Go Fish), but scores a
    choice by what it is worth towards being the last player holding cards,
    not by "a card I lose costs 1, one someone else loses is worth a fixed
    0.3". The bot's share of the game is taken as its cards over all the
    cards dealt (exact for two players with even calls: gambler's ruin), so:

    - a card another player loses is worth ``mine / (dealt - mine)`` of one
      the bot loses: as much as its own in a two-player duel (a won challenge
      is as good as a lost one is bad), little at a full table, more when the
      bot is ahead;
    - a challenge or Purrfect counts the card the bidder loses when the call is
      right, and the card Hang In There would add;
    - in the played-out rounds (:class:`_HardRollouts`) every call's loser is
      worked out (the bidder when the bid fails, else the caller), so a raise
      is valued by where the call will land, including calls between others;
    - a bid that comes back is faced as a choice between doubting it and
      raising again;
    - in a duel (two players left) it weighs jump raises (up to
      :data:`HARD_RAISE_SPAN` above the lowest legal count: a count its hand
      makes likely but the opponent's does not draws a losing challenge), and
      takes the opponent to doubt less readily (:data:`HARD_DOUBT_MARGIN`), as
      sampling bots do: they raise while a raise is safer than the call.
    """

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal: list[dict[str, Any]] = view.get("legal") or []
        if not legal:
            return None
        duel = sum(1 for size in view["deal_sizes"] if size) == 2
        # Jump raises and the calmer model of the next player pay off in a duel, where the
        # next player is the only one; at a bigger table (measured) they do not.
        self.raise_span = HARD_RAISE_SPAN if duel else RAISE_SPAN
        self.doubt_margin = HARD_DOUBT_MARGIN if duel else DOUBT_MARGIN
        keys = _legal_keys(legal)
        belief = Belief(view, self.rng, self.samples)
        standing: dict[str, Any] | None = view["bid"]
        sizes: list[int] = view["deal_sizes"]
        mine = max(sizes[view["seat"]], 1)
        dealt = max(sum(sizes), mine + 1)
        theirs = mine / max(dealt - mine, 1)
        # Hang In There in hand: when the bot is right it gains a card, worth this much.
        hang = (dealt - 1) / (dealt + 1) * (view["hand"] or []).count(HANG_IN_THERE)
        players_in = sum(1 for size in sizes if size)
        later = self.later_risk / max(players_in, 2)
        rollouts = _HardRollouts(view, belief, self, later, theirs, hang)
        options: list[tuple[float, dict[str, Any]]] = []
        bids = self._bids(view, belief, keys, rollouts)
        if bids:
            options.append(self._pick_bid(bids))
        if standing is not None and _is_legal({"type": "challenge"}, keys):
            holds = belief.at_least(standing["thing"], standing["count"])
            options.append((holds - (1 - holds) * (theirs + hang), {"type": "challenge"}))
            if _is_legal({"type": "purrfect"}, keys):
                exact = belief.exactly(standing["thing"], standing["count"])
                purr = (1 - exact) - exact * (theirs + hang + (dealt - 1) / (dealt + 1))
                options.append((purr + PURRFECT_MARGIN, {"type": "purrfect"}))
        special = self._special(view, keys)
        if special is not None and standing is not None:
            order = rollouts.order
            first_calls = not order or order[0] != standing["seat"]
            index = _THING_INDEX[standing["thing"]]
            passed = rollouts.risk(standing["count"], index, mine=False, first_calls=first_calls)
            options.append((passed + SPECIAL_COST, special))
        if not options:
            fallback: dict[str, Any] = self.rng.choice(legal)
            return fallback
        return min(options, key=lambda option: option[0])[1]


class _HardRollouts(Rollouts):
    """:class:`Rollouts` scored by who loses each call (see :class:`HardKittenBot`)."""

    def __init__(
        self,
        view: dict[str, Any],
        belief: Belief,
        bot: KittenBot,
        later: float,
        theirs: float,
        hang: float,
    ) -> None:
        super().__init__(view, belief, bot, later)
        self.theirs = theirs
        self.hang = hang

    def risk(self, count: int, index: int, *, mine: bool, first_calls: bool = True) -> float:
        """The bot's expected loss, in cards of its own, once ``count`` of ``THINGS[index]``
        stands (by the bot when ``mine``): each call in the rollout costs the bot 1 when
        it is the loser, gains it ``theirs`` when another player loses (and ``hang`` when
        it is the side that was right and holds Hang In There)."""
        totals_of = self.belief.totals
        steps, sharpness, exp = len(self.order), 1.0 / DOUBT_SCALE, math.exp
        theirs, won = self.theirs, self.theirs + self.hang
        risk = 0.0
        for sample in range(self.samples):
            reach, value, bid, on, first = 1.0, 0.0, count, index, True
            for step in range(steps):
                excess = (bid - self.doubts[step][sample][on]) * sharpness
                if excess < -30.0 or (first and not first_calls):
                    chance = 0.0
                else:
                    chance = 1.0 if excess > 30.0 else 1.0 / (1.0 + exp(-excess))
                if chance:
                    # Our bid: the caller loses or we do; a call between others: someone else.
                    fails = totals_of[on][sample] < bid
                    cost = (1.0 if fails else -won) if first and mine else -theirs
                    value += reach * chance * cost
                    reach *= 1.0 - chance
                if reach < 0.01:
                    break
                first = False
                bid, on = bid + 1, self.raises[step][sample]
            else:
                value += reach * self._back(bid, on)
            risk += self.weights[sample] * value
        return risk / self.mass

    def _back(self, count: int, index: int) -> float:
        """A bid that got past every player followed: the bot doubts it or raises again."""
        if not self.order or not self.around:
            return self.later
        key = (count, index)
        if key not in self.returned:
            held = self.belief.at_least(THINGS[index], count)
            doubt = held - (1 - held) * (self.theirs + self.hang)
            self.returned[key] = min(doubt, self.return_risk)
        return self.returned[key]

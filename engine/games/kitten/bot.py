"""Kitten Me! bots at three levels: a plain rule, belief sampling, and sampling for the win.

The levels (the game's ``bots``): ``easy`` is :class:`PlainKittenBot` (its
own hand plus the deck's average, a fixed challenge threshold); ``normal``
is :class:`KittenBot` (described below); ``hard`` is :class:`HardKittenBot`,
the same sampled beliefs scored by what each choice does to the bot's chance
of being the last player holding cards, and in a duel a model of the other
player (:class:`OpponentModel`: a sampling player like ``normal`` or a plain
one like ``easy``, learnt from the hands each call reveals) that it reads bids
with and plays its raises against.

:class:`KittenBot` sees only its view. The cards it cannot see (the chosen
deck minus its own hand, the special cards played face up, and the cards it
handed over by Go Fish, which it knows are in the taker's hand) are dealt at
random into the other hands and the flip, many times. Each sample is weighted
by the other players' bids this round (a bidder more likely holds what they
bid), which is how the bot *reads bids*, and by the public side of every Go
Fish it was not part of (the taker holds at least as many of the thing as were
handed over; the giver has no normal card showing it left). At a big table
the product of every player's bids leaves a handful of deals with nearly all
the weight, so the weights are tempered until a share of the deals counts
(:data:`ESS_SHARE`): a belief read from eight deals of 170 is noise. From the
weighted samples it knows, for every accessory and colour, P(total >= n) and
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

import functools
import math
import random
from collections import Counter
from collections.abc import Callable
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

ESS_SHARE = 0.3
"""The deals' weights are tempered (:func:`_tempered`) until at least this share of the
deals counts (their effective number)."""
TEMPER_STEPS = 8
"""Bisection steps that find the tempering power."""

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

    def __init__(
        self,
        view: dict[str, Any],
        rng: Rng,
        samples: int,
        readers: dict[int, BidReader] | None = None,
        share: float | None = None,
    ) -> None:
        """``readers``: for some other players, how likely their bids are for a hand (its
        counts per thing), in place of :func:`_bid_likelihood` (see :class:`OpponentModel`);
        ``share``: the effective share of deals tempering keeps (:data:`ESS_SHARE`)."""
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
            reader = (readers or {}).get(other)
            if reader is None and bids:
                reader = functools.partial(_bid_likelihood, bids=bids)
            likely: tuple[dict[int, float], BidReader] | None = (
                ({}, reader) if reader is not None and bids else None
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
                    seen, read = likely
                    chance = seen.get(adds)
                    if chance is None:
                        chance = seen[adds] = read(_unpack(adds))
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
        keep = ESS_SHARE if share is None else share
        if keep > 0.0:
            self.weights = _tempered(self.weights, keep)
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


BidReader = Callable[[list[int]], float]
"""How likely a player's bids this round are if their hand shows these counts (per thing)."""


def _effective(weights: list[float]) -> float:
    """The effective number of samples of importance ``weights`` (Kish)."""
    squares = sum(weight * weight for weight in weights)
    return sum(weights) ** 2 / squares if squares else 0.0


def _tempered(weights: list[float], share: float) -> list[float]:
    """``weights`` raised to the largest power in (0, 1] that leaves an effective sample
    share of at least ``share`` (the weights themselves when they already do).

    At a big table every player's bids weight each deal, and the product leaves a handful
    of deals carrying nearly all the weight: a belief read from eight of 170 deals is noise.
    Tempering trusts the bids less than their full strength when the deals are too few to
    carry it, rather than trusting a few deals fully.
    """
    if not weights or _effective(weights) >= share * len(weights):
        return weights
    top = max(weights)
    logs = [math.log(weight / top) if weight > 0.0 else -745.0 for weight in weights]
    low, high = 0.0, 1.0
    for _ in range(TEMPER_STEPS):
        middle = (low + high) / 2
        if _effective([math.exp(middle * log) for log in logs]) >= share * len(weights):
            low = middle
        else:
            high = middle
    return [math.exp(low * log) for log in logs]


_Other = tuple[
    int,
    int,
    int,
    "tuple[dict[int, float], BidReader] | None",
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
    - in a duel (two players left) it models the other player
      (:class:`OpponentModel`) as a sampling player, which believes the bot's
      bids and challenges a bid less likely than its best raise is safe, or a
      plain one, which goes by its own hand; which of the two it is, the bot
      learns from the hands each duel round reveals (:meth:`_learn`). It reads
      the other's bids with that model (an opening's count, not just its
      thing, says what its hand holds) and plays each raise out against it
      (:class:`_DuelSearch`), up to :data:`DUEL_SPAN` above the lowest count:
      a bid the other will believe, on a thing it lacks, draws a raise the bot
      can then challenge. Special cards are still weighed by the rollouts
      below, with jump raises (:data:`HARD_RAISE_SPAN`) and a calmer next
      player (:data:`HARD_DOUBT_MARGIN`).

    At three players or more it plays raises out as :class:`KittenBot` does,
    the next players taken as plain doubters.
    """

    models = True
    """In a duel, model the other player (:class:`OpponentModel`) and search raises with it."""

    def __init__(self, rng: Rng, **params: Any) -> None:
        super().__init__(rng, **params)
        self.kinds: dict[int, float] = {}
        """Per other seat: the log-odds that it plays like a sampling player rather than a
        plain one, learnt from the duel rounds the bot has seen revealed."""
        self._seen: tuple[int, list[dict[str, Any]], list[int]] | None = None
        """The round, its bids and the hand sizes at the bot's last decision."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal: list[dict[str, Any]] = view.get("legal") or []
        if not legal:
            return None
        if self.models:
            self._learn(view)
        duel = sum(1 for size in view["deal_sizes"] if size) == 2
        # Jump raises and the calmer model of the next player pay off in a duel, where the
        # next player is the only one; at a bigger table (measured) they do not.
        self.raise_span = HARD_RAISE_SPAN if duel else RAISE_SPAN
        self.doubt_margin = HARD_DOUBT_MARGIN if duel else DOUBT_MARGIN
        keys = _legal_keys(legal)
        seat: int = view["seat"]
        other = next((o for o, size in enumerate(view["deal_sizes"]) if size and o != seat), None)
        model: OpponentModel | None = None
        reading: _Reading | None = None
        if duel and self.models and other is not None:
            model = OpponentModel(seat, view["hand_counts"], view["deck_set"], view["played"])
            model.deal(self.rng)
            reading = model.reader(_events(view["bids"], seat, other), self.sampler_share(other))
        readers: dict[int, BidReader] | None = None
        if reading is not None and other is not None:
            readers = {other: reading}
        if reading is None:
            belief = Belief(view, self.rng, self.samples, readers)
        else:
            belief = Belief(view, self.rng, DUEL_DEALS, readers, DUEL_ESS_SHARE)
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
        if model is not None and reading is not None and other is not None:
            search = _DuelSearch(belief, model, other, reading, theirs + hang)
            rows = search.raises(view, keys)
            if rows:
                risk, count, thing = min(rows, key=lambda row: (round(row[0], 3), -row[1]))
                options.append((risk, {"type": "bid", "count": count, "thing": thing}))
        else:
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

    def sampler_share(self, other: int) -> float:
        """How likely ``other`` plays like a sampling player (rather than a plain one)."""
        odds = self.kinds.get(other, 0.0) + math.log(SAMPLER_PRIOR / (1.0 - SAMPLER_PRIOR))
        return 1.0 / (1.0 + math.exp(-odds))

    def _learn(self, view: dict[str, Any]) -> None:
        """After a duel round's reveal, weigh how the other player bid in it, now that its
        hand is shown, under each kind of player (:meth:`OpponentModel.likelihoods`).

        Only what the view showed: the bids the bot saw at its last decision of that round,
        the call that ended it and the hands ``last_reveal`` lays open.
        """
        seen, reveal, seat = self._seen, view.get("last_reveal"), view["seat"]
        self._seen = (view["round"], list(view["bids"]), list(view["hand_counts"]))
        if seen is None or reveal is None or reveal["round"] != seen[0]:
            return
        sizes = seen[2]
        others = [o for o, size in enumerate(sizes) if size and o != seat]
        cards = next((hand["cards"] for hand in reveal["hands"] if hand["seat"] in others), None)
        if len(others) != 1 or cards is None:
            return
        other = others[0]
        bids = list(seen[1])
        final: dict[str, Any] = reveal["bid"]
        if not bids or bids[-1] != final:
            bids.append(final)
        called = reveal["call"] == "challenge" and reveal["caller"] == other
        model = OpponentModel(seat, sizes, view["deck_set"], [])
        model.deal(self.rng)
        hand = _unpack(_adds(sum(_PACKS[code] for code in cards)))
        events = _events(bids, seat, other, final if called else None)
        sampler, plain = model.likelihoods(model.steps(events), hand)
        step = max(-TYPE_EVIDENCE, min(TYPE_EVIDENCE, math.log(sampler / plain)))
        odds = self.kinds.get(other, 0.0) + step
        self.kinds[other] = max(-TYPE_CERTAINTY, min(TYPE_CERTAINTY, odds))


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


# The other player of a duel, modelled -------------------------------------------------------

MODEL_DEALS = 160
"""Deals of the bot's hand (and the flip) as another player, who cannot see it, imagines them."""
OPEN_BELOW = 1.9
"""A sampling player opens this far below the total it expects of the thing it bids..."""
OPEN_SPREAD = 0.6
"""...give or take this much (measured: KittenBot opens 1.86 to 1.95 below its mean, sd 0.52)..."""
OPEN_SHARPNESS = 3.0
"""...on the thing its hand shows most (KittenBot: 289 openings in 290; PlainKittenBot always)."""
RAISE_SHARPNESS = 10.0
"""A raise goes to the thing the raiser believes most at the next count (86-89% of KittenBot's)."""
RISK_BASE = -0.04
RISK_SLOPE = 0.86
"""A sampling player's best raise risks about RISK_BASE + RISK_SLOPE x (1 - its belief in the
raise) (KittenBot, measured in duels: residual sd 0.11 to 0.12)..."""
CALL_RAMP = 0.25
"""...and it challenges when the bid's chance to hold is below that risk: softly, the chance
of a challenge rising from 0 to 1 over this width around the point."""
PLAIN_MARGIN = 1.0
"""A plain player challenges a bid more than this above what its hand and the deck's average
make likely (as :class:`PlainKittenBot` does), opens one below that, rounded down, and raises
its best thing by one."""
PLAIN_RAMP = 1.0
"""The width (in counts) over which a plain player's challenge goes from unlikely to likely."""
READ_FLOOR = 0.05
"""Any bid keeps at least this share of its likelihood (a person is neither kind of bot)."""
SAMPLER_PRIOR = 0.5
"""Before any round is revealed, the other player is as likely a sampling player as a plain one."""
TYPE_EVIDENCE = 3.0
"""One revealed round moves the log-odds of the other's kind by at most this much..."""
TYPE_CERTAINTY = 6.0
"""...and they stay within this much either way (a player may change their ways)."""
DUEL_DEALS = 240
"""Deals the hard bot's belief samples in a duel (its reading of the other is sharp)..."""
DUEL_ESS_SHARE = 0.1
"""...and the share of them tempering keeps (:data:`ESS_SHARE`)."""
DUEL_SAMPLES = 90
"""At most this many of the belief's deals (the likeliest-weighted are kept) play out a raise."""
DUEL_SPAN = 5
"""How far above the lowest legal count the duel search weighs raises."""
DUEL_CONTINUE = 0.1
"""What raising once more is taken to cost, when the model's answer comes back to the bot."""


def _tail_at(tail: list[float], need: int) -> float:
    """P(X >= need) from a tail table (``tail[j]`` is P(X >= j))."""
    if need <= 0:
        return 1.0
    return tail[need] if need < len(tail) else 0.0


_Event = tuple["dict[str, Any] | None", "dict[str, Any] | None", tuple[int, ...]]
"""One thing the other player did in a round: the bid it faced (``None``: it opened), its own
bid (``None``: it challenged the bid it faced), and the things (indexes) the bot had bid by then."""


_Step = tuple["dict[str, Any] | None", "dict[str, Any] | None", list[list[float]]]
"""An :data:`_Event` with, in place of the bot's bids, what a sampling player then believed
of its hand (:meth:`OpponentModel.tails`)."""


def _events(
    bids: list[dict[str, Any]], seat: int, other: int, challenged: dict[str, Any] | None = None
) -> list[_Event]:
    """What ``other`` did in a round with these ``bids`` (and, if it ended so, the bid it
    challenged), each with the things ``seat`` had bid by then."""
    events: list[_Event] = []
    mine: list[int] = []
    before: dict[str, Any] | None = None
    for bid in bids:
        if bid["seat"] == other:
            events.append((before, bid, tuple(mine)))
        elif bid["seat"] == seat:
            mine.append(_THING_INDEX[bid["thing"]])
        before = bid
    if challenged is not None:
        events.append((challenged, None, tuple(mine)))
    return events


def _floored(chance: float) -> float:
    return (1.0 - READ_FLOOR) * chance + READ_FLOOR


class OpponentModel:
    """The other player of a duel, as one of two kinds of player, from the bot's view alone.

    A *sampling* player plays like :class:`KittenBot`: it cannot see the bot's hand, so it
    imagines deals of it (and of the flip) from the cards it cannot see and weights each by
    the bot's bids as :func:`_bid_likelihood` does (:meth:`tails`). It opens on its best
    thing a little below what it expects, challenges a bid that is less likely to hold than
    its best raise is safe, and otherwise raises by one on the thing it believes most
    (:meth:`sampler_answer`). So a bid of the bot's moves what it believes.

    A *plain* player plays like :class:`PlainKittenBot`: its own hand plus the deck's average
    (:meth:`plain_answer`); the bot's bids move nothing.

    For a hand the bot's :class:`Belief` samples for the other player, the model says how
    likely its bids this round were under each kind (:meth:`likelihoods`, which is how the
    bot reads them, :meth:`reader`) and what it would answer to a raise. The bot learns which
    kind the other is from the rounds whose hands were revealed
    (:meth:`HardKittenBot._learn`).
    """

    def __init__(
        self, seat: int, sizes: list[int], deck_set: str, played: list[dict[str, Any]]
    ) -> None:
        self.seat = seat
        self.size = sizes[seat]
        others = [o for o, size in enumerate(sizes) if size and o != seat]
        unseen = sum(sizes) + 1 - (sizes[others[0]] if others else 0)
        means = _MEANS.get(deck_set)
        if means is None:
            means = _MEANS[deck_set] = _deck_means(deck_set)
        self.expected = [mean * unseen for mean in means]
        """What a plain player adds to its hand's count of each thing for the cards it cannot
        see (the deck's average)."""
        cards = Counter(deck(deck_set))
        for entry in played:
            cards[entry["card"]] -= 1
        self.pool = [_PACKS[code] for code, count in cards.items() for _ in range(max(count, 0))]
        self.odds: list[list[float]] = []
        """Per deal, exp(BID_SHARPNESS x each count of the bot's imagined hand)."""
        self.scale: list[float] = []
        self.totals: list[list[int]] = [[] for _ in THINGS]
        """Per thing, per deal: the imagined hand's count plus the flip's."""
        self._tails: dict[tuple[int, ...], list[list[float]]] = {}

    def deal(self, rng: Rng, deals: int = MODEL_DEALS) -> None:
        """Imagine ``deals`` deals of the bot's hand and the flip, as a sampling player would."""
        shuffler = random.Random(rng.next_u64())
        size, pool = self.size, self.pool
        for _ in range(deals):
            drawn = shuffler.sample(pool, min(size + 1, len(pool)))
            adds = _unpack(_adds(sum(drawn[:size])))
            flip = _unpack(drawn[size] & _COUNTS) if len(drawn) > size else [0] * len(THINGS)
            odds = [_ODDS[min(amount, BELIEF_CAP)] for amount in adds]
            self.odds.append(odds)
            self.scale.append(sum(odds))
            for index, amount in enumerate(adds):
                self.totals[index].append(amount + flip[index])

    def tails(self, bid: tuple[int, ...]) -> list[list[float]]:
        """Per thing, ``tail[j]`` = P(the bot's hand and the flip show >= j) as a sampling
        player believes it once the bot has bid the things ``bid`` (indexes) this round."""
        key = tuple(sorted(bid))
        found = self._tails.get(key)
        if found is not None:
            return found
        weights = []
        for odds, scale in zip(self.odds, self.scale, strict=True):
            weight = 1.0
            for index in key:
                weight *= odds[index] / scale
            weights.append(weight)
        weights = _tempered(weights, ESS_SHARE)  # as the sampling player's own belief is
        mass = sum(weights) or 1.0
        tails = []
        for totals in self.totals:
            histogram = [0.0] * (max(totals, default=0) + 2)
            for total, weight in zip(totals, weights, strict=True):
                histogram[total] += weight
            running = 0.0
            tail = [0.0] * len(histogram)
            for total in range(len(histogram) - 1, -1, -1):
                running += histogram[total]
                tail[total] = running / mass
            tails.append(tail)
        self._tails[key] = tails
        return tails

    @staticmethod
    def sampler_answer(
        tails: list[list[float]], count: int, index: int, hand: list[int]
    ) -> tuple[float, int]:
        """A sampling player holding ``hand`` (counts per thing) faces ``count`` of
        ``THINGS[index]``: the chance it challenges, and the thing it raises on otherwise."""
        holds = _tail_at(tails[index], count - hand[index])
        best, believed = 0, -1.0
        for other, tail in enumerate(tails):
            chance = _tail_at(tail, count + 1 - hand[other])
            if chance > believed:
                best, believed = other, chance
        edge = (RISK_BASE + RISK_SLOPE * (1.0 - believed) - holds) / CALL_RAMP + 0.5
        return min(1.0, max(0.0, edge)), best

    def plain_answer(self, hand: list[int], count: int, index: int) -> tuple[float, int]:
        """A plain player holding ``hand`` faces ``count`` of ``THINGS[index]``: the chance it
        challenges, and the thing it raises on otherwise (its best)."""
        doubt = hand[index] + self.expected[index] + PLAIN_MARGIN
        edge = (count - doubt) / PLAIN_RAMP + 0.5
        best = max(range(len(hand)), key=hand.__getitem__)
        return min(1.0, max(0.0, edge)), best

    def steps(self, events: list[_Event]) -> list[_Step]:
        """``events`` with what a sampling player believed of the bot's hand at each."""
        return [(standing, bid, self.tails(mine)) for standing, bid, mine in events]

    def likelihoods(self, steps: list[_Step], hand: list[int]) -> tuple[float, float]:
        """How likely the other player did what ``steps`` say holding ``hand`` (counts per
        thing), as a sampling player and as a plain one (each act floored at
        :data:`READ_FLOOR`)."""
        sampler = plain = 1.0
        best = [math.exp(OPEN_SHARPNESS * min(amount, BELIEF_CAP)) for amount in hand]
        favourite = sum(best)
        for standing, bid, tails in steps:
            if bid is None:  # it challenged the bid it faced
                assert standing is not None
                at = _THING_INDEX[standing["thing"]]
                calls = self.sampler_answer(tails, standing["count"], at, hand)[0]
                sampler *= _floored(calls)
                plain *= _floored(self.plain_answer(hand, standing["count"], at)[0])
                continue
            index = _THING_INDEX[bid["thing"]]
            if standing is None:  # the opening: its best thing, a little below its count
                thing = best[index] / favourite
                expected = hand[index] + sum(tails[index][1:])
                miss = (bid["count"] - expected + OPEN_BELOW) / OPEN_SPREAD
                sampler *= _floored(thing * math.exp(-0.5 * miss * miss))
                target = max(1, int(hand[index] + self.expected[index]) - 1)
                miss = (bid["count"] - target) / OPEN_SPREAD
                plain *= _floored(thing * math.exp(-0.5 * miss * miss))
                continue
            count = standing["count"]
            beliefs = [_tail_at(tail, count + 1 - hand[t]) for t, tail in enumerate(tails)]
            odds = [math.exp(RAISE_SHARPNESS * belief) for belief in beliefs]
            as_sampler = odds[index] / sum(odds)
            as_plain = best[index] / favourite
            if standing["seat"] != bid["seat"]:  # it could have challenged, and did not
                at = _THING_INDEX[standing["thing"]]
                as_sampler *= 1.0 - self.sampler_answer(tails, count, at, hand)[0]
                as_plain *= 1.0 - self.plain_answer(hand, count, at)[0]
            sampler *= _floored(as_sampler)
            plain *= _floored(as_plain)
        return sampler, plain

    def reader(self, events: list[_Event], share: float) -> _Reading:
        """How likely the other player's bids this round (``events``) are for a hand of
        theirs, if it is a sampling player with chance ``share``, else a plain one."""
        return _Reading(self, events, share)


class _Reading:
    """:meth:`OpponentModel.likelihoods` of one round's events, remembered per hand (a
    :data:`BidReader` for :class:`Belief`, and each deal's kind for :class:`_DuelSearch`)."""

    def __init__(self, model: OpponentModel, events: list[_Event], share: float) -> None:
        self.model, self.events, self.share = model, events, share
        self.steps = model.steps(events)
        self.seen: dict[tuple[int, ...], tuple[float, float]] = {}

    def likelihoods(self, hand: list[int]) -> tuple[float, float]:
        key = tuple(hand)
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = self.model.likelihoods(self.steps, hand)
        return found

    def __call__(self, hand: list[int]) -> float:
        sampler, plain = self.likelihoods(hand)
        return self.share * sampler + (1.0 - self.share) * plain

    def sampler_share(self, hand: list[int]) -> float:
        """How likely the other is a sampling player if it holds ``hand``."""
        if not self.events:
            return self.share
        sampler, plain = self.likelihoods(hand)
        mixed = self.share * sampler + (1.0 - self.share) * plain
        return self.share * sampler / mixed if mixed > 0.0 else self.share


class _DuelSearch:
    """The raises of a duel weighed against the modelled other player (see
    :meth:`HardKittenBot.choose`): in each of the likeliest deals, the other challenges or
    raises as its kind would, seeing the bot's bids; a challenge costs the bot a card when its
    bid fails and wins it ``won`` when it holds; a raise comes back to the bot, which then
    challenges it (judged over the deals in which that raise is what the other would bid) or
    raises again at :data:`DUEL_CONTINUE`."""

    def __init__(
        self, belief: Belief, model: OpponentModel, other: int, reading: _Reading, won: float
    ) -> None:
        weights = belief.weights
        kept = sorted(range(len(weights)), key=weights.__getitem__, reverse=True)[:DUEL_SAMPLES]
        kept = [sample for sample in kept if weights[sample] > 0.0]
        self.belief, self.model, self.won = belief, model, won
        self.hands = [_unpack(belief._adds[other][sample]) for sample in kept]
        self.masses = [weights[sample] for sample in kept]
        self.mass = sum(self.masses)
        self.totals = [[column[sample] for sample in kept] for column in belief.totals]
        self.shares = [reading.sampler_share(hand) for hand in self.hands]
        """Per deal: how likely the other is a sampling player, given its bids and that hand."""
        self.best = [hand.index(max(hand)) for hand in self.hands]
        """Per deal: the thing a plain player holding that hand raises on (its best)."""
        self.top = max((max(hand) for hand in self.hands), default=0)

    def raises(
        self, view: dict[str, Any], keys: set[tuple[Any, ...]]
    ) -> list[tuple[float, int, str]]:
        """Every raise worth weighing, as ``(cost, count, thing)``."""
        if not self.hands:
            return []
        standing: dict[str, Any] | None = view["bid"]
        seat: int = view["seat"]
        mine = tuple(_THING_INDEX[bid["thing"]] for bid in view["bids"] if bid["seat"] == seat)
        if standing is None:
            means = {thing: self.belief.mean(thing) for thing in THINGS}
            things = sorted(THINGS, key=means.__getitem__, reverse=True)[:OPEN_THINGS]
        else:
            things = list(THINGS)
        rows: list[tuple[float, int, str]] = []
        for thing in things:
            index = _THING_INDEX[thing]
            tails = self.model.tails((*mine, index))
            if standing is None:
                middle = int(means[thing])
                span = range(max(1, middle - OPEN_SPAN), middle + OPEN_SPAN + 1)
            else:
                span = range(standing["count"] + 1, standing["count"] + 1 + DUEL_SPAN)
            for count in span:
                if _is_legal({"type": "bid", "count": count, "thing": thing}, keys):
                    rows.append((self.cost(tails, count, index), count, thing))
        return rows

    def cost(self, tails: list[list[float]], count: int, index: int) -> float:
        """The bot's expected loss, in its own cards, once it bids ``count`` of
        ``THINGS[index]`` (``tails``: what a sampling player then believes of its hand).

        :meth:`OpponentModel.sampler_answer` and :meth:`OpponentModel.plain_answer` for
        every deal, worked out from tables by the other's count (the same arithmetic)."""
        won, totals, span = self.won, self.totals, range(self.top + 1)
        mine_totals = totals[index]
        holds_at = [_tail_at(tails[index], count - amount) for amount in span]
        raise_at = [[_tail_at(tail, count + 1 - amount) for amount in span] for tail in tails]
        doubt = count - self.model.expected[index] - PLAIN_MARGIN
        cost = 0.0
        back = [0.0] * len(THINGS)
        held = [0.0] * len(THINGS)
        for deal, hand in enumerate(self.hands):
            weight, share = self.masses[deal], self.shares[deal]
            beliefs = [row[amount] for row, amount in zip(raise_at, hand, strict=True)]
            believed = max(beliefs)
            raised = beliefs.index(believed)
            edge = (RISK_BASE + RISK_SLOPE * (1.0 - believed) - holds_at[hand[index]]) / CALL_RAMP
            calls = min(1.0, max(0.0, edge + 0.5))
            doubts = min(1.0, max(0.0, (doubt - hand[index]) / PLAIN_RAMP + 0.5))
            called = share * calls + (1.0 - share) * doubts
            if called:
                cost += weight * called * (1.0 if mine_totals[deal] < count else -won)
            rest = weight * share * (1.0 - calls)
            back[raised] += rest
            if totals[raised][deal] > count:
                held[raised] += rest
            best = self.best[deal]
            rest = weight * (1.0 - share) * (1.0 - doubts)
            back[best] += rest
            if totals[best][deal] > count:
                held[best] += rest
        for raised, reach in enumerate(back):
            if reach:
                holds = held[raised] / reach
                cost += reach * min(holds - (1.0 - holds) * won, DUEL_CONTINUE)
        return cost / self.mass

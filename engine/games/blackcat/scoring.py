"""Black Cat scoring: which cards of a kitty pile form which cats, and what they score.

Kept apart from the game module because it is a pure function of one pile
that three parties need: the engine (live scores and the final tally), the
bots (what a card would be worth in each pile) and the TUI (marking the
patterns and explaining a score when a player asks why).

Cards are two-character codes, rank then suit:

* ranks ``A 2 3 4 5 6 7 8 9 T J Q K`` (``T`` is the ten),
* suits ``S`` spades, ``H`` hearts, ``D`` diamonds, ``C`` clubs; spades and
  clubs are black.

So ``"QS"`` is the Queen of spades, ``"TH"`` the ten of hearts, ``"AC"`` the
Ace of clubs. With two decks the same code appears twice.

Values: Ace 1, 2-10 at face value, Jack and King 0, Queen 7 or 11 (chosen per
card at the end of the game; :func:`score_pile` chooses the values that score
best, one value per Queen for every pattern it is in).

The cats (rulebook, "Play" and "Winning", with CLARIFICATIONS.md):

* **Tomcat** (3 points; a 5-5 Tomcat is 5 with *Lucky Tom*): two adjacent
  cards whose values add to 10. Overlapping pairs each count (8-2-8 is two);
  only pairs count (6-A-3 is none). A 10 beside a Jack or King is a Tomcat.
* **Yowler** (1 point; with *Music of the Night* each Yowler is worth the
  number of Yowlers in its pile): every ten.
* **Jellical Cat** (2 points): each face card of a maximal run of one or more
  face cards of the same rank whose two neighbours exist and share a rank.
* **Black Cat** (6 points): a contiguous run of two or more black cards adding
  to 13. Overlapping runs each count; a run that begins or ends with a
  0-valued card (Jack, King) does not.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

RANKS = "A23456789TJQK"
SUITS = "SHDC"
BLACK_SUITS = frozenset("SC")
FACE_RANKS = frozenset("JQK")

RANK_VALUES: Mapping[str, int] = {
    **{rank: int(rank) for rank in "23456789"},
    "A": 1,
    "T": 10,
    "J": 0,
    "K": 0,
}
"""Every rank's value except the Queen's, which is chosen (:data:`QUEEN_VALUES`)."""

QUEEN_VALUES = (7, 11)
"""A Queen's two possible values; the first is preferred when both score the same."""

TOMCAT_SUM = 10
BLACK_CAT_SUM = 13

YOWLER_POINTS = 1
JELLICAL_POINTS = 2
TOMCAT_POINTS = 3
BLACK_CAT_POINTS = 6
LUCKY_TOM_POINTS = 5
"""What a double-five Tomcat is worth with the *Lucky Tom* variant."""

TOMCAT = "tomcat"
YOWLER = "yowler"
JELLICAL = "jellical"
BLACK_CAT = "black_cat"
CAT_KINDS = (TOMCAT, YOWLER, JELLICAL, BLACK_CAT)
"""Cat kinds in the order the rulebook introduces them (and explanations list them)."""

CAT_NAMES: Mapping[str, tuple[str, str]] = {
    TOMCAT: ("Tomcat", "Tomcats"),
    YOWLER: ("Yowler", "Yowlers"),
    JELLICAL: ("Jellical Cat", "Jellical Cats"),
    BLACK_CAT: ("Black Cat", "Black Cats"),
}

_SUIT_SYMBOLS: Mapping[str, str] = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}

_CACHE_SIZE = 4096


class InvalidCard(ValueError):
    """A card code that is not a Black Cat card (see the module docstring)."""


# --------------------------------------------------------------------------- cards


def full_deck(decks: int = 1) -> list[str]:
    """Every card of ``decks`` poker decks, in a fixed order (spades A-K, hearts, ...)."""
    return [rank + suit for _ in range(decks) for suit in SUITS for rank in RANKS]


def is_card(code: object) -> bool:
    """Whether ``code`` is a card code such as ``"QS"``."""
    return isinstance(code, str) and len(code) == 2 and code[0] in RANKS and code[1] in SUITS


def check_card(code: object) -> str:
    """``code`` itself if it is a card code, else :class:`InvalidCard` saying what is wrong."""
    if not is_card(code):
        raise InvalidCard(
            f"{code!r} is not a card: a card is a rank (A 2-9 T J Q K) and a suit (S H D C),"
            " like 'QS' or 'TH'"
        )
    return str(code)


def is_black(code: str) -> bool:
    """Spades and clubs are black."""
    return code[1] in BLACK_SUITS


def card_label(code: str) -> str:
    """How people write the card: ``"QS"`` is ``Q♠``, ``"TH"`` is ``10♥``."""
    rank = "10" if code[0] == "T" else code[0]
    return rank + _SUIT_SYMBOLS[code[1]]


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Cat:
    """One cat counted in a pile.

    ``cards`` are the positions (0 = the first card put on the pile) of the
    cards that form it: both cards of a Tomcat, the ten of a Yowler, the run
    of a Black Cat, and for a Jellical Cat its one face card, with
    ``between`` giving the positions of the two cards sandwiching its run.
    """

    kind: str
    cards: tuple[int, ...]
    points: int
    between: tuple[int, int] | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "cards": list(self.cards), "points": self.points}
        if self.between is not None:
            data["between"] = list(self.between)
        return data


@dataclass(frozen=True, slots=True)
class QueenChoice:
    """The value a Queen counts as; ``matters``: the other value would change the total."""

    position: int
    value: int
    matters: bool

    def to_data(self) -> dict[str, Any]:
        return {"position": self.position, "value": self.value, "matters": self.matters}


@dataclass(frozen=True, slots=True)
class PileScore:
    """A pile's score with its breakdown: every cat, every Queen's value, the total."""

    cards: tuple[str, ...]
    cats: tuple[Cat, ...]
    queens: tuple[QueenChoice, ...]
    total: int
    lucky_tom: bool = False
    music_of_the_night: bool = False

    def of_kind(self, kind: str) -> list[Cat]:
        """The cats of one kind, in pile order."""
        return [cat for cat in self.cats if cat.kind == kind]

    def count(self, kind: str) -> int:
        """How many cats of ``kind`` the pile has."""
        return len(self.of_kind(kind))

    def points(self, kind: str) -> int:
        """The points the cats of ``kind`` bring."""
        return sum(cat.points for cat in self.of_kind(kind))

    def queen_values(self) -> dict[int, int]:
        """Each Queen's position mapped to its chosen value."""
        return {queen.position: queen.value for queen in self.queens}

    def to_data(self) -> dict[str, Any]:
        """Msgpack-ready breakdown (what views carry for every pile)."""
        return {
            "cards": list(self.cards),
            "score": self.total,
            "cats": [cat.to_data() for cat in self.cats],
            "queens": [queen.to_data() for queen in self.queens],
            "counts": {kind: self.count(kind) for kind in CAT_KINDS},
        }

    def explain(self) -> str:
        """A few lines saying which cards form which cat, the Queens' values, and the total."""
        if not self.cards:
            return "An empty pile scores 0."
        labels = [card_label(card) for card in self.cards]
        values = self.queen_values()
        lines = ["Pile: " + " ".join(labels)]
        for kind in CAT_NAMES:
            cats = self.of_kind(kind)
            singular, plural = CAT_NAMES[kind]
            if not cats:
                lines.append(f"{plural}: none")
                continue
            name = singular if len(cats) == 1 else plural
            parts = [self._describe(cat, labels, values) for cat in cats]
            points = self.points(kind)
            unit = "point" if points == 1 else "points"
            lines.append(f"{len(cats)} {name} ({points} {unit}): {', '.join(parts)}")
        for queen in self.queens:
            why = "" if queen.matters else " (either value scores the same)"
            lines.append(f"{labels[queen.position]} counts as {queen.value}{why}")
        lines.append(f"Total: {self.total}")
        return "\n".join(lines)

    def _describe(self, cat: Cat, labels: list[str], values: Mapping[int, int]) -> str:
        run = "-".join(labels[i] for i in cat.cards)
        if cat.kind == JELLICAL and cat.between is not None:
            left, right = cat.between
            text = f"{run} between {labels[left]} and {labels[right]}"
        elif cat.kind in (TOMCAT, BLACK_CAT):
            sums = "+".join(str(_value(self.cards[i], values.get(i))) for i in cat.cards)
            text = f"{run} ({sums}={BLACK_CAT_SUM if cat.kind == BLACK_CAT else TOMCAT_SUM})"
        else:
            text = run
        usual = {TOMCAT: TOMCAT_POINTS, YOWLER: YOWLER_POINTS}.get(cat.kind)
        if usual is not None and cat.points != usual:
            text += f" worth {cat.points}"
        return text


# --------------------------------------------------------------------------- scoring


def _value(card: str, queen_value: int | None) -> int:
    if card[0] == "Q":
        return QUEEN_VALUES[0] if queen_value is None else queen_value
    return RANK_VALUES[card[0]]


def _cats(
    cards: Sequence[str], values: Sequence[int], lucky_tom: bool, music_of_the_night: bool
) -> list[Cat]:
    """Every cat of the pile for the given card values (Queens' values already chosen)."""
    cats: list[Cat] = []
    count = len(cards)
    for i in range(count - 1):
        if values[i] + values[i + 1] == TOMCAT_SUM:
            double_five = cards[i][0] == "5" and cards[i + 1][0] == "5"
            points = LUCKY_TOM_POINTS if lucky_tom and double_five else TOMCAT_POINTS
            cats.append(Cat(TOMCAT, (i, i + 1), points))
    tens = [i for i, card in enumerate(cards) if card[0] == "T"]
    each = len(tens) if music_of_the_night else YOWLER_POINTS
    cats.extend(Cat(YOWLER, (i,), each) for i in tens)
    cats.extend(_jellical_cats(cards))
    cats.extend(_black_cats(cards, values))
    return cats


def _jellical_cats(cards: Sequence[str]) -> list[Cat]:
    cats: list[Cat] = []
    start = 0
    count = len(cards)
    while start < count:
        rank = cards[start][0]
        end = start
        while end + 1 < count and cards[end + 1][0] == rank:
            end += 1
        sandwiched = start > 0 and end + 1 < count and cards[start - 1][0] == cards[end + 1][0]
        if rank in FACE_RANKS and sandwiched:
            cats.extend(
                Cat(JELLICAL, (i,), JELLICAL_POINTS, (start - 1, end + 1))
                for i in range(start, end + 1)
            )
        start = end + 1
    return cats


def _black_cats(cards: Sequence[str], values: Sequence[int]) -> list[Cat]:
    cats: list[Cat] = []
    count = len(cards)
    for first in range(count):
        if not is_black(cards[first]) or values[first] == 0:
            continue
        total = values[first]
        last = first + 1
        # Values are never negative, so a run stops being a candidate once it passes 13.
        while last < count and is_black(cards[last]):
            total += values[last]
            if total > BLACK_CAT_SUM:
                break
            if total == BLACK_CAT_SUM and values[last] != 0:
                cats.append(Cat(BLACK_CAT, tuple(range(first, last + 1)), BLACK_CAT_POINTS))
            last += 1
    return cats


def _queen_groups(cards: Sequence[str]) -> list[list[int]]:
    """Queens whose values must be chosen together.

    A pile's score is a sum of parts that each depend on at most one group:
    a Tomcat pair never holds two Queens (7+7 > 10), so a red Queen only
    matters to its own pairs, and a Black Cat lies inside one unbroken run of
    black cards, so the black Queens of one such run form a group. Choosing
    the best values group by group is therefore exact, and costs at most
    2^(black Queens in one run) evaluations instead of 2^(all Queens).
    """
    groups: list[list[int]] = []
    run: list[int] = []
    for i, card in enumerate(cards):
        if is_black(card):
            if card[0] == "Q":
                run.append(i)
            continue
        if run:
            groups.append(run)
            run = []
        if card[0] == "Q":
            groups.append([i])
    if run:
        groups.append(run)
    return groups


def _total(cards: Sequence[str], values: Sequence[int], lucky: bool, music: bool) -> int:
    return sum(cat.points for cat in _cats(cards, values, lucky, music))


def evaluate_pile(
    cards: Sequence[str],
    queen_values: Mapping[int, int] | None = None,
    *,
    lucky_tom: bool = False,
    music_of_the_night: bool = False,
) -> PileScore:
    """Score ``cards`` with each Queen at the value ``queen_values`` gives its position.

    Queens not named count as 7. This is the scoring rule itself; the game
    uses :func:`score_pile`, which chooses the Queens' values.
    """
    cards = tuple(check_card(card) for card in cards)
    chosen = dict(queen_values or {})
    for position, value in chosen.items():
        if not 0 <= position < len(cards) or cards[position][0] != "Q":
            raise ValueError(f"Position {position} of the pile is not a Queen")
        if value not in QUEEN_VALUES:
            raise ValueError(f"A Queen is worth 7 or 11, not {value!r}")
    values = [_value(card, chosen.get(i)) for i, card in enumerate(cards)]
    return _result(cards, values, lucky_tom, music_of_the_night)


def _result(cards: tuple[str, ...], values: list[int], lucky: bool, music: bool) -> PileScore:
    """The breakdown for fixed values, noting which Queens' values change the total."""
    cats = _cats(cards, values, lucky, music)
    total = sum(cat.points for cat in cats)
    queens: list[QueenChoice] = []
    for position, card in enumerate(cards):
        if card[0] != "Q":
            continue
        kept = values[position]
        values[position] = QUEEN_VALUES[1] if kept == QUEEN_VALUES[0] else QUEEN_VALUES[0]
        matters = _total(cards, values, lucky, music) != total
        values[position] = kept
        queens.append(QueenChoice(position, kept, matters))
    return PileScore(cards, tuple(cats), tuple(queens), total, lucky, music)


def score_pile(
    cards: Sequence[str], *, lucky_tom: bool = False, music_of_the_night: bool = False
) -> PileScore:
    """The best score of a kitty pile (Queens valued to score most) with its breakdown.

    ``cards`` are in the order they were put on the pile. Raises
    :class:`InvalidCard` for a code that is not a card. Results are cached,
    so scoring the same pile again (every view does) is cheap.
    """
    # Callers may pass anything (views come off the network); the full check of
    # the codes runs once per distinct pile, on a cache miss.
    key: tuple[object, ...] = tuple(cards)
    for card in key:
        if not isinstance(card, str):
            check_card(card)
    return _score_cached(cast(tuple[str, ...], key), lucky_tom, music_of_the_night)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _score_cached(cards: tuple[str, ...], lucky: bool, music: bool) -> PileScore:
    for card in cards:
        check_card(card)
    values = [_value(card, None) for card in cards]
    for group in _queen_groups(cards):
        best_total, best_mask = -1, 0
        for mask in range(1 << len(group)):
            for bit, position in enumerate(group):
                values[position] = QUEEN_VALUES[(mask >> bit) & 1]
            total = _total(cards, values, lucky, music)
            if total > best_total:
                best_total, best_mask = total, mask
        for bit, position in enumerate(group):
            values[position] = QUEEN_VALUES[(best_mask >> bit) & 1]
    return _result(cards, values, lucky, music)

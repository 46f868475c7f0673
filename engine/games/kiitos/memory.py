"""What a Kiitos seat can remember from the views it is shown: letters gone, letters lacking.

A bot is shown a view only when it may act (its turn, or a word it may
challenge), so it misses some moves; :class:`TableMemory` rebuilds what it
can from one view to the next, as a player at the table recalls:

* letters that went to a pile (a word completed or a table picked up) are
  out of play for the rest of the round, so nobody can hold them;
* the rules compel a player holding the target's next letter to play it, so
  a player who said a new word instead lacked that letter, and a player who
  picked the table up lacked every letter that continues it into a word;
  such a lack holds until they draw again, and fades with each card drawn.

It reads only the view (table, target, turn, pile counts, hand sizes): no
hidden card ever reaches it. Under Super-Kiitos (letters at either end) it
infers no lacks: which letter a player was compelled to play is ambiguous.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from string import ascii_lowercase
from typing import Any

from engine.games.kiitos.rules import HAND_SIZE
from engine.games.kiitos.words import dictionary


@lru_cache(maxsize=4096)
def continuations(part: str, shortest: int) -> frozenset[str]:
    """The letters (upper-case) ``c`` for which ``part + c`` still leads to a word.

    A continuation needs a dictionary word at least ``shortest`` long that is
    not ``part + c`` itself (saying it would finish it at once). A player not
    compelled to play holds none of these when they pick ``part`` up.
    """
    found = dictionary().everything
    letters: set[str] = set()
    for char in ascii_lowercase:
        grown = part + char
        start, end = found.prefix_range(grown)
        if end - start > 8 or any(
            len(word) >= shortest and word != grown for word in found.words[start:end]
        ):
            letters.add(char.upper())
    return frozenset(letters)


@dataclass
class TableMemory:
    """One seat's recollection of this round: letters gone to piles, letters others lack.

    ``lacks[seat][letter]`` is how many cards ``seat`` had drawn (``drawn[seat]``)
    when it was seen lacking ``letter``: the cards drawn since are the chances it
    has one again.
    """

    gone: Counter[str] = field(default_factory=Counter)
    lacks: dict[int, dict[str, int]] = field(default_factory=dict)
    drawn: dict[int, int] = field(default_factory=dict)
    _round: int = 0
    _table: str = ""
    _target: str = ""
    _turn: int | None = None
    _piles: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))
    _counts: list[int] = field(default_factory=list)

    def see(self, view: dict[str, Any]) -> None:
        """Update from ``view``: forget at a new round, else read what changed since the last."""
        table = "".join(view["table"]).lower()
        if view["round"] != self._round:
            self.gone, self.lacks, self.drawn = Counter(), {}, {}
        elif not view["rules"]["super_kiitos"]:
            self._read(view, table)
        self._round, self._table = view["round"], table
        self._target = (view.get("target") or "").lower()
        self._turn = view.get("turn")
        self._piles = (list(view["positive"]), list(view["negative"]))
        self._counts = list(view["hand_counts"])

    def played(self, view: dict[str, Any], action: dict[str, Any]) -> None:
        """Note this seat's own letter (and word): it sees no view of its own move."""
        if action["type"] not in ("lead", "say", "play") or view["rules"]["super_kiitos"]:
            return
        self._table = self._table + action["letter"].lower()
        if action["type"] != "play":
            self._target = action["word"].lower()
        self._turn = (view["seat"] + 1) % len(view["hand_counts"])

    def lacking(self, seat: int, letter: str) -> int | None:
        """Cards ``seat`` drew since it was seen lacking ``letter``; ``None``: never seen."""
        stamp = self.lacks.get(seat, {}).get(letter)
        return None if stamp is None else self.drawn.get(seat, 0) - stamp

    # Reading the changes -------------------------------------------------------------

    def _read(self, view: dict[str, Any], table: str) -> None:
        positive, negative = view["positive"], view["negative"]
        old_positive, old_negative = self._piles
        if len(old_positive) != len(positive) or self._turn is None:
            return
        gained = [seat for seat in range(len(positive)) if positive[seat] > old_positive[seat]]
        lost = [seat for seat in range(len(negative)) if negative[seat] > old_negative[seat]]
        if gained or lost:  # the table went to a pile; everyone drew back to 8
            self._table_went(view, gained, lost)
            self._count_draws(view, after_clear=True)
        elif table.startswith(self._table):
            self._new_word(view, table)
            self._count_draws(view, after_clear=False)

    def _seat_at(self, index: int, players: int) -> int:
        """Who played the letter at ``index`` of the table, counting on from the last view."""
        assert self._turn is not None
        return (self._turn + index - len(self._table)) % players

    def _new_word(self, view: dict[str, Any], table: str) -> None:
        """The first letter off the old target was played by someone lacking the target's."""
        if not self._target:
            return
        for index in range(len(self._table), len(table)):
            if index >= len(self._target) or table[index] != self._target[index]:
                if index < len(self._target):
                    seat = self._seat_at(index, len(view["hand_counts"]))
                    self._lack(view, seat, {self._target[index].upper()})
                return

    def _table_went(self, view: dict[str, Any], gained: list[int], lost: list[int]) -> None:
        """A completed target goes to its sayer; a picked-up one tells what the picker lacked."""
        players = len(view["hand_counts"])
        if gained and self._target:
            self.gone.update(self._target.upper())
            return
        if not lost or not self._target:
            self.gone.update(self._table.upper())
            return
        seat = lost[0]
        count = view["negative"][seat] - self._piles[1][seat]
        picked = self._target[:count]
        # Only when the count and the seat agree with the target played on from the last view.
        if count < len(self._table) or self._seat_at(count, players) != seat:
            self.gone.update(self._table.upper())
            return
        self.gone.update(picked.upper())
        shortest: int = view["rules"]["min_length"]
        self._lack(view, seat, set(continuations(picked, shortest)))

    def _lack(self, view: dict[str, Any], seat: int, letters: set[str]) -> None:
        if seat == view["seat"]:
            return
        stamp = self.drawn.get(seat, 0)
        self.lacks.setdefault(seat, {}).update({letter: stamp for letter in letters})

    def _count_draws(self, view: dict[str, Any], after_clear: bool) -> None:
        """Cards each seat drew since the last view: what it holds that a lack cannot speak for."""
        counts: list[int] = view["hand_counts"]
        for seat, count in enumerate(counts):
            before = self._counts[seat] if seat < len(self._counts) else count
            drew = HAND_SIZE - before if after_clear else max(count - before, 0)
            if drew > 0:
                self.drawn[seat] = self.drawn.get(seat, 0) + drew
